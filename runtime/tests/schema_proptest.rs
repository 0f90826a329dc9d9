//! Property tests over random schemas, not just the fixture ones: any record type built from
//! the DDL types (map keys of every type Java's `TreeMap` can hold: the primitives, strings,
//! buffers and records), with any values, is written as a stream in each format and reads
//! back as the same values — maps in Java's key order, equal keys merged as `TreeMap.put`
//! merges them (first key, last value), NaNs canonical.

use fixture_harness::arb::{double, float, text};
use fixture_harness::read_back;
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};
use proptest::prelude::*;

/// A type tree; `Record` holds its fields, turned into schema records later.
#[derive(Debug, Clone)]
enum Ty {
    Prim(FieldType),
    Vector(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    Record(Vec<Ty>),
}

fn prim() -> impl Strategy<Value = FieldType> {
    prop::sample::select(vec![
        FieldType::Byte,
        FieldType::Bool,
        FieldType::Int,
        FieldType::Long,
        FieldType::Float,
        FieldType::Double,
        FieldType::String,
        FieldType::Buffer,
    ])
}

/// A map key: a primitive, or a small record of primitives (records order by compareTo).
fn key_ty() -> impl Strategy<Value = Ty> {
    prop_oneof![
        4 => prim().prop_map(Ty::Prim),
        1 => prop::collection::vec(prim().prop_map(Ty::Prim), 1..3).prop_map(Ty::Record),
    ]
}

fn ty() -> impl Strategy<Value = Ty> {
    prim().prop_map(Ty::Prim).prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Ty::Vector(Box::new(t))),
            (key_ty(), inner.clone()).prop_map(|(k, v)| Ty::Map(Box::new(k), Box::new(v))),
            prop::collection::vec(inner, 1..4).prop_map(Ty::Record),
        ]
    })
}

/// Adds the records of `t` to `schema`, returning its field type.
fn declare(schema: &mut Schema, t: &Ty) -> FieldType {
    match t {
        Ty::Prim(p) => p.clone(),
        Ty::Vector(e) => FieldType::Vector(Box::new(declare(schema, e))),
        Ty::Map(k, v) => FieldType::Map(Box::new(declare(schema, k)), Box::new(declare(schema, v))),
        Ty::Record(fields) => {
            let fields = fields
                .iter()
                .enumerate()
                .map(|(i, f)| FieldDef::new(format!("f{i}"), declare(schema, f)))
                .collect();
            let n = schema.records().len();
            FieldType::Record(
                schema
                    .add(RecordType {
                        module: "random".into(),
                        name: format!("R{n}"),
                        fields,
                    })
                    .unwrap(),
            )
        }
    }
}

/// A value of `t`; `in_key` keeps NaN out of record keys (Java's compareTo is no order
/// there, so no order is "right"; the writer survives it, see `java_shapes.rs`).
fn value(schema: &Schema, t: &FieldType, in_key: bool) -> BoxedStrategy<Value> {
    match t {
        FieldType::Byte => any::<i8>().prop_map(Value::Byte).boxed(),
        FieldType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        FieldType::Int => any::<i32>().prop_map(Value::Int).boxed(),
        FieldType::Long => any::<i64>().prop_map(Value::Long).boxed(),
        FieldType::Float if in_key => float()
            .prop_map(|f| Value::Float(if f.is_nan() { 0.5 } else { f }))
            .boxed(),
        FieldType::Float => float().prop_map(Value::Float).boxed(),
        FieldType::Double if in_key => double()
            .prop_map(|d| Value::Double(if d.is_nan() { 0.5 } else { d }))
            .boxed(),
        FieldType::Double => double().prop_map(Value::Double).boxed(),
        FieldType::String => text(false).prop_map(Value::String).boxed(),
        FieldType::Buffer => prop::collection::vec(any::<u8>(), 0..6)
            .prop_map(Value::Buffer)
            .boxed(),
        FieldType::Vector(e) => prop::collection::vec(value(schema, e, in_key), 0..4)
            .prop_map(Value::Vector)
            .boxed(),
        FieldType::Map(k, v) => {
            let key_in_record = matches!(**k, FieldType::Record(_));
            prop::collection::vec(
                (value(schema, k, key_in_record), value(schema, v, in_key)),
                0..5,
            )
            .prop_map(Value::Map)
            .boxed()
        }
        FieldType::Record(id) => schema
            .record(*id)
            .unwrap()
            .fields
            .iter()
            .map(|f| value(schema, &f.ty, in_key))
            .collect::<Vec<_>>()
            .prop_map(Value::Record)
            .boxed(),
    }
}

/// A random top-level record type and a few values of it.
fn case() -> impl Strategy<Value = (Schema, RecordId, Vec<Value>)> {
    prop::collection::vec(ty(), 1..5).prop_flat_map(|fields| {
        let mut schema = Schema::new();
        let FieldType::Record(id) = declare(&mut schema, &Ty::Record(fields)) else {
            unreachable!()
        };
        let values = prop::collection::vec(value(&schema, &FieldType::Record(id), false), 1..4);
        (Just(schema), Just(id), values)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_schema_and_values_round_trip_in_every_format((schema, id, values) in case()) {
        for format in [Format::Binary, Format::Csv, Format::Xml] {
            let mut writer = RecordWriter::new(Vec::new(), format);
            for v in &values {
                writer.write_value(&schema, id, v).unwrap();
            }
            let bytes = writer.into_inner().unwrap();
            let mut reader = RecordReader::new(&bytes[..], format);
            let read: Vec<Value> = reader
                .values(&schema, id)
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    TestCaseError::fail(format!("{format}: {e}\n{}", String::from_utf8_lossy(&bytes)))
                })?;
            prop_assert_eq!(read.len(), values.len());
            for (got, want) in read.iter().zip(&values) {
                let want = read_back(want);
                prop_assert!(got.bitwise_eq(&want), "{}: got {:?}\nwant {:?}", format, got, want);
            }
            // What was read writes the same bytes again.
            let mut again = RecordWriter::new(Vec::new(), format);
            for v in &read {
                again.write_value(&schema, id, v).unwrap();
            }
            prop_assert!(again.into_inner().unwrap() == bytes, "{}: not stable", format);
        }
    }
}
