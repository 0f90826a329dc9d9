//! Type information: round trips in every encoding, what `type_info()` says of derived
//! types, Hadoop's filter rules on typed and dynamic records, and hostile type information.

use fixture_harness::add_record;
use hadoop_record::archive::binary::RawInput;
use hadoop_record::meta::{FieldTypeInfo, Filters, RecordTypeInfo, TypeId};
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::{ErrorKind, Format, Record, RecordReader, RecordWriter, Value};

fn write_all<T: Record>(records: &[T], format: Format) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format);
    for r in records {
        w.write(r).unwrap();
    }
    w.into_inner().unwrap()
}

fn every_type() -> RecordTypeInfo {
    use TypeId::*;
    let inner = vec![
        FieldTypeInfo::new("x", Int),
        FieldTypeInfo::new("s", String),
    ];
    RecordTypeInfo::new(
        "All",
        vec![
            FieldTypeInfo::new("z", Bool),
            FieldTypeInfo::new("buf", Buffer),
            FieldTypeInfo::new("b", Byte),
            FieldTypeInfo::new("d", Double),
            FieldTypeInfo::new("f", Float),
            FieldTypeInfo::new("i", Int),
            FieldTypeInfo::new("l", Long),
            FieldTypeInfo::new(
                "m",
                Map(
                    Box::new(String),
                    Box::new(Vector(Box::new(Struct(inner.clone())))),
                ),
            ),
            FieldTypeInfo::new("s", String),
            FieldTypeInfo::new("r", Struct(inner)),
            FieldTypeInfo::new("v", Vector(Box::new(Long))),
        ],
    )
}

#[test]
fn type_info_round_trips_in_every_encoding() {
    let infos = [every_type(), RecordTypeInfo::new("Empty", vec![])];
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        // XML holds one record per document.
        let n = if format == Format::Xml { 1 } else { 2 };
        let bytes = write_all(&infos[..n], format);
        let back: Vec<RecordTypeInfo> = RecordReader::new(&bytes[..], format)
            .records()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, infos[..n], "{format:?}");
    }
}

#[test]
fn xml_names_every_member_by_the_one_tag() {
    // Hadoop writes every value of type information under the tag it was given.
    let xml = String::from_utf8(write_all(&[every_type()], Format::Xml)).unwrap();
    assert!(xml.starts_with("<value><struct>\n  <member>\n    <name></name>\n    <value><string>All</string></value>"), "{xml}");
}

#[derive(Record, Debug, PartialEq, Clone)]
#[record(name = "Inner")]
struct InnerV1 {
    a: i32,
    b: String,
}

#[derive(Record, Debug, PartialEq, Clone)]
#[record(name = "Rec")]
struct RecV1 {
    id: i32,
    name: String,
    inner: InnerV1,
    nums: Vec<i32>,
}

#[derive(Record, Debug, PartialEq, Clone, Default)]
#[record(name = "Rec")]
struct RecV2 {
    name: String,
    id: i64,
    nums: Vec<i32>,
    extra: bool,
}

#[test]
fn derived_types_have_hadoops_type_info() {
    let info = RecV1::type_info();
    assert_eq!(info.name, "Rec");
    let names: Vec<&str> = info.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["id", "name", "inner", "nums"]);
    assert_eq!(
        info.fields[2].type_id,
        TypeId::Struct(vec![
            FieldTypeInfo::new("a", TypeId::Int),
            FieldTypeInfo::new("b", TypeId::String)
        ])
    );
}

#[test]
fn typed_reading_with_a_writers_type_info_matches_fields_by_name_and_type() {
    let old = RecV1 {
        id: 7,
        name: "n".into(),
        inner: InnerV1 {
            a: 1,
            b: "b".into(),
        },
        nums: vec![1, 2],
    };
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write_all(std::slice::from_ref(&old), format);
        let mut r = RecordReader::new(&bytes[..], format);
        let new: RecV2 = r.read_with(&RecV1::type_info()).unwrap().unwrap();
        // `id` changed type (int → long): dropped, as Hadoop drops it; `extra` is new.
        assert_eq!(
            new,
            RecV2 {
                name: "n".into(),
                id: 0,
                nums: vec![1, 2],
                extra: false
            },
            "{format:?}"
        );
        assert_eq!(r.read_with::<RecV2>(&RecV1::type_info()).unwrap(), None);
    }
}

#[test]
fn a_nested_filter_is_found_only_through_a_field_named_like_the_record() {
    // Hadoop's getNestedStructTypeInfo("Inner") looks for a *field* named Inner.
    let mut schema = Schema::new();
    let inner = add_record(
        &mut schema,
        "v2",
        "Inner",
        vec![("b", FieldType::String), ("a", FieldType::Int)],
    );
    let rec = add_record(
        &mut schema,
        "v2",
        "Rec",
        vec![("Inner", FieldType::Record(inner))],
    );
    let writer = RecordTypeInfo::new(
        "Rec",
        vec![FieldTypeInfo::new(
            "Inner",
            TypeId::Struct(vec![
                FieldTypeInfo::new("a", TypeId::Int),
                FieldTypeInfo::new("b", TypeId::String),
            ]),
        )],
    );
    let filters = Filters::new(&schema, rec, &writer);
    assert!(filters.applies_to(inner));
    // v1 {Inner: {a: 5, b: "x"}} in binary.
    let value = filters
        .read_record(&mut RawInput::new(&[5, 1, b'x']), &schema, "")
        .unwrap();
    assert_eq!(
        value,
        Value::Record(vec![Value::Record(vec![
            Value::String("x".into()),
            Value::Int(5)
        ])])
    );
    // Named otherwise, the nested record reads unfiltered.
    let renamed = RecordTypeInfo::new(
        "Rec",
        vec![FieldTypeInfo::new("other", TypeId::Struct(vec![]))],
    );
    assert!(!Filters::new(&schema, rec, &renamed).applies_to(inner));
}

#[test]
fn hostile_type_information_is_a_clean_error() {
    let read = |bytes: &[u8]| RecordReader::new(bytes, Format::Binary).read::<RecordTypeInfo>();
    // An unknown type byte.
    let e = read(&[1, b'R', 1, 1, b'f', 12]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
    assert!(e.to_string().contains("unknown type id 12"), "{e}");
    // A huge field count with no fields behind it: an end-of-input error, nothing reserved.
    let e = read(&[1, b'R', 0x8c, 0x7f, 0xff, 0xff, 0xff]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{e}");
    // Vectors of vectors of … : the nesting limit, not a stack overflow.
    let mut deep = vec![1, b'R', 1, 1, b'v'];
    deep.extend(std::iter::repeat_n(11u8, 100_000));
    let e = read(&deep).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
}
