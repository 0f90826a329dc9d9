//! Hadoop's `compareTo` on derived records, on values (`compare_hadoop`) and on binary
//! encodings (`compare_raw`), against Java's results in the manifest's `comparisons`; and
//! the three bugs of Hadoop's raw comparator, which ours does not have.

mod fixture_types;
mod support;

use std::cmp::Ordering;

use fixture_harness::{hadoop_java, schema, value_of};
use fixture_types::common::{Named, Point};
use fixture_types::composite::{Containers, InnerRecord, Outer};
use fixture_types::prims::{AllPrims, BoolRec, StringRec};
use hadoop_record::{ErrorKind, Format, Position, Record, RecordWriter};
use support::assert_compares_as_java;

fn encode<T: Record>(record: &T) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
    writer.write(record).unwrap();
    writer.into_inner().unwrap()
}

/// A manifest JSON value of `record_type` as its binary encoding.
fn encode_json(record_type: &str, json: &serde_json::Value) -> Vec<u8> {
    let id = fixture_harness::record_id(record_type);
    let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
    writer
        .write_value(schema(), id, &value_of(record_type, json))
        .unwrap();
    writer.into_inner().unwrap()
}

fn check_comparison<T: Record>(c: &fixture_harness::Comparison) {
    let a = encode_json(&c.record_type, &c.a);
    let b = encode_json(&c.record_type, &c.b);
    assert_compares_as_java::<T>(c, &a, &b);
}

#[test]
fn compare_reproduces_java_compare_to_both_ways() {
    let comparisons = &hadoop_java().comparisons;
    assert_eq!(comparisons.len(), 19);
    for c in comparisons {
        with_fixture_type!(c.record_type.as_str(), T => check_comparison::<T>(c));
    }
}

/// Hadoop bug 1: an equal record whose encoding is one byte long compares as less.
#[test]
fn equal_one_byte_records_compare_equal() {
    let f = encode(&BoolRec { v: false });
    assert_eq!(f.len(), 1);
    assert_eq!(BoolRec::compare_raw(&f, &f).unwrap(), Ordering::Equal);
}

/// Hadoop bug 2: after an equal nested record, the remaining fields are not looked at.
#[test]
fn fields_after_an_equal_nested_record_are_compared() {
    let named = |y| Named {
        name: "n".into(),
        r#where: Point { x: 1, y },
    };
    let a = Outer {
        n: named(2),
        flag: false,
        ..Outer::default()
    };
    let b = Outer {
        flag: true,
        ..a.clone()
    };
    assert_eq!(a.compare_hadoop(&b), Ordering::Less);
    assert_eq!(
        Outer::compare_raw(&encode(&a), &encode(&b)).unwrap(),
        Ordering::Less
    );
    let c = Outer {
        n: named(3),
        ..a.clone()
    };
    assert_eq!(
        Outer::compare_raw(&encode(&c), &encode(&a)).unwrap(),
        Ordering::Greater
    );
}

/// Hadoop bug 3: strings compare by UTF-8 bytes on the raw path; Java's `compareTo` uses
/// UTF-16 code units, where U+1F600 sorts before U+FF5E.
#[test]
fn raw_strings_compare_in_utf16_order() {
    let emoji = StringRec {
        v: "\u{1F600}".into(),
    };
    let fullwidth = StringRec {
        v: "\u{FF5E}".into(),
    };
    assert_eq!(emoji.compare_hadoop(&fullwidth), Ordering::Less);
    let (a, b) = (encode(&emoji), encode(&fullwidth));
    assert!(a > b, "UTF-8 bytes order the other way");
    assert_eq!(StringRec::compare_raw(&a, &b).unwrap(), Ordering::Less);
}

#[test]
fn floats_compare_as_hadoop_does() {
    let rec = |d: f64| AllPrims {
        double: d,
        ..AllPrims::default()
    };
    let raw = |a: f64, b: f64| AllPrims::compare_raw(&encode(&rec(a)), &encode(&rec(b))).unwrap();
    assert_eq!(rec(-0.0).compare_hadoop(&rec(0.0)), Ordering::Equal);
    assert_eq!(raw(-0.0, 0.0), Ordering::Equal);
    // NaN is greater than everything, itself included, in both directions.
    assert_eq!(
        rec(f64::NAN).compare_hadoop(&rec(f64::NAN)),
        Ordering::Greater
    );
    assert_eq!(raw(f64::NAN, f64::NAN), Ordering::Greater);
    assert_eq!(raw(1.0, f64::NAN), Ordering::Greater);
    assert_eq!(raw(f64::NAN, 1.0), Ordering::Greater);
}

#[test]
fn maps_compare_by_keys_only() {
    let mut a = Containers::default();
    a.msi.insert("k".into(), 1);
    let mut b = a.clone();
    b.msi.insert("k".into(), 2);
    assert_eq!(a.compare_hadoop(&b), Ordering::Equal);
    assert_eq!(
        Containers::compare_raw(&encode(&a), &encode(&b)).unwrap(),
        Ordering::Equal
    );
    b.msi.insert("l".into(), 0);
    assert_eq!(
        Containers::compare_raw(&encode(&a), &encode(&b)).unwrap(),
        Ordering::Less
    );
}

fn sample() -> Outer {
    let mut outer = Outer {
        a: InnerRecord {
            tag: "a".into(),
            n: 1,
        },
        flag: true,
        ..Outer::default()
    };
    outer.c.vrec = vec![
        InnerRecord::default(),
        InnerRecord {
            tag: "tag".into(),
            n: -5,
        },
    ];
    outer.c.msi.insert("x".into(), 3);
    outer.n.name = "name".into();
    outer
}

#[test]
fn malformed_input_is_an_error_not_an_order() {
    let good = encode(&sample());
    // Every strict prefix is an error, whatever the other side holds (the encoding of a
    // record type is prefix-free).
    for len in 0..good.len() {
        let e = Outer::compare_raw(&good[..len], &good).unwrap_err();
        assert!(e.position().is_some(), "[..{len}]: {e}");
        assert!(e.path().starts_with("Outer"), "[..{len}]: {e}");
        assert!(
            Outer::compare_raw(&good, &good[..len]).is_err(),
            "[..{len}]"
        );
    }
    // Trailing bytes.
    let mut long = good.clone();
    long.push(0);
    let e = Outer::compare_raw(&good, &long).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.position(), Some(Position::Byte(good.len() as u64)));
    // A difference found early does not excuse garbage later on.
    let mut other = sample();
    other.a.tag = "b".into();
    let mut bad = encode(&other);
    bad.truncate(bad.len() - 1);
    assert!(Outer::compare_raw(&good, &bad).is_err());
}

#[test]
fn raw_errors_name_the_field() {
    let good = encode(&sample());
    // Cut inside the second element's tag of `c.vrec`.
    let at = good.windows(3).position(|w| w == b"tag").unwrap() + 1;
    let e = Outer::compare_raw(&good[..at], &good).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.path(), "Outer.c.vrec[1].tag");
}
