//! `rcc sql … --to delta -o TABLE/` against `rcc sql … --to parquet -o DIR/` over the same
//! records, side by side in one run: what a Delta table costs over a plain Parquet dataset
//! (the part files' statistics, the log entry and its commit). Target: at most 1.1× the
//! Parquet dataset's time. For scale, in the same run, the same rows written as a Delta
//! table from Parquet files, by `rcc sql --from delta` and by Spark with delta-spark
//! (`spark.read.parquet(…).write.format("delta")`).
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
//! The Parquet files of the comparison with Spark are those of a Delta table of the records
//! (unpartitioned), written once: `rcc sql --from delta TABLE/ --to delta` reads them
//! through the table's log, Spark as a Parquet dataset (which passes `_delta_log/` by). Spark
//! (the venv, jars and JDK of the Delta peer tests, fetched on first use) runs beside this
//! process for the whole run, configured for throughput (see `common/spark.rs`); its time is
//! its write's, measured in its Python, and its CPU time the JVM's and that Python's.
//!
//! ```sh
//! cargo bench -p hadoop-record-delta --bench write
//! ```
//!
//! `DELTA_BENCH_RECORDS` sets the record count (default 5,000,000), `DELTA_BENCH_ROUNDS`
//! the timed rounds (default 5), after one that warms the page cache (and Spark's JIT
//! compiler) and checks that every output holds the same rows. Rounds rotate which writer
//! goes first. `DELTA_BENCH_SPARK=0` (or `HADOOP_RECORD_SKIP_PEERS=1`) leaves Spark out.

mod common;

use common::spark::Spark;
use common::{
    check_dataset, check_delta, dir_size, load_average, show, start_run, write, Source, Timing, To,
};
use fixture_harness::bench::env_or;

/// The target: `--to delta` at most this many times `--to parquet`.
const TARGET: f64 = 1.1;

/// Who writes what.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Writer {
    /// `rcc sql --to parquet` of the records.
    Parquet,
    /// `rcc sql --to delta` of the records.
    Delta,
    /// `rcc sql --from delta --to delta` of the source table's Parquet files.
    FromParquet,
    /// Spark: `spark.read.parquet(…).write.format("delta")` of the same files.
    Spark,
}

impl Writer {
    const ALL: [Writer; 4] = [
        Writer::Parquet,
        Writer::Delta,
        Writer::FromParquet,
        Writer::Spark,
    ];

    fn name(self) -> &'static str {
        match self {
            Writer::Parquet => "parquet",
            Writer::Delta => "delta",
            Writer::FromParquet => "from-parquet",
            Writer::Spark => "spark",
        }
    }
}

fn main() {
    let Some(run) = start_run(5) else {
        return;
    };
    let (n, rounds) = (run.n, run.rounds);
    // The Parquet files that `--from delta` and Spark read.
    let source = run.dir.join("source");
    let _ = std::fs::remove_dir_all(&source);
    let (_, rows) = run.runtime.block_on(write(
        Source::Records(&run.records),
        To::Delta,
        &source,
        &[],
    ));
    assert_eq!(rows, n);
    let source_mb = dir_size(&source) as f64 / 1e6;
    let mut spark = if env_or("DELTA_BENCH_SPARK", 1u64) == 0 {
        None
    } else {
        Spark::start(&run.dir)
    };
    match &spark {
        Some(spark) => println!(
            "Spark {} (local[*]: {} cores), delta-spark beside",
            spark.version, spark.cores
        ),
        None => println!("Spark left out"),
    }
    let writers: Vec<Writer> = Writer::ALL
        .into_iter()
        .filter(|w| *w != Writer::Spark || spark.is_some())
        .collect();

    let cases: [(&str, &[&str]); 2] = [
        ("unpartitioned", &[]),
        ("--partition-by status", &["status"]),
    ];
    // Best (wall, CPU) per case, per writer; the output's size.
    let mut best = [[Timing::MAX; Writer::ALL.len()]; 2];
    let mut sizes = [[0u64; Writer::ALL.len()]; 2];
    for round in 0..=rounds {
        for (c, (_, partition_by)) in cases.iter().enumerate() {
            let mut order = writers.clone();
            order.rotate_left(round as usize % writers.len());
            for writer in order {
                let out = run.dir.join(format!("out-{}", writer.name()));
                let _ = std::fs::remove_dir_all(&out);
                let written = |from, to| {
                    let (timing, rows) = run.runtime.block_on(write(from, to, &out, partition_by));
                    assert_eq!(rows, n, "{} wrote {rows} rows of {n}", writer.name());
                    timing
                };
                let timing = match writer {
                    Writer::Parquet => written(Source::Records(&run.records), To::Parquet),
                    Writer::Delta => written(Source::Records(&run.records), To::Delta),
                    Writer::FromParquet => written(Source::Delta(&source), To::Delta),
                    Writer::Spark => spark.as_mut().unwrap().write(&source, &out, partition_by),
                };
                sizes[c][writer as usize] = dir_size(&out);
                if round > 0 {
                    best[c][writer as usize] = best[c][writer as usize].best(timing);
                }
            }
            if round == 0 {
                // Every output holds the records, the Parquet dataset's rows.
                let out = |w: Writer| run.dir.join(format!("out-{}", w.name()));
                run.runtime.block_on(async {
                    let expected = check_dataset(&out(Writer::Parquet), partition_by, n).await;
                    for &writer in &writers[1..] {
                        check_delta(&out(writer), &expected).await;
                    }
                });
            }
        }
    }
    drop(spark);
    for writer in Writer::ALL {
        let _ = std::fs::remove_dir_all(run.dir.join(format!("out-{}", writer.name())));
    }
    let _ = std::fs::remove_dir_all(&source);

    println!("load average after: {}", load_average());
    println!(
        "best of {rounds}, each clock on its own; CPU = the process's, every thread; \
         ratio = delta / parquet\n"
    );
    println!("| write | `--to parquet` CPU (wall) | `--to delta` CPU (wall) | ratio CPU (wall) | output MB | target |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let size = |c: usize, w: Writer| sizes[c][w as usize] as f64 / 1e6;
    for (c, (name, _)) in cases.iter().enumerate() {
        let of = |w: Writer| best[c][w as usize];
        let (cpu, wall) = of(Writer::Delta).ratio(&of(Writer::Parquet));
        println!(
            "| {name} | {} | {} | {cpu:.3}× ({wall:.3}×) | {:.1} / {:.1} | ≤ {TARGET}×, {} |",
            show(of(Writer::Parquet)),
            show(of(Writer::Delta)),
            size(c, Writer::Parquet),
            size(c, Writer::Delta),
            if cpu <= TARGET { "met" } else { "**not met**" },
        );
    }
    println!(
        "\nfor scale, the same rows as a new Delta table; from Parquet: the files of an \
         unpartitioned Delta table of the records ({:.1} MB); Spark's CPU = its JVM's and \
         its Python's\n",
        source_mb
    );
    let spark = writers.contains(&Writer::Spark);
    print!("| write | `rcc sql --to delta` (records) CPU (wall) | `rcc sql --from delta --to delta` (Parquet) CPU (wall) |");
    if spark {
        print!(" Spark `read.parquet` → `format(\"delta\")` CPU (wall) | Spark / `rcc sql` from Parquet, CPU (wall) |");
    }
    println!(" output MB |");
    println!(
        "| --- | --- | --- |{} --- |",
        if spark { " --- | --- |" } else { "" }
    );
    for (c, (name, _)) in cases.iter().enumerate() {
        let of = |w: Writer| best[c][w as usize];
        print!(
            "| {name} | {} | {} |",
            show(of(Writer::Delta)),
            show(of(Writer::FromParquet))
        );
        let mut sized = vec![size(c, Writer::Delta), size(c, Writer::FromParquet)];
        if spark {
            let (cpu, wall) = of(Writer::Spark).ratio(&of(Writer::FromParquet));
            print!(" {} | {cpu:.2}× ({wall:.2}×) |", show(of(Writer::Spark)));
            sized.push(size(c, Writer::Spark));
        }
        let sized: Vec<String> = sized.iter().map(|s| format!("{s:.1}")).collect();
        println!(" {} |", sized.join(" / "));
    }
}
