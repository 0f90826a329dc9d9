//! The job commit of a dataset written to S3 (moto's server, pinned, on loopback), against
//! the number of part files (10, 100, 1,000 of 1 MiB) and their size (4 of 1 MiB, 4 of
//! 1 GiB): each part file is a pending multipart upload its task left, which the commit
//! completes — one `CompleteMultipartUpload` per file, 32 at a time, no copy.
//!
//! ```sh
//! cargo bench -p hadoop-record-datafusion --bench commit
//! ```
//!
//! The commit's own time is what the write logs (`committed …: N part files … in S s`);
//! the job's is around it. `COMMIT_BENCH_SIZES=small` leaves out the 1 GiB files (4 GiB
//! through moto, a minute or two). moto assembles a completed upload by concatenating its
//! parts in Python, so its completion takes time in the object's size, which S3's does not;
//! the bench prints the bytes the commit sent, which are none of the data.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use fixture_harness::peers::{moto_python, target_dir, MotoServer};
use hadoop_record_datafusion::with_storage;
use hadoop_record_datafusion::write::{
    new_query_id, with_dataset_writes, write_dataset, DatasetSpec, JobOptions, PartFormat,
};
use hadoop_record_storage::StorageOptions;

/// The commit times the write logs, in seconds.
static COMMITS: Mutex<Vec<f64>> = Mutex::new(Vec::new());

/// Keeps the write's `committed … in S s` lines.
struct Commits;

impl log::Log for Commits {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.target().starts_with("hadoop_record_datafusion")
    }

    fn log(&self, record: &log::Record) {
        let text = record.args().to_string();
        if let Some(seconds) = text
            .strip_prefix("committed ")
            .and_then(|t| t.rsplit_once(" in "))
            .and_then(|(_, s)| s.strip_suffix(" s"))
            .and_then(|s| s.parse().ok())
        {
            COMMITS.lock().unwrap().push(seconds);
        }
    }

    fn flush(&self) {}
}

/// Writes `files` part files of about `size` bytes each (CSV rows of 1 KiB laid out by
/// `k`) into `url`; the job's and the commit's seconds.
async fn job(url: &str, files: usize, size: usize) -> (f64, f64) {
    let config = SessionConfig::new()
        .with_target_partitions(1)
        .with_batch_size(1024);
    let runtime = with_storage(
        RuntimeEnvBuilder::new(),
        StorageOptions::default().with_s3_endpoint(std::env::var("AWS_ENDPOINT_URL").ok()),
    )
    .build()
    .unwrap();
    let state = SessionStateBuilder::new()
        .with_config(config)
        .with_runtime_env(Arc::new(runtime))
        .with_default_features();
    let ctx = SessionContext::new_with_state(with_dataset_writes(state).build());
    let rows = files * size / 1024;
    // Each value of k in turn: every file open until the end, written a row at a time.
    let query = format!("SELECT value % {files} AS k, repeat('x', 1016) AS pad FROM range({rows})");
    let frame = ctx.sql(&query).await.unwrap();
    let spec = DatasetSpec::new(url, new_query_id(), PartFormat::Csv)
        .with_partition_by(vec!["k".into()])
        .with_max_open_files(files);
    let started = Instant::now();
    write_dataset(frame, spec, JobOptions::default().with_overwrite(true))
        .await
        .unwrap();
    let total = started.elapsed().as_secs_f64();
    let commit = COMMITS
        .lock()
        .unwrap()
        .pop()
        .expect("the commit logs its time");
    (total, commit)
}

fn main() {
    let Some(python) = moto_python() else {
        eprintln!("moto is skipped: no bench");
        return;
    };
    let dir = target_dir().join("bench-commit");
    std::fs::create_dir_all(&dir).unwrap();
    let moto = MotoServer::start(python, &dir.join("moto.log"));
    moto.create_bucket("lake");
    // SAFETY: set once, before any thread of this process reads the environment.
    unsafe {
        std::env::set_var("AWS_ENDPOINT_URL", &moto.endpoint);
        std::env::set_var("AWS_ACCESS_KEY_ID", "k");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "s");
        std::env::set_var("AWS_REGION", "us-east-1");
    }
    log::set_logger(&Commits).unwrap();
    log::set_max_level(log::LevelFilter::Info);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let small_only = std::env::var("COMMIT_BENCH_SIZES").is_ok_and(|v| v == "small");
    let mut cases = vec![(10, 1 << 20), (100, 1 << 20), (1000, 1 << 20), (4, 1 << 20)];
    if !small_only {
        cases.push((4, 1 << 30));
    }
    println!("part files  size      job (s)  commit (s)  commit per file (ms)");
    let mut commits = Vec::new();
    for (files, size) in cases {
        let url = format!("s3://lake/commit-{files}-{size}/");
        // Best of three commits (the last, over the first two: an overwrite's).
        let mut best = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            let (total, commit) = runtime.block_on(job(&url, files, size));
            if commit < best.1 {
                best = (total, commit);
            }
        }
        let shown = if size >= 1 << 30 { "1 GiB" } else { "1 MiB" };
        println!(
            "{files:>10}  {shown:<8}  {:>7.2}  {:>10.3}  {:>20.2}",
            best.0,
            best.1,
            best.1 * 1000.0 / files as f64
        );
        commits.push(((files, size), best.1));
    }
    let time = |key| commits.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
    if let (Some(hundred), Some(thousand)) = (time((100, 1 << 20)), time((1000, 1 << 20))) {
        println!(
            "1,000 parts against 100: {:.2}x the time (target: at most 3x)",
            thousand / hundred
        );
    }
    if let (Some(small), Some(large)) = (time((4, 1 << 20)), time((4, 1 << 30))) {
        println!(
            "4 parts of 1 GiB against 4 of 1 MiB: {:.2}x the time (moto concatenates parts \
             when it completes an upload; the commit sends no data)",
            large / small
        );
    }
    let log = std::fs::read_to_string(dir.join("moto.log")).unwrap_or_default();
    let copies = log
        .lines()
        .filter(|l| {
            l.contains("\"PUT /lake/commit-") && l.contains("/part-") && !l.contains("uploadId=")
        })
        .count();
    println!("part files put or copied whole: {copies} (all were completed uploads)");
}
