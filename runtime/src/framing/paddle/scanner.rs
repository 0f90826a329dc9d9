//! The chunk scanner behind the sequential reader and `info`: reads header and payload and
//! validates them. Strict, it reads each payload straight into the chunk buffer and stops
//! at the first damage; recovering, it hands the buffered input to the [`ChunkFinder`],
//! which skips damage by scanning for the next valid chunk, in time linear in the input.

use std::io::{Cursor, Read};

use bytes::Bytes;

use super::chunk::{check_header, open_verified, Arrival};
use super::finder::{ChunkFinder, Found};
use super::header::{HEADER_LEN, MAGIC_BYTES};
use super::recovery::{Damage, Skipped};
use super::source::{PayloadBuf, Source};
use super::{ChunkHeader, Compressor, PaddleReadOptions};
use crate::error::Result;
use crate::framing::BufferPool;

/// A valid chunk, its record table checked.
#[derive(Debug, Default)]
pub(crate) struct OpenChunk {
    pub offset: u64,
    pub header: ChunkHeader,
    /// Decompressed size (the stored size when uncompressed).
    pub raw_len: u64,
    /// The records [`OpenChunk::raw`] holds: 0 when no valid chunk is open.
    pub records: u32,
    /// Whether the records are in `scratch` (else in `stored`).
    in_scratch: bool,
    stored: PayloadBuf,
    scratch: Vec<u8>,
    /// Where the buffers come from and go back to, if anywhere.
    pool: Option<BufferPool>,
}

impl Drop for OpenChunk {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            pool.give(std::mem::take(&mut self.stored).into_vec());
            pool.give(std::mem::take(&mut self.scratch));
        }
    }
}

impl OpenChunk {
    /// The raw payload: the record table ([`super::chunk::next_record`] steps through it).
    #[inline]
    pub fn raw(&self) -> &[u8] {
        if self.in_scratch {
            &self.scratch
        } else {
            self.stored.as_slice()
        }
    }

    /// Opens the payload in `stored`, checked as `check` says: then the chunk is the one at
    /// `offset`. On damage it holds no records.
    fn open(
        &mut self,
        offset: u64,
        header: ChunkHeader,
        compressor: Compressor,
        limit: u64,
        check: Check,
    ) -> Result<(), Damage> {
        if let Some(pool) = &self.pool {
            if compressor != Compressor::None && self.scratch.capacity() == 0 {
                self.scratch = pool.take();
            }
        }
        let (stored, scratch) = (self.stored.as_slice(), &mut self.scratch);
        let opened = match check {
            Check::Verified => open_verified(&header, compressor, stored, limit, scratch, None),
            Check::Arrived(arrival) => arrival.open(&header, compressor, stored, limit, scratch),
        };
        match opened {
            Ok(in_scratch) => {
                self.in_scratch = in_scratch;
                self.offset = offset;
                self.header = header;
                self.raw_len = self.raw().len() as u64;
                self.records = header.num_records;
                Ok(())
            }
            Err(damage) => {
                self.records = 0;
                Err(damage)
            }
        }
    }
}

impl ChunkScanner<Cursor<Bytes>> {
    /// Takes payloads as views of the input instead of copies (see [`Source::in_memory`]).
    pub(crate) fn in_memory(&mut self) {
        self.src.in_memory();
    }
}

/// What is left to check of a chunk's stored payload when it is opened.
enum Check {
    /// Its CRC was checked (by the recovery finder): decompress and walk the record table.
    Verified,
    /// It was checked while it arrived: finish that.
    Arrived(Arrival),
}

/// What the scanner found next.
#[derive(Debug)]
pub(crate) enum Step {
    /// A valid chunk is in the scanner's `chunk`.
    Chunk,
    /// (Recovering mode) a damaged stretch was skipped; a valid chunk may follow.
    Skipped(Skipped),
    /// The input ended cleanly.
    End,
}

/// The outcome of trying to read one chunk at the current offset (strict mode).
enum Attempt {
    Ok,
    Eof,
    Bad(Damage),
}

#[derive(Debug)]
pub(crate) struct ChunkScanner<R> {
    src: Source<R>,
    options: PaddleReadOptions,
    pub chunk: OpenChunk,
    /// (Recovering) finds chunks and skips damage.
    finder: ChunkFinder,
    /// A valid chunk found while resynchronising, to be handed out after the `Skipped`.
    pending_chunk: bool,
    /// (Recovering split) chunks and damage before this offset belong to earlier splits:
    /// they are found exactly as a whole-file reader finds them, but neither opened nor
    /// reported.
    skip_before: u64,
    failed: bool,
}

impl<R: Read> ChunkScanner<R> {
    pub(crate) fn new(inner: R, options: PaddleReadOptions) -> Self {
        Self::at(inner, options, 0)
    }

    /// A scanner whose input starts at stream offset `offset`, where a chunk starts.
    pub(crate) fn at(inner: R, options: PaddleReadOptions, offset: u64) -> Self {
        ChunkScanner {
            src: Source::at(inner, offset),
            options,
            chunk: OpenChunk::default(),
            finder: ChunkFinder::at(options, offset),
            pending_chunk: false,
            skip_before: 0,
            failed: false,
        }
    }

    /// Tells the scanner that its input ends at stream offset `len` (the input's own
    /// length), so that a payload's buffer is sized once for it.
    pub(crate) fn input_ends_at(&mut self, len: u64) {
        self.src.ends_at(len);
    }

    /// (Recovering mode) passes over the chunks and damage before `offset` without opening
    /// or reporting them.
    pub(crate) fn skip_before(&mut self, offset: u64) {
        self.skip_before = offset;
    }

    /// Takes the chunk buffer from `pool` (unless the scanner has one already) and gives
    /// its buffers back when dropped.
    pub(crate) fn pool_buffers(&mut self, pool: &BufferPool) {
        let chunk = &mut self.chunk;
        if chunk.stored.is_unused() && !self.src.is_in_memory() {
            chunk.stored = PayloadBuf::from_vec(pool.take());
        }
        chunk.pool = Some(pool.clone());
    }

    pub(crate) fn options(&self) -> &PaddleReadOptions {
        &self.options
    }

    pub(crate) fn offset(&self) -> u64 {
        self.src.offset()
    }

    pub(crate) fn into_inner(self) -> R {
        self.src.into_inner()
    }

    /// The next chunk or skipped stretch. In strict mode damage is an error (and the
    /// scanner stops); I/O errors are errors in both modes.
    pub(crate) fn step(&mut self) -> Result<Step> {
        if self.failed {
            return Ok(Step::End);
        }
        if std::mem::take(&mut self.pending_chunk) {
            return Ok(Step::Chunk);
        }
        if self.options.recover {
            return self.recovering_step();
        }
        let start = self.src.offset();
        match self.attempt()? {
            Attempt::Ok => Ok(Step::Chunk),
            Attempt::Eof => Ok(Step::End),
            Attempt::Bad(damage) => {
                self.failed = true;
                Err(damage.to_error(start))
            }
        }
    }

    /// A step in recovering mode: the finder looks at the buffered input.
    fn recovering_step(&mut self) -> Result<Step> {
        let limit = self.options.max_chunk_bytes;
        let mut want = HEADER_LEN;
        loop {
            let base = self.src.offset();
            let (buf, eof) = self.src.window(want)?;
            let buffered = buf.len();
            match self.finder.find(buf, base, eof) {
                Found::More { keep, want: w } => {
                    self.src.consume((keep - base) as usize);
                    want = w;
                }
                Found::Chunk { offset, len, .. } if offset < self.skip_before => {
                    // An earlier split's chunk: its extent is what matters here.
                    self.src.consume((offset - base) as usize + len);
                    self.finder.accept();
                    want = HEADER_LEN;
                }
                Found::Chunk {
                    offset,
                    len,
                    header,
                    compressor,
                } => {
                    let at = (offset - base) as usize;
                    let stored = &mut self.chunk.stored;
                    stored.clear();
                    stored.extend_from_slice(&buf[at + HEADER_LEN..at + len]);
                    self.src.consume(at + len);
                    match self
                        .chunk
                        .open(offset, header, compressor, limit, Check::Verified)
                    {
                        Ok(()) => {
                            let skipped = self.finder.accept();
                            if let Some(skipped) = skipped.filter(|s| s.offset >= self.skip_before)
                            {
                                self.pending_chunk = true;
                                return Ok(Step::Skipped(skipped));
                            }
                            return Ok(Step::Chunk);
                        }
                        Err(damage) => {
                            self.finder.reject(damage);
                            want = HEADER_LEN;
                        }
                    }
                }
                Found::End { skipped } => {
                    // Everything was looked at (and what was not a chunk skipped).
                    self.src.consume(buffered);
                    let skipped = skipped.filter(|s| s.offset >= self.skip_before);
                    return Ok(skipped.map_or(Step::End, Step::Skipped));
                }
                Found::Damaged { .. } => unreachable!("a recovering finder reports no damage"),
            }
        }
    }

    /// Reads and validates one chunk at the current offset.
    fn attempt(&mut self) -> Result<Attempt> {
        let limit = self.options.max_chunk_bytes;
        let layout = self.options.layout;
        self.chunk.stored.clear();
        // A failed attempt must leave no records behind.
        self.chunk.records = 0;
        let buf = self.src.fill(HEADER_LEN)?;
        let mut raw_header = [0u8; HEADER_LEN];
        let header_len = buf.len().min(HEADER_LEN);
        raw_header[..header_len].copy_from_slice(&buf[..header_len]);
        if header_len == 0 {
            return Ok(Attempt::Eof);
        }
        self.src.consume(header_len);
        if raw_header[..header_len.min(4)] != MAGIC_BYTES[..header_len.min(4)] {
            let mut found = [0u8; 4];
            found[..header_len.min(4)].copy_from_slice(&raw_header[..header_len.min(4)]);
            let damage = Damage::BadMagic {
                found: u32::from_le_bytes(found),
            };
            return Ok(Attempt::Bad(damage));
        }
        if header_len < HEADER_LEN {
            let damage = Damage::TruncatedHeader {
                have: header_len as u64,
            };
            return Ok(Attempt::Bad(damage));
        }
        let header = ChunkHeader::parse(&raw_header, layout).expect("magic checked");
        let compressor: Compressor = match check_header(&header, layout, limit) {
            Ok(c) => c,
            Err(damage) => return Ok(Attempt::Bad(damage)),
        };
        let want = u64::from(header.compressed_size);
        let mut arrival = Arrival::new(&header, compressor);
        let have = self
            .src
            .read_into(want, &mut self.chunk.stored, |stored, new| {
                arrival.arrived(stored, new)
            })?;
        if have < want {
            return Ok(Attempt::Bad(Damage::TruncatedPayload { have, want }));
        }
        let offset = self.src.offset() - want - HEADER_LEN as u64;
        let check = Check::Arrived(arrival);
        match self.chunk.open(offset, header, compressor, limit, check) {
            Ok(()) => Ok(Attempt::Ok),
            Err(damage) => Ok(Attempt::Bad(damage)),
        }
    }
}
