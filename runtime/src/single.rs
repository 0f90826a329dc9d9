//! One record to or from bytes in one call, as serde_json's `to_vec` and `from_slice` and
//! prost's `encode_to_vec` and `decode` do it.

use std::io::{Read, Write};

use crate::error::{Error, ErrorKind, Position, Result};
use crate::record::Record;
use crate::stream::{Format, RecordReader, RecordWriter};

/// Encodes `record` in `format`: the bytes [`RecordWriter`] writes for it (in CSV, one line
/// with its line feed).
///
/// ```
/// use hadoop_record::{from_slice, to_vec, Format, Record};
///
/// #[derive(Record, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let bytes = to_vec(&Point { x: 1024, y: -1 }, Format::Binary)?;
/// assert_eq!(bytes, b"\x8e\x04\x00\xff");
/// assert_eq!(to_vec(&Point { x: 1, y: 2 }, Format::Csv)?, b"1,2\n");
/// assert_eq!(from_slice::<Point>(&bytes, Format::Binary)?, Point { x: 1024, y: -1 });
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn to_vec<T: Record>(record: &T, format: Format) -> Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write(record)?;
    Ok(writer.into_inner()?)
}

/// Writes `record` in `format` to `writer`, and flushes it. Pass `&mut w` to keep using `w`.
///
/// ```
/// use hadoop_record::{to_writer, Format, Record};
/// #[derive(Record)]
/// struct Point { x: i32, y: i32 }
/// let mut out = Vec::new();
/// to_writer(&mut out, &Point { x: 1, y: 2 }, Format::Xml)?;
/// assert!(out.starts_with(b"<value><struct>"));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn to_writer<W: Write, T: Record>(writer: W, record: &T, format: Format) -> Result<()> {
    let mut writer = RecordWriter::new(writer, format);
    writer.write(record)?;
    writer.into_inner()?;
    Ok(())
}

/// Decodes exactly one record of `format` from `bytes`. An input with no record, or with
/// anything after the record but what separates records in text (line breaks, XML
/// whitespace), is an error that says where.
///
/// ```
/// use hadoop_record::{from_slice, ErrorKind, Format, Record};
/// #[derive(Record, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// assert_eq!(from_slice::<Point>(b"1,2\n", Format::Csv)?, Point { x: 1, y: 2 });
/// let e = from_slice::<Point>(b"\x01\x02\x03", Format::Binary).unwrap_err();
/// assert_eq!(e.to_string(), "byte 2: 1 trailing byte after the record");
/// let e = from_slice::<Point>(b"", Format::Binary).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn from_slice<T: Record>(bytes: &[u8], format: Format) -> Result<T> {
    let mut reader = RecordReader::from_slice(bytes, format);
    let record = only_record(&mut reader)?;
    let at = reader.position();
    let rest = match at {
        Position::Byte(offset) => bytes.len().checked_sub(offset as usize),
        Position::LineCol { .. } => None,
    };
    trailing(reader.at_end()?, at, rest)?;
    Ok(record)
}

/// Reads exactly one record of `format` from `reader`, to its end, with the errors of
/// [`from_slice`]. The reader is buffered here.
///
/// ```
/// use hadoop_record::{from_reader, Format, Record};
/// #[derive(Record, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
/// let file = std::io::Cursor::new(b"\x02\x04".to_vec());
/// assert_eq!(from_reader::<_, Point>(file, Format::Binary)?, Point { x: 2, y: 4 });
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn from_reader<R: Read, T: Record>(reader: R, format: Format) -> Result<T> {
    let mut reader = RecordReader::new(reader, format);
    let record = only_record(&mut reader)?;
    let at = reader.position();
    trailing(reader.at_end()?, at, None)?;
    Ok(record)
}

/// The first record of `reader`; an error if there is none.
fn only_record<R: Read, T: Record>(reader: &mut RecordReader<R>) -> Result<T> {
    reader.read()?.ok_or_else(|| {
        Error::new(ErrorKind::UnexpectedEof, "the input holds no record").at(reader.position())
    })
}

/// An error unless the input was `at_end` after the record, which ended at `at`.
fn trailing(at_end: bool, at: Position, bytes: Option<usize>) -> Result<()> {
    if at_end {
        return Ok(());
    }
    let what = match bytes {
        Some(1) => "1 trailing byte".to_owned(),
        Some(n) => format!("{n} trailing bytes"),
        None => "trailing bytes".to_owned(),
    };
    Err(Error::new(ErrorKind::Syntax, format!("{what} after the record")).at(at))
}
