//! Derived records on arbitrary bytes: `read_from`, `skip_raw`, `compare_raw` and the
//! schema-driven `Value` reader must agree on what is a valid record (the nesting limit
//! included), never panic, and `compare_raw` must equal `compare_hadoop` of the decoded
//! records.
#![no_main]

use std::collections::BTreeMap;

use hadoop_record::archive::binary::RawInput;
use hadoop_record::field::Field;
use hadoop_record::Record;
use libfuzzer_sys::fuzz_target;

#[derive(Record)]
struct Inner {
    tag: String,
    n: i64,
}

#[derive(Record)]
struct Shapes {
    b: i8,
    z: bool,
    f: f32,
    d: f64,
    buf: Vec<u8>,
    inner: Inner,
    vrec: Vec<Inner>,
    msi: BTreeMap<String, Vec<i32>>,
}

/// Recursive through a vector: the nesting limit must hold on hostile input.
#[derive(Record)]
struct Tree {
    v: i32,
    kids: Vec<Tree>,
}

fn decode<T: Record>(bytes: &[u8]) -> Option<T> {
    let mut input = RawInput::new(bytes);
    let value = T::read_from(&mut input, "").ok()?;
    input.finish().ok()?;
    Some(value)
}

fn skips<T: Field>(bytes: &[u8]) -> bool {
    let mut input = RawInput::new(bytes);
    T::skip_raw(&mut input).is_ok() && input.finish().is_ok()
}

fn values<T: Record>(bytes: &[u8]) -> bool {
    let (schema, id) = T::schema();
    let mut input = RawInput::new(bytes);
    hadoop_record::value::read_record(&mut input, &schema, id, "").is_ok() && input.finish().is_ok()
}

fn check<T: Record + Field>(a: &[u8], b: &[u8]) {
    let (x, y) = (decode::<T>(a), decode::<T>(b));
    assert_eq!(x.is_some(), skips::<T>(a));
    assert_eq!(y.is_some(), skips::<T>(b));
    assert_eq!(x.is_some(), values::<T>(a));
    let raw = <T as Record>::compare_raw(a, b);
    match (x, y) {
        (Some(x), Some(y)) => assert_eq!(raw.ok(), Some(Record::compare_hadoop(&x, &y))),
        _ => assert!(raw.is_err()),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let (a, b) = rest.split_at((split as usize).min(rest.len()));
    check::<Shapes>(a, b);
    check::<Tree>(a, b);
    check::<Inner>(a, a);
});
