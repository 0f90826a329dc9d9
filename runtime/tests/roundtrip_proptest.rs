//! Property tests: any value, typed or schema-driven, written as a stream of records in binary
//! or CSV reads back as the same values (NaN payloads aside, which Java canonicalises).

mod fixture_records;
#[path = "fixture_records/arb.rs"]
mod fixture_records_arb;
mod support;

use std::collections::{BTreeMap, HashMap};

use fixture_harness::arb::{text, value, Arb};
use fixture_harness::canon;
use fixture_harness::{record_id, schema};
use fixture_records::{AllPrims, Containers, Inner, Named, Outer, Point, ToValue};
use hadoop_record::schema::FieldType;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Value};
use proptest::collection::{btree_map, hash_map, vec};
use proptest::prelude::*;

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..12)
}

fn formats() -> impl Strategy<Value = Format> {
    prop_oneof![Just(Format::Binary), Just(Format::Csv), Just(Format::Xml)]
}

fn all_prims(nonchars: bool) -> impl Strategy<Value = AllPrims> {
    fixture_records_arb::arb_all_prims(text(nonchars), bytes())
}

fn inner(nonchars: bool) -> impl Strategy<Value = Inner> {
    (text(nonchars), any::<i64>()).prop_map(|(tag, n)| Inner { tag, n })
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Point { x, y })
}

fn containers(nonchars: bool) -> impl Strategy<Value = Containers> {
    (
        (
            vec(any::<i32>(), 0..4),
            vec(text(nonchars), 0..4),
            vec(vec(any::<i32>(), 0..3), 0..3),
            btree_map(text(nonchars), any::<i32>(), 0..4),
            hash_map(any::<i32>(), text(nonchars), 0..4),
            vec(inner(nonchars), 0..3),
            btree_map(text(nonchars), inner(nonchars), 0..3),
        ),
        (
            point(),
            inner(nonchars),
            vec(bytes(), 0..3),
            btree_map(any::<i64>(), vec(any::<f64>(), 0..3), 0..3),
            vec(any::<bool>(), 0..4),
            vec(any::<f32>(), 0..4),
        ),
    )
        .prop_map(
            |((vi, vs, vvi, msi, mis, vrec, mrec), (pt, inner, vb, mlvd, vz, vf))| Containers {
                vi,
                vs,
                vvi,
                msi,
                mis,
                vrec,
                mrec,
                pt,
                inner,
                vb,
                mlvd,
                vz,
                vf,
            },
        )
}

fn outer(nonchars: bool) -> impl Strategy<Value = Outer> {
    (
        inner(nonchars),
        containers(nonchars),
        (text(nonchars), point()),
        any::<bool>(),
    )
        .prop_map(|(a, c, (name, at), flag)| Outer {
            a,
            c,
            n: Named { name, at },
            flag,
        })
}

/// Writes `records`, reads them back typed, and compares through `Value` (canonical NaN).
fn typed_round_trip<T: Record + ToValue>(
    records: &[T],
    format: Format,
) -> Result<(), TestCaseError> {
    let mut w = RecordWriter::new(Vec::new(), format);
    for r in records {
        w.write(r).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    let bytes = w.into_inner().unwrap();
    let back: Vec<T> = RecordReader::new(&bytes[..], format)
        .into_records()
        .collect::<Result<_, _>>()
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
    prop_assert_eq!(back.len(), records.len());
    for (b, r) in back.iter().zip(records) {
        let (b, r) = (canon(&b.to_value()), canon(&r.to_value()));
        prop_assert!(b.bitwise_eq(&r), "{:?}\n!= {:?}", b, r);
    }
    Ok(())
}

fn dynamic_round_trip(name: &str, values: &[Value], format: Format) -> Result<(), TestCaseError> {
    let id = record_id(name);
    let mut w = RecordWriter::new(Vec::new(), format);
    for v in values {
        w.write_value(schema(), id, v)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    let bytes = w.into_inner().unwrap();
    let mut reader = RecordReader::new(&bytes[..], format);
    let back: Vec<Value> = reader
        .values(schema(), id)
        .collect::<Result<_, _>>()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(back.len(), values.len());
    for (b, v) in back.into_iter().zip(values) {
        let (b, v) = (canon(&b), canon(v));
        prop_assert!(b.bitwise_eq(&v), "{:?}\n!= {:?}", b, v);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn typed_all_prims(records in vec(all_prims(true), 1..5), format in formats()) {
        let records: Vec<AllPrims> = records
            .into_iter()
            .map(|mut r| {
                if format == Format::Binary {
                    r.s = r.s.replace(['\u{FFFE}', '\u{FFFF}'], "?");
                }
                r
            })
            .collect();
        typed_round_trip(&records, format)?;
    }

    #[test]
    fn typed_outer(records in vec(outer(false), 1..3), format in formats()) {
        typed_round_trip(&records, format)?;
    }

    #[test]
    fn typed_outer_keeps_nonchars_in_csv(records in vec(outer(true), 1..3)) {
        typed_round_trip(&records, Format::Csv)?;
    }

    #[test]
    fn dynamic_outer(
        values in vec(value(schema(), &FieldType::Record(record_id("oracle.composite.Outer")), Arb::java()), 1..3),
        format in formats(),
    ) {
        dynamic_round_trip("oracle.composite.Outer", &values, format)?;
    }

    #[test]
    fn dynamic_all_prims(
        values in vec(value(schema(), &FieldType::Record(record_id("oracle.prims.AllPrims")), Arb::java().nonchars(true)), 1..5),
    ) {
        dynamic_round_trip("oracle.prims.AllPrims", &values, Format::Csv)?;
    }

    #[test]
    fn typed_and_dynamic_write_the_same_bytes(record in outer(false), format in formats()) {
        let mut typed = RecordWriter::new(Vec::new(), format);
        typed.write(&record).unwrap();
        let mut dynamic = RecordWriter::new(Vec::new(), format);
        dynamic
            .write_value(schema(), record_id("oracle.composite.Outer"), &record.to_value())
            .unwrap();
        prop_assert_eq!(typed.into_inner().unwrap(), dynamic.into_inner().unwrap());
    }
}

#[test]
fn typed_maps_in_rust_order_are_written_in_java_order() {
    // U+1F600 sorts after U+FF5E in Rust but before it in Java.
    let c = Containers {
        msi: BTreeMap::from([("\u{FF5E}".to_string(), 1), ("\u{1F600}".to_string(), 2)]),
        mis: HashMap::from([(2, "b".to_string()), (-1, "a".to_string())]),
        ..Containers::default()
    };
    let mut w = RecordWriter::new(Vec::new(), Format::Csv);
    w.write(&c).unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert!(
        text.contains("m{'\u{1F600},2,'\u{FF5E},1},m{-1,'a,2,'b}"),
        "{text}"
    );
}
