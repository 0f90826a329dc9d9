//! The sequential reader: every record of every chunk, in order.

use std::io::Read;

use super::chunk::next_record;
use super::recovery::{Damage, Skipped};
use super::scanner::{ChunkScanner, Step};
use super::window::record_window;
use super::PaddleReadOptions;
use crate::error::Result;
use crate::framing::split::{PayloadRun, RunPlace};
use crate::framing::BufferPool;

/// Reads the records of a PaddlePaddle RecordIO file in order, from any [`Read`].
///
/// Each chunk is verified (CRC-32, decompression, record table) before any of its records
/// is handed out. Strict (the default): every record of the valid chunks before the damage,
/// then one error with the damaged chunk's offset, then nothing; a trailing partial header
/// is an error, not the empty phantom chunk the Go readers see. Recovering
/// ([`PaddleReadOptions::recover`]): damaged stretches are skipped up to the next valid
/// chunk and listed in [`PaddleReader::skipped`].
///
/// ```
/// use hadoop_record::framing::paddle::{PaddleReader, PaddleReadOptions, PaddleWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = PaddleWriter::new(Vec::new());
/// w.write_payload(b"hello")?;
/// w.finish()?;
/// let file = w.into_inner()?;
/// let records: Vec<_> = PaddleReader::new(&file[..]).collect::<Result<_, _>>()?;
/// assert_eq!(records, [b"hello".to_vec()]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct PaddleReader<R> {
    pub(super) scanner: ChunkScanner<R>,
    /// Where the next record's length is in the open chunk's raw payload, the records of
    /// the chunk delivered, and all the records delivered.
    place: RunPlace,
    skipped: Vec<Skipped>,
    /// (Split) the file-wide number of the first record, when known.
    first_record: Option<u64>,
    /// (Strict split) records placed before this offset belong to earlier splits (see
    /// [`record_window`]).
    start: u64,
    /// (Split) records placed here or later belong to later splits; so do chunks whose
    /// header starts here or later.
    end: u64,
    /// Records of the open chunk this reader delivers: those before `stop`.
    stop: u32,
    done: bool,
}

impl<R: Read> PaddleReader<R> {
    /// A strict reader of the Go layout.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, PaddleReadOptions::default())
    }

    /// A reader with the given options.
    pub fn with_options(inner: R, options: PaddleReadOptions) -> Self {
        Self::from_scanner(ChunkScanner::new(inner, options), Some(0), 0..u64::MAX)
    }

    /// A reader of `scanner`'s chunks, the records placed in `range` (a whole file:
    /// `0..u64::MAX`; see [`record_window`]).
    pub(super) fn from_scanner(
        scanner: ChunkScanner<R>,
        first_record: Option<u64>,
        range: std::ops::Range<u64>,
    ) -> Self {
        PaddleReader {
            scanner,
            place: RunPlace::default(),
            skipped: Vec::new(),
            first_record,
            start: range.start,
            end: range.end,
            stop: 0,
            done: false,
        }
    }

    /// Takes its chunk buffer from `pool` and gives its buffers back when dropped, so that
    /// readers one after another reuse the same memory (see [`BufferPool`]).
    pub fn with_buffers(mut self, pool: &BufferPool) -> Self {
        self.scanner.pool_buffers(pool);
        self
    }

    /// The options in use.
    pub fn options(&self) -> &PaddleReadOptions {
        self.scanner.options()
    }

    /// What a recovering reader has skipped so far (offsets, lengths, reasons).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Number of records delivered so far.
    pub fn records_read(&self) -> u64 {
        self.place.records
    }

    /// The number in the file of the first record this reader delivers: 0 for a whole
    /// file; for a [split](PaddleReader::split), the records the chunk headers before it
    /// claim (`None` when recovering, where damage makes the count uncertain).
    pub fn first_record(&self) -> Option<u64> {
        self.first_record
    }

    /// Byte offset of the next unread chunk.
    pub fn offset(&self) -> u64 {
        self.scanner.offset()
    }

    /// Byte offset of the header of the chunk holding the record last delivered.
    pub fn chunk_offset(&self) -> u64 {
        self.scanner.chunk.offset
    }

    /// Gives back the underlying reader.
    pub fn into_inner(self) -> R {
        self.scanner.into_inner()
    }

    fn advance(&mut self) -> Result<bool> {
        loop {
            if !self.scanner.options().recover && self.scanner.offset() >= self.end {
                return Ok(false);
            }
            match self.scanner.step()? {
                Step::Chunk if self.scanner.chunk.offset >= self.end => {
                    self.scanner.chunk.records = 0;
                    return Ok(false);
                }
                Step::Chunk => {
                    self.place.next = 0;
                    self.place.pos = 0;
                    let chunk = &self.scanner.chunk;
                    let options = self.scanner.options();
                    let window = if options.recover || options.whole_chunks {
                        // Recovering splits take whole chunks (see `split`), and so do
                        // splits told to.
                        0..chunk.records
                    } else {
                        record_window(chunk.offset, &chunk.header, self.start, self.end)
                    };
                    // Records placed before the split are stepped over (their table is checked).
                    while self.place.next < window.start {
                        if next_record(chunk.raw(), &mut self.place.pos).is_none() {
                            break;
                        }
                        self.place.next += 1;
                    }
                    self.stop = window.end;
                    if self.place.next < self.stop {
                        return Ok(true);
                    }
                }
                Step::Skipped(s) if s.offset >= self.end => return Ok(false),
                Step::Skipped(s) => self.skipped.push(s),
                Step::End => return Ok(false),
            }
        }
    }
}

impl<R: Read> PaddleReader<R> {
    /// The next record, borrowed from the reader's chunk buffer: the same sequence as the
    /// iterator (records, then at most one error, then `None`) without allocating per
    /// record. Handy for converting or scanning files.
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{PaddleReader, PaddleWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let mut w = PaddleWriter::new(Vec::new());
    /// w.write_payload(b"abc")?;
    /// w.finish()?;
    /// let file = w.into_inner()?;
    /// let mut reader = PaddleReader::new(&file[..]);
    /// let mut total = 0;
    /// while let Some(record) = reader.next_ref() {
    ///     total += record?.len();
    /// }
    /// assert_eq!(total, 3);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn next_ref(&mut self) -> Option<Result<&[u8]>> {
        if let Err(e) = self.ready()? {
            return Some(Err(e));
        }
        let chunk = &self.scanner.chunk;
        let Some(record) = next_record(chunk.raw(), &mut self.place.pos) else {
            // The chunk's record table was checked when it was opened.
            self.done = true;
            return Some(Err(changed_table(chunk.offset)));
        };
        self.place.next += 1;
        self.place.records += 1;
        Some(Ok(record))
    }

    /// The next records, at most `max` (at least one) and all from one chunk, as a run to
    /// step through without a call per record; the run keeps the reader's place as it goes.
    /// `None` at the end; after an error, nothing more.
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{PaddleReader, PaddleWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let mut w = PaddleWriter::new(Vec::new());
    /// for r in [&b"a"[..], b"bc", b"def"] {
    ///     w.write_payload(r)?;
    /// }
    /// w.finish()?;
    /// let file = w.into_inner()?;
    /// let mut reader = PaddleReader::new(&file[..]);
    /// let lengths: Vec<usize> = reader.next_run(2).unwrap()?.map(<[u8]>::len).collect();
    /// assert_eq!(lengths, [1, 2]);
    /// assert_eq!(reader.next_ref().unwrap()?, b"def");
    /// assert!(reader.next_run(2).is_none());
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn next_run(&mut self, max: usize) -> Option<Result<PayloadRun<'_>>> {
        if let Err(e) = self.ready()? {
            return Some(Err(e));
        }
        let count = (self.stop - self.place.next).min(max.clamp(1, u32::MAX as usize) as u32);
        let raw = self.scanner.chunk.raw();
        Some(Ok(PayloadRun::new(raw, count, &mut self.place)))
    }

    /// Opens chunks until one has a record left for this reader: `Some(Ok(()))` then,
    /// `None` at the end, the error that ends the reader.
    fn ready(&mut self) -> Option<Result<()>> {
        // `done` is set only once the current chunk is used up.
        if self.done {
            return None;
        }
        if self.place.broken {
            // A run found the record table cut short, although it was checked.
            self.done = true;
            return Some(Err(changed_table(self.scanner.chunk.offset)));
        }
        while self.place.next >= self.stop {
            self.scanner.chunk.records = 0;
            self.stop = 0;
            match self.advance() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    let e = match self.first_record {
                        Some(first) => e.in_record(first + self.place.records),
                        None => e,
                    };
                    return Some(Err(e));
                }
            }
        }
        Some(Ok(()))
    }
}

/// The error of a record table that no longer holds what its check found (the file
/// changed under a memory map, say).
fn changed_table(chunk_offset: u64) -> crate::Error {
    Damage::Records("the record table changed after its check".into()).to_error(chunk_offset)
}

impl<R: Read> Iterator for PaddleReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_ref().map(|r| r.map(<[u8]>::to_vec))
    }
}
