//! `rcc sql … --to delta -o TABLE/` against `rcc sql … --to parquet -o DIR/` over the same
//! records, side by side in one run: what a Delta table costs over a plain Parquet dataset
//! (the part files' statistics, the log entry and its commit). Target: at most 1.1× the
//! Parquet dataset's time.
//!
//! The records are `web.Hit` of `examples/sql/web.jr` (a long, a URL, an int status of
//! seven values, a long, a vector of 0–3 tags, a nested `Place`), Paddle-framed binary,
//! made once under `target/delta-bench/` and kept. Each write runs as `rcc sql` runs it, in
//! this process: a session as `rcc-sql` makes one (its stores, dataset writes, `COPY …
//! STORED AS DELTA`; glibc's allocator tuned as `rcc-sql` tunes it), the file registered
//! as a record table, `SELECT * FROM hits` planned, then `write_dataset` (`--to parquet`)
//! or `write_delta` (`--to delta`, a new table) into an empty directory — unpartitioned, and
//! with `--partition-by status`. Each is timed by the wall clock and by the process's CPU
//! time (every thread's: the scans', the encoders', the commit's), best of each.
//!
//! ```sh
//! cargo bench -p hadoop-record-delta --bench write
//! ```
//!
//! `DELTA_BENCH_RECORDS` sets the record count (default 5,000,000), `DELTA_BENCH_ROUNDS`
//! the timed rounds (default 5), after one that warms the page cache and checks that the
//! table and the dataset hold the same rows. Rounds alternate which format goes first.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use datafusion::arrow::datatypes::DataType;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use hadoop_record::framing::paddle::PaddleWriter;
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_datafusion::write::{
    dataset_url, new_query_id, with_dataset_writes, write_dataset, DatasetSpec, JobOptions,
    PartFormat,
};
use hadoop_record_datafusion::{with_storage, RecordTableOptions, SessionContextExt};
use hadoop_record_delta::{
    with_delta_copy, write_delta, DeltaTableProvider, DeltaWriteOptions, TimeTravel,
};
use hadoop_record_storage::StorageOptions;

/// The target: `--to delta` at most this many times `--to parquet`.
const TARGET: f64 = 1.1;

const QUERY: &str = "SELECT * FROM hits";

/// What is written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum To {
    Parquet,
    Delta,
}

impl To {
    fn name(self) -> &'static str {
        match self {
            To::Parquet => "parquet",
            To::Delta => "delta",
        }
    }
}

fn main() {
    // `cargo test --benches` runs benches with --bench too; only `cargo bench` measures.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    tune_malloc();
    let n = env("DELTA_BENCH_RECORDS", 5_000_000);
    let rounds = env("DELTA_BENCH_ROUNDS", 5);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/delta-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let ddl = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/sql/web.jr");
    let records = hits(&dir, n);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    println!(
        "{n} web.Hit records, Paddle {:.1} MB; {} cores; load average before: {}",
        std::fs::metadata(&records).unwrap().len() as f64 / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );

    let cases: [(&str, &[&str]); 2] = [
        ("unpartitioned", &[]),
        ("--partition-by status", &["status"]),
    ];
    // Best (wall, CPU) per case, per format.
    let mut best = [[Timing::MAX; 2]; 2];
    let mut sizes = [[0u64; 2]; 2];
    for round in 0..=rounds {
        for (c, (_, partition_by)) in cases.iter().enumerate() {
            let order = if round % 2 == 0 {
                [To::Parquet, To::Delta]
            } else {
                [To::Delta, To::Parquet]
            };
            for to in order {
                let out = dir.join(format!("out-{}", to.name()));
                let _ = std::fs::remove_dir_all(&out);
                let (timing, rows) =
                    runtime.block_on(write(&ddl, &records, to, &out, partition_by));
                assert_eq!(rows, n, "{} wrote {rows} rows of {n}", to.name());
                sizes[c][to as usize] = dir_size(&out);
                if round == 0 {
                    continue;
                }
                best[c][to as usize] = best[c][to as usize].best(timing);
            }
            if round == 0 {
                runtime.block_on(check_same(
                    &dir.join("out-parquet"),
                    &dir.join("out-delta"),
                    partition_by,
                    n,
                ));
            }
        }
    }
    for to in [To::Parquet, To::Delta] {
        let _ = std::fs::remove_dir_all(dir.join(format!("out-{}", to.name())));
    }

    println!("load average after: {}", load_average());
    println!(
        "best of {rounds}, each clock on its own; CPU = the process's, every thread; \
         ratio = delta / parquet\n"
    );
    println!("| write | `--to parquet` CPU (wall) | `--to delta` CPU (wall) | ratio CPU (wall) | output MB | target |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (c, (name, _)) in cases.iter().enumerate() {
        let [parquet, delta] = best[c];
        let ratio =
            |f: fn(&Timing) -> Duration| f(&delta).as_secs_f64() / f(&parquet).as_secs_f64();
        let cpu = ratio(|t| t.cpu);
        println!(
            "| {name} | {:.2} s ({:.2} s) | {:.2} s ({:.2} s) | {cpu:.3}× ({:.3}×) | {:.1} / {:.1} | ≤ {TARGET}×, {} |",
            parquet.cpu.as_secs_f64(),
            parquet.wall.as_secs_f64(),
            delta.cpu.as_secs_f64(),
            delta.wall.as_secs_f64(),
            ratio(|t| t.wall),
            sizes[c][0] as f64 / 1e6,
            sizes[c][1] as f64 / 1e6,
            if cpu <= TARGET { "met" } else { "**not met**" },
        );
    }
}

/// Writes `SELECT * FROM hits` over `records` into `out` as `rcc sql --to parquet -o
/// out/` or `--to delta -o out/` would, in a session of its own; answers the time it took
/// (session and all) and the rows written.
async fn write(
    ddl: &Path,
    records: &Path,
    to: To,
    out: &Path,
    partition_by: &[&str],
) -> (Timing, u64) {
    let start = Timing::now();
    let ctx = session();
    let options = RecordTableOptions::new(ddl, "web.Hit").with_framing("paddle");
    ctx.register_records("hits", options, &[records.to_str().unwrap()])
        .await
        .unwrap();
    let frame = ctx.sql(QUERY).await.unwrap();
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

/// A session as `rcc-sql` makes one for a local query.
fn session() -> SessionContext {
    let runtime = with_storage(RuntimeEnvBuilder::new(), StorageOptions::default())
        .build()
        .unwrap();
    let state = SessionStateBuilder::new()
        .with_config(SessionConfig::new())
        .with_default_features()
        .with_runtime_env(Arc::new(runtime));
    SessionContext::new_with_state(with_delta_copy(with_dataset_writes(state)).build())
}

/// Checks that the Delta table and the Parquet dataset hold `n` rows, the same ones by
/// their sums and counts per status.
async fn check_same(parquet: &Path, delta: &Path, partition_by: &[&str], n: u64) {
    const CHECK: &str = "SELECT status, count(*), sum(bytes), sum(time), \
        sum(length(url)), sum(cardinality(tags)), sum(length(origin['city'])) \
        FROM t GROUP BY status ORDER BY status";
    let ctx = session();
    // The dataset's Hive directories, as `rcc sql` reads them back (`--partition-by status`).
    let columns = partition_by
        .iter()
        .map(|c| (c.to_string(), DataType::Int32))
        .collect();
    let options = ParquetReadOptions::default().table_partition_cols(columns);
    ctx.register_parquet("t", format!("{}/", parquet.display()), options)
        .await
        .unwrap();
    let from_parquet = ctx.sql(CHECK).await.unwrap().collect().await.unwrap();
    let ctx = session();
    let table = DeltaTableProvider::open(
        &ctx.runtime_env(),
        delta.to_str().unwrap(),
        TimeTravel::Latest,
    )
    .await
    .unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
    let from_delta = ctx.sql(CHECK).await.unwrap().collect().await.unwrap();
    let text = |b| {
        datafusion::arrow::util::pretty::pretty_format_batches(b)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        text(&from_parquet),
        text(&from_delta),
        "the table's rows differ"
    );
    let rows: i64 = ctx
        .sql("SELECT count(*) FROM t")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap()[0]
        .column(0)
        .as_any()
        .downcast_ref::<datafusion::arrow::array::Int64Array>()
        .unwrap()
        .value(0);
    assert_eq!(rows as u64, n, "the table holds {rows} rows of {n}");
}

/// The Paddle file of `n` `web.Hit` records under `dir`, made once.
fn hits(dir: &Path, n: u64) -> PathBuf {
    let path = dir.join(format!("hits-{n}.paddle"));
    if path.exists() {
        return path;
    }
    // web.jr's types, as its DDL declares them.
    let mut schema = Schema::new();
    let place = schema
        .add(RecordType::new(
            "web",
            "Place",
            vec![
                FieldDef::new("city", FieldType::String),
                FieldDef::new("country", FieldType::String),
            ],
        ))
        .unwrap();
    let hit = schema
        .add(RecordType::new(
            "web",
            "Hit",
            vec![
                FieldDef::new("time", FieldType::Long),
                FieldDef::new("url", FieldType::String),
                FieldDef::new("status", FieldType::Int),
                FieldDef::new("bytes", FieldType::Long),
                FieldDef::new("tags", FieldType::Vector(Box::new(FieldType::String))),
                FieldDef::new("origin", FieldType::Record(place)),
            ],
        ))
        .unwrap();
    const STATUS: [i32; 16] = [
        200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 304, 304, 301, 302, 404, 500,
    ];
    const TAGS: [&str; 12] = [
        "mobile", "desktop", "bot", "search", "ad", "social", "mail", "api", "cached", "slow",
        "tls", "ipv6",
    ];
    const PLACES: [(&str, &str); 12] = [
        ("Oslo", "NO"),
        ("Lima", "PE"),
        ("Pau", "FR"),
        ("Paris", "FR"),
        ("Osaka", "JP"),
        ("Tokyo", "JP"),
        ("Austin", "US"),
        ("Boston", "US"),
        ("Cork", "IE"),
        ("Porto", "PT"),
        ("Quito", "EC"),
        ("Perth", "AU"),
    ];
    let tmp = path.with_extension("tmp");
    let file = std::io::BufWriter::new(std::fs::File::create(&tmp).unwrap());
    let mut frames = PaddleWriter::new(file);
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut buf = Vec::with_capacity(256);
    for k in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let pick = |bits: u32, len: usize| ((x >> bits) as usize) % len;
        let tags = (0..pick(0, 4))
            .map(|t| Value::String(TAGS[pick(8 + 4 * t as u32, TAGS.len())].to_owned()))
            .collect();
        let (city, country) = PLACES[pick(24, PLACES.len())];
        let hit_value = Value::Record(vec![
            // A day of hits, in order, milliseconds since the epoch.
            Value::Long(1_700_000_000_000 + (k * 86_400_000 / n.max(1)) as i64),
            Value::String(format!(
                "https://example.com/{}/{}?page={}",
                ["shop", "blog", "docs", "news", "api/v2"][pick(28, 5)],
                x >> 48,
                pick(32, 100)
            )),
            Value::Int(STATUS[pick(40, STATUS.len())]),
            Value::Long((x >> 44) as i64 % 2_000_000),
            Value::Vector(tags),
            Value::Record(vec![
                Value::String(city.to_owned()),
                Value::String(country.to_owned()),
            ]),
        ]);
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

/// glibc's allocator tuned as `rcc-sql` tunes it at start (its `malloc.rs`): buffers of
/// up to 32 MiB are kept rather than mapped and unmapped each time.
fn tune_malloc() {
    // SAFETY: mallopt changes the allocator's parameters; no other thread runs yet.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

/// Wall and process CPU time.
#[derive(Debug, Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// A start to measure [`Timing`] from.
struct Start {
    wall: Instant,
    cpu: Duration,
}

impl Timing {
    const MAX: Timing = Timing {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };

    fn now() -> Start {
        Start {
            wall: Instant::now(),
            cpu: process_cpu(),
        }
    }

    /// The best of each clock.
    fn best(self, other: Timing) -> Timing {
        Timing {
            wall: self.wall.min(other.wall),
            cpu: self.cpu.min(other.cpu),
        }
    }
}

impl Start {
    fn elapsed(&self) -> Timing {
        Timing {
            wall: self.wall.elapsed(),
            cpu: process_cpu().saturating_sub(self.cpu),
        }
    }
}

/// This process's CPU time, all threads (`CLOCK_PROCESS_CPUTIME_ID`).
fn process_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The bytes of the files under `dir`.
fn dir_size(dir: &Path) -> u64 {
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

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
