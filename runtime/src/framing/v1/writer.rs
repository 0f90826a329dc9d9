//! The RecordIO v1 writer.

use std::io::{BufWriter, Write};

use super::header::{is_strict_key, write_header, FileHeader};
use super::{V1WriteOptions, MAX_TYPE_LEN};
use crate::error::{excerpt, Error, ErrorKind, IntoInnerError, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;

/// Checks that an application may write records of this type: `[A-Za-z0-9]+`, not
/// reserved (a leading `.`), at most 1024 bytes.
pub fn check_record_type(record_type: &str) -> Result<()> {
    if record_type.starts_with('.') {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "record type {} is reserved (types starting with `.` belong to the library)",
                excerpt(record_type)
            ),
        ));
    }
    if record_type.is_empty()
        || record_type.len() > MAX_TYPE_LEN
        || !record_type.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "record type {} is not 1 to {MAX_TYPE_LEN} ASCII letters and digits",
                excerpt(record_type)
            ),
        ));
    }
    Ok(())
}

/// Writes the segments of one record: partial segments (`+`) of `max_segment` bytes while
/// more than that remains, then the terminating segment (`:`).
pub(crate) fn write_segments(
    w: &mut impl Write,
    record_type: &str,
    mut payload: &[u8],
    max_segment: u64,
) -> std::io::Result<()> {
    loop {
        let last = payload.len() as u64 <= max_segment;
        let n = if last {
            payload.len()
        } else {
            max_segment as usize
        };
        // ':' len (':' | '+') after the type: at most 22 bytes.
        let mut head = [0u8; 22];
        head[0] = b':';
        let mut end = 1 + write_decimal(n as u64, &mut head[1..]);
        head[end] = if last { b':' } else { b'+' };
        end += 1;
        w.write_all(record_type.as_bytes())?;
        w.write_all(&head[..end])?;
        w.write_all(&payload[..n])?;
        w.write_all(b"\n")?;
        payload = &payload[n..];
        if last {
            return Ok(());
        }
    }
}

/// Writes `v` in decimal at the start of `out`; returns the digits written.
fn write_decimal(v: u64, out: &mut [u8]) -> usize {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(v).as_bytes();
    out[..digits.len()].copy_from_slice(digits);
    digits.len()
}

/// Validates a writer's header and options.
pub(crate) fn check_writer(header: &FileHeader, options: &V1WriteOptions) -> Result<()> {
    if options.max_segment_len == 0 || options.max_segment_len > super::MAX_SEGMENT_LEN {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "maximum segment length {} outside 1..={}",
                options.max_segment_len,
                super::MAX_SEGMENT_LEN
            ),
        ));
    }
    if options.strict_keys {
        if let Some((key, _)) = header.pairs().iter().find(|(k, _)| !is_strict_key(k)) {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "header key {} is not Word(-Word)* with Word = [A-Z][a-z]* (see strict_keys)",
                    excerpt(key)
                ),
            ));
        }
    }
    Ok(())
}

/// Writes a RecordIO v1 file: the header (before the first record, or at `finish`), then
/// typed records, each split into segments of at most `max_segment_len` bytes.
///
/// ```
/// use hadoop_record::framing::v1::{FileHeader, V1WriteOptions, V1Writer};
/// let mut header = FileHeader::new();
/// header.push("Application", "demo").unwrap();
/// let mut w = V1Writer::new(Vec::new(), header, V1WriteOptions::default()).unwrap();
/// w.write_record("Log", b"hello").unwrap();
/// assert!(w.write_record(".index", b"0").is_err());
/// let file = w.into_inner().unwrap();
/// assert_eq!(file, b"RecordIO v1.0\nApplication: demo\n\nLog:5:hello\n");
/// ```
pub struct V1Writer<W: Write> {
    inner: Held<BufWriter<W>>,
    header: FileHeader,
    options: V1WriteOptions,
    header_written: bool,
    records: u64,
}

impl<W: Write> V1Writer<W> {
    /// A writer with this header; fails on keys the options refuse or bad options.
    pub fn new(inner: W, header: FileHeader, options: V1WriteOptions) -> Result<Self> {
        check_writer(&header, &options)?;
        Ok(V1Writer {
            inner: Held::new(BufWriter::with_capacity(
                crate::framing::plasma::READ_BUFFER,
                inner,
            )),
            header,
            options,
            header_written: false,
            records: 0,
        })
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    fn ensure_header(&mut self) -> Result<()> {
        if !self.header_written {
            write_header(&mut self.inner, &self.header)?;
            self.header_written = true;
        }
        Ok(())
    }

    /// Writes one record of `record_type`.
    pub fn write_record(&mut self, record_type: &str, payload: &[u8]) -> Result<()> {
        let result = check_record_type(record_type)
            .map_err(|e| e.in_record(self.records))
            .and_then(|()| self.write_checked(record_type, payload));
        self.inner.watch(result)
    }

    /// Writes the header if no record did, then a record of a checked type.
    fn write_checked(&mut self, record_type: &str, payload: &[u8]) -> Result<()> {
        self.ensure_header()?;
        write_segments(
            &mut self.inner,
            record_type,
            payload,
            self.options.max_segment_len,
        )?;
        self.records += 1;
        Ok(())
    }

    /// Writes the header if no record did, and flushes.
    pub fn finish(&mut self) -> Result<()> {
        let pending = self.ensure_header();
        self.inner.flush_after(pending)
    }
}

finish_on_drop!(
    V1Writer,
    V1Writer::finish,
    "writing the header and the buffered records",
    buffered
);

/// A [`V1Writer`] that writes every payload as a record of one type, for the generic
/// framing interface (`rcc frame --to v1 --record-type T`).
///
/// ```
/// use hadoop_record::framing::v1::{FileHeader, V1FrameWriter, V1WriteOptions};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = V1FrameWriter::new(Vec::new(), "Rec", FileHeader::new(), V1WriteOptions::default()).unwrap();
/// w.write_payload(b"x").unwrap();
/// w.finish().unwrap();
/// assert_eq!(w.into_inner().unwrap(), b"RecordIO v1.0\n\nRec:1:x\n");
/// ```
pub struct V1FrameWriter<W: Write> {
    writer: V1Writer<W>,
    record_type: String,
}

impl<W: Write> V1FrameWriter<W> {
    /// A writer of `record_type` records; fails on a reserved or malformed type.
    pub fn new(
        inner: W,
        record_type: &str,
        header: FileHeader,
        options: V1WriteOptions,
    ) -> Result<Self> {
        check_record_type(record_type)?;
        Ok(V1FrameWriter {
            writer: V1Writer::new(inner, header, options)?,
            record_type: record_type.to_string(),
        })
    }

    /// The typed writer underneath.
    pub fn get_mut(&mut self) -> &mut V1Writer<W> {
        &mut self.writer
    }

    /// Finishes and returns the underlying writer, as [`V1Writer::into_inner`] does; its
    /// error holds this writer.
    pub fn into_inner(self) -> Result<W, IntoInnerError<Self>> {
        let V1FrameWriter {
            writer,
            record_type,
        } = self;
        writer.into_inner().map_err(|e| {
            let (error, writer) = e.into_parts();
            IntoInnerError::new(
                V1FrameWriter {
                    writer,
                    record_type,
                },
                error,
            )
        })
    }
}

impl<W: Write> FrameWrite for V1FrameWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        // The type was checked by `new`.
        let result = self.writer.write_checked(&self.record_type, payload);
        self.writer.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        self.writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        let mut out = [0u8; 20];
        for v in [0u64, 7, 10, 99, 100, 4_294_967_295, u64::MAX] {
            let n = write_decimal(v, &mut out);
            assert_eq!(std::str::from_utf8(&out[..n]).unwrap(), v.to_string());
        }
    }

    #[test]
    fn records_split_into_partial_segments() {
        let mut out = Vec::new();
        write_segments(&mut out, "T", b"abcdefg", 3).unwrap();
        assert_eq!(out, b"T:3+abc\nT:3+def\nT:1:g\n");
        out.clear();
        write_segments(&mut out, "T", b"abcdef", 3).unwrap();
        assert_eq!(out, b"T:3+abc\nT:3:def\n");
        out.clear();
        write_segments(&mut out, "T", b"", 3).unwrap();
        assert_eq!(out, b"T:0:\n");
    }
}
