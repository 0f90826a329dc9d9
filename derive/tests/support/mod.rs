//! What the derive's fixture tests share: typed records through `RecordWriter` and
//! `RecordReader`, NaN-canonical values, and Java's `compareTo` signs. Used as
//! `mod support;`; each test file uses only part of it.
#![allow(dead_code)]

use std::cmp::Ordering;

use fixture_harness::Comparison;
use hadoop_record::archive::FloatText;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Result};

/// `records` written back to back in `format` (floats in text as by default: Java 8–18's).
pub fn write_all<T: Record>(records: &[T], format: Format) -> Result<Vec<u8>> {
    write_all_as(records, format, FloatText::default())
}

/// `records` written back to back in `format`, floats in text as `float_text` says.
pub fn write_all_as<T: Record>(
    records: &[T],
    format: Format,
    float_text: FloatText,
) -> Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format).with_float_text(float_text);
    for record in records {
        writer.write(record)?;
    }
    Ok(writer.into_inner()?)
}

/// Every record of `bytes` in `format`.
pub fn read_all<T: Record>(bytes: &[u8], format: Format) -> Result<Vec<T>> {
    RecordReader::new(bytes, format).records::<T>().collect()
}

/// The sign Java's `compareTo` returns for `o`.
pub fn sign(o: Ordering) -> i32 {
    o as i32
}

/// Asserts that `T` compares the records of comparison `c`, binary encoded as `a` and
/// `b`, as Java did, both ways: on values (`compare_hadoop`) and on the encodings
/// (`compare_raw`).
pub fn assert_compares_as_java<T: Record>(c: &Comparison, a: &[u8], b: &[u8]) {
    let first = read_all::<T>(a, Format::Binary).unwrap().remove(0);
    let second = read_all::<T>(b, Format::Binary).unwrap().remove(0);
    assert_eq!(
        sign(first.compare_hadoop(&second)),
        c.compare_to_sign,
        "{}",
        c.label
    );
    assert_eq!(
        sign(second.compare_hadoop(&first)),
        c.compare_to_reverse_sign,
        "{}",
        c.label
    );
    // The raw comparator agrees with compareTo, including where Hadoop's does not.
    assert_eq!(
        sign(T::compare_raw(a, b).unwrap()),
        c.compare_to_sign,
        "{} (raw)",
        c.label
    );
    assert_eq!(
        sign(T::compare_raw(b, a).unwrap()),
        c.compare_to_reverse_sign,
        "{} (raw, reversed)",
        c.label
    );
}
