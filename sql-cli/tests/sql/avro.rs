//! `rcc sql --to avro` and `--from avro`: results as Avro container files (one file, a
//! dataset, Hive partitions), read back by `rcc sql --from avro` as the records they came
//! from and by fastavro (PyPI, pinned) with the schema derived from the result's columns;
//! nulls, codecs and the errors.

use std::path::Path;

use fixture_harness::peers::{fastavro_python, run_script};
use hadoop_record::Format;

use crate::support::web::{by_url_csv, BY_URL};
use crate::support::{
    assert_stderr_contains, assert_stderr_starts_with, listing, rcc_sql_in, stderr, stdout,
};
use crate::work;

/// What fastavro reads from each of `files`: the writer's schema and the records, as JSON.
fn fastavro_read(python: &Path, files: &[&Path]) -> String {
    let script = "import fastavro, json, sys\n\
        for path in sys.argv[1:]:\n\
        \x20   with open(path, 'rb') as f:\n\
        \x20       r = fastavro.reader(f)\n\
        \x20       print(json.dumps(r.writer_schema, sort_keys=True))\n\
        \x20       for rec in r:\n\
        \x20           print(json.dumps(rec, sort_keys=True))\n";
    run_script(python, script, files)
}

#[test]
fn avro_results_read_back_as_the_records_by_rcc_and_fastavro() {
    let w = work("avro");
    let paddle = w.hits();

    // Every record as one Avro file, then queried and turned back into records.
    let out = w.sql_paddle("--to avro -o hits.avro", &["SELECT * FROM records"], paddle);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    let out = w.sql(&["--from", "avro", "--to", "csv", BY_URL, "hits.avro"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), by_url_csv(&w.by_url()));
    // Without a DDL: the record type of the file's own schema (its records and fields).
    let out = rcc_sql_in(
        &w.dir,
        &["--from", "avro", "--to", "csv", BY_URL, "hits.avro"],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), by_url_csv(&w.by_url()));
    let out = w.sql_flags(
        "--from avro --to records -o back.bin",
        &["SELECT * FROM records", "hits.avro"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(w.dir.join("back.bin")).unwrap(),
        w.payloads(Format::Binary).concat()
    );

    // A dataset of two part files in snappy blocks, read back through a glob; and one laid
    // out by a column, whose values are then the directories'.
    let out = w.sql_paddle(
        "--partitions 2 --to avro --avro-codec snappy -o ds/",
        &["SELECT * FROM records"],
        paddle,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let parts = listing(&w.dir.join("ds"));
    assert!(parts.contains(&"_SUCCESS".to_string()), "{parts:?}");
    assert!(
        parts
            .iter()
            .filter(|p| p.starts_with("part-") && p.ends_with(".avro"))
            .count()
            >= 1,
        "{parts:?}"
    );
    let out = w.sql(&["--from", "avro", "--to", "csv", BY_URL, "ds/*.avro"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), by_url_csv(&w.by_url()));
    let out = w.sql_paddle(
        "--to avro --partition-by ok -o by_ok/",
        &["SELECT id, url, ok FROM records"],
        paddle,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut by_ok = Vec::new();
    for value in ["false", "true"] {
        let dir = w.dir.join(format!("by_ok/ok={value}"));
        for part in listing(&dir) {
            by_ok.push(dir.join(part));
        }
    }

    // Nulls: a nullable column is Avro's ["null", T].
    let out = w.sql_paddle(
        "--to avro --avro-codec null -o nulls.avro",
        &[
            "SELECT id, CASE WHEN id % 2 = 0 THEN url END AS u, counts, origin FROM records \
         WHERE id < 3",
        ],
        paddle,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // Read without a DDL, the nullable column's nulls are errors naming it (Hadoop has
    // none); the others read.
    let query = |q: &str| {
        rcc_sql_in(
            &w.dir,
            &["--from", "avro", "--to", "csv", q, "nulls.avro"],
            b"",
        )
    };
    let out = query("SELECT id, origin.city AS city FROM records");
    assert_eq!(
        stdout(&out),
        "id,city\n0,Paris\n1,Oslo\n2,Lima\n",
        "{}",
        stderr(&out)
    );
    let out = query("SELECT u FROM records");
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "topLevelRecord.u is null");

    let Some(python) = fastavro_python() else {
        return;
    };
    let read = fastavro_read(python, &[&w.dir.join("nulls.avro")]);
    let mut lines = read.lines();
    let schema: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(schema["name"], "topLevelRecord", "{schema}");
    assert_eq!(
        schema["fields"][1]["type"],
        serde_json::json!(["null", "string"])
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(
        rows,
        [
            r#"{"counts": {}, "id": 0, "origin": {"city": "Paris", "zip": 0}, "u": "a.com"}"#,
            r#"{"counts": {"k0": 10}, "id": 1, "origin": {"city": "Oslo", "zip": 31}, "u": null}"#,
            r#"{"counts": {"k0": 20, "k1": 21}, "id": 2, "origin": {"city": "Lima", "zip": 62}, "u": "c.net"}"#,
        ]
    );
    // The Hive layout: the partition column lives in the directories, not the files.
    let by_ok: Vec<&Path> = by_ok.iter().map(|p| p.as_path()).collect();
    let read = fastavro_read(python, &by_ok);
    let ids = read
        .lines()
        .filter(|l| l.starts_with("{\"id\""))
        .inspect(|l| assert!(!l.contains("\"ok\""), "{l}"))
        .count();
    assert_eq!(ids, w.values.len());
    // Every record, as fastavro reads the single file.
    let read = fastavro_read(python, &[&w.dir.join("hits.avro")]);
    assert_eq!(read.lines().count(), w.values.len() + 1);
    assert!(
        read.lines().nth(2).unwrap().starts_with(
            r#"{"bytes": -42081, "counts": {"k0": 10}, "id": 1, "ok": false, "origin": {"city": "Oslo", "zip": 31}, "score": 0.125, "tags": ["t0"], "url": "b.org"}"#
        ),
        "{read}"
    );
}

#[test]
fn avro_errors_name_the_file_the_column_and_the_flag() {
    let w = work("avro_errors");
    let paddle = w.hits();
    let avro = |flags: &str, query: &str| w.sql_paddle(flags, &[query], paddle);
    let out = avro("--to avro -o h.avro", "SELECT * FROM records");
    assert!(out.status.success(), "{}", stderr(&out));

    // A truncated file: an error naming the file and where, exit status 1.
    let whole = std::fs::read(w.dir.join("h.avro")).unwrap();
    std::fs::write(w.dir.join("cut.avro"), &whole[..whole.len() - 100]).unwrap();
    let out = w.sql(&["--from", "avro", "SELECT count(*) FROM records", "cut.avro"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("cut.avro") && err.contains("block"), "{err}");
    assert!(!err.contains("External error"), "{err}");

    // Record files are not Avro.
    let out = w.sql_flags(
        "--from avro",
        &["SELECT count(*) FROM records", "hits.paddle"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "not an Avro container file");

    // A column Avro cannot hold: refused before any file is made.
    let out = avro(
        "--to avro -o i.avro",
        "SELECT id, INTERVAL '1 day' AS i FROM records",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "column `i`");
    assert!(!w.dir.join("i.avro").exists());

    // The codec flag.
    let out = avro("--to avro --avro-codec lz4", "SELECT id FROM records");
    assert_stderr_starts_with(&out, "error: --avro-codec: ");
    let out = avro("--to csv --avro-codec snappy", "SELECT id FROM records");
    assert_stderr_contains(&out, "--avro-codec applies to --to avro");
    let out = w.sql_flags(
        "--from avro --in-framing paddle",
        &["SELECT id FROM records", "h.avro"],
    );
    assert_stderr_contains(&out, "not --from delta or avro");
}
