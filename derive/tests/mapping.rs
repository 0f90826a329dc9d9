//! The Rust-to-DDL mapping of the derive, type by type, with the runtime's bytes.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use hadoop_record::schema::FieldType;
use hadoop_record::value::read_record;
use hadoop_record::{ErrorKind, Format, Record, RecordReader, RecordWriter, Value};

const FORMATS: [Format; 3] = [Format::Binary, Format::Csv, Format::Xml];

fn encode<T: Record>(record: &T, format: Format) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write(record).unwrap();
    writer.into_inner().unwrap()
}

fn decode<T: Record>(bytes: &[u8], format: Format) -> hadoop_record::Result<T> {
    RecordReader::new(bytes, format)
        .read::<T>()
        .map(|r| r.expect("one record"))
}

/// The DDL names of the record's fields, in order.
fn field_names<T: Record>() -> Vec<String> {
    let (schema, id) = T::schema();
    let record = schema.record(id).unwrap();
    record.fields.iter().map(|f| f.name.clone()).collect()
}

/// The record's binary encoding read back by the schema-driven codec.
fn as_value<T: Record>(record: &T) -> Value {
    let (schema, id) = T::schema();
    let bytes = encode(record, Format::Binary);
    read_record(
        &mut hadoop_record::archive::binary::RawInput::new(&bytes),
        &schema,
        id,
        "",
    )
    .unwrap()
}

#[derive(Record, Debug, Clone, PartialEq)]
struct Octets {
    signed: Vec<i8>,
    buffer: Vec<u8>,
    shared: bytes::Bytes,
}

#[test]
fn vec_i8_is_a_vector_of_bytes_and_vec_u8_a_buffer() {
    assert_eq!(Octets::signature(), "LOctets([b]BB)");
    let record = Octets {
        signed: vec![-1, 2],
        buffer: vec![0xff, 2],
        shared: bytes::Bytes::from_static(b"\x00"),
    };
    assert_eq!(
        encode(&record, Format::Binary),
        [0x02, 0xff, 0x02, 0x02, 0xff, 0x02, 0x01, 0x00]
    );
    assert_eq!(
        encode(&record, Format::Csv),
        b"v{-1,2},#ff02,#00\n".as_slice()
    );
    for format in FORMATS {
        assert_eq!(
            decode::<Octets>(&encode(&record, format), format).unwrap(),
            record
        );
    }
}

#[derive(Record, Debug, PartialEq)]
struct Keywords {
    r#type: i32,
    r#match: String,
    #[record(name = "isRelative")]
    is_relative: bool,
}

#[test]
fn raw_identifiers_and_renamed_fields_are_ddl_names() {
    assert_eq!(field_names::<Keywords>(), ["type", "match", "isRelative"]);
    let record = Keywords {
        r#type: 1,
        r#match: "m".into(),
        is_relative: true,
    };
    let xml = String::from_utf8(encode(&record, Format::Xml)).unwrap();
    for tag in [
        "<name>type</name>",
        "<name>match</name>",
        "<name>isRelative</name>",
    ] {
        assert!(xml.contains(tag), "{tag} in\n{xml}");
    }
    for format in FORMATS {
        assert_eq!(
            decode::<Keywords>(&encode(&record, format), format).unwrap(),
            record
        );
    }
}

#[derive(Record, Debug, PartialEq)]
#[record(name = "URL", module = "org.example.links")]
struct Url {
    #[record(name = "URL")]
    url: String,
}

#[test]
fn renamed_struct_carries_its_module() {
    assert_eq!(Url::type_name(), "URL");
    assert_eq!(Url::signature(), "LURL(s)");
    let (schema, id) = Url::schema();
    assert_eq!(
        schema.record(id).unwrap().full_name(),
        "org.example.links.URL"
    );
    assert_eq!(schema.find("org.example.links.URL"), Some(id));
}

#[derive(Record, Debug, PartialEq)]
#[allow(clippy::vec_box)]
struct Boxed {
    n: Box<i32>,
    inner: Box<Url>,
    many: Vec<Box<String>>,
}

#[test]
fn box_is_transparent() {
    assert_eq!(Boxed::signature(), "LBoxed(iLURL(s)[s])");
    let record = Boxed {
        n: Box::new(7),
        inner: Box::new(Url { url: "u".into() }),
        many: vec![Box::new("x".into())],
    };
    assert_eq!(
        encode(&record, Format::Binary),
        [0x07, 0x01, b'u', 0x01, 0x01, b'x']
    );
}

/// Recursive through a vector (not expressible in Hadoop's DDL, but well-defined).
#[derive(Record, Debug, Clone, PartialEq)]
struct Tree {
    v: i32,
    kids: Vec<Tree>,
}

/// Recursive through a map value, and mutually recursive with `Tree` nowhere: two types.
#[derive(Record, Debug, Clone, PartialEq)]
struct Dir {
    name: String,
    entries: BTreeMap<String, Dir>,
    trees: Vec<Tree>,
}

fn tree(v: i32, kids: Vec<Tree>) -> Tree {
    Tree { v, kids }
}

#[test]
fn recursive_types_through_vectors_and_maps() {
    assert_eq!(Tree::signature(), "LTree(i[LTree])");
    assert_eq!(Dir::signature(), "LDir(s{sLDir}[LTree(i[LTree])])");
    let (schema, id) = Tree::schema();
    assert_eq!(schema.records().len(), 1);
    assert_eq!(
        schema.record(id).unwrap().fields[1].ty,
        FieldType::Vector(Box::new(FieldType::Record(id)))
    );

    let t = tree(1, vec![tree(2, vec![]), tree(3, vec![tree(4, vec![])])]);
    let bytes = encode(&t, Format::Binary);
    assert_eq!(bytes, [1, 2, 2, 0, 3, 1, 4, 0]);
    for format in FORMATS {
        assert_eq!(
            decode::<Tree>(&encode(&t, format), format).unwrap(),
            t,
            "{format:?}"
        );
    }
    assert_eq!(
        encode(&t, Format::Csv),
        b"1,v{s{2,v{}},s{3,v{s{4,v{}}}}}\n".as_slice()
    );

    let u = tree(1, vec![tree(2, vec![]), tree(3, vec![tree(5, vec![])])]);
    assert_eq!(t.compare_hadoop(&u), Ordering::Less);
    assert_eq!(
        Tree::compare_raw(&bytes, &encode(&u, Format::Binary)).unwrap(),
        Ordering::Less
    );

    let mut dir = Dir {
        name: "/".into(),
        entries: BTreeMap::new(),
        trees: vec![t],
    };
    dir.entries.insert(
        "etc".into(),
        Dir {
            name: "etc".into(),
            entries: BTreeMap::new(),
            trees: vec![],
        },
    );
    for format in FORMATS {
        assert_eq!(
            decode::<Dir>(&encode(&dir, format), format).unwrap(),
            dir,
            "{format:?}"
        );
    }
}

/// Hostile input nesting records a million deep fails at the nesting limit, on every path
/// (no stack overflow).
#[test]
fn deep_recursion_is_refused() {
    let mut bytes = Vec::new();
    for _ in 0..1_000_000 {
        bytes.extend([0x00, 0x01]); // v = 0, one kid
    }
    bytes.extend([0x00, 0x00]);
    let e = decode::<Tree>(&bytes, Format::Binary).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    let e = Tree::compare_raw(&bytes, &bytes).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    let shallow = encode(&tree(0, vec![]), Format::Binary);
    let e = Tree::compare_raw(&shallow, &bytes).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
}

#[derive(Record, Debug, PartialEq)]
struct Maps {
    ordered: BTreeMap<String, i32>,
    hashed: HashMap<String, i32>,
}

/// Maps are written in Java's `TreeMap` order: strings by UTF-16 code units, so U+1F600
/// before U+FF5E, though Rust's `BTreeMap` iterates them the other way round.
#[test]
fn maps_are_written_in_java_key_order() {
    let keys = ["\u{FF5E}", "b", "\u{1F600}", "a"];
    let record = Maps {
        ordered: keys.iter().map(|k| (k.to_string(), 1)).collect(),
        hashed: keys.iter().map(|k| (k.to_string(), 1)).collect(),
    };
    let Value::Record(fields) = as_value(&record) else {
        panic!("a record")
    };
    let java_order = ["a", "b", "\u{1F600}", "\u{FF5E}"];
    for field in fields {
        let Value::Map(entries) = field else {
            panic!("a map")
        };
        let got: Vec<_> = entries
            .iter()
            .map(|(k, _)| match k {
                Value::String(s) => s.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(got, java_order);
    }
}

#[derive(Record, Debug, PartialEq)]
struct Generic<T> {
    first: T,
    rest: Vec<T>,
}

#[test]
fn generic_records_take_the_parameter_s_mapping() {
    assert_eq!(Generic::<i64>::signature(), "LGeneric(l[l])");
    assert_eq!(Generic::<Url>::signature(), "LGeneric(LURL(s)[LURL(s)])");
    let record = Generic {
        first: 1i8,
        rest: vec![2, 3],
    };
    assert_eq!(encode(&record, Format::Csv), b"1,v{2,3}\n".as_slice());
}

#[derive(Record, Debug)]
struct Nested {
    outer: i32,
    list: Vec<Keywords>,
}

/// Read errors name the field path, outermost first, with the record type at the root.
#[test]
fn errors_carry_the_field_path() {
    let record = Nested {
        outer: 1,
        list: vec![
            Keywords {
                r#type: 1,
                r#match: "a".into(),
                is_relative: false,
            },
            Keywords {
                r#type: 2,
                r#match: "bb".into(),
                is_relative: true,
            },
        ],
    };
    let bytes = encode(&record, Format::Binary);
    let cut = &bytes[..bytes.len() - 2];
    let e = decode::<Nested>(cut, Format::Binary).unwrap_err();
    assert_eq!(e.path(), "Nested.list[1].match", "{e}");
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
}

/// `rename_all` gives the fields without a `name` serde's spelling of their Rust names; an
/// explicit `name` still wins.
#[test]
fn rename_all_spells_fields_as_serde_does() {
    #[derive(Record, Debug, PartialEq)]
    #[record(rename_all = "camelCase")]
    struct Page {
        page_title: String,
        out_link_count: i32,
        #[record(name = "URL")]
        url: String,
        r#type: i8,
    }
    assert_eq!(
        field_names::<Page>(),
        ["pageTitle", "outLinkCount", "URL", "type"]
    );
    let page = Page {
        page_title: "t".into(),
        out_link_count: 2,
        url: "u".into(),
        r#type: 1,
    };
    let xml = String::from_utf8(encode(&page, Format::Xml)).unwrap();
    assert!(xml.contains("<name>pageTitle</name>"), "{xml}");
    assert!(xml.contains("<name>outLinkCount</name>"), "{xml}");
    assert_eq!(
        decode::<Page>(&encode(&page, Format::Xml), Format::Xml).unwrap(),
        page
    );

    #[derive(Record)]
    #[record(rename_all = "PascalCase")]
    struct Pascal {
        base_url: String,
    }
    #[derive(Record)]
    #[record(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Screaming {
        base_url: String,
    }
    assert_eq!(field_names::<Pascal>(), ["BaseUrl"]);
    assert_eq!(field_names::<Screaming>(), ["BASE_URL"]);
}

/// `display = false` leaves `Display` to the type, which may have its own; by default
/// `Display` is the CSV form Java's `toString()` prints.
#[test]
fn display_is_the_csv_form_unless_turned_off() {
    #[derive(Record)]
    struct Csv {
        a: i32,
        s: String,
    }
    assert_eq!(
        Csv {
            a: 1,
            s: "x,y".into()
        }
        .to_string(),
        "1,'x%2Cy\n"
    );

    #[derive(Record)]
    #[record(display = false)]
    struct Own {
        a: i32,
    }
    impl std::fmt::Display for Own {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "Own({})", self.a)
        }
    }
    assert_eq!(Own { a: 3 }.to_string(), "Own(3)");
    assert_eq!(encode(&Own { a: 3 }, Format::Csv), b"3\n");
}

/// A type that derives serde's traits and `Record` calls either without naming the trait:
/// no method of `Record` shares a name with one of `Serialize` or `Deserialize`.
#[test]
fn serde_and_record_methods_do_not_collide() {
    use serde::{Deserialize, Serialize};

    #[derive(Record, Serialize, Deserialize, Debug, PartialEq)]
    #[record(rename_all = "camelCase")]
    #[serde(rename_all = "camelCase")]
    struct Link {
        anchor_text: String,
        is_relative: bool,
    }
    let link = Link {
        anchor_text: "home".into(),
        is_relative: true,
    };
    // serde's method, called as a method, with Record in scope.
    let mut json = Vec::new();
    link.serialize(&mut serde_json::Serializer::new(&mut json))
        .unwrap();
    assert_eq!(json, br#"{"anchorText":"home","isRelative":true}"#);
    // Record's, the same way.
    let mut out = hadoop_record::archive::csv::CsvOutput::new(Vec::new());
    link.write_to(&mut out, "").unwrap();
    assert_eq!(out.into_inner().unwrap(), b"'home,T\n");
    let back = Link::deserialize(&mut serde_json::Deserializer::from_slice(&json)).unwrap();
    let mut input = hadoop_record::archive::binary::RawInput::new(b"\x04home\x01");
    assert_eq!(Link::read_from(&mut input, "").unwrap(), back);
}

/// `ord` and `partial_ord` implement Rust's order traits as Hadoop's `compareTo` orders:
/// strings by UTF-16 unit, maps by their keys first; NaN is unordered.
#[test]
fn ord_and_partial_ord_are_hadoops_order() {
    #[derive(Record, Debug, Clone, PartialEq, Eq)]
    #[record(ord)]
    struct Key {
        name: String,
        tags: BTreeMap<i32, String>,
    }
    let key = |name: &str, tags: &[(i32, &str)]| Key {
        name: name.into(),
        tags: tags.iter().map(|&(k, v)| (k, v.to_owned())).collect(),
    };
    let mut keys = vec![
        key("\u{FF5E}", &[]),
        key("\u{1F600}", &[(2, "a")]),
        key("\u{1F600}", &[(1, "b"), (9, "")]),
        key("\u{1F600}", &[(1, "a"), (9, "")]),
    ];
    keys.sort();
    assert_eq!(
        keys,
        [
            key("\u{1F600}", &[(1, "a"), (9, "")]),
            key("\u{1F600}", &[(1, "b"), (9, "")]),
            key("\u{1F600}", &[(2, "a")]),
            key("\u{FF5E}", &[]),
        ]
    );
    // Equal for Hadoop (same keys), ordered by the values for Rust: never Equal unless ==.
    assert_eq!(keys[0].compare_hadoop(&keys[1]), Ordering::Equal);
    assert_eq!(keys[0].cmp(&keys[1]), Ordering::Less);
    let set: std::collections::BTreeSet<Key> = keys.iter().cloned().collect();
    assert_eq!(set.len(), 4);

    #[derive(Record, Debug, PartialEq)]
    #[record(partial_ord)]
    struct Reading {
        value: f64,
        label: String,
    }
    let r = |value: f64| Reading {
        value,
        label: String::new(),
    };
    assert!(r(-1.0) < r(0.5));
    assert_eq!(r(-0.0).partial_cmp(&r(0.0)), Some(Ordering::Equal));
    assert_eq!(r(f64::NAN).partial_cmp(&r(f64::NAN)), None);
    assert_eq!(r(f64::NAN).partial_cmp(&r(1.0)), None);
}
