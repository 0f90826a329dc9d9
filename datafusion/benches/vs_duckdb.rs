//! `rcc sql` over a Paddle-framed binary file against DuckDB over the same records in
//! Parquet, in the same run: whole `rcc sql` processes (start-up, schema, session and all)
//! against queries in one DuckDB process (Python `duckdb`, pinned, in the venv the repo's
//! other Python peers use), each with one and with two threads, best of five.
//!
//! The records are `{int i; long l; boolean b; double d; ustring s}`, `s` one of 100 values;
//! the queries `SELECT count(*), sum(l), sum(d) FROM records` and `SELECT s, count(*),
//! sum(d) FROM records GROUP BY s`. The Parquet file is DuckDB's own (its default writer,
//! from DataFusion's file of the same records); both answers are checked to agree.
//!
//! Then writing: every record as a Parquet dataset, `rcc sql --to parquet
//! --parquet-compression snappy -o DIR/ 'SELECT * FROM records'` against DuckDB's `COPY
//! (SELECT * FROM 'the.parquet') TO 'DIR' (FORMAT parquet)` (Snappy, DuckDB's default), at
//! the same thread counts; what rcc wrote is read back by DuckDB and checked.
//!
//! ```sh
//! cargo build --release -p hadoop-record-cli
//! cargo bench -p hadoop-record-datafusion --bench vs_duckdb
//! ```
//!
//! `SQL_BENCH_RCC` is the SQL command to time, as words (default `<target>/release/rcc-sql`
//! where it exists, else `<target>/release/rcc sql`); `SQL_BENCH_RECORDS` the record count
//! (default 5 000 000); `SQL_BENCH_ROUNDS` the runs of each (default 5). Rounds alternate
//! between the two engines, so that a shared machine's slow stretches hit both.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{files, records_or, runtime};
use fixture_harness::bench::{load_average, Timing};
use hadoop_record::schema::FieldType;
use hadoop_record::Value;

const DDL: &str = "module bench { class Row { int i; long l; boolean b; double d; ustring s; } }\n";

const QUERIES: [(&str, &str); 2] = [
    (
        "count, sums",
        "SELECT count(*), sum(l), sum(d) FROM records",
    ),
    (
        "GROUP BY s",
        "SELECT s, count(*), sum(d) FROM records GROUP BY s",
    ),
];

/// The target: `rcc sql`'s time at most this many times DuckDB's.
const TARGET: f64 = 1.5;

/// The DuckDB side: makes the Parquet file when given `convert SRC DST`, else answers
/// `threads<TAB>query` lines with one JSON line each (wall and CPU seconds, the rows).
const DUCKDB: &str = r#"
import json, sys, time
import duckdb
con = duckdb.connect()
quote = lambda s: "'%s'" % s.replace("'", "''")
if sys.argv[1] == "convert":
    con.execute("COPY (SELECT * FROM read_parquet(%s)) TO %s (FORMAT parquet)"
                % (quote(sys.argv[2]), quote(sys.argv[3])))
    sys.exit(0)
con.execute("CREATE VIEW records AS SELECT * FROM read_parquet(%s)" % quote(sys.argv[1]))
print(json.dumps({"version": duckdb.__version__}), flush=True)
for line in sys.stdin:
    threads, query = line.rstrip("\n").split("\t", 1)
    if query.startswith("COPY TO "):
        query = "COPY (SELECT * FROM read_parquet(%s)) TO %s (FORMAT parquet)" % (
            quote(sys.argv[1]), quote(query[len("COPY TO "):]))
    con.execute("SET threads = %d" % int(threads))
    t, c = time.perf_counter(), time.process_time()
    rows = con.execute(query).fetchall()
    c, t = time.process_time() - c, time.perf_counter() - t
    print(json.dumps({"wall": t, "cpu": c, "rows": [[str(v) for v in r] for r in rows]}),
          flush=True)
"#;

fn main() {
    let n = records_or(5_000_000);
    let rounds: usize = fixture_harness::bench::env_or("SQL_BENCH_ROUNDS", 5);
    let target = target_dir();
    let rcc = rcc_command(&target);
    let python = fixture_harness::peers::peers_python(&target);

    let fields = [
        ("i", FieldType::Int),
        ("l", FieldType::Long),
        ("b", FieldType::Bool),
        ("d", FieldType::Double),
        ("s", FieldType::String),
    ];
    let strings = strings();
    let (ddl, paddle, datafusion_parquet) = files(&runtime(), "row", DDL, &fields, n, |k, x| {
        vec![
            Value::Int((x >> 40) as i32 - (1 << 23)),
            // 40 bits: a sum of 5 M fits a long (DataFusion's sum of longs is a long).
            Value::Long((x >> 24) as i64 - (1 << 39)),
            Value::Bool(k % 3 == 0),
            Value::Double((x >> 11) as f64 / (1u64 << 53) as f64),
            Value::String(strings[(x % strings.len() as u64) as usize].clone()),
        ]
    });
    let parquet = datafusion_parquet.with_extension("duckdb.parquet");
    if !parquet.exists() {
        let tmp = parquet.with_extension("tmp");
        let status = Command::new(&python)
            .args(["-c", DUCKDB, "convert"])
            .args([&datafusion_parquet, &tmp])
            .status()
            .unwrap();
        assert!(status.success(), "DuckDB could not write {}", tmp.display());
        std::fs::rename(&tmp, &parquet).unwrap();
    }

    let mut duckdb = Command::new(&python)
        .args(["-c", DUCKDB])
        .arg(&parquet)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to_duckdb = duckdb.stdin.take().unwrap();
    let mut from_duckdb = BufReader::new(duckdb.stdout.take().unwrap());
    let version = json_line(&mut from_duckdb)["version"].clone();
    let mut duckdb_query = |threads: usize, query: &str| -> (Timing, Vec<Vec<String>>) {
        writeln!(to_duckdb, "{threads}\t{query}").unwrap();
        let answer = json_line(&mut from_duckdb);
        let rows = answer["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect()
            })
            .collect();
        let secs = |k: &str| Duration::from_secs_f64(answer[k].as_f64().unwrap());
        (
            Timing {
                wall: secs("wall"),
                cpu: secs("cpu"),
            },
            rows,
        )
    };

    let size = |p: &Path| std::fs::metadata(p).unwrap().len() as f64 / 1e6;
    println!(
        "{n} records; Paddle file {:.1} MB, DuckDB's Parquet {:.1} MB; rcc: {}; DuckDB {version}",
        size(&paddle),
        size(&parquet),
        rcc.join(" ")
    );
    println!("load average before: {}", load_average());
    // `rcc sql` over the Paddle file's records, by `threads` partitions, writing `to`.
    let rcc_over_records = |threads: usize, to: &str| {
        let mut command = Command::new(&rcc[0]);
        command.args(&rcc[1..]).arg("--schema").arg(&ddl);
        command.args(["--type", "bench.Row", "--in-framing", "paddle", "--to", to]);
        command.args(["--partitions", &threads.to_string()]);
        command
    };
    let rcc_sql = |threads: usize, query: &str| {
        let mut command = rcc_over_records(threads, "csv");
        command.arg(query);
        command.arg(&paddle);
        let (timing, out) = timed_process(command);
        let rows = out
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect::<Vec<Vec<String>>>();
        (timing, rows)
    };

    // (rcc sql, DuckDB) best timings per query and thread count; start-up alone too.
    let runs: Vec<(usize, usize)> = (0..QUERIES.len())
        .flat_map(|q| [1, 2].map(|t| (q, t)))
        .collect();
    let mut best = vec![(Timing::MAX, Timing::MAX); runs.len()];
    let mut startup = Timing::MAX;
    // One round to warm the page cache and check the answers, then the timed rounds.
    for round in 0..=rounds {
        startup = startup.best(rcc_sql(1, "SELECT 1").0);
        for (k, &(q, threads)) in runs.iter().enumerate() {
            let query = QUERIES[q].1;
            let (ours, our_rows) = rcc_sql(threads, query);
            let (theirs, their_rows) = duckdb_query(threads, query);
            if round == 0 {
                check_same(query, our_rows, their_rows);
                continue;
            }
            best[k].0 = best[k].0.best(ours);
            best[k].1 = best[k].1.best(theirs);
        }
    }
    println!("load average after: {}", load_average());
    println!();
    println!(
        "| query | threads | rcc sql, best of {rounds}: wall (CPU) | DuckDB: wall (CPU) | \
         ratio, wall (CPU) | target |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (&(q, threads), (ours, theirs)) in runs.iter().zip(&best) {
        let (cpu, wall) = ours.ratio(theirs);
        println!(
            "| {} | {threads} | {} | {} | {wall:.2} ({cpu:.2}) | ≤ {TARGET} {} |",
            QUERIES[q].0,
            shown(*ours),
            shown(*theirs),
            if wall <= TARGET { "met" } else { "NOT met" },
        );
    }
    println!(
        "| rcc sql start-up (`SELECT 1`, table registered) | 1 | {} | | | |",
        shown(startup)
    );

    // Writing every record as Parquet: a dataset of part files, against DuckDB's COPY.
    let scratch = paddle.with_extension("write-bench");
    let (ours_dir, theirs_file) = (scratch.join("rcc"), scratch.join("duckdb.parquet"));
    let rcc_write = |threads: usize| {
        let _ = std::fs::remove_dir_all(&ours_dir);
        let mut command = rcc_over_records(threads, "parquet");
        // DuckDB writes Snappy unless told otherwise: the same codec on both sides.
        command.args(["--parquet-compression", "snappy", "-o"]);
        command.arg(format!("{}/", ours_dir.display()));
        command.args(["SELECT * FROM records"]).arg(&paddle);
        timed_process(command).0
    };
    std::fs::create_dir_all(&scratch).unwrap();
    let mut best = [(Timing::MAX, Timing::MAX); 2];
    for round in 0..=rounds {
        for (k, threads) in [1, 2].into_iter().enumerate() {
            let ours = rcc_write(threads);
            let _ = std::fs::remove_file(&theirs_file);
            let copy = format!("COPY TO {}", theirs_file.display());
            let (theirs, _) = duckdb_query(threads, &copy);
            if round == 0 {
                let written = format!(
                    "SELECT count(*), sum(l), sum(d) FROM read_parquet('{}/*.parquet')",
                    ours_dir.display()
                );
                let (_, ours_rows) = duckdb_query(threads, &written);
                let (_, all) = duckdb_query(threads, QUERIES[0].1);
                check_same("the dataset rcc wrote", ours_rows, all);
                continue;
            }
            best[k].0 = best[k].0.best(ours);
            best[k].1 = best[k].1.best(theirs);
        }
    }
    println!();
    println!(
        "| write all as Parquet | threads | rcc sql -o DIR/, best of {rounds}: wall (CPU) | \
         DuckDB COPY: wall (CPU) | ratio, wall (CPU) | target |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (threads, (ours, theirs)) in [1, 2].into_iter().zip(best) {
        let (cpu, wall) = ours.ratio(&theirs);
        println!(
            "| `SELECT *` | {threads} | {} | {} | {wall:.2} ({cpu:.2}) | ≤ {WRITE_TARGET} {} |",
            shown(ours),
            shown(theirs),
            if wall <= WRITE_TARGET {
                "met"
            } else {
                "NOT met"
            },
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
    drop(to_duckdb);
    duckdb.wait().unwrap();
}

/// The write target: `rcc sql -o DIR/` at most this many times DuckDB's `COPY`.
const WRITE_TARGET: f64 = 1.25;

/// `s`'s 100 values, of 4 to 18 bytes: a word and a suffix.
fn strings() -> Vec<String> {
    const WORDS: [&str; 10] = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliett",
    ];
    const SUFFIXES: [&str; 10] = [
        "", "/a", "-2", ".example", "_x", "/index", "-north", "?q", ":80", "/v1/item",
    ];
    WORDS
        .iter()
        .flat_map(|w| SUFFIXES.iter().map(move |s| format!("{w}{s}")))
        .collect()
}

/// `wall ms (CPU ms)`.
fn shown(timing: Timing) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!("{:.0} ms ({:.0} ms)", ms(timing.wall), ms(timing.cpu))
}

/// Runs `command` to its end: its wall and CPU time (user and system, of it and its
/// threads), and its standard output. Panics when it fails.
// The child is waited for with wait4, which gives its resource usage too.
#[allow(clippy::zombie_processes)]
fn timed_process(mut command: Command) -> (Timing, String) {
    let start = Instant::now();
    let child = command.stdout(Stdio::piped()).spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.unwrap(), &mut out).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value, and wait4 writes only into it and
    // `status`; the child is ours and has not been waited for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{command:?} failed (status {status})"
    );
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    (Timing { wall, cpu }, out)
}

/// The two engines' rows agree: the same groups and counts, the same sums of longs, sums
/// of doubles within rounding (the engines add in different orders).
fn check_same(query: &str, mut ours: Vec<Vec<String>>, mut theirs: Vec<Vec<String>>) {
    ours.sort();
    theirs.sort();
    let same = ours.len() == theirs.len()
        && ours.iter().zip(&theirs).all(|(a, b)| {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    let integers = x.parse::<i128>().is_ok() && y.parse::<i128>().is_ok();
                    x == y
                        || !integers
                            && matches!((x.parse::<f64>(), y.parse::<f64>()),
                                (Ok(x), Ok(y)) if (x - y).abs() <= 1e-9 * x.abs().max(y.abs()))
                })
        });
    assert!(
        same,
        "{query}: rcc sql and DuckDB disagree:\n{ours:?}\n{theirs:?}"
    );
}

fn json_line(from: &mut impl BufRead) -> serde_json::Value {
    let mut line = String::new();
    from.read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("DuckDB said {line:?}: {e}"))
}

/// The cargo target directory: this bench runs as `<target>/release/deps/vs_duckdb-…`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().to_path_buf()
}

/// `SQL_BENCH_RCC` as words, else the release build's `rcc-sql`, else its `rcc sql`.
fn rcc_command(target: &Path) -> Vec<String> {
    if let Ok(words) = std::env::var("SQL_BENCH_RCC") {
        return words.split_whitespace().map(str::to_owned).collect();
    }
    let release = target.join("release");
    let companion = release.join("rcc-sql");
    if companion.exists() {
        return vec![companion.display().to_string()];
    }
    let rcc = release.join("rcc");
    assert!(
        rcc.exists(),
        "no {} to time: build it first (cargo build --release -p hadoop-record-cli), or \
         set SQL_BENCH_RCC to the SQL command",
        rcc.display()
    );
    vec![rcc.display().to_string(), "sql".into()]
}
