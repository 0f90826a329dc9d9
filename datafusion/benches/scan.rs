//! `SELECT count(*), sum(l), sum(d)` over records of the small shape {int, long, boolean,
//! double}: Paddle-framed binary against the same records as Parquet, both through
//! DataFusion in the same run, each with one partition and with two (the Paddle file split
//! into two byte ranges).
//!
//! `SQL_BENCH_RECORDS` sets the record count (default 10 000 000); the files are made once
//! under `target/sql-bench/` and kept.

mod common;

use std::time::Duration;

use common::{data, records, runtime, table, Source, QUERY};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn scan(c: &mut Criterion) {
    let rt = runtime();
    let n = records();
    let (ddl, paddle, parquet) = data(&rt, n);
    let mut group = c.benchmark_group(format!("sql_count_sum_{n}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(n));
    for partitions in [1, 2] {
        for (source, name) in [
            (Source::Paddle, "paddle_binary"),
            (Source::Parquet, "parquet"),
        ] {
            let ctx = table(&rt, partitions, source, &ddl, &paddle, &parquet);
            group.bench_function(format!("{name}/{partitions}_partitions"), |b| {
                b.iter(|| {
                    rt.block_on(async { ctx.sql(QUERY).await.unwrap().collect().await.unwrap() })
                })
            });
        }
    }
    group.finish();
    eprintln!(
        "files: paddle {} bytes, parquet {} bytes, {n} records",
        std::fs::metadata(&paddle).unwrap().len(),
        std::fs::metadata(&parquet).unwrap().len()
    );
}

criterion_group!(benches, scan);
criterion_main!(benches);
