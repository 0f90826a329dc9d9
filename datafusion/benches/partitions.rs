//! Two partitions against one, measured so that a noisy machine's slow and fast phases
//! cancel: the scan bench's query on a table registered twice (one and two target
//! partitions), the two run in turn, and the median of the pairs' ratios reported, for the
//! Paddle file and for the same records as Parquet.
//!
//! `SQL_BENCH_PAIRS` sets the pairs (default 30); `SQL_BENCH_RECORDS` the record count, as
//! in the scan bench, whose files it shares. Criterion cannot pair runs, hence a plain
//! program (`harness = false`): `cargo bench -p hadoop-record-datafusion --bench partitions`.

mod common;

use std::time::Instant;

use common::{data, records, runtime, table, Source, QUERY};

fn main() {
    // `cargo bench` passes `--bench`; there is nothing to choose here.
    let pairs: usize = fixture_harness::bench::env_or("SQL_BENCH_PAIRS", 30);
    let rt = runtime();
    let n = records();
    let (ddl, paddle, parquet) = data(&rt, n);
    println!("| {n} records, {pairs} pairs | 1 partition, median (best) | 2 partitions, median (best) | median pair ratio |");
    println!("| --- | --- | --- | --- |");
    for (source, name) in [(Source::Paddle, "Paddle"), (Source::Parquet, "Parquet")] {
        let sessions = [1, 2].map(|p| table(&rt, p, source, &ddl, &paddle, &parquet));
        let mut times = [Vec::new(), Vec::new()];
        let mut ratios = Vec::new();
        for _ in 0..pairs {
            let pair = sessions.each_ref().map(|ctx| {
                let t = Instant::now();
                rt.block_on(async { ctx.sql(QUERY).await.unwrap().collect().await.unwrap() });
                t.elapsed().as_secs_f64() * 1e3
            });
            times[0].push(pair[0]);
            times[1].push(pair[1]);
            ratios.push(pair[0] / pair[1]);
        }
        let [one, two] = times.map(|mut t| (median(&mut t), t[0]));
        println!(
            "| {name} | {:.0} ms ({:.0}) | {:.0} ms ({:.0}) | {:.2} |",
            one.0,
            one.1,
            two.0,
            two.1,
            median(&mut ratios)
        );
    }
}

/// The median of `v`, which it leaves sorted.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
