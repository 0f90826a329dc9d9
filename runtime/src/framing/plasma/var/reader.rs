//! The var-size reader: sequential, split-aware and optionally recovering.

use std::io::{Read, Seek, SeekFrom};

use super::header::{ChunkHeader, Compression, HEADER_LEN, LONG_LENGTH, MAX_SHORT_LENGTH};
use super::snappy::Snappy;
use crate::error::{Error, ErrorKind, Position, Result};
use crate::options::options;
use crate::uninterrupted::read_some;

options! {
    /// Options of [`VarReader`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct VarReadOptions {
        /// The longest record accepted (default 1 GiB); a longer length is an
        /// [`ErrorKind::Limit`] error before anything is allocated for it.
        max_record_size / with_max_record_size: copy u64 = 1 << 30;
        /// Skip damaged chunks instead of stopping (default `false`): reading resumes at
        /// the first record that starts in the next sound chunk, and [`VarReader::skipped`]
        /// says what was lost.
        recover / with_recover: copy bool = false;
        /// The chunk size, if known; otherwise it is taken from the first chunk header.
        /// Needed only to recover when the very first header is damaged.
        chunk_size / with_chunk_size: copy Option<u32> = None;
    }
}

/// A byte range a recovering reader skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// File offset of the first skipped chunk.
    pub offset: u64,
    /// Bytes skipped from there (whole chunk slots, or up to the end of the file).
    pub len: u64,
    /// What was wrong with the first skipped chunk.
    pub reason: String,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "skipped {} byte(s) at byte {}: {}",
            self.len, self.offset, self.reason
        )
    }
}

/// What a reader saw of one chunk slot (collected for [`crate::framing::plasma::var_info`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkSummary {
    /// File offset of the chunk.
    pub offset: u64,
    /// The header, when it could be decoded.
    pub header: Option<ChunkHeader>,
    /// What was wrong with the chunk, if anything.
    pub problem: Option<String>,
    /// Whether the problem is a checksum mismatch (header or payload).
    pub checksum_mismatch: bool,
}

/// Reads records of the var-size format: a whole file, or the records that start in a
/// byte range (split reading, as Plasma and Hadoop assign work).
///
/// As a strict reader it yields every record before the first damage, then the error
/// (with the byte offset of the damaged chunk or record) and nothing more. With
/// [`VarReadOptions::recover`] it skips damaged chunks and yields only records.
pub struct VarReader<R> {
    inner: R,
    options: VarReadOptions,
    chunk_size: Option<u32>,
    /// File offset of the next byte `inner` yields.
    at: u64,
    /// Records starting in a chunk at or after this offset belong to the next split.
    end: u64,
    /// The current chunk: offset, header and decompressed payload, read up to `pos`.
    cur_offset: u64,
    cur: Option<ChunkHeader>,
    payload: Vec<u8>,
    pos: usize,
    /// Whether a record start was met in the current chunk (then it must have been the
    /// header's first record).
    seen_start: bool,
    /// Looking for the next chunk where a record starts (at a split start, or after damage).
    seeking: bool,
    /// Whether the chunks skipped while seeking are lost data (after damage).
    recovering: bool,
    stored: Vec<u8>,
    /// Made at the first snappy chunk (boxed: the encoder half holds a 2 KiB table).
    snappy: Option<Box<Snappy>>,
    skipped: Vec<Skip>,
    log: Option<Vec<ChunkSummary>>,
    records: u64,
    /// Whether record numbers are the file's (a reader from offset 0), so errors carry them.
    numbered: bool,
    /// File offset of the record last delivered (its chunk's, when compressed).
    last_start: u64,
    chunks_loaded: u64,
    /// Whether the last chunk loaded is marked final.
    last_final: bool,
    done: bool,
}

/// A failure while reading, and whether skipping to the next chunk can get past it.
struct Fault {
    error: Error,
    recoverable: bool,
}

impl From<Error> for Fault {
    fn from(error: Error) -> Self {
        let recoverable = error.kind() != ErrorKind::Io;
        Fault { error, recoverable }
    }
}

type Step<T> = std::result::Result<T, Fault>;

impl<R: Read> VarReader<R> {
    /// A strict reader of a whole file with default options.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, VarReadOptions::default())
    }

    /// A reader of a whole file.
    pub fn with_options(inner: R, options: VarReadOptions) -> Self {
        Self::starting_at(inner, options, 0, u64::MAX, false)
    }

    fn starting_at(inner: R, options: VarReadOptions, at: u64, end: u64, seeking: bool) -> Self {
        VarReader {
            inner,
            chunk_size: options.chunk_size,
            options,
            at,
            end,
            cur_offset: at,
            cur: None,
            payload: Vec::new(),
            pos: 0,
            seen_start: false,
            seeking,
            recovering: false,
            stored: Vec::new(),
            snappy: None,
            skipped: Vec::new(),
            log: None,
            records: 0,
            numbered: at == 0,
            last_start: at,
            chunks_loaded: 0,
            last_final: false,
            done: false,
        }
    }

    /// Collects a [`ChunkSummary`] per chunk slot read (for `info`).
    pub(crate) fn log_chunks(&mut self) {
        self.log = Some(Vec::new());
    }

    pub(crate) fn take_log(&mut self) -> Vec<ChunkSummary> {
        self.log.take().unwrap_or_default()
    }

    /// The chunk size, once known.
    pub fn chunk_size(&self) -> Option<u32> {
        self.chunk_size
    }

    /// What a recovering reader skipped so far.
    pub fn skipped(&self) -> &[Skip] {
        &self.skipped
    }

    /// Records yielded so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// File offset of the record last yielded: of its length prefix, or of its chunk when
    /// the chunk is compressed.
    pub fn record_offset(&self) -> u64 {
        self.last_start
    }

    /// File offset of the byte `pos` of the current payload (the chunk's own offset when
    /// it is compressed: positions inside compressed data have no file offset).
    fn file_pos(&self, pos: usize) -> u64 {
        match self.cur {
            Some(h) if h.compression == Compression::None => {
                self.cur_offset + HEADER_LEN as u64 + pos as u64
            }
            _ => self.cur_offset,
        }
    }

    fn io_error(&self, e: std::io::Error) -> Fault {
        Fault {
            error: Error::from(e).at(Position::Byte(self.at)),
            recoverable: false,
        }
    }

    /// Reads until `buf` is full or the input ends; returns the bytes read.
    fn read_full(&mut self, buf: &mut [u8]) -> Step<usize> {
        let mut n = 0;
        while n < buf.len() {
            match read_some(&mut self.inner, &mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => {
                    n += k;
                    self.at += k as u64;
                }
                Err(e) => return Err(self.io_error(e)),
            }
        }
        Ok(n)
    }

    /// Reads `n` bytes into `out` (cleared first), growing it only as bytes arrive.
    fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Step<usize> {
        out.clear();
        let mut step = 64 << 10;
        while out.len() < n {
            let have = out.len();
            let want = (n - have).min(step);
            out.resize(have + want, 0);
            let got = self.read_full(&mut out[have..have + want]);
            let got = match got {
                Ok(got) => got,
                Err(e) => {
                    out.truncate(have);
                    return Err(e);
                }
            };
            out.truncate(have + got);
            if got < want {
                break;
            }
            step = step.saturating_mul(2);
        }
        Ok(out.len())
    }

    /// Reads and drops input up to file offset `to`; stops early at the end of input.
    fn discard_to(&mut self, to: u64) -> Step<()> {
        let mut scratch = [0u8; 8192];
        while self.at < to {
            let want = (to - self.at).min(scratch.len() as u64) as usize;
            if self.read_full(&mut scratch[..want])? < want {
                break;
            }
        }
        Ok(())
    }

    fn log(&mut self, offset: u64, header: Option<ChunkHeader>, problem: Option<&Error>) {
        if let Some(log) = &mut self.log {
            log.push(ChunkSummary {
                offset,
                header,
                problem: problem.map(|e| e.to_string()),
                checksum_mismatch: problem.is_some_and(|e| e.kind() == ErrorKind::Checksum),
            });
        }
    }

    /// Loads the next chunk slot; `Ok(false)` at the end of the input.
    fn load_chunk(&mut self) -> Step<bool> {
        if let (Some(size), true) = (self.chunk_size, self.cur.is_some() || self.recovering) {
            // Skip the rest of the current slot (padding, or what is left after damage).
            self.discard_to(self.cur_offset + size as u64)?;
        }
        let offset = self.at;
        self.cur_offset = offset;
        self.cur = None;
        self.payload.clear();
        self.pos = 0;
        self.seen_start = false;
        let mut raw = [0u8; HEADER_LEN];
        let got = self.read_full(&mut raw)?;
        if got == 0 {
            return Ok(false);
        }
        let result = self.check_chunk(offset, got, &raw);
        match result {
            Ok(header) => {
                self.log(offset, Some(header), None);
                self.chunks_loaded += 1;
                self.last_final = header.is_final;
                self.cur = Some(header);
                Ok(true)
            }
            Err(fault) => {
                let header = ChunkHeader::decode(&raw, offset).ok();
                self.log(offset, header, Some(&fault.error));
                Err(fault)
            }
        }
    }

    /// Decodes, reads and verifies the chunk at `offset` whose first `got` header bytes
    /// are in `raw`.
    fn check_chunk(
        &mut self,
        offset: u64,
        got: usize,
        raw: &[u8; HEADER_LEN],
    ) -> Step<ChunkHeader> {
        if got < HEADER_LEN {
            return Err(Error::eof(format!(
                "input ends inside the chunk header at byte {offset} ({got} of {HEADER_LEN} bytes)"
            ))
            .at(Position::Byte(offset))
            .into());
        }
        let header = ChunkHeader::decode(raw, offset)?;
        match self.chunk_size {
            Some(size) if size != header.chunk_size => {
                return Err(Error::syntax(format!(
                    "chunk at byte {offset} has size {}, the file's chunks have {size}",
                    header.chunk_size
                ))
                .at(Position::Byte(offset + 8))
                .into());
            }
            _ => self.chunk_size = Some(header.chunk_size),
        }
        if !offset.is_multiple_of(header.chunk_size as u64) {
            return Err(Error::syntax(format!(
                "chunk header at byte {offset}, not a multiple of the chunk size {}",
                header.chunk_size
            ))
            .at(Position::Byte(offset))
            .into());
        }
        let mut buf = match header.compression {
            Compression::None => std::mem::take(&mut self.payload),
            Compression::Snappy => std::mem::take(&mut self.stored),
        };
        let result = self
            .read_into(header.stored_size as usize, &mut buf)
            .and_then(|got| self.verify(offset, &header, &buf, got));
        match header.compression {
            Compression::None => self.payload = buf,
            Compression::Snappy => {
                let result = result.and_then(|()| self.decompress(offset, &header, &buf));
                self.stored = buf;
                return result.map(|()| header);
            }
        }
        result.map(|()| header)
    }

    fn verify(&self, offset: u64, header: &ChunkHeader, stored: &[u8], got: usize) -> Step<()> {
        if got < header.stored_size as usize {
            return Err(Error::eof(format!(
                "input ends inside the chunk at byte {offset} ({got} of {} payload bytes)",
                header.stored_size
            ))
            .at(Position::Byte(offset))
            .into());
        }
        let crc = crc32fast::hash(stored);
        if crc != header.payload_crc {
            return Err(Error::new(
                ErrorKind::Checksum,
                format!(
                    "payload checksum mismatch in the chunk at byte {offset} (stored {:08x}, computed {crc:08x})",
                    header.payload_crc
                ),
            )
            .at(Position::Byte(offset))
            .into());
        }
        if offset == 0 && header.payload_size > 0 && header.first_record != Some(0) {
            return Err(inconsistent(offset, "the first chunk must start with a record").into());
        }
        Ok(())
    }

    /// Unpacks a snappy payload into `self.payload`; its size must match the header's,
    /// which bounds what is allocated.
    fn decompress(&mut self, offset: u64, header: &ChunkHeader, stored: &[u8]) -> Step<()> {
        let bad = |what: String| Error::syntax(what).at(Position::Byte(offset));
        let snappy = match &mut self.snappy {
            Some(snappy) => snappy,
            None => self.snappy.insert(Box::new(
                Snappy::new().map_err(|e| e.at(Position::Byte(offset)))?,
            )),
        };
        let len = snappy.decompress_len(stored).map_err(|e| {
            bad(format!(
                "corrupt snappy payload in the chunk at byte {offset}: {e}"
            ))
        })?;
        if len != header.payload_size as usize {
            return Err(bad(format!(
                "snappy payload of the chunk at byte {offset} unpacks to {len} bytes, header says {}",
                header.payload_size
            ))
            .into());
        }
        self.payload.resize(len, 0);
        snappy.decompress(stored, &mut self.payload).map_err(|e| {
            bad(format!(
                "corrupt snappy payload in the chunk at byte {offset}: {e}"
            ))
        })?;
        Ok(())
    }

    /// `Ok(())` at an end of input that is a proper end of the file (or of the split).
    fn at_eof(&self) -> Step<()> {
        if self.last_final || self.recovering || self.chunks_loaded == 0 {
            // A finished file, damage already reported, or an empty file (or a split that
            // starts at or past its end).
            return Ok(());
        }
        Err(Error::eof(format!(
            "input ends at byte {} after a chunk not marked final (file cut short?)",
            self.at
        ))
        .at(Position::Byte(self.at))
        .into())
    }

    /// Moves to a chunk where a record starts; `Ok(false)` when none is left in the split.
    fn seek_record_start(&mut self) -> Step<bool> {
        loop {
            if let Some(h) = self.cur {
                if self.cur_offset >= self.end {
                    return Ok(false);
                }
                if let Some(first) = h.first_record {
                    self.pos = first as usize;
                    self.seeking = false;
                    self.recovering = false;
                    return Ok(true);
                }
                if self.recovering {
                    // A continuation of the record lost to the damage: skipped too.
                    if let Some(last) = self.skipped.last_mut() {
                        last.len = self.cur_offset + h.chunk_size as u64 - last.offset;
                    }
                }
            }
            if !self.load_chunk()? {
                self.at_eof()?;
                return Ok(false);
            }
        }
    }

    /// Record bytes up to `to` in this chunk must not run over the chunk's first record.
    #[inline]
    fn check_overlap(&self, to: usize, start: u64) -> Step<()> {
        match self.cur {
            Some(ChunkHeader {
                first_record: Some(first),
                ..
            }) if !self.seen_start && (first as usize) < to => Err(inconsistent(
                self.cur_offset,
                &format!(
                    "the record starting at byte {start} runs over the first record of the chunk (at payload offset {first})"
                ),
            )
            .into()),
            _ => Ok(()),
        }
    }

    fn next_record(&mut self) -> Step<Option<Vec<u8>>> {
        if self.seeking && !self.seek_record_start()? {
            return Ok(None);
        }
        while self.pos == self.payload.len() {
            // At a record boundary at the end of the payload: the next chunk must start
            // with a record (or be empty).
            if let Some(ChunkHeader {
                first_record: Some(first),
                ..
            }) = self.cur
            {
                if !self.seen_start {
                    return Err(inconsistent(
                        self.cur_offset,
                        &format!(
                            "the header says a record starts at payload offset {first}, none does"
                        ),
                    )
                    .into());
                }
            }
            if !self.load_chunk()? {
                self.at_eof()?;
                return Ok(None);
            }
            let h = self.cur.expect("loaded chunk");
            if h.payload_size > 0 && h.first_record != Some(0) {
                return Err(inconsistent(
                    self.cur_offset,
                    "the previous record ends with the previous chunk, but this chunk does not start with a record",
                )
                .into());
            }
        }
        if self.cur_offset >= self.end {
            return Ok(None);
        }
        let start = self.file_pos(self.pos);
        if !self.seen_start {
            let first = self.cur.and_then(|h| h.first_record);
            if first != Some(self.pos as u32) {
                return Err(inconsistent(
                    self.cur_offset,
                    &format!(
                        "a record starts at payload offset {}, the header says {}",
                        self.pos,
                        first.map_or("none".to_string(), |f| f.to_string())
                    ),
                )
                .into());
            }
            self.seen_start = true;
        }
        let len = self.read_length(start)?;
        if len > self.options.max_record_size {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "record of {len} bytes exceeds the limit of {} bytes",
                    self.options.max_record_size
                ),
            )
            .at(Position::Byte(start))
            .into());
        }
        // Reserve what this chunk can supply at most; later chunks grow the vector only
        // as their (verified) bytes arrive.
        let mut record = Vec::with_capacity((len as usize).min(self.payload.len() - self.pos));
        self.take_bytes(len, start, &mut record)?;
        self.records += 1;
        self.last_start = start;
        Ok(Some(record))
    }

    fn take_bytes(&mut self, mut n: u64, start: u64, out: &mut Vec<u8>) -> Step<()> {
        while n > 0 {
            if self.pos == self.payload.len() {
                let at = self.at;
                if !self.load_chunk()? {
                    return Err(Error::eof(format!(
                        "input ends at byte {at} inside the record starting at byte {start}"
                    ))
                    .at(Position::Byte(start))
                    .into());
                }
                continue;
            }
            let k = (self.payload.len() - self.pos).min(n.min(usize::MAX as u64) as usize);
            self.check_overlap(self.pos + k, start)?;
            out.extend_from_slice(&self.payload[self.pos..self.pos + k]);
            self.pos += k;
            n -= k as u64;
        }
        Ok(())
    }

    /// Reads a length prefix (1 or 9 bytes, possibly across chunks).
    fn read_length(&mut self, start: u64) -> Step<u64> {
        if let Some(&b) = self.payload.get(self.pos) {
            if b != LONG_LENGTH {
                self.check_overlap(self.pos + 1, start)?;
                self.pos += 1;
                return Ok(b as u64);
            }
        }
        let mut prefix = Vec::with_capacity(9);
        self.take_bytes(1, start, &mut prefix)?;
        if prefix[0] != LONG_LENGTH {
            return Ok(prefix[0] as u64);
        }
        self.take_bytes(8, start, &mut prefix)?;
        let len = u64::from_be_bytes(prefix[1..9].try_into().expect("8 bytes"));
        if len <= MAX_SHORT_LENGTH as u64 {
            return Err(Error::syntax(format!(
                "record length {len} in the 9-byte form (lengths up to {MAX_SHORT_LENGTH} take one byte)"
            ))
            .at(Position::Byte(start))
            .into());
        }
        Ok(len)
    }

    /// Notes damage and prepares to resume at the next chunk where a record starts.
    fn recover(&mut self, fault: Fault) -> Result<()> {
        if !self.options.recover {
            let recoverable = fault.recoverable && self.chunk_size.is_some();
            return Err(crate::framing::with_remedy(fault.error, recoverable));
        }
        if !fault.recoverable {
            return Err(fault.error);
        }
        let Some(size) = self.chunk_size else {
            return Err(fault.error);
        };
        let offset = self.cur_offset;
        let end = offset + size as u64;
        match self.skipped.last_mut() {
            Some(last) if last.offset + last.len == offset => last.len = end - last.offset,
            _ => self.skipped.push(Skip {
                offset,
                len: size as u64,
                reason: fault.error.to_string(),
            }),
        }
        // Drop the rest of this chunk; the next load skips the rest of its slot.
        self.cur = None;
        self.payload.clear();
        self.pos = 0;
        self.seeking = true;
        self.recovering = true;
        Ok(())
    }

    /// After the input ended inside a skipped slot, the skip stops at the end of input.
    fn clip_skips(&mut self) {
        let at = self.at;
        if let Some(last) = self.skipped.last_mut() {
            if last.offset + last.len > at {
                last.len = at.saturating_sub(last.offset);
            }
        }
    }
}

fn inconsistent(chunk: u64, what: &str) -> Error {
    Error::syntax(format!("chunk at byte {chunk} is inconsistent: {what}"))
        .at(Position::Byte(chunk))
}

impl<R: Read + Seek> VarReader<R> {
    /// A reader of the split `[start, end)`: exactly the records that start in a chunk
    /// whose offset lies in the range (records run on past `end` as needed). `start` is
    /// normally a chunk (bigblock) boundary; otherwise reading begins at the next one.
    /// `end` may lie past the end of the file.
    pub fn split(mut inner: R, start: u64, end: u64, options: VarReadOptions) -> Result<Self> {
        let chunk_size = match options.chunk_size {
            Some(size) => size,
            None => {
                // The chunk size is the same in every chunk: read it from the first one.
                inner.seek(SeekFrom::Start(0))?;
                let mut raw = [0u8; HEADER_LEN];
                let mut got = 0;
                while got < HEADER_LEN {
                    match read_some(&mut inner, &mut raw[got..]) {
                        Ok(0) => break,
                        Ok(k) => got += k,
                        Err(e) => return Err(Error::from(e).at(Position::Byte(got as u64))),
                    }
                }
                if got == 0 {
                    // An empty file: no records in any split.
                    return Ok(Self::starting_at(inner, options, 0, 0, true));
                }
                if got < HEADER_LEN {
                    return Err(Error::eof(format!(
                        "input ends inside the chunk header at byte 0 ({got} of {HEADER_LEN} bytes)"
                    ))
                    .at(Position::Byte(0)));
                }
                ChunkHeader::decode(&raw, 0)?.chunk_size
            }
        };
        let first = start.div_ceil(chunk_size as u64) * chunk_size as u64;
        inner.seek(SeekFrom::Start(first))?;
        let mut reader = Self::starting_at(inner, options, first, end, true);
        reader.chunk_size = Some(chunk_size);
        Ok(reader)
    }
}

impl<R: Read> Iterator for VarReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.next_record() {
                Ok(Some(record)) => return Some(Ok(record)),
                Ok(None) => {
                    self.clip_skips();
                    self.done = true;
                }
                Err(fault) => {
                    if let Err(e) = self.recover(fault) {
                        self.done = true;
                        // A split that starts later does not know its records' numbers.
                        let e = if self.numbered {
                            e.in_record(self.records)
                        } else {
                            e
                        };
                        return Some(Err(e));
                    }
                }
            }
        }
        None
    }
}
