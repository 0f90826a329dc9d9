//! The binary, CSV and XML archives against every fixture Java wrote in them (155 each,
//! `stream_*` files with several records included): decoding, re-encoding to identical
//! bytes, typed and schema-driven; and, for binary and CSV, truncation at every byte (XML's,
//! with line:col positions and trickled input, is in `xml_stream.rs`).

mod fixture_checks;
mod fixture_records;
mod support;

use fixture_harness::Encoding;
use hadoop_record::Format;

/// Each archive: the fixtures' encoding and the stream API's format.
const ARCHIVES: [(Encoding, Format); 3] = [
    (Encoding::Binary, Format::Binary),
    (Encoding::Csv, Format::Csv),
    (Encoding::Xml, Format::Xml),
];

/// Runs `check` over the fixtures of every archive: each has 155.
fn on_every_archive(check: fn(Encoding, Format) -> usize) {
    for (encoding, format) in ARCHIVES {
        assert_eq!(check(encoding, format), 155, "{encoding:?}");
    }
}

#[test]
fn every_fixture_decodes_to_its_manifest_values() {
    on_every_archive(fixture_checks::decode_all_dynamic);
}

#[test]
fn every_fixture_reencodes_to_javas_bytes() {
    on_every_archive(fixture_checks::encode_all_dynamic);
}

#[test]
fn typed_records_read_and_write_every_fixture() {
    on_every_archive(fixture_checks::typed_all);
}

#[test]
fn truncation_at_every_byte_is_a_clean_end_or_a_located_error() {
    let cuts = [
        (Encoding::Binary, Format::Binary, 2183),
        (Encoding::Csv, Format::Csv, 3977),
    ];
    for (encoding, format, expected) in cuts {
        let checked = fixture_checks::truncations(encoding, format);
        assert_eq!(checked, expected, "{encoding:?}");
    }
}
