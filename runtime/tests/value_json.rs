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
        .unwrap()
        .fields
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert_eq!(names, declared);
    assert_eq!(fields.len(), declared.len());

    // Each type's form, on a record of one field.
    let mut schema = Schema::new();
    let mut one = |ty: FieldType, value: Value| {
        let id = schema
            .add(hadoop_record::schema::RecordType {
                module: "t".into(),
                name: format!("R{}", schema.records().len()),
                fields: vec![hadoop_record::schema::FieldDef::new("f", ty)],
            })
            .unwrap();
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
        }).unwrap();
        round_trip(
            &s,
            &FieldType::Record(id),
            &Value::Record(vec![Value::Float(f32::from_bits(f)), Value::Double(f64::from_bits(d))]),
        );
    }
}

/// A schema with one record `t.M` of the given fields.
fn one_record(fields: Vec<(&str, FieldType)>) -> (Schema, hadoop_record::schema::RecordId) {
    let mut schema = Schema::new();
    let id = schema
        .add(hadoop_record::schema::RecordType {
            module: "t".into(),
            name: "M".into(),
            fields: fields
                .into_iter()
                .map(|(name, ty)| hadoop_record::schema::FieldDef::new(name, ty))
                .collect(),
        })
        .unwrap();
    (schema, id)
}

fn map_of(key: FieldType, value: FieldType) -> FieldType {
    FieldType::Map(Box::new(key), Box::new(value))
}

/// Reads every record of `text` with `JsonReader`.
fn read_all(schema: &Schema, id: hadoop_record::schema::RecordId, text: &str) -> Vec<Value> {
    let mut reader = JsonReader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(v) = reader
        .read_value(schema, id)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
    {
        out.push(v);
    }
    out
}

#[test]
fn a_map_with_ustring_keys_reads_from_an_object_in_hadoops_order() {
    let (schema, id) = one_record(vec![("m", map_of(FieldType::String, FieldType::Long))]);
    // Java orders strings by UTF-16 code units: U+1F600 (a surrogate pair, D83D DE00) comes
    // before U+FF5E, though its UTF-8 (f0 …) sorts after U+FF5E's (ef …).
    let text = r#"{"m": {"～": 4, "b": 2, "😀": 3, "a": 1, "": 0}}"#;
    let expected = Value::Record(vec![Value::Map(vec![
        (Value::String("".into()), Value::Long(0)),
        (Value::String("a".into()), Value::Long(1)),
        (Value::String("b".into()), Value::Long(2)),
        (Value::String("😀".into()), Value::Long(3)),
        (Value::String("～".into()), Value::Long(4)),
    ])]);
    assert_eq!(read_all(&schema, id, text), std::slice::from_ref(&expected));
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        from_json(&schema, &FieldType::Record(id), &json).unwrap(),
        expected
    );

    // The same record as pairs, in another order: the same value once written, byte for byte
    // in every format.
    let pairs = r#"{"m": [["b", 2], ["a", 1], ["～", 4], ["", 0], ["😀", 3]]}"#;
    let from_pairs = read_all(&schema, id, pairs);
    for format in [
        hadoop_record::Format::Binary,
        hadoop_record::Format::Csv,
        hadoop_record::Format::Xml,
    ] {
        let write = |v: &Value| {
            let mut w = hadoop_record::RecordWriter::new(Vec::new(), format);
            w.write_value(&schema, id, v).unwrap();
            w.into_inner().unwrap()
        };
        assert_eq!(write(&expected), write(&from_pairs[0]), "{format}");
    }
    let csv = {
        let mut w = hadoop_record::RecordWriter::new(Vec::new(), hadoop_record::Format::Csv);
        w.write_value(&schema, id, &expected).unwrap();
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    };
    assert_eq!(csv, "m{',0,'a,1,'b,2,'😀,3,'～,4}\n");

    // Empty, and nested: objects inside objects and arrays, records as values.
    let (schema, id) = one_record(vec![
        (
            "nested",
            map_of(FieldType::String, map_of(FieldType::String, FieldType::Int)),
        ),
        (
            "list",
            FieldType::Vector(Box::new(map_of(FieldType::String, FieldType::Bool))),
        ),
    ]);
    let text =
        r#"{"list": [{}, {"y": true, "x": false}], "nested": {"q": {"z": 1, "a": 2}, "p": {}}}"#;
    let s = |v: &str| Value::String(v.into());
    assert_eq!(
        read_all(&schema, id, text),
        [Value::Record(vec![
            Value::Map(vec![
                (s("p"), Value::Map(vec![])),
                (
                    s("q"),
                    Value::Map(vec![(s("a"), Value::Int(2)), (s("z"), Value::Int(1))])
                ),
            ]),
            Value::Vector(vec![
                Value::Map(vec![]),
                Value::Map(vec![
                    (s("x"), Value::Bool(false)),
                    (s("y"), Value::Bool(true))
                ]),
            ]),
        ])]
    );
}

#[test]
fn an_object_for_a_map_is_refused_with_a_clear_error() {
    let (schema, id) = one_record(vec![
        ("n", FieldType::Int),
        ("m", map_of(FieldType::String, FieldType::Long)),
    ]);
    let read_err = |text: &str| {
        let mut reader = JsonReader::new(text.as_bytes());
        reader.read_value(&schema, id).unwrap_err()
    };

    // A key given twice: named, at its place in the text (just after the second `"a"`).
    let e = read_err("{\"n\": 1,\n \"m\": {\"a\": 1, \"b\": 2, \"a\": 3}}");
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert_eq!(
        e.to_string(),
        "record 0, line 2:27, in M.m: duplicate key `a` in a map<ustring, long>"
    );
    // Keys that differ only in a way Java's comparison sees are different keys.
    let ok = read_all(&schema, id, r#"{"n": 1, "m": {"a": 1, "A": 2, "a ": 3}}"#);
    assert!(matches!(&ok[0], Value::Record(f) if matches!(&f[1], Value::Map(m) if m.len() == 3)));

    // A value of the wrong type inside the object: the entry's place (in the text's order).
    let e = read_err(r#"{"n": 1, "m": {"b": 1, "a": "x"}}"#);
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert_eq!(
        e.to_string(),
        "record 0, line 1:31, in M.m[1]: invalid type: string `x`, expected long"
    );

    // Maps whose keys are not ustring take pairs only, and say so.
    let (schema, id) = one_record(vec![("m", map_of(FieldType::Int, FieldType::Long))]);
    let mut reader = JsonReader::new(&br#"{"m": {"1": 2}}"#[..]);
    let e = reader.read_value(&schema, id).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert!(
        e.to_string()
            .contains("expected map<int, long> as an array of [key, value] pairs"),
        "{e}"
    );
    assert_eq!(
        read_all(&schema, id, r#"{"m": [[1, 2]]}"#),
        [Value::Record(vec![Value::Map(vec![(
            Value::Int(1),
            Value::Long(2)
        )])])]
    );
}
