//! The core (vint codec, strings, maps, schema-driven codec, Hadoop comparison) against the
//! Java reference fixtures, decoding binary straight from memory.

mod support;

use fixture_harness::{hadoop_java, schema, Encoding};
use hadoop_record::archive::binary::RawInput;
use hadoop_record::value::read_record;
use hadoop_record::RecordInput;
use support::values::assert_compares_like_java;

#[test]
fn every_binary_fixture_decodes_to_its_manifest_values() {
    let mut checked = 0;
    for case in hadoop_java().cases_in(Encoding::Binary) {
        let bytes = case.bytes();
        let mut input = RawInput::new(&bytes);
        let mut got = Vec::new();
        while !input.at_end().unwrap() {
            let value = read_record(&mut input, schema(), case.record_id(), "")
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            got.push(value);
        }
        let want = case.expected_values();
        assert_eq!(got.len(), want.len(), "{}", case.name);
        for (g, w) in got.iter().zip(&want) {
            assert!(g.bitwise_eq(w), "{}: got {g:?}, want {w:?}", case.name);
        }
        checked += 1;
    }
    assert_eq!(checked, 155);
}

#[test]
fn truncated_binary_fixtures_fail_cleanly_at_every_length() {
    for case in hadoop_java().cases_in(Encoding::Binary) {
        let bytes = case.bytes();
        let record_ends = decode_all(&bytes, case.record_id()).expect(&case.name);
        for len in 0..bytes.len() {
            match decode_all(&bytes[..len], case.record_id()) {
                Ok(ends) => {
                    assert!(
                        record_ends.contains(&len) || len == 0,
                        "{}[..{len}] decoded",
                        case.name
                    );
                    assert_eq!(
                        ends,
                        record_ends
                            .iter()
                            .copied()
                            .filter(|&e| e <= len)
                            .collect::<Vec<_>>()
                    );
                }
                Err(e) => {
                    assert!(!record_ends.contains(&len), "{}[..{len}]: {e}", case.name);
                    assert!(e.position().is_some(), "{}[..{len}]: {e}", case.name);
                }
            }
        }
    }
}

/// Decodes every record, returning the offset where each ends.
fn decode_all(
    bytes: &[u8],
    id: hadoop_record::schema::RecordId,
) -> hadoop_record::Result<Vec<usize>> {
    let mut input = RawInput::new(bytes);
    let mut ends = Vec::new();
    while !input.at_end()? {
        read_record(&mut input, schema(), id, "")?;
        ends.push(input.offset());
    }
    Ok(ends)
}

#[test]
fn value_comparison_reproduces_java_compare_to() {
    for c in &hadoop_java().comparisons {
        let (a, b) = c.values();
        assert_compares_like_java(c, &a, &b);
    }
}
