//! `rcc sql --from delta 'SELECT sum(…) …' TABLE/` against DataFusion's own Parquet scan
//! (`register_parquet`, a listing table) of the same files: what reading a Delta table
//! costs over reading its Parquet files (the log, its files' list). Target: at most 1.25×.
//!
//! The table is the write bench's: `web.Hit` records of `examples/sql/web.jr` (made once
//! under `target/delta-bench/` and kept) written as a Delta table by `rcc sql --to delta`,
//! unpartitioned and with `--partition-by status`, once per run; its version 0's files are
//! then all the Parquet files under its directory, which is checked. Each read runs as `rcc
//! sql` runs it, in this process: a session as `rcc-sql` makes one, the table registered
//! (`DeltaTableProvider::open`, as `rcc sql --from delta` does; `register_parquet` of the
//! directory, its Hive directories as the `status` column), the query planned and run, the
//! sums collected. Each is timed by the wall clock and by the process's CPU time (every
//! thread's), best of each; every answer is checked to be the same.
//!
//! ```sh
//! cargo bench -p hadoop-record-delta --bench read
//! ```
//!
//! `DELTA_BENCH_RECORDS` sets the record count (default 5,000,000), `DELTA_BENCH_ROUNDS`
//! the timed rounds (default 10), after one that warms the page cache. Rounds alternate
//! which reader goes first.

mod common;

use std::path::Path;

use common::{
    answer, load_average, open_delta, register_delta, register_parquet, session, show, start_run,
    write, Source, Start, Timing, To,
};

/// The target: `--from delta` at most this many times DataFusion's Parquet scan.
const TARGET: f64 = 1.25;

/// The sums of the numeric columns (`status` a partition column where the table has one).
const QUERY: &str = "SELECT sum(time), sum(bytes), sum(status) FROM t";

/// Who reads the table's files.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Reader {
    /// `rcc sql --from delta`: the files its log names.
    Delta,
    /// DataFusion's `register_parquet` of the table's directory.
    Parquet,
}

fn main() {
    let Some(run) = start_run(10) else {
        return;
    };
    let (n, rounds) = (run.n, run.rounds);

    let cases: [(&str, &[&str]); 2] = [
        ("unpartitioned", &[]),
        ("--partition-by status", &["status"]),
    ];
    let tables: Vec<_> = cases
        .iter()
        .enumerate()
        .map(|(c, (_, partition_by))| {
            let table = run.dir.join(format!("read-{c}"));
            let _ = std::fs::remove_dir_all(&table);
            let (_, rows) = run.runtime.block_on(write(
                Source::Records(&run.records),
                To::Delta,
                &table,
                partition_by,
            ));
            assert_eq!(rows, n);
            let files = run.runtime.block_on(same_files(&table));
            (table, files)
        })
        .collect();

    // Best (wall, CPU) per case, per reader; each case's answer.
    let mut best = [[Timing::MAX; 2]; 2];
    let mut answers: [Option<String>; 2] = Default::default();
    for round in 0..=rounds {
        for (c, (_, partition_by)) in cases.iter().enumerate() {
            let order = if round % 2 == 0 {
                [Reader::Parquet, Reader::Delta]
            } else {
                [Reader::Delta, Reader::Parquet]
            };
            for reader in order {
                let (timing, sums) = run
                    .runtime
                    .block_on(read(reader, &tables[c].0, partition_by));
                let expected = answers[c].get_or_insert_with(|| sums.clone());
                assert_eq!(&sums, expected, "{reader:?} answers otherwise");
                if round > 0 {
                    best[c][reader as usize] = best[c][reader as usize].best(timing);
                }
            }
        }
    }
    for (table, _) in &tables {
        let _ = std::fs::remove_dir_all(table);
    }

    println!("load average after: {}", load_average());
    println!("`{QUERY}`; its answers:");
    for ((name, _), sums) in cases.iter().zip(&answers) {
        println!("{name}:\n{}", sums.as_deref().unwrap_or_default());
    }
    println!(
        "best of {rounds}, each clock on its own; CPU = the process's, every thread; \
         ratio = delta / parquet\n"
    );
    println!("| read | files | DataFusion `register_parquet` CPU (wall) | `rcc sql --from delta` CPU (wall) | ratio CPU (wall) | target |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (c, (name, _)) in cases.iter().enumerate() {
        let [delta, parquet] = best[c];
        let (cpu, wall) = delta.ratio(&parquet);
        println!(
            "| {name} | {} | {} | {} | {cpu:.3}× ({wall:.3}×) | ≤ {TARGET}×, {} |",
            tables[c].1,
            show(parquet),
            show(delta),
            if cpu <= TARGET { "met" } else { "**not met**" },
        );
    }
}

/// Runs [`QUERY`] over `table` as `reader` reads it, in a session of its own; answers the
/// time it took (session, registration and all) and the sums.
async fn read(reader: Reader, table: &Path, partition_by: &[&str]) -> (Timing, String) {
    let start = Start::now();
    let ctx = session();
    match reader {
        Reader::Delta => register_delta(&ctx, "t", table).await,
        Reader::Parquet => register_parquet(&ctx, "t", table, partition_by).await,
    }
    let sums = answer(&ctx, QUERY).await;
    (start.elapsed(), sums)
}

/// Checks that the files of the Delta table in `dir`'s latest version are all the Parquet
/// files under `dir` (what `register_parquet` of `dir` reads); answers how many.
async fn same_files(dir: &Path) -> usize {
    let ctx = session();
    let table = open_delta(&ctx, dir).await;
    let mut logged: Vec<String> = table.files().map(str::to_owned).collect();
    let mut listed = Vec::new();
    parquet_files(dir, &mut listed);
    // The local store's paths are the files' absolute paths without their leading `/`.
    let mut listed: Vec<String> = listed
        .iter()
        .map(|p| p.to_str().unwrap().trim_start_matches('/').to_owned())
        .collect();
    logged.sort();
    listed.sort();
    assert_eq!(logged, listed, "the log's files are not the directory's");
    logged.len()
}

/// The `.parquet` files under `dir`, recursively.
fn parquet_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            parquet_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "parquet") {
            files.push(path);
        }
    }
}
