//! The RecordIO v1 reader over `std::io::Read`.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use super::decoder::{Decoder, Event};
use super::header::FileHeader;
use super::{TypedRecord, V1ReadOptions};
use crate::error::{Error, Position, Result};

/// Reads a RecordIO v1 file: the header at construction, then typed records.
///
/// Partial segments are joined into one record, reserved (`.`-typed) records are skipped,
/// and after an error (with its byte offset, or line:col in the header) nothing more is
/// yielded. [`V1Reader::payloads`] turns it into a plain payload iterator.
///
/// ```
/// use hadoop_record::framing::v1::V1Reader;
/// let file = b"RecordIO v1.0\nApplication: demo\n\nLog:3+abc\nLog:2:de\n.idx:1:0\n";
/// let mut reader = V1Reader::new(&file[..]).unwrap();
/// assert_eq!(reader.header().get("Application"), Some("demo"));
/// let record = reader.next().unwrap().unwrap();
/// assert_eq!((record.record_type.as_str(), &record.payload[..]), ("Log", &b"abcde"[..]));
/// assert!(reader.next().is_none());
/// ```
pub struct V1Reader<R> {
    inner: BufReader<R>,
    decoder: Decoder,
    /// (Split) records starting here or later belong to the next split.
    end: u64,
    /// (Split) moves the input past bytes not needed, and the input's length.
    seek: Option<(SeekPast<R>, u64)>,
    done: bool,
}

/// Moves a buffered input `n` bytes forward without reading them.
type SeekPast<R> = fn(&mut BufReader<R>, u64) -> std::io::Result<()>;

impl<R: Read> V1Reader<R> {
    /// Reads the header with default options.
    pub fn new(inner: R) -> Result<Self> {
        Self::with_options(inner, V1ReadOptions::default())
    }

    /// Reads the header; an input that does not start with a valid header is an error.
    pub fn with_options(inner: R, options: V1ReadOptions) -> Result<Self> {
        let mut reader = V1Reader {
            inner: BufReader::with_capacity(crate::framing::plasma::READ_BUFFER, inner),
            decoder: Decoder::new(options),
            end: u64::MAX,
            seek: None,
            done: false,
        };
        match reader.next_event()? {
            Some(Event::Header) => Ok(reader),
            // Not reached: `finish` fails before the header is complete, and no record
            // comes before it.
            _ => Err(Error::syntax("no RecordIO v1 header").at(Position::Byte(0))),
        }
    }

    /// The file header.
    pub fn header(&self) -> &FileHeader {
        self.decoder.header()
    }

    /// Input offset of the next byte to read.
    pub fn offset(&self) -> u64 {
        self.decoder.offset()
    }

    /// Records delivered so far.
    pub fn records_read(&self) -> u64 {
        self.decoder.records_read()
    }

    /// The number in the file of the record last delivered (records a split passed over
    /// count), or of the next one before the first is delivered.
    pub fn record_number(&self) -> u64 {
        (self.decoder.passed() + self.decoder.records_read()).saturating_sub(1)
    }

    /// Input offset of the record last delivered.
    pub fn record_start(&self) -> u64 {
        self.decoder.record_start()
    }

    /// Segments read so far (reserved ones included).
    pub fn segments(&self) -> u64 {
        self.decoder.segments()
    }

    /// Reserved records skipped so far.
    pub fn reserved(&self) -> u64 {
        self.decoder.reserved()
    }

    /// The payloads alone, for the generic framing interface.
    pub fn payloads(self) -> Payloads<R> {
        Payloads(self)
    }

    fn next_event(&mut self) -> Result<Option<Event>> {
        loop {
            if self.decoder.header_done()
                && self.decoder.at_record_boundary()
                && self.decoder.offset() >= self.end
            {
                return Ok(None);
            }
            let remaining = self.decoder.body_remaining();
            if let Some((seek, len)) = self.seek {
                // A body a split does not keep is passed by seeking, unless it runs past
                // the end of the input, which reading reports properly.
                if remaining > 0
                    && !self.decoder.keeps_body()
                    && self.decoder.offset() + remaining <= len
                {
                    let offset = self.decoder.offset();
                    seek(&mut self.inner, remaining)
                        .map_err(|e| Error::from(e).at(Position::Byte(offset)))?;
                    self.decoder.skip_body(remaining);
                    continue;
                }
            }
            if remaining >= super::DIRECT_READ && self.inner.buffer().is_empty() {
                self.read_body_directly()?;
                continue;
            }
            let offset = self.decoder.offset();
            let buf = self
                .inner
                .fill_buf()
                .map_err(|e| Error::from(e).at(Position::Byte(offset)))?;
            if buf.is_empty() {
                self.decoder.finish()?;
                return Ok(None);
            }
            let (n, event) = self.decoder.decode(buf)?;
            self.inner.consume(n);
            if event.is_some() {
                return Ok(event);
            }
        }
    }

    /// Reads the rest of a large body straight from the source, bypassing the buffer.
    fn read_body_directly(&mut self) -> Result<()> {
        let offset = self.decoder.offset();
        let n = self
            .decoder
            .read_body(self.inner.get_mut())
            .map_err(|e| Error::from(e).at(Position::Byte(offset)))?;
        if n == 0 {
            self.decoder.finish()?;
        }
        Ok(())
    }

    fn next_record(&mut self) -> Option<Result<()>> {
        if self.done {
            return None;
        }
        let step = self.next_event().map(|event| event.map(drop));
        crate::framing::fuse(&mut self.done, step)
    }
}

impl<R: Read> Iterator for V1Reader<R> {
    type Item = Result<TypedRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_record()?.map(|()| TypedRecord {
            record_type: self.decoder.record_type().to_string(),
            payload: self.decoder.take_payload(),
        }))
    }
}

impl<R: Read + Seek> V1Reader<R> {
    /// A reader of the split `[start, end)` of a file: the header, then exactly the records
    /// whose first segment starts in the range (read to their end past `end` as needed).
    /// Any offsets work; `end` may lie past the end of the file.
    ///
    /// The format has no sync marker, and a body may hold anything, segment headers
    /// included, so the records before `start` are found by walking the segment headers from
    /// the file header on, as a whole-file reader does; their bodies are seeked past, not
    /// read. Record numbers in errors and [`V1Reader::record_number`] count from the start
    /// of the file.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use hadoop_record::framing::v1::V1Reader;
    /// let file = b"RecordIO v1.0\n\nLog:3:abc\nLog:2+de\nLog:1:f\n";
    /// let payloads = |start, end| -> Vec<Vec<u8>> {
    ///     let reader = V1Reader::split(Cursor::new(&file[..]), start, end, Default::default()).unwrap();
    ///     reader.map(|r| r.unwrap().payload).collect()
    /// };
    /// assert_eq!(payloads(0, 20), [b"abc".to_vec()]);
    /// assert_eq!(payloads(20, 100), [b"def".to_vec()]);
    /// ```
    pub fn split(mut inner: R, start: u64, end: u64, options: V1ReadOptions) -> Result<Self> {
        let len = inner.seek(SeekFrom::End(0))?;
        inner.seek(SeekFrom::Start(0))?;
        let mut reader = Self::with_options(inner, options)?;
        reader.decoder.skip_before(start);
        reader.decoder.stop_at(end);
        reader.end = end;
        reader.seek = Some((seek_past::<R>, len));
        Ok(reader)
    }
}

fn seek_past<R: Read + Seek>(input: &mut BufReader<R>, n: u64) -> std::io::Result<()> {
    // Bodies are at most `MAX_SEGMENT_LEN` (u32) bytes.
    input.seek_relative(n as i64)
}

/// The payloads of a [`V1Reader`], whatever their record type.
pub struct Payloads<R>(V1Reader<R>);

impl<R> Payloads<R> {
    /// The underlying typed reader.
    pub fn get_ref(&self) -> &V1Reader<R> {
        &self.0
    }
}

impl<R: Read> Payloads<R> {
    /// The next payload, borrowed until the next call: the same sequence as the iterator
    /// without allocating per record.
    pub fn next_ref(&mut self) -> Option<Result<&[u8]>> {
        match self.0.next_record()? {
            Ok(()) => Some(Ok(self.0.decoder.payload())),
            Err(e) => Some(Err(e)),
        }
    }
}

impl<R: Read> Iterator for Payloads<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(
            self.0
                .next_record()?
                .map(|()| self.0.decoder.take_payload()),
        )
    }
}
