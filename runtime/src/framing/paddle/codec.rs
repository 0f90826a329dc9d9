//! tokio-util [`Decoder`] and [`Encoder`] for PaddlePaddle RecordIO (feature `tokio`).

use std::ops::Range;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::chunk::open_verified;
use super::finder::{ChunkFinder, Found};
use super::header::HEADER_LEN;
use super::recovery::Skipped;
use super::writer::ChunkBuilder;
use super::{PaddleReadOptions, PaddleWriteOptions};
use crate::error::{Error, Result};

/// A tokio-util codec for PaddlePaddle RecordIO: use it with `FramedRead` to read the
/// records of a file or stream over async I/O, and with `FramedWrite` to write one.
///
/// Decoding yields records (as [`Bytes`]; those of an uncompressed chunk share its
/// buffer) chunk by chunk: a chunk is verified whole (CRC-32, decompression, record table)
/// before any of its records comes out. It runs on the same core as the recovering
/// [`PaddleReader`](super::PaddleReader), with the same checks, the same size cap
/// ([`PaddleReadOptions::max_chunk_bytes`]: the input buffer never holds more than a chunk,
/// and a chunk is only buffered as its bytes arrive) and the same errors at the same byte
/// offsets; strict, it stops at the first damage, recovering ([`PaddleReadOptions::recover`])
/// it skips damage and lists it in [`PaddleCodec::skipped`].
///
/// Encoding gathers records into chunks by [`PaddleWriter`](super::PaddleWriter)'s rules
/// and writes each chunk once it is closed, so the bytes are the writer's (and, with the Go
/// layout, the Go writer's). Send [`FlushChunk`] at the end (as calling `finish` on the
/// writer), or the last chunk is never written.
///
/// ```
/// use bytes::BytesMut;
/// use hadoop_record::framing::paddle::{FlushChunk, PaddleCodec};
/// use tokio_util::codec::{Decoder, Encoder};
/// let mut codec = PaddleCodec::default();
/// let mut buf = BytesMut::new();
/// codec.encode(&b"hello"[..], &mut buf)?;
/// assert!(buf.is_empty()); // the chunk is still open
/// codec.encode(FlushChunk, &mut buf)?;
/// assert_eq!(buf.len(), 20 + 4 + 5);
/// let mut reader = PaddleCodec::default();
/// assert_eq!(reader.decode(&mut buf)?.as_deref(), Some(&b"hello"[..]));
/// assert_eq!(reader.decode_eof(&mut buf)?, None);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct PaddleCodec {
    options: PaddleReadOptions,
    finder: ChunkFinder,
    /// Stream offset of the first byte of the input buffer.
    base: u64,
    /// The current chunk's records: `raw[spans[next..]]`.
    raw: Bytes,
    spans: Vec<Range<usize>>,
    next: usize,
    skipped: Vec<Skipped>,
    records: u64,
    done: bool,
    builder: ChunkBuilder,
}

/// The encoder item that closes [`PaddleCodec`]'s pending chunk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlushChunk;

impl Default for PaddleCodec {
    fn default() -> Self {
        Self::new(PaddleReadOptions::default(), PaddleWriteOptions::default())
    }
}

impl PaddleCodec {
    /// A codec that decodes with `read` and encodes with `write`.
    pub fn new(read: PaddleReadOptions, write: PaddleWriteOptions) -> Self {
        PaddleCodec {
            options: read,
            finder: ChunkFinder::at(read, 0),
            base: 0,
            raw: Bytes::new(),
            spans: Vec::new(),
            next: 0,
            skipped: Vec::new(),
            records: 0,
            done: false,
            builder: ChunkBuilder::new(write),
        }
    }

    /// What recovery skipped so far (offsets, lengths, reasons).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Records decoded so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Stream offset of the next byte the decoder has not consumed.
    pub fn offset(&self) -> u64 {
        self.base
    }

    fn next_record(&mut self, src: &mut BytesMut, eof: bool) -> Result<Option<Bytes>> {
        loop {
            if let Some(span) = self.spans.get(self.next) {
                let record = self.raw.slice(span.clone());
                self.next += 1;
                self.records += 1;
                return Ok(Some(record));
            }
            if self.done {
                // After the end or an error the rest of the input is not looked at.
                self.base += src.len() as u64;
                src.clear();
                return Ok(None);
            }
            match self.finder.find(src, self.base, eof) {
                Found::More { keep, .. } => {
                    src.advance((keep - self.base) as usize);
                    self.base = keep;
                    return Ok(None);
                }
                Found::Chunk {
                    offset,
                    len,
                    header,
                    compressor,
                } => {
                    src.advance((offset - self.base) as usize);
                    let mut stored = src.split_to(len);
                    self.base = offset + len as u64;
                    let stored = stored.split_off(HEADER_LEN).freeze();
                    let mut scratch = Vec::new();
                    let opened = open_verified(
                        &header,
                        compressor,
                        &stored,
                        self.options.max_chunk_bytes,
                        &mut scratch,
                        Some(&mut self.spans),
                    );
                    match opened {
                        Ok(in_scratch) => {
                            self.raw = if in_scratch { scratch.into() } else { stored };
                            self.next = 0;
                            self.skipped.extend(self.finder.accept());
                        }
                        Err(damage) => {
                            self.spans.clear();
                            self.finder.reject(damage.clone());
                            if !self.options.recover {
                                return Err(self.fail(damage.to_error(offset)));
                            }
                        }
                    }
                }
                Found::Damaged { offset, damage } => {
                    return Err(self.fail(damage.to_error(offset)));
                }
                Found::End { skipped } => {
                    self.skipped.extend(skipped);
                    self.done = true;
                }
            }
        }
    }

    #[cold]
    fn fail(&mut self, error: Error) -> Error {
        self.done = true;
        error.in_record(self.records)
    }

    fn emit(dst: &mut BytesMut, header: &[u8; HEADER_LEN], stored: &[u8]) {
        dst.reserve(HEADER_LEN + stored.len());
        dst.extend_from_slice(header);
        dst.extend_from_slice(stored);
    }
}

impl Decoder for PaddleCodec {
    type Item = Bytes;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        self.next_record(src, false)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        self.next_record(src, true)
    }
}

impl<T: AsRef<[u8]>> Encoder<T> for PaddleCodec {
    type Error = Error;

    fn encode(&mut self, item: T, dst: &mut BytesMut) -> Result<()> {
        self.builder.push(item.as_ref(), |header, stored| {
            Self::emit(dst, header, stored);
            Ok(())
        })
    }
}

impl Encoder<FlushChunk> for PaddleCodec {
    type Error = Error;

    fn encode(&mut self, _: FlushChunk, dst: &mut BytesMut) -> Result<()> {
        self.builder.flush(|header, stored| {
            Self::emit(dst, header, stored);
            Ok(())
        })?;
        Ok(())
    }
}
