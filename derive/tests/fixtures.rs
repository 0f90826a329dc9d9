//! Every fixture file of `tests/fixtures/hadoop-java`, reproduced byte for byte by the
//! derived structs of `fixture_types` in all three formats and read back.

mod fixture_types;
mod support;

use fixture_harness::{check_typed_case, hadoop_java, Case, Encoding};
use hadoop_record::{Format, Record};
use support::read_all;

/// The case's manifest values as typed records (binary from the dynamic codec, read typed).
fn expected_records<T: Record>(case: &Case) -> Vec<T> {
    read_all(&case.expected_binary(), Format::Binary)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn check_encoding(encoding: Encoding) -> usize {
    let mut checked = 0;
    for case in hadoop_java().cases_in(encoding) {
        with_fixture_type!(case.record_type.as_str(), T => check_typed_case::<T>(case));
        checked += 1;
    }
    checked
}

#[test]
fn binary_fixtures() {
    assert_eq!(check_encoding(Encoding::Binary), 155);
}

#[test]
fn csv_fixtures() {
    assert_eq!(check_encoding(Encoding::Csv), 155);
}

#[test]
fn xml_fixtures() {
    assert_eq!(check_encoding(Encoding::Xml), 155);
}

fn check_display<T: Record + std::fmt::Display>(case: &Case) {
    let records = expected_records::<T>(case);
    let text: String = records.iter().map(|r| r.to_string()).collect();
    assert_eq!(text.as_bytes(), case.bytes(), "{}", case.name);
}

/// `Display` prints the CSV form, as Java's `Record.toString()`, line feed included.
#[test]
fn display_is_the_csv_form() {
    for case in hadoop_java().cases_in(Encoding::Csv) {
        with_fixture_type!(case.record_type.as_str(), T => check_display::<T>(case));
    }
}
