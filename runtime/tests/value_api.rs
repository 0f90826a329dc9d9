//! The dynamic API as a user crate sees it: building and taking apart `Value`s (`From`,
//! `as_*`, fields by name), a `Schema` that stays whole (`add` checks references,
//! `declare`/`define` for records that refer to each other), and record ids that are not
//! in the schema: an error from every function that takes one, never a panic.

use hadoop_record::archive::binary::{BinaryOutput, RawInput};
use hadoop_record::meta::{compat, Filters, RecordTypeInfo};
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::value::json::{from_json, to_json, JsonReader};
use hadoop_record::value::{read_record, read_value, write_record, write_value};
use hadoop_record::{Error, ErrorKind, Format, RecordReader, RecordWriter, Value};

fn vector(ty: FieldType) -> FieldType {
    FieldType::Vector(Box::new(ty))
}

/// `geo.Point {int x; int y; ustring label}` and `geo.Path {vector<Point> points; buffer
/// tag}`.
fn geo() -> (Schema, RecordId, RecordId) {
    let mut s = Schema::new();
    let point = s
        .add(RecordType::new(
            "geo",
            "Point",
            vec![
                FieldDef::new("x", FieldType::Int),
                FieldDef::new("y", FieldType::Int),
                FieldDef::new("label", FieldType::String),
            ],
        ))
        .unwrap();
    let path = s
        .add(RecordType::new(
            "geo",
            "Path",
            vec![
                FieldDef::new("points", vector(FieldType::Record(point))),
                FieldDef::new("tag", FieldType::Buffer),
            ],
        ))
        .unwrap();
    (s, point, path)
}

#[test]
fn values_are_built_with_from_and_read_with_the_accessors() {
    let cases: Vec<(Value, Value)> = vec![
        (Value::from(-3i8), Value::Byte(-3)),
        (Value::from(true), Value::Bool(true)),
        (Value::from(7), Value::Int(7)),
        (Value::from(1i64 << 40), Value::Long(1 << 40)),
        (Value::from(0.5f32), Value::Float(0.5)),
        (Value::from(0.25), Value::Double(0.25)),
        (Value::from("é"), Value::String("é".into())),
        (Value::from(String::from("s")), Value::String("s".into())),
        (
            Value::from(Box::<str>::from("b")),
            Value::String("b".into()),
        ),
        (
            Value::from(std::borrow::Cow::Borrowed("c")),
            Value::String("c".into()),
        ),
        (Value::from(vec![1u8, 2]), Value::Buffer(vec![1, 2])),
        (Value::from(&[3u8][..]), Value::Buffer(vec![3])),
        (Value::from([4u8, 5]), Value::Buffer(vec![4, 5])),
    ];
    for (built, expected) in cases {
        assert_eq!(built, expected);
    }

    let v = Value::from(7);
    assert_eq!(v.as_int(), Some(7));
    // No conversions: an int is not a long, a byte not an int.
    assert_eq!(
        (v.as_long(), v.as_byte(), v.as_double()),
        (None, None, None)
    );
    assert_eq!(Value::from(-3i8).as_byte(), Some(-3));
    assert_eq!(Value::from(false).as_bool(), Some(false));
    assert_eq!(Value::from(9i64).as_long(), Some(9));
    assert_eq!(Value::from(1.5f32).as_float(), Some(1.5));
    assert_eq!(Value::from(2.5).as_double(), Some(2.5));
    assert_eq!(Value::from("t").as_str(), Some("t"));
    assert_eq!(Value::from("t").as_bytes(), None);
    assert_eq!(Value::from(vec![1u8]).as_bytes(), Some(&[1u8][..]));
    assert!(Value::Null.is_null() && !Value::from(0).is_null());

    let mut list = Value::Vector(vec![1.into(), 2.into()]);
    assert_eq!(list.as_vector(), Some(&[Value::Int(1), Value::Int(2)][..]));
    list.as_vector_mut().unwrap().push(3.into());
    assert_eq!(list.as_vector().map(<[Value]>::len), Some(3));
    assert_eq!(list.as_map(), None);

    let mut map = Value::Map(vec![("k".into(), 1.into())]);
    assert_eq!(map.as_map().unwrap()[0].0.as_str(), Some("k"));
    map.as_map_mut().unwrap().clear();
    assert_eq!(map, Value::Map(vec![]));
    assert_eq!(map.as_record(), None);

    let mut record = Value::Record(vec![1.into(), "a".into()]);
    assert_eq!(record.as_record().map(<[Value]>::len), Some(2));
    record.as_record_mut().unwrap()[1] = "b".into();
    assert_eq!(record, Value::Record(vec![Value::Int(1), Value::from("b")]));
    assert_eq!(record.as_vector(), None);
}

#[test]
fn fields_are_found_by_name_through_the_schema() {
    let (s, point, path) = geo();
    let p = Value::from_fields(&s, point, [("y", 2.into()), ("label", "here".into())]).unwrap();
    // The field not given is empty, the others in declaration order.
    assert_eq!(
        p,
        Value::Record(vec![Value::Int(0), Value::Int(2), Value::from("here")])
    );
    assert_eq!(p.field(&s, point, "y"), Some(&Value::Int(2)));
    assert_eq!(
        p.field(&s, point, "label").and_then(Value::as_str),
        Some("here")
    );
    assert_eq!(s.field_index(point, "label"), Some(2));
    assert_eq!(s.record(point).unwrap().field_index("x"), Some(0));
    // Names the record lacks, records the schema lacks, and values that are no records.
    assert_eq!(p.field(&s, point, "z"), None);
    assert_eq!(Value::from(1).field(&s, point, "x"), None);
    let far = some_other_id();
    assert_eq!(p.field(&s, far, "x"), None);
    assert_eq!(s.field_index(far, "x"), None);

    // Nested records: the field's type names the inner record.
    let mut line = Value::from_fields(
        &s,
        path,
        [("points", Value::Vector(vec![p.clone(), p.clone()]))],
    )
    .unwrap();
    let FieldType::Vector(element) = &s.record(path).unwrap().fields[0].ty else {
        panic!()
    };
    let FieldType::Record(inner) = **element else {
        panic!()
    };
    let second = &line.field(&s, path, "points").unwrap().as_vector().unwrap()[1];
    assert_eq!(second.field(&s, inner, "y"), Some(&Value::Int(2)));
    *line.field_mut(&s, path, "tag").unwrap() = vec![0xca, 0xfe].into();
    assert_eq!(
        line.field(&s, path, "tag").and_then(Value::as_bytes),
        Some(&[0xca, 0xfe][..])
    );
    assert_eq!(line.field_mut(&s, path, "nope"), None);

    // A built record writes and reads back.
    for format in Format::ALL {
        let mut w = RecordWriter::new(Vec::new(), *format);
        w.write_value(&s, path, &line).unwrap();
        let bytes = w.into_inner().unwrap();
        let back = RecordReader::new(&bytes[..], *format).read_value(&s, path);
        assert_eq!(back.unwrap().as_ref(), Some(&line), "{format}");
    }

    let e = Value::from_fields(&s, point, [("x", 1.into()), ("x", 2.into())]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
    let e = Value::from_fields(&s, point, [("w", 1.into())]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
    let e = Value::from_fields(&s, far, []).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
}

#[test]
fn a_schema_refuses_references_to_records_it_does_not_hold() {
    let mut s = Schema::new();
    let next = s.next_id();
    // Ahead of the record being added: refused, and nothing is added.
    let e = s
        .add(RecordType::new(
            "m",
            "A",
            vec![FieldDef::new("b", FieldType::Record(some_other_id()))],
        ))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
    assert!(e.to_string().contains("A.b"), "{e}");
    assert!(s.records().is_empty());
    assert_eq!(s.next_id(), next);

    // Itself, through a vector: fine.
    let tree = s
        .add(RecordType::new(
            "m",
            "Tree",
            vec![FieldDef::new("kids", vector(FieldType::Record(next)))],
        ))
        .unwrap();
    assert_eq!(tree, next);
    assert_eq!(s.signature(tree).unwrap(), "LTree([LTree])");

    // Records that refer to each other: declared, then defined.
    let even = s.declare("m", "Even");
    let odd = s.declare("m", "Odd");
    assert!(s.record(odd).unwrap().fields.is_empty());
    s.define(
        even,
        vec![FieldDef::new("next", vector(FieldType::Record(odd)))],
    )
    .unwrap();
    s.define(
        odd,
        vec![FieldDef::new("next", vector(FieldType::Record(even)))],
    )
    .unwrap();
    assert_eq!(s.max_depth(even).unwrap(), None);
    assert_eq!(
        s.type_name(&vector(FieldType::Record(odd))).unwrap(),
        "vector<m.Odd>"
    );
    assert_eq!(s.ids().collect::<Vec<_>>(), [tree, even, odd]);
    assert_eq!(s.find("Odd"), Some(odd));

    // Defining refuses what adding refuses, and changes nothing.
    let before = s.clone();
    let far = some_other_id();
    let e = s
        .define(even, vec![FieldDef::new("x", FieldType::Record(far))])
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    let e = s.define(far, vec![]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert_eq!(s, before);
}

/// An id no small schema of these tests holds.
fn some_other_id() -> RecordId {
    let mut big = Schema::new();
    for i in 0..10 {
        big.declare("x", format!("R{i}"));
    }
    big.ids().last().unwrap()
}

fn schema_error<T: std::fmt::Debug>(what: &str, result: Result<T, Error>) {
    match result {
        Err(e) => assert_eq!(e.kind(), ErrorKind::Schema, "{what}: {e}"),
        Ok(v) => panic!("{what}: {v:?}"),
    }
}

#[test]
fn every_function_that_takes_a_record_id_refuses_one_the_schema_lacks() {
    let (s, point, _) = geo();
    let bad = some_other_id();
    let bad_ty = vector(FieldType::Record(bad));
    let p = Value::from_fields(&s, point, [("x", 1.into())]).unwrap();
    let bytes = {
        let mut w = RecordWriter::new(Vec::new(), Format::Binary);
        w.write_value(&s, point, &p).unwrap();
        w.write_value(&s, point, &p).unwrap();
        w.into_inner().unwrap()
    };

    // The schema itself.
    assert!(s.record(bad).is_none());
    schema_error("signature", s.signature(bad));
    schema_error("max_depth", s.max_depth(bad));
    schema_error("type_name", s.type_name(&bad_ty));
    schema_error("check", s.check(&bad_ty));
    schema_error("Value::empty", Value::empty(&s, &FieldType::Record(bad)));

    // The schema-driven codec.
    schema_error(
        "read_record",
        read_record(&mut RawInput::new(&bytes), &s, bad, ""),
    );
    schema_error(
        "read_value",
        read_value(&mut RawInput::new(&bytes), &s, &bad_ty, ""),
    );
    let mut out = BinaryOutput::new(Vec::new());
    schema_error("write_record", write_record(&mut out, &s, bad, &p, ""));
    schema_error(
        "write_value",
        write_value(&mut out, &s, &bad_ty, &Value::Vector(vec![]), ""),
    );
    assert!(out.into_inner().unwrap().is_empty());

    // JSON.
    schema_error("to_json", to_json(&s, &bad_ty, &Value::Vector(vec![])));
    schema_error("from_json", from_json(&s, &bad_ty, &serde_json::json!([])));
    let mut json = JsonReader::new(&b"{\"x\": 1, \"y\": 2, \"label\": \"\"}"[..]);
    schema_error("JsonReader::read_value", json.read_value(&s, bad));
    assert!(json.read_value(&s, point).unwrap().is_some());

    // Type information and evolution.
    schema_error("RecordTypeInfo::of", RecordTypeInfo::of(&s, bad));
    let info = RecordTypeInfo::of(&s, point).unwrap();
    schema_error("compat", compat(&s, bad, &info));
    schema_error("Filters::new", Filters::new(&s, bad, &info));

    // Streams: the error leaves reader and writer as they were.
    let mut r = RecordReader::new(&bytes[..], Format::Binary);
    schema_error("read_value", r.read_value(&s, bad));
    schema_error("read_value_with", r.read_value_with(&s, bad, &info));
    assert_eq!(r.read_value(&s, point).unwrap(), Some(p.clone()));
    let items: Vec<_> = r.values(&s, bad).collect();
    assert_eq!(items.len(), 1, "the iterator ends after the error");
    schema_error("values", items.into_iter().next().unwrap());
    let items: Vec<_> = r.values_with(&s, bad, &info).collect();
    assert_eq!(items.len(), 1, "the iterator ends after the error");
    schema_error("values_with", items.into_iter().next().unwrap());
    assert_eq!(
        r.read_value_with(&s, point, &info).unwrap(),
        Some(p.clone())
    );
    assert_eq!(r.read_value(&s, point).unwrap(), None);

    let mut w = RecordWriter::new(Vec::new(), Format::Csv);
    let e = w.write_value(&s, bad, &p).unwrap_err();
    assert_eq!((e.kind(), e.record()), (ErrorKind::Schema, Some(0)));
    w.write_value(&s, point, &p).unwrap();
    assert_eq!(w.records_written(), 1);
    assert_eq!(w.into_inner().unwrap(), b"1,0,'\n");
}

#[test]
fn a_record_that_holds_itself_directly_is_an_error_not_an_overflow() {
    // `R {R r}`: no value of it is finite; its empty value nests without end.
    let mut s = Schema::new();
    let r = s.next_id();
    s.add(RecordType::new(
        "m",
        "R",
        vec![FieldDef::new("r", FieldType::Record(r))],
    ))
    .unwrap();
    let e = Value::empty(&s, &FieldType::Record(r)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    let e = Value::from_fields(&s, r, []).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert_eq!(s.max_depth(r).unwrap(), None);
}

mod typed {
    use std::collections::BTreeMap;

    use hadoop_record::Record;

    #[derive(Record, Debug, PartialEq, Clone)]
    pub struct Leaf {
        pub n: i64,
        pub tag: Option<String>,
    }

    #[derive(Record, Debug, PartialEq, Clone)]
    pub struct Tree {
        pub label: String,
        pub leaves: Vec<Leaf>,
        pub by_name: BTreeMap<String, Leaf>,
        pub data: Vec<u8>,
    }
}

#[test]
fn typed_records_convert_to_and_from_values() {
    use std::collections::BTreeMap;

    use hadoop_record::value::{from_value, to_value};
    use hadoop_record::Record;
    use typed::{Leaf, Tree};

    let leaf = |n, tag: Option<&str>| Leaf {
        n,
        tag: tag.map(String::from),
    };
    let tree = Tree {
        label: "t".into(),
        leaves: vec![leaf(1, Some("a")), leaf(2, None)],
        by_name: BTreeMap::from([("b".into(), leaf(3, Some(""))), ("a".into(), leaf(4, None))]),
        data: vec![0, 255],
    };
    let value = to_value(&tree).unwrap();
    // The value is what reading the record's bytes with its schema gives (jute holds nulls).
    let (schema, id) = Tree::schema();
    let mut w = RecordWriter::new(Vec::new(), Format::Jute);
    w.write(&tree).unwrap();
    let bytes = w.into_inner().unwrap();
    let read = RecordReader::new(&bytes[..], Format::Jute)
        .read_value(&schema, id)
        .unwrap()
        .unwrap();
    assert_eq!(value, read);
    assert_eq!(
        value.field(&schema, id, "label").and_then(Value::as_str),
        Some("t")
    );
    assert!(value
        .field(&schema, id, "leaves")
        .unwrap()
        .as_vector()
        .unwrap()[1]
        .as_record()
        .unwrap()[1]
        .is_null());
    assert_eq!(from_value::<Tree>(value.clone()).unwrap(), tree);

    // A value of another shape is an error naming where.
    let mut wrong = value.clone();
    *wrong.field_mut(&schema, id, "data").unwrap() = Value::from(1);
    let e = from_value::<Tree>(wrong).unwrap_err();
    assert_eq!(
        (e.kind(), e.path().as_str()),
        (ErrorKind::Schema, "Tree.data"),
        "{e}"
    );
    let mut short = value.clone();
    if let Value::Record(fields) = &mut short {
        fields.pop();
    }
    assert_eq!(
        from_value::<Tree>(short).unwrap_err().kind(),
        ErrorKind::Schema
    );
    let mut long = value;
    if let Value::Record(fields) = &mut long {
        fields.push(Value::from(0));
    }
    assert_eq!(
        from_value::<Tree>(long).unwrap_err().kind(),
        ErrorKind::Schema
    );
    assert_eq!(
        from_value::<Leaf>(Value::Vector(vec![]))
            .unwrap_err()
            .kind(),
        ErrorKind::Schema
    );
}
