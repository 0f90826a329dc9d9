//! `Mapred_io.fixed_size_format`: records of exactly `n` bytes each, with `n` known from
//! outside the file. Record `i` starts at byte `i * n`, so any byte range splits exactly.

use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

use crate::error::{Error, ErrorKind, Position, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;
use crate::uninterrupted::read_some;

use super::READ_BUFFER;

fn check_size(size: usize) -> Result<()> {
    if size == 0 {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "plasma-fixed record size must be at least 1 byte",
        ));
    }
    Ok(())
}

/// Reads records of exactly `size` bytes; a trailing partial record is an error.
///
/// ```
/// use hadoop_record::framing::plasma::FixedReader;
/// let mut r = FixedReader::new(&b"abcdefg"[..], 3).unwrap();
/// assert_eq!(r.next().unwrap().unwrap(), b"abc");
/// assert_eq!(r.next().unwrap().unwrap(), b"def");
/// let err = r.next().unwrap().unwrap_err();
/// assert_eq!(err.to_string(), "byte 6: input ends inside a record (1 of 3 bytes)");
/// assert!(r.next().is_none());
/// ```
pub struct FixedReader<R> {
    inner: R,
    size: usize,
    /// Bytes read and not yet delivered (at most one buffer of whole records plus a tail).
    buf: Vec<u8>,
    pos: usize,
    /// Input offset of `buf[pos]`.
    offset: u64,
    /// Offset where the split ends (records starting there or later are not read).
    end: u64,
    eof: bool,
    done: bool,
}

impl<R: Read> FixedReader<R> {
    /// A reader of a whole file of `size`-byte records.
    pub fn new(inner: R, size: usize) -> Result<Self> {
        check_size(size)?;
        Ok(Self::at(inner, size, 0, u64::MAX))
    }

    fn at(inner: R, size: usize, offset: u64, end: u64) -> Self {
        FixedReader {
            inner,
            size,
            buf: Vec::new(),
            pos: 0,
            offset,
            end,
            eof: false,
            done: false,
        }
    }

    /// The record size.
    pub fn record_size(&self) -> usize {
        self.size
    }

    /// Offset in the input where the next record starts.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Makes sure `buf[pos..]` holds a whole record, unless the input ends first.
    fn fill(&mut self) -> Result<()> {
        if self.buf.len() - self.pos >= self.size || self.eof {
            return Ok(());
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        // Small records are read in batches of about READ_BUFFER bytes; a record larger than
        // that grows the buffer only as its bytes arrive, so a huge `size` allocates nothing
        // before the data exists.
        let batch = (READ_BUFFER / self.size).max(1) * self.size;
        while self.buf.len() < self.size && !self.eof {
            let have = self.buf.len();
            let step = if self.size <= READ_BUFFER {
                batch - have
            } else {
                (self.size - have).min(READ_BUFFER)
            };
            self.buf.resize(have + step, 0);
            let result = read_some(&mut self.inner, &mut self.buf[have..]);
            let n = *result.as_ref().unwrap_or(&0);
            self.buf.truncate(have + n);
            match result {
                Ok(n) => self.eof = n == 0,
                Err(e) => return Err(Error::from(e).at(Position::Byte(self.offset + have as u64))),
            }
        }
        Ok(())
    }
}

impl<R: Read + Seek> FixedReader<R> {
    /// A reader of the split `[start, end)`: the records whose first byte lies in it (the
    /// record containing `start` belongs to the split before, unless it starts at `start`).
    pub fn split(mut inner: R, size: usize, start: u64, end: u64) -> Result<Self> {
        check_size(size)?;
        let first = start.div_ceil(size as u64) * size as u64;
        inner.seek(SeekFrom::Start(first))?;
        Ok(Self::at(inner, size, first, end))
    }
}

impl<R: Read> Iterator for FixedReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.offset >= self.end {
            self.done = true;
            return None;
        }
        if let Err(e) = self.fill() {
            self.done = true;
            return Some(Err(e));
        }
        let have = self.buf.len() - self.pos;
        if have >= self.size {
            let record = self.buf[self.pos..self.pos + self.size].to_vec();
            self.pos += self.size;
            self.offset += self.size as u64;
            return Some(Ok(record));
        }
        self.done = true;
        if have == 0 {
            return None;
        }
        Some(Err(Error::eof(format!(
            "input ends inside a record ({have} of {} bytes)",
            self.size
        ))
        .at(Position::Byte(self.offset))))
    }
}

/// Checks that a payload fits a `size`-byte record of a plasma-fixed `container` ("file",
/// "stream").
pub(crate) fn check_length(payload: &[u8], size: usize, container: &str) -> Result<()> {
    if payload.len() == size {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Unsupported,
        format!(
            "payload of {} bytes in a plasma-fixed:{size} {container}",
            payload.len()
        ),
    ))
}

/// Writes records of exactly `size` bytes; a payload of another length is refused.
pub struct FixedWriter<W: Write> {
    inner: Held<BufWriter<W>>,
    size: usize,
    records: u64,
}

impl<W: Write> FixedWriter<W> {
    /// A writer of `size`-byte records into `inner`.
    pub fn new(inner: W, size: usize) -> Result<Self> {
        check_size(size)?;
        Ok(FixedWriter {
            inner: Held::new(BufWriter::with_capacity(READ_BUFFER, inner)),
            size,
            records: 0,
        })
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }
}

finish_on_drop!(
    FixedWriter,
    FrameWrite::finish,
    "writing the buffered records",
    buffered
);

impl<W: Write> FrameWrite for FixedWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let result = check_length(payload, self.size, "file")
            .map_err(|e| e.in_record(self.records))
            .and_then(|()| self.inner.write_all(payload).map_err(Error::from));
        self.records += u64::from(result.is_ok());
        self.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        self.inner.flush_after(Ok(()))
    }
}
