//! The reader: records (uncompressed or record-compressed) and blocks, strict or
//! recovering, with Hadoop's split-end rule.

use std::fmt;
use std::io::Read;
use std::ops::Range;

use super::codec::{decompress_error_kind, Engine};
use super::header::Header;
use super::read_log::{BlockSummary, Log};
use super::source::Source;
use super::sync::entry;
use super::{Compression, SeqReadOptions, SYNC_SIZE};
use crate::archive::binary::{vint, RawInput};
use crate::error::{Error, ErrorKind, Position, Result};

/// One record: its key and value bytes as the header's classes wrote them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair<'a> {
    /// The key's bytes (empty for `NullWritable`).
    pub key: &'a [u8],
    /// The value's bytes, decompressed: for a record class, one binary record.
    pub value: &'a [u8],
}

/// A stretch of input a recovering reader skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Byte offset of the damaged record or block.
    pub offset: u64,
    /// Bytes skipped from there: up to the next sync entry, or to the end of the input.
    pub bytes: u64,
    /// What was wrong at `offset`.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "skipped {} byte(s) at byte {}: {}",
            self.bytes, self.offset, self.reason
        )
    }
}

/// Reads a SequenceFile's records in order from any [`Read`]: as an iterator of values,
/// or keys and values with [`Self::next_pair`].
///
/// Strict (the default): every record before the first damage, then one error with the
/// damaged record's or block's byte offset, then nothing. A block is checked whole (sync
/// marker, four buffers, decompression, lengths) before any of its records is handed out.
/// Recovering ([`SeqReadOptions::recover`]): a damaged record or block is skipped up to
/// the next sync entry, as Hadoop's `io.skip.checksum.errors` does, and listed in
/// [`Self::skipped`]. A file cut at a record or block boundary reads as complete, as in
/// Hadoop; one cut inside a record or block is damage.
///
/// ```
/// use hadoop_record::framing::seqfile::{Codec, Compression, SeqReader, SeqWriteOptions, SeqWriter};
/// use hadoop_record::framing::FrameWrite;
/// let options = SeqWriteOptions::new("m.R").with_compression(Compression::Block).with_codec(Codec::Gzip);
/// let mut w = SeqWriter::new(Vec::new(), options);
/// for v in [&b"a"[..], b"bc"] {
///     w.write_payload(v)?;
/// }
/// w.finish()?;
/// let file = w.into_inner()?;
/// let r = SeqReader::new(&file[..])?;
/// assert_eq!(r.header().value_class, "m.R");
/// assert_eq!(r.collect::<Result<Vec<_>, _>>()?, [b"a".to_vec(), b"bc".to_vec()]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct SeqReader<R> {
    pub(super) src: Source<R>,
    pub(super) header: Header,
    engine: Option<Engine>,
    options: SeqReadOptions,
    /// Records after a sync entry at or past this offset belong to the next split.
    pub(super) end: u64,
    sync_seen: bool,
    cur: Current,
    /// A record-compressed value.
    value: Vec<u8>,
    block: OpenBlock,
    records: u64,
    skipped: Vec<Skipped>,
    pub(super) log: Option<Log>,
    pub(super) done: bool,
}

/// Where the current record's bytes are.
#[derive(Debug, Clone, Default)]
enum Current {
    #[default]
    None,
    /// Key and value in the source's buffer.
    Plain {
        key: Range<usize>,
        value: Range<usize>,
    },
    /// Key in the source's buffer, value in `value`.
    Compressed { key: Range<usize> },
    /// Record `n` of the open block.
    Block(usize),
}

/// A block's decompressed buffers and its records' spans.
#[derive(Debug, Default)]
struct OpenBlock {
    key_lens: Vec<u8>,
    keys: Vec<u8>,
    val_lens: Vec<u8>,
    vals: Vec<u8>,
    spans: Vec<(Range<usize>, Range<usize>)>,
    next: usize,
}

/// Why a unit (a record or a block) could not be read, and where it starts.
struct Fault {
    error: Error,
    offset: u64,
    recoverable: bool,
}

/// What reading a unit found.
enum Unit {
    Record,
    Block,
    End,
}

type Step<T> = std::result::Result<T, Fault>;

fn damage(offset: u64, kind: ErrorKind, message: String) -> Fault {
    Fault {
        error: Error::new(kind, message).at(Position::Byte(offset)),
        offset,
        recoverable: true,
    }
}

impl<R: Read> SeqReader<R> {
    /// A strict reader; reads the header (an error if it is bad or names an unsupported
    /// codec).
    pub fn new(inner: R) -> Result<Self> {
        Self::with_options(inner, SeqReadOptions::default())
    }

    /// A reader with `options`; reads the header.
    pub fn with_options(inner: R, options: SeqReadOptions) -> Result<Self> {
        let mut src = Source::new(inner, 0);
        let header = Header::read(&mut src, options.max_record_size)?;
        let engine = header.codec()?.map(Engine::new);
        if let Some(engine) = &engine {
            engine.check()?;
        }
        Ok(SeqReader {
            src,
            header,
            engine,
            options,
            end: u64::MAX,
            sync_seen: false,
            cur: Current::None,
            value: Vec::new(),
            block: OpenBlock::default(),
            records: 0,
            skipped: Vec::new(),
            log: None,
            done: false,
        })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The options in use.
    pub fn options(&self) -> &SeqReadOptions {
        &self.options
    }

    /// Records delivered so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Byte offset of the next unread record or block (Hadoop's `getPosition()`).
    pub fn offset(&self) -> u64 {
        self.src.offset()
    }

    /// Whether a sync entry came right before the last record delivered (Hadoop's
    /// `syncSeen()`; in block files, true for the first record of each block).
    pub fn sync_seen(&self) -> bool {
        self.sync_seen
    }

    /// What a recovering reader has skipped so far.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Gives back the underlying reader (positioned past what was buffered).
    pub fn into_inner(self) -> R {
        self.src.into_inner()
    }

    /// The next record's key and value, borrowed from the reader's buffers: records, then
    /// at most one error, then `None`.
    pub fn next_pair(&mut self) -> Option<Result<Pair<'_>>> {
        if self.done {
            return None;
        }
        match self.advance() {
            Ok(true) => Some(Ok(self.pair())),
            Ok(false) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }

    /// The next value, borrowed: the iterator's sequence without allocating per record.
    pub fn next_ref(&mut self) -> Option<Result<&[u8]>> {
        self.next_pair().map(|r| r.map(|p| p.value))
    }

    fn pair(&self) -> Pair<'_> {
        match &self.cur {
            Current::Plain { key, value } => Pair {
                key: self.src.slice(key.clone()),
                value: self.src.slice(value.clone()),
            },
            Current::Compressed { key } => Pair {
                key: self.src.slice(key.clone()),
                value: &self.value,
            },
            Current::Block(n) => {
                let (k, v) = self.block.spans[*n].clone();
                Pair {
                    key: &self.block.keys[k],
                    value: &self.block.vals[v],
                }
            }
            Current::None => unreachable!("a record was read"),
        }
    }

    /// Moves to the next record; false at the end (of the file or of the split).
    fn advance(&mut self) -> Result<bool> {
        loop {
            if self.block.next < self.block.spans.len() {
                self.cur = Current::Block(self.block.next);
                self.sync_seen = self.block.next == 0;
                self.block.next += 1;
                self.records += 1;
                return Ok(true);
            }
            let unit = if self.header.compression == Compression::Block {
                self.read_block()
            } else {
                self.read_record()
            };
            match unit {
                Ok(Unit::Record) => {
                    self.records += 1;
                    return Ok(true);
                }
                Ok(Unit::Block) => {}
                Ok(Unit::End) => return Ok(false),
                Err(fault) => {
                    let recoverable = fault.recoverable && self.header.sync.is_some();
                    if !self.options.recover {
                        let error = crate::framing::with_remedy(fault.error, recoverable);
                        return Err(error.in_record(self.records));
                    }
                    if !recoverable {
                        return Err(fault.error.in_record(self.records));
                    }
                    self.resync(fault)?;
                }
            }
        }
    }

    /// Skips from a damaged unit to the next sync entry (or the end).
    fn resync(&mut self, fault: Fault) -> Result<()> {
        debug_assert_eq!(self.src.offset(), fault.offset);
        let sync = entry(
            self.header
                .sync
                .as_ref()
                .expect("recovery needs a sync marker"),
        );
        self.src.consume(1);
        self.src.skip_to(&sync)?;
        self.skipped.push(Skipped {
            offset: fault.offset,
            bytes: self.src.offset() - fault.offset,
            reason: fault.error.message().to_owned(),
        });
        Ok(())
    }

    fn io(&self, e: std::io::Error) -> Fault {
        Fault {
            error: Error::from(e).at(Position::Byte(self.src.offset())),
            offset: self.src.offset(),
            recoverable: false,
        }
    }

    /// Fills `n` bytes at the current offset; the bytes available.
    #[inline]
    fn fill(&mut self, n: usize) -> Step<usize> {
        match self.src.fill(n) {
            Ok(w) => Ok(w.len()),
            Err(e) => Err(self.io(e)),
        }
    }

    /// Reads a sync entry at the current offset (its escape already checked or ignored).
    fn read_sync(&mut self) -> Step<()> {
        let start = self.src.offset();
        let have = self.fill(SYNC_SIZE as usize)?;
        if have < SYNC_SIZE as usize {
            return Err(damage(
                start,
                ErrorKind::UnexpectedEof,
                format!("the file ends inside a sync entry ({have} of 20 bytes)"),
            ));
        }
        if self.src.window()[4..20] != self.header.sync.unwrap_or_default() {
            return Err(damage(
                start,
                ErrorKind::Syntax,
                "a sync entry with the wrong sync marker (the file is corrupt)".to_owned(),
            ));
        }
        self.src.consume(SYNC_SIZE as usize);
        self.sync_seen = true;
        if let Some(log) = &mut self.log {
            log.syncs.push(start);
        }
        Ok(())
    }

    /// An uncompressed or record-compressed record, after a sync entry if one comes first.
    fn read_record(&mut self) -> Step<Unit> {
        let start = self.src.offset();
        let mut have = self.fill(8)?;
        if have == 0 {
            return Ok(Unit::End);
        }
        self.sync_seen = false;
        let escape = have >= 4 && self.src.window()[..4] == [0xff; 4];
        if escape && self.header.sync.is_some() {
            self.read_sync()?;
            // Hadoop's split rule: a record after a sync entry at or past the end is the
            // next split's.
            if start >= self.end {
                return Ok(Unit::End);
            }
            have = self.fill(8)?;
            if have == 0 {
                return Ok(Unit::End);
            }
        }
        let at = self.src.offset();
        if have < 8 {
            return Err(damage(
                at,
                ErrorKind::UnexpectedEof,
                format!("the file ends inside a record's lengths ({have} of 8 bytes)"),
            ));
        }
        let w = self.src.window();
        let len = i32::from_be_bytes([w[0], w[1], w[2], w[3]]);
        let key_len = i32::from_be_bytes([w[4], w[5], w[6], w[7]]);
        if len < 0 || key_len < 0 || key_len > len {
            return Err(damage(
                at,
                ErrorKind::Syntax,
                format!("bad record lengths: record {len} bytes, key {key_len} bytes"),
            ));
        }
        let (len, key_len) = (len as usize, key_len as usize);
        if len as u64 > self.options.max_record_size {
            return Err(damage(
                at,
                ErrorKind::Limit,
                format!(
                    "a record of {len} bytes exceeds the limit of {} bytes",
                    self.options.max_record_size
                ),
            ));
        }
        let have = self.fill(8 + len)?;
        if have < 8 + len {
            return Err(damage(
                at,
                ErrorKind::UnexpectedEof,
                format!(
                    "the file ends inside a record ({} of {len} bytes)",
                    have - 8
                ),
            ));
        }
        let p = self.src.pos() + 8;
        let key = p..p + key_len;
        let value = p + key_len..p + len;
        self.cur = match &mut self.engine {
            None => Current::Plain { key, value },
            Some(engine) => {
                let stored = self.src.slice(value);
                if let Err(m) =
                    engine.decompress(stored, self.options.max_record_size, &mut self.value)
                {
                    return Err(damage(
                        at,
                        decompress_error_kind(&m),
                        format!(
                            "the record's value does not decompress ({}): {m}",
                            self.header.codec_class.as_deref().unwrap_or_default()
                        ),
                    ));
                }
                Current::Compressed { key }
            }
        };
        self.src.consume(8 + len);
        Ok(Unit::Record)
    }

    /// A block: sync entry, record count, four compressed buffers.
    fn read_block(&mut self) -> Step<Unit> {
        let start = self.src.offset();
        self.block.spans.clear();
        self.block.next = 0;
        // Every block starts with a sync entry: Hadoop's split rule ends the split here.
        if start >= self.end || self.fill(1)? == 0 {
            return Ok(Unit::End);
        }
        let fail = |kind, message: String| damage(start, kind, message);
        let have = self.fill(SYNC_SIZE as usize)?;
        if have < SYNC_SIZE as usize {
            return Err(fail(
                ErrorKind::UnexpectedEof,
                format!("the file ends inside a block's sync entry ({have} of 20 bytes)"),
            ));
        }
        // Hadoop reads the escape without looking at it; so does this reader.
        if self.src.window()[4..20] != self.header.sync.unwrap_or_default() {
            return Err(fail(
                ErrorKind::Syntax,
                "a block's sync entry has the wrong sync marker (the file is corrupt)".to_owned(),
            ));
        }
        let mut at = SYNC_SIZE as usize;
        let count = self.vint_at(&mut at, start, "record count")?;
        if count < 1 {
            return Err(fail(
                ErrorKind::Syntax,
                format!("a block of {count} records"),
            ));
        }
        let mut ranges = [0..0, 0..0, 0..0, 0..0];
        for (range, what) in ranges.iter_mut().zip(BUFFERS) {
            let len = self.vint_at(&mut at, start, what)?;
            if len < 0 || len as u64 > self.options.max_record_size {
                let kind = if len < 0 {
                    ErrorKind::Syntax
                } else {
                    ErrorKind::Limit
                };
                return Err(fail(
                    kind,
                    format!("bad length {len} of the block's {what}"),
                ));
            }
            let end = at + len as usize;
            let have = self.fill(end)?;
            if have < end {
                return Err(fail(
                    ErrorKind::UnexpectedEof,
                    format!(
                        "the file ends inside the block's {what} ({} of {len} bytes)",
                        have - at
                    ),
                ));
            }
            *range = at..end;
            at = end;
        }
        let engine = self.engine.as_mut().expect("a block file is compressed");
        let limit = self.options.max_record_size;
        let b = &mut self.block;
        let window = self.src.window();
        for ((range, out), what) in ranges
            .iter()
            .zip([&mut b.key_lens, &mut b.keys, &mut b.val_lens, &mut b.vals])
            .zip(BUFFERS)
        {
            if let Err(m) = engine.decompress(&window[range.clone()], limit, out) {
                return Err(fail(
                    decompress_error_kind(&m),
                    format!("the block's {what} do not decompress: {m}"),
                ));
            }
        }
        if let Err(m) = b.index(count as usize) {
            return Err(fail(ErrorKind::Syntax, m));
        }
        let raw = (b.key_lens.len() + b.keys.len() + b.val_lens.len() + b.vals.len()) as u64;
        self.src.consume(at);
        self.sync_seen = true;
        if let Some(log) = &mut self.log {
            log.syncs.push(start);
            log.blocks.push(BlockSummary {
                offset: start,
                records: count as u64,
                stored: at as u64,
                raw,
            });
        }
        Ok(Unit::Block)
    }

    /// A vint at `*at` bytes past the current offset.
    fn vint_at(&mut self, at: &mut usize, start: u64, what: &str) -> Step<i32> {
        let have = self.fill(*at + 1)?;
        let eof = |have: usize| {
            damage(
                start,
                ErrorKind::UnexpectedEof,
                format!(
                    "the file ends inside the block's {what} length ({} bytes in)",
                    have
                ),
            )
        };
        if have <= *at {
            return Err(eof(have));
        }
        let marker = self.src.window()[*at];
        let n = vint::payload_len(marker);
        let have = self.fill(*at + 1 + n)?;
        if have < *at + 1 + n {
            return Err(eof(have));
        }
        let v = vint::decode(marker, &self.src.window()[*at + 1..*at + 1 + n]);
        *at += 1 + n;
        i32::try_from(v).map_err(|_| {
            damage(
                start,
                ErrorKind::Overflow,
                format!("the block's {what} length {v} is too large"),
            )
        })
    }
}

/// The four buffers of a block, in file order.
const BUFFERS: [&str; 4] = ["key lengths", "keys", "value lengths", "values"];

impl OpenBlock {
    /// The records' spans from the decompressed length buffers: exactly `count` lengths
    /// each, adding up to the key and value buffers.
    fn index(&mut self, count: usize) -> std::result::Result<(), String> {
        let indexed = self.index_all(count);
        if indexed.is_err() {
            self.spans.clear();
        }
        indexed
    }

    fn index_all(&mut self, count: usize) -> std::result::Result<(), String> {
        let mut klens = RawInput::new(&self.key_lens);
        let mut vlens = RawInput::new(&self.val_lens);
        let (mut k, mut v) = (0usize, 0usize);
        for i in 0..count {
            let kl = klens
                .read_vint()
                .map_err(|e| format!("key length {i}: {}", e.message()))?;
            let vl = vlens
                .read_vint()
                .map_err(|e| format!("value length {i}: {}", e.message()))?;
            if kl < 0 || vl < 0 {
                return Err(format!("record {i} of the block has a negative length"));
            }
            let (kl, vl) = (kl as usize, vl as usize);
            if self.keys.len() - k < kl || self.vals.len() - v < vl {
                return Err(format!(
                    "record {i}'s lengths run past the block's keys or values"
                ));
            }
            self.spans.push((k..k + kl, v..v + vl));
            k += kl;
            v += vl;
        }
        if !klens.remaining().is_empty()
            || !vlens.remaining().is_empty()
            || k != self.keys.len()
            || v != self.vals.len()
        {
            return Err(format!(
                "the block's buffers hold more than its {count} records"
            ));
        }
        Ok(())
    }
}

impl<R: Read> Iterator for SeqReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_ref().map(|r| r.map(<[u8]>::to_vec))
    }
}
