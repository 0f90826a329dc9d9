//! What the Delta benches share: the records (`web.Hit` of `examples/sql/web.jr`, made
//! once under `target/delta-bench/` and kept), sessions as `rcc-sql` makes them, the writes
//! and reads as `rcc sql` runs them, the check that two tables hold the same rows, and the
//! clocks.

// Each bench uses part of this module.
#![allow(dead_code)]

pub mod spark;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use datafusion::arrow::array::Int64Array;
use datafusion::arrow::datatypes::DataType;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use fixture_harness::bench::{env_or, measuring, process_cpu, web_hit, web_hit_schema};
pub use fixture_harness::bench::{load_average, Timing};
use hadoop_record::framing::paddle::PaddleWriter;
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Format, RecordWriter};
use hadoop_record_datafusion::write::{
    dataset_url, new_query_id, with_dataset_writes, write_dataset, DatasetSpec, JobOptions,
    PartFormat,
};
use hadoop_record_datafusion::{with_storage, RecordTableOptions, SessionContextExt};
use hadoop_record_delta::{
    with_delta_copy, write_delta, DeltaTableProvider, DeltaWriteOptions, TimeTravel,
};
use hadoop_record_storage::StorageOptions;

/// The benches' directory: the records, and the tables written (removed at the end).
pub fn bench_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/delta-bench");
    std::fs::create_dir_all(&dir).unwrap();
    // Without `..`: the paths a table's log gives are compared with those listed.
    dir.canonicalize().unwrap()
}

/// `examples/sql/web.jr`, the records' DDL.
pub fn web_ddl() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/sql/web.jr")
}

/// Where `rcc sql` reads its rows from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// The Paddle-framed `web.Hit` records of a file (`rcc sql --in-framing paddle`).
    Records(&'a Path),
    /// A Delta table's latest version (`rcc sql --from delta`).
    Delta(&'a Path),
}

/// What `rcc sql` writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum To {
    /// `--to parquet -o DIR/`.
    Parquet,
    /// `--to delta -o TABLE/`, a new table.
    Delta,
}

/// Writes `SELECT * FROM hits` over `from` into `out` (an empty directory) as `rcc sql
/// --to parquet -o out/` or `--to delta -o out/` would, in a session of its own; answers
/// the time it took (session and all) and the rows written.
pub async fn write(from: Source<'_>, to: To, out: &Path, partition_by: &[&str]) -> (Timing, u64) {
    let start = Start::now();
    let ctx = session();
    match from {
        Source::Records(records) => {
            let options = RecordTableOptions::new(web_ddl(), "web.Hit").with_framing("paddle");
            ctx.register_records("hits", options, &[records.to_str().unwrap()])
                .await
                .unwrap();
        }
        Source::Delta(table) => register_delta(&ctx, "hits", table).await,
    }
    let frame = ctx.sql("SELECT * FROM hits").await.unwrap();
    let partition_by: Vec<String> = partition_by.iter().map(|c| c.to_string()).collect();
    let target = format!("{}/", out.display());
    let rows = match to {
        To::Parquet => {
            let url = dataset_url(&target).unwrap();
            let spec =
                DatasetSpec::new(url, new_query_id(), PartFormat::Parquet(Default::default()))
                    .with_partition_by(partition_by);
            write_dataset(frame, spec, JobOptions::default())
                .await
                .unwrap()
        }
        To::Delta => {
            let options = DeltaWriteOptions::default().with_partition_by(partition_by);
            let written = write_delta(frame, &target, &options).await.unwrap();
            assert_eq!(written.version, 0);
            written.rows
        }
    };
    (start.elapsed(), rows)
}

/// A session as `rcc-sql` makes one for a local query (without its rule that keeps the
/// input's order where a query has none, which leaves writes of `SELECT *` to this
/// benchmark's writer and aggregates alone).
pub fn session() -> SessionContext {
    let runtime = with_storage(RuntimeEnvBuilder::new(), StorageOptions::default())
        .build()
        .unwrap();
    let state = SessionStateBuilder::new()
        .with_config(SessionConfig::new())
        .with_default_features()
        .with_runtime_env(Arc::new(runtime));
    SessionContext::new_with_state(with_delta_copy(with_dataset_writes(state)).build())
}

/// The Delta table in `dir` at its latest version, as `rcc sql --from delta` opens it in
/// `ctx`.
pub async fn open_delta(ctx: &SessionContext, dir: &Path) -> DeltaTableProvider {
    let url = format!("{}/", dir.display());
    DeltaTableProvider::open(&ctx.runtime_env(), &url, TimeTravel::Latest)
        .await
        .unwrap()
}

/// Registers the Delta table in `dir` (its latest version) as `name`, as `rcc sql --from
/// delta` does.
pub async fn register_delta(ctx: &SessionContext, name: &str, dir: &Path) {
    let table = open_delta(ctx, dir).await;
    ctx.register_table(name, Arc::new(table)).unwrap();
}

/// Registers the Parquet files under `dir` as `name` through DataFusion's own listing
/// table, the Hive directories of `partition_by` (`web.Hit`'s int `status`) as columns.
pub async fn register_parquet(ctx: &SessionContext, name: &str, dir: &Path, partition_by: &[&str]) {
    let columns = partition_by
        .iter()
        .map(|c| (c.to_string(), DataType::Int32))
        .collect();
    let options = ParquetReadOptions::default().table_partition_cols(columns);
    ctx.register_parquet(name, format!("{}/", dir.display()), options)
        .await
        .unwrap();
}

/// The query's answer in `ctx`, as text.
pub async fn answer(ctx: &SessionContext, sql: &str) -> String {
    let batches: Vec<RecordBatch> = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    datafusion::arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string()
}

/// What shows that two tables hold the same rows: their sums and counts per status.
const CHECK: &str = "SELECT status, count(*), sum(bytes), sum(time), \
    sum(length(url)), sum(cardinality(tags)), sum(length(origin['city'])) \
    FROM t GROUP BY status ORDER BY status";

/// [`CHECK`]'s answer over the Parquet dataset in `dir`, after checking that it holds `n`
/// rows.
pub async fn check_dataset(dir: &Path, partition_by: &[&str], n: u64) -> String {
    let ctx = session();
    register_parquet(&ctx, "t", dir, partition_by).await;
    let batches = ctx
        .sql("SELECT count(*) FROM t")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let rows = batches[0]
        .column(0)
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap()
        .value(0);
    assert_eq!(rows as u64, n, "{} holds {rows} rows of {n}", dir.display());
    answer(&ctx, CHECK).await
}

/// Checks that the Delta table in `dir` holds the rows whose [`CHECK`] answer is
/// `expected`.
pub async fn check_delta(dir: &Path, expected: &str) {
    let ctx = session();
    register_delta(&ctx, "t", dir).await;
    assert_eq!(
        answer(&ctx, CHECK).await,
        expected,
        "the rows of the Delta table {} differ",
        dir.display()
    );
}

/// The Paddle file of `n` `web.Hit` records under `dir`, made once.
pub fn hits(dir: &Path, n: u64) -> PathBuf {
    let path = dir.join(format!("hits-{n}.paddle"));
    if path.exists() {
        return path;
    }
    let (schema, hit) = web_hit_schema();
    let tmp = path.with_extension("tmp");
    let file = std::io::BufWriter::new(std::fs::File::create(&tmp).unwrap());
    let mut frames = PaddleWriter::new(file);
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut buf = Vec::with_capacity(256);
    for k in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let hit_value = web_hit(k, n, x);
        buf.clear();
        let mut w = RecordWriter::new(&mut buf, Format::Binary);
        w.write_value(&schema, hit, &hit_value).unwrap();
        drop(w);
        frames.write_payload(&buf).unwrap();
    }
    frames.finish().unwrap();
    drop(frames);
    std::fs::rename(&tmp, &path).unwrap();
    path
}

/// What a bench's run works with: the records, where, how many rounds, the runtime.
pub struct Run {
    /// The record count (`DELTA_BENCH_RECORDS`).
    pub n: u64,
    /// The timed rounds (`DELTA_BENCH_ROUNDS`).
    pub rounds: u64,
    /// [`bench_dir`].
    pub dir: PathBuf,
    /// The Paddle file of the `n` records ([`hits`]).
    pub records: PathBuf,
    pub runtime: tokio::runtime::Runtime,
}

/// The run of a bench whose rounds default to `rounds`, the allocator tuned and the records
/// made, after saying what it runs on; `None` when this run does not measure (`cargo test
/// --benches`).
pub fn start_run(rounds: u64) -> Option<Run> {
    if !measuring() {
        return None;
    }
    tune_malloc();
    let n = env_or("DELTA_BENCH_RECORDS", 5_000_000u64);
    let rounds = env_or("DELTA_BENCH_ROUNDS", rounds);
    let dir = bench_dir();
    let records = hits(&dir, n);
    println!(
        "{n} web.Hit records, Paddle {:.1} MB; {} cores; load average before: {}",
        std::fs::metadata(&records).unwrap().len() as f64 / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    Some(Run {
        n,
        rounds,
        dir,
        records,
        runtime: runtime(),
    })
}

/// glibc's allocator tuned as `rcc-sql` tunes it at start (its `malloc.rs`): buffers of
/// up to 32 MiB are kept rather than mapped and unmapped each time.
pub fn tune_malloc() {
    // SAFETY: mallopt changes the allocator's parameters; no other thread runs yet.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

/// A multi-threaded runtime, as `rcc-sql`'s.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A start to measure a [`Timing`] from: the wall clock, and the process's CPU time.
pub struct Start {
    wall: Instant,
    cpu: Duration,
}

impl Start {
    pub fn now() -> Start {
        Start {
            wall: Instant::now(),
            cpu: process_cpu(),
        }
    }

    pub fn elapsed(&self) -> Timing {
        Timing {
            wall: self.wall.elapsed(),
            cpu: process_cpu().saturating_sub(self.cpu),
        }
    }
}

/// `CPU (wall)`, each in seconds, or milliseconds under a second.
pub fn show(timing: Timing) -> String {
    let time = |d: Duration| match d.as_secs_f64() {
        s if s < 1.0 => format!("{:.0} ms", s * 1e3),
        s => format!("{s:.2} s"),
    };
    format!("{} ({})", time(timing.cpu), time(timing.wall))
}

/// The bytes of the files under `dir`.
pub fn dir_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| match e.file_type() {
                    Ok(t) if t.is_dir() => dir_size(&e.path()),
                    _ => e.metadata().map_or(0, |m| m.len()),
                })
                .sum()
        })
        .unwrap_or(0)
}
