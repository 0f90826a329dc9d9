//! Reading a byte range of a file, whatever its framing: the one entry point query engines
//! use to spread a large file over several readers.
//!
//! [`Framing::open_range`] opens `[start, end)` of a file and gives the records that belong
//! to that range: for a splittable framing, those that start in it (found along the
//! framing's own boundaries: Paddle chunks, Plasma var chunk slots, lines, fixed-size slots,
//! RecordIO v1 segments); for an unsplittable one, the whole file for the range that starts
//! at 0 and nothing for the others. Either way, the ranges of any partition of a file
//! deliver every record exactly once.
//!
//! | framing | splits at | found by |
//! | --- | --- | --- |
//! | none (binary, XML, jute) | — | the range at 0 reads the whole file |
//! | none, CSV | lines | the LF before the range |
//! | `mesos` | — | (no sync point: lengths are the only structure) |
//! | `paddle`, `paddle-cpp` | records, by their share of their chunk (recovering: chunks) | the header chain from 0 ([`PaddleReader::split`]) |
//! | `plasma-text` | lines | the LF before the range |
//! | `plasma-fixed:N` | records | arithmetic |
//! | `plasma-var` | chunk slots | the slot headers ([`VarReader::split`]) |
//! | `v1` | records | the segment chain from the header ([`V1Reader::split`]) |
//! | `seqfile` | sync entries | the first sync marker at or after the range, as Hadoop's `SequenceFileInputFormat` ([`SeqReader::split`]) |
//!
//! A new framing joins with a variant of [`Framing`], an arm in [`Framing::open_range`]
//! (its reader of a range, wrapped by [`Split::payloads`]) and one in
//! [`Framing::is_splittable`]; its reader implements [`PayloadRead`].

use crate::options::options;
use std::fmt;
use std::io::{BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::ops::Range;
use std::str::FromStr;

use bytes::Bytes;

use super::mesos::{MesosOptions, MesosReader};
use super::paddle::{Layout, PaddleReadOptions, PaddleReader};
use super::plasma::{FixedReader, TextOptions, TextReader, VarReadOptions, VarReader};
use super::seqfile::{SeqReadOptions, SeqReader};
use super::v1::{Payloads, V1ReadOptions, V1Reader};
use super::BufferPool;
use crate::error::{Error, ErrorKind, Result};
use crate::stream::Format;

/// A file's framing and how to read it. Its [name](fmt::Display) is the one `rcc` takes
/// after `--in-framing` (`none` for records back to back).
///
/// ```
/// use hadoop_record::framing::split::Framing;
/// let f: Framing = "plasma-fixed:16".parse()?;
/// assert_eq!(f, Framing::PlasmaFixed(16));
/// assert_eq!(f.to_string(), "plasma-fixed:16");
/// assert!(f.is_splittable(hadoop_record::Format::Binary));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Framing {
    /// No framing: records back to back in their encoding. Split by lines for CSV (one
    /// record per line: Hadoop's CSV ends each record with LF and escapes line ends in
    /// strings; a file whose records end with CR alone is one long line, whose second
    /// record is an error), else unsplittable.
    None,
    /// Mesos RecordIO (unsplittable).
    Mesos(MesosOptions),
    /// PaddlePaddle chunked RecordIO, either layout.
    Paddle(PaddleReadOptions),
    /// Plasma's LF-terminated records.
    PlasmaText(TextOptions),
    /// Plasma's records of exactly this many bytes.
    PlasmaFixed(usize),
    /// Plasma's length-prefixed records in chunk slots.
    PlasmaVar(VarReadOptions),
    /// RecordIO v1.0.
    V1(V1ReadOptions),
    /// Hadoop SequenceFiles: their values (the keys are not read).
    SeqFile(SeqReadOptions),
}

/// The names [`Framing`] parses.
pub const FRAMING_NAMES: &str =
    "none, mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, v1, seqfile";

impl FromStr for Framing {
    type Err = Error;

    /// A framing by name, with default read options.
    fn from_str(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Framing::None,
            "mesos" => Framing::Mesos(MesosOptions::default()),
            "paddle" => Framing::Paddle(PaddleReadOptions::default()),
            "paddle-cpp" => Framing::Paddle(PaddleReadOptions::default().with_layout(Layout::Cpp)),
            "plasma-text" => Framing::PlasmaText(TextOptions::default()),
            "plasma-var" => Framing::PlasmaVar(VarReadOptions::default()),
            "v1" => Framing::V1(V1ReadOptions::default()),
            "seqfile" => Framing::SeqFile(SeqReadOptions::default()),
            _ => match name.parse() {
                Ok(super::plasma::PlasmaFormat::Fixed(n)) => Framing::PlasmaFixed(n),
                _ => {
                    let choices = format!("one of {FRAMING_NAMES}");
                    return Err(Error::unknown_name("framing", name, &choices));
                }
            },
        })
    }
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Framing::None => f.write_str("none"),
            Framing::Mesos(_) => f.write_str("mesos"),
            Framing::Paddle(o) if o.layout() == Layout::Cpp => f.write_str("paddle-cpp"),
            Framing::Paddle(_) => f.write_str("paddle"),
            Framing::PlasmaText(_) => f.write_str("plasma-text"),
            Framing::PlasmaFixed(n) => write!(f, "plasma-fixed:{n}"),
            Framing::PlasmaVar(_) => f.write_str("plasma-var"),
            Framing::V1(_) => f.write_str("v1"),
            Framing::SeqFile(_) => f.write_str("seqfile"),
        }
    }
}

options! {
    /// The read settings `rcc` takes for framed input (`--recover`, `--lenient`,
    /// `--max-record-size`), applied by [`Framing::configure`] to whichever framing they fit.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct ReadSettings {
        /// paddle, paddle-cpp, plasma-var, seqfile: skip damaged chunks (records and blocks
        /// up to the next sync entry) and carry on.
        recover / with_recover: copy bool = false;
        /// mesos: also accept whitespace, CR and `+` around lengths.
        lenient / with_lenient: copy bool = false;
        /// The largest record accepted (paddle: the largest chunk, stored or decompressed);
        /// `None`: the framing's default.
        max_record_size / with_max_record_size: copy Option<u64> = None;
    }
}

impl Framing {
    /// The framing with `settings` applied; an error names a setting that does not apply
    /// to it.
    ///
    /// ```
    /// use hadoop_record::framing::split::{Framing, ReadSettings};
    /// let paddle: Framing = "paddle".parse()?;
    /// let recover = ReadSettings::default().with_recover(true);
    /// assert!(matches!(paddle.configure(&recover)?, Framing::Paddle(o) if o.recover()));
    /// let e = Framing::V1(Default::default()).configure(&recover).unwrap_err();
    /// assert_eq!(e.to_string(), "recovery applies to paddle, paddle-cpp, plasma-var and seqfile input, not v1");
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn configure(self, settings: &ReadSettings) -> Result<Framing> {
        let refuse = |what: &str, applies: &str| {
            Err(Error::new(
                ErrorKind::Unsupported,
                format!("{what} applies to {applies} input, not {self}"),
            ))
        };
        if settings.recover()
            && !matches!(
                self,
                Framing::Paddle(_) | Framing::PlasmaVar(_) | Framing::SeqFile(_)
            )
        {
            return refuse("recovery", "paddle, paddle-cpp, plasma-var and seqfile");
        }
        if settings.lenient() && !matches!(self, Framing::Mesos(_)) {
            return refuse("leniency", "mesos");
        }
        let max = settings.max_record_size();
        if max.is_some() && matches!(self, Framing::None | Framing::PlasmaFixed(_)) {
            return refuse("a record size limit", "framed (but not plasma-fixed)");
        }
        Ok(match self {
            Framing::None | Framing::PlasmaFixed(_) => self,
            Framing::Mesos(o) => {
                let o = o.with_lenient(settings.lenient());
                Framing::Mesos(max.map_or(o, |max| o.with_max_record_size(max)))
            }
            Framing::Paddle(o) => {
                let o = o.with_recover(settings.recover());
                Framing::Paddle(max.map_or(o, |max| o.with_max_chunk_bytes(max)))
            }
            Framing::PlasmaText(o) => Framing::PlasmaText(max.map_or(o, |max| {
                o.with_max_record_size(usize::try_from(max).unwrap_or(usize::MAX))
            })),
            Framing::PlasmaVar(o) => {
                let o = o.with_recover(settings.recover());
                Framing::PlasmaVar(max.map_or(o, |max| o.with_max_record_size(max)))
            }
            Framing::V1(o) => Framing::V1(max.map_or(o, |max| o.with_max_record_size(max))),
            Framing::SeqFile(o) => {
                let o = o.with_recover(settings.recover());
                Framing::SeqFile(max.map_or(o, |max| o.with_max_record_size(max)))
            }
        })
    }

    /// Whether a file of records in `format` inside this framing can be read as several
    /// byte ranges. When it cannot, [`Framing::open_range`] still partitions correctly:
    /// the range at 0 reads everything.
    pub fn is_splittable(&self, format: Format) -> bool {
        match self {
            Framing::None => format == Format::Csv,
            Framing::Mesos(_) => false,
            Framing::Paddle(_)
            | Framing::PlasmaText(_)
            | Framing::PlasmaFixed(_)
            | Framing::PlasmaVar(_)
            | Framing::V1(_)
            | Framing::SeqFile(_) => true,
        }
    }

    /// The records of the byte range `range` of `input`, a file (or anything seekable) of
    /// records in `format` inside this framing: those that start in the range (a record
    /// that starts in it is read to its end), or, when the framing is not splittable, all
    /// of them for a range that starts at 0 and none for the others.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use hadoop_record::framing::split::{Framing, Split};
    /// use hadoop_record::Format;
    /// let file = b"one\ntwo\nthree\n";
    /// let mut lines = Vec::new();
    /// for start in [0, 5, 10] {
    ///     let split = Framing::PlasmaText(Default::default())
    ///         .open_range(Format::Csv, Cursor::new(&file[..]), start..start + 5)?;
    ///     let Split::Payloads(mut payloads) = split else { unreachable!() };
    ///     while let Some(payload) = payloads.next_payload() {
    ///         lines.push(String::from_utf8(payload?.to_vec()).unwrap());
    ///     }
    /// }
    /// assert_eq!(lines, ["one", "two", "three"]);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn open_range<'a, R>(
        &self,
        format: Format,
        input: R,
        range: Range<u64>,
    ) -> Result<Split<'a>>
    where
        R: Read + Seek + Send + 'a,
    {
        self.open_range_in(format, input, range, None)
    }

    /// [`Framing::open_range`], the reader taking its large buffers (a Paddle chunk's) from
    /// `pool` and giving them back when dropped: ranges read one after another (by the
    /// partitions of a query, or by queries one after another) reuse the same memory.
    pub fn open_range_pooled<'a, R>(
        &self,
        format: Format,
        input: R,
        range: Range<u64>,
        pool: &BufferPool,
    ) -> Result<Split<'a>>
    where
        R: Read + Seek + Send + 'a,
    {
        self.open_range_in(format, input, range, Some(pool))
    }

    /// [`Framing::open_range_pooled`] of a file held in memory (a memory-mapped file, say):
    /// Paddle's uncompressed payloads are views of `file`, not copies
    /// ([`PaddleReader::split_in_memory`]); the other framings read it as any input.
    pub fn open_range_in_memory<'a>(
        &self,
        format: Format,
        file: Bytes,
        range: Range<u64>,
        pool: &BufferPool,
    ) -> Result<Split<'a>> {
        match *self {
            Framing::Paddle(o) => {
                let reader = PaddleReader::split_in_memory(file, range.start, range.end, o)?;
                Ok(Split::Payloads(Box::new(reader.with_buffers(pool))))
            }
            _ => self.open_range_in(format, Cursor::new(file), range, Some(pool)),
        }
    }

    fn open_range_in<'a, R>(
        &self,
        format: Format,
        mut input: R,
        range: Range<u64>,
        pool: Option<&BufferPool>,
    ) -> Result<Split<'a>>
    where
        R: Read + Seek + Send + 'a,
    {
        let Range { start, end } = range;
        let first = (start == 0).then_some(0);
        if !self.is_splittable(format) {
            if start > 0 {
                return Ok(Split::Payloads(Box::new(NoPayloads)));
            }
            input.seek(SeekFrom::Start(0))?;
        }
        Ok(match *self {
            Framing::None if format == Format::Csv => {
                Split::Payloads(Box::new(Lines::new(input, start, end, first)?))
            }
            Framing::None => Split::Stream(Box::new(input)),
            Framing::Mesos(o) => Split::payloads(MesosReader::with_options(input, o), first),
            Framing::Paddle(o) => {
                let reader = PaddleReader::split(input, start, end, o)?;
                Split::Payloads(Box::new(match pool {
                    Some(pool) => reader.with_buffers(pool),
                    None => reader,
                }))
            }
            Framing::PlasmaText(o) => {
                Split::payloads(TextReader::split(input, start, end, o)?, first)
            }
            Framing::PlasmaFixed(n) => {
                let reader = FixedReader::split(input, n, start, end)?;
                let first = reader.offset() / n as u64;
                Split::payloads(reader, Some(first))
            }
            Framing::PlasmaVar(o) => {
                Split::payloads(VarReader::split(input, start, end, o)?, first)
            }
            Framing::V1(o) => {
                Split::Payloads(Box::new(V1Reader::split(input, start, end, o)?.payloads()))
            }
            Framing::SeqFile(o) => Split::Payloads(Box::new(SeqPayloads {
                reader: SeqReader::split(input, start, end, o)?,
                first_record: first,
                offset: 0,
            })),
        })
    }
}

/// What [`Framing::open_range`] gives: payloads holding one record each, or the whole
/// file as a stream of records back to back.
pub enum Split<'a> {
    /// One record per payload (for a plain CSV stream, one line with its line end).
    Payloads(Box<dyn PayloadRead + Send + 'a>),
    /// The whole file, records back to back from byte 0, to be decoded in order.
    Stream(Box<dyn Read + Send + 'a>),
}

impl fmt::Debug for Split<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Split::Payloads(_) => f.write_str("Split::Payloads(..)"),
            Split::Stream(_) => f.write_str("Split::Stream(..)"),
        }
    }
}

impl<'a> Split<'a> {
    /// Payloads of a reader that yields owned payloads; `first_record` is the number in
    /// the file of its first one, when known.
    pub fn payloads<I>(reader: I, first_record: Option<u64>) -> Self
    where
        I: Iterator<Item = Result<Vec<u8>>> + Located + Send + 'a,
    {
        Split::Payloads(Box::new(Owned {
            reader,
            payload: Vec::new(),
            offset: 0,
            first_record,
            delivered: 0,
        }))
    }
}

/// Where a payload is: its record's number in the file, when known, and a byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The record's 0-based number in the file; `None` when the range does not know how many
    /// records precede it.
    pub record: Option<u64>,
    /// The byte offset of the record's frame in the file, or of the compressed chunk that
    /// holds it.
    pub offset: u64,
}

impl Location {
    /// The location of the `delivered`-th payload (counting from 1) of a reader whose first
    /// record has the number `first`, when known.
    fn numbered(first: Option<u64>, delivered: u64, offset: u64) -> Self {
        Location {
            record: first.map(|first| first + delivered.saturating_sub(1)),
            offset,
        }
    }
}

/// A reader of payloads that lends each one until the next call.
pub trait PayloadRead {
    /// The next payload: `None` at the end; after an error, nothing more.
    fn next_payload(&mut self) -> Option<Result<&[u8]>>;

    /// Whether [`PayloadRead::next_run`] gives payloads (Paddle's readers); for the others
    /// it gives nothing, and [`PayloadRead::next_payload`] is the way.
    fn has_runs(&self) -> bool {
        false
    }

    /// The next payloads, at most `max` (at least one), as a [`PayloadRun`] to step through
    /// without a call per payload, when the reader [`has_runs`](PayloadRead::has_runs):
    /// `None` at the end; after an error, nothing more. Runs and single payloads may be
    /// taken in turn.
    fn next_run(&mut self, max: usize) -> Option<Result<PayloadRun<'_>>> {
        let _ = max;
        None
    }

    /// Where the payload last returned is.
    fn location(&self) -> Location;

    /// What a recovering reader skipped so far, one line each (`skipped N byte(s) at byte
    /// O: why`); empty unless the framing recovers and something was damaged.
    fn skipped(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Payloads that lie back to back in memory, each after its length as a 4-byte
/// little-endian number: a stretch of a Paddle chunk's record table, which was checked
/// when the chunk was opened. An iterator of the payloads; what it has given counts as
/// delivered by its reader ([`PayloadRead::location`] and the next payloads follow it).
#[derive(Debug)]
pub struct PayloadRun<'a> {
    table: &'a [u8],
    pos: usize,
    left: u32,
    taken: u32,
    broken: bool,
    place: &'a mut RunPlace,
}

/// Where a reader of record tables stands: written back by the [`PayloadRun`]s it lends.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct RunPlace {
    /// Where the next record's length is in the open chunk's table.
    pub pos: usize,
    /// Records of the open chunk delivered.
    pub next: u32,
    /// Records delivered.
    pub records: u64,
    /// A run found the table shorter than its check did.
    pub broken: bool,
}

impl<'a> PayloadRun<'a> {
    /// The `count` records of `table` from `place.pos` on.
    pub(crate) fn new(table: &'a [u8], count: u32, place: &'a mut RunPlace) -> Self {
        PayloadRun {
            table,
            pos: place.pos,
            left: count,
            taken: 0,
            broken: false,
            place,
        }
    }
}

impl<'a> Iterator for PayloadRun<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        if self.left == 0 {
            return None;
        }
        let Some(payload) = super::paddle::next_record(self.table, &mut self.pos) else {
            // The reader reports it on its next call.
            self.broken = true;
            self.left = 0;
            return None;
        };
        self.left -= 1;
        self.taken += 1;
        Some(payload)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

impl Drop for PayloadRun<'_> {
    fn drop(&mut self) {
        self.place.pos = self.pos;
        self.place.next += self.taken;
        self.place.records += u64::from(self.taken);
        self.place.broken |= self.broken;
    }
}

/// Each skip of a recovering reader, described.
fn described<T: fmt::Display>(skips: &[T]) -> Vec<String> {
    skips.iter().map(ToString::to_string).collect()
}

impl<R: Read> PayloadRead for PaddleReader<R> {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        self.next_ref()
    }

    fn has_runs(&self) -> bool {
        true
    }

    fn next_run(&mut self, max: usize) -> Option<Result<PayloadRun<'_>>> {
        PaddleReader::next_run(self, max)
    }

    fn location(&self) -> Location {
        Location::numbered(
            self.first_record(),
            self.records_read(),
            self.chunk_offset(),
        )
    }

    fn skipped(&self) -> Vec<String> {
        described(PaddleReader::skipped(self))
    }
}

impl<R: Read> PayloadRead for Payloads<R> {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        self.next_ref()
    }

    fn location(&self) -> Location {
        Location {
            record: Some(self.get_ref().record_number()),
            offset: self.get_ref().record_start(),
        }
    }
}

/// The values of a SequenceFile split, with where each record (or its compressed block) is.
struct SeqPayloads<R> {
    reader: SeqReader<R>,
    first_record: Option<u64>,
    offset: u64,
}

impl<R: Read> PayloadRead for SeqPayloads<R> {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        self.offset = self.reader.offset();
        self.reader.next_ref()
    }

    fn location(&self) -> Location {
        Location::numbered(self.first_record, self.reader.records_read(), self.offset)
    }

    fn skipped(&self) -> Vec<String> {
        described(self.reader.skipped())
    }
}

/// Where a reader of owned payloads is, for [`Split::payloads`].
pub trait Located {
    /// The offset where the next payload's frame starts, asked before reading it; `None`
    /// when only [`Located::last_offset`] knows.
    fn next_offset(&self) -> Option<u64> {
        None
    }

    /// The offset of the payload just read (by default the one `next_offset` gave).
    fn last_offset(&self, before: u64) -> u64 {
        before
    }

    /// What a recovering reader skipped, as [`PayloadRead::skipped`] describes it.
    fn skipped(&self) -> Vec<String> {
        Vec::new()
    }
}

impl<R: Read> Located for MesosReader<R> {
    fn next_offset(&self) -> Option<u64> {
        Some(self.decoder().offset())
    }
}

impl<R: Read> Located for TextReader<R> {
    fn next_offset(&self) -> Option<u64> {
        Some(self.offset())
    }
}

impl<R: Read> Located for FixedReader<R> {
    fn next_offset(&self) -> Option<u64> {
        Some(self.offset())
    }
}

impl<R: Read> Located for VarReader<R> {
    fn last_offset(&self, _before: u64) -> u64 {
        self.record_offset()
    }

    fn skipped(&self) -> Vec<String> {
        described(VarReader::skipped(self))
    }
}

/// A [`PayloadRead`] over a reader of owned payloads.
struct Owned<I> {
    reader: I,
    payload: Vec<u8>,
    offset: u64,
    first_record: Option<u64>,
    delivered: u64,
}

impl<I: Iterator<Item = Result<Vec<u8>>> + Located> PayloadRead for Owned<I> {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        let before = self.reader.next_offset().unwrap_or(self.offset);
        match self.reader.next()? {
            Ok(payload) => {
                self.payload = payload;
                self.offset = self.reader.last_offset(before);
                self.delivered += 1;
                Some(Ok(&self.payload))
            }
            Err(e) => Some(Err(e)),
        }
    }

    fn location(&self) -> Location {
        Location::numbered(self.first_record, self.delivered, self.offset)
    }

    fn skipped(&self) -> Vec<String> {
        self.reader.skipped()
    }
}

/// The empty range of an unsplittable file.
struct NoPayloads;

impl PayloadRead for NoPayloads {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        None
    }

    fn location(&self) -> Location {
        Location {
            record: None,
            offset: 0,
        }
    }
}

/// The lines that start in a byte range (Hadoop's `LineRecordReader` contract), each with
/// its LF: the records of a plain CSV stream.
struct Lines<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
    /// File offset of the next line.
    pos: u64,
    /// File offset of the line last delivered.
    offset: u64,
    end: u64,
    first_record: Option<u64>,
    delivered: u64,
    done: bool,
}

impl<R: Read + Seek> Lines<R> {
    fn new(mut input: R, start: u64, end: u64, first_record: Option<u64>) -> Result<Self> {
        input.seek(SeekFrom::Start(start.saturating_sub(1)))?;
        let mut inner = BufReader::with_capacity(super::plasma::READ_BUFFER, input);
        let mut pos = start;
        let mut done = false;
        if start > 0 {
            // A line starts at `start` exactly when the byte before it ends one; otherwise
            // at the first byte after the next LF.
            let mut skipped = 0u64;
            loop {
                let buf = inner.fill_buf().map_err(|e| io_at(e, pos))?;
                if buf.is_empty() {
                    done = true;
                    break;
                }
                if let Some(i) = memchr::memchr(b'\n', buf) {
                    inner.consume(i + 1);
                    skipped += i as u64 + 1;
                    break;
                }
                let n = buf.len();
                inner.consume(n);
                skipped += n as u64;
            }
            pos = start - 1 + skipped;
        }
        Ok(Lines {
            inner,
            line: Vec::new(),
            pos,
            offset: pos,
            end,
            first_record,
            delivered: 0,
            done,
        })
    }
}

fn io_at(e: std::io::Error, offset: u64) -> Error {
    Error::from(e).at(crate::error::Position::Byte(offset))
}

impl<R: Read> PayloadRead for Lines<R> {
    fn next_payload(&mut self) -> Option<Result<&[u8]>> {
        if self.done || self.pos >= self.end {
            return None;
        }
        self.line.clear();
        // Hadoop's CSV has no line ends inside records, so a line is a record however long;
        // the buffer grows only as the bytes arrive.
        match self.inner.read_until(b'\n', &mut self.line) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(n) => {
                self.offset = self.pos;
                self.pos += n as u64;
                self.delivered += 1;
                Some(Ok(&self.line))
            }
            Err(e) => {
                self.done = true;
                Some(Err(io_at(e, self.pos)))
            }
        }
    }

    fn location(&self) -> Location {
        Location::numbered(self.first_record, self.delivered, self.offset)
    }
}
