//! Mesos RecordIO over `std::io`: a reader that yields records and a writer that frames them.

use crate::framing::count::Count;
use std::io::{Read, Write};

use super::decoder::{length_line, MesosDecoder, MesosOptions};
use crate::error::{Error, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;
use crate::uninterrupted::read_some;

/// Size of the reader's input buffer.
const READ_BUFFER: usize = 64 * 1024;

/// Reads Mesos RecordIO records from any [`Read`].
///
/// An iterator of `Result<Vec<u8>>`: every complete record in order, then (on damaged input)
/// one error with the byte offset, then nothing. Reads its input in 64 KiB blocks, so it
/// needs no `BufReader`.
///
/// ```
/// use hadoop_record::framing::mesos::MesosReader;
/// let input = &b"5\nhello0\n3\nabc"[..];
/// let records: Vec<Vec<u8>> = MesosReader::new(input).collect::<Result<_, _>>()?;
/// assert_eq!(records, [&b"hello"[..], b"", b"abc"]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct MesosReader<R> {
    inner: R,
    decoder: MesosDecoder,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    done: bool,
}

impl<R: Read> MesosReader<R> {
    /// A strict reader with the default limits.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, MesosOptions::default())
    }

    /// A reader with the given options.
    pub fn with_options(inner: R, options: MesosOptions) -> Self {
        MesosReader {
            inner,
            decoder: MesosDecoder::new(options),
            buf: vec![0; READ_BUFFER].into_boxed_slice(),
            pos: 0,
            end: 0,
            done: false,
        }
    }

    /// The decoder's state (offset, records delivered).
    pub fn decoder(&self) -> &MesosDecoder {
        &self.decoder
    }

    /// Gives back the underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn next_record(&mut self) -> Result<Option<Vec<u8>>> {
        loop {
            if self.pos < self.end {
                let (n, record) = self.decoder.decode(&self.buf[self.pos..self.end])?;
                self.pos += n;
                if record.is_some() {
                    return Ok(record);
                }
            }
            let read = read_some(&mut self.inner, &mut self.buf).map_err(|e| {
                Error::from(e).at(crate::error::Position::Byte(self.decoder.offset()))
            })?;
            if read == 0 {
                self.decoder.finish()?;
                return Ok(None);
            }
            self.pos = 0;
            self.end = read;
        }
    }
}

impl<R: Read> Iterator for MesosReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let step = self.next_record();
        crate::framing::fuse(&mut self.done, step)
    }
}

/// Writes Mesos RecordIO frames to any [`Write`]: the length in minimal decimal form, LF,
/// the bytes (byte-identical to Mesos' own encoders).
///
/// Each frame is two `write_all` calls; wrap a file or socket in a `BufWriter`.
///
/// ```
/// use hadoop_record::framing::{mesos::MesosWriter, FrameWrite};
/// let mut w = MesosWriter::new(Vec::new());
/// w.write_payload(br#"{"type":"HEARTBEAT"}"#)?;
/// w.write_payload(b"")?;
/// w.finish()?;
/// assert_eq!(w.into_inner()?, b"20\n{\"type\":\"HEARTBEAT\"}0\n");
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct MesosWriter<W: Write> {
    inner: Held<W>,
    records: u64,
}

impl<W: Write> MesosWriter<W> {
    /// A writer over `inner`.
    pub fn new(inner: W) -> Self {
        MesosWriter {
            inner: Held::new(inner),
            records: 0,
        }
    }

    /// Number of records written.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }
}

finish_on_drop!(MesosWriter, FrameWrite::finish, "flushing the writer");

impl<W: Write> FrameWrite for MesosWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let mut line = [0u8; 21];
        let result = self
            .inner
            .write_all(length_line(payload.len() as u64, &mut line))
            .and_then(|()| self.inner.write_all(payload))
            .map_err(|e| Error::from(e).in_record(self.records));
        self.records += u64::from(result.is_ok());
        self.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        self.inner.flush_after(Ok(()))
    }
}

/// What [`info`] found in a Mesos RecordIO stream.
#[derive(Debug)]
pub struct MesosInfo {
    /// Complete records.
    pub records: u64,
    /// Bytes of the complete frames (length lines included).
    pub bytes: u64,
    /// Sum of the complete records' lengths.
    pub payload_bytes: u64,
    /// Length of the largest complete record.
    pub largest_record: u64,
    /// The error that ended the stream early (truncation, bad length line, limit), with
    /// its byte offset; `None` for a sound stream.
    pub damage: Option<Error>,
}

/// Reads a whole Mesos RecordIO stream and summarises it. Damage is reported in
/// [`MesosInfo::damage`] (Mesos RecordIO has no way to resynchronise after it); only I/O
/// errors fail.
///
/// ```
/// use hadoop_record::framing::mesos::{info, MesosOptions};
/// let summary = info(&b"5\nhello3\nab"[..], MesosOptions::default())?;
/// assert_eq!((summary.records, summary.bytes, summary.largest_record), (1, 7, 5));
/// assert!(summary.damage.is_some());
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn info<R: Read>(reader: R, options: MesosOptions) -> Result<MesosInfo> {
    let mut reader = MesosReader::with_options(reader, options);
    let mut out = MesosInfo {
        records: 0,
        bytes: 0,
        payload_bytes: 0,
        largest_record: 0,
        damage: None,
    };
    loop {
        match reader.next_record() {
            Ok(Some(record)) => {
                out.records += 1;
                out.payload_bytes += record.len() as u64;
                out.largest_record = out.largest_record.max(record.len() as u64);
            }
            Ok(None) => break,
            Err(e) if e.kind() == crate::ErrorKind::Io => return Err(e),
            Err(e) => {
                out.damage = Some(e);
                break;
            }
        }
        out.bytes = reader.decoder.offset();
    }
    Ok(out)
}

impl std::fmt::Display for MesosInfo {
    /// A one-line (two with damage) human-readable report.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "mesos recordio: {}, {} bytes of frames, {} payload bytes, largest record {} bytes",
            Count::of(self.records, "record", "records"),
            self.bytes,
            self.payload_bytes,
            self.largest_record
        )?;
        if let Some(damage) = &self.damage {
            writeln!(f, "damaged: {damage}")?;
        }
        Ok(())
    }
}
