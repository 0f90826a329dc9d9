//! `rcc sql --to delta` and `--from delta` on a local disk, as a user runs them: a table
//! made from record files, refused when it exists, appended to, overwritten (the old
//! version still readable), a result that does not fit refused with nothing written, time
//! travel by version and time, a join of record files with a Delta table, and records
//! written back from a table. The answers are those of the record files themselves.
//! `rcc convert --to delta` and `--from delta` the same way, the records given back byte
//! for byte.

mod support;

use std::path::Path;
use std::process::Command;

use hadoop_record::{Format, Value};
use support::web::{work_in, Work};
use support::{assert_stderr_contains, ok, rcc_in, stderr, tree, words};

fn work(name: &str) -> Work {
    work_in("cli-delta", name, 300)
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

/// The rows of the Delta table `target` (at the version `extra` says) and the sum of their
/// bytes, as CSV (`n,b`).
fn sums(w: &Work, extra: &[&str], target: &str) -> String {
    let mut args = words("--from delta --to csv");
    args.push("SELECT count(*) AS n, sum(bytes) AS b FROM records");
    args.extend_from_slice(extra);
    args.push(target);
    ok(w.sql(&args))
}

#[test]
fn tables_are_made_appended_overwritten_and_read_back() {
    let w = work("modes");
    let file = w.hits();
    let (table, target) = w.out_dir("hits");
    let write = |extra: &[&str], query: &str| {
        let mut args = vec!["--in-framing", "paddle", "--to", "delta", "-o", &target];
        args.extend_from_slice(extra);
        args.extend([query, file]);
        w.sql(&args)
    };
    let count = |extra: &[&str]| sums(&w, extra, &target);
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
    assert_stderr_contains(&made, "wrote version 0 of the Delta table");
    assert_eq!(count(&[]), expect(&|id| id < 100));

    // The default mode refuses an existing table and writes nothing.
    let again = write(&[], "SELECT * FROM records");
    assert!(!again.status.success());
    assert_stderr_contains(&again, "exists (version 0): give --mode append");
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
    assert_stderr_contains(
        &misfit,
        "column `bytes` is long in the table and string in the result",
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
    assert_stderr_contains(&missing, "there is no version 7: the latest is 2");
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
    assert_stderr_contains(&early, "is before the table's version 0");

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
    assert_stderr_contains(&refused, "--no-retention-check");
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
    let file = w.hits();
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
    assert_stderr_contains(&out, "no _delta_log/");
    let out = w.sql(&["--version", "1", "--in-framing", "paddle", "SELECT 1", file]);
    assert_stderr_contains(&out, "give --from delta");
    let out = w.sql(&["--from", "delta", "Q", "a/", "b/"]);
    assert_stderr_contains(&out, "`records` is both a/ and b/");
    let out = w.sql(&["--from", "csv", "Q", "a.csv", "--from", "xml", "b.xml"]);
    assert_stderr_contains(&out, "(--from csv) and b.xml (--from xml)");
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
    assert_stderr_contains(&out, "not both");
    let out = w.sql(&["--from", "delta", "--timestamp", "noon", "Q", "t/"]);
    assert_stderr_contains(&out, "--timestamp: `noon` is not a time");
    let out = support::rcc_sql_in(&w.dir, &["SELECT 1", file], b"");
    assert_stderr_contains(&out, "needs --schema FILE.jr and --type module.Class");
}

#[test]
fn copy_stored_as_delta_writes_partitioned_versions() {
    let w = work("copy");
    let file = w.hits();
    let table = w.dir.join("by-ok");
    let table_arg = table.to_str().unwrap();
    // `COPY (query) TO 'table/' STORED AS DELTA` with `rest` after it.
    let copy = |query: &str, rest: &str| {
        let to = format!("TO '{}/' STORED AS DELTA", table.display());
        w.sql_paddle("", &[&format!("COPY ({query}) {to}{rest}")], file)
    };
    // The answer of `query` over the table, as CSV.
    let csv_of = |query: &str| ok(w.sql_flags("--from delta --to csv", &[query, table_arg]));
    ok(copy(
        "SELECT id, bytes, ok FROM records WHERE id < 50",
        " PARTITIONED BY (ok)",
    ));
    let mut dirs: Vec<String> = std::fs::read_dir(&table)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, ["_delta_log", "ok=false", "ok=true"]);
    let again = copy(
        "SELECT id, bytes, ok FROM records WHERE id >= 50",
        " PARTITIONED BY (ok)",
    );
    assert_stderr_contains(&again, "give --mode append");
    ok(copy(
        "SELECT id, bytes, ok FROM records WHERE id >= 50",
        " PARTITIONED BY (ok) OPTIONS (mode 'append')",
    ));
    let oks = w
        .values
        .iter()
        .filter(|v| matches!(v, Value::Record(f) if f[2] == Value::Bool(true)))
        .count();
    let counted = csv_of("SELECT count(*) AS n, sum(CAST(ok AS INT)) AS oks FROM records");
    assert_eq!(counted, format!("n,oks\n{},{oks}\n", w.values.len()));
    // An append that does not say --partition-by keeps the table's partitioning, as Spark's.
    ok(w.sql_paddle(
        "--to delta --mode append -o",
        &[table_arg, "SELECT id, bytes, ok FROM records WHERE id < 5"],
        file,
    ));
    let n = csv_of("SELECT count(*) AS n FROM records");
    assert_eq!(n, format!("n\n{}\n", w.values.len() + 5));
    let other = w.sql_paddle(
        "--to delta --mode append --partition-by id -o",
        &[table_arg, "SELECT id, bytes, ok FROM records"],
        file,
    );
    assert_stderr_contains(
        &other,
        "is partitioned by (ok), not (id): give --partition-by ok",
    );
    let bad = copy("SELECT id FROM records", " OPTIONS (mode 'merge')");
    assert_stderr_contains(&bad, "`merge` is no mode");
}

/// `rcc convert` (the companion rcc-convert, which `rcc convert` runs for Delta tables) in
/// the work's directory with its DDL and type, then `args`.
fn convert(w: &Work, args: &[&str]) -> std::process::Output {
    convert_as(w, "web.jr", args)
}

/// [`convert`] with the type declared in `ddl`.
fn convert_as(w: &Work, ddl: &str, args: &[&str]) -> std::process::Output {
    convert_with(w, ddl, &[], args)
}

/// [`convert_as`] with the environment variables `env` set.
fn convert_with(w: &Work, ddl: &str, env: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rcc-convert"));
    command
        .args(["--schema", ddl, "--type", "web.Hit"])
        .args(args)
        .envs(env.iter().copied())
        .current_dir(&w.dir);
    support::run(command, b"")
}

#[test]
fn convert_writes_tables_and_gives_the_records_back() {
    let w = work("convert");
    let paddle = w.paddle("hits.paddle");
    let payloads = w.payloads(Format::Binary);
    let all = payloads.concat();
    std::fs::write(w.dir.join("hits.bin"), &all).unwrap();
    let few = payloads[..10].concat();
    std::fs::write(w.dir.join("few.bin"), &few).unwrap();
    let (table, target) = w.out_dir("hits");
    let write = |extra: &[&str], input: &str| {
        let mut args = vec!["--from", "binary", "--to", "delta"];
        args.extend_from_slice(extra);
        args.extend([input, &target]);
        convert(&w, &args)
    };
    let back = |extra: &[&str]| {
        let mut args = vec!["--from", "delta", "--to", "binary"];
        args.extend_from_slice(extra);
        args.push(&target);
        let out = convert(&w, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        out.stdout
    };

    // Binary records (in small batches) to a table and back: the same bytes, in order.
    let made = write(&["--batch-size", "7"], "hits.bin");
    assert!(made.status.success(), "{}", stderr(&made));
    assert_stderr_contains(
        &made,
        &format!(
            "wrote version 0 of the Delta table {target}: {} rows",
            payloads.len()
        ),
    );
    assert_eq!(versions(&table), ["00000000000000000000.json"]);
    assert!(
        back(&[]) == all,
        "binary → delta → binary changed the records"
    );
    // What rcc sql reads of it: the records' own sums.
    let sums = |extra: &[&str]| sums(&w, extra, &target);
    let total: i64 = (0..w.values.len())
        .map(|i| match w.field(i, 1) {
            Value::Long(bytes) => *bytes,
            _ => unreachable!(),
        })
        .sum();
    let n = payloads.len();
    assert_eq!(sums(&[]), format!("n,b\n{n},{total}\n"));

    // An existing table is refused by default, and nothing is written.
    let files = tree(&table);
    let again = write(&[], "hits.bin");
    assert!(!again.status.success());
    assert_stderr_contains(&again, "exists (version 0): give --mode append");
    assert_eq!(tree(&table), files);

    // Records of another type (bytes an int) do not fit: refused, nothing written.
    let ddl = std::fs::read_to_string(w.dir.join("web.jr")).unwrap();
    std::fs::write(
        w.dir.join("narrow.jr"),
        ddl.replace("long bytes;", "int bytes;"),
    )
    .unwrap();
    let json = ok(convert(
        &w,
        &["--from", "binary", "--to", "json", "hits.bin"],
    ));
    std::fs::write(w.dir.join("hits.json"), json).unwrap();
    let misfit = convert_as(
        &w,
        "narrow.jr",
        &[
            "--from",
            "json",
            "--to",
            "delta",
            "--mode",
            "append",
            "hits.json",
            &target,
        ],
    );
    assert!(!misfit.status.success());
    assert_stderr_contains(
        &misfit,
        "column `bytes` is long in the table and integer in the result",
    );
    assert_eq!(tree(&table), files);

    // Damaged records fail the conversion: the table keeps its version, and the files
    // the conversion wrote are gone.
    std::fs::write(w.dir.join("cut.bin"), &all[..all.len() - 3]).unwrap();
    let cut = write(&["--mode", "append", "--batch-size", "7"], "cut.bin");
    assert!(!cut.status.success());
    assert_stderr_contains(&cut, &format!("record {}", n - 1));
    assert_eq!(tree(&table), files);

    // A Paddle file appended: version 1 holds both.
    let mut args = words("--in-framing paddle --to delta --mode append --from binary");
    args.extend([paddle.to_str().unwrap(), target.as_str()]);
    ok(convert(&w, &args));
    assert_eq!(sums(&[]), format!("n,b\n{},{}\n", 2 * n, 2 * total));

    // Overwritten: the latest version is the new records only, byte for byte.
    ok(write(&["--mode", "overwrite"], "few.bin"));
    assert_eq!(versions(&table).len(), 3);
    assert!(back(&[]) == few, "the overwrite's records");
    // Time travel: the first version's records as they were written.
    assert!(back(&["--version", "0"]) == all, "version 0's records");
    assert_eq!(
        sums(&["--version", "1"]),
        format!("n,b\n{},{}\n", 2 * n, 2 * total)
    );
    let missing = convert(
        &w,
        &[
            "--from",
            "delta",
            "--version",
            "9",
            "--to",
            "binary",
            &target,
        ],
    );
    assert_stderr_contains(&missing, "there is no version 9: the latest is 2");

    // Back as a SequenceFile for Hadoop jobs: rcc frame info counts its records, and its
    // values are the records.
    let seq = w.dir.join("hits.seq");
    let seq = seq.to_str().unwrap();
    ok(convert(
        &w,
        &[
            "--from",
            "delta",
            "--version",
            "0",
            "--to",
            "binary",
            "--out-framing",
            "seqfile",
            &target,
            seq,
        ],
    ));
    let info = ok(rcc_in(&w.dir, &["frame", "info", seq], b""));
    assert!(
        info.starts_with("sequencefile: ") && info.contains(&format!(" {n} records,")),
        "{info}"
    );
    assert!(info.contains("value class: web.Hit"), "{info}");
    let values = convert(
        &w,
        &[
            "--from",
            "binary",
            "--in-framing",
            "seqfile",
            "--to",
            "binary",
            seq,
        ],
    );
    assert!(values.status.success(), "{}", stderr(&values));
    assert!(
        values.stdout == all,
        "the SequenceFile's values are the records"
    );
}

#[test]
fn convert_partitions_tables_and_refuses_what_does_not_apply() {
    let w = work("convert-partitioned");
    let file = w.hits();
    let (table, target) = w.out_dir("by-ok");
    std::fs::write(w.dir.join("kept.bin"), b"kept").unwrap();
    // Through rcc, which hands Delta tables to the companion rcc-convert.
    let ddl = w.dir.join("web.jr");
    let rcc_convert = |args: &[&str]| {
        let mut all = vec![
            "convert",
            "--schema",
            ddl.to_str().unwrap(),
            "--type",
            "web.Hit",
        ];
        all.extend_from_slice(args);
        rcc_in(&w.dir, &all, b"")
    };
    ok(rcc_convert(&[
        "--from",
        "binary",
        "--to",
        "delta",
        "--partition-by",
        "ok",
        file,
        &target,
    ]));
    let dirs: Vec<String> = tree(&table)
        .iter()
        .map(|f| f.split('/').next().unwrap().to_owned())
        .collect();
    assert_eq!(dirs.first().map(String::as_str), Some("_delta_log"));
    assert!(
        dirs.contains(&"ok=false".into()) && dirs.contains(&"ok=true".into()),
        "{dirs:?}"
    );
    // Every record back (the partition column matched to its field by name), each once.
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    let json = ok(rcc_convert(&["--from", "delta", "--to", "json", &target]));
    let expected = ok(convert(&w, &["--from", "binary", "--to", "json", file]));
    assert_eq!(sorted(&json), sorted(&expected));
    assert_eq!(expected.lines().count(), w.values.len());

    for (args, error) in [
        (
            &["--from", "binary", "--to", "json", "--mode", "append", file][..],
            "--mode applies to --to delta",
        ),
        (
            &["--from", "binary", "--to", "json", "--version", "1", file][..],
            "--version applies to --from delta",
        ),
        (
            &["--from", "binary", "--to", "delta", file][..],
            "--to delta writes a table: give its directory",
        ),
        (
            &["--from", "delta", "--to", "parquet", &target, "x.parquet"][..],
            "both columnar",
        ),
        (
            &[
                "--from",
                "binary",
                "--to",
                "delta",
                "--out-framing",
                "seqfile",
                file,
                "t/",
            ][..],
            "--out-framing does not apply to --to delta",
        ),
        (
            &["--from", "binary", "--to", "delta", file, "./"][..],
            "it is the working directory",
        ),
        (
            &[
                "--from",
                "delta",
                "--to",
                "json",
                "--timestamp",
                "noon",
                &target,
            ][..],
            "--timestamp: `noon` is not a time",
        ),
        (
            &["--from", "binary", "--to", "delta", file, "kept.bin"][..],
            "kept.bin is a file, not a Delta table's directory",
        ),
    ] {
        let out = convert(&w, args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(error), "{args:?}: {}", stderr(&out));
    }
    assert!(!w.dir.join("t").exists());
    assert_eq!(std::fs::read(w.dir.join("kept.bin")).unwrap(), b"kept");

    // An rcc without its companion says how to install it, and writes nothing.
    let alone = w.dir.join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::hard_link(support::rcc(), alone.join("rcc")).unwrap();
    let mut lonely = Command::new(alone.join("rcc"));
    lonely
        .args([
            "convert", "--schema", "web.jr", "--type", "web.Hit", "--from", "binary",
        ])
        .args(["--to", "delta", file, "lonely/"])
        .current_dir(&w.dir)
        .env("PATH", "");
    let out = support::run(lonely, b"");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("runs the companion command rcc-convert, which was not found")
            && stderr(&out).contains("cargo install hadoop-record-sql-cli"),
        "{}",
        stderr(&out)
    );
    assert!(!w.dir.join("lonely").exists());

    let help = ok(rcc_in(&w.dir, &["convert", "--help"], b""));
    for listed in [
        "- delta:",
        "--mode <MODE>",
        "--partition-by <FIELD,...>",
        "--allow-unsafe-rename",
        "--version <N>",
        "--timestamp <TIME>",
    ] {
        assert!(help.contains(listed), "rcc convert --help lacks {listed}");
    }
}

/// `rcc convert --to delta` into S3 (moto's server, which has conditional puts) and
/// `--from delta` back: each version's records.
#[test]
fn convert_writes_and_reads_tables_in_s3() {
    let Some(python) = fixture_harness::peers::moto_python() else {
        return;
    };
    let w = work("convert-s3");
    let moto = fixture_harness::peers::MotoServer::start(python, &w.dir.join("moto.log"));
    moto.create_bucket("lake");
    let env = moto.client_env();
    let s3 = |args: &[&str]| {
        let out = convert_with(&w, "web.jr", &env, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        out.stdout
    };
    let all = w.payloads(Format::Binary).concat();
    std::fs::write(w.dir.join("hits.bin"), &all).unwrap();
    let paddle = w.paddle("hits.paddle");
    let table = "s3://lake/hits/";
    s3(&["--from", "binary", "--to", "delta", "hits.bin", table]);
    let mut args = words("--from binary --in-framing paddle --to delta --mode append");
    args.extend([paddle.to_str().unwrap(), table]);
    s3(&args);
    let first = s3(&["--from", "delta", "--version", "0", "--to", "binary", table]);
    assert!(first == all, "version 0's records");
    let sorted = |json: Vec<u8>| {
        let mut lines: Vec<String> = String::from_utf8(json)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        lines.sort();
        lines
    };
    let once = s3(&["--from", "binary", "--to", "json", "hits.bin"]);
    let twice = sorted([once.clone(), once].concat());
    assert_eq!(
        sorted(s3(&["--from", "delta", "--to", "json", table])),
        twice
    );
    let log = moto.run_boto(
        "print(sorted(o['Key'] for o in c.list_objects_v2(Bucket='lake', \
         Prefix='hits/_delta_log/')['Contents']))",
    );
    assert_eq!(
        log.trim(),
        "['hits/_delta_log/00000000000000000000.json', \
         'hits/_delta_log/00000000000000000001.json']"
    );
}

/// Every example of the companions' and `rcc convert`'s `--help` pastes into a shell as it
/// is printed: each line of one is its first (`rcc …`, or `VAR=… rcc …`) or follows a line
/// that ends in ` \`, and none is wrapped.
#[test]
fn help_examples_paste_into_a_shell() {
    for companion in ["sql", "cluster", "delta", "convert"] {
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
