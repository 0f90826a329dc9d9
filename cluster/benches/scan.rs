//! The scan benchmark of `hadoop-record-datafusion` (`SELECT count(*), sum(l), sum(d)` over
//! a Paddle-framed binary file of small records) on a Ballista cluster of one scheduler and
//! two executors on this machine (in this process, on loopback ports), beside the same scan
//! by local DataFusion, in the same run, each with two partitions (two byte ranges).
//!
//! `SQL_BENCH_RECORDS` sets the record count (default 10 000 000); the files are shared with
//! `hadoop-record-datafusion`'s benchmark (`target/sql-bench/`). The executors print a line
//! per task on standard error.

#[path = "../../datafusion/benches/common/mod.rs"]
mod common;

use std::net::TcpListener;
use std::time::Duration;

use common::{data, records, runtime, QUERY};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record_cluster::{
    register_records, remote_context, run_executor, run_scheduler, ExecutorOptions,
    SchedulerOptions,
};
use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};
use tokio::runtime::Runtime;
use tokio::sync::oneshot;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A scheduler and two executors (one task at a time each), started on `rt`; the
/// scheduler's `df://` URL once both executors are registered.
fn cluster(rt: &Runtime) -> String {
    let (ready, bound) = oneshot::channel();
    let scheduler = SchedulerOptions::default()
        .with_bind_host("127.0.0.1")
        .with_bind_port(0);
    rt.spawn(async move {
        run_scheduler(scheduler, |address| {
            let _ = ready.send(address);
        })
        .await
        .unwrap()
    });
    let address = rt.block_on(bound).unwrap();
    for _ in 0..2 {
        let (ready, up) = oneshot::channel();
        let executor = ExecutorOptions::default()
            .with_scheduler_host("127.0.0.1")
            .with_scheduler_port(address.port())
            .with_bind_host("127.0.0.1")
            .with_bind_port(free_port())
            .with_bind_grpc_port(free_port())
            .with_concurrent_tasks(1);
        rt.spawn(async move {
            run_executor(executor, |_| {
                let _ = ready.send(());
            })
            .await
            .unwrap()
        });
        rt.block_on(up).unwrap();
    }
    format!("df://{address}")
}

/// Two partitions; files above 1 MiB split.
fn config() -> SessionConfig {
    SessionConfig::new()
        .with_target_partitions(2)
        .with_repartition_file_min_size(1 << 20)
}

fn scan(c: &mut Criterion) {
    let rt = runtime();
    let n = records();
    let (ddl, paddle, _) = data(&rt, n);
    let url = cluster(&rt);
    let options = RecordTableOptions::new(&ddl, "bench.Small").with_framing("paddle");
    let local = SessionContext::new_with_config(config());
    let remote = rt.block_on(async {
        local
            .register_records("t", options.clone(), &[paddle.to_str().unwrap()])
            .await
            .unwrap();
        let remote = remote_context(&url, config(), Default::default())
            .await
            .unwrap();
        register_records(&remote, "t", options, &[paddle.to_str().unwrap()])
            .await
            .unwrap();
        remote
    });
    let mut group = c.benchmark_group(format!("sql_count_sum_{n}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .throughput(Throughput::Elements(n));
    for (name, ctx) in [
        ("local_datafusion", &local),
        ("ballista_2_executors", &remote),
    ] {
        group.bench_function(format!("paddle_binary/2_partitions/{name}"), |b| {
            b.iter(|| rt.block_on(async { ctx.sql(QUERY).await.unwrap().collect().await.unwrap() }))
        });
    }
    group.finish();
}

criterion_group!(benches, scan);
criterion_main!(benches);
