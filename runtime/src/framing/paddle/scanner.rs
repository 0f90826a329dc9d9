//! The chunk scanner behind the sequential reader and `info`: reads header and payload,
//! validates them, and in recovering mode skips damage by scanning for the next valid
//! header.

use std::io::Read;
use std::ops::Range;

use memchr::memmem;

use super::chunk::{check_header, open_chunk};
use super::header::{HEADER_LEN, MAGIC_BYTES};
use super::recovery::{Damage, Skipped};
use super::source::Source;
use super::{ChunkHeader, Compressor, PaddleReadOptions};
use crate::error::Result;

/// A valid chunk, with its records' ranges.
#[derive(Debug, Default)]
pub(crate) struct OpenChunk {
    pub offset: u64,
    pub header: ChunkHeader,
    /// Decompressed size (the stored size when uncompressed).
    pub raw_len: u64,
    /// Whether the records are in `scratch` (else in `stored`).
    in_scratch: bool,
    stored: Vec<u8>,
    scratch: Vec<u8>,
    pub spans: Vec<Range<usize>>,
}

impl OpenChunk {
    /// The bytes the record spans index into.
    pub fn raw(&self) -> &[u8] {
        if self.in_scratch {
            &self.scratch
        } else {
            &self.stored
        }
    }
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

/// The outcome of trying to read one chunk at the current offset.
enum Attempt {
    Ok,
    Eof,
    Bad {
        damage: Damage,
        header: Option<ChunkHeader>,
        /// The header bytes read (to put back for resynchronising).
        raw_header: [u8; HEADER_LEN],
        header_len: usize,
    },
}

#[derive(Debug)]
pub(crate) struct ChunkScanner<R> {
    src: Source<R>,
    options: PaddleReadOptions,
    pub chunk: OpenChunk,
    /// A valid chunk found while resynchronising, to be handed out after the `Skipped`.
    pending_chunk: bool,
    failed: bool,
}

impl<R: Read> ChunkScanner<R> {
    pub(crate) fn new(inner: R, options: PaddleReadOptions) -> Self {
        ChunkScanner {
            src: Source::new(inner),
            options,
            chunk: OpenChunk::default(),
            pending_chunk: false,
            failed: false,
        }
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
        let start = self.src.offset();
        match self.attempt()? {
            Attempt::Ok => Ok(Step::Chunk),
            Attempt::Eof => Ok(Step::End),
            Attempt::Bad {
                damage,
                header,
                raw_header,
                header_len,
            } => {
                if !self.options.recover {
                    self.failed = true;
                    return Err(damage.to_error(start));
                }
                self.put_back(&raw_header[..header_len]);
                let end = self.resync()?;
                if end.is_some() {
                    self.pending_chunk = true;
                }
                let bytes = end.unwrap_or(self.src.offset()) - start;
                Ok(Step::Skipped(Skipped {
                    offset: start,
                    bytes,
                    reason: damage,
                    header,
                }))
            }
        }
    }

    /// After damage at the chunk that started where `raw_header` + `chunk.stored` came
    /// from: puts those bytes back except the first, so scanning resumes one byte later.
    fn put_back(&mut self, raw_header: &[u8]) {
        let stored = std::mem::take(&mut self.chunk.stored);
        self.src.unread(&stored);
        self.chunk.stored = stored;
        if raw_header.len() > 1 {
            self.src.unread(&raw_header[1..]);
        }
    }

    /// Scans for the next magic number that starts a valid chunk. Returns its offset (the
    /// chunk is then loaded), or `None` at the end of input (everything consumed).
    fn resync(&mut self) -> Result<Option<u64>> {
        let finder = memmem::Finder::new(&MAGIC_BYTES);
        loop {
            let buf = self.src.fill(HEADER_LEN)?;
            if buf.len() < MAGIC_BYTES.len() {
                let n = buf.len();
                self.src.consume(n);
                return Ok(None);
            }
            match finder.find(buf) {
                None => {
                    // Keep the last 3 bytes: a magic number may straddle the refill.
                    let n = buf.len() - (MAGIC_BYTES.len() - 1);
                    self.src.consume(n);
                    // Force a refill past the kept bytes.
                    let more = self.src.fill(MAGIC_BYTES.len())?.len();
                    if more < MAGIC_BYTES.len() {
                        self.src.consume(more);
                        return Ok(None);
                    }
                }
                Some(i) => {
                    self.src.consume(i);
                    let candidate = self.src.offset();
                    match self.attempt()? {
                        Attempt::Ok => return Ok(Some(candidate)),
                        Attempt::Eof => return Ok(None),
                        Attempt::Bad {
                            raw_header,
                            header_len,
                            ..
                        } => self.put_back(&raw_header[..header_len]),
                    }
                }
            }
        }
    }

    /// Reads and validates one chunk at the current offset.
    fn attempt(&mut self) -> Result<Attempt> {
        let limit = self.options.max_chunk_bytes;
        let layout = self.options.layout;
        self.chunk.stored.clear();
        // A failed attempt must leave no record spans behind.
        self.chunk.spans.clear();
        let buf = self.src.fill(HEADER_LEN)?;
        let mut raw_header = [0u8; HEADER_LEN];
        let header_len = buf.len().min(HEADER_LEN);
        raw_header[..header_len].copy_from_slice(&buf[..header_len]);
        let bad = |damage, header| Attempt::Bad {
            damage,
            header,
            raw_header,
            header_len,
        };
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
            return Ok(bad(damage, None));
        }
        if header_len < HEADER_LEN {
            let damage = Damage::TruncatedHeader {
                have: header_len as u64,
            };
            return Ok(bad(damage, None));
        }
        let header = ChunkHeader::parse(&raw_header, layout).expect("magic checked");
        let compressor: Compressor = match check_header(&header, limit) {
            Ok(c) => c,
            Err(damage) => return Ok(bad(damage, Some(header))),
        };
        let want = u64::from(header.compressed_size);
        let have = self.src.read_into(want, &mut self.chunk.stored)?;
        if have < want {
            return Ok(bad(Damage::TruncatedPayload { have, want }, Some(header)));
        }
        let chunk = &mut self.chunk;
        match open_chunk(
            &header,
            compressor,
            &chunk.stored,
            limit,
            &mut chunk.scratch,
            &mut chunk.spans,
        ) {
            Ok(in_scratch) => {
                chunk.in_scratch = in_scratch;
                chunk.offset = self.src.offset() - want - HEADER_LEN as u64;
                chunk.header = header;
                chunk.raw_len = chunk.raw().len() as u64;
                Ok(Attempt::Ok)
            }
            Err(damage) => {
                chunk.spans.clear();
                Ok(bad(damage, Some(header)))
            }
        }
    }
}
