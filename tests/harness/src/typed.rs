//! The fixtures against typed records: the structs `#[derive(Record)]` makes and the ones
//! `rcc` generates must both reproduce every file Java wrote.

use hadoop_record::{Format, Record, RecordReader, RecordWriter};

use crate::Case;

/// Checks that the typed record `T` reproduces `case`: the manifest's values, read as `T`
/// from their binary form, are written in the case's encoding byte for byte as JDK 17 wrote
/// them (the default float text is JDK 8–18's); read back as `T` from that file and from the
/// modern JDK's bytes, they are the same records.
///
/// # Panics
/// With the case's name, where any of that does not hold.
pub fn check_typed_case<T: Record>(case: &Case) {
    let format = case.encoding.format();
    let binary = case.expected_binary();
    let records: Vec<T> =
        read_all(&binary, Format::Binary).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    assert_eq!(records.len(), case.values.len(), "{}", case.name);

    let written = write_all(&records, format).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let want = case.bytes();
    assert!(
        written == want,
        "{}: the typed records wrote\n{}\nbut Java wrote\n{}",
        case.name,
        show(&written),
        show(&want)
    );

    for (label, bytes) in [("data/", want), ("modern JDK", case.modern_bytes())] {
        let read: Vec<T> =
            read_all(&bytes, format).unwrap_or_else(|e| panic!("{} ({label}): {e}", case.name));
        assert_eq!(
            write_all(&read, Format::Binary).unwrap(),
            binary,
            "{} ({label}): read back different records",
            case.name
        );
    }
}

fn write_all<T: Record>(records: &[T], format: Format) -> hadoop_record::Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    for record in records {
        writer.write(record)?;
    }
    Ok(writer.into_inner()?)
}

fn read_all<T: Record>(bytes: &[u8], format: Format) -> hadoop_record::Result<Vec<T>> {
    RecordReader::new(bytes, format).records::<T>().collect()
}

/// Text as text, other bytes in hex.
fn show(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_else(|_| format!("{bytes:02x?}"))
}
