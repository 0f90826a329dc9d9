//! `value::json::to_json`: the people-readable JSON form, and its round trip through
//! `from_json` on every value of the Hadoop fixtures and on random values of every fixture
//! record type.

mod support;

use fixture_harness::arb::{self, Arb};
use fixture_harness::canon;
use fixture_harness::{hadoop_java, record_id, schema};
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::json::{from_json, to_json, JsonReader};
use hadoop_record::{ErrorKind, Value};
use proptest::prelude::*;

/// to_json, then serde_json, then from_json: the same bits (NaN payloads aside), and the
/// text is one line. A record also reads back from the text with `JsonReader`, the same.
fn round_trip(schema: &Schema, ty: &FieldType, value: &Value) -> String {
    let text = to_json(schema, ty, value).unwrap();
    assert!(!text.contains('\n'), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let back = from_json(schema, ty, &json).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(
        back.bitwise_eq(&canon(value)),
        "{text}\n{value:?}\n{back:?}"
    );
    if let FieldType::Record(id) = ty {
        let lines = format!("{text}\n{text}\n");
        let mut reader = JsonReader::new(lines.as_bytes());
        for _ in 0..2 {
            let read = reader
                .read_value(schema, *id)
                .unwrap_or_else(|e| panic!("{e}: {text}"));
            assert!(read.is_some_and(|r| r.bitwise_eq(&back)), "{text}");
        }
        assert!(reader.read_value(schema, *id).unwrap().is_none());
    }
    text
}

#[test]
fn every_fixture_value_round_trips() {
    let mut n = 0;
    for case in &hadoop_java().cases {
        let ty = FieldType::Record(case.record_id());
        for value in case.expected_values() {
            round_trip(schema(), &ty, &value);
            n += 1;
        }
    }
    assert!(n > 450, "{n}");
}

#[test]
fn readable_form() {
    let s = schema();
    let ty = FieldType::Record(record_id("oracle.prims.AllPrims"));
    let case = hadoop_java()
        .cases
        .iter()
        .find(|c| c.record_type == "oracle.prims.AllPrims")
        .unwrap();
    let value = &case.expected_values()[0];
    let Value::Record(fields) = value else {
        panic!()
    };
    // Field names in declaration order, the DDL's own.
    let text = round_trip(s, &ty, value);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    let declared: Vec<_> = s
        .record(record_id("oracle.prims.AllPrims"))
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert_eq!(names, declared);
    assert_eq!(fields.len(), declared.len());

    // Each type's form, on a record of one field.
    let mut schema = Schema::new();
    let mut one = |ty: FieldType, value: Value| {
        let id = schema.add(hadoop_record::schema::RecordType {
            module: "t".into(),
            name: format!("R{}", schema.records().len()),
            fields: vec![hadoop_record::schema::FieldDef::new("f", ty)],
        });
        round_trip(&schema, &FieldType::Record(id), &Value::Record(vec![value]))
    };
    let cases: Vec<(FieldType, Value, &str)> = vec![
        (FieldType::Byte, Value::Byte(-128), "-128"),
        (FieldType::Bool, Value::Bool(true), "true"),
        (FieldType::Int, Value::Int(i32::MIN), "-2147483648"),
        (FieldType::Long, Value::Long(1 << 53), "9007199254740992"),
        (
            FieldType::Long,
            Value::Long(-(1 << 53)),
            "-9007199254740992",
        ),
        (
            FieldType::Long,
            Value::Long((1 << 53) + 1),
            "\"9007199254740993\"",
        ),
        (
            FieldType::Long,
            Value::Long(i64::MIN),
            "\"-9223372036854775808\"",
        ),
        (FieldType::Float, Value::Float(0.1), "0.1"),
        (FieldType::Float, Value::Float(1e10), "1.0E10"),
        (FieldType::Float, Value::Float(-0.0), "-0.0"),
        (FieldType::Float, Value::Float(f32::from_bits(1)), "1.4E-45"),
        // Read as a double and narrowed, this text gives the float's neighbour.
        (
            FieldType::Float,
            Value::Float(f32::from_bits(0x15ae_43fd)),
            "7.038531E-26",
        ),
        (FieldType::Float, Value::Float(f32::NAN), "\"NaN\""),
        (
            FieldType::Float,
            Value::Float(f32::NEG_INFINITY),
            "\"-Infinity\"",
        ),
        (FieldType::Double, Value::Double(1e-5), "1.0E-5"),
        (FieldType::Double, Value::Double(123.0), "123.0"),
        (
            FieldType::Double,
            Value::Double(f64::INFINITY),
            "\"Infinity\"",
        ),
        (
            FieldType::Double,
            Value::Double(f64::from_bits(0x7ff8_0000_0000_0001)),
            "\"NaN\"",
        ),
        (
            FieldType::Double,
            Value::Double(f64::MAX),
            "1.7976931348623157E308",
        ),
        (
            FieldType::String,
            Value::String("é \"q\" \\ \n 😀".into()),
            "\"é \\\"q\\\" \\\\ \\n 😀\"",
        ),
        (
            FieldType::Buffer,
            Value::Buffer(vec![0, 0xab, 0xff]),
            "\"00abff\"",
        ),
        (FieldType::Buffer, Value::Buffer(vec![]), "\"\""),
        (
            FieldType::Vector(Box::new(FieldType::Vector(Box::new(FieldType::Int)))),
            Value::Vector(vec![
                Value::Vector(vec![Value::Int(1), Value::Int(2)]),
                Value::Vector(vec![]),
            ]),
            "[[1, 2], []]",
        ),
        (
            FieldType::Map(Box::new(FieldType::String), Box::new(FieldType::Double)),
            Value::Map(vec![
                (Value::String("b".into()), Value::Double(0.5)),
                (Value::String("a".into()), Value::Double(2.0)),
            ]),
            "[[\"b\", 0.5], [\"a\", 2.0]]",
        ),
    ];
    for (ty, value, expected) in cases {
        assert_eq!(one(ty, value), format!("{{\"f\": {expected}}}"));
    }
}

#[test]
fn a_value_of_the_wrong_type_is_an_error_with_its_path() {
    let ty = FieldType::Record(record_id("oracle.common.types.Named"));
    let value = Value::Record(vec![
        Value::String("n".into()),
        Value::Record(vec![Value::Int(1), Value::Long(2)]),
    ]);
    let e = to_json(schema(), &ty, &value).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert_eq!(e.path(), "where.y");
    let short = Value::Record(vec![Value::String("n".into())]);
    assert!(to_json(schema(), &ty, &short).is_err());
}

/// A fixture record type and a value of it.
fn typed_value() -> impl Strategy<Value = (FieldType, Value)> {
    let s = schema();
    let types: Vec<FieldType> = (0..s.records().len())
        .map(|i| FieldType::Record(s.find(&s.records()[i].full_name()).unwrap()))
        .collect();
    prop::sample::select(types)
        .prop_flat_map(move |ty| (Just(ty.clone()), arb::value(s, &ty, Arb::any())))
}

proptest! {
    #[test]
    fn any_value_round_trips((ty, v) in typed_value()) {
        round_trip(schema(), &ty, &v);
    }

    #[test]
    fn any_float_and_double_round_trips(f in any::<u32>(), d in any::<u64>()) {
        let mut s = Schema::new();
        let id = s.add(hadoop_record::schema::RecordType {
            module: "t".into(),
            name: "F".into(),
            fields: vec![
                hadoop_record::schema::FieldDef::new("f", FieldType::Float),
                hadoop_record::schema::FieldDef::new("d", FieldType::Double),
            ],
        });
        round_trip(
            &s,
            &FieldType::Record(id),
            &Value::Record(vec![Value::Float(f32::from_bits(f)), Value::Double(f64::from_bits(d))]),
        );
    }
}
