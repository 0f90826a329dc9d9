//! `rcc sql`: answers over framed and plain record files checked against what the records
//! themselves give (computed here from the schema-driven values) and against DuckDB over
//! the Parquet file `rcc sql --to parquet` writes (a pinned DuckDB and pyarrow in a virtual
//! environment under the target directory); SQL's binary-string functions on a `buffer`
//! column against DuckDB; every output format; the errors (bad SQL with the table's
//! columns, a bad record with file, record, byte and field path, bad paths and options).
//!
//! The Python peers need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

#[path = "sql/avro.rs"]
mod avro;
mod support;

use std::path::{Path, PathBuf};

use fixture_harness::peers::{python, run_script};
use hadoop_record::framing::paddle::{PaddleReadOptions, PaddleReader};
use hadoop_record::Format;
use support::web::{by_url_csv, work_in, Work, BY_URL};
use support::{
    assert_stderr_contains, assert_stderr_ends_with, csv_query, fresh_dir, listing, ok, rcc_in,
    rcc_sql_in, stderr, stdout, words,
};

fn work(name: &str) -> Work {
    work_in("cli-sql", name, 500)
}

#[test]
fn answers_over_framed_and_plain_files_are_the_records() {
    let w = work("answers");
    let paddle = w.paddle("hits.paddle");
    let expected = by_url_csv(&w.by_url());

    // Paddle framing, split into ranges by four threads; the file mapped into memory, and
    // read.
    for mmap in [None, Some("--no-mmap")] {
        let mut args = vec!["--in-framing", "paddle", "--to", "csv", "--partitions", "4"];
        args.extend(mmap);
        args.extend([BY_URL, paddle.to_str().unwrap()]);
        let out = w.sql(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), expected);
    }

    // The same records as plain CSV and as v1, in a directory and by a glob, table `hits`.
    let csv: Vec<u8> = w.payloads(Format::Csv).concat();
    std::fs::create_dir_all(w.dir.join("csv")).unwrap();
    let (first, second) = csv.split_at(csv.len() / 2);
    let cut = first.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(w.dir.join("csv/1.csv"), &csv[..cut]).unwrap();
    std::fs::write(w.dir.join("csv/2.csv"), [&first[cut..], second].concat()).unwrap();
    let query = BY_URL.replace("records", "hits");
    let out = w.sql(&[
        "--from", "csv", "--table", "hits", "--to", "csv", &query, "csv/",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    w.v1("hits.v1");
    let out = w.sql(&["--in-framing", "v1", "--to", "csv", BY_URL, "*.v1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    // A Hadoop SequenceFile (block-compressed, written by rcc itself from the Paddle file),
    // split at its sync entries by four threads.
    let seq = w.dir.join("hits.seq");
    let frame = words(
        "frame --from paddle --to seqfile --record-type web.Hit \
         --seqfile-compression block --seqfile-codec deflate",
    );
    let files = [paddle.to_str().unwrap(), seq.to_str().unwrap()];
    let out = rcc_in(&w.dir, &[&frame[..], &files].concat(), b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = w.sql(&csv_query(
        "seqfile",
        Some("4"),
        BY_URL,
        &[seq.to_str().unwrap()],
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    // JSON lines: nested values as `rcc convert --to json` writes them (maps as pairs).
    let out = w.sql_paddle(
        "--to json",
        &["SELECT id, tags, counts, origin FROM records WHERE id IN (2, 5) ORDER BY id"],
        paddle.to_str().unwrap(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"id\": 2, \"tags\": [\"t0\", \"t1\"], \"counts\": [[\"k0\", 20], [\"k1\", 21]], \"origin\": {\"city\": \"Lima\", \"zip\": 62}}\n\
         {\"id\": 5, \"tags\": [\"t0\"], \"counts\": [[\"k0\", 50], [\"k1\", 51]], \"origin\": {\"city\": \"Lima\", \"zip\": 155}}\n"
    );

    // A table for people, by default.
    let out = w.sql_paddle(
        "",
        &["SELECT origin['city'] AS city, count(*) AS n FROM records GROUP BY city ORDER BY city"],
        paddle.to_str().unwrap(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lima = (0..500).filter(|i| i % 3 == 2).count();
    assert_eq!(
        stdout(&out),
        format!(
            "+-------+-----+\n| city  | n   |\n+-------+-----+\n| Lima  | {lima} |\n| Oslo  | {} |\n| Paris | {} |\n+-------+-----+\n",
            (0..500).filter(|i| i % 3 == 1).count(),
            (0..500).filter(|i| i % 3 == 0).count(),
        )
    );
}

/// The README's walk-through, on `examples/sql` (copied): framed with `rcc convert`,
/// queried, kept as Parquet.
#[test]
fn the_readme_walk_through() {
    let dir = fresh_dir("cli-sql", "walk-through");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sql");
    for f in ["web.jr", "hits.csv"] {
        std::fs::copy(example.join(f), dir.join(f)).unwrap();
    }
    let ddl = ["--schema", "web.jr", "--type", "web.Hit"];
    // `rcc COMMAND` with the DDL and type, `flags` (words), then `args`.
    let run = |command: &str, flags: &str, args: &[&str]| {
        let all = [&[command][..], &ddl, &words(flags), args].concat();
        let out = rcc_in(&dir, &all, b"");
        assert!(out.status.success(), "{all:?}: {}", stderr(&out));
        stdout(&out)
    };
    let paddle = "--in-framing paddle";
    run(
        "convert",
        "--from csv --to binary --out-framing paddle hits.csv hits.paddle",
        &[],
    );
    let table = run(
        "sql",
        paddle,
        &[
            "SELECT origin['country'] AS country, count(*) AS hits, sum(bytes) AS bytes \
         FROM records GROUP BY country ORDER BY bytes DESC",
            "hits.paddle",
        ],
    );
    assert_eq!(
        table,
        "+---------+------+---------+\n| country | hits | bytes   |\n+---------+------+---------+\n\
         | FR      | 3    | 1053696 |\n| NO      | 2    | 7168    |\n| PE      | 1    | 312     |\n\
         +---------+------+---------+\n"
    );
    run(
        "sql",
        &format!("{paddle} --to parquet -o ok.parquet"),
        &["SELECT * FROM records WHERE status = 200", "hits.paddle"],
    );
    assert!(std::fs::read(dir.join("ok.parquet"))
        .unwrap()
        .starts_with(b"PAR1"));
    run(
        "sql",
        &format!("{paddle} --to parquet --partition-by status -o by-status/"),
        &["SELECT * FROM records", "hits.paddle"],
    );
    let statuses = listing(&dir.join("by-status"));
    assert_eq!(statuses.first().map(String::as_str), Some("_SUCCESS"));
    assert!(
        statuses[1..].iter().all(|s| s.starts_with("status=")),
        "{statuses:?}"
    );
    assert!(statuses.contains(&"status=200".to_owned()), "{statuses:?}");
}

#[test]
fn errors_name_what_is_wrong() {
    let w = work("errors");
    let paddle = w.hits();

    // Bad SQL: DataFusion's message, then the columns.
    let out = w.sql(&["--in-framing", "paddle", "SELECT nope FROM records", paddle]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: Schema error: No field named nope."),
        "{err}"
    );
    assert!(
        err.ends_with(
            "the columns of `records` are:\n  id: int (Int32)\n  bytes: long (Int64)\n  \
             ok: boolean (Boolean)\n  url: ustring (Utf8View)\n  tags: vector<ustring> (List(Utf8))\n  \
             counts: map<ustring, long> (Map(Utf8, Int64))\n  \
             origin: web.Place (Struct(city Utf8, zip Int32))\n  score: double (Float64)\n"
        ),
        "{err}"
    );

    // A bad record: file, record, byte, field path.
    std::fs::write(
        w.dir.join("bad.csv"),
        "1,2,T,'u,v{},m{},s{'P,1},0.5\n2,x,T,'u,v{},m{},s{'P,1},0.5\n",
    )
    .unwrap();
    let out = w.sql(&["--from", "csv", "SELECT sum(bytes) FROM records", "bad.csv"]);
    assert_eq!(out.status.code(), Some(1));
    let bad = std::fs::canonicalize(w.dir.join("bad.csv")).unwrap();
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: record 1, byte 31, in Hit.bytes: expected a long, found `x`\n",
            bad.display()
        )
    );

    // Paths, types and options.
    let out = w.sql(&["--in-framing", "paddle", "SELECT 1", "missing/*.paddle"]);
    assert_eq!(
        stderr(&out),
        "error: missing/*.paddle: no such file, or no file matches\n"
    );
    let out = rcc_in(
        &w.dir,
        &[
            "sql", "--schema", "web.jr", "--type", "Hits", "SELECT 1", paddle,
        ],
        b"",
    );
    assert_eq!(
        stderr(&out),
        "error: unknown type `Hits` in web.jr: did you mean `web.Hit`?\n"
    );
    let out = w.sql(&["--in-framing", "v1", "--recover", "SELECT 1", paddle]);
    assert_eq!(
        stderr(&out),
        "error: --in-framing: recovery applies to paddle, paddle-cpp, plasma-var and seqfile input, not v1\n"
    );
    let out = w.sql_paddle(
        "--recover --cluster df://127.0.0.1:9",
        &["SELECT 1"],
        paddle,
    );
    assert_eq!(
        stderr(&out),
        "error: --recover does not work with --cluster: the executors could not report what \
         they skipped (recover locally: rcc sql --recover without --cluster)\n"
    );
    let out = w.sql(&["--in-framing", "paddle", "SELECT count(*) FROM records"]);
    assert_stderr_contains(&out, "<FILE>...");
}

/// The Parquet file `rcc sql --to parquet` writes, queried by DuckDB, gives the answers the
/// records give; pyarrow sees the mapping's types.
#[test]
fn parquet_output_read_by_duckdb_and_pyarrow() {
    let Some(python) = python() else {
        return;
    };
    let w = work("parquet");
    let paddle = w.paddle("hits.paddle");
    // The result of `query` as the Parquet file `name`.
    let to_parquet = |query: &str, name: &str| {
        let file = w.dir.join(name);
        let out = w.sql_paddle(
            "--to parquet -o",
            &[file.to_str().unwrap(), query],
            paddle.to_str().unwrap(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        file
    };
    let parquet = to_parquet("SELECT * FROM records", "hits.parquet");
    let script = r#"
import sys, duckdb, pyarrow.parquet as pq
path = sys.argv[1]
print(pq.read_schema(path).to_string(show_field_metadata=False, show_schema_metadata=False))
rows = duckdb.sql(f"""
    SELECT url, count(*), sum(bytes), sum(CASE WHEN ok THEN 1 ELSE 0 END), sum(len(tags))
    FROM '{path}' GROUP BY url ORDER BY url""").fetchall()
for r in rows:
    print("|".join(str(x) for x in r))
"#;
    let text = run_script(python, script, &[&parquet]);
    let mut expected = String::from(
        "id: int32 not null\nbytes: int64 not null\nok: bool not null\nurl: string not null\n\
         tags: list<item: string not null> not null\n  child 0, item: string not null\n\
         counts: map<string, int64 ('counts')> not null\n  child 0, counts: struct<key: string not null, value: int64 not null> not null\n      child 0, key: string not null\n      child 1, value: int64 not null\n\
         origin: struct<city: string not null, zip: int32 not null> not null\n  child 0, city: string not null\n  child 1, zip: int32 not null\n\
         score: double not null\n",
    );
    for (url, n, b, o, t) in w.by_url() {
        expected.push_str(&format!("{url}|{n}|{b}|{o}|{t}\n"));
    }
    assert_eq!(text, expected);

    // The table's strings are views; the file's are plain strings, in lists too.
    let lists = to_parquet(
        "SELECT array_agg(url) AS urls FROM records",
        "lists.parquet",
    );
    let script = "import sys, pyarrow.parquet as pq\nprint(pq.read_schema(sys.argv[1]).field('urls').type)\n";
    assert_eq!(
        run_script(python, script, &[&lists]),
        "list<item: string>\n"
    );
}

#[test]
fn recover_skips_damaged_chunks_and_reports_them() {
    let w = work("recover");
    let path = w.damaged_paddle("hits.paddle");
    let bytes = std::fs::read(&path).unwrap();
    let file = path.to_str().unwrap();
    let query = "SELECT count(*) AS n FROM records";

    // Strict: the damage stops the query, named by file and byte.
    let out = w.sql(&["--in-framing", "paddle", "--to", "csv", query, file]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: {}",
            std::fs::canonicalize(&path).unwrap().display()
        )),
        "{err}"
    );

    // Recovering: the records of the intact chunks, what was skipped as a warning, and
    // exit status 1, as `rcc convert --recover` does.
    let mut reader = PaddleReader::with_options(
        std::io::Cursor::new(&bytes),
        PaddleReadOptions::default().with_recover(true),
    );
    let intact = reader
        .by_ref()
        .try_fold(0, |n, r| r.map(|_| n + 1))
        .unwrap();
    let skips: Vec<String> = reader.skipped().iter().map(ToString::to_string).collect();
    assert!(
        intact < w.values.len() && !skips.is_empty(),
        "the damage cost records"
    );
    let out = w.sql_paddle("--recover --to csv", &[query], file);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("n\n{intact}\n"));
    let shown = std::fs::canonicalize(&path).unwrap();
    let expected: String = skips
        .iter()
        .map(|s| format!("warning: recovery: {}: {s}\n", shown.display()))
        .collect();
    assert_eq!(stderr(&out), expected);
}

/// SQL's binary-string functions on a `buffer` column — bytes ≥ 0x80, empty buffers and
/// nulls (jute, `--nullable`) — answer as a live DuckDB does over the same bytes. DuckDB
/// lacks `length`, `substring`, `position` and `encode` on BLOB: its side asks what standard
/// SQL defines them as (`octet_length`, slices, the first slice equal to `x`, `hex`).
#[test]
fn binary_string_functions_answer_as_duckdb() {
    let Some(python) = python() else {
        return;
    };
    let dir = fresh_dir("cli-sql", "binary");
    std::fs::write(
        dir.join("bin.jr"),
        "module bin { class Blob { int i; buffer b; buffer x; } }",
    )
    .unwrap();
    // (i, b, x); None is null.
    type Row = (i32, Option<&'static [u8]>, Option<&'static [u8]>);
    let rows: [Row; 8] = [
        (1, Some(b"\x00\x01\xff\x80abc"), Some(b"\x80")),
        (2, Some(b""), Some(b"")),
        (3, None, Some(b"a")),
        (4, Some(b"abc"), Some(b"bc")),
        (5, Some("é".as_bytes()), Some(b"\xa9")),
        (6, Some(b"\x7f"), None),
        (7, Some(b"\x80"), Some(b"\x80\x80")),
        (8, Some(b"\xff\xff\x00"), Some(b"\xff\x00")),
    ];
    // jute: a big-endian int; a buffer is its length and bytes, a null one length -1.
    let mut jute = Vec::new();
    let mut hex_rows = Vec::new();
    for (i, b, x) in rows {
        jute.extend(i.to_be_bytes());
        let mut hex = vec![i.to_string()];
        for bytes in [b, x] {
            match bytes {
                Some(bytes) => {
                    jute.extend((bytes.len() as i32).to_be_bytes());
                    jute.extend(bytes);
                    hex.push(bytes.iter().map(|b| format!("{b:02x}")).collect());
                }
                None => {
                    jute.extend((-1i32).to_be_bytes());
                    hex.push("NULL".into());
                }
            }
        }
        hex_rows.push(hex.join(" "));
    }
    std::fs::write(dir.join("blobs.jute"), jute).unwrap();

    let queries = [
        "SELECT i, octet_length(b) AS octets, length(b) AS len, \
         coalesce(encode(substring(b FROM 2 FOR 3), 'hex'), 'NULL') AS sub, \
         coalesce(encode(substring(b, 0, 2), 'hex'), 'NULL') AS head, \
         position(x IN b) AS pos, coalesce(encode(b || x, 'hex'), 'NULL') AS cat, \
         b < x AS lt, b = x AS eq, coalesce(encode(b, 'hex'), 'NULL') AS hex \
         FROM records ORDER BY b NULLS LAST, i",
        "SELECT encode(min(b), 'hex') AS lo, encode(max(b), 'hex') AS hi FROM records",
    ];
    let mut ours = String::new();
    for query in queries {
        let out = rcc_sql_in(
            &dir,
            &[
                "--schema",
                "bin.jr",
                "--type",
                "bin.Blob",
                "--from",
                "jute",
                "--nullable",
                "--to",
                "csv",
                query,
                "blobs.jute",
            ],
            b"",
        );
        assert!(out.status.success(), "{query}: {}", stderr(&out));
        ours.push_str(&stdout(&out));
    }

    let script = r#"
import sys, duckdb
con = duckdb.connect()
con.execute("CREATE TABLE t(i INT, b BLOB, x BLOB)")
for row in sys.argv[1:]:
    i, b, x = row.split(" ")
    con.execute("INSERT INTO t VALUES (?, unhex(?), unhex(?))",
                [int(i), None if b == "NULL" else b, None if x == "NULL" else x])
position = """(SELECT coalesce(min(k), 0) FROM range(1, octet_length(b) + 2) r(k)
               WHERE b[k : k + octet_length(x) - 1] = x)"""
queries = [
    ("i,octets,len,sub,head,pos,cat,lt,eq,hex", f"""
     SELECT i, octet_length(b), octet_length(b), coalesce(lower(hex(b[2:4])), 'NULL'),
            coalesce(lower(hex(b[1:1])), 'NULL'),
            CASE WHEN b IS NOT NULL AND x IS NOT NULL THEN {position} END,
            coalesce(lower(hex(b || x)), 'NULL'), b < x, b = x, coalesce(lower(hex(b)), 'NULL')
     FROM t ORDER BY b NULLS LAST, i"""),
    ("lo,hi", "SELECT lower(hex(min(b))), lower(hex(max(b))) FROM t"),
]
def text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
for header, query in queries:
    print(header)
    for r in con.execute(query).fetchall():
        print(",".join(text(v) for v in r))
"#;
    let duckdb = run_script(python, script, &hex_rows);
    assert_eq!(ours, duckdb);
    // The rows DuckDB's order gives, so that an empty answer cannot pass.
    assert!(
        duckdb.starts_with("i,octets,len,sub,head,pos,cat,lt,eq,hex\n2,0,0,,,1,,false,true,\n"),
        "{duckdb}"
    );
}

/// Every command's help begins with what the command does: rcc's subcommands, the
/// companions they run, and the companions run by hand.
#[test]
fn every_help_begins_with_what_its_command_does() {
    let dir = work("help");
    let sql = "Query record files with SQL (DataFusion)";
    let cluster = "Run a Ballista scheduler or executor that knows record files";
    let convert = "Convert records of a DDL type between binary, CSV, XML, JSON";
    let frame =
        "Convert between record framings (SequenceFile, Mesos, Paddle, Plasma, RecordIO v1)";
    let cases: [(&[&str], &str); 8] = [
        (&["sql", "--help"], sql),
        (&["sql", "-h"], sql),
        (&["cluster", "--help"], cluster),
        (
            &["cluster", "scheduler", "--help"],
            "Run a Ballista scheduler: it plans",
        ),
        (
            &["cluster", "executor", "--help"],
            "Run a Ballista executor: it registers",
        ),
        (&["convert", "--help"], convert),
        (&["frame", "--help"], frame),
        (&["frame", "info", "--help"], "Summarise a framed file"),
    ];
    for (args, begins) in cases {
        let help = stdout(&rcc_in(&dir.dir, args, b""));
        assert!(help.starts_with(begins), "rcc {args:?}:\n{help}");
    }
    for (program, begins) in [
        (env!("CARGO_BIN_EXE_rcc-sql"), sql),
        (env!("CARGO_BIN_EXE_rcc-cluster"), cluster),
        (env!("CARGO_BIN_EXE_rcc-convert"), convert),
        (env!("CARGO_BIN_EXE_rcc-frame"), frame),
    ] {
        let out = std::process::Command::new(program)
            .arg("--help")
            .output()
            .unwrap();
        let help = stdout(&out);
        assert!(help.starts_with(begins), "{program}:\n{help}");
    }
}

/// `-o DIR/`: one part file per partition of the result, committed with `_SUCCESS`, read
/// back by pyarrow's datasets and DuckDB as the query's answer; a non-empty target is
/// refused (and kept) without --overwrite; a failed job leaves nothing visible.
#[test]
fn datasets_are_written_part_by_part_and_committed() {
    let w = work("dataset");
    let file = w.hits();
    // No ORDER BY: the answer keeps the aggregation's two partitions.
    let query = BY_URL.replace(" ORDER BY url", "");
    let write = |to: &str, target: &str, extra: &[&str]| {
        let mut args = vec!["--in-framing", "paddle", "--partitions", "2", "--to", to];
        args.extend_from_slice(extra);
        args.extend(["-o", target, query.as_str(), file]);
        w.sql(&args)
    };
    let mut expected = String::new();
    for (url, n, b, o, t) in w.by_url() {
        expected.push_str(&format!("{url}|{n}|{b}|{o}|{t}\n"));
    }
    let script = r#"
import sys, duckdb, pyarrow.dataset as ds
path, fmt = sys.argv[1], sys.argv[2]
rows = ds.dataset(path, format=fmt).to_table().to_pylist()
for r in sorted(rows, key=lambda r: r["url"]):
    print("|".join(str(r[c]) for c in ["url", "n", "bytes", "oks", "tags"]))
for r in duckdb.sql(f"SELECT url, n, bytes, oks, tags FROM read_{fmt}('{path}/*.{fmt}') ORDER BY url").fetchall():
    print("|".join(str(x) for x in r))
"#;
    for to in ["parquet", "csv"] {
        let dir = w.dir.join(format!("by-url-{to}"));
        let out = write(to, &format!("{}/", dir.display()), &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let names = listing(&dir);
        assert_eq!(
            names.first().map(String::as_str),
            Some("_SUCCESS"),
            "{names:?}"
        );
        assert_eq!(std::fs::read(dir.join("_SUCCESS")).unwrap(), b"");
        let parts = &names[1..];
        assert_eq!(parts.len(), 2, "one part per partition: {names:?}");
        let id = parts[0].split('-').nth(2).unwrap().to_owned();
        for (i, part) in parts.iter().enumerate() {
            assert_eq!(part, &format!("part-{i:05}-{id}"), "{names:?}");
        }
        if let Some(python) = python() {
            let text = run_script(python, script, &[dir.as_path(), Path::new(to)]);
            assert_eq!(text, format!("{expected}{expected}"), "{to}");
        }
    }

    // A target that is not empty: refused, its contents kept; replaced with --overwrite.
    let dir = w.dir.join("by-url-parquet");
    let before = listing(&dir);
    let out = write("parquet", dir.to_str().unwrap(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "exists and is not empty: give --overwrite");
    assert_eq!(listing(&dir), before);
    let out = write("parquet", dir.to_str().unwrap(), &["--overwrite"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = listing(&dir);
    assert_eq!(after.len(), before.len());
    assert!(
        after.iter().all(|name| !before[1..].contains(name)),
        "{before:?} → {after:?}"
    );

    // A damaged record fails the job: nothing visible, no _SUCCESS, nothing staged.
    let damaged = w.damaged_paddle("damaged.paddle");
    let empty = w.dir.join("empty-before");
    std::fs::create_dir_all(&empty).unwrap();
    for target in [w.dir.join("new"), empty.clone()] {
        let out = w.sql_paddle(
            "--to parquet -o",
            &[&format!("{}/", target.display()), "SELECT * FROM records"],
            damaged.to_str().unwrap(),
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_stderr_contains(&out, "damaged.paddle");
        let left = if target.exists() {
            listing(&target)
        } else {
            Vec::new()
        };
        assert!(left.is_empty(), "{left:?}");
    }
    assert!(!w.dir.join("new").exists());

    // Not a dataset's kind of output: a clear error, nothing made.
    let out = write("table", &format!("{}/", w.dir.join("t").display()), &[]);
    assert_stderr_contains(&out, "give --to parquet, csv, json, avro or records");
    assert!(!w.dir.join("t").exists());
}

/// Parquet is written as `rcc convert` writes it: zstd unless `--parquet-compression` (or
/// COPY's `compression` option) says otherwise, in row groups of at most `--row-group-size`
/// rows; wrong options are clear errors.
#[test]
fn parquet_compression_and_row_groups_are_chosen_as_in_rcc_convert() {
    use datafusion::parquet::basic::Compression;
    use datafusion::parquet::file::reader::{FileReader, SerializedFileReader};
    let w = work("parquet-options");
    let file = w.hits();
    let rows = w.values.len();
    // Each written file's row groups: their row counts and their columns' compressions.
    let groups = |path: &Path| -> Vec<(i64, Vec<Compression>)> {
        let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
        let meta = reader.metadata();
        meta.row_groups()
            .iter()
            .map(|g| {
                (
                    g.num_rows(),
                    g.columns().iter().map(|c| c.compression()).collect(),
                )
            })
            .collect()
    };
    let parts = |dir: &Path| -> Vec<PathBuf> {
        let names = listing(dir);
        assert_eq!(
            names.first().map(String::as_str),
            Some("_SUCCESS"),
            "{names:?}"
        );
        names[1..].iter().map(|n| dir.join(n)).collect()
    };
    let select = "SELECT id, url, bytes FROM records";

    let single = w.dir.join("one.parquet");
    let out = w.sql_paddle("--to parquet -o", &[single.to_str().unwrap(), select], file);
    assert!(out.status.success(), "{}", stderr(&out));
    let zstd = Compression::ZSTD(Default::default());
    assert_eq!(groups(&single), [(rows as i64, vec![zstd; 3])]);

    let (dir, target) = w.out_dir("snappy");
    ok(w.sql_paddle(
        "--partitions 2 --to parquet --parquet-compression snappy --row-group-size 3 -o",
        &[&target, select],
        file,
    ));
    let mut written = 0;
    for part in parts(&dir) {
        for (n, compressions) in groups(&part) {
            assert!((1..=3).contains(&n), "{part:?}: a row group of {n} rows");
            assert_eq!(compressions, [Compression::SNAPPY; 3]);
            written += n;
        }
    }
    assert_eq!(written, rows as i64);

    let (copied, target) = w.out_dir("copied");
    let options = "(compression 'gzip(9)', max_row_group_size 4)";
    let copy = format!("COPY ({select}) TO '{target}' STORED AS PARQUET OPTIONS {options}");
    ok(w.sql_paddle("--to csv", &[&copy], file));
    for part in parts(&copied) {
        for (n, compressions) in groups(&part) {
            assert!((1..=4).contains(&n), "{part:?}: a row group of {n} rows");
            // A file names its codec, not the level it was written at.
            assert!(
                compressions
                    .iter()
                    .all(|c| matches!(c, Compression::GZIP(_))),
                "{compressions:?}"
            );
        }
    }

    // Wrong options: clear errors, nothing written.
    let target = format!("{}/", w.dir.join("wrong").display());
    for (args, error) in [
        (
            vec![
                "--to",
                "parquet",
                "--parquet-compression",
                "brotli",
                "-o",
                &target,
            ],
            "--parquet-compression: unknown compression `brotli`",
        ),
        (
            vec![
                "--to",
                "csv",
                "--parquet-compression",
                "snappy",
                "-o",
                &target,
            ],
            "apply to --to parquet",
        ),
        (
            vec!["--to", "json", "--row-group-size", "5", "-o", &target],
            "apply to --to parquet",
        ),
    ] {
        let mut all = vec!["--in-framing", "paddle"];
        all.extend(args);
        all.extend([select, file]);
        let out = w.sql(&all);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_stderr_contains(&out, error);
    }
    for (options, error) in [
        ("(compression 'brotli')", "compression `brotli`"),
        (
            "(max_row_group_size 0)",
            "max_row_group_size `0` is not a count of rows",
        ),
        (
            "(bloom_filter_enabled true)",
            "option `format.bloom_filter_enabled` is not supported",
        ),
    ] {
        let copy = format!("COPY ({select}) TO '{target}' STORED AS PARQUET OPTIONS {options}");
        let out = w.sql(&["--in-framing", "paddle", "--to", "csv", &copy, file]);
        assert_eq!(out.status.code(), Some(1), "{options}");
        assert!(stderr(&out).contains(error), "{options}: {}", stderr(&out));
    }
    assert!(!w.dir.join("wrong").exists());
}

/// `--partition-by` and `COPY … PARTITIONED BY`: Hive's directories (`col=value/`, values
/// escaped as Hive escapes them, null as `__HIVE_DEFAULT_PARTITION__`), read back as
/// partition columns by pyarrow and DuckDB.
#[test]
fn partitioned_datasets_are_laid_out_as_hive_does() {
    let w = work("partitioned");
    let file = w.hits();
    let select = "SELECT id, bytes, ok, CASE WHEN ok THEN 'a/b=c' ELSE NULL END AS k FROM records";
    let by_ok = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "csv",
        "SELECT CAST(ok AS VARCHAR) AS ok, count(*) AS n, sum(bytes) AS b FROM records \
         GROUP BY ok ORDER BY ok",
        file,
    ]);
    assert!(by_ok.status.success(), "{}", stderr(&by_ok));
    let expected: String = stdout(&by_ok)
        .lines()
        .skip(1)
        .map(|line| format!("{}\n", line.replace(',', "|")))
        .collect();
    assert_eq!(expected.lines().count(), 2, "{expected}");

    let (flag, target) = w.out_dir("flag");
    ok(w.sql_paddle(
        "--partitions 2 --to parquet --partition-by ok,k -o",
        &[&target, select],
        file,
    ));
    assert_eq!(listing(&flag), ["_SUCCESS", "ok=false", "ok=true"]);
    assert_eq!(listing(&flag.join("ok=true")), ["k=a%2Fb%3Dc"]);
    assert_eq!(
        listing(&flag.join("ok=false")),
        ["k=__HIVE_DEFAULT_PARTITION__"]
    );
    for part in listing(&flag.join("ok=true/k=a%2Fb%3Dc")) {
        assert!(
            part.starts_with("part-0000") && part.ends_with(".parquet"),
            "{part}"
        );
    }

    let (copied, target) = w.out_dir("copied");
    let copy = format!("COPY ({select}) TO '{target}' STORED AS CSV PARTITIONED BY (ok, k)");
    let out = ok(w.sql_paddle("--to csv", &[&copy], file));
    assert_eq!(out, format!("count\n{}\n", w.values.len()));
    assert_eq!(listing(&copied), ["_SUCCESS", "ok=false", "ok=true"]);

    let Some(python) = python() else {
        return;
    };
    let script = r#"
import sys, duckdb, pyarrow.dataset as ds
path, fmt = sys.argv[1], sys.argv[2]
rows = ds.dataset(path, format=fmt, partitioning="hive").to_table().to_pylist()
for ok in ["false", "true"]:
    mine = [r for r in rows if str(r["ok"]).lower() == ok]
    print(f"{ok}|{len(mine)}|{sum(r['bytes'] for r in mine)}|{sorted(set(str(r['k']) for r in mine))}")
for r in duckdb.sql(f"""SELECT CAST(ok AS VARCHAR), count(*), sum(bytes) FROM
        read_{fmt}('{path}/**/*.{fmt}', hive_partitioning = true) GROUP BY 1 ORDER BY 1""").fetchall():
    print("|".join(str(x) for x in r))
"#;
    let with_k: String = expected
        .lines()
        .map(|line| {
            let k = if line.starts_with("true") {
                "['a/b=c']"
            } else {
                "['None']"
            };
            format!("{line}|{k}\n")
        })
        .collect();
    for (dir, format) in [(&flag, "parquet"), (&copied, "csv")] {
        let text = run_script(python, script, &[dir.as_path(), Path::new(format)]);
        assert_eq!(text, format!("{with_k}{expected}"), "{format}");
    }
}

/// The bytes of a SequenceFile with its sync marker (the header's last 16 bytes, random
/// per file) zeroed wherever it appears.
fn without_sync(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    // The header: "SEQ" 6, key and value classes, two flags, [codec], metadata, sync.
    let mut at = 4;
    let text = |at: &mut usize| {
        let n = bytes[*at] as usize;
        *at += 1 + n;
    };
    text(&mut at);
    text(&mut at);
    let compressed = bytes[at] != 0;
    at += 2;
    if compressed {
        text(&mut at);
    }
    let pairs = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    at += 4;
    for _ in 0..pairs * 2 {
        let n = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        at += 4 + n;
    }
    let sync = bytes[at..at + 16].to_vec();
    let mut i = 0;
    while i + 16 <= out.len() {
        if out[i..i + 16] == sync[..] {
            out[i..i + 16].fill(0);
            i += 16;
        } else {
            i += 1;
        }
    }
    out
}

/// `--to records`: each row written as a record of `--out-type`, in `--out-encoding`, back
/// to back or in `--out-framing` — the bytes `rcc convert` writes for the same records (a
/// SequenceFile's random sync marker aside), as one file and as a dataset's part; a
/// result that does not fit the type is refused before anything is written.
#[test]
fn records_out_are_the_bytes_rcc_convert_writes() {
    let w = work_in("sql-tests", "records-out", 3000);
    let file = w.hits();
    let cases: [(&str, Option<&str>, &[&str]); 9] = [
        ("binary", None, &[]),
        ("csv", None, &[]),
        ("xml", None, &[]),
        ("binary", Some("paddle"), &["--compression", "gzip"]),
        ("binary", Some("mesos"), &[]),
        ("csv", Some("plasma-text"), &[]),
        ("binary", Some("plasma-var"), &["--compression", "snappy"]),
        ("binary", Some("v1"), &["--record-type", "Hit"]),
        (
            "binary",
            Some("seqfile"),
            &["--seqfile-compression", "block"],
        ),
    ];
    for (i, (encoding, framing, extra)) in cases.into_iter().enumerate() {
        let framing_args: Vec<&str> = framing.map_or(vec![], |f| vec!["--out-framing", f]);
        let reference = format!("ref-{i}");
        let mut convert =
            words("convert --schema web.jr --type web.Hit --from binary --in-framing paddle --to");
        convert.push(encoding);
        convert.extend_from_slice(&framing_args);
        convert.extend_from_slice(extra);
        convert.extend([file, reference.as_str()]);
        let out = rcc_in(&w.dir, &convert, b"");
        assert!(out.status.success(), "{convert:?}: {}", stderr(&out));
        let expected = std::fs::read(w.dir.join(&reference)).unwrap();
        let single = format!("out-{i}");
        let dataset = format!("set-{i}/");
        for target in [single.as_str(), dataset.as_str()] {
            let mut args = words("--in-framing paddle --partitions 1 --to records --out-encoding");
            args.push(encoding);
            args.extend_from_slice(&framing_args);
            args.extend_from_slice(extra);
            args.extend(["-o", target, "SELECT * FROM records", file]);
            let out = w.sql(&args);
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            let written = if target.ends_with('/') {
                let dir = w.dir.join(target);
                let names = listing(&dir);
                assert_eq!(names.len(), 2, "{names:?}");
                assert!(names[1].starts_with("part-00000-"), "{names:?}");
                std::fs::read(dir.join(&names[1])).unwrap()
            } else {
                std::fs::read(w.dir.join(target)).unwrap()
            };
            let (written, expected) = if framing == Some("seqfile") {
                (without_sync(&written), without_sync(&expected))
            } else {
                (written, expected.clone())
            };
            assert!(
                written == expected,
                "{encoding} {framing:?} {target}: {} bytes, rcc convert wrote {}",
                written.len(),
                expected.len()
            );
        }
    }

    // Columns matched by name, in any order; another type of the DDL.
    let out = w.sql(&[
        "--to",
        "records",
        "--out-type",
        "web.Place",
        "--out-encoding",
        "csv",
        "--in-framing",
        "paddle",
        "--partitions",
        "1",
        "SELECT origin['zip'] AS zip, origin['city'] AS city FROM records LIMIT 2",
        file,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected: String = (0..2)
        .map(|i| {
            let hadoop_record::Value::Record(origin) = w.field(i, 6) else {
                panic!("origin is a record")
            };
            let (hadoop_record::Value::String(city), hadoop_record::Value::Int(zip)) =
                (&origin[0], &origin[1])
            else {
                panic!("Place {{ city, zip }}")
            };
            format!("'{city},{zip}\n")
        })
        .collect();
    assert_eq!(stdout(&out), expected);

    // A result that does not fit: the column, its type and the field's, nothing written.
    for target in ["bad.bin", "bad-set/"] {
        let out = w.sql(&[
            "--to",
            "records",
            "--out-type",
            "web.Place",
            "--in-framing",
            "paddle",
            "-o",
            target,
            "SELECT url AS city, url AS zip FROM records",
            file,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let message = stderr(&out);
        assert!(
            message.contains("zip") && message.contains("int"),
            "{message}"
        );
        assert!(!w.dir.join(target).exists(), "{target} was made");
    }
    // Records options without --to records.
    let out = w.sql(&["--out-framing", "seqfile", "SELECT 1", file]);
    assert_stderr_contains(&out, "--out-framing applies to --to records");
}

/// Every file below `dir`, hidden ones too, with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.insert(path.clone(), Vec::new());
                dirs.push(path);
            } else {
                files.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// `rcc-sql` over the paddle framing in `w.dir`, with HOME set to `home`.
fn sql_with_home(w: &Work, home: &Path, args: &[&str]) -> std::process::Output {
    let mut command = w.paddle_sql_command();
    command.args(args).env("HOME", home);
    support::run(command, b"")
}

/// An output that is, or holds, an input (a FILE or the DDL), the working or home
/// directory, `/` or a store's root is refused before the query runs, --overwrite or not,
/// and nothing is touched.
#[test]
fn outputs_that_would_destroy_inputs_are_refused() {
    let w = work("guard");
    std::fs::create_dir_all(w.dir.join("data")).unwrap();
    std::fs::create_dir_all(w.dir.join("home")).unwrap();
    w.paddle("data/hits.paddle");
    let real = w.dir.canonicalize().unwrap();
    let home = real.join("home");
    let root = real.display();
    let input = real.join("data/hits.paddle");
    let input = input.display();
    let all = "SELECT * FROM records";
    let copy_to_data = "COPY (SELECT id FROM records) TO 'data/' STORED AS CSV";
    let copy_to_here = "COPY (SELECT id FROM records) TO './' STORED AS CSV";
    let home_out = format!("{}/", home.display());
    let parquet = ["--to", "parquet", "--overwrite"];
    let dataset = "name a new directory for it";
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--to", "csv", "-o", "data/hits.paddle", all, "data/hits.paddle"],
            format!("refusing to write {input}: it is the input {input}; name another file"),
        ),
        (
            vec!["--to", "csv", "-o", "web.jr", all, "data/"],
            format!("refusing to write {root}/web.jr: it is the input {root}/web.jr; name another file"),
        ),
        (
            [&parquet[..], &["-o", "data", all, "data/"]].concat(),
            format!("refusing to write the dataset {root}/data/: it is the input {root}/data; {dataset}"),
        ),
        (
            [&parquet[..], &["-o", "data/", all, "data/*.paddle"]].concat(),
            format!("refusing to write the dataset {root}/data/: it is the input {root}/data/*.paddle; {dataset}"),
        ),
        (
            [&parquet[..], &["-o", ".", all, "data/hits.paddle"]].concat(),
            format!("refusing to write the dataset {root}/: it is the working directory {root}; {dataset}"),
        ),
        (
            [&parquet[..], &["-o", &home_out, all, "data/hits.paddle"]].concat(),
            format!(
                "refusing to write the dataset {0}/: it is your home directory {0}; {dataset}",
                home.display()
            ),
        ),
        (
            [&parquet[..], &["-o", "/", all, "data/hits.paddle"]].concat(),
            format!("refusing to write the dataset /: it is the root directory; {dataset}"),
        ),
        (
            [&parquet[..], &["-o", "s3://bucket/", all, "data/hits.paddle"]].concat(),
            format!("refusing to write the dataset s3://bucket/: it is the root of its store; {dataset}"),
        ),
        (
            vec!["--to", "parquet", "-o", "s3://bucket", all, "data/hits.paddle"],
            "refusing to write s3://bucket: it is the root of its store; name another file".into(),
        ),
        (
            [&parquet[..], &["-o", "hdfs://nn:8020/", all, "data/hits.paddle"]].concat(),
            format!("refusing to write the dataset hdfs://nn:8020/: it is the root of its store; {dataset}"),
        ),
        (
            vec!["--overwrite", copy_to_data, "data/hits.paddle"],
            format!("refusing to write the dataset {root}/data/: it contains the input {input}; {dataset}"),
        ),
        (
            vec!["--overwrite", copy_to_here, "data/hits.paddle"],
            format!("refusing to write the dataset {root}/: it is the working directory {root}; {dataset}"),
        ),
    ];
    let before = snapshot(&w.dir);
    for (args, expected) in &cases {
        let out = sql_with_home(&w, &home, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&out), format!("error: {expected}\n"), "{args:?}");
        assert_eq!(snapshot(&w.dir), before, "{args:?}");
    }
}

/// `-o FILE` appears whole when the query has succeeded, with the mode of the file it
/// replaces; a query that fails halfway leaves the old file as it was, and no temporary.
#[test]
fn a_failed_query_leaves_the_old_file() {
    let w = work("old-file");
    w.paddle("hits.paddle");
    w.damaged_paddle("damaged.paddle");
    let old = w.dir.join("hits.csv");
    std::fs::write(&old, b"the old answer\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let before = snapshot(&w.dir);
    let out = w.sql_paddle(
        "--to csv -o hits.csv",
        &["SELECT * FROM records"],
        "damaged.paddle",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "damaged.paddle");
    assert_eq!(snapshot(&w.dir), before);

    let out = w.sql_paddle("--to csv -o hits.csv", &[BY_URL], "hits.paddle");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&old).unwrap(),
        by_url_csv(&w.by_url())
    );
    let names: Vec<PathBuf> = snapshot(&w.dir).into_keys().collect();
    let expected: Vec<PathBuf> = before.into_keys().collect();
    assert_eq!(names, expected, "no temporary is left");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&old).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
    }
}

/// `--max-open-files N`: with --partition-by, a task past N open part files finishes the
/// least recently written and starts the value's next file; only for datasets.
#[test]
fn max_open_files_rolls_part_files() {
    // Batches of 8192 rows: three of them, each with every value.
    let w = work_in("cli-sql", "max-open-files", 20_000);
    let file = w.hits();
    let query = "SELECT id, id % 3 AS g FROM records";
    let write = |dir: &str, extra: &[&str]| {
        let mut args = words("--in-framing paddle --partitions 1 --to csv --partition-by g");
        args.extend_from_slice(extra);
        args.extend(["-o", dir, query, file]);
        w.sql(&args)
    };
    // Part files per value, and the ids in them.
    let read = |dir: &str| {
        let mut files = Vec::new();
        let mut ids = Vec::new();
        for g in 0..3 {
            let group = w.dir.join(dir).join(format!("g={g}"));
            let names = listing(&group);
            for name in &names {
                let text = std::fs::read_to_string(group.join(name)).unwrap();
                let mut lines = text.lines();
                assert_eq!(lines.next(), Some("id"), "{name}");
                ids.extend(lines.map(|l| (g, l.parse::<i64>().unwrap())));
            }
            files.push(names);
        }
        ids.sort_unstable();
        (files, ids)
    };
    let all: Vec<(i64, i64)> = {
        let mut all: Vec<_> = (0..w.values.len() as i64).map(|i| (i % 3, i)).collect();
        all.sort_unstable();
        all
    };

    let out = write("default/", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (files, ids) = read("default");
    assert_eq!(ids, all);
    assert!(files.iter().all(|f| f.len() == 1), "{files:?}");

    let out = write("one/", &["--max-open-files", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_stderr_contains(&out, "were started again for a value whose file was finished to keep 1 open (--max-open-files): rows ordered by g would write one file per value");
    let (files, ids) = read("one");
    assert_eq!(ids, all);
    assert!(files.iter().all(|f| f.len() > 1), "{files:?}");
    for name in files.iter().flatten() {
        assert!(
            name.starts_with("part-00000-") && name.ends_with(".csv"),
            "{name}"
        );
    }
    assert!(files[0].iter().any(|n| n.ends_with("-c1.csv")), "{files:?}");

    // Only for datasets; at least 1.
    let out = w.sql_paddle("--to csv --max-open-files 4 -o x.csv", &[query], file);
    assert_eq!(
        stderr(&out),
        "error: --max-open-files is for a dataset: -o DIR/ or COPY … TO 'DIR/'\n"
    );
    assert!(!w.dir.join("x.csv").exists());
    let out = w.sql(&["--max-open-files", "0", "-o", "zero/", query, file]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `--partition-by` over 5,000 distinct values, in no order: every row is written, and the
/// query's peak memory (its resident set, from `wait4`) stays under 1 GiB, however many
/// part files the values take.
#[test]
fn partitioning_by_five_thousand_values_keeps_memory_bounded() {
    let w = work_in("cli-sql", "five-thousand", 10_000);
    let paddle = w.paddle("hits.paddle");
    let mut command = w.paddle_sql_command();
    command.args([
        "--partitions",
        "1",
        "--to",
        "parquet",
        "--partition-by",
        "k",
        "-o",
        "by-k/",
        "SELECT id, url, tags, counts, origin, id % 5000 AS k FROM records",
        paddle.to_str().unwrap(),
    ]);
    // Waited for by `wait4` below, which also gives its resource usage.
    #[allow(clippy::zombie_processes)]
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: `usage` is written by the kernel; the child is ours and not waited for
    // elsewhere.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32);
    let mut errors = String::new();
    std::io::Read::read_to_string(&mut child.stderr.unwrap(), &mut errors).unwrap();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{errors}"
    );
    let peak = usage.ru_maxrss as u64 * 1024;
    eprintln!("peak resident set: {} MiB", peak >> 20);
    assert!(peak < 1 << 30, "peak resident set {} MiB", peak >> 20);

    // Every row once, in the directory of its value, read back by DuckDB.
    let dirs = listing(&w.dir.join("by-k"));
    assert_eq!(dirs.iter().filter(|d| d.starts_with("k=")).count(), 5000);
    let Some(python) = fixture_harness::peers::python() else {
        return;
    };
    let counted = fixture_harness::peers::run_script(
        python,
        "import duckdb, sys\n\
         con = duckdb.connect()\n\
         con.execute('SET enable_progress_bar = false')\n\
         print(con.sql(f\"SELECT count(*), count(DISTINCT id), sum(id), \
         count(*) FILTER (WHERE k <> id % 5000) FROM read_parquet('{sys.argv[1]}/**/*.parquet', \
         hive_partitioning = true)\").fetchone())",
        &[w.dir.join("by-k").to_str().unwrap()],
    );
    assert_eq!(counted.trim(), "(10000, 10000, 49995000, 0)");
}

/// A DDL with what JSON spells with care: non-finite and negative-zero floats, longs past
/// 2^53, buffers, maps keyed by ints, longs, doubles and records, nested records and
/// vectors of them; and the records of it, as `rcc convert --from json` reads them.
const ODD_DDL: &str = "module x {
    class Place { ustring city; int zip; }
    class Odd {
        double d; float f; long l; buffer b; byte y; boolean ok; ustring s;
        map<int, double> by_int; map<long, buffer> by_long; map<double, ustring> by_double;
        map<Place, int> by_place; Place at; vector<Place> path; vector<vector<double>> grid;
    }
}
";
const ODD_JSON: &str = r#"{"d": "NaN", "f": "Infinity", "l": "9007199254740993", "b": "00ff10", "y": -128, "ok": true, "s": "é\"\n\u0001", "by_int": [[-2, "-Infinity"], [7, 0.1]], "by_long": [["-9223372036854775808", "cafe"], [5, ""]], "by_double": [[-0.0, "minus zero"], ["NaN", "nan"]], "by_place": [[{"city": "Oslo", "zip": 1}, 3]], "at": {"city": "Lima", "zip": -7}, "path": [{"city": "a", "zip": 1}, {"city": "b", "zip": 2}], "grid": [[1.0E10, -0.0], []]}
{"d": "-Infinity", "f": -0.0, "l": -9007199254740992, "b": "", "y": 127, "ok": false, "s": "", "by_int": [], "by_long": [], "by_double": [], "by_place": [], "at": {"city": "", "zip": 0}, "path": [], "grid": []}
{"d": 1.0E-300, "f": 3.4028235E38, "l": "-9007199254740993", "b": "ca", "y": 0, "ok": true, "s": "x", "by_int": [[2147483647, 4.9E-324]], "by_long": [["9223372036854775807", "00"]], "by_double": [["-Infinity", "low"]], "by_place": [], "at": {"city": "Paris", "zip": 2147483647}, "path": [{"city": "", "zip": -1}], "grid": [[], ["Infinity"]]}
"#;

/// Runs `rcc args` in `dir`, which must succeed.
fn rcc_ok(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = rcc_in(dir, args, b"");
    assert!(out.status.success(), "rcc {args:?}: {}", stderr(&out));
    out
}

/// `rcc convert` in `dir` with `ddl` (`--schema … --type …`): the JSON records of `json`
/// into binary ones in `bin`.
fn json_to_binary(dir: &Path, ddl: &[&str], json: &str, bin: &str) {
    let convert = [&["convert"][..], ddl, &["--from", "json", "--to", "binary"]].concat();
    rcc_ok(dir, &[&convert[..], &[json, bin]].concat());
}

/// `rcc sql --to json` writes what `rcc convert --to json` writes for the same records, to
/// standard output, a file and a dataset's part files, and `rcc convert --from json` reads
/// it back into the same records: NaN and infinities, longs past 2^53, buffers, maps with
/// any key type, nested records, vectors. Computed columns follow the same dialect; records
/// that contain themselves are refused before anything is written.
#[test]
fn json_output_is_rcc_convert_s_and_reads_back() {
    let w = work("json");
    let dir = w.dir.as_path();
    std::fs::write(dir.join("x.jr"), ODD_DDL).unwrap();
    std::fs::write(dir.join("odd.json"), ODD_JSON).unwrap();
    let odd = ["--schema", "x.jr", "--type", "x.Odd"];
    json_to_binary(dir, &odd, "odd.json", "odd.bin");
    w.paddle("hits.paddle");
    let hit = ["--schema", "web.jr", "--type", "web.Hit"];
    for (ddl, input, framing) in [
        (&odd, "odd.bin", None),
        (&hit, "hits.paddle", Some("paddle")),
    ] {
        let framing: Vec<&str> = framing.map_or(vec![], |f| vec!["--in-framing", f]);
        let mut convert = vec!["convert"];
        convert.extend_from_slice(ddl);
        convert.extend(["--from", "binary", "--to", "json"]);
        convert.extend_from_slice(&framing);
        convert.push(input);
        let expected = stdout(&rcc_ok(dir, &convert));
        assert!(expected.lines().count() > 2, "{expected}");

        // Standard output and a file: the same bytes, rows in the input's order.
        let mut sql = vec!["sql"];
        sql.extend_from_slice(ddl);
        sql.extend_from_slice(&framing);
        sql.extend(["--partitions", "2", "--to", "json"]);
        let all = "SELECT * FROM records";
        let out = rcc_ok(dir, &[&sql[..], &[all, input]].concat());
        assert_eq!(stdout(&out), expected, "{input}");
        rcc_ok(dir, &[&sql[..], &["-o", "out.json", all, input]].concat());
        assert_eq!(
            std::fs::read_to_string(dir.join("out.json")).unwrap(),
            expected
        );
        // Read back: the same records, byte for byte.
        let mut back = vec!["convert"];
        back.extend_from_slice(ddl);
        back.extend(["--from", "json", "--to", "binary", "out.json", "back.bin"]);
        rcc_ok(dir, &back);
        let mut binary = vec!["convert"];
        binary.extend_from_slice(ddl);
        binary.extend(["--from", "binary", "--to", "binary"]);
        binary.extend_from_slice(&framing);
        binary.extend([input, "plain.bin"]);
        rcc_ok(dir, &binary);
        assert!(
            std::fs::read(dir.join("back.bin")).unwrap()
                == std::fs::read(dir.join("plain.bin")).unwrap(),
            "{input}: read back, not the same records"
        );

        // A dataset: its part files together hold the same lines, each read back.
        let set = dir.join("set");
        let _ = std::fs::remove_dir_all(&set);
        rcc_ok(dir, &[&sql[..], &["-o", "set/", all, input]].concat());
        let mut lines = Vec::new();
        for name in listing(&set).iter().filter(|n| n.starts_with("part-")) {
            assert!(name.ends_with(".json"), "{name}");
            let part = set.join(name);
            let mut back = vec!["convert"];
            back.extend_from_slice(ddl);
            back.extend(["--from", "json", "--to", "binary", part.to_str().unwrap()]);
            rcc_ok(dir, &back);
            let text = std::fs::read_to_string(&part).unwrap();
            lines.extend(text.lines().map(str::to_owned));
        }
        let mut expected: Vec<&str> = expected.lines().collect();
        expected.sort_unstable();
        lines.sort_unstable();
        assert_eq!(lines, expected, "{input}: the dataset's lines");
    }

    // Computed columns: by their Arrow type, in the same dialect.
    let out = rcc_ok(
        dir,
        &[
            &["sql"][..],
            &odd,
            &[
                "--to",
                "json",
                "SELECT l + 1 AS l1, d * 2 AS d2, CAST(f AS DOUBLE) AS fd, \
                 cardinality(path) AS n, at['city'] AS city, 1e10 AS ten, b || X'01' AS b1 \
                 FROM records",
                "odd.bin",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        stdout(&out),
        "{\"l1\": \"9007199254740994\", \"d2\": \"NaN\", \"fd\": \"Infinity\", \"n\": 2, \
         \"city\": \"Lima\", \"ten\": 1.0E10, \"b1\": \"00ff1001\"}\n\
         {\"l1\": -9007199254740991, \"d2\": \"-Infinity\", \"fd\": -0.0, \"n\": 0, \
         \"city\": \"\", \"ten\": 1.0E10, \"b1\": \"01\"}\n\
         {\"l1\": -9007199254740992, \"d2\": 2.0E-300, \"fd\": 3.4028234663852886E38, \
         \"n\": 1, \"city\": \"Paris\", \"ten\": 1.0E10, \"b1\": \"ca01\"}\n"
    );

    // A record type that holds itself reaches SQL as bytes: refused, nothing written.
    for (name, text) in [
        (
            "tree.jr",
            "module t { class Tree { ustring label; vector<Tree> kids; } class F { Tree root; } }",
        ),
        (
            "tree.json",
            "{\"root\": {\"label\": \"a\", \"kids\": [{\"label\": \"b\", \"kids\": []}]}}\n",
        ),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let tree = ["--schema", "tree.jr", "--type", "t.F"];
    json_to_binary(dir, &tree, "tree.json", "tree.bin");
    for to in ["json", "csv"] {
        for output in [None, Some("tree.out"), Some("tree-set/")] {
            let mut args = vec!["sql"];
            args.extend_from_slice(&tree);
            args.extend(["--to", to]);
            args.extend(output.map_or(vec![], |o| vec!["-o", o]));
            args.extend(["SELECT * FROM records", "tree.bin"]);
            let out = rcc_in(dir, &args, b"");
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(
                stderr(&out)
                    .contains("root.kids[] holds t.Tree records, of a type that contains itself"),
                "{}",
                stderr(&out)
            );
            assert_eq!(stdout(&out), "", "{args:?}");
            assert!(!dir.join("tree.out").exists() && !dir.join("tree-set").exists());
        }
    }
}

/// `--to csv`: nested records are dotted columns, vectors and maps JSON cells in
/// `rcc convert`'s dialect, as DuckDB reads them; an empty result is its header row.
#[test]
fn csv_output_flattens_records_for_duckdb() {
    let w = work("csv-nested");
    let file = w.hits();
    let csv_of = |query: &str| ok(w.sql_paddle("--to csv", &[query], file));
    assert_eq!(
        csv_of("SELECT id, tags, counts, origin FROM records WHERE id IN (2, 5) ORDER BY id"),
        "id,tags,counts,origin.city,origin.zip\n\
         2,\"[\"\"t0\"\", \"\"t1\"\"]\",\"[[\"\"k0\"\", 20], [\"\"k1\"\", 21]]\",Lima,62\n\
         5,\"[\"\"t0\"\"]\",\"[[\"\"k0\"\", 50], [\"\"k1\"\", 51]]\",Lima,155\n"
    );
    assert_eq!(
        csv_of("SELECT * FROM records WHERE id < 0"),
        "id,bytes,ok,url,tags,counts,origin.city,origin.zip,score\n"
    );

    // Every record, in the input's order, as DuckDB reads the file.
    let csv = w.dir.join("hits.csv");
    let out = w.sql_paddle(
        "--partitions 2 --to csv -o",
        &[csv.to_str().unwrap(), "SELECT * FROM records"],
        file,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let Some(python) = python() else {
        return;
    };
    let script = r#"
import sys, json, duckdb
rows = duckdb.sql(f"""SELECT id, url, tags, counts, "origin.city", "origin.zip", score
    FROM read_csv('{sys.argv[1]}', header = true)""").fetchall()
for (id, url, tags, counts, city, zip, score) in rows:
    tags, counts = json.loads(tags), json.loads(counts)
    print("|".join(str(x) for x in [id, url, ",".join(tags), counts, city, zip, score]))
"#;
    let text = run_script(python, script, &[&csv]);
    let mut expected = String::new();
    for (i, value) in w.values.iter().enumerate() {
        let hadoop_record::Value::Record(fields) = value else {
            unreachable!()
        };
        let text = |v: &hadoop_record::Value| match v {
            hadoop_record::Value::String(s) => s.clone(),
            hadoop_record::Value::Int(n) => n.to_string(),
            hadoop_record::Value::Long(n) => n.to_string(),
            hadoop_record::Value::Double(d) => d.to_string(),
            other => panic!("{other:?}"),
        };
        let (
            hadoop_record::Value::Vector(tags),
            hadoop_record::Value::Map(counts),
            hadoop_record::Value::Record(origin),
        ) = (&fields[4], &fields[5], &fields[6])
        else {
            unreachable!()
        };
        let tags: Vec<String> = tags.iter().map(text).collect();
        let counts: Vec<String> = counts
            .iter()
            .map(|(k, v)| format!("['{}', {}]", text(k), text(v)))
            .collect();
        let score = match &fields[7] {
            hadoop_record::Value::Double(d) => format!("{d:?}"),
            _ => unreachable!(),
        };
        expected.push_str(&format!(
            "{i}|{}|{}|[{}]|{}|{}|{score}\n",
            text(&fields[3]),
            tags.join(","),
            counts.join(", "),
            text(&origin[0]),
            text(&origin[1]),
        ));
    }
    assert_eq!(text, expected);
}

/// Results the query does not order come in the input's order (files by name, each from
/// its start), over more than three batches in several files, one read in ranges and in
/// runs that a window of two threads goes through: `--to records` as a filter gives the
/// records it keeps as they were, `LIMIT` the first ones; framings that cannot be split
/// keep the order too.
#[test]
fn results_keep_the_input_order() {
    use hadoop_record::framing::FrameWrite;
    let dir = fresh_dir("cli-sql", "order");
    std::fs::write(
        dir.join("o.jr"),
        "module o { class Row { int id; ustring pad; } }",
    )
    .unwrap();
    let model = hadoop_record_compiler::load(
        &[dir.join("o.jr")],
        &hadoop_record_compiler::LoadOptions::default(),
    )
    .unwrap();
    let schema = model.to_schema().into_schema();
    let id = schema.find("o.Row").unwrap();
    // 30,000 rows of ~700 bytes: 21 MB, more than 8 MiB runs for two threads.
    let record = |i: i32| {
        let value = hadoop_record::Value::Record(vec![
            hadoop_record::Value::Int(i),
            hadoop_record::Value::String(format!("{i:0>700}")),
        ]);
        let mut w = hadoop_record::RecordWriter::new(Vec::new(), Format::Binary);
        w.write_value(&schema, id, &value).unwrap();
        w.into_inner().unwrap()
    };
    let files = [("1", 0..4_000), ("2", 4_000..26_000), ("3", 26_000..30_000)];
    for (name, ids) in files.clone() {
        let mut paddle = hadoop_record::framing::paddle::PaddleWriter::new(Vec::new());
        let mut plain = Vec::new();
        for i in ids {
            let bytes = record(i);
            paddle.write_payload(&bytes).unwrap();
            plain.extend_from_slice(&bytes);
        }
        paddle.finish().unwrap();
        std::fs::create_dir_all(dir.join("paddle")).unwrap();
        std::fs::create_dir_all(dir.join("plain")).unwrap();
        std::fs::write(
            dir.join(format!("paddle/{name}.paddle")),
            paddle.into_inner().unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join(format!("plain/{name}.bin")), plain).unwrap();
    }
    let sql = |args: &[&str]| {
        let mut all = vec!["--schema", "o.jr", "--type", "o.Row", "--partitions", "2"];
        all.extend_from_slice(args);
        let out = rcc_sql_in(&dir, &all, b"");
        assert!(out.status.success(), "{all:?}: {}", stderr(&out));
        out.stdout
    };
    // The big file is read in ranges.
    let plan = String::from_utf8(sql(&[
        "--in-framing",
        "paddle",
        "EXPLAIN SELECT * FROM records",
        "paddle/",
    ]))
    .unwrap();
    assert!(plan.contains("InputOrderExec: window=2"), "{plan}");
    assert!(plan.contains("2.paddle:0.."), "{plan}");

    let kept = |keep: fn(i32) -> bool| -> Vec<u8> {
        (0..30_000).filter(|&i| keep(i)).flat_map(record).collect()
    };
    for (framing, files) in [(Some("paddle"), "paddle/"), (None, "plain/")] {
        let framing: Vec<&str> = framing.map_or(vec![], |f| vec!["--in-framing", f]);
        for (query, keep) in [
            ("SELECT * FROM records", (|_| true) as fn(i32) -> bool),
            ("SELECT * FROM records WHERE id % 7 <> 3", |i| i % 7 != 3),
        ] {
            let mut args = framing.clone();
            args.extend(["--to", "records", "-o", "out.bin", query, files]);
            sql(&args);
            let written = std::fs::read(dir.join("out.bin")).unwrap();
            assert!(
                written == kept(keep),
                "{framing:?} {query}: not the input's records in its order"
            );
        }
        let mut args = framing.clone();
        args.extend(["--to", "csv", "SELECT id FROM records LIMIT 5", files]);
        assert_eq!(sql(&args), b"id\n0\n1\n2\n3\n4\n", "{framing:?}");
    }
}

/// Without --in-framing (auto, the default) the first file that is not empty gives the
/// table's framing from its first bytes: Paddle, v1, a SequenceFile, else records back to
/// back (binary; CSV split by lines). Every file of the table must then start as it does; a
/// framing named that a file's first bytes contradict is an error saying what it is; a
/// SequenceFile of another value class is a warning; and errors that have a remedy name it.
#[test]
fn framings_are_found_from_the_first_bytes() {
    let w = work("auto");
    let expected = by_url_csv(&w.by_url());
    let path = |name: &str| w.dir.join(name).to_string_lossy().into_owned();
    let paddle = w.paddle("hits.paddle").to_string_lossy().into_owned();
    let v1 = w.v1("hits.v1").to_string_lossy().into_owned();
    let frame = |args: &[&str]| {
        let out = rcc_in(&w.dir, args, b"");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    let seq = path("hits.seq");
    frame(&[
        "frame",
        "--to",
        "seqfile",
        "--record-type",
        "web.Hit",
        &paddle,
        &seq,
    ]);
    let mesos = path("hits.mesos");
    frame(&["frame", "--to", "mesos", &paddle, &mesos]);
    std::fs::write(path("hits.bin"), w.payloads(Format::Binary).concat()).unwrap();
    std::fs::write(path("hits.csv"), w.payloads(Format::Csv).concat()).unwrap();

    for file in [&paddle, &v1, &seq, &path("hits.bin")] {
        let out = w.sql(&["--to", "csv", "--partitions", "4", BY_URL, file]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{file}");
        assert_eq!(stdout(&out), expected, "{file}");
    }
    let out = w.sql(&[
        "--from",
        "csv",
        "--to",
        "csv",
        "--partitions",
        "4",
        BY_URL,
        "hits.csv",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    // A directory whose first file is empty: the next one decides.
    std::fs::create_dir_all(w.dir.join("parts")).unwrap();
    std::fs::write(w.dir.join("parts/part-00000"), b"").unwrap();
    std::fs::copy(&paddle, w.dir.join("parts/part-00001")).unwrap();
    let out = w.sql(&["--to", "csv", BY_URL, "parts/"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    // A table's files share one framing: one found in the first file, or one named.
    let canonical = |p: &str| std::fs::canonicalize(p).unwrap().display().to_string();
    std::fs::create_dir_all(w.dir.join("mixed")).unwrap();
    std::fs::copy(&paddle, w.dir.join("mixed/a")).unwrap();
    std::fs::copy(&seq, w.dir.join("mixed/b")).unwrap();
    let (a, b) = (canonical(&path("mixed/a")), canonical(&path("mixed/b")));
    let out = w.sql(&["--to", "csv", BY_URL, "mixed/"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {b}: this is a SequenceFile (SEQ, version 6), but the table's framing, found \
             in {a}, is paddle: the files of a table share one framing (query the others as a \
             table of their own)\n"
        )
    );
    let out = w.sql(&["--in-framing", "paddle", "--to", "csv", BY_URL, "mixed/"]);
    assert_eq!(
        stderr(&out),
        format!(
            "error: {b}: this is a SequenceFile (SEQ, version 6), not paddle: give --in-framing \
             seqfile (or leave --in-framing out)\n"
        )
    );
    // The first file contradicting a framing named: refused before the query runs.
    let out = w.sql(&["--in-framing", "v1", "SELECT count(*) FROM records", &seq]);
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: this is a SequenceFile (SEQ, version 6), not v1: give --in-framing \
             seqfile (or leave --in-framing out)\n",
            canonical(&seq)
        )
    );
    assert!(out.stdout.is_empty());

    // A SequenceFile of another value class: read, with a warning naming both.
    let other = path("other.seq");
    frame(&[
        "frame",
        "--to",
        "seqfile",
        "--record-type",
        "web.Other",
        &paddle,
        &other,
    ]);
    let out = w.sql(&["--to", "csv", BY_URL, &other]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {} is a SequenceFile of web.Other values, read as web.Hit: its records may \
             not be of that type (give --type web.Other if the DDL declares it)\n",
            canonical(&other)
        )
    );

    // What plain input that does not read looks like, and options auto cannot take.
    for (file, hint) in [
        ("hits.csv", "it looks like lines of text: give --from csv"),
        (
            "hits.mesos",
            "it looks like Mesos RecordIO (a length line, then that many bytes): give \
             --in-framing mesos",
        ),
    ] {
        let out = w.sql(&["SELECT sum(bytes) FROM records", file]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("error: {}: ", canonical(&path(file)))),
            "{file}: {err}"
        );
        assert!(err.ends_with(&format!(": {hint}\n")), "{file}: {err}");
    }
    let out = w.sql(&["--lenient", "SELECT 1", &mesos]);
    assert_eq!(
        stderr(&out),
        "error: --in-framing: leniency applies to mesos input, which is never found from the \
         first bytes: give --in-framing mesos\n"
    );
    let out = w.sql(&["--recover", "SELECT 1", "hits.bin"]);
    assert_eq!(
        stderr(&out),
        format!(
            "error: {} starts with none of the framings found from their first bytes (seqfile, \
             paddle, paddle-cpp, plasma-var, v1): recovery applies to paddle, paddle-cpp, \
             plasma-var and seqfile input, not none\n",
            canonical(&path("hits.bin"))
        )
    );
    // A damaged chunk: --recover is what to give.
    let mut damaged = std::fs::read(&paddle).unwrap();
    damaged[100] ^= 1;
    std::fs::write(path("damaged.paddle"), damaged).unwrap();
    let out = w.sql(&["SELECT count(*) FROM records", "damaged.paddle"]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_ends_with(&out, ": give --recover to skip the damage and read on\n");

    let help = rcc_in(&w.dir, &["sql", "--help"], b"");
    let help = String::from_utf8(help.stdout).unwrap().replace('\n', " ");
    assert!(
        help.contains(
            "--in-framing auto (the default) finds seqfile (SEQ and a version byte), paddle and \
             paddle-cpp"
        ),
        "{help}"
    );
    assert!(
        help.contains("The files' framing: auto (the default"),
        "{help}"
    );
}

/// `--to records --out-encoding csv|xml` prints floats as `rcc convert` does: by default
/// (and with `--float-text legacy`) the Hadoop fixtures' JDK 17 bytes, with `--float-text
/// shortest` a modern JDK's; every float and double fixture, read as one table in name
/// order. `--float-text` for other output, or of another value, is refused.
#[test]
fn records_out_print_floats_as_the_jdk_chosen() {
    use fixture_harness::{hadoop_java, hadoop_java_dir, Encoding};
    use hadoop_record::archive::FloatText;

    let dir = hadoop_java_dir();
    let mut modern = 0;
    for (ty, stem) in [("FloatRec", "float_"), ("DoubleRec", "double_")] {
        let ty = format!("oracle.prims.{ty}");
        let glob = format!("data/{stem}*.bin");
        for (encoding, name) in [(Encoding::Csv, "csv"), (Encoding::Xml, "xml")] {
            let mut cases: Vec<_> = hadoop_java()
                .cases_in(encoding)
                .filter(|c| c.name.starts_with(stem))
                .collect();
            cases.sort_by(|a, b| a.file.cmp(&b.file));
            assert!(cases.len() > 15, "{stem} {name}");
            modern += cases.iter().filter(|c| c.differs_on_modern_jdk()).count();
            let runs: [(&[&str], FloatText); 3] = [
                (&[], FloatText::Legacy),
                (&["--float-text", "legacy"], FloatText::Legacy),
                (&["--float-text", "shortest"], FloatText::Shortest),
            ];
            for (extra, float_text) in runs {
                let mut args = vec!["--schema", "prims.jr", "--type", &ty, "--partitions", "1"];
                args.extend(["--to", "records", "--out-encoding", name]);
                args.extend(extra);
                args.extend(["SELECT * FROM records", &glob]);
                let out = rcc_sql_in(&dir, &args, b"");
                assert!(out.status.success(), "{args:?}: {}", stderr(&out));
                let want: Vec<u8> = cases
                    .iter()
                    .flat_map(|c| c.bytes_with(float_text))
                    .collect();
                assert!(
                    out.stdout == want,
                    "{args:?}:\n{}",
                    String::from_utf8_lossy(&out.stdout)
                );
            }
        }
    }
    // The files whose float text differs between the JDKs were among them.
    assert!(modern >= 2, "{modern}");

    let base = ["--schema", "prims.jr", "--type", "oracle.prims.DoubleRec"];
    let refused: [(&[&str], &str); 3] = [
        (
            &["--to", "csv", "--float-text", "shortest"],
            "error: --float-text applies to --to records\n",
        ),
        (
            &["--to", "records", "--float-text", "shortest"],
            "error: --float-text applies to Hadoop CSV and XML output (--to records \
             --out-encoding csv or xml)\n",
        ),
        (
            &[
                "--to",
                "records",
                "--out-encoding",
                "xml",
                "--float-text",
                "jdk25",
            ],
            "error: invalid value 'jdk25' for '--float-text <JDK>'\n  [possible values: \
             legacy, shortest]\n",
        ),
    ];
    for (extra, want) in refused {
        let mut args = base.to_vec();
        args.extend(extra);
        args.extend(["SELECT * FROM records", "data/double_00.bin"]);
        let out = rcc_sql_in(&dir, &args, b"");
        assert!(stderr(&out).starts_with(want), "{args:?}: {}", stderr(&out));
        assert_ne!(out.status.code(), Some(0));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
