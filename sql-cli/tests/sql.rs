//! `rcc sql`: answers over framed and plain record files checked against what the records
//! themselves give (computed here from the schema-driven values) and against DuckDB over
//! the Parquet file `rcc sql --to parquet` writes (a pinned DuckDB and pyarrow in a virtual
//! environment under the target directory); SQL's binary-string functions on a `buffer`
//! column against DuckDB; every output format; the errors (bad SQL with the table's
//! columns, a bad record with file, record, byte and field path, bad paths and options).
//!
//! The Python peers need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

mod support;

use std::path::{Path, PathBuf};

use fixture_harness::peers::{python, run_script, target_dir};
use hadoop_record::framing::paddle::{PaddleReadOptions, PaddleReader};
use hadoop_record::Format;
use support::web::{by_url_csv, work_in, Work, BY_URL};
use support::{csv_query, rcc_in, rcc_sql_in, stderr, stdout};

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
    let out = rcc_in(
        &w.dir,
        &[
            "frame",
            "--from",
            "paddle",
            "--to",
            "seqfile",
            "--record-type",
            "web.Hit",
            "--seqfile-compression",
            "block",
            "--seqfile-codec",
            "deflate",
            paddle.to_str().unwrap(),
            seq.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = w.sql(&csv_query(
        "seqfile",
        Some("4"),
        BY_URL,
        &[seq.to_str().unwrap()],
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);

    // JSON lines: nested values as JSON.
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "json",
        "SELECT id, tags, counts, origin FROM records WHERE id IN (2, 5) ORDER BY id",
        paddle.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"id\":2,\"tags\":[\"t0\",\"t1\"],\"counts\":{\"k0\":20,\"k1\":21},\"origin\":{\"city\":\"Lima\",\"zip\":62}}\n\
         {\"id\":5,\"tags\":[\"t0\"],\"counts\":{\"k0\":50,\"k1\":51},\"origin\":{\"city\":\"Lima\",\"zip\":155}}\n"
    );

    // A table for people, by default.
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "SELECT origin['city'] AS city, count(*) AS n FROM records GROUP BY city ORDER BY city",
        paddle.to_str().unwrap(),
    ]);
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
    let dir = target_dir().join("cli-sql/walk-through");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sql");
    for f in ["web.jr", "hits.csv"] {
        std::fs::copy(example.join(f), dir.join(f)).unwrap();
    }
    let ddl = ["--schema", "web.jr", "--type", "web.Hit"];
    let run = |args: &[&str]| {
        let out = rcc_in(&dir, args, b"");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    run(&[
        &["convert"][..],
        &ddl,
        &[
            "--from",
            "csv",
            "--to",
            "binary",
            "--out-framing",
            "paddle",
            "hits.csv",
            "hits.paddle",
        ],
    ]
    .concat());
    let table = run(&[
        &["sql"][..],
        &ddl,
        &[
            "--in-framing",
            "paddle",
            "SELECT origin['country'] AS country, count(*) AS hits, sum(bytes) AS bytes \
         FROM records GROUP BY country ORDER BY bytes DESC",
            "hits.paddle",
        ],
    ]
    .concat());
    assert_eq!(
        table,
        "+---------+------+---------+\n| country | hits | bytes   |\n+---------+------+---------+\n\
         | FR      | 3    | 1053696 |\n| NO      | 2    | 7168    |\n| PE      | 1    | 312     |\n\
         +---------+------+---------+\n"
    );
    run(&[
        &["sql"][..],
        &ddl,
        &[
            "--in-framing",
            "paddle",
            "--to",
            "parquet",
            "-o",
            "ok.parquet",
            "SELECT * FROM records WHERE status = 200",
            "hits.paddle",
        ],
    ]
    .concat());
    assert!(std::fs::read(dir.join("ok.parquet"))
        .unwrap()
        .starts_with(b"PAR1"));
    run(&[
        &["sql"][..],
        &ddl,
        &[
            "--in-framing",
            "paddle",
            "--to",
            "parquet",
            "--partition-by",
            "status",
            "-o",
            "by-status/",
            "SELECT * FROM records",
            "hits.paddle",
        ],
    ]
    .concat());
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
    let paddle = w.paddle("hits.paddle");
    let paddle = paddle.to_str().unwrap();

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
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--recover",
        "--cluster",
        "df://127.0.0.1:9",
        "SELECT 1",
        paddle,
    ]);
    assert_eq!(
        stderr(&out),
        "error: --recover does not work with --cluster: the executors could not report what \
         they skipped (recover locally: rcc sql --recover without --cluster)\n"
    );
    let out = w.sql(&["--in-framing", "paddle", "SELECT count(*) FROM records"]);
    assert!(stderr(&out).contains("<FILE>..."), "{}", stderr(&out));
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
        let out = w.sql(&[
            "--in-framing",
            "paddle",
            "--to",
            "parquet",
            "-o",
            file.to_str().unwrap(),
            query,
            paddle.to_str().unwrap(),
        ]);
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
    let path = w.paddle("hits.paddle");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
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
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--recover",
        "--to",
        "csv",
        query,
        file,
    ]);
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
    let dir = target_dir().join("cli-sql").join("binary");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
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
    let frame = "Convert between record framings (Mesos, Paddle, Plasma, RecordIO v1)";
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

/// The names in a dataset directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// `-o DIR/`: one part file per partition of the result, committed with `_SUCCESS`, read
/// back by pyarrow's datasets and DuckDB as the query's answer; a non-empty target is
/// refused (and kept) without --overwrite; a failed job leaves nothing visible.
#[test]
fn datasets_are_written_part_by_part_and_committed() {
    let w = work("dataset");
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
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
    assert!(
        stderr(&out).contains("exists and is not empty: give --overwrite"),
        "{}",
        stderr(&out)
    );
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
    let mut bytes = std::fs::read(&paddle).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    let damaged = w.dir.join("damaged.paddle");
    std::fs::write(&damaged, &bytes).unwrap();
    let empty = w.dir.join("empty-before");
    std::fs::create_dir_all(&empty).unwrap();
    for target in [w.dir.join("new"), empty.clone()] {
        let out = w.sql(&[
            "--in-framing",
            "paddle",
            "--to",
            "parquet",
            "-o",
            &format!("{}/", target.display()),
            "SELECT * FROM records",
            damaged.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("damaged.paddle"), "{}", stderr(&out));
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
    assert!(
        stderr(&out).contains("give --to parquet, csv, json or records"),
        "{}",
        stderr(&out)
    );
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
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
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
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "parquet",
        "-o",
        single.to_str().unwrap(),
        select,
        file,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let zstd = Compression::ZSTD(Default::default());
    assert_eq!(groups(&single), [(rows as i64, vec![zstd; 3])]);

    let dir = w.dir.join("snappy");
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--partitions",
        "2",
        "--to",
        "parquet",
        "--parquet-compression",
        "snappy",
        "--row-group-size",
        "3",
        "-o",
        &format!("{}/", dir.display()),
        select,
        file,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut written = 0;
    for part in parts(&dir) {
        for (n, compressions) in groups(&part) {
            assert!((1..=3).contains(&n), "{part:?}: a row group of {n} rows");
            assert_eq!(compressions, [Compression::SNAPPY; 3]);
            written += n;
        }
    }
    assert_eq!(written, rows as i64);

    let copied = w.dir.join("copied");
    let copy = format!(
        "COPY ({select}) TO '{}/' STORED AS PARQUET OPTIONS (compression 'gzip(9)', max_row_group_size 4)",
        copied.display()
    );
    let out = w.sql(&["--in-framing", "paddle", "--to", "csv", &copy, file]);
    assert!(out.status.success(), "{}", stderr(&out));
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
        assert!(stderr(&out).contains(error), "{}", stderr(&out));
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
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
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

    let flag = w.dir.join("flag");
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--partitions",
        "2",
        "--to",
        "parquet",
        "--partition-by",
        "ok,k",
        "-o",
        &format!("{}/", flag.display()),
        select,
        file,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
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

    let copied = w.dir.join("copied");
    let copy = format!(
        "COPY ({select}) TO '{}/' STORED AS CSV PARTITIONED BY (ok, k)",
        copied.display()
    );
    let out = w.sql(&["--in-framing", "paddle", "--to", "csv", &copy, file]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("count\n{}\n", w.values.len()));
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
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
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
        let mut convert = vec![
            "convert",
            "--schema",
            "web.jr",
            "--type",
            "web.Hit",
            "--from",
            "binary",
            "--in-framing",
            "paddle",
            "--to",
            encoding,
        ];
        convert.extend_from_slice(&framing_args);
        convert.extend_from_slice(extra);
        convert.extend([file, reference.as_str()]);
        let out = rcc_in(&w.dir, &convert, b"");
        assert!(out.status.success(), "{convert:?}: {}", stderr(&out));
        let expected = std::fs::read(w.dir.join(&reference)).unwrap();
        let single = format!("out-{i}");
        let dataset = format!("set-{i}/");
        for target in [single.as_str(), dataset.as_str()] {
            let mut args = vec![
                "--in-framing",
                "paddle",
                "--partitions",
                "1",
                "--to",
                "records",
                "--out-encoding",
                encoding,
            ];
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
    assert!(
        stderr(&out).contains("--out-framing applies to --to records"),
        "{}",
        stderr(&out)
    );
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
    let mut command = std::process::Command::new(support::RCC_SQL);
    command
        .args([
            "--schema",
            "web.jr",
            "--type",
            "web.Hit",
            "--in-framing",
            "paddle",
        ])
        .args(args)
        .current_dir(&w.dir)
        .env("HOME", home);
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
    let paddle = w.paddle("hits.paddle");
    let mut bytes = std::fs::read(&paddle).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(w.dir.join("damaged.paddle"), &bytes).unwrap();
    let old = w.dir.join("hits.csv");
    std::fs::write(&old, b"the old answer\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let before = snapshot(&w.dir);
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "csv",
        "-o",
        "hits.csv",
        "SELECT * FROM records",
        "damaged.paddle",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("damaged.paddle"), "{}", stderr(&out));
    assert_eq!(snapshot(&w.dir), before);

    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "csv",
        "-o",
        "hits.csv",
        BY_URL,
        "hits.paddle",
    ]);
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
    let paddle = w.paddle("hits.paddle");
    let file = paddle.to_str().unwrap();
    let query = "SELECT id, id % 3 AS g FROM records";
    let write = |dir: &str, extra: &[&str]| {
        let mut args = vec![
            "--in-framing",
            "paddle",
            "--partitions",
            "1",
            "--to",
            "csv",
            "--partition-by",
            "g",
        ];
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
    assert!(
        stderr(&out).contains("were started again for a value whose file was finished to keep 1 open (--max-open-files): rows ordered by g would write one file per value"),
        "{}",
        stderr(&out)
    );
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
    let out = w.sql(&[
        "--in-framing",
        "paddle",
        "--to",
        "csv",
        "--max-open-files",
        "4",
        "-o",
        "x.csv",
        query,
        file,
    ]);
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
    let mut command = std::process::Command::new(support::RCC_SQL);
    command.current_dir(&w.dir).args([
        "--schema",
        "web.jr",
        "--type",
        "web.Hit",
        "--in-framing",
        "paddle",
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
