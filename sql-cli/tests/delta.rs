//! `rcc sql --to delta` and `--from delta` on a local disk, as a user runs them: a table
//! made from record files, refused when it exists, appended to, overwritten (the old
//! version still readable), a result that does not fit refused with nothing written, time
//! travel by version and time, a join of record files with a Delta table, and records
//! written back from a table. The answers are those of the record files themselves.

mod support;

use std::path::Path;

use hadoop_record::Value;
use support::web::{work_in, Work};
use support::{rcc_in, stderr};

fn work(name: &str) -> Work {
    work_in("cli-delta", name, 300)
}

/// Standard output of a run that must succeed.
fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The log's versions, by their entries' names.
fn versions(table: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(table.join("_delta_log"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

#[test]
fn tables_are_made_appended_overwritten_and_read_back() {
    let w = work("modes");
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
    let table = w.dir.join("hits");
    let target = format!("{}/", table.display());
    let write = |extra: &[&str], query: &str| {
        let mut args = vec!["--in-framing", "paddle", "--to", "delta", "-o", &target];
        args.extend_from_slice(extra);
        args.extend([query, file]);
        w.sql(&args)
    };
    let count = |extra: &[&str]| {
        let mut args = vec![
            "--from",
            "delta",
            "--to",
            "csv",
            "SELECT count(*) AS n, sum(bytes) AS b FROM records",
        ];
        args.extend_from_slice(extra);
        args.push(&target);
        ok(w.sql(&args))
    };
    let expect = |pick: &dyn Fn(i32) -> bool| {
        let rows: Vec<i64> = (0..w.values.len())
            .filter_map(|i| match (w.field(i, 0), w.field(i, 1)) {
                (Value::Int(id), Value::Long(bytes)) => pick(*id).then_some(*bytes),
                _ => unreachable!(),
            })
            .collect();
        format!("n,b\n{},{}\n", rows.len(), rows.iter().sum::<i64>())
    };

    let made = write(&[], "SELECT * FROM records WHERE id < 100");
    assert!(made.status.success(), "{}", stderr(&made));
    assert!(
        stderr(&made).contains("wrote version 0 of the Delta table"),
        "{}",
        stderr(&made)
    );
    assert_eq!(count(&[]), expect(&|id| id < 100));

    // The default mode refuses an existing table and writes nothing.
    let again = write(&[], "SELECT * FROM records");
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("exists (version 0): give --mode append"),
        "{}",
        stderr(&again)
    );
    assert_eq!(versions(&table), ["00000000000000000000.json"]);

    ok(write(
        &["--mode", "append"],
        "SELECT * FROM records WHERE id >= 100",
    ));
    assert_eq!(count(&[]), expect(&|_| true));

    // A result whose columns do not fit: refused before anything is written.
    let misfit = write(
        &["--mode", "append"],
        "SELECT id, url AS bytes, ok, url, tags, counts, origin, score FROM records",
    );
    assert!(!misfit.status.success());
    assert!(
        stderr(&misfit).contains("column `bytes` is long in the table and string in the result"),
        "{}",
        stderr(&misfit)
    );
    let files = |dir: &Path| std::fs::read_dir(dir).unwrap().count();
    let before = files(&table);

    ok(write(
        &["--mode", "overwrite"],
        "SELECT * FROM records WHERE id < 10",
    ));
    assert_eq!(count(&[]), expect(&|id| id < 10));
    // Overwritten files stay for time travel.
    assert!(files(&table) > before);
    assert_eq!(count(&["--version", "0"]), expect(&|id| id < 100));
    assert_eq!(count(&["--version", "1"]), expect(&|_| true));
    assert_eq!(count(&["--timestamp", "2999-01-01"]), expect(&|id| id < 10));
    let early = w.sql(&[
        "--from",
        "delta",
        "--timestamp",
        "2000-01-01",
        "SELECT 1",
        &target,
    ]);
    assert!(!early.status.success());
    let missing = w.sql(&["--from", "delta", "--version", "7", "SELECT 1", &target]);
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("there is no version 7: the latest is 2"),
        "{}",
        stderr(&missing)
    );
    // DataFusion's kind of error is not the user's business.
    assert!(
        !stderr(&missing).contains("Execution error"),
        "{}",
        stderr(&missing)
    );
    assert!(
        !stderr(&early).contains("Execution error"),
        "{}",
        stderr(&early)
    );
    assert!(
        stderr(&early).contains("is before the table's version 0"),
        "{}",
        stderr(&early)
    );

    // Record files joined with the table, each named by its --table.
    let joined = ok(w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "csv",
        "--table",
        "hits",
        "SELECT count(*) AS n FROM hits JOIN recent ON hits.id = recent.id",
        file,
        "--table",
        "recent",
        "--from",
        "delta",
        &target,
    ]));
    assert_eq!(joined, "n\n10\n");

    // The table's rows back as records: the same JSON as the record files give.
    let json = |args: &[&str]| ok(w.sql(args));
    let back = w.dir.join("back.bin");
    ok(w.sql(&[
        "--from",
        "delta",
        "--version",
        "1",
        "--to",
        "records",
        "-o",
        back.to_str().unwrap(),
        "SELECT * FROM records ORDER BY id",
        &target,
    ]));
    let query = "SELECT * FROM records ORDER BY id";
    assert_eq!(
        json(&["--to", "json", query, back.to_str().unwrap()]),
        json(&["--in-framing", "paddle", "--to", "json", query, file])
    );

    // vacuum: the week's retention keeps every file; a shorter one is refused unless the
    // user says no reader needs the old versions; then the overwritten files go, the
    // latest version reads as before, and the old ones say their files are gone.
    let vacuum = |args: &[&str]| {
        let mut all = vec!["delta", "vacuum"];
        all.extend_from_slice(args);
        all.push(&target);
        rcc_in(&w.dir, &all, b"")
    };
    let kept = vacuum(&["--dry-run"]);
    assert_eq!(ok(kept), "");
    let refused = vacuum(&["--retain-hours", "0"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--no-retention-check"),
        "{}",
        stderr(&refused)
    );
    let all_files = files(&table);
    let dry = ok(vacuum(&[
        "--retain-hours",
        "0",
        "--no-retention-check",
        "--dry-run",
    ]));
    assert_eq!(files(&table), all_files, "a dry run deletes nothing");
    let gone = ok(vacuum(&["--retain-hours", "0", "--no-retention-check"]));
    assert_eq!(gone, dry);
    assert!(
        gone.lines().count() >= 2 && gone.lines().all(|l| l.ends_with(".parquet")),
        "{gone}"
    );
    assert_eq!(files(&table), all_files - gone.lines().count());
    assert_eq!(count(&[]), expect(&|id| id < 10));
    let old = w.sql(&[
        "--from",
        "delta",
        "--version",
        "1",
        "SELECT count(*) FROM records",
        &target,
    ]);
    assert!(!old.status.success());
}

#[test]
fn what_cannot_be_a_table_is_refused() {
    let w = work("refusals");
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
    // A directory that holds something else.
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "delta",
        "-o",
        &format!("{}/", w.dir.display()),
        "SELECT * FROM records",
        file,
    ]);
    assert!(!out.status.success());
    // A Delta input that is no table, and flags that do not apply.
    let out = w.sql(&["SELECT 1", w.dir.to_str().unwrap(), "--from", "delta"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no _delta_log/"), "{}", stderr(&out));
    let out = w.sql(&["--version", "1", "--in-framing", "paddle", "SELECT 1", file]);
    assert!(
        stderr(&out).contains("give --from delta"),
        "{}",
        stderr(&out)
    );
    let out = w.sql(&["--from", "delta", "Q", "a/", "b/"]);
    assert!(
        stderr(&out).contains("`records` is both a/ and b/"),
        "{}",
        stderr(&out)
    );
    let out = w.sql(&["--from", "csv", "Q", "a.csv", "--from", "xml", "b.xml"]);
    assert!(
        stderr(&out).contains("(--from csv) and b.xml (--from xml)"),
        "{}",
        stderr(&out)
    );
    let out = w.sql(&[
        "--from",
        "delta",
        "--version",
        "1",
        "--timestamp",
        "2026-01-01",
        "Q",
        "t/",
    ]);
    assert!(stderr(&out).contains("not both"), "{}", stderr(&out));
    let out = w.sql(&["--from", "delta", "--timestamp", "noon", "Q", "t/"]);
    assert!(
        stderr(&out).contains("--timestamp: `noon` is not a time"),
        "{}",
        stderr(&out)
    );
    let out = support::rcc_sql_in(&w.dir, &["SELECT 1", file], b"");
    assert!(
        stderr(&out).contains("needs --schema FILE.jr and --type module.Class"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn copy_stored_as_delta_writes_partitioned_versions() {
    let w = work("copy");
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
    let table = w.dir.join("by-ok");
    let copy = |query: &str| {
        w.sql(&[
            "--in-framing",
            "paddle",
            &format!(
                "COPY ({query}) TO '{}/' STORED AS DELTA PARTITIONED BY (ok)",
                table.display()
            ),
            file,
        ])
    };
    ok(copy("SELECT id, bytes, ok FROM records WHERE id < 50"));
    let mut dirs: Vec<String> = std::fs::read_dir(&table)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, ["_delta_log", "ok=false", "ok=true"]);
    let again = copy("SELECT id, bytes, ok FROM records WHERE id >= 50");
    assert!(
        stderr(&again).contains("give --mode append"),
        "{}",
        stderr(&again)
    );
    let appended = w.sql(&[
        "--in-framing",
        "paddle",
        &format!(
            "COPY (SELECT id, bytes, ok FROM records WHERE id >= 50) TO '{}/' STORED AS DELTA \
             PARTITIONED BY (ok) OPTIONS (mode 'append')",
            table.display()
        ),
        file,
    ]);
    ok(appended);
    let oks = w
        .values
        .iter()
        .filter(|v| matches!(v, Value::Record(f) if f[2] == Value::Bool(true)))
        .count();
    let counted = ok(w.sql(&[
        "--from",
        "delta",
        "--to",
        "csv",
        "SELECT count(*) AS n, sum(CAST(ok AS INT)) AS oks FROM records",
        table.to_str().unwrap(),
    ]));
    assert_eq!(counted, format!("n,oks\n{},{oks}\n", w.values.len()));
    // An append that does not say --partition-by keeps the table's partitioning, as Spark's.
    ok(w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "delta",
        "--mode",
        "append",
        "-o",
        table.to_str().unwrap(),
        "SELECT id, bytes, ok FROM records WHERE id < 5",
        file,
    ]));
    let n = ok(w.sql(&[
        "--from",
        "delta",
        "--to",
        "csv",
        "SELECT count(*) AS n FROM records",
        table.to_str().unwrap(),
    ]));
    assert_eq!(n, format!("n\n{}\n", w.values.len() + 5));
    let other = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "delta",
        "--mode",
        "append",
        "--partition-by",
        "id",
        "-o",
        table.to_str().unwrap(),
        "SELECT id, bytes, ok FROM records",
        file,
    ]);
    assert!(
        stderr(&other).contains("is partitioned by (ok), not (id): give --partition-by ok"),
        "{}",
        stderr(&other)
    );
    let bad = w.sql(&[
        "--in-framing",
        "paddle",
        &format!(
            "COPY (SELECT id FROM records) TO '{}/' STORED AS DELTA OPTIONS (mode 'merge')",
            table.display()
        ),
        file,
    ]);
    assert!(
        stderr(&bad).contains("`merge` is no mode"),
        "{}",
        stderr(&bad)
    );
}

/// Every example of the companions' `--help` pastes into a shell as it is printed: each
/// line of one is its first (`rcc …`, or `VAR=… rcc …`) or follows a line that ends in ` \`,
/// and none is wrapped.
#[test]
fn help_examples_paste_into_a_shell() {
    for companion in ["sql", "cluster", "delta"] {
        let out = support::rcc_in(".", &[companion, "--help"], b"");
        let help = String::from_utf8(out.stdout).unwrap();
        let examples = help
            .split_once("Examples")
            .map(|(_, rest)| rest.split("\n\n").next().unwrap_or_default())
            .unwrap_or_else(|| panic!("rcc {companion} --help has no examples"));
        let mut continued = false;
        for line in examples.lines().skip(1) {
            let starts = line.starts_with("  rcc ") || line.starts_with("  AWS_");
            assert!(
                if continued {
                    line.starts_with("      ")
                } else {
                    starts
                },
                "rcc {companion} --help: `{line}` does not paste"
            );
            continued = line.ends_with(" \\");
        }
        assert!(!continued, "rcc {companion} --help ends in `\\`");
    }
}
