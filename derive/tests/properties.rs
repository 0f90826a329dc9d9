//! Properties of derived records on random values: the raw comparator agrees with
//! `compare_hadoop` and rejects malformed input; every format round-trips.

mod fixture_types;

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use fixture_types::common::{Named, Point};
use fixture_types::composite::{Containers, InnerRecord, Outer};
use fixture_types::prims::AllPrims;
use hadoop_record::archive::binary::RawInput;
use hadoop_record::value::read_record;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Result, Value};
use proptest::collection::{btree_map, hash_map, vec};
use proptest::prelude::*;

/// Small domains, so that equal prefixes (and so deep comparisons) are common. Strings mix
/// ASCII with the characters whose UTF-8 and UTF-16 orders differ.
fn text() -> impl Strategy<Value = String> {
    "[ab\u{e9}\u{FF5E}\u{1F600}]{0,3}"
}

fn float() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0),
        Just(f32::NAN),
        Just(1.5),
        any::<f32>()
    ]
}

fn double() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0f64),
        Just(-0.0),
        Just(f64::NAN),
        Just(-2.5),
        any::<f64>()
    ]
}

fn inner() -> impl Strategy<Value = InnerRecord> {
    (text(), -2i64..2).prop_map(|(tag, n)| InnerRecord { tag, n })
}

fn point() -> impl Strategy<Value = Point> {
    (0i32..2, prop_oneof![0i32..2, any::<i32>()]).prop_map(|(x, y)| Point { x, y })
}

fn all_prims() -> impl Strategy<Value = AllPrims> {
    (
        (
            -1i8..=1,
            any::<bool>(),
            0i32..2,
            prop_oneof![0i64..2, any::<i64>()],
        ),
        (
            float(),
            double(),
            text(),
            vec(prop_oneof![Just(0u8), Just(0xff), any::<u8>()], 0..3),
        ),
    )
        .prop_map(
            |((byte, boolean, int, long), (float, double, string, buf))| AllPrims {
                byte,
                boolean,
                int,
                long,
                float,
                double,
                string,
                buf,
            },
        )
}

fn containers() -> impl Strategy<Value = Containers> {
    (
        (
            vec(0i32..3, 0..3),
            vec(text(), 0..3),
            vec(vec(0i32..2, 0..2), 0..3),
            btree_map(text(), 0i32..2, 0..3),
            hash_map(-1i32..2, text(), 0..3),
            vec(inner(), 0..3),
            btree_map(text(), inner(), 0..2),
        ),
        (
            point(),
            inner(),
            vec(vec(any::<u8>(), 0..3).prop_map(bytes::Bytes::from), 0..2),
            btree_map(-1i64..2, vec(double(), 0..2), 0..2),
            vec(any::<bool>(), 0..3),
            vec(float(), 0..3),
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
                inner: Box::new(inner),
                vb,
                mlvd,
                vz,
                vf,
            },
        )
}

fn outer() -> impl Strategy<Value = Outer> {
    (inner(), containers(), text(), point(), any::<bool>()).prop_map(
        |(a, c, name, r#where, flag)| Outer {
            a,
            c: Box::new(c),
            n: Named { name, r#where },
            flag,
        },
    )
}

fn encode<T: Record>(record: &T, format: Format) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write(record).unwrap();
    writer.into_inner().unwrap()
}

fn decode<T: Record>(bytes: &[u8], format: Format) -> Result<Vec<T>> {
    RecordReader::new(bytes, format).records::<T>().collect()
}

/// Exactly one well-formed binary record, or `None`.
fn decode_one<T: Record>(bytes: &[u8]) -> Option<T> {
    let mut records = decode::<T>(bytes, Format::Binary).ok()?;
    (records.len() == 1).then(|| records.pop().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn raw_compare_agrees_with_compare_hadoop(a in outer(), b in outer()) {
        let (x, y) = (encode(&a, Format::Binary), encode(&b, Format::Binary));
        prop_assert_eq!(Outer::compare_raw(&x, &y).unwrap(), a.compare_hadoop(&b));
        prop_assert_eq!(Outer::compare_raw(&y, &x).unwrap(), b.compare_hadoop(&a));
        prop_assert_eq!(Outer::compare_raw(&x, &x).unwrap(), a.compare_hadoop(&a));
    }

    #[test]
    fn raw_compare_agrees_on_flat_records(a in all_prims(), b in all_prims()) {
        let (x, y) = (encode(&a, Format::Binary), encode(&b, Format::Binary));
        prop_assert_eq!(AllPrims::compare_raw(&x, &y).unwrap(), a.compare_hadoop(&b));
    }

    /// The binary encoding of a record type is prefix-free: no strict prefix is a record.
    #[test]
    fn truncated_input_is_an_error(a in outer(), b in outer(), cut in any::<prop::sample::Index>()) {
        let (x, y) = (encode(&a, Format::Binary), encode(&b, Format::Binary));
        let len = cut.index(x.len());
        let e = Outer::compare_raw(&x[..len], &y).unwrap_err();
        prop_assert!(e.position().is_some());
        prop_assert!(Outer::compare_raw(&y, &x[..len]).is_err());
    }

    /// On arbitrary bytes the comparator fails exactly when decoding fails, and otherwise
    /// orders as `compare_hadoop`.
    #[test]
    fn garbage_is_rejected_or_ordered_as_decoded(
        x in vec(any::<u8>(), 0..40),
        y in vec(any::<u8>(), 0..40),
    ) {
        check_garbage::<AllPrims>(&x, &y)?;
        check_garbage::<InnerRecord>(&x, &y)?;
        check_garbage::<Containers>(&x, &y)?;
    }

    /// Mutating one byte of a valid record: an error or a consistent order, never a panic.
    #[test]
    fn corrupted_records_are_rejected_or_ordered_as_decoded(
        a in outer(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let good = encode(&a, Format::Binary);
        let mut bad = good.clone();
        let i = at.index(bad.len());
        bad[i] = byte;
        check_garbage::<Outer>(&bad, &good)?;
    }

    #[test]
    fn every_format_round_trips(a in outer()) {
        let binary = encode(&a, Format::Binary);
        for format in [Format::Binary, Format::Csv, Format::Xml] {
            let bytes = encode(&a, format);
            let back = decode::<Outer>(&bytes, format).unwrap();
            prop_assert_eq!(back.len(), 1);
            prop_assert_eq!(&encode(&back[0], Format::Binary), &binary, "{:?}", format);
            prop_assert_eq!(&encode(&back[0], format), &bytes, "{:?}", format);
        }
    }

    /// Maps are written in Java's key order (strings by UTF-16 code units) whatever their
    /// Rust order: a `HashMap` and a `BTreeMap` of the same entries encode alike, keys
    /// ascending as Java's `TreeMap` holds them.
    #[test]
    fn hash_maps_are_written_in_java_order(entries in hash_map(text(), 0i32..3, 0..6)) {
        let hashed = HashedMap { m: entries.clone() };
        let tree = TreeMap { m: entries.into_iter().collect() };
        let bytes = encode(&hashed, Format::Binary);
        prop_assert_eq!(&bytes, &encode(&tree, Format::Binary));
        let (schema, id) = HashedMap::schema();
        let value = read_record(&mut RawInput::new(&bytes), &schema, id, "").unwrap();
        let Value::Record(fields) = value else { panic!("a record") };
        let Value::Map(written) = &fields[0] else { panic!("a map") };
        let keys: Vec<Vec<u16>> = written
            .iter()
            .map(|(k, _)| match k {
                Value::String(s) => s.encode_utf16().collect(),
                other => panic!("{other:?}"),
            })
            .collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{:?}", written);
        prop_assert_eq!(keys.len(), hashed.m.len());
    }
}

#[derive(Record)]
struct HashedMap {
    m: HashMap<String, i32>,
}

#[derive(Record)]
struct TreeMap {
    m: BTreeMap<String, i32>,
}

/// The raw comparator fails exactly when decoding fails. On canonical bytes (what writing
/// the decoded record gives back) it orders as `compare_hadoop`; bytes that decode to
/// something else (a map's duplicate or unsorted keys, collapsed by decoding as Java's
/// `TreeMap` does) are ordered by what they say, as Hadoop's generated comparator does.
fn check_garbage<T: Record>(x: &[u8], y: &[u8]) -> std::result::Result<(), TestCaseError> {
    let raw = T::compare_raw(x, y);
    match (decode_one::<T>(x), decode_one::<T>(y)) {
        (Some(a), Some(b)) => {
            let order = raw.map_err(|e| TestCaseError::fail(format!("{x:?} / {y:?}: {e}")))?;
            if encode(&a, Format::Binary) == x && encode(&b, Format::Binary) == y {
                prop_assert_eq!(order, a.compare_hadoop(&b));
            }
        }
        _ => prop_assert!(raw.is_err(), "{:?} / {:?}: {:?}", x, y, raw),
    }
    Ok(())
}

#[test]
fn nan_records_are_greater_than_themselves() {
    let a = AllPrims {
        float: f32::NAN,
        ..AllPrims::default()
    };
    let x = encode(&a, Format::Binary);
    assert_eq!(a.compare_hadoop(&a), Ordering::Greater);
    assert_eq!(AllPrims::compare_raw(&x, &x).unwrap(), Ordering::Greater);
}

/// A map written with a repeated key decodes as Java's `TreeMap.put` leaves it (the last
/// value wins), and the raw comparator still reads it: such bytes are not canonical, so the
/// two orders may differ (see `check_garbage`).
#[test]
fn repeated_map_keys_decode_last_wins() {
    // two entries, key "k" twice: 1 then 5
    let repeated = [2, 1, b'k', 1, 1, b'k', 5];
    let decoded = decode::<TreeMap>(&repeated, Format::Binary).unwrap();
    assert_eq!(decoded.len(), 1);
    assert_eq!(decoded[0].m, BTreeMap::from([("k".to_string(), 5)]));
    let canonical = encode(&decoded[0], Format::Binary);
    assert_eq!(canonical, [1, 1, b'k', 5]);
    assert!(TreeMap::compare_raw(&repeated, &canonical).is_ok());
}
