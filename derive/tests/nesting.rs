//! One nesting rule for every path that walks a record (`hadoop_record::archive::Depth`):
//! typed `read_from` in every format, `skip_raw`, `compare_raw`, the `Value` codec and
//! JSON values all count records, vectors and maps alike and stop at the same depth.

use fixture_harness::add_record;
use std::cmp::Ordering;

use hadoop_record::archive::binary::RawInput;
use hadoop_record::archive::DEFAULT_MAX_DEPTH;
use hadoop_record::field::Field;
use hadoop_record::value::json::{from_json_with_max_depth, parse, to_json};
use hadoop_record::{
    Error, ErrorKind, Format, Position, Record, RecordReader, RecordWriter, Result,
};
use proptest::prelude::*;

/// Recursive through a vector: its depth comes from the input alone. A tree `n` levels
/// deep nests `2n` records and vectors.
#[derive(Record, Debug, Clone, PartialEq)]
struct Tree {
    v: i32,
    kids: Vec<Tree>,
}

/// A chain `levels` deep whose nodes carry `v` and, below the top, `extra` leaf siblings.
fn chain(levels: usize, v: i32, extra: usize) -> Tree {
    let leaf = || Tree {
        v,
        kids: Vec::new(),
    };
    let mut tree = leaf();
    for _ in 1..levels {
        let mut kids = vec![tree];
        kids.extend((0..extra).map(|_| leaf()));
        tree = Tree { v, kids };
    }
    tree
}

fn encode<T: Record>(record: &T, format: Format) -> Vec<u8> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write(record).unwrap();
    writer.into_inner().unwrap()
}

/// Exactly one record of `bytes` through `read_from` on a cursor with limit `max`.
fn decode_raw<T: Record>(bytes: &[u8], max: usize) -> Result<T> {
    let mut input = RawInput::new(bytes).with_max_depth(max);
    let record = T::read_from(&mut input, "")?;
    input.finish()?;
    Ok(record)
}

/// Exactly one record of `bytes` through `skip_raw` on a cursor with limit `max`.
fn skip<T: Field>(bytes: &[u8], max: usize) -> Result<()> {
    let mut input = RawInput::new(bytes).with_max_depth(max);
    T::skip_raw(&mut input)?;
    input.finish()
}

/// What one path made of an input: accepted, or the error's kind and position.
type Outcome = std::result::Result<(), (ErrorKind, Option<Position>)>;

fn outcome(r: Result<()>) -> Outcome {
    r.map_err(|e: Error| (e.kind(), e.position()))
}

/// The outcome of each path on one binary input under the default limit.
fn outcomes(bytes: &[u8]) -> Vec<(&'static str, Outcome)> {
    let (schema, id) = Tree::schema();
    vec![
        (
            "read_from",
            outcome(decode_raw::<Tree>(bytes, DEFAULT_MAX_DEPTH).map(drop)),
        ),
        ("skip_raw", outcome(skip::<Tree>(bytes, DEFAULT_MAX_DEPTH))),
        (
            "compare_raw",
            outcome(Tree::compare_raw(bytes, bytes).map(drop)),
        ),
        ("RecordReader::read", {
            let mut reader = RecordReader::new(bytes, Format::Binary);
            outcome(one(|| reader.read::<Tree>()))
        }),
        ("RecordReader::read_value", {
            let mut reader = RecordReader::new(bytes, Format::Binary);
            outcome(one(|| reader.read_value(&schema, id)))
        }),
    ]
}

/// A stream reader's outcome on input that must hold exactly one record: the record, then
/// the clean end of input.
fn one<T>(mut read: impl FnMut() -> Result<Option<T>>) -> Result<()> {
    match (read()?, read()?) {
        (Some(_), None) => Ok(()),
        (None, _) => Err(Error::eof("no record")),
        (Some(_), Some(_)) => Err(Error::syntax("more than one record")),
    }
}

/// What `fuzz/fuzz_targets/derive_raw.rs` found (issue 16): a `Tree` input (574 bytes,
/// about 280 levels) that `read_from` rejected and `skip_raw` accepted, and trees of 100
/// levels that `RecordReader::read` refused while `compare_raw` found them `Equal` — one
/// path counted vectors and the other did not. Now every path agrees at every depth, and
/// refuses at the same byte.
#[test]
fn the_derive_raw_fuzz_failure_is_rejected_by_every_path_alike() {
    for levels in 1..=300 {
        let tree = encode(&chain(levels, 0, 0), Format::Binary);
        let all = outcomes(&tree);
        let ok = levels * 2 <= DEFAULT_MAX_DEPTH;
        for (path, outcome) in &all {
            assert_eq!(outcome.is_ok(), ok, "{levels} levels: {path} {all:?}");
            assert_eq!(outcome, &all[0].1, "{levels} levels: {path} vs read_from");
        }
    }
    let hundred = encode(&chain(100, 0, 0), Format::Binary);
    assert!(RecordReader::new(&hundred[..], Format::Binary)
        .read::<Tree>()
        .unwrap()
        .is_some());
    assert_eq!(
        Tree::compare_raw(&hundred, &hundred).unwrap(),
        Ordering::Equal
    );

    // The fuzz input's shape: a split byte, then a tree about 280 deep.
    let tree = encode(&chain(286, 0, 0), Format::Binary);
    let mut data = vec![0];
    data.extend_from_slice(&tree);
    data.push(0);
    assert_eq!(data.len(), 574);
    let e = decode_raw::<Tree>(&data[1..], DEFAULT_MAX_DEPTH).unwrap_err();
    let f = skip::<Tree>(&data[1..], DEFAULT_MAX_DEPTH).unwrap_err();
    let g = Tree::compare_raw(&data[1..], &data[1..]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit);
    for other in [&f, &g] {
        assert_eq!(other.kind(), ErrorKind::Limit, "{other}");
        assert_eq!(other.position(), e.position(), "{other} vs {e}");
    }
    // Each level is `v` (0x00) and a one-element count (0x01): level 257's record opens
    // depth 513 at byte 512.
    assert_eq!(e.position(), Some(Position::Byte(512)));
    // With the limit raised, every path reads it (the trailing byte aside).
    assert!(decode_raw::<Tree>(&tree, 1000).is_ok());
    assert!(skip::<Tree>(&tree, 1000).is_ok());
}

/// At the default limit and one level past it, every format and every path agrees: a tree
/// 256 levels deep (512 records and vectors) reads, 257 levels do not.
#[test]
fn every_path_stops_at_the_same_depth() {
    let (schema, id) = Tree::schema();
    let deepest = DEFAULT_MAX_DEPTH / 2;
    for levels in [deepest, deepest + 1] {
        let tree = chain(levels, 7, 1);
        let ok = levels <= deepest;
        let binary = encode(&tree, Format::Binary);
        for (path, outcome) in outcomes(&binary) {
            assert_eq!(
                outcome.is_ok(),
                ok,
                "{path} at {levels} levels: {outcome:?}"
            );
        }
        for format in [Format::Binary, Format::Csv, Format::Xml] {
            let bytes = encode(&tree, format);
            let typed = RecordReader::new(&bytes[..], format).read::<Tree>();
            let value = RecordReader::new(&bytes[..], format).read_value(&schema, id);
            for (what, e) in [("read", typed.err()), ("read_value", value.err())] {
                match e {
                    None => assert!(ok, "{format} {what} read {levels} levels"),
                    Some(e) => {
                        assert!(!ok, "{format} {what} at {levels} levels: {e}");
                        assert_eq!(e.kind(), ErrorKind::Limit, "{format} {what}: {e}");
                        assert!(e.to_string().contains("nested more than 512 deep"), "{e}");
                    }
                }
            }
        }
    }
    // JSON values: written from a tree within the limit, read back under the same rule.
    let small = chain(deepest, 7, 1);
    let value = RecordReader::new(&encode(&small, Format::Binary)[..], Format::Binary)
        .read_value(&schema, id)
        .unwrap()
        .unwrap();
    let ty = hadoop_record::schema::FieldType::Record(id);
    let text = to_json(&schema, &ty, &value).unwrap();
    let json = parse(&text, DEFAULT_MAX_DEPTH).unwrap();
    let back = from_json_with_max_depth(&schema, &ty, &json, DEFAULT_MAX_DEPTH).unwrap();
    assert!(back == value, "JSON changed the value");
    let e = from_json_with_max_depth(&schema, &ty, &json, DEFAULT_MAX_DEPTH - 1)
        .map(drop)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    // Two JSON levels a tree level (an object and its `kids` array): 512 in all, more
    // than the text of a value 255 deep can take.
    assert!(parse(&text, DEFAULT_MAX_DEPTH / 2).is_ok());
    let e = parse(&text, DEFAULT_MAX_DEPTH / 2 - 1)
        .map(drop)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
}

/// The limit is the caller's: raised, every format reads deeper; lowered, it refuses
/// shallower input, in every format, for typed records and values alike.
#[test]
fn the_limit_is_a_reader_option() {
    let (schema, id) = Tree::schema();
    let tree = chain(300, 1, 0);
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = encode(&tree, format);
        let read = RecordReader::new(&bytes[..], format)
            .with_max_depth(600)
            .read::<Tree>()
            .unwrap();
        assert!(read.as_ref() == Some(&tree), "{format}");
        let mut reader = RecordReader::from_slice(&bytes, format).with_max_depth(600);
        assert!(
            reader.read_value(&schema, id).unwrap().is_some(),
            "{format}"
        );
        let e = RecordReader::new(&bytes[..], format)
            .with_max_depth(599)
            .read::<Tree>()
            .map(drop)
            .unwrap_err();
        assert!(
            e.to_string().contains("nested more than 599 deep"),
            "{format}: {e}"
        );
    }
    let small = encode(&chain(3, 1, 0), Format::Binary);
    assert!(decode_raw::<Tree>(&small, 6).is_ok());
    assert!(skip::<Tree>(&small, 6).is_ok());
    assert_eq!(
        decode_raw::<Tree>(&small, 5).unwrap_err().kind(),
        ErrorKind::Limit
    );
    assert_eq!(
        skip::<Tree>(&small, 5).unwrap_err().kind(),
        ErrorKind::Limit
    );
    let (mut a, mut b) = (
        RawInput::new(&small).with_max_depth(5),
        RawInput::new(&small).with_max_depth(5),
    );
    assert_eq!(
        <Tree as Field>::cmp_raw(&mut a, &mut b).unwrap_err().kind(),
        ErrorKind::Limit
    );
}

/// Arbitrary bytes shaped like `Tree`s: chains around the default limit, with siblings,
/// optionally one byte changed or cut short.
fn tree_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![
            0usize..8,
            (DEFAULT_MAX_DEPTH / 2 - 3)..(DEFAULT_MAX_DEPTH / 2 + 3)
        ],
        -2i32..2,
        0usize..2,
        any::<prop::sample::Index>(),
        prop_oneof![Just(None), any::<u8>().prop_map(Some)],
        any::<bool>(),
    )
        .prop_map(|(levels, v, extra, at, byte, cut)| {
            let mut bytes = encode(&chain(levels.max(1), v, extra), Format::Binary);
            let i = at.index(bytes.len());
            if let Some(byte) = byte {
                bytes[i] = byte;
            }
            if cut {
                bytes.truncate(i);
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Decode, skip and raw compare agree on validity (and `compare_raw` on the order)
    /// under the default limit, as does the `Value` codec.
    #[test]
    fn decode_skip_and_raw_compare_agree_on_validity(a in tree_bytes(), b in tree_bytes()) {
        for bytes in [&a, &b] {
            let all = outcomes(bytes);
            let ok = all[0].1.is_ok();
            for (path, outcome) in &all {
                prop_assert_eq!(outcome.is_ok(), ok, "{} vs read_from: {:?}", path, all);
            }
        }
        let decoded = (decode_raw::<Tree>(&a, DEFAULT_MAX_DEPTH), decode_raw::<Tree>(&b, DEFAULT_MAX_DEPTH));
        let raw = Tree::compare_raw(&a, &b);
        match decoded {
            (Ok(x), Ok(y)) => prop_assert_eq!(raw.unwrap(), x.compare_hadoop(&y)),
            _ => prop_assert!(raw.is_err()),
        }
    }

    /// The same under a small limit of the caller's: the cursor paths agree at every depth.
    #[test]
    fn paths_agree_under_any_limit(a in tree_bytes(), max in 0usize..20) {
        let decoded = decode_raw::<Tree>(&a, max);
        let skipped = skip::<Tree>(&a, max);
        prop_assert_eq!(decoded.is_ok(), skipped.is_ok(), "{:?} / {:?}", decoded, skipped);
        if let (Err(d), Err(s)) = (&decoded, &skipped) {
            if d.kind() == ErrorKind::Limit || s.kind() == ErrorKind::Limit {
                prop_assert_eq!(d.kind(), s.kind());
                prop_assert_eq!(d.position(), s.position());
            }
        }
        let (mut x, mut y) = (RawInput::new(&a).with_max_depth(max), RawInput::new(&a).with_max_depth(max));
        let compared = <Tree as Field>::cmp_raw(&mut x, &mut y).and_then(|o| x.finish().map(|()| o));
        prop_assert_eq!(compared.is_ok(), decoded.is_ok(), "{:?}", compared);
        if compared.is_ok() {
            prop_assert_eq!(compared.unwrap(), Ordering::Equal);
        }
    }
}

#[test]
fn values_and_records_agree_on_the_limit() {
    // A typed read and a value read of the same bytes report the same limit error.
    let bytes = encode(&chain(DEFAULT_MAX_DEPTH, 0, 0), Format::Binary);
    let (schema, id) = Tree::schema();
    let typed = RecordReader::new(&bytes[..], Format::Binary)
        .read::<Tree>()
        .unwrap_err();
    let value = RecordReader::new(&bytes[..], Format::Binary)
        .read_value(&schema, id)
        .unwrap_err();
    assert_eq!(typed.to_string(), value.to_string());
}

/// A non-recursive schema deeper than the default (a chain of 600 records): the default
/// refuses it, the depth the schema itself gives (`Schema::max_depth`) reads it.
#[test]
fn a_deep_non_recursive_schema_reads_with_its_own_depth() {
    use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    use hadoop_record::Value;
    let mut schema = Schema::new();
    let mut id = add_record(&mut schema, "m", "R0", vec![("x", FieldType::Int)]);
    let mut value = Value::Record(vec![Value::Int(7)]);
    for i in 1..600 {
        id = schema
            .add(RecordType {
                module: "m".into(),
                name: format!("R{i}"),
                fields: vec![FieldDef::new("r", FieldType::Record(id))],
            })
            .unwrap();
        value = Value::Record(vec![value]);
    }
    assert_eq!(schema.max_depth(id).unwrap(), Some(600));
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let mut writer = RecordWriter::new(Vec::new(), format);
        writer.write_value(&schema, id, &value).unwrap();
        let bytes = writer.into_inner().unwrap();
        let e = RecordReader::new(&bytes[..], format)
            .read_value(&schema, id)
            .map(drop)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit, "{format}: {e}");
        let max = schema.max_depth(id).unwrap().unwrap_or(DEFAULT_MAX_DEPTH);
        let read = RecordReader::new(&bytes[..], format)
            .with_max_depth(max.max(DEFAULT_MAX_DEPTH))
            .read_value(&schema, id)
            .unwrap();
        assert!(read.as_ref() == Some(&value), "{format}");
    }
}
