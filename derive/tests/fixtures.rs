//! Every fixture file of `tests/fixtures/hadoop-java`, reproduced byte for byte by the
//! derived structs of `fixture_types` in all three formats and read back.

mod fixture_types;
mod support;

use fixture_harness::{hadoop_java, Case, Encoding};
use hadoop_record::{Format, Record};
use support::{format_of, read_all, write_all};

/// The case's manifest values as typed records (binary from the dynamic codec, read typed).
fn expected_records<T: Record>(case: &Case) -> Vec<T> {
    read_all(&case.expected_binary(), Format::Binary)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_else(|_| format!("{bytes:02x?}"))
}

fn check_case<T: Record>(case: &Case) {
    let format = format_of(case.encoding);
    let records = expected_records::<T>(case);
    assert_eq!(records.len(), case.values.len(), "{}", case.name);

    // Written by the derived code: exactly the bytes JDK 17 wrote (the default float text is
    // JDK 8–18's).
    let written = write_all(&records, format).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let want = case.bytes();
    assert!(
        written == want,
        "{}: wrote\n{}\nwant\n{}",
        case.name,
        show(&written),
        show(&want)
    );

    // Read back, from the JDK 17 file and from the modern bytes: the same records.
    let binary = case.expected_binary();
    for (label, bytes) in [("data/", want), ("modern", case.modern_bytes())] {
        let read = read_all::<T>(&bytes, format)
            .unwrap_or_else(|e| panic!("{} ({label}): {e}", case.name));
        let again = write_all(&read, Format::Binary).unwrap();
        assert_eq!(
            again, binary,
            "{} ({label}): read different records",
            case.name
        );
    }
}

fn check_encoding(encoding: Encoding) -> usize {
    let mut checked = 0;
    for case in hadoop_java().cases_in(encoding) {
        with_fixture_type!(case.record_type.as_str(), T => check_case::<T>(case));
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
