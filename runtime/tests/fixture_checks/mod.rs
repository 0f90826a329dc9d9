//! The checks every archive runs against the Java fixtures of its encoding: decode to the
//! manifest values, re-encode to Java's bytes (dynamic and typed), and fail cleanly on every
//! truncation — each through a slice reader and a reader that hands out one byte at a time.
#![allow(dead_code)]

use std::io::Read;

use fixture_harness::{hadoop_java, schema, Case, Encoding, Trickle};
use hadoop_record::archive::FloatText;
use hadoop_record::{Error, Format, Record, RecordReader, RecordWriter, Value};

use crate::fixture_records::ToValue;
use crate::support::truncation::assert_cut_short;

pub fn cases(encoding: Encoding) -> Vec<&'static Case> {
    hadoop_java().cases_in(encoding).collect()
}

/// Every record of `bytes` as values, with the error (if any) after the last good one.
pub fn read_values(reader: impl Read, format: Format, case: &Case) -> (Vec<Value>, Option<Error>) {
    let mut reader = RecordReader::new(reader, format);
    let mut got = Vec::new();
    loop {
        match reader.read_value(schema(), case.record_id()) {
            Ok(Some(v)) => got.push(v),
            Ok(None) => return (got, None),
            Err(e) => return (got, Some(e)),
        }
    }
}

fn assert_values(case: &Case, got: &[Value], how: &str) {
    let want = case.expected_values();
    assert_eq!(got.len(), want.len(), "{} ({how}): record count", case.name);
    for (g, w) in got.iter().zip(&want) {
        assert!(
            g.bitwise_eq(w),
            "{} ({how}):\n got {g:?}\nwant {w:?}",
            case.name
        );
    }
}

/// Every fixture decodes (schema-driven) to its manifest values, from a slice and trickled.
pub fn decode_all_dynamic(encoding: Encoding, format: Format) -> usize {
    let cases = cases(encoding);
    for case in &cases {
        let bytes = case.bytes();
        let modern = case.modern_bytes();
        for (how, data) in [("data/", &bytes), ("modern", &modern)] {
            let (got, err) = read_values(&data[..], format, case);
            assert!(err.is_none(), "{} ({how}): {}", case.name, err.unwrap());
            assert_values(case, &got, how);
        }
        let (got, err) = read_values(Trickle::new(&bytes, 1), format, case);
        assert!(err.is_none(), "{} (trickled): {}", case.name, err.unwrap());
        assert_values(case, &got, "trickled");
    }
    cases.len()
}

/// A writer printing floats as `float_text` says: for `Legacy` the default writer, so that
/// the default is what is checked.
pub fn writer(format: Format, float_text: FloatText) -> RecordWriter<Vec<u8>> {
    let writer = RecordWriter::new(Vec::new(), format);
    match float_text {
        FloatText::Legacy => writer,
        other => writer.with_float_text(other),
    }
}

/// Every fixture's values re-encode (schema-driven) to the bytes of each JDK: JDK 17's with
/// the default float text, the modern JDK's with `FloatText::Shortest`.
pub fn encode_all_dynamic(encoding: Encoding, format: Format) -> usize {
    let cases = cases(encoding);
    for case in &cases {
        for float_text in FloatText::ALL {
            let mut writer = writer(format, float_text);
            for v in case.expected_values() {
                writer
                    .write_value(schema(), case.record_id(), &v)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            }
            assert_eq!(writer.records_written(), case.values.len() as u64);
            let out = writer.into_inner().unwrap();
            assert_bytes(case, &out, "dynamic", float_text);
        }
    }
    cases.len()
}

fn assert_bytes(case: &Case, out: &[u8], how: &str, float_text: FloatText) {
    let want = case.bytes_with(float_text);
    if out != want {
        panic!(
            "{} ({how}, {float_text}): bytes differ\n got {}\nwant {}",
            case.name,
            String::from_utf8_lossy(out).escape_debug(),
            String::from_utf8_lossy(&want).escape_debug()
        );
    }
}

/// Every fixture through the typed records: decode (iterator), compare with the manifest,
/// re-encode to each JDK's bytes.
pub fn typed_all(encoding: Encoding, format: Format) -> usize {
    let cases = cases(encoding);
    for case in &cases {
        crate::with_fixture_type!(case.record_type, T => { typed_one::<T>(case, format) });
    }
    cases.len()
}

fn typed_one<T: Record + ToValue>(case: &Case, format: Format) {
    let bytes = case.bytes();
    let records: Vec<T> = RecordReader::new(&bytes[..], format)
        .records::<T>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{} (typed): {e}", case.name));
    let values: Vec<Value> = records.iter().map(ToValue::to_value).collect();
    assert_values(case, &values, "typed");

    let trickled: Vec<T> = RecordReader::new(Trickle::new(&bytes, 1), format)
        .into_records::<T>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{} (typed, trickled): {e}", case.name));
    assert_eq!(trickled.len(), records.len());

    for float_text in FloatText::ALL {
        let mut writer = writer(format, float_text);
        for r in &records {
            writer
                .write(r)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        }
        assert_bytes(case, &writer.into_inner().unwrap(), "typed", float_text);
    }
}

/// Every prefix of every fixture either ends exactly at a record boundary (and then reads
/// as the records before it) or fails with an error that has a position, the number of the
/// record it is in and a field path rooted at the record's type name.
pub fn truncations(encoding: Encoding, format: Format) -> usize {
    let mut checked = 0;
    for case in cases(encoding) {
        let bytes = case.bytes();
        let type_name = case.record_type.rsplit('.').next().unwrap();
        // Offsets where records end.
        let mut ends = Vec::new();
        let mut reader = RecordReader::new(&bytes[..], format);
        while reader
            .read_value(schema(), case.record_id())
            .unwrap()
            .is_some()
        {
            ends.push(match reader.position() {
                hadoop_record::Position::Byte(b) => b as usize,
                _ => line_end(&bytes, ends.len()),
            });
        }
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            for (how, (got, err)) in [
                ("slice", read_values(prefix, format, case)),
                (
                    "trickled",
                    read_values(Trickle::new(prefix, 1), format, case),
                ),
            ] {
                let complete = ends.iter().filter(|&&e| e <= len).count();
                match err {
                    None => assert!(
                        len == 0 || ends.contains(&len),
                        "{}[..{len}] ({how}) read cleanly mid-record",
                        case.name
                    ),
                    Some(e) => {
                        assert!(!ends.contains(&len), "{}[..{len}] ({how}): {e}", case.name);
                        assert_cut_short(&e, &case.name, len, complete, type_name);
                    }
                }
                assert_eq!(got.len(), complete, "{}[..{len}] ({how})", case.name);
            }
            checked += 1;
        }
    }
    checked
}

/// Offset just after the `n`th line feed (0-based), for text formats.
fn line_end(bytes: &[u8], n: usize) -> usize {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(n)
        .map(|(i, _)| i + 1)
        .expect("a line end per record")
}
