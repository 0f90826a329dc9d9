//! The compiler's test shapes as generated Rust: the derive sees the DDL names and types
//! (signatures equal the front end's), awkward names keep their DDL spelling on the wire,
//! `Eq`/`Hash`/`Ord` come where they are valid, and user attributes arrive.

use std::collections::BTreeMap;

use generated_records::shapes;
use hadoop_record::field::MapKey;
use hadoop_record::{Format, Record, RecordReader, RecordWriter};
use hadoop_record_compiler::{load, LoadOptions, ModelSchema};
use shapes::r#type::self_::r#match as kw;
use shapes::shapes::nested;

fn model_schema() -> ModelSchema {
    let ddl = concat!(env!("CARGO_MANIFEST_DIR"), "/../../compiler/tests/ddl");
    let files = [
        "rust/all_types.jr",
        "rust/containers.jr",
        "rust/keywords.jr",
        "rust/modules.jr",
        "docs/outlinks.jr",
        "docs/testrec.jr",
        "hadoop/test.jr",
        "hadoop/links.jr",
        "hadoop/signatures.jr",
        "hadoop/single.jr",
    ]
    .map(|f| format!("{ddl}/{f}"));
    load(&files, &LoadOptions::default())
        .unwrap_or_else(|d| panic!("{d}"))
        .to_schema()
}

fn check<T: Record>(schema: &ModelSchema, name: &str) {
    let expected = schema
        .signature(name)
        .unwrap_or_else(|| panic!("no {name}"));
    assert_eq!(T::signature(), expected, "{name}");
    let (s, id) = T::schema();
    assert_eq!(s.record(id).unwrap().full_name(), name);
}

#[test]
fn signatures_equal_the_front_ends() {
    let s = model_schema();
    check::<shapes::shapes::all::Types>(&s, "shapes.all.Types");
    check::<shapes::shapes::all::Ordered>(&s, "shapes.all.Ordered");
    check::<nested::Nested>(&s, "shapes.nested.Nested");
    check::<nested::FloatKeys>(&s, "shapes.nested.FloatKeys");
    check::<nested::Even>(&s, "shapes.nested.Even");
    check::<nested::Tree>(&s, "shapes.nested.Tree");
    check::<nested::Deep>(&s, "shapes.nested.Deep");
    check::<nested::deep::Leaf>(&s, "shapes.nested.deep.Leaf");
    check::<shapes::shapes::other::Far>(&s, "shapes.other.Far");
    check::<kw::Fn>(&s, "type.self.match.fn");
    check::<kw::Self_>(&s, "type.self.match.Self");
    check::<kw::String>(&s, "type.self.match.String");
    check::<kw::Vec>(&s, "type.self.match.Vec");
    check::<kw::Record>(&s, "type.self.match.Record");
    check::<kw::HttpTransaction>(&s, "type.self.match.HTTP_Transaction");
    check::<kw::LowerCase>(&s, "type.self.match.lower_case");
    check::<shapes::nest::nest::Inner>(&s, "nest.nest.Inner");
    check::<shapes::r#mod::child::Child>(&s, "mod.child.Child");
    check::<shapes::lib::r#mod::leaf::Leaf>(&s, "lib.mod.leaf.Leaf");
    check::<shapes::outlinks::OutLinks>(&s, "outlinks.OutLinks");
    check::<shapes::testrec::R>(&s, "testrec.R");
    check::<shapes::org::apache::hadoop::record::RecRecord1>(
        &s,
        "org.apache.hadoop.record.RecRecord1",
    );
    check::<shapes::org::apache::hadoop::record::links::HttpTransaction>(
        &s,
        "org.apache.hadoop.record.Links.HTTP_Transaction",
    );
    check::<shapes::sigs::Keys>(&s, "sigs.Keys");
}

fn write<T: Record>(record: &T, format: Format) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write(record).unwrap();
    writer.into_inner().unwrap()
}

fn read<T: Record>(bytes: &[u8], format: Format) -> T {
    RecordReader::new(bytes, format)
        .read()
        .unwrap()
        .expect("one record")
}

/// Writes `record` in every format, reads it back, and returns the XML text.
fn round_trip<T: Record + PartialEq + std::fmt::Debug>(record: &T) -> String {
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = write(record, format);
        assert_eq!(&read::<T>(&bytes, format), record, "{format:?}");
    }
    String::from_utf8(write(record, Format::Xml)).unwrap()
}

#[test]
fn escaped_names_keep_their_ddl_spelling_on_the_wire() {
    let record = kw::Fn {
        r#type: 1,
        self_: 2,
        super_: 3,
        crate_: 4,
        r#match: 5,
        r#gen: 6,
        r#async: 7,
        union: 8,
        is_http: 9,
        a_b: 10,
    };
    let xml = round_trip(&record);
    for name in [
        "type", "self", "super", "crate", "match", "gen", "async", "union", "isHTTP", "a__b",
    ] {
        assert!(
            xml.contains(&format!("<name>{name}</name>")),
            "{name}: {xml}"
        );
    }
    assert_eq!(write(&record, Format::Csv), b"1,2,3,4,5,6,7,8,9,10\n");
    let named = kw::Self_ { f: record };
    assert_eq!(kw::Self_::type_name(), "Self");
    assert_eq!(round_trip(&named).matches("<struct>").count(), 2);
}

#[test]
fn records_named_like_prelude_types_work() {
    let v = kw::Vec {
        s: kw::String {
            s: "text".into(),
            v: vec![1, 2],
        },
        b: vec![0xff],
    };
    round_trip(&v);
    assert_eq!(write(&v, Format::Csv), b"s{'text,v{1,2}},#ff\n");
}

#[test]
fn float_keys_are_ordered_as_java_orders_them() {
    let mut by_double = BTreeMap::new();
    for (k, v) in [
        (0.5, "half"),
        (-0.0, "minus zero"),
        (0.0, "zero"),
        (f64::NAN, "nan"),
    ] {
        by_double.insert(MapKey(k), v.to_owned());
    }
    // Java's Double.compareTo: -0.0 < 0.0 < 0.5 < NaN.
    let order: Vec<&str> = by_double.values().map(String::as_str).collect();
    assert_eq!(order, ["minus zero", "zero", "half", "nan"]);
    let mut by_floats = BTreeMap::new();
    by_floats.insert(MapKey(vec![1.5f32, -2.0]), 1);
    by_floats.insert(MapKey(vec![1.5f32]), 2);
    let mut by_record = BTreeMap::new();
    by_record.insert(MapKey(nested::Measured { weight: 2.5 }), 3);
    let keys = nested::FloatKeys {
        by_double,
        by_floats,
        by_record_with_float: by_record,
    };
    // NaN keys compare equal to themselves through MapKey, so the round trip holds.
    let xml = round_trip(&keys);
    assert!(xml.contains("<double>-0.0</double>"), "{xml}");
    assert!(xml.contains("<double>NaN</double>"), "{xml}");
}

#[test]
fn recursive_records_round_trip() {
    let leaf = nested::Tree {
        value: 2,
        ..Default::default()
    };
    let mut links = BTreeMap::new();
    links.insert(leaf.clone(), leaf.clone());
    let tree = nested::Tree {
        value: 1,
        children: vec![leaf.clone(), nested::Tree::default()],
        links,
    };
    round_trip(&tree);
    let even = nested::Even {
        next: vec![nested::Odd {
            next: [("e".to_owned(), nested::Even::default())].into(),
            value: 1.25,
        }],
    };
    round_trip(&nested::Holder { even });
}

fn is_ordered<T: Ord + Eq + std::hash::Hash>() {}
fn is_partially_ordered<T: PartialOrd>() {}
fn is_copy<T: Copy>() {}

/// `Ord` and `PartialOrd` of generated records are Hadoop's order: strings by UTF-16 unit,
/// maps by their keys (the values only break ties, so that equal means `==`), NaN unordered.
#[test]
fn generated_order_is_hadoops() {
    use shapes::shapes::all::{Ordered, Types};
    use std::cmp::Ordering::{Equal, Greater, Less};
    let ordered = |s: &str, m: &[(i64, &[u8])]| Ordered {
        s: s.into(),
        m: m.iter().map(|&(k, v)| (k, v.to_vec())).collect(),
        ..Ordered::default()
    };
    // U+1F600 is a surrogate pair in UTF-16 (0xD83D...): before U+FF5E in Java, after it in
    // Rust's `str` order.
    let (smile, tilde) = (ordered("\u{1F600}", &[]), ordered("\u{FF5E}", &[]));
    assert_eq!(smile.cmp(&tilde), Less);
    assert_eq!(smile.s.cmp(&tilde.s), Greater);
    let mut sorted = vec![tilde.clone(), smile.clone()];
    sorted.sort();
    assert_eq!(sorted, [smile.clone(), tilde.clone()]);
    // Maps: the keys decide first, the sizes next; the values only when both are equal.
    let small_keys = ordered("", &[(1, b"z"), (5, b"")]);
    let big_keys = ordered("", &[(2, b"a")]);
    assert_eq!(small_keys.cmp(&big_keys), Less);
    let same_keys = ordered("", &[(1, b"y"), (5, b"")]);
    assert_eq!(same_keys.cmp(&small_keys), Less);
    assert_eq!(small_keys.cmp(&small_keys.clone()), Equal);
    assert_eq!(
        hadoop_record::Record::compare_hadoop(&same_keys, &small_keys),
        Equal
    );

    is_partially_ordered::<Types>();
    let float = |f: f32| Types {
        f,
        ..Types::default()
    };
    assert_eq!(float(-0.0).partial_cmp(&float(0.0)), Some(Equal));
    assert_eq!(float(1.0).partial_cmp(&float(2.0)), Some(Less));
    // Hadoop calls NaN greater than everything in both directions: no order.
    assert_eq!(float(f32::NAN).partial_cmp(&float(1.0)), None);
    assert_eq!(float(1.0).partial_cmp(&float(f32::NAN)), None);
}

/// `Config::minimal_derives` with the user's `#[derive(Eq, Hash)]` (the documentation's
/// example) compiles, and the records have what was asked for.
#[test]
fn minimal_derives_take_user_derives() {
    use generated_records::minimal::links::Link;
    let link = Link {
        url: "http://example.org/".into(),
        is_relative: false,
        anchor_text: "example".into(),
    };
    let set = std::collections::HashSet::from([link.clone(), link.clone()]);
    assert_eq!(set.len(), 1);
    assert_eq!(
        round_trip(&link),
        round_trip(&set.into_iter().next().unwrap())
    );
}

#[test]
fn total_orders_and_user_attributes() {
    is_ordered::<nested::Tree>();
    is_ordered::<nested::Nested>();
    is_ordered::<nested::deep::Leaf>();
    is_ordered::<shapes::shapes::all::Ordered>();
    is_ordered::<kw::Fn>();
    // From build.rs: Config::type_attribute(".shapes.nested.Measured", "#[derive(Copy)]").
    is_copy::<nested::Measured>();
    let a = nested::Measured { weight: 1.0 };
    let b = a;
    assert_eq!(a, b);
}
