//! `rcc convert --to/--from parquet|arrow|avro`: every record type of the Hadoop Java
//! fixtures and of java_shapes, in every encoding and framing, into Parquet, Arrow IPC and
//! Avro container files and back, byte for byte; Avro in every codec, and damaged; the Parquet files read by independent readers (pyarrow and DuckDB, pinned,
//! installed into a virtual environment under the target directory) as the same records;
//! Parquet written by those tools read back; errors.
//!
//! The Python peers need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

mod support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fixture_harness::peers::{python, target_dir};
use fixture_harness::{hadoop_java, hadoop_java_dir, java_shapes, java_shapes_dir, Case};
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::{Format, RecordReader, Value};
use serde_json::json;
use support::{assert_stderr_contains, rcc_in, stderr};

/// The framings records are put in, as `--in-framing`/`--out-framing` name them.
const FRAMINGS: [&str; 6] = [
    "mesos",
    "paddle",
    "paddle-cpp",
    "plasma-var",
    "v1",
    "plasma-text",
];

/// A scratch directory under the target directory, new for each test.
fn scratch(name: &str) -> PathBuf {
    let dir = target_dir().join("cli-columnar").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `rcc convert` in `dir` with `args` after the schema and type; panics unless it succeeds.
fn convert(dir: &Path, schema: &str, ty: &str, args: &[&str]) -> Vec<u8> {
    let out = convert_output(dir, schema, ty, args, b"");
    assert!(
        out.status.success(),
        "rcc convert {args:?} failed: {}",
        stderr(&out)
    );
    out.stdout
}

fn convert_output(dir: &Path, schema: &str, ty: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut all = vec!["convert", "--schema", schema, "--type", ty];
    all.extend_from_slice(args);
    rcc_in(dir, &all, stdin)
}

/// The records of each record type of a fixture set, back to back in Hadoop's binary
/// encoding: the binary cases of the type, concatenated.
fn streams(cases: &[Case], bytes: impl Fn(&Case) -> Vec<u8>) -> BTreeMap<String, Vec<u8>> {
    let mut out: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for case in cases {
        if case.encoding == fixture_harness::Encoding::Binary {
            out.entry(case.record_type.clone())
                .or_default()
                .extend(bytes(case));
        }
    }
    out
}

/// Every fixture type, as a binary stream, to Parquet, Arrow and Avro from every encoding and
/// framing and back to every encoding and framing: the bytes `rcc convert` gives between
/// record encodings.
fn round_trips(dir: &Path, schema: &str, work: &Path, streams: &BTreeMap<String, Vec<u8>>) {
    let w = |name: &str| work.join(name).display().to_string();
    for (ty, stream) in streams {
        fs::write(w("in.bin"), stream).unwrap();
        for from in ["binary", "csv", "xml", "jute"] {
            let input = w(&format!(
                "in.{}",
                if from == "binary" { "bin" } else { from }
            ));
            if from != "binary" {
                let bytes = convert(
                    dir,
                    schema,
                    ty,
                    &["--from", "binary", "--to", from, &w("in.bin")],
                );
                fs::write(&input, bytes).unwrap();
            }
            for columnar in ["parquet", "arrow", "avro"] {
                let file = w(&format!("t.{columnar}"));
                convert(
                    dir,
                    schema,
                    ty,
                    &["--from", from, "--to", columnar, &input, &file],
                );
                let back = convert(dir, schema, ty, &["--from", columnar, "--to", from, &file]);
                // What rcc writes for what it reads: the input itself, except that jute
                // reads a supplementary character (written as two surrogates, as ZooKeeper
                // writes it) as two U+FFFD, as ZooKeeper does.
                let want = convert(dir, schema, ty, &["--from", from, "--to", from, &input]);
                assert!(back == want, "{ty}: {from} → {columnar} → {from}");
                if from != "jute" {
                    assert!(
                        back == fs::read(&input).unwrap(),
                        "{ty}: {from} → {columnar} → {from}"
                    );
                }
                if from == "binary" {
                    // The other encodings, as rcc writes them from binary.
                    for to in ["csv", "xml", "jute", "json"] {
                        let got =
                            convert(dir, schema, ty, &["--from", columnar, "--to", to, &file]);
                        let want =
                            convert(dir, schema, ty, &["--from", "binary", "--to", to, &input]);
                        assert!(got == want, "{ty}: binary → {columnar} → {to}");
                    }
                }
            }
        }
        for framing in FRAMINGS {
            // plasma-text carries CSV lines.
            let format = if framing == "plasma-text" {
                "csv"
            } else {
                "binary"
            };
            let framed = w("in.framed");
            let mut args = vec!["--from", "binary", "--to", format, "--out-framing", framing];
            if framing == "v1" {
                args.extend(["--record-type", "R"]);
            }
            let in_bin = w("in.bin");
            args.push(&in_bin);
            fs::write(&framed, convert(dir, schema, ty, &args)).unwrap();
            let file = w("t.parquet");
            convert(
                dir,
                schema,
                ty,
                &[
                    "--from",
                    format,
                    "--in-framing",
                    framing,
                    "--to",
                    "parquet",
                    &framed,
                    &file,
                ],
            );
            let back = convert(
                dir,
                schema,
                ty,
                &["--from", "parquet", "--to", "binary", &file],
            );
            assert!(&back == stream, "{ty}: {framing} → parquet → binary");
            args.truncate(args.len() - 1);
            args[1] = "parquet";
            args.push(&file);
            let reframed = convert(dir, schema, ty, &args);
            assert!(
                reframed == fs::read(&framed).unwrap(),
                "{ty}: parquet → {framing}"
            );
        }
    }
}

#[test]
fn hadoop_java_fixtures_round_trip_through_parquet_arrow_and_avro_in_every_encoding_and_framing() {
    let work = scratch("hadoop-java");
    let dir = hadoop_java_dir();
    let streams = streams(&hadoop_java().cases, Case::bytes);
    for ty in streams.keys() {
        let schema = schema_file(ty);
        let one: BTreeMap<String, Vec<u8>> = [(ty.clone(), streams[ty].clone())].into();
        round_trips(&dir, schema, &work, &one);
    }
}

/// The fixture DDL file declaring `ty`.
fn schema_file(ty: &str) -> &'static str {
    if ty.starts_with("oracle.prims") {
        "prims.jr"
    } else if ty.starts_with("oracle.common") {
        "common.jr"
    } else {
        "composite.jr"
    }
}

#[test]
fn java_shapes_round_trip_through_parquet_arrow_and_avro_in_every_encoding_and_framing() {
    let work = scratch("java-shapes");
    let shapes = java_shapes();
    let streams = streams(&shapes.cases, |c| shapes.bytes(c));
    round_trips(&java_shapes_dir(), "shapes.jr", &work, &streams);
}

/// Reads Parquet files with pyarrow and with DuckDB and prints, per file, the rows in a
/// canonical JSON form: floats as their IEEE bits (NaN as "nan"), buffers as hex, maps as
/// [key, value] pairs, records as objects.
const READ_PARQUET: &str = r#"
import json, struct, sys
import pyarrow as pa, pyarrow.parquet as pq, duckdb

def canon(v, t):
    if v is None:
        return None
    if pa.types.is_float32(t) or pa.types.is_float64(t):
        if v != v:
            return "nan"
        return struct.pack(">f" if pa.types.is_float32(t) else ">d", v).hex()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return v.hex()
    if pa.types.is_map(t):
        return [[canon(k, t.key_type), canon(x, t.item_type)] for k, x in v]
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return [canon(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {t.field(i).name: canon(v[t.field(i).name], t.field(i).type) for i in range(t.num_fields)}
    return v

def rows(table):
    columns = [(f.name, f.type) for f in table.schema]
    return [{n: canon(r[n], t) for n, t in columns} for r in table.to_pylist()]

con = duckdb.connect()
con.execute("SET threads = 1")
out = {}
for path in sys.argv[2:]:
    out[path] = {
        "pyarrow": rows(pq.read_table(path)),
        "duckdb": rows(con.execute("SELECT * FROM read_parquet(?)", [path]).fetch_arrow_table()),
    }
json.dump(out, open(sys.argv[1], "w"))
"#;

/// A value in the form [`READ_PARQUET`] prints.
fn canon(schema: &Schema, ty: &FieldType, v: &Value) -> serde_json::Value {
    match (ty, v) {
        (_, Value::Null) => serde_json::Value::Null,
        (_, Value::Byte(b)) => json!(b),
        (_, Value::Bool(b)) => json!(b),
        (_, Value::Int(i)) => json!(i),
        (_, Value::Long(l)) => json!(l),
        (_, Value::Float(f)) if f.is_nan() => json!("nan"),
        (_, Value::Float(f)) => json!(hex(&f.to_be_bytes())),
        (_, Value::Double(d)) if d.is_nan() => json!("nan"),
        (_, Value::Double(d)) => json!(hex(&d.to_be_bytes())),
        (_, Value::String(s)) => json!(s),
        (_, Value::Buffer(b)) => json!(hex(b)),
        (FieldType::Vector(t), Value::Vector(items)) => {
            items.iter().map(|i| canon(schema, t, i)).collect()
        }
        (FieldType::Map(k, t), Value::Map(entries)) => {
            let mut entries = entries.clone();
            // The order the runtime writes (and so the columns hold).
            entries.sort_by(|a, b| hadoop_record::value::key_cmp(&a.0, &b.0));
            entries
                .iter()
                .map(|(key, v)| json!([canon(schema, k, key), canon(schema, t, v)]))
                .collect()
        }
        (FieldType::Record(id), Value::Record(fields)) => record(schema, *id, fields),
        (ty, v) => panic!("{ty:?} holds {v:?}"),
    }
}

fn record(
    schema: &Schema,
    id: hadoop_record::schema::RecordId,
    fields: &[Value],
) -> serde_json::Value {
    let defs = &schema.record(id).unwrap().fields;
    serde_json::Value::Object(
        defs.iter()
            .zip(fields)
            .map(|(d, v)| (d.name.clone(), canon(schema, &d.ty, v)))
            .collect(),
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn pyarrow_and_duckdb_read_the_parquet_files_as_the_records() {
    let Some(python) = python() else { return };
    let work = scratch("peers");
    let mut expected = BTreeMap::new();
    let mut files = Vec::new();
    let mut add = |dir: &Path, schema_file: &str, schema: &Schema, ty: &str, stream: &[u8]| {
        let id = schema.find(ty).unwrap();
        let mut reader = RecordReader::new(stream, Format::Binary);
        let rows: Vec<serde_json::Value> =
            std::iter::from_fn(|| reader.read_value(schema, id).unwrap())
                .map(|v| match v {
                    Value::Record(fields) => record(schema, id, &fields),
                    v => panic!("{v:?}"),
                })
                .collect();
        let input = work.join(format!("{ty}.bin"));
        let file = work.join(format!("{ty}.parquet"));
        fs::write(&input, stream).unwrap();
        let (i, f) = (input.display().to_string(), file.display().to_string());
        convert(
            dir,
            schema_file,
            ty,
            &["--from", "binary", "--to", "parquet", &i, &f],
        );
        expected.insert(f.clone(), rows);
        files.push(f);
    };
    for (ty, stream) in streams(&hadoop_java().cases, Case::bytes) {
        add(
            &hadoop_java_dir(),
            schema_file(&ty),
            fixture_harness::schema(),
            &ty,
            &stream,
        );
    }
    let shapes = java_shapes();
    for (ty, stream) in streams(&shapes.cases, |c| shapes.bytes(c)) {
        add(
            &java_shapes_dir(),
            "shapes.jr",
            fixture_harness::shapes_schema(),
            &ty,
            &stream,
        );
    }
    let report = work.join("read.json");
    let o = Command::new(python)
        .arg("-c")
        .arg(READ_PARQUET)
        .arg(&report)
        .args(&files)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read: BTreeMap<String, BTreeMap<String, Vec<serde_json::Value>>> =
        serde_json::from_slice(&fs::read(&report).unwrap()).unwrap();
    for file in &files {
        for reader in ["pyarrow", "duckdb"] {
            let got = &read[file][reader];
            let want = &expected[file];
            assert_eq!(got.len(), want.len(), "{reader}: {file}");
            for (n, (g, w)) in got.iter().zip(want).enumerate() {
                assert_eq!(g, w, "{reader}: {file}, row {n}");
            }
        }
    }
}

/// `t.Rec { id: int, name: ustring, tags: vector<ustring>, m: map<ustring, long>, p: t.P }`
/// and `t.P { x: double }`.
const REC_JR: &str = "module t {\n  class P { double x; }\n  class Rec { int id; ustring name; vector<ustring> tags; map<ustring, long> m; t.P p; }\n}\n";

fn run_python(python: &Path, dir: &Path, script: &str) {
    let o = Command::new(python)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn parquet_written_by_pyarrow_and_duckdb_reads_back_as_records_or_fails_clearly() {
    let Some(python) = python() else { return };
    let work = scratch("foreign");
    fs::write(work.join("rec.jr"), REC_JR).unwrap();
    run_python(
        python,
        &work,
        r#"
import pyarrow as pa, pyarrow.parquet as pq, duckdb
p = pa.struct([("x", pa.float64())])
schema = pa.schema([
    ("id", pa.int32()), ("name", pa.large_string()), ("tags", pa.list_(pa.string())),
    ("m", pa.map_(pa.string(), pa.int64())), ("p", p)])
rows = {"id": [1, 2], "name": ["a", "b,c"], "tags": [["x", "y"], []],
        "m": [[("k", 5), ("l", -1)], []], "p": [{"x": 0.5}, {"x": -2.0}]}
pq.write_table(pa.table(rows, schema=schema), "pyarrow.parquet")
nulls = dict(rows, name=["a", None])
pq.write_table(pa.table(nulls, schema=schema), "null.parquet")
wrong = pa.schema([("id", pa.int64())] + [schema.field(i) for i in range(1, 5)])
pq.write_table(pa.table(rows, schema=wrong), "wrong.parquet")
unsorted = dict(rows, m=[[("l", 5), ("k", -1)], []])
pq.write_table(pa.table(unsorted, schema=schema), "unsorted.parquet")
duckdb.sql("""COPY (SELECT 1::INTEGER AS id, 'a' AS name, ['x', 'y'] AS tags,
    MAP {'k': 5::BIGINT, 'l': -1::BIGINT} AS m, {'x': 0.5::DOUBLE} AS p
    UNION ALL SELECT 2, 'b,c', []::VARCHAR[], MAP {}::MAP(VARCHAR, BIGINT), {'x': -2.0::DOUBLE})
    TO 'duckdb.parquet' (FORMAT parquet)""")
"#,
    );
    let want = "1,'a,v{'x,'y},m{'k,5,'l,-1},s{0.5}\n2,'b%2Cc,v{},m{},s{-2.0}\n";
    for file in ["pyarrow.parquet", "duckdb.parquet"] {
        let got = convert(
            &work,
            "rec.jr",
            "t.Rec",
            &["--from", "parquet", "--to", "csv", file],
        );
        assert_eq!(String::from_utf8(got).unwrap(), want, "{file}");
    }
    let fails = |file: &str, want: &str| {
        let o = convert_output(
            &work,
            "rec.jr",
            "t.Rec",
            &["--from", "parquet", "--to", "csv", file],
            b"",
        );
        assert!(!o.status.success(), "{file}");
        assert!(stderr(&o).contains(want), "{file}: {}", stderr(&o));
    };
    fails(
        "null.parquet",
        "cannot write as csv: record 1, in Rec.name: a null, which Hadoop's ustring cannot hold",
    );
    fails(
        "wrong.parquet",
        "in Rec.id: Hadoop `int` is Arrow Int32 (or an equivalent type), but the column is Int64",
    );
    fails(
        "unsorted.parquet",
        "record 0, in Rec.m[1]: its key sorts before the one before it",
    );
    fails("rec.jr", "rec.jr is not a readable Parquet file");
}

#[test]
fn bad_records_stop_the_conversion_with_the_rows_before_them_in_a_valid_file() {
    let work = scratch("bad");
    fs::write(work.join("rec.jr"), REC_JR).unwrap();
    let csv = b"1,'a,v{},m{},s{0.5}\n2,'b,v{'x},m{'k,1},s{1.0}\n3,'c,v{},m{'k,x},s{0.0}\n";
    // `rcc convert` of t.Rec with a command line written as one string, split on spaces.
    let run = |line: &str, stdin: &[u8]| {
        let args: Vec<&str> = line.split(' ').collect();
        convert_output(&work, "rec.jr", "t.Rec", &args, stdin)
    };
    // On standard output, the rows before the bad record, in a valid file.
    let o = run("--from csv --to parquet --batch-size 1", csv);
    assert!(!o.status.success());
    assert_stderr_contains(
        &o,
        "record 2, line 3:15, in Rec.m[0]: expected a long, found `x`",
    );
    let back = run("--from parquet --to csv", &o.stdout);
    assert_eq!(
        back.stdout,
        &csv[..csv.iter().position(|&b| b == b'3').unwrap()]
    );
    // Into a file (Parquet or Arrow): the old file as it was, and no temporary.
    for to in ["parquet", "arrow"] {
        fs::write(work.join("out.bin"), b"the old file").unwrap();
        let o = run(
            &format!("--from csv --to {to} --batch-size 1 - out.bin"),
            csv,
        );
        assert!(!o.status.success(), "{to}");
        assert_eq!(
            fs::read(work.join("out.bin")).unwrap(),
            b"the old file",
            "{to}"
        );
        let mut names: Vec<String> = fs::read_dir(&work)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["out.bin", "rec.jr"], "{to}");
    }
    // Options that do not apply.
    for (line, want) in [
        (
            "--from csv --to parquet --out-framing paddle",
            "--out-framing does not apply",
        ),
        (
            "--from csv --to binary --batch-size 5",
            "--batch-size applies to --to or --from parquet, arrow or avro",
        ),
        ("--from parquet --to arrow", "both columnar"),
        (
            "--from csv --to parquet --parquet-compression brotli",
            "unknown compression `brotli`",
        ),
        (
            "--from parquet --in-framing paddle --to csv",
            "--in-framing does not apply",
        ),
    ] {
        let o = run(line, b"");
        assert!(!o.status.success(), "{line}");
        assert!(stderr(&o).contains(want), "{line}: {}", stderr(&o));
    }
    // Standard input and output, every compression.
    for compression in ["none", "snappy", "gzip", "lz4", "zstd"] {
        let good = &csv[..csv.iter().position(|&b| b == b'3').unwrap()];
        let o = run(
            &format!("--from csv --to parquet --parquet-compression {compression}"),
            good,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let back = run("--from parquet --to csv", &o.stdout);
        assert_eq!(back.stdout, good, "{compression}");
    }
}

#[test]
fn jute_nulls_need_nullable_and_round_trip_with_it() {
    let work = scratch("nullable");
    fs::write(
        work.join("z.jr"),
        "module z { class N { ustring s; vector<int> v; buffer b; } }\n",
    )
    .unwrap();
    let null = (-1i32).to_be_bytes();
    let mut jute = Vec::new();
    jute.extend(null); // s
    jute.extend(null); // v
    jute.extend([0, 0, 0, 1, b'A']); // b
    jute.extend([0, 0, 0, 1, b'x']);
    jute.extend([0, 0, 0, 1, 0, 0, 0, 7]);
    jute.extend(null);
    fs::write(work.join("in.jute"), &jute).unwrap();
    for columnar in ["parquet", "arrow"] {
        let o = convert_output(
            &work,
            "z.jr",
            "z.N",
            &["--from", "jute", "--to", columnar, "in.jute", "out"],
            b"",
        );
        assert!(!o.status.success());
        assert_stderr_contains(&o, "record 0, byte 0, in N.s: a null ustring");
        convert(
            &work,
            "z.jr",
            "z.N",
            &[
                "--from",
                "jute",
                "--nullable",
                "--to",
                columnar,
                "in.jute",
                "out",
            ],
        );
        let back = convert(
            &work,
            "z.jr",
            "z.N",
            &["--from", columnar, "--nullable", "--to", "jute", "out"],
        );
        assert_eq!(back, jute, "{columnar}");
        let csv = convert(
            &work,
            "z.jr",
            "z.N",
            &["--from", columnar, "--nullable", "--to", "csv", "out"],
        );
        assert_eq!(String::from_utf8(csv).unwrap(), ",,#41\n'x,v{7},\n");
        let o = convert_output(
            &work,
            "z.jr",
            "z.N",
            &["--from", columnar, "--nullable", "--to", "binary", "out"],
            b"",
        );
        assert_stderr_contains(
            &o,
            "record 0, in N.s: a null ustring: this encoding has no null",
        );
    }
}

/// arrow-rs's IPC reader panics on this file (an unknown type in its schema): a damaged
/// file, reported as such, not a crash.
#[test]
fn a_file_the_arrow_reader_panics_on_is_reported_as_damaged() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/arrow/unknown-type.arrow"
    );
    let o = convert_output(
        &hadoop_java_dir(),
        "composite.jr",
        "oracle.composite.Outer",
        &["--from", "arrow", "--to", "csv", file],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: the file is damaged (its reader gave up: not implemented: Type NONE not supported)\n"
    );
}

/// A footer whose record-batch block claims more bytes than the file holds (arrow-ipc would
/// allocate them before reading, and abort): refused with what is wrong, not a crash.
#[test]
fn an_arrow_block_past_the_end_of_the_file_is_refused() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/arrow/unknown-type.arrow"
    );
    let mut bytes = std::fs::read(file).unwrap();
    // The footer's one block (see tests/fixtures/arrow/README.md): offset 8, 8 + 0 bytes.
    let block: Vec<u8> = [&8i64.to_le_bytes()[..], &8i32.to_le_bytes(), &[0; 12]].concat();
    let at = bytes
        .windows(24)
        .position(|w| w == block)
        .expect("the block");
    bytes[at + 16..at + 24].copy_from_slice(&(1i64 << 60).to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("huge-block.arrow");
    std::fs::write(&damaged, bytes).unwrap();
    let o = convert_output(
        &hadoop_java_dir(),
        "composite.jr",
        "oracle.composite.Outer",
        &["--from", "arrow", "--to", "csv", damaged.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {} is not a readable Arrow IPC file: Parser error: a block at offset 8 \
             claims 8 + 1152921504606846976 bytes, but the blocks of this 2240-byte file end \
             at byte 1166\n",
            damaged.display()
        )
    );
}

/// `--to avro` in every codec Avro's tools write gives a file `--from avro` reads back byte
/// for byte, under the schema `rcc -l avro` writes; `--avro-codec` is checked; a damaged
/// file is an error naming where, after the records before the damage.
#[test]
fn avro_files_in_every_codec_and_damaged_ones() {
    let work = scratch("avro");
    let dir = hadoop_java_dir();
    let (schema, ty) = ("composite.jr", "oracle.composite.Containers");
    let stream = &streams(&hadoop_java().cases, Case::bytes)[ty];
    let input = work.join("in.bin");
    fs::write(&input, stream).unwrap();
    let input = input.to_str().unwrap();
    let avsc = {
        let to = work.join("avsc");
        let out = rcc_in(
            &dir,
            &["-l", "avro", "-d", to.to_str().unwrap(), schema],
            b"",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        fs::read_to_string(to.join(format!("{ty}.avsc"))).unwrap()
    };
    for codec in ["null", "deflate", "snappy", "zstandard", "bzip2", "xz"] {
        let file = work.join(format!("{codec}.avro"));
        let file = file.to_str().unwrap();
        let args = [
            "--from",
            "binary",
            "--to",
            "avro",
            "--avro-codec",
            codec,
            input,
            file,
        ];
        convert(&dir, schema, ty, &args);
        let bytes = fs::read(file).unwrap();
        // The header names the codec and holds rcc -l avro's schema, as it is.
        let header = String::from_utf8_lossy(&bytes[..bytes.len().min(avsc.len() + 200)]);
        assert!(header.contains(codec), "{codec}");
        assert!(
            header.contains(avsc.trim_end()),
            "{codec}: the schema is not rcc -l avro's"
        );
        let back = convert(
            &dir,
            schema,
            ty,
            &["--from", "avro", "--to", "binary", file],
        );
        assert!(&back == stream, "{codec}: binary → avro → binary");
    }
    for (to, codec, error) in [
        ("avro", "lz4", "--avro-codec: unknown Avro codec `lz4`"),
        ("csv", "null", "--avro-codec applies to"),
    ] {
        let args = ["--to", to, "--avro-codec", codec, input];
        let refused = convert_output(&dir, schema, ty, &args, b"");
        assert_stderr_contains(&refused, error);
    }

    // Cut short inside its last block: the records of the blocks before, then the error.
    let whole = fs::read(work.join("null.avro")).unwrap();
    let cut = work.join("cut.avro");
    fs::write(&cut, &whole[..whole.len() - 20]).unwrap();
    let out = convert_output(
        &dir,
        schema,
        ty,
        &["--from", "avro", "--to", "binary", cut.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "cut.avro");
    assert_stderr_contains(&out, "block");
    assert!(
        stream.starts_with(&out.stdout),
        "the records before the damage"
    );
}

/// `--to avro` from Hadoop binary and `--from avro --to binary` take the direct way (value
/// by value, no Arrow) when they can: the headers and records are those of the columnar way
/// (`--from json`, `--to json`), plain and framed, across the reader's 1 MiB chunks (a
/// record of 3 MB among them); a record cut short or damaged is the error the columnar way
/// gives for it (`--to parquet`), at the same record and byte.
#[test]
fn avro_the_direct_way_gives_the_columnar_ways_files_and_errors() {
    let work = scratch("avro-direct");
    let w = |name: &str| work.join(name).display().to_string();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sql/web.jr"),
        work.join("web.jr"),
    )
    .unwrap();
    let run = |args: &[&str]| convert(&work, "web.jr", "web.Hit", args);
    let fails = |args: &[&str]| {
        let out = convert_output(&work, "web.jr", "web.Hit", args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        stderr(&out)
    };
    let mut json = String::new();
    for n in 0..30_000u64 {
        let url = if n == 12_345 {
            "u".repeat(3 << 20)
        } else {
            format!("https://example.com/{}", n * 7919 % 1000)
        };
        let status = [200, 404, -1][n as usize % 3];
        let hit = json!({"time": n as i64 * 1_000_003 - 7, "url": url, "status": status,
            "bytes": n * n, "tags": (0..n % 4).map(|k| format!("t{k}é")).collect::<Vec<_>>(),
            "origin": {"city": "Köln", "country": "DE"}});
        json.push_str(&hit.to_string());
        json.push('\n');
    }
    fs::write(w("in.json"), json).unwrap();
    run(&[
        "--from",
        "json",
        "--to",
        "binary",
        &w("in.json"),
        &w("in.bin"),
    ]);
    let binary = fs::read(w("in.bin")).unwrap();
    assert!(binary.len() > 4 << 20);
    for codec in ["null", "deflate"] {
        let direct = w(&format!("direct.{codec}.avro"));
        let columnar = w(&format!("columnar.{codec}.avro"));
        run(&["--to", "avro", "--avro-codec", codec, &w("in.bin"), &direct]);
        run(&[
            "--from",
            "json",
            "--to",
            "avro",
            "--avro-codec",
            codec,
            &w("in.json"),
            &columnar,
        ]);
        // The same header but for the sync marker (blocks may end at other records: the
        // columnar way ends one with each batch).
        let (direct_bytes, columnar_bytes) =
            (fs::read(&direct).unwrap(), fs::read(&columnar).unwrap());
        let sync = &direct_bytes[direct_bytes.len() - 16..];
        let header = direct_bytes.windows(16).position(|w| w == sync).unwrap();
        assert_eq!(direct_bytes[..header], columnar_bytes[..header], "{codec}");
        assert!(
            run(&["--from", "avro", "--to", "binary", &direct]) == binary,
            "{codec}"
        );
        assert!(
            run(&["--from", "avro", "--to", "binary", &columnar]) == binary,
            "{codec}"
        );
        assert!(
            run(&["--from", "avro", "--to", "json", &direct])
                == run(&["--from", "binary", "--to", "json", &w("in.bin")]),
            "{codec}: the records, by the columnar way"
        );
    }
    // Framed in, framed out.
    for framing in ["mesos", "paddle"] {
        let framed = w(&format!("in.{framing}"));
        let framed_bytes = run(&["--to", "binary", "--out-framing", framing, &w("in.bin")]);
        fs::write(&framed, &framed_bytes).unwrap();
        let avro = w(&format!("{framing}.avro"));
        run(&["--in-framing", framing, "--to", "avro", &framed, &avro]);
        assert!(
            run(&["--from", "avro", "--to", "binary", &avro]) == binary,
            "{framing}"
        );
        let back = run(&[
            "--from",
            "avro",
            "--to",
            "binary",
            "--out-framing",
            framing,
            &avro,
        ]);
        assert!(back == framed_bytes, "{framing}: avro → {framing}");
    }

    // Errors: the columnar way's, word for word.
    let same_error = |input: &[u8], framing: Option<&str>, what: &str| {
        fs::write(w("bad.in"), input).unwrap();
        let mut args = vec!["--to", "avro"];
        if let Some(framing) = framing {
            args.extend(["--in-framing", framing]);
        }
        let bad = w("bad.in");
        let out = w("bad.out");
        args.extend([bad.as_str(), out.as_str()]);
        // A file in the output's place stays as it was, and nothing is left beside it.
        let files = || fs::read_dir(&work).unwrap().count();
        fs::write(work.join("bad.out"), b"the old file").unwrap();
        let before = files();
        let direct = fails(&args);
        assert_eq!(
            fs::read(work.join("bad.out")).unwrap(),
            b"the old file",
            "{what}"
        );
        assert_eq!(files(), before, "{what}: nothing left beside the output");
        args[1] = "parquet";
        let columnar = fails(&args);
        assert_eq!(direct, columnar, "{what}");
        direct
    };
    // Cut inside the last record, and inside the long one (past the first chunk).
    let e = same_error(&binary[..binary.len() - 3], None, "cut short");
    assert!(e.contains("record 29999, byte "), "{e}");
    let long_at = binary.windows(64).position(|w| w == [b'u'; 64]).unwrap();
    let e = same_error(&binary[..long_at + 100], None, "cut in the long record");
    assert!(e.contains("record 12345, byte "), "{e}");
    // A string that is not UTF-8, far into the input.
    let mut damaged = binary.clone();
    let at = binary.len() - 1000
        + binary[binary.len() - 1000..]
            .iter()
            .position(|&b| b == b'K')
            .unwrap();
    damaged[at] = 0xff;
    let e = same_error(&damaged, None, "not UTF-8");
    assert!(e.contains("UTF-8"), "{e}");
    // A payload with a byte after its record.
    let one = &binary[..binary.iter().position(|&b| b == b'D').unwrap() + 2];
    let mut mesos = format!("{}\n", one.len()).into_bytes();
    mesos.extend_from_slice(one);
    mesos.extend_from_slice(format!("{}\n", one.len() + 1).as_bytes());
    mesos.extend_from_slice(one);
    mesos.push(0);
    let e = same_error(&mesos, Some("mesos"), "a byte after the record");
    assert!(e.contains("record 1"), "{e}");
}
