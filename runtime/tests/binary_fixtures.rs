//! The binary archive against every binary fixture Java wrote (155, `stream_*` files with
//! several records included): decoding, re-encoding to identical bytes, typed and
//! schema-driven, and truncation at every byte.

mod fixture_checks;
mod fixture_records;

use fixture_harness::Encoding;
use hadoop_record::Format;

#[test]
fn every_fixture_decodes_to_its_manifest_values() {
    assert_eq!(
        fixture_checks::decode_all_dynamic(Encoding::Binary, Format::Binary),
        155
    );
}

#[test]
fn every_fixture_reencodes_to_javas_bytes() {
    assert_eq!(
        fixture_checks::encode_all_dynamic(Encoding::Binary, Format::Binary),
        155
    );
}

#[test]
fn typed_records_read_and_write_every_fixture() {
    assert_eq!(
        fixture_checks::typed_all(Encoding::Binary, Format::Binary),
        155
    );
}

#[test]
fn truncation_at_every_byte_is_a_clean_end_or_a_located_error() {
    assert_eq!(
        fixture_checks::truncations(Encoding::Binary, Format::Binary),
        2183
    );
}
