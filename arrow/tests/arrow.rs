//! Records → Arrow → records, against the runtime: for every record type of the Hadoop Java
//! fixtures, the java_shapes set and the names stress corpus, in every encoding, directly,
//! through the Arrow IPC file format and through Parquet, the bytes written back are the
//! bytes the runtime writes for the values it reads; bad input fails as the runtime's
//! reader fails; what Hadoop cannot hold fails to encode, naming the row and the column.

use std::io::Cursor;
use std::sync::{Arc, OnceLock};

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{
    Array, ArrayRef, Int32Array, Int64Array, LargeStringArray, ListArray, MapArray, RecordBatch,
    StringArray, StructArray,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema};
use fixture_harness::arb::{self, Arb};
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};
use hadoop_record_arrow::mapping::TYPE_KEY;
use hadoop_record_arrow::{BatchDecoder, BatchEncoder, BatchReader, DecodeOptions, EncodeOptions};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const FORMATS: [Format; 4] = [Format::Binary, Format::Csv, Format::Xml, Format::Jute];

/// How batches travel between decoding and encoding.
#[derive(Debug, Clone, Copy)]
enum Through {
    Memory,
    Ipc,
    Parquet,
}

const THROUGH: [Through; 3] = [Through::Memory, Through::Ipc, Through::Parquet];

/// What the runtime writes in `to` for the records it reads from `bytes` in `from`; the
/// error message when reading fails.
fn runtime_rewrite(
    schema: &Schema,
    id: RecordId,
    bytes: &[u8],
    from: Format,
    to: Format,
) -> Result<Vec<u8>, String> {
    let mut reader = RecordReader::new(bytes, from);
    let mut writer = RecordWriter::new(Vec::new(), to);
    loop {
        match reader.read_value(schema, id) {
            Ok(Some(v)) => writer
                .write_value(schema, id, &v)
                .map_err(|e| e.to_string())?,
            Ok(None) => break,
            Err(e) => return Err(e.to_string()),
        }
    }
    writer.into_inner().map_err(|e| e.to_string())
}

/// The batches, after a trip `through`.
fn travel(
    schema: arrow_schema::SchemaRef,
    batches: Vec<RecordBatch>,
    through: Through,
) -> Vec<RecordBatch> {
    match through {
        Through::Memory => batches,
        Through::Ipc => {
            let mut file = Vec::new();
            let mut w = arrow_ipc::writer::FileWriter::try_new(&mut file, &schema).unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            w.finish().unwrap();
            drop(w);
            let r = arrow_ipc::reader::FileReader::try_new(Cursor::new(file), None).unwrap();
            assert_eq!(r.schema(), schema, "IPC keeps the schema and its metadata");
            r.collect::<Result<_, _>>().unwrap()
        }
        Through::Parquet => {
            let mut file = Vec::new();
            let mut w =
                parquet::arrow::ArrowWriter::try_new(&mut file, schema.clone(), None).unwrap();
            for b in &batches {
                w.write(b).unwrap();
            }
            w.close().unwrap();
            let r = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
                bytes::Bytes::from(file),
            )
            .unwrap()
            .build()
            .unwrap();
            r.collect::<Result<_, _>>().unwrap()
        }
    }
}

/// One trip: records in `from` → batches of `batch_size` → `through` → records in `to`.
#[derive(Debug, Clone, Copy)]
struct Trip {
    from: Format,
    to: Format,
    batch_size: usize,
    through: Through,
    nullable: bool,
    /// The record's strings as `Utf8View` columns.
    string_view: bool,
}

/// Takes `bytes` on `trip`.
fn arrow_rewrite(
    schema: &Arc<Schema>,
    id: RecordId,
    bytes: &[u8],
    trip: Trip,
) -> Result<Vec<u8>, String> {
    let Trip {
        from,
        to,
        batch_size,
        through,
        nullable,
        string_view,
    } = trip;
    let options = DecodeOptions::default()
        .with_batch_size(batch_size)
        .with_nullable(nullable)
        .with_string_view(string_view);
    let reader = BatchReader::new(bytes, from, schema.clone(), id, options).unwrap();
    let arrow_schema = reader.decoder().schema();
    let mut batches = Vec::new();
    for b in reader {
        match b {
            Ok(b) => {
                assert!(b.num_rows() <= batch_size);
                batches.push(b)
            }
            Err(e) => return Err(hadoop_record_arrow::Error::from(e).to_string()),
        }
    }
    let batches = travel(arrow_schema, batches, through);
    let mut encoder = BatchEncoder::new(
        schema.clone(),
        id,
        EncodeOptions::default().with_nullable(nullable),
    )
    .unwrap();
    let mut writer = RecordWriter::new(Vec::new(), to);
    for b in &batches {
        encoder
            .write_batch(b, &mut writer)
            .map_err(|e| e.to_string())?;
    }
    Ok(writer.into_inner().unwrap())
}

/// Every way through Arrow gives what the runtime gives, for `bytes` in `from`.
fn check_all_ways(schema: &Arc<Schema>, id: RecordId, bytes: &[u8], from: Format, what: &str) {
    for to in FORMATS {
        let want = runtime_rewrite(schema, id, bytes, from, to);
        for (i, through) in THROUGH.into_iter().enumerate() {
            let batch_size = [1, 2, 1000][i];
            let trip = Trip {
                from,
                to,
                batch_size,
                through,
                nullable: false,
                // Strings as views on one way of three.
                string_view: i == 1,
            };
            let got = arrow_rewrite(schema, id, bytes, trip);
            match (&want, &got) {
                (Ok(w), Ok(g)) => assert!(
                    w == g,
                    "{what}: {from} → {through:?} → {to}:\nwant {:?}\ngot  {:?}",
                    String::from_utf8_lossy(w),
                    String::from_utf8_lossy(g)
                ),
                // The runtime refuses a value in this encoding (binary and U+FFFE): so do we.
                (Err(w), Err(g)) if w == g => {}
                (Err(w), Err(g)) => {
                    // Read errors must be word for word; write errors may be phrased
                    // alike with our own path root.
                    assert_eq!(w, g, "{what}: {from} → {through:?} → {to}");
                }
                _ => panic!("{what}: {from} → {through:?} → {to}: runtime {want:?}, arrow {got:?}"),
            }
        }
    }
}

fn fixture_schema() -> &'static Arc<Schema> {
    static S: OnceLock<Arc<Schema>> = OnceLock::new();
    S.get_or_init(|| Arc::new(fixture_harness::schema().clone()))
}

fn shapes_schema() -> &'static Arc<Schema> {
    static S: OnceLock<Arc<Schema>> = OnceLock::new();
    S.get_or_init(|| Arc::new(fixture_harness::shapes_schema().clone()))
}

#[test]
fn every_hadoop_java_fixture_round_trips_through_arrow_and_parquet() {
    let schema = fixture_schema();
    for case in &fixture_harness::hadoop_java().cases {
        let from = case.encoding.format();
        check_all_ways(schema, case.record_id(), &case.bytes(), from, &case.name);
    }
}

#[test]
fn every_java_shapes_case_round_trips_through_arrow_and_parquet() {
    let schema = shapes_schema();
    let shapes = fixture_harness::java_shapes();
    for case in &shapes.cases {
        let id = fixture_harness::shapes_id(&case.record_type);
        check_all_ways(
            schema,
            id,
            &shapes.bytes(case),
            case.encoding.format(),
            &case.name,
        );
    }
}

#[test]
fn every_fixture_in_jute_round_trips() {
    let schema = fixture_schema();
    for case in fixture_harness::hadoop_java().cases_in(fixture_harness::Encoding::Binary) {
        let jute = runtime_rewrite(
            schema,
            case.record_id(),
            &case.bytes(),
            Format::Binary,
            Format::Jute,
        )
        .unwrap();
        check_all_ways(schema, case.record_id(), &jute, Format::Jute, &case.name);
    }
}

/// The names stress corpus, as the compiler reads it.
fn stress_schema() -> &'static Arc<Schema> {
    static S: OnceLock<Arc<Schema>> = OnceLock::new();
    S.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../compiler/tests/ddl/names/stress.jr"
        );
        let model = hadoop_record_compiler::load(&[path], &Default::default())
            .unwrap_or_else(|_| panic!("stress.jr loads"));
        Arc::new(model.to_schema().schema().clone())
    })
}

/// Random values of every record type of `schema`, written by the runtime in every format,
/// round-trip every way.
fn random_values_round_trip(schema: &'static Arc<Schema>, per_type: usize, arb: Arb) {
    let static_schema: &'static Schema = schema;
    let mut runner = TestRunner::deterministic();
    for i in 0..schema.records().len() {
        let id = schema
            .find(&schema.records()[i].full_name())
            .expect("full names are unique");
        let strategy = arb::value(static_schema, &FieldType::Record(id), arb);
        let values: Vec<Value> = (0..per_type)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect();
        for from in FORMATS {
            let mut writer = RecordWriter::new(Vec::new(), from);
            let written = values
                .iter()
                .try_for_each(|v| writer.write_value(schema, id, v));
            if written.is_err() {
                continue; // U+FFFE in binary: the runtime refuses to write it
            }
            let bytes = writer.into_inner().unwrap();
            let name = schema.records()[i].full_name();
            check_all_ways(schema, id, &bytes, from, &name);
        }
    }
}

#[test]
fn the_names_stress_corpus_round_trips_through_arrow_and_parquet() {
    random_values_round_trip(stress_schema(), 3, Arb::any());
}

#[test]
fn random_java_shapes_values_round_trip() {
    random_values_round_trip(shapes_schema(), 4, Arb::any().large());
}

proptest! {
    #![proptest_config(Config { cases: 48, ..Config::default() })]

    /// Maps in any order with repeated keys, any strings: the decoder puts the entries into
    /// Hadoop's order as the runtime's writer does.
    #[test]
    fn random_fixture_values_round_trip(
        (id, values) in fixture_records(Arb::any()),
        from in proptest::sample::select(FORMATS.to_vec()),
    ) {
        let schema = fixture_schema();
        let mut writer = RecordWriter::new(Vec::new(), from);
        prop_assume!(values.iter().try_for_each(|v| writer.write_value(schema, id, v)).is_ok());
        let bytes = writer.into_inner().unwrap();
        check_all_ways(schema, id, &bytes, from, "random");
    }

    /// jute's nulls, with the nullable mapping.
    #[test]
    fn random_jute_values_with_nulls_round_trip((id, values) in fixture_records(Arb::any().nulls(true))) {
        let schema = fixture_schema();
        let mut writer = RecordWriter::new(Vec::new(), Format::Jute);
        for v in &values {
            writer.write_value(schema, id, v).unwrap();
        }
        let bytes = writer.into_inner().unwrap();
        for to in [Format::Jute, Format::Csv] {
            let want = runtime_rewrite(schema, id, &bytes, Format::Jute, to).unwrap();
            for (i, through) in THROUGH.into_iter().enumerate() {
                let trip = Trip {
                    from: Format::Jute, to, batch_size: 3, through, nullable: true, string_view: i != 1,
                };
                let got = arrow_rewrite(schema, id, &bytes, trip);
                prop_assert_eq!(&got, &Ok(want.clone()), "{:?} → {}", through, to);
            }
        }
    }
}

/// A fixture record type and a few values of it.
fn fixture_records(arb: Arb) -> impl Strategy<Value = (RecordId, Vec<Value>)> {
    let schema: &'static Schema = fixture_schema();
    let ids: Vec<RecordId> = (0..schema.records().len())
        .map(|i| schema.find(&schema.records()[i].full_name()).unwrap())
        .collect();
    proptest::sample::select(ids).prop_flat_map(move |id| {
        let value = arb::value(schema, &FieldType::Record(id), arb);
        (Just(id), proptest::collection::vec(value, 0..4))
    })
}

#[test]
fn every_prefix_of_a_stream_fails_as_the_runtime_reader_fails() {
    let schema = fixture_schema();
    let case = fixture_harness::hadoop_java().case("stream_outer_x2.binary");
    for from in [Format::Binary, Format::Csv, Format::Xml, Format::Jute] {
        let bytes = runtime_rewrite(
            schema,
            case.record_id(),
            &case.bytes(),
            Format::Binary,
            from,
        )
        .unwrap();
        for end in 0..bytes.len() {
            let prefix = &bytes[..end];
            let want = runtime_rewrite(schema, case.record_id(), prefix, from, Format::Binary);
            let trip = Trip {
                from,
                to: Format::Binary,
                batch_size: 1,
                through: Through::Memory,
                nullable: false,
                string_view: end % 2 == 1,
            };
            let got = arrow_rewrite(schema, case.record_id(), prefix, trip);
            assert_eq!(got, want, "{from}, first {end} bytes");
        }
    }
}

/// A schema of the one record `t.name` with `fields`.
fn one_record(name: &str, fields: Vec<FieldDef>) -> (Arc<Schema>, RecordId) {
    let mut s = Schema::new();
    let id = s
        .add(RecordType {
            module: "t".into(),
            name: name.into(),
            fields,
        })
        .unwrap();
    (Arc::new(s), id)
}

/// `Rec { id: int, name: ustring, tags: vector<ustring>, m: map<ustring, int> }`.
fn small() -> (Arc<Schema>, RecordId) {
    one_record(
        "Rec",
        vec![
            FieldDef::new("id", FieldType::Int),
            FieldDef::new("name", FieldType::String),
            FieldDef::new("tags", FieldType::Vector(Box::new(FieldType::String))),
            FieldDef::new(
                "m",
                FieldType::Map(Box::new(FieldType::String), Box::new(FieldType::Int)),
            ),
        ],
    )
}

#[test]
fn projection_skips_fields_and_gives_the_same_columns() {
    let (schema, id) = small();
    let csv = b"1,'a,v{'x,'y},m{'k,1}\n2,'b,v{},m{}\n";
    let bin = runtime_rewrite(&schema, id, csv, Format::Csv, Format::Binary).unwrap();
    for (bytes, format) in [(&csv[..], Format::Csv), (&bin[..], Format::Binary)] {
        let full: Vec<RecordBatch> =
            BatchReader::new(bytes, format, schema.clone(), id, DecodeOptions::default())
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        let options = DecodeOptions::default().with_projection(Some(vec![3, 0]));
        let reader = BatchReader::new(bytes, format, schema.clone(), id, options).unwrap();
        assert_eq!(reader.decoder().schema().fields().len(), 2);
        let projected: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
        assert_eq!(projected[0].column(0), full[0].column(3));
        assert_eq!(projected[0].column(1), full[0].column(0));
        assert_eq!(projected[0].schema().field(0).name(), "m");
        // No column at all: rows are still counted.
        let options = DecodeOptions::default().with_projection(Some(vec![]));
        let counted: Vec<RecordBatch> =
            BatchReader::new(bytes, format, schema.clone(), id, options)
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        assert_eq!(counted[0].num_rows(), 2);
        assert_eq!(counted[0].num_columns(), 0);
    }
    // Binary: a skipped string is stepped over unchecked (invalid UTF-8 is not looked at).
    let mut bad = bin.clone();
    let at = bad.iter().position(|&b| b == b'a').unwrap();
    bad[at] = 0xff;
    let options = DecodeOptions::default().with_projection(Some(vec![0]));
    let ids: Vec<RecordBatch> =
        BatchReader::new(&bad[..], Format::Binary, schema.clone(), id, options)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    assert_eq!(
        ids[0].column(0).as_primitive::<Int32Type>().values(),
        &[1, 2]
    );
    let e = BatchReader::new(
        &bad[..],
        Format::Binary,
        schema.clone(),
        id,
        DecodeOptions::default(),
    )
    .unwrap()
    .next_batch()
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 0, byte 2, in Rec.name: invalid UTF-8 in string"
    );
    // Bad projections.
    for (p, want) in [
        (vec![4], "there is no field 4"),
        (vec![1, 1], "field 1 is asked for twice"),
    ] {
        let options = DecodeOptions::default().with_projection(Some(p));
        let e = BatchDecoder::new(schema.clone(), id, options).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }
}

#[test]
fn a_failed_record_leaves_nothing_behind_and_payloads_hold_one_record() {
    let (schema, id) = small();
    let mut d = BatchDecoder::new(schema.clone(), id, DecodeOptions::default()).unwrap();
    d.decode_payload(b"1,'a,v{'x},m{'k,1}\n", Format::Csv)
        .unwrap();
    // Fails inside the map, after the vector went into its column.
    let e = d
        .decode_payload(b"2,'b,v{'y,'z},m{'k,x}\n", Format::Csv)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 1, line 1:20, in Rec.m[0]: expected an int, found `x`"
    );
    let e = d
        .decode_payload(b"3,'c,v{},m{}\n4,'d,v{},m{}\n", Format::Csv)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 1, line 2:1: more bytes after the record (a payload holds one record)"
    );
    let e = d.decode_payload(b"", Format::Binary).unwrap_err();
    assert!(e.to_string().contains("the payload is empty"), "{e}");
    d.decode_payload(b"5,'e,v{'w},m{}\n", Format::Csv).unwrap();
    assert_eq!(d.len(), 2);
    let batch = d.flush().unwrap().unwrap();
    let mut w = RecordWriter::new(Vec::new(), Format::Csv);
    BatchEncoder::new(schema, id, EncodeOptions::default())
        .unwrap()
        .write_batch(&batch, &mut w)
        .unwrap();
    assert_eq!(
        w.into_inner().unwrap(),
        b"1,'a,v{'x},m{'k,1}\n5,'e,v{'w},m{}\n"
    );
    assert!(d.flush().unwrap().is_none());
}

/// With `string_view`, the record's own strings are `Utf8View` columns holding what `Utf8`
/// ones hold, short (inline in the view) and long, through the flat plan of binary payloads
/// and the general path; a record taken back leaves no view behind.
#[test]
fn string_views_hold_what_utf8_holds() {
    let (schema, id) = one_record(
        "Flat",
        vec![
            FieldDef::new("n", FieldType::Int),
            FieldDef::new("s", FieldType::String),
        ],
    );
    let strings = [
        "",
        "short",
        "twelve bytes",
        "thirteen byte",
        "ünïcode, longer ✓",
    ];
    let payloads: Vec<Vec<u8>> = strings
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let mut w = RecordWriter::new(Vec::new(), Format::Binary);
            let record = Value::Record(vec![Value::Int(n as i32), Value::String(s.to_string())]);
            w.write_value(&schema, id, &record).unwrap();
            w.into_inner().unwrap()
        })
        .collect();
    for flat in [true, false] {
        // Only the string: the flat plan; both fields of a CSV payload: the general path.
        let options = DecodeOptions::default()
            .with_string_view(true)
            .with_projection(flat.then(|| vec![1]));
        let mut d = BatchDecoder::new(schema.clone(), id, options).unwrap();
        assert_eq!(
            d.schema().fields().last().unwrap().data_type(),
            &DataType::Utf8View
        );
        for (k, payload) in payloads.iter().enumerate() {
            // Each record once with a byte too many (taken back), then as it is.
            let mut longer = payload.clone();
            longer.push(0);
            if flat {
                d.decode_payload(&longer, Format::Binary).unwrap_err();
                d.decode_payload(payload, Format::Binary).unwrap();
            } else {
                let csv = runtime_rewrite(&schema, id, payload, Format::Binary, Format::Csv);
                let csv = csv.unwrap();
                let mut longer = csv.clone();
                longer.extend_from_slice(b"x");
                d.decode_payload(&longer, Format::Csv).unwrap_err();
                d.decode_payload(&csv, Format::Csv).unwrap();
            }
            assert_eq!(d.len(), k + 1);
        }
        let batch = d.flush().unwrap().unwrap();
        let views = batch.columns().last().unwrap().as_string_view();
        let got: Vec<&str> = views.iter().map(Option::unwrap).collect();
        assert_eq!(got, strings, "flat plan: {flat}");
    }
}

/// Encodes `batch` as `Rec` records in CSV: the bytes, or the error.
fn encode_csv(batch: &RecordBatch) -> Result<String, String> {
    let (schema, id) = small();
    let mut w = RecordWriter::new(Vec::new(), Format::Csv);
    let r = BatchEncoder::new(schema, id, EncodeOptions::default())
        .unwrap()
        .write_batch(batch, &mut w);
    let bytes = w.into_inner().unwrap();
    r.map(|()| String::from_utf8(bytes).unwrap())
        .map_err(|e| e.to_string())
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    RecordBatch::try_new(
        Arc::new(ArrowSchema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap()
}

fn string_map(offsets: Vec<i32>, keys: Vec<&str>, values: Vec<i32>) -> ArrayRef {
    let fields = Fields::from(vec![
        Field::new("k", DataType::Utf8, false),
        Field::new("v", DataType::Int32, true),
    ]);
    let entries = StructArray::try_new(
        fields.clone(),
        vec![
            Arc::new(StringArray::from(keys)),
            Arc::new(Int32Array::from(values)),
        ],
        None,
    )
    .unwrap();
    Arc::new(
        MapArray::try_new(
            Arc::new(Field::new("kv", DataType::Struct(fields), false)),
            OffsetBuffer::new(offsets.into()),
            entries,
            None,
            false,
        )
        .unwrap(),
    )
}

fn tags(values: Vec<Option<Vec<Option<&str>>>>) -> ArrayRef {
    Arc::new(ListArray::from_iter_primitive::<Int32Type, _, _>(
        values.iter().map(|v| {
            v.as_ref().map(|v| {
                v.iter()
                    .map(|s| s.map(|s| s.len() as i32))
                    .collect::<Vec<_>>()
            })
        }),
    ))
}

fn string_tags(values: Vec<Vec<&str>>) -> ArrayRef {
    let lens: Vec<usize> = values.iter().map(Vec::len).collect();
    let flat: Vec<&str> = values.into_iter().flatten().collect();
    Arc::new(ListArray::new(
        Arc::new(Field::new("element", DataType::Utf8, true)),
        OffsetBuffer::from_lengths(lens),
        Arc::new(StringArray::from(flat)),
        None,
    ))
}

#[test]
fn other_tools_batches_encode_when_equivalent_and_fail_clearly_otherwise() {
    let ids: ArrayRef = Arc::new(Int32Array::from(vec![1, 2]));
    let names: ArrayRef = Arc::new(LargeStringArray::from(vec!["a", "b"]));
    let good = batch(vec![
        ("m", string_map(vec![0, 2, 2], vec!["a", "b"], vec![1, 2])),
        ("name", names.clone()),
        ("tags", string_tags(vec![vec!["x"], vec![]])),
        ("id", ids.clone()),
    ]);
    assert_eq!(
        encode_csv(&good).unwrap(),
        "1,'a,v{'x},m{'a,1,'b,2}\n2,'b,v{},m{}\n"
    );

    let cases: Vec<(RecordBatch, &str)> = vec![
        (
            batch(vec![
                ("m", string_map(vec![0, 0, 2], vec!["b", "a"], vec![1, 2])),
                ("name", names.clone()),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", ids.clone()),
            ]),
            "record 1, in Rec.m[1]: its key sorts before the one before it",
        ),
        (
            batch(vec![
                ("m", string_map(vec![0, 2, 2], vec!["a", "a"], vec![1, 2])),
                ("name", names.clone()),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", ids.clone()),
            ]),
            "record 0, in Rec.m[1]: its key equals the one before it",
        ),
        (
            batch(vec![
                ("m", string_map(vec![0, 0, 0], vec![], vec![])),
                ("name", Arc::new(StringArray::from(vec![Some("a"), None]))),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", ids.clone()),
            ]),
            "record 1, in Rec.name: a null, which Hadoop's ustring cannot hold",
        ),
        (
            batch(vec![
                ("m", string_map(vec![0, 0, 0], vec![], vec![])),
                ("name", names.clone()),
                ("tags", tags(vec![Some(vec![]), None])),
                ("id", ids.clone()),
            ]),
            "in Rec.tags: Hadoop `ustring` is Arrow Utf8 (or an equivalent type), but the column is Int32",
        ),
        (
            batch(vec![
                ("m", string_map(vec![0, 0, 0], vec![], vec![])),
                ("name", names.clone()),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", Arc::new(Int64Array::from(vec![1, 2]))),
            ]),
            "in Rec.id: Hadoop `int` is Arrow Int32 (or an equivalent type), but the column is Int64",
        ),
        (
            batch(vec![
                ("name", names.clone()),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", ids.clone()),
            ]),
            "in Rec: no column for field `m` (map<ustring, int>) of t.Rec",
        ),
        (
            batch(vec![
                ("m", string_map(vec![0, 0, 0], vec![], vec![])),
                ("name", names.clone()),
                ("tags", string_tags(vec![vec![], vec![]])),
                ("id", ids.clone()),
                ("extra", ids.clone()),
            ]),
            "in Rec: column `extra` is not a field of t.Rec (its fields: id, name, tags, m)",
        ),
    ];
    for (b, want) in cases {
        let e = encode_csv(&b).unwrap_err();
        assert!(e.contains(want), "want {want:?} in\n{e}");
    }
    // A column whose metadata names another Hadoop type.
    let b = batch(vec![
        ("m", string_map(vec![0, 0, 0], vec![], vec![])),
        ("name", names),
        ("tags", string_tags(vec![vec![], vec![]])),
        ("id", ids),
    ]);
    let mut fields: Vec<Field> = b.schema().fields().iter().map(|f| (**f).clone()).collect();
    fields[3].set_metadata([(TYPE_KEY.to_owned(), "byte".to_owned())].into());
    let b = RecordBatch::try_new(Arc::new(ArrowSchema::new(fields)), b.columns().to_vec()).unwrap();
    let e = encode_csv(&b).unwrap_err();
    assert!(
        e.contains("holds Hadoop `byte` (its metadata says), not `int`"),
        "{e}"
    );
}

/// `Tree { label: ustring, kids: vector<Tree>, by_name: map<ustring, Tree> }`.
fn tree() -> (Arc<Schema>, RecordId) {
    let mut s = Schema::new();
    let tree = s.declare("t", "Tree");
    let fields = vec![
        FieldDef::new("label", FieldType::String),
        FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(tree)))),
        FieldDef::new(
            "by_name",
            FieldType::Map(Box::new(FieldType::Record(tree)), Box::new(FieldType::Int)),
        ),
    ];
    s.define(tree, fields).unwrap();
    (Arc::new(s), tree)
}

#[test]
fn recursive_records_round_trip_as_bytes_of_the_sub_record() {
    let (schema, id) = tree();
    let leaf = |l: &str| {
        Value::Record(vec![
            Value::String(l.into()),
            Value::Vector(vec![]),
            Value::Map(vec![]),
        ])
    };
    let node = Value::Record(vec![
        Value::String("root".into()),
        Value::Vector(vec![
            leaf("a"),
            Value::Record(vec![
                Value::String("b".into()),
                Value::Vector(vec![leaf("c")]),
                Value::Map(vec![(leaf("z"), Value::Int(1)), (leaf("y"), Value::Int(2))]),
            ]),
        ]),
        Value::Map(vec![(leaf("q"), Value::Int(3)), (leaf("p"), Value::Int(4))]),
    ]);
    for from in FORMATS {
        let mut w = RecordWriter::new(Vec::new(), from);
        w.write_value(&schema, id, &node).unwrap();
        w.write_value(&schema, id, &leaf("solo")).unwrap();
        let bytes = w.into_inner().unwrap();
        check_all_ways(&schema, id, &bytes, from, "tree");
    }
    let reader = BatchReader::new(
        &b""[..],
        Format::Binary,
        schema.clone(),
        id,
        DecodeOptions::default(),
    )
    .unwrap();
    let arrow = reader.decoder().schema();
    let DataType::List(item) = arrow.field(1).data_type() else {
        panic!()
    };
    assert_eq!(item.data_type(), &DataType::Binary);
    assert_eq!(item.metadata()["hadoop.encoding"], "binary");
}

#[test]
fn a_stream_reads_in_batches_and_reports_the_error_after_the_good_rows() {
    let (schema, id) = small();
    let csv = b"1,'a,v{},m{}\n2,'b,v{},m{}\n3,'c,v{},m{}\n4,x\n";
    let options = DecodeOptions::default().with_batch_size(2);
    let mut reader = BatchReader::new(&csv[..], Format::Csv, schema, id, options).unwrap();
    assert_eq!(reader.next().unwrap().unwrap().num_rows(), 2);
    assert_eq!(reader.next().unwrap().unwrap().num_rows(), 1);
    let e = hadoop_record_arrow::Error::from(reader.next().unwrap().unwrap_err());
    let record = e.as_record().expect("a record error");
    assert_eq!(record.record(), Some(3));
    assert_eq!(record.path(), "Rec.name");
    assert!(reader.next().is_none());
}

#[test]
fn batches_have_the_mapping_types_and_metadata() {
    let schema = fixture_schema();
    let case = fixture_harness::hadoop_java().case("stream_outer_x2.binary");
    let bytes = case.bytes();
    let reader = BatchReader::new(
        &bytes[..],
        Format::Binary,
        schema.clone(),
        case.record_id(),
        DecodeOptions::default(),
    )
    .unwrap();
    let arrow = reader.decoder().schema();
    assert_eq!(arrow.metadata()["hadoop.record"], "oracle.composite.Outer");
    assert_eq!(
        arrow.metadata()["hadoop.signature"],
        fixture_harness::hadoop_java().signatures["oracle.composite.Outer"]
    );
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(batches[0].schema(), arrow);
    let containers = batches[0].column_by_name("c").unwrap().as_struct();
    let msi = containers.column_by_name("msi").unwrap();
    assert!(matches!(msi.data_type(), DataType::Map(_, false)));
    assert_eq!(
        arrow.field_with_name("c").unwrap().metadata()[TYPE_KEY],
        "oracle.composite.Containers"
    );
    assert_eq!(msi.null_count(), 0);
}

/// DataFusion moves decoders and readers between threads.
#[test]
fn decoders_readers_and_encoders_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<BatchDecoder>();
    send_sync::<BatchReader<std::fs::File>>();
    send_sync::<BatchEncoder>();
    send_sync::<hadoop_record_arrow::encode::Rows>();
    send_sync::<hadoop_record_arrow::Error>();
}

/// `Flat { byte a; boolean b; int i; long l; float f; double d; }`, which binary payloads
/// decode by the fast plan, and `Mixed { int i; buffer s; vector<long> v; double d; }`,
/// which they decode on the general path. (No `ustring`: one not asked for is skipped
/// without its UTF-8 check, on purpose, which the runtime's reader makes.)
fn payload_schema() -> &'static Arc<Schema> {
    static SCHEMA: OnceLock<Arc<Schema>> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut s = Schema::new();
        for (name, fields) in [
            (
                "Flat",
                vec![
                    ("a", FieldType::Byte),
                    ("b", FieldType::Bool),
                    ("i", FieldType::Int),
                    ("l", FieldType::Long),
                    ("f", FieldType::Float),
                    ("d", FieldType::Double),
                ],
            ),
            (
                "Mixed",
                vec![
                    ("i", FieldType::Int),
                    ("s", FieldType::Buffer),
                    ("v", FieldType::Vector(Box::new(FieldType::Long))),
                    ("d", FieldType::Double),
                ],
            ),
        ] {
            // And its twin with a `long` for the `int` (records whose `i` does not fit).
            let wide = fields
                .iter()
                .map(|(n, t)| match t {
                    FieldType::Int => (*n, FieldType::Long),
                    t => (*n, t.clone()),
                })
                .collect::<Vec<_>>();
            for (name, fields) in [(name.to_string(), fields), (format!("{name}Wide"), wide)] {
                s.add(RecordType {
                    module: "t".into(),
                    name,
                    fields: fields
                        .into_iter()
                        .map(|(n, t)| FieldDef::new(n, t))
                        .collect(),
                })
                .unwrap();
            }
        }
        Arc::new(s)
    })
}

/// A record type of [`payload_schema`], binary payloads of it (records as written, with an
/// `int` of more than 32 bits, cut short, with bytes after them, with a byte changed, or any
/// bytes at all) and a projection.
fn binary_payloads() -> impl Strategy<Value = (RecordId, Vec<Vec<u8>>, Vec<usize>)> {
    prop_oneof![Just("t.Flat"), Just("t.Mixed")].prop_flat_map(|name| {
        let schema = payload_schema();
        let id = schema.find(name).unwrap();
        let written = |id| {
            arb::value(schema, &FieldType::Record(id), Arb::any()).prop_map(move |v| {
                let mut w = RecordWriter::new(Vec::new(), Format::Binary);
                w.write_value(payload_schema(), id, &v).unwrap();
                w.into_inner().unwrap()
            })
        };
        let record = written(id);
        let payload = prop_oneof![
            4 => record.clone(),
            1 => written(schema.find(&format!("{name}Wide")).unwrap()),
            1 => (record.clone(), any::<prop::sample::Index>()).prop_map(|(mut r, at)| {
                r.truncate(at.index(r.len()));
                r
            }),
            1 => (record.clone(), prop::collection::vec(any::<u8>(), 1..4)).prop_map(
                |(mut r, more)| {
                    r.extend(more);
                    r
                }
            ),
            1 => (record, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(mut r, at, b)| {
                let at = at.index(r.len());
                r[at] = b;
                r
            }),
            1 => prop::collection::vec(any::<u8>(), 0..24),
        ];
        let fields: Vec<usize> = (0..schema.record(id).unwrap().fields.len()).collect();
        let n = fields.len();
        (
            Just(id),
            prop::collection::vec(payload, 1..40),
            prop::sample::subsequence(fields, 0..=n).prop_shuffle(),
        )
    })
}

proptest! {
    #![proptest_config(Config::with_cases(256))]

    /// Binary payloads are decoded straight from their bytes (flat records by a plan of
    /// their own); they must accept exactly what the runtime's reader accepts, fail with its
    /// error, and give the rows a stream of the accepted records gives, under any projection.
    #[test]
    fn binary_payloads_decode_as_the_stream_reader_reads(
        (id, payloads, projection) in binary_payloads(),
    ) {
        let schema = payload_schema();
        let options = DecodeOptions::default().with_projection(Some(projection));
        let mut decoder = BatchDecoder::new(schema.clone(), id, options.clone()).unwrap();
        let mut accepted = Vec::new();
        let mut n = 0;
        for p in &payloads {
            let got = decoder.decode_payload(p, Format::Binary).map_err(|e| e.to_string());
            let mut reader = RecordReader::from_slice(p, Format::Binary).numbered_from(n);
            let want = match reader.read_value(schema, id) {
                Err(e) => Err(e.to_string()),
                Ok(None) => Err(format!(
                    "record {n}, byte 0: the payload is empty (a payload holds one record)"
                )),
                Ok(Some(_)) if !reader.at_end().unwrap() => Err(format!(
                    "record {n}, {}: more bytes after the record (a payload holds one record)",
                    reader.position()
                )),
                Ok(Some(_)) => Ok(()),
            };
            prop_assert_eq!(&got, &want, "payload {:?}", p);
            if got.is_ok() {
                accepted.extend_from_slice(p);
                n += 1;
            }
        }
        let got = decoder.flush().unwrap();
        let want = BatchReader::new(&accepted[..], Format::Binary, schema.clone(), id, options)
            .unwrap()
            .next_batch()
            .unwrap();
        prop_assert_eq!(got, want);
    }
}
