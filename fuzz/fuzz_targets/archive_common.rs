//! Shared by the `binary_read` and `csv_read` targets: read arbitrary bytes as a stream of
//! records, typed (hand-written fixture records) and schema-driven; every error must carry a
//! position and a path rooted at the type name; whatever decoded must re-encode and decode
//! again to the same values.

use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Value};

use crate::fixture_records::{AllPrims, Containers, Outer, ToValue};

/// NaN payloads are canonicalised on write, as in Java: the test harness's `canon`.
#[path = "../../tests/harness/src/values.rs"]
#[allow(dead_code)]
mod values;
use values::canon;

fn check_error(e: &hadoop_record::Error, type_name: &str) {
    assert!(e.position().is_some(), "no position: {e}");
    assert!(e.path().starts_with(type_name), "path {e}");
    let _ = e.to_string();
}

fn typed<T: Record + ToValue>(data: &[u8], format: Format) {
    let mut records = Vec::new();
    for r in RecordReader::new(data, format).into_records::<T>() {
        match r {
            Ok(r) => records.push(r),
            Err(e) => check_error(&e, T::type_name()),
        }
    }
    let mut w = RecordWriter::new(Vec::new(), format);
    for r in &records {
        w.write(r).expect("what was read can be written");
    }
    let bytes = w.into_inner().unwrap();
    let back: Vec<T> = RecordReader::new(&bytes[..], format)
        .into_records()
        .collect::<Result<_, _>>()
        .expect("what was written reads back");
    assert_eq!(back.len(), records.len());
    for (b, r) in back.iter().zip(&records) {
        assert!(canon(&b.to_value()).bitwise_eq(&canon(&r.to_value())));
    }
}

/// `Node { vector<Node> kids; ustring tag }`: recursion, to reach the depth limit.
pub fn recursive() -> Schema {
    let mut s = Schema::new();
    let node = s.next_id();
    let fields = vec![
        FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(node)))),
        FieldDef::new("tag", FieldType::String),
    ];
    s.add(RecordType::new("fuzz", "Node", fields)).unwrap();
    s
}

/// `RecordReader::from_slice` (its buffer sized to the bytes) reads exactly as `new` does:
/// the same values, the same errors word for word.
fn same_from_slice(data: &[u8], format: Format, schema: &Schema, id: RecordId) {
    let outcome = |mut reader: RecordReader<&[u8]>| -> Vec<Result<Value, String>> {
        let items = reader.values(schema, id);
        items.map(|r| r.map_err(|e| e.to_string())).collect()
    };
    let expected = outcome(RecordReader::new(data, format));
    let got = outcome(RecordReader::from_slice(data, format));
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        match (g, e) {
            (Ok(g), Ok(e)) => assert!(g.bitwise_eq(e)),
            (Err(g), Err(e)) => assert_eq!(g, e),
            _ => panic!("from_slice: {g:?}, new: {e:?}"),
        }
    }
}

fn dynamic(data: &[u8], format: Format, schema: &Schema, name: &str) {
    let id = schema.find(name).expect("record type");
    same_from_slice(data, format, schema, id);
    let mut values = Vec::new();
    let mut reader = RecordReader::new(data, format);
    for v in reader.values(schema, id) {
        match v {
            Ok(v) => values.push(v),
            Err(e) => check_error(&e, name),
        }
    }
    let mut w = RecordWriter::new(Vec::new(), format);
    for v in &values {
        w.write_value(schema, id, v)
            .expect("what was read can be written");
    }
    let bytes = w.into_inner().unwrap();
    let mut reader = RecordReader::new(&bytes[..], format);
    let back: Vec<Value> = reader
        .values(schema, id)
        .collect::<Result<_, _>>()
        .expect("what was written reads back");
    assert_eq!(back.len(), values.len());
    for (b, v) in back.into_iter().zip(values) {
        // Maps read back in Java's key order with duplicates merged: compare after writing.
        let mut once = RecordWriter::new(Vec::new(), format);
        once.write_value(schema, id, &v).unwrap();
        let mut twice = RecordWriter::new(Vec::new(), format);
        twice.write_value(schema, id, &b).unwrap();
        assert_eq!(once.into_inner().unwrap(), twice.into_inner().unwrap());
    }
}

/// The first byte picks the record type; the rest is the stream.
pub fn run(data: &[u8], format: Format) {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    match pick % 4 {
        0 => typed::<Outer>(data, format),
        1 => typed::<AllPrims>(data, format),
        2 => typed::<Containers>(data, format),
        _ => {}
    }
    match pick % 3 {
        0 => {
            let (schema, id) = Outer::schema();
            let name = schema.record(id).unwrap().name.clone();
            dynamic(data, format, &schema, &name)
        }
        1 => {
            let (schema, _) = AllPrims::schema();
            dynamic(data, format, &schema, "AllPrims")
        }
        _ => dynamic(data, format, &recursive(), "Node"),
    }
}
