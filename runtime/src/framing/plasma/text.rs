//! `Mapred_io.line_structured_format`: every record ends with LF, so records cannot hold LF.
//!
//! Split reading follows the contract Hadoop's `LineRecordReader` implements: a record
//! belongs to the split in which its first byte lies, so a split that does not start at 0
//! skips the partial line it starts in and reads past its end to finish its last record.
//! (Hadoop assigns a line that starts exactly on a split boundary to the split before, by
//! always discarding the first line and reading one line past `end`; we look at the byte
//! before `start` instead, so that `[start, end)` holds exactly the records starting in it.
//! Both rules partition the records; neither loses or duplicates one.)

use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use crate::error::{Error, ErrorKind, Position, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;
use crate::options::options;
use crate::uninterrupted::read_some;

use super::{io_buffer, READ_BUFFER};

options! {
    /// Options of the text format readers.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct TextOptions {
        /// The longest record a reader accepts, in bytes without its LF (default 64 MiB); a
        /// longer one is an [`ErrorKind::Limit`] error, so memory stays bounded.
        max_record_size / with_max_record_size: copy usize = 64 << 20;
        /// Accept a last record that has no LF, as Hadoop does (default `false`: the writer
        /// always ends records with LF, so a missing one means the file was cut short).
        allow_unterminated / with_allow_unterminated: copy bool = false;
    }
}

/// What [`LineScanner::scan`] found in a piece of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// The record ends with the LF at this index of the piece.
    Line(usize),
    /// No LF in the piece: all of it belongs to the current record.
    Partial,
}

/// The incremental core shared by [`TextReader`] and the tokio codec: finds record ends in
/// pieces of input however they are cut, and enforces the record size limit.
#[derive(Debug, Clone)]
pub struct LineScanner {
    max_record_size: usize,
    /// Bytes of the current record seen so far.
    len: usize,
    /// Offset in the input of the current record's first byte.
    start: u64,
}

impl LineScanner {
    /// A scanner at input offset `start`.
    pub fn new(options: &TextOptions, start: u64) -> Self {
        LineScanner {
            max_record_size: options.max_record_size,
            len: 0,
            start,
        }
    }

    /// Offset in the input of the current record's first byte.
    pub fn record_start(&self) -> u64 {
        self.start
    }

    /// Bytes of the current record seen so far.
    pub fn pending(&self) -> usize {
        self.len
    }

    /// Looks for the end of the current record in the next piece of input.
    #[inline]
    pub fn scan(&mut self, piece: &[u8]) -> Result<Scan> {
        match memchr::memchr(b'\n', piece) {
            Some(i) => {
                self.check(i)?;
                self.start += (self.len + i + 1) as u64;
                self.len = 0;
                Ok(Scan::Line(i))
            }
            None => {
                self.check(piece.len())?;
                self.len += piece.len();
                Ok(Scan::Partial)
            }
        }
    }

    fn check(&self, more: usize) -> Result<()> {
        if self.len + more > self.max_record_size {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "record longer than the limit of {} bytes",
                    self.max_record_size
                ),
            )
            .at(Position::Byte(self.start)));
        }
        Ok(())
    }

    /// What ends the input: `Ok(true)` when the pending bytes are a last record without
    /// LF that the options accept, `Ok(false)` when nothing is pending, else the error.
    pub fn at_eof(&mut self, allow_unterminated: bool) -> Result<bool> {
        if self.len == 0 {
            return Ok(false);
        }
        if allow_unterminated {
            self.start += self.len as u64;
            self.len = 0;
            return Ok(true);
        }
        Err(Error::eof(format!(
            "input ends inside a record ({} bytes without the terminating LF)",
            self.len
        ))
        .at(Position::Byte(self.start)))
    }
}

/// Reads LF-terminated records; yields each without its LF.
///
/// ```
/// use hadoop_record::framing::plasma::TextReader;
/// let records: Vec<Vec<u8>> = TextReader::new(&b"one\n\ntwo\n"[..])
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(records, [&b"one"[..], b"", b"two"]);
/// ```
pub struct TextReader<R> {
    inner: BufReader<R>,
    options: TextOptions,
    scanner: LineScanner,
    /// Records starting at or after this offset belong to the next split.
    end: u64,
    done: bool,
}

impl<R: Read> TextReader<R> {
    /// A reader of a whole file with default options.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, TextOptions::default())
    }

    /// A reader of a whole file.
    pub fn with_options(inner: R, options: TextOptions) -> Self {
        TextReader {
            inner: BufReader::with_capacity(READ_BUFFER, inner),
            scanner: LineScanner::new(&options, 0),
            options,
            end: u64::MAX,
            done: false,
        }
    }

    /// Offset in the input where the next record starts.
    pub fn offset(&self) -> u64 {
        self.scanner.record_start()
    }

    /// The underlying reader (buffered input is lost).
    pub fn into_inner(self) -> R {
        self.inner.into_inner()
    }

    fn read_record(&mut self) -> Result<Option<Vec<u8>>> {
        let mut record = Vec::new();
        loop {
            let piece = self.inner.fill_buf().map_err(|e| {
                Error::from(e).at(Position::Byte(
                    self.scanner.record_start() + self.scanner.pending() as u64,
                ))
            })?;
            if piece.is_empty() {
                return if self.scanner.at_eof(self.options.allow_unterminated)? {
                    Ok(Some(record))
                } else {
                    Ok(None)
                };
            }
            match self.scanner.scan(piece)? {
                Scan::Line(i) => {
                    record.extend_from_slice(&piece[..i]);
                    self.inner.consume(i + 1);
                    return Ok(Some(record));
                }
                Scan::Partial => {
                    let n = piece.len();
                    record.extend_from_slice(piece);
                    self.inner.consume(n);
                }
            }
        }
    }
}

impl<R: Read + Seek> TextReader<R> {
    /// A reader of the split `[start, end)`: exactly the records whose first byte lies in
    /// the range. Any offsets work; `end` may lie past the end of the file.
    pub fn split(mut inner: R, start: u64, end: u64, options: TextOptions) -> Result<Self> {
        let mut first = start;
        let mut skip = false;
        if start > 0 {
            // A record starts at `start` exactly when the byte before it ends a record.
            inner.seek(SeekFrom::Start(start - 1))?;
            let mut before = [0u8; 1];
            let n = read_some(&mut inner, &mut before)?;
            skip = n == 1 && before[0] != b'\n';
            if n == 0 {
                first = u64::MAX; // The split lies past the end of the file.
            }
        } else {
            inner.seek(SeekFrom::Start(0))?;
        }
        let mut reader = TextReader {
            inner: BufReader::with_capacity(READ_BUFFER, inner),
            scanner: LineScanner::new(&options, first),
            options,
            end,
            done: first == u64::MAX,
        };
        if skip {
            reader.skip_partial_line()?;
        }
        Ok(reader)
    }

    /// Skips the tail of a record that started before the split (no allocation, no limit).
    fn skip_partial_line(&mut self) -> Result<()> {
        let mut offset = self.scanner.record_start();
        loop {
            let piece = self.inner.fill_buf().map_err(|e| io_buffer(e, offset))?;
            if piece.is_empty() {
                self.done = true;
                break;
            }
            if let Some(i) = memchr::memchr(b'\n', piece) {
                self.inner.consume(i + 1);
                offset += (i + 1) as u64;
                break;
            }
            let n = piece.len();
            self.inner.consume(n);
            offset += n as u64;
        }
        self.scanner = LineScanner::new(&self.options, offset);
        Ok(())
    }
}

impl<R: Read> Iterator for TextReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.scanner.record_start() >= self.end {
            self.done = true;
            return None;
        }
        let step = self.read_record();
        crate::framing::fuse(&mut self.done, step)
    }
}

/// Writes records each followed by LF; a payload holding LF is refused.
///
/// Output is buffered: call [`FrameWrite::finish`] (or [`TextWriter::into_inner`]) at the end.
pub struct TextWriter<W: Write> {
    inner: Held<BufWriter<W>>,
    records: u64,
}

impl<W: Write> TextWriter<W> {
    /// A writer into `inner`.
    pub fn new(inner: W) -> Self {
        TextWriter {
            inner: Held::new(BufWriter::with_capacity(READ_BUFFER, inner)),
            records: 0,
        }
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }
}

finish_on_drop!(
    TextWriter,
    FrameWrite::finish,
    "writing the buffered records",
    buffered
);

/// Checks that a payload can be a text record.
pub fn check_payload(payload: &[u8]) -> Result<()> {
    match memchr::memchr(b'\n', payload) {
        None => Ok(()),
        Some(i) => Err(Error::new(
            ErrorKind::Unsupported,
            format!("payload holds LF at byte {i}; plasma-text records cannot contain LF"),
        )),
    }
}

impl<W: Write> FrameWrite for TextWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let result = check_payload(payload)
            .map_err(|e| e.in_record(self.records))
            .and_then(|()| {
                self.inner.write_all(payload)?;
                self.inner.write_all(b"\n")?;
                Ok(())
            });
        self.records += u64::from(result.is_ok());
        self.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        self.inner.flush_after(Ok(()))
    }
}
