//! Avro container files of record data: every Hadoop type through every codec, the Hadoop
//! Java fixtures byte for byte, schema resolution, damaged and hostile files, and fastavro
//! reading what we write and writing what we read.

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, Float64Array, Int32Array, Int64Array, ListArray, MapArray, RecordBatch,
    StringArray, StructArray,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema, SchemaRef};
use hadoop_record::archive::binary::RawInput;
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::value::json::from_json;
use hadoop_record::{Format, RecordWriter};
use hadoop_record_arrow::mapping::{arrow_schema, MappingOptions};
use hadoop_record_arrow::{BatchEncoder, BatchReader, DecodeOptions, EncodeOptions};
use hadoop_record_avro::{
    AvroCodec, AvroReader, AvroRecordReader, AvroRecordWriter, AvroWriter, Error, Transcoder,
};
use hadoop_record_compiler::backend::avro;
use hadoop_record_compiler::{load_with, LoadOptions, MemoryFileSystem, Model};
use serde_json::{json, Value as Json};

/// A DDL file read by the compiler: its model (for the `.avsc`) and runtime schema.
struct Ddl {
    model: Model,
    schema: Arc<Schema>,
    ids: hadoop_record_compiler::ModelSchema,
}

impl Ddl {
    fn new(text: &str) -> Ddl {
        let mut fs = MemoryFileSystem::new();
        fs.insert("t.jr", text);
        let model = load_with(&fs, &["t.jr"], &LoadOptions::default())
            .unwrap_or_else(|_| panic!("the DDL loads"));
        Ddl::of(model)
    }

    fn of(model: Model) -> Ddl {
        let ids = model.to_schema();
        Ddl {
            schema: Arc::new(ids.schema().clone()),
            model,
            ids,
        }
    }

    fn id(&self, record: &str) -> RecordId {
        self.ids.find(record).unwrap()
    }

    /// What `rcc -l avro` writes for `record`.
    fn avsc(&self, record: &str) -> String {
        avro::schema(&self.model, self.model.find(record).unwrap())
    }

    fn arrow(&self, record: &str) -> SchemaRef {
        Arc::new(arrow_schema(&self.schema, self.id(record), MappingOptions::default()).unwrap())
    }

    /// The records `values` (JSON in the fixture manifests' form) in Hadoop's binary encoding.
    fn binary(&self, record: &str, values: &[Json]) -> Vec<u8> {
        let id = self.id(record);
        let mut w = RecordWriter::new(Vec::new(), Format::Binary);
        for v in values {
            let value = from_json(&self.schema, &FieldType::Record(id), v).unwrap();
            w.write_value(&self.schema, id, &value).unwrap();
        }
        w.into_inner().unwrap()
    }

    /// Binary records as batches of `batch_size`.
    fn batches(&self, record: &str, binary: &[u8], batch_size: usize) -> Vec<RecordBatch> {
        let options = DecodeOptions::default().with_batch_size(batch_size);
        BatchReader::new(
            binary,
            Format::Binary,
            self.schema.clone(),
            self.id(record),
            options,
        )
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// Batches back to binary records.
    fn records(&self, record: &str, batches: &[RecordBatch]) -> Vec<u8> {
        let mut encoder = BatchEncoder::new(
            self.schema.clone(),
            self.id(record),
            EncodeOptions::default(),
        )
        .unwrap();
        let mut w = RecordWriter::new(Vec::new(), Format::Binary);
        for b in batches {
            encoder.write_batch(b, &mut w).unwrap();
        }
        w.into_inner().unwrap()
    }

    /// Binary records → batches → an Avro file in `codec` (`rcc -l avro`'s schema).
    fn avro_file(&self, record: &str, binary: &[u8], codec: AvroCodec) -> Vec<u8> {
        write(
            &self.avsc(record),
            self.arrow(record),
            &self.batches(record, binary, 3),
            codec,
        )
    }

    /// An Avro file → batches → binary records.
    fn binary_of_avro(&self, record: &str, file: &[u8], batch_size: usize) -> Vec<u8> {
        let batches = read(file, self.arrow(record), batch_size).unwrap();
        self.records(record, &batches)
    }
}

fn write(avsc: &str, arrow: SchemaRef, batches: &[RecordBatch], codec: AvroCodec) -> Vec<u8> {
    let mut w = AvroWriter::new(Vec::new(), avsc, arrow, codec).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.finish().unwrap()
}

fn read(file: &[u8], arrow: SchemaRef, batch_size: usize) -> Result<Vec<RecordBatch>, Error> {
    AvroReader::new(file, arrow, batch_size)?.collect()
}

const ALL: &str = "module t {
    class Point { int x; int y; }
    class Key { ustring name; double d; }
    class All {
        byte b; boolean z; int i; long l; float f; double d; ustring s; buffer u;
        vector<int> vi; vector<Point> vp; vector<vector<ustring>> vvs;
        map<ustring, long> sm; map<int, ustring> im; map<Key, Point> km; map<double, byte> dm;
        map<ustring, map<long, buffer>> nested;
        Point p;
    }
}";

/// Records of `t.All` with every type's edge values.
fn all_values() -> Vec<Json> {
    let point = |x: i32, y: i32| json!({"x": x, "y": y});
    vec![
        json!({"b": -128, "z": true, "i": i32::MIN, "l": "9223372036854775807",
            "f": "NaN", "d": "-Infinity", "s": "héllo \u{1F600} \u{FF5E} \u{FFFD}",
            "u": "00ff10", "vi": [1, -1, 0], "vp": [point(1, 2), point(-3, 4)],
            "vvs": [["a", ""], [], ["\u{10FFFF}"]],
            "sm": [["\u{1F600}", 1], ["\u{FF5E}", 2], ["a", -3]],
            "im": [[-5, "minus five"], [7, "seven"]],
            "km": [[{"name": "k", "d": "NaN"}, point(0, 0)],
                   [{"name": "k", "d": -0.0}, point(1, 1)],
                   [{"name": "a", "d": 1.5}, point(2, 2)]],
            "dm": [["NaN", 1], [-0.0, 2], [0.0, 3], ["-Infinity", 4]],
            "nested": [["x", [[3, "01"], [-1, ""]]], ["", []]],
            "p": point(i32::MAX, -1)}),
        json!({"b": 0, "z": false, "i": 0, "l": 0, "f": -0.0, "d": "NaN", "s": "", "u": "",
            "vi": [], "vp": [], "vvs": [], "sm": [], "im": [], "km": [], "dm": [],
            "nested": [], "p": point(0, 0)}),
        json!({"b": 127, "z": true, "i": 1, "l": "-9223372036854775808",
            "f": "Infinity", "d": 1e-310, "s": "日本語", "u": "deadbeef",
            "vi": [i32::MAX], "vp": [], "vvs": [[]], "sm": [["", 0]],
            "im": [[0, ""]], "km": [], "dm": [["Infinity", -1]], "nested": [["k", []]],
            "p": point(5, 6)}),
    ]
}

#[test]
fn every_hadoop_type_round_trips_in_every_codec() {
    let ddl = Ddl::new(ALL);
    let binary = ddl.binary("t.All", &all_values());
    for codec in AvroCodec::ALL {
        let file = ddl.avro_file("t.All", &binary, codec);
        let reader = AvroReader::new(&file[..], ddl.arrow("t.All"), 2).unwrap();
        assert_eq!(
            reader.avro_schema(),
            ddl.avsc("t.All"),
            "{codec}: the .avsc, as it is"
        );
        let mut named = b"avro.codec".to_vec();
        named.push(codec.name().len() as u8 * 2);
        named.extend_from_slice(codec.name().as_bytes());
        assert!(find(&file, &named), "{codec}: named in the header");
        for batch_size in [1, 2, 1000] {
            assert_eq!(
                ddl.binary_of_avro("t.All", &file, batch_size),
                binary,
                "{codec}, batches of {batch_size}: binary → Avro → binary"
            );
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn many_records_span_blocks_and_batches() {
    let ddl = Ddl::new("module t { class R { int n; ustring s; vector<long> v; } }");
    let values: Vec<Json> = (0..20_000)
        .map(|n| json!({"n": n, "s": "x".repeat(n % 97), "v": (0..n % 5).collect::<Vec<_>>()}))
        .collect();
    let binary = ddl.binary("t.R", &values);
    let batches = ddl.batches("t.R", &binary, 7000);
    let file = write(
        &ddl.avsc("t.R"),
        ddl.arrow("t.R"),
        &batches,
        AvroCodec::Null,
    );
    let blocks = file.len() / (256 * 1024);
    assert!(
        blocks >= 3,
        "{} bytes: more than one block a batch",
        file.len()
    );
    let back = read(&file, ddl.arrow("t.R"), 4096).unwrap();
    assert_eq!(back.iter().map(|b| b.num_rows()).max(), Some(4096));
    assert_eq!(ddl.records("t.R", &back), binary);
}

#[test]
fn every_hadoop_java_fixture_goes_binary_avro_binary_byte_for_byte() {
    let dir = fixture_harness::hadoop_java_dir();
    let paths: Vec<_> = ["common.jr", "prims.jr", "composite.jr"]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    let model = hadoop_record_compiler::load(&paths, &LoadOptions::default())
        .unwrap_or_else(|_| panic!("the fixture DDL loads"));
    let ddl = Ddl::of(model);
    let mut checked = 0;
    for case in fixture_harness::hadoop_java().cases_in(fixture_harness::Encoding::Binary) {
        let bytes = case.bytes();
        let record = case.record_type.as_str();
        for codec in [AvroCodec::Deflate, AvroCodec::Null] {
            let file = ddl.avro_file(record, &bytes, codec);
            assert_eq!(
                ddl.binary_of_avro(record, &file, 1024),
                bytes,
                "{}: binary → Avro ({codec}) → binary",
                case.name
            );
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} fixtures");
}

/// A file of records of the writer schema `avsc`, whose columns are `columns`.
fn file_of(avsc: &str, columns: Vec<(&str, ArrayRef, bool)>) -> Vec<u8> {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, a, nullable)| Field::new(*name, a.data_type().clone(), *nullable))
        .collect();
    let schema = Arc::new(ArrowSchema::new(fields));
    let batch =
        RecordBatch::try_new(schema.clone(), columns.into_iter().map(|c| c.1).collect()).unwrap();
    write(avsc, schema, &[batch], AvroCodec::Null)
}

/// The records of `file` read as `record` of `ddl`, in the runtime's JSON.
fn as_json(ddl: &Ddl, record: &str, file: &[u8]) -> Result<Vec<Json>, Error> {
    let batches = read(file, ddl.arrow(record), 1024)?;
    let binary = ddl.records(record, &batches);
    let id = ddl.id(record);
    let mut reader = hadoop_record::RecordReader::new(&binary[..], Format::Binary);
    let mut out = Vec::new();
    while let Some(v) = reader.read_value(&ddl.schema, id).unwrap() {
        let text =
            hadoop_record::value::json::to_json(&ddl.schema, &FieldType::Record(id), &v).unwrap();
        out.push(serde_json::from_str(&text).unwrap());
    }
    Ok(out)
}

#[test]
fn other_writers_schemas_resolve_by_avro_rules() {
    // Another tool's schema: other record name, fields in another order, promotions, a
    // union with null, a field the DDL lacks; the DDL's `missing` and `pts` are not there.
    let avsc = r#"{"type": "record", "name": "topLevelRecord", "fields": [
        {"name": "extra", "type": "string"},
        {"name": "i2l", "type": "int"},
        {"name": "i2f", "type": "int"},
        {"name": "l2d", "type": "long"},
        {"name": "f2d", "type": "float"},
        {"name": "s2u", "type": "string"},
        {"name": "u2s", "type": "bytes"},
        {"name": "opt", "type": ["null", "string"]},
        {"name": "b", "type": "int"}
    ]}"#;
    let file = file_of(
        avsc,
        vec![
            (
                "extra",
                Arc::new(StringArray::from(vec!["skip", "me"])),
                false,
            ),
            ("i2l", Arc::new(Int32Array::from(vec![-7, i32::MAX])), false),
            (
                "i2f",
                Arc::new(Int32Array::from(vec![3, 16_777_217])),
                false,
            ),
            ("l2d", Arc::new(Int64Array::from(vec![1 << 53, -1])), false),
            (
                "f2d",
                Arc::new(arrow_array::Float32Array::from(vec![0.1, f32::NAN])),
                false,
            ),
            ("s2u", Arc::new(StringArray::from(vec!["ab", ""])), false),
            (
                "u2s",
                Arc::new(arrow_array::BinaryArray::from(vec![&b"h\xc3\xa9"[..], b""])),
                false,
            ),
            (
                "opt",
                Arc::new(StringArray::from(vec![Some("x"), Some("y")])),
                true,
            ),
            ("b", Arc::new(Int32Array::from(vec![-128, 127])), false),
        ],
    );
    let ddl = Ddl::new(
        "module t { class P { int x; } class R {
            long i2l; float i2f; double l2d; double f2d; buffer s2u; ustring u2s; ustring opt;
            byte b; int missing; vector<P> pts; map<long, P> lm; map<ustring, int> sm; P p;
        } }",
    );
    let got = as_json(&ddl, "t.R", &file).unwrap();
    let zero = json!({"missing": 0, "pts": [], "lm": [], "sm": [], "p": {"x": 0}});
    let mut want = vec![
        json!({"i2l": -7, "i2f": 3.0, "l2d": 9007199254740992.0, "f2d": 0.10000000149011612,
               "s2u": "6162", "u2s": "hé", "opt": "x", "b": -128}),
        json!({"i2l": 2147483647, "i2f": 16777216.0, "l2d": -1.0, "f2d": "NaN", "s2u": "",
               "u2s": "", "opt": "y", "b": 127}),
    ];
    for w in &mut want {
        w.as_object_mut()
            .unwrap()
            .extend(zero.as_object().unwrap().clone());
    }
    for (g, w) in got.iter().zip(&want) {
        for (k, v) in w.as_object().unwrap() {
            assert_eq!(&g[k], v, "{k} in {g}");
        }
    }
    assert_eq!(got.len(), 2);
}

#[test]
fn mismatches_and_nulls_are_refused_naming_the_field() {
    let ddl = Ddl::new("module t { class Q { ustring s; } class R { int n; Q q; } }");
    let cases = [
        (
            r#"{"type": "record", "name": "X", "fields": [{"name": "n", "type": "long"}]}"#,
            "R.n: the file's Avro `long` cannot be read as the DDL's `int`",
        ),
        (
            r#"{"type": "record", "name": "X", "fields": [{"name": "q", "type":
                {"type": "record", "name": "Y", "fields": [{"name": "s", "type": "int"}]}}]}"#,
            "R.q.s: the file's Avro `int` cannot be read as the DDL's `ustring`",
        ),
        (
            r#"{"type": "record", "name": "X", "fields": [{"name": "n", "type":
                ["null", "int", "string"]}]}"#,
            "R.n: the file's Avro `union [null, int, string]` cannot be read",
        ),
        (
            r#""int""#,
            "the file holds values of Avro type `int`, not records",
        ),
    ];
    for (avsc, want) in cases {
        let file = raw_file(avsc, AvroCodec::Null, &[]);
        let e = AvroReader::new(&file[..], ddl.arrow("t.R"), 10)
            .err()
            .unwrap();
        assert!(matches!(e, Error::Schema(_)), "{e:?}");
        assert!(e.to_string().contains(want), "{e}\nwants: {want}");
    }
    // A null where Hadoop has none: the record is named.
    let avsc = r#"{"type": "record", "name": "X", "fields": [
        {"name": "n", "type": ["int", "null"]}]}"#;
    let file = file_of(
        avsc,
        vec![("n", Arc::new(Int32Array::from(vec![Some(1), None])), true)],
    );
    let e = read(&file, ddl.arrow("t.R"), 10).unwrap_err();
    assert!(
        e.to_string()
            .contains("R.n is null (in the file's record 1")
            && e.to_string().contains("Hadoop has no nulls"),
        "{e}"
    );
    // A byte out of range.
    let ddl = Ddl::new("module t { class B { byte b; } }");
    let avsc = r#"{"type": "record", "name": "B", "fields": [{"name": "b", "type": "int"}]}"#;
    let file = file_of(
        avsc,
        vec![("b", Arc::new(Int32Array::from(vec![1, 200])), false)],
    );
    let e = read(&file, ddl.arrow("t.B"), 10).unwrap_err();
    assert!(
        e.to_string()
            .contains("B.b holds 200 (in the file's record 1"),
        "{e}"
    );
    // Recursive records are refused up front, on both sides.
    let ddl = Ddl::new("module t { class T { vector<T> kids; } }");
    let e = AvroWriter::new(
        Vec::new(),
        &ddl.avsc("t.T"),
        ddl.arrow("t.T"),
        AvroCodec::Null,
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("recursive record"), "{e}");
}

#[test]
fn maps_of_other_writers_come_in_hadoops_key_order() {
    // An Avro map and a marked array, entries out of Hadoop's order, a key repeated.
    let avsc = r#"{"type": "record", "name": "M", "fields": [
        {"name": "sm", "type": {"type": "map", "values": "long"}},
        {"name": "dm", "type": {"type": "array", "items": {"type": "record", "name": "E",
            "fields": [{"name": "key", "type": "double"}, {"name": "value", "type": "int"}]}}}
    ]}"#;
    let strings = StringArray::from(vec!["\u{FF5E}", "\u{1F600}", "b", "a", "b"]);
    let longs = Int64Array::from(vec![1, 2, 3, 4, 5]);
    let kv = |k: ArrayRef, v: ArrayRef| {
        StructArray::new(
            Fields::from(vec![
                Field::new("key", k.data_type().clone(), false),
                Field::new("value", v.data_type().clone(), false),
            ]),
            vec![k, v],
            None,
        )
    };
    let sm = MapArray::new(
        Arc::new(Field::new(
            "entries",
            kv(Arc::new(strings.clone()), Arc::new(longs.clone()))
                .data_type()
                .clone(),
            false,
        )),
        OffsetBuffer::from_lengths([5]),
        kv(Arc::new(strings), Arc::new(longs)),
        None,
        false,
    );
    let entries = kv(
        Arc::new(Float64Array::from(vec![
            f64::NAN,
            1.0,
            -0.0,
            0.0,
            f64::NEG_INFINITY,
        ])),
        Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5])),
    );
    let dm = ListArray::new(
        Arc::new(Field::new("item", entries.data_type().clone(), false)),
        OffsetBuffer::from_lengths([5]),
        Arc::new(entries),
        None,
    );
    let file = file_of(
        avsc,
        vec![("sm", Arc::new(sm), false), ("dm", Arc::new(dm), false)],
    );
    let ddl = Ddl::new("module t { class M { map<ustring, long> sm; map<double, int> dm; } }");
    let got = as_json(&ddl, "t.M", &file).unwrap();
    assert_eq!(
        got,
        [json!({
            "sm": [["a", 4], ["b", 5], ["\u{1F600}", 2], ["\u{FF5E}", 1]],
            "dm": [["-Infinity", 5], [-0.0, 3], [0.0, 4], [1.0, 2], ["NaN", 1]],
        })]
    );
}

/// A container file written by hand: `avsc`, `codec`, then `blocks` (count, data as they
/// go in the file), sync marker 16 × 0xAB.
fn raw_file(avsc: &str, codec: AvroCodec, blocks: &[(i64, &[u8])]) -> Vec<u8> {
    let mut out = b"Obj\x01".to_vec();
    long(&mut out, 2);
    for (k, v) in [("avro.schema", avsc), ("avro.codec", codec.name())] {
        long(&mut out, k.len() as i64);
        out.extend_from_slice(k.as_bytes());
        long(&mut out, v.len() as i64);
        out.extend_from_slice(v.as_bytes());
    }
    long(&mut out, 0);
    out.extend_from_slice(&[0xAB; 16]);
    for (count, data) in blocks {
        long(&mut out, *count);
        long(&mut out, data.len() as i64);
        out.extend_from_slice(data);
        out.extend_from_slice(&[0xAB; 16]);
    }
    out
}

fn long(out: &mut Vec<u8>, v: i64) {
    let mut n = ((v << 1) ^ (v >> 63)) as u64;
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[test]
fn truncated_and_corrupted_files_are_errors_never_panics() {
    let ddl = Ddl::new(ALL);
    let arrow = ddl.arrow("t.All");
    let binary = ddl.binary("t.All", &all_values());
    for codec in AvroCodec::ALL {
        let file = ddl.avro_file("t.All", &binary, codec);
        let header = header_length(&file);
        // Every cut in the block, every seventh in the (long) header.
        for cut in (0..header).step_by(7).chain(header..file.len()) {
            match read(&file[..cut], arrow.clone(), 2) {
                Err(e) => {
                    let m = e.to_string();
                    assert!(
                        m.contains("damaged Avro container file"),
                        "{codec} {cut}: {m}"
                    );
                    if cut >= header {
                        assert!(m.contains("in block 0 (at byte "), "{codec} {cut}: {m}");
                    }
                }
                Ok(batches) => {
                    assert_eq!(cut, header, "{codec}: only a cut between blocks reads");
                    assert!(batches.is_empty());
                }
            }
        }
        // Every byte of the block changed (and every seventh of the header): an error or
        // other records, never a panic. Uncompressed, the changes reach the records.
        if matches!(codec, AvroCodec::Null | AvroCodec::Snappy) {
            for at in (0..header).step_by(7).chain(header..file.len()) {
                let mut bad = file.clone();
                bad[at] ^= 0x55;
                let _ = read(&bad, arrow.clone(), 2);
            }
        }
    }
}

/// The length of a file's header: up to the first sync marker, the file's last 16 bytes.
fn header_length(file: &[u8]) -> usize {
    let sync = &file[file.len() - 16..];
    file.windows(16).position(|w| w == sync).unwrap() + 16
}

#[test]
fn hostile_files_are_clear_errors_without_allocating() {
    let avsc = r#"{"type": "record", "name": "R", "fields": [
        {"name": "s", "type": "string"},
        {"name": "v", "type": {"type": "array", "items":
            {"type": "record", "name": "E", "fields": []}}}]}"#;
    // The DDL type reads `s`; `v` (of records without fields) is skipped.
    let ddl = Ddl::new("module t { class R { ustring s; } }");
    let arrow = ddl.arrow("t.R");
    let check = |file: Vec<u8>, want: &[&str]| {
        let e = read(&file, arrow.clone(), 10).unwrap_err().to_string();
        for w in want {
            assert!(e.contains(w), "{e}\nwants: {w}");
        }
    };
    let block_0 = |codec| {
        let header = raw_file(avsc, codec, &[]).len();
        format!("in block 0 (at byte {header})")
    };
    let at = block_0(AvroCodec::Null);
    // A string claiming 2^62 bytes.
    let mut huge = Vec::new();
    long(&mut huge, 1 << 62);
    check(
        raw_file(avsc, AvroCodec::Null, &[(1, &huge)]),
        &[
            &at,
            "record 0",
            "field .s",
            "a string of 4611686018427387904 bytes, but 0",
        ],
    );
    // 2^60 records in 3 bytes; a block claiming a petabyte; a negative count.
    check(
        raw_file(avsc, AvroCodec::Null, &[(1 << 60, &[0, 0, 0])]),
        &[&at, "record count 1152921504606846976"],
    );
    let mut petabyte = raw_file(avsc, AvroCodec::Null, &[]);
    long(&mut petabyte, 1);
    long(&mut petabyte, 1 << 50);
    check(petabyte, &[&at, "claims 1125899906842624 bytes"]);
    check(
        raw_file(avsc, AvroCodec::Null, &[(-1, &[0, 0])]),
        &[&at, "negative record count -1"],
    );
    // 2^40 empty records in an array: backed by no bytes.
    let mut empties = vec![0];
    long(&mut empties, 1 << 40);
    empties.push(0);
    check(
        raw_file(avsc, AvroCodec::Null, &[(1, &empties)]),
        &[
            &at,
            "field .v",
            "1099511627776 array or map items of zero width",
        ],
    );
    // Bytes past the records; a wrong sync marker; snappy shorter than its checksum.
    check(
        raw_file(avsc, AvroCodec::Null, &[(1, &[0, 0, 0])]),
        &[&at, "records end at byte 2 of its 3 bytes"],
    );
    let mut desynced = raw_file(avsc, AvroCodec::Null, &[(1, &[0, 0])]);
    let n = desynced.len();
    desynced[n - 1] = 0;
    check(desynced, &[&at, "sync marker"]);
    check(
        raw_file(avsc, AvroCodec::Snappy, &[(1, &[0, 0])]),
        &[&block_0(AvroCodec::Snappy), "at least its 4-byte checksum"],
    );
    check(
        raw_file(avsc, AvroCodec::Deflate, &[(1, &[0xff, 0xff, 0xff])]),
        &[
            &block_0(AvroCodec::Deflate),
            "deflate data does not decompress",
        ],
    );
    // A deflate bomb past the block limit.
    let bomb = deflate(&vec![0u8; 4 << 20]);
    let file = raw_file(avsc, AvroCodec::Deflate, &[(1, &bomb)]);
    let e = AvroReader::new(&file[..], arrow.clone(), 10)
        .unwrap()
        .with_max_block_bytes(1 << 20)
        .collect::<Result<Vec<_>, _>>()
        .unwrap_err();
    assert!(
        e.to_string().contains("decompresses to more than 1048576"),
        "{e}"
    );
    // Headers: not Avro, a metadata value claiming 2^62 bytes, no schema, unknown codec.
    check(
        b"PAR1".to_vec(),
        &["in the header", "not an Avro container file"],
    );
    let mut meta = b"Obj\x01".to_vec();
    long(&mut meta, 1);
    long(&mut meta, 1 << 62);
    check(meta, &["in the header", "truncated"]);
    let mut no_schema = b"Obj\x01".to_vec();
    no_schema.push(0);
    no_schema.extend_from_slice(&[0; 16]);
    check(no_schema, &["no `avro.schema`"]);
    let mut odd = raw_file(avsc, AvroCodec::Null, &[]);
    let i = odd.windows(4).position(|w| w == b"null").unwrap();
    odd[i..i + 4].copy_from_slice(b"lz4x");
    check(odd, &["unknown Avro codec `lz4x`"]);
}

fn deflate(data: &[u8]) -> Vec<u8> {
    // Written by the crate itself: a one-block file of `data` as bytes.
    let avsc = r#"{"type": "record", "name": "B", "fields": [{"name": "b", "type": "bytes"}]}"#;
    let schema = Arc::new(ArrowSchema::new(vec![Field::new(
        "b",
        DataType::Binary,
        false,
    )]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(arrow_array::BinaryArray::from(vec![data]))],
    )
    .unwrap();
    let file = write(avsc, schema, &[batch], AvroCodec::Deflate);
    // The block's data: after the header (ends with the sync marker), its count and length.
    let mut at = header_length(&file);
    let mut varint = || {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = file[at];
            at += 1;
            n |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return (n >> 1) as usize;
            }
        }
    };
    let _count = varint();
    let len = varint();
    file[at..at + len].to_vec()
}

/// fastavro reads every file we write (every codec) and writes it again in each codec
/// (from the records it decoded); we read fastavro's files back to the same bytes.
#[test]
fn fastavro_reads_what_we_write_and_we_read_what_it_writes() {
    let Some(python) = fixture_harness::peers::fastavro_python() else {
        return;
    };
    let ddl = Ddl::new(ALL);
    let values = all_values();
    let binary = ddl.binary("t.All", &values);
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import json, math, sys, fastavro
src, dst, codec = sys.argv[1:4]
with open(src, "rb") as f:
    r = fastavro.reader(f)
    schema, records = r.writer_schema, list(r)
with open(dst, "wb") as f:
    fastavro.writer(f, schema, records, codec=codec)
r = records[0]
print(json.dumps({"n": len(records), "b": r["b"], "s": r["s"], "u": r["u"].hex(),
    "f_nan": math.isnan(r["f"]), "sm": list(r["sm"].items()),
    "im": [[e["key"], e["value"]] for e in r["im"]], "p": r["p"]}))
"#;
    for ours in AvroCodec::ALL {
        let file = ddl.avro_file("t.All", &binary, ours);
        let src = dir.path().join(format!("ours-{ours}.avro"));
        std::fs::write(&src, &file).unwrap();
        for theirs in AvroCodec::ALL {
            let dst = dir.path().join(format!("fastavro-{ours}-{theirs}.avro"));
            let out = fixture_harness::peers::run_script(
                python,
                script,
                &[src.as_os_str(), dst.as_os_str(), theirs.name().as_ref()],
            );
            let seen: Json = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(
                seen,
                json!({"n": 3, "b": -128, "s": "héllo \u{1F600} \u{FF5E} \u{FFFD}",
                    "u": "00ff10", "f_nan": true,
                    "sm": [["a", -3], ["\u{1F600}", 1], ["\u{FF5E}", 2]],
                    "im": [[-5, "minus five"], [7, "seven"]],
                    "p": {"x": i32::MAX, "y": -1}}),
                "fastavro reads our {ours} file"
            );
            let theirs_file = std::fs::read(&dst).unwrap();
            assert_eq!(
                ddl.binary_of_avro("t.All", &theirs_file, 2),
                binary,
                "fastavro's {theirs} file of our {ours} file"
            );
        }
    }
}

/// What Java Avro's `Containers` driver prints of the file `src` (its codec, schema and
/// records), having written its records again to `java` with every codec's extension.
fn java_containers(
    jdk: &interop_tests::java::Jdk,
    classpath: &str,
    src: &std::path::Path,
    java: &std::path::Path,
) -> String {
    let codecs: Vec<&str> = AvroCodec::ALL.iter().map(|c| c.name()).collect();
    let out = jdk
        .command(classpath)
        .arg("hadooprecord.avro.Containers")
        .arg(src)
        .arg(java)
        .args(&codecs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Java Avro on {}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Java Avro 1.12.2 (`tests/interop/java/avro`, `Containers.java`) reads each file we write,
/// in every codec, with `DataFileReader` and `GenericDatumReader`: the codec, the `.avsc`'s
/// `hadoop.type` marks and the records are what we wrote. It writes the records again with
/// `DataFileWriter` in every codec, and we read its files back to the same binary records.
#[test]
fn java_avro_reads_what_we_write_and_we_read_what_it_writes() {
    if interop_tests::tools::skipped("the Avro container checks with Java Avro") {
        return;
    }
    let jdk = interop_tests::java::jdk();
    let (work, classpath) =
        interop_tests::java::driver_classpath(&jdk, "avro", "the Avro drivers (Avro 1.12.2)");
    let ddl = Ddl::new(ALL);
    let binary = ddl.binary("t.All", &all_values());
    let dir = tempfile::tempdir_in(&work).unwrap();
    for ours in AvroCodec::ALL {
        let src = dir.path().join(format!("ours.{ours}.avro"));
        std::fs::write(&src, ddl.avro_file("t.All", &binary, ours)).unwrap();
        let java = dir.path().join("java");
        let text = java_containers(&jdk, &classpath, &src, &java);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("codec {ours}"));
        let schema: Json = serde_json::from_str(lines[1].strip_prefix("schema ").unwrap()).unwrap();
        let fields = schema["fields"].as_array().unwrap();
        let field = |name: &str| &fields.iter().find(|f| f["name"] == name).unwrap()["type"];
        assert_eq!(field("b")["hadoop.type"], "byte", "Java sees the marks");
        assert_eq!(field("im")["hadoop.type"], "map");
        let records: Vec<Json> = lines[2..]
            .iter()
            .map(|l| serde_json::from_str(l.strip_prefix("record ").unwrap()).unwrap())
            .collect();
        assert_eq!(records.len(), 3);
        let r = &records[0];
        let mut sm: Vec<(String, Json)> = r["sm"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        sm.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            (&r["b"], &r["i"], &r["l"], &r["f"], &r["d"]),
            (
                &json!(-128),
                &json!(i32::MIN),
                &json!(i64::MAX),
                &json!("NaN"),
                &json!("-Infinity")
            ),
            "Java reads our {ours} file"
        );
        assert_eq!(r["s"], "héllo \u{1F600} \u{FF5E} \u{FFFD}");
        assert_eq!(r["u"], "00ff10");
        assert_eq!(
            sm,
            [
                ("a".to_string(), json!(-3)),
                ("\u{FF5E}".to_string(), json!(2)),
                ("\u{1F600}".to_string(), json!(1))
            ]
        );
        assert_eq!(
            r["im"],
            json!([{"key": -5, "value": "minus five"}, {"key": 7, "value": "seven"}])
        );
        assert_eq!(r["vp"], json!([{"x": 1, "y": 2}, {"x": -3, "y": 4}]));
        assert_eq!(records[1]["vvs"], json!([]));
        assert_eq!(records[2]["d"], json!(1e-310));
        for theirs in AvroCodec::ALL {
            let file = std::fs::read(java.with_extension(theirs.name())).unwrap();
            assert_eq!(
                ddl.binary_of_avro("t.All", &file, 2),
                binary,
                "Java's {theirs} file of our {ours} file"
            );
        }
    }
}

// The direct way (`Transcoder`, `AvroRecordWriter`, `AvroRecordReader`): Hadoop binary to
// and from Avro without Arrow, giving the Arrow way's files and records.

/// `file` with its sync marker (its last 16 bytes, every block ends with it) made 16 × 0.
fn without_sync(file: &[u8]) -> Vec<u8> {
    let sync = &file[file.len() - 16..];
    let mut out = Vec::with_capacity(file.len());
    let mut i = 0;
    while i < file.len() {
        if file[i..].starts_with(sync) {
            out.extend_from_slice(&[0; 16]);
            i += 16;
        } else {
            out.push(file[i]);
            i += 1;
        }
    }
    out
}

impl Ddl {
    fn transcoder(&self, record: &str) -> Result<Transcoder, Error> {
        Transcoder::new(&self.avsc(record), &self.schema, self.id(record))
    }

    /// Binary records (back to back) → an Avro file, the direct way.
    fn direct_file(&self, record: &str, binary: &[u8], codec: AvroCodec) -> Vec<u8> {
        let transcoder = self.transcoder(record).unwrap();
        let mut w = AvroRecordWriter::new(Vec::new(), &transcoder, codec).unwrap();
        let mut input = RawInput::new(binary);
        while !input.remaining().is_empty() {
            w.write_record(&mut input).unwrap();
        }
        w.finish().unwrap()
    }

    /// An Avro file → binary records, the direct way.
    fn direct_binary(&self, record: &str, file: &[u8]) -> Result<Vec<u8>, Error> {
        let mut reader = AvroRecordReader::new(file, &self.schema, self.id(record))?;
        let mut out = Vec::new();
        while reader.read_record(&mut out)? {}
        Ok(out)
    }
}

#[test]
fn the_direct_way_writes_the_arrow_ways_files_and_reads_them_for_every_java_fixture() {
    let dir = fixture_harness::hadoop_java_dir();
    let paths: Vec<_> = ["common.jr", "prims.jr", "composite.jr"]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    let model = hadoop_record_compiler::load(&paths, &LoadOptions::default())
        .unwrap_or_else(|_| panic!("the fixture DDL loads"));
    let ddl = Ddl::of(model);
    let (mut direct, mut arrow_only) = (0, 0);
    for case in fixture_harness::hadoop_java().cases_in(fixture_harness::Encoding::Binary) {
        let bytes = case.bytes();
        let record = case.record_type.as_str();
        if ddl.transcoder(record).is_err() {
            // Only maps (Java's key order) are the Arrow way's alone among the fixtures.
            assert!(
                ddl.avsc(record).contains("\"map\""),
                "{}: no direct way",
                case.name
            );
            arrow_only += 1;
            continue;
        }
        for codec in [AvroCodec::Null, AvroCodec::Deflate, AvroCodec::Snappy] {
            let file = ddl.direct_file(record, &bytes, codec);
            // One batch: the Arrow way writes a batch's records as blocks of their own.
            let batches = ddl.batches(record, &bytes, 1 << 20);
            let arrow = write(&ddl.avsc(record), ddl.arrow(record), &batches, codec);
            assert_eq!(
                without_sync(&file),
                without_sync(&arrow),
                "{} ({codec}): the direct way's file is the Arrow way's",
                case.name
            );
            assert_eq!(
                ddl.direct_binary(record, &file).unwrap(),
                bytes,
                "{} ({codec}): binary → Avro → binary, directly",
                case.name
            );
            assert_eq!(ddl.binary_of_avro(record, &file, 7), bytes, "{}", case.name);
        }
        direct += 1;
    }
    assert!(
        direct > 40 && arrow_only > 0,
        "{direct} direct, {arrow_only} not"
    );
}

#[test]
fn the_direct_way_spans_blocks_and_reads_arrays_in_many_blocks() {
    let ddl = Ddl::new(
        "module t { class P { float f; double d; } class R { int n; ustring s; vector<long> v; \
         vector<P> ps; byte b; boolean z; buffer u; } }",
    );
    let values: Vec<Json> = (0..20_000)
        .map(|n| {
            json!({"n": n as i64 - 10_000, "s": "é".repeat(n % 97), "v": (0..n % 5).collect::<Vec<_>>(),
                   "ps": (0..n % 3).map(|k| json!({"f": k as f32 / 3.0, "d": -(n as f64)})).collect::<Vec<_>>(),
                   "b": (n % 256) as i64 - 128, "z": n % 2 == 0, "u": "00ff"})
        })
        .collect();
    let binary = ddl.binary("t.R", &values);
    let file = ddl.direct_file("t.R", &binary, AvroCodec::Null);
    assert!(file.len() / (256 * 1024) >= 3, "{} bytes", file.len());
    let batches = ddl.batches("t.R", &binary, 1 << 20);
    let arrow = write(
        &ddl.avsc("t.R"),
        ddl.arrow("t.R"),
        &batches,
        AvroCodec::Null,
    );
    assert_eq!(without_sync(&file), without_sync(&arrow));
    assert_eq!(ddl.direct_binary("t.R", &file).unwrap(), binary);

    // Arrays as other writers may write them: in several blocks, with negative counts
    // followed by the block's size in bytes. Hadoop's count is the sum.
    let ddl = Ddl::new("module t { class V { vector<int> v; ustring s; } }");
    let mut data = Vec::new();
    for (count, items) in [(2, &[1, 2][..]), (-3, &[3, 4, 5]), (1, &[600])] {
        long(&mut data, count);
        if count < 0 {
            long(&mut data, 3);
        }
        for &i in items {
            long(&mut data, i);
        }
    }
    long(&mut data, 0);
    long(&mut data, 1);
    data.push(b'x');
    // A record whose array is a block of 1 item, then one of 200: its count, 201, is two
    // bytes in Hadoop's encoding, where the first block's was one.
    long(&mut data, 1);
    long(&mut data, 1);
    long(&mut data, -200);
    long(&mut data, 200);
    data.extend(std::iter::repeat_n(2u8, 200));
    long(&mut data, 0);
    long(&mut data, 0);
    let file = raw_file(&ddl.avsc("t.V"), AvroCodec::Null, &[(2, &data)]);
    let expected = ddl.binary(
        "t.V",
        &[
            json!({"v": [1, 2, 3, 4, 5, 600], "s": "x"}),
            json!({"v": vec![1; 201], "s": ""}),
        ],
    );
    assert_eq!(ddl.direct_binary("t.V", &file).unwrap(), expected);
    assert_eq!(ddl.binary_of_avro("t.V", &file, 10), expected);
}

#[test]
fn the_direct_way_is_taken_only_for_the_types_own_schema() {
    let ddl = Ddl::new(ALL);
    let all = ddl.transcoder("t.All").unwrap_err().to_string();
    assert!(all.contains("t.All holds a map"), "{all}");
    let ddl = Ddl::new("module t { class P { long x; ustring s; } class T { P p; } }");
    assert!(ddl.transcoder("t.P").is_ok());
    assert!(ddl.transcoder("t.T").is_ok());
    // Vectors of records without fields (which DDL has not, but a schema made by hand may):
    // counts the bytes do not bound.
    let mut hand = Schema::new();
    let empty = hand.add(RecordType::new("t", "E", vec![])).unwrap();
    let field = FieldDef::new("es", FieldType::Vector(Box::new(FieldType::Record(empty))));
    let n = hand.add(RecordType::new("t", "N", vec![field])).unwrap();
    let avsc = r#"{"type": "record", "name": "N", "namespace": "t", "fields": [{"name": "es",
        "type": {"type": "array", "items": {"type": "record", "name": "E", "fields": []}}}]}"#;
    assert!(Transcoder::new(avsc, &hand, n).is_err());
    let (schema, id) = (&ddl.schema, ddl.id("t.P"));
    for other in [
        // Fields in another order, another name, a promotion, a union, one field missing.
        r#"{"type": "record", "name": "P", "fields": [{"name": "s", "type": "string"}, {"name": "x", "type": "long"}]}"#,
        r#"{"type": "record", "name": "P", "fields": [{"name": "y", "type": "long"}, {"name": "s", "type": "string"}]}"#,
        r#"{"type": "record", "name": "P", "fields": [{"name": "x", "type": "int"}, {"name": "s", "type": "string"}]}"#,
        r#"{"type": "record", "name": "P", "fields": [{"name": "x", "type": "long"}, {"name": "s", "type": ["null", "string"]}]}"#,
        r#"{"type": "record", "name": "P", "fields": [{"name": "x", "type": "long"}]}"#,
    ] {
        assert!(
            matches!(Transcoder::new(other, schema, id), Err(Error::Schema(_))),
            "{other}"
        );
        // Such a file is refused by the direct reader, and read by the Arrow way.
        let file = raw_file(other, AvroCodec::Null, &[]);
        assert!(matches!(
            AvroRecordReader::new(&file[..], schema, id),
            Err(Error::Schema(_))
        ));
        assert!(read(&file, ddl.arrow("t.P"), 10).is_ok(), "{other}");
    }
}

#[test]
fn the_direct_way_refuses_damage_and_what_hadoop_cannot_hold() {
    let ddl =
        Ddl::new("module t { class R { boolean z; byte b; ustring s; float f; vector<int> v; } }");
    let avsc = ddl.avsc("t.R");
    let record = |z: u8, b: i64, s: &[u8], f: [u8; 4], v: &[i64]| {
        let mut data = vec![z];
        long(&mut data, b);
        long(&mut data, s.len() as i64);
        data.extend_from_slice(s);
        data.extend_from_slice(&f);
        if !v.is_empty() {
            long(&mut data, v.len() as i64);
        }
        for &i in v {
            long(&mut data, i);
        }
        data.push(0);
        data
    };
    let good = record(1, -5, b"ok", 1.5f32.to_le_bytes(), &[7]);
    // Any NaN is Java's one NaN in Hadoop's bytes.
    let nan = record(0, 0, b"", [0x01, 0x00, 0xc0, 0xff], &[]);
    let file = raw_file(&avsc, AvroCodec::Null, &[(1, &good), (1, &nan)]);
    let back = ddl.direct_binary("t.R", &file).unwrap();
    assert_eq!(back, ddl.binary_of_avro("t.R", &file, 10));
    assert!(
        back.ends_with(&[0x00, 0x00, 0x7f, 0xc0, 0x00, 0x00, 0x00]),
        "{back:02x?}"
    );

    let damaged = |data: &[u8], count: i64| {
        let file = raw_file(&avsc, AvroCodec::Null, &[(1, &good), (count, data)]);
        let mut reader = AvroRecordReader::new(&file[..], &ddl.schema, ddl.id("t.R")).unwrap();
        let mut out = Vec::new();
        loop {
            let len = out.len();
            match reader.read_record(&mut out) {
                Ok(more) => assert!(more, "an error before the end"),
                Err(e) => {
                    assert_eq!(out.len(), len, "nothing of the damaged record");
                    assert!(out.starts_with(
                        &ddl.direct_binary("t.R", &raw_file(&avsc, AvroCodec::Null, &[(1, &good)]))
                            .unwrap()
                    ));
                    assert!(!reader.read_record(&mut out).unwrap(), "the reader is done");
                    return e;
                }
            }
        }
    };
    for (data, count, what) in [
        (record(2, 0, b"", [0; 4], &[]), 1, "a boolean byte 2"),
        (good[..good.len() - 3].to_vec(), 1, "ends"),
        ([good.clone(), vec![0]].concat(), 1, "end at byte"),
        (good.clone(), 2, "record count 2"),
        (record(1, 0, b"\xff", [0; 4], &[]), 1, "UTF-8"),
        (
            record(1, 0, b"", [0; 4], &[i64::MAX / 2]),
            1,
            "out of range",
        ),
    ] {
        let e = damaged(&data, count);
        let m = e.to_string();
        assert!(matches!(e, Error::Damaged { .. }), "{m}");
        assert!(
            m.contains("in block 1 (at byte ") && m.contains(what),
            "{m}"
        );
    }
    for (data, what) in [
        (
            record(1, 300, b"", [0; 4], &[]),
            "300, out of the range of Hadoop's `byte`",
        ),
        (
            record(1, 0, "\u{FFFF}".as_bytes(), [0; 4], &[]),
            "U+FFFE or U+FFFF",
        ),
    ] {
        let e = damaged(&data, 1);
        let m = e.to_string();
        assert!(matches!(e, Error::Schema(_)), "{m}");
        assert!(m.contains("block 1, record 0") && m.contains(what), "{m}");
    }
}

#[test]
fn the_direct_writer_refuses_records_that_are_not_sound_and_keeps_nothing_of_them() {
    let ddl = Ddl::new("module t { class R { int n; ustring s; } }");
    let binary = ddl.binary("t.R", &[json!({"n": 1024, "s": "abc"})]);
    let transcoder = ddl.transcoder("t.R").unwrap();
    let mut w = AvroRecordWriter::new(Vec::new(), &transcoder, AvroCodec::Null).unwrap();
    // Cut short: the reader's error, at its byte.
    let e = w
        .write_record(&mut RawInput::new(&binary[..5]))
        .unwrap_err();
    let Error::Record(e) = e else { panic!("{e}") };
    assert_eq!(e.kind(), hadoop_record::ErrorKind::UnexpectedEof);
    // A payload with bytes after its record, and a string Hadoop refuses.
    let trailing = [binary.clone(), vec![0]].concat();
    assert!(matches!(w.write_payload(&trailing), Err(Error::Record(_))));
    let bad = [&binary[..3], b"\x03\xef\xbf\xbf"].concat();
    let e = w.write_payload(&bad).unwrap_err();
    assert!(e.to_string().contains("U+FFFE or U+FFFF"), "{e}");
    w.write_payload(&binary).unwrap();
    let file = w.finish().unwrap();
    assert_eq!(ddl.direct_binary("t.R", &file).unwrap(), binary);
}

/// Java Avro 1.12.2 reads what the direct way writes, in every codec, to the records of
/// `t.All` without its maps, and the direct way reads Java's files of them, in every codec,
/// back to the same binary records.
#[test]
fn java_avro_reads_what_the_direct_way_writes_and_the_direct_way_reads_javas() {
    if interop_tests::tools::skipped("the direct Avro way with Java Avro") {
        return;
    }
    let jdk = interop_tests::java::jdk();
    let (work, classpath) =
        interop_tests::java::driver_classpath(&jdk, "avro", "the Avro drivers (Avro 1.12.2)");
    let ddl = Ddl::new(&ALL.replace(
        "map<ustring, long> sm; map<int, ustring> im; map<Key, Point> km; map<double, byte> dm;
        map<ustring, map<long, buffer>> nested;",
        "",
    ));
    let values: Vec<Json> = all_values()
        .into_iter()
        .map(|mut v| {
            for map in ["sm", "im", "km", "dm", "nested"] {
                v.as_object_mut().unwrap().remove(map);
            }
            v
        })
        .collect();
    let binary = ddl.binary("t.All", &values);
    let dir = tempfile::tempdir_in(&work).unwrap();
    for ours in AvroCodec::ALL {
        let src = dir.path().join(format!("direct.{ours}.avro"));
        std::fs::write(&src, ddl.direct_file("t.All", &binary, ours)).unwrap();
        let java = dir.path().join("java");
        let text = java_containers(&jdk, &classpath, &src, &java);
        let records: Vec<Json> = text
            .lines()
            .filter_map(|l| l.strip_prefix("record "))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 3, "{ours}");
        assert_eq!(
            (&records[0]["b"], &records[0]["l"]),
            (&json!(-128), &json!(i64::MAX))
        );
        assert_eq!(
            records[0]["vp"],
            json!([{"x": 1, "y": 2}, {"x": -3, "y": 4}])
        );
        for theirs in AvroCodec::ALL {
            let file = std::fs::read(java.with_extension(theirs.name())).unwrap();
            assert_eq!(
                ddl.direct_binary("t.All", &file).unwrap(),
                binary,
                "Java's {theirs} file of the direct way's {ours} file"
            );
        }
    }
}

/// An output that takes `left` writes, then fails every one.
struct FailingAfter {
    left: usize,
    written: Vec<u8>,
}

impl std::io::Write for FailingAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("the disk is full"));
        }
        self.left -= 1;
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An output that fails at its n-th write, for every n: the direct writer reports it (at
/// `new`, a record or `finish`), never reports a whole file; so do blocks compressed on
/// worker threads (deflate), whose file is the one written on one thread.
#[test]
fn the_direct_writer_reports_an_output_that_fails_at_any_write() {
    let ddl = Ddl::new("module t { class R { int n; ustring s; } }");
    let values: Vec<Json> = (0..30_000)
        .map(|n| json!({"n": n, "s": "y".repeat(n % 50)}))
        .collect();
    let binary = ddl.binary("t.R", &values);
    let transcoder = ddl.transcoder("t.R").unwrap();
    for codec in [AvroCodec::Null, AvroCodec::Deflate] {
        let whole = ddl.direct_file("t.R", &binary, codec);
        let batches = ddl.batches("t.R", &binary, 1 << 20);
        let arrow = write(&ddl.avsc("t.R"), ddl.arrow("t.R"), &batches, codec);
        assert_eq!(without_sync(&whole), without_sync(&arrow), "{codec}");
        let mut n = 0;
        loop {
            let out = FailingAfter {
                left: n,
                written: Vec::new(),
            };
            let written = AvroRecordWriter::new(out, &transcoder, codec).and_then(|mut w| {
                let mut input = RawInput::new(&binary);
                while !input.remaining().is_empty() {
                    w.write_record(&mut input)?;
                }
                w.finish()
            });
            match written {
                Ok(out) => {
                    let (got, want) = (without_sync(&out.written), without_sync(&whole));
                    assert!(got == want, "{codec}, {n} writes: the whole file");
                    break;
                }
                Err(e) => assert!(matches!(e, Error::Io(_)), "{codec}, {n} writes: {e}"),
            }
            n += 1;
            assert!(n < 1000, "the file is written in fewer writes");
        }
        assert!(n > 6, "{codec}, {n} writes: several blocks");
    }
}
