//! `SELECT count(*), sum(l), sum(d)` over records of the small shape {int, long, boolean,
//! double}: Paddle-framed binary against the same records as Parquet, both through
//! DataFusion in the same run, each with one partition and with two (the Paddle file split
//! into two byte ranges).
//!
//! `SQL_BENCH_RECORDS` sets the record count (default 10 000 000); the files are made once
//! under `target/sql-bench/` and kept.

mod common;

use std::time::Duration;

use common::{data, records, runtime, QUERY};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};

/// A session of `partitions` partitions that splits files above 1 MiB.
fn session(partitions: usize) -> SessionContext {
    SessionContext::new_with_config(
        SessionConfig::new()
            .with_target_partitions(partitions)
            .with_repartition_file_min_size(1 << 20),
    )
}

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
        let ctx = session(partitions);
        rt.block_on(async {
            let options = RecordTableOptions::new(&ddl, "bench.Small").framing("paddle");
            ctx.register_records("t", options, &[paddle.to_str().unwrap()])
                .await
                .unwrap();
        });
        group.bench_function(format!("paddle_binary/{partitions}_partitions"), |b| {
            b.iter(|| rt.block_on(async { ctx.sql(QUERY).await.unwrap().collect().await.unwrap() }))
        });
        let ctx = session(partitions);
        rt.block_on(async {
            ctx.register_parquet(
                "t",
                parquet.to_str().unwrap(),
                ParquetReadOptions::default(),
            )
            .await
            .unwrap();
        });
        group.bench_function(format!("parquet/{partitions}_partitions"), |b| {
            b.iter(|| rt.block_on(async { ctx.sql(QUERY).await.unwrap().collect().await.unwrap() }))
        });
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
