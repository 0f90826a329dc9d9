//! The var-size writer: records as a stream of length-prefixed bytes cut into fixed-size
//! chunks.

use std::collections::VecDeque;
use std::io::Write;

use super::header::{
    capacity, check_chunk_size, encode_length, max_payload, ChunkHeader, Compression,
    DEFAULT_CHUNK_SIZE,
};
use super::snappy::Snappy;
use crate::error::{Error, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;
use crate::options::options;

options! {
    /// Options of [`VarWriter`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct VarWriteOptions {
        /// Bytes per chunk, header included (default 64 KiB; 64 B to 1 GiB). Splits and
        /// bigblocks must be multiples of it.
        chunk_size / with_chunk_size: copy u32 = DEFAULT_CHUNK_SIZE;
        /// How chunk payloads are stored (default none). With snappy, a chunk whose data
        /// does not shrink is stored uncompressed.
        compression / with_compression: copy Compression = Compression::None;
    }
}

/// Writes records in the var-size format.
///
/// Every chunk fills a slot of exactly `chunk_size` bytes, except the last one
/// [`finish`](FrameWrite::finish) writes, which ends after its payload; payloads written
/// after `finish` first pad that slot. Call `finish` at the end: a file without a final
/// chunk reads as truncated.
///
/// ```
/// use hadoop_record::framing::plasma::{VarReader, VarWriter, VarWriteOptions};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = VarWriter::new(Vec::new(), VarWriteOptions::default()).unwrap();
/// w.write_payload(b"one").unwrap();
/// w.write_payload(&[7; 300]).unwrap();
/// w.finish().unwrap();
/// let file = w.into_inner().unwrap();
/// assert_eq!(file.len(), 32 + 1 + 3 + 9 + 300);
/// let records: Vec<_> = VarReader::new(&file[..]).collect::<Result<_, _>>().unwrap();
/// assert_eq!(records, [b"one".to_vec(), vec![7; 300]]);
/// ```
pub struct VarWriter<W: Write> {
    inner: Held<W>,
    options: VarWriteOptions,
    /// Payload bytes of the chunk being filled (the raw stream from `emitted` on).
    pending: Vec<u8>,
    /// Offset in the raw record stream of `pending[0]`.
    emitted: u64,
    /// Raw-stream offsets of record starts not yet placed in a written chunk.
    starts: VecDeque<u64>,
    /// Zero bytes owed to the slot of a short final chunk before the next chunk.
    owed_padding: u64,
    /// Whether the last chunk written is a final one (nothing written since `finish`).
    last_final: bool,
    /// With compression: raw bytes to gather per chunk (adapted to the data).
    raw_target: usize,
    scratch: Vec<u8>,
    encoder: Option<Snappy>,
    records: u64,
    chunks: u64,
}

impl<W: Write> VarWriter<W> {
    /// A writer into `inner`; fails only on a bad chunk size.
    pub fn new(inner: W, options: VarWriteOptions) -> Result<Self> {
        check_chunk_size(options.chunk_size)?;
        let cap = capacity(options.chunk_size) as usize;
        Ok(VarWriter {
            inner: Held::new(inner),
            options,
            pending: Vec::new(),
            emitted: 0,
            starts: VecDeque::new(),
            owed_padding: 0,
            last_final: false,
            raw_target: cap,
            scratch: Vec::new(),
            encoder: match options.compression {
                Compression::None => None,
                Compression::Snappy => Some(Snappy::new()?),
            },
            records: 0,
            chunks: 0,
        })
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Chunks written so far.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }

    fn capacity(&self) -> usize {
        capacity(self.options.chunk_size) as usize
    }

    /// Adds bytes of the raw record stream, writing every chunk they fill.
    fn append(&mut self, mut data: &[u8]) -> Result<()> {
        if self.encoder.is_some() {
            self.pending.extend_from_slice(data);
            while self.pending.len() >= self.raw_target {
                self.emit_compressed(false)?;
            }
            return Ok(());
        }
        let cap = self.capacity();
        while !data.is_empty() {
            let room = cap - self.pending.len();
            if data.len() < room {
                self.pending.extend_from_slice(data);
                return Ok(());
            }
            // The chunk is full: write it straight from `pending` and `data`, no copy.
            let (head, tail) = data.split_at(room);
            self.emit_stored(head, false)?;
            data = tail;
        }
        Ok(())
    }

    /// The first record start in the raw range `[from, to)`, relative to `from`. (The
    /// starts stay until [`VarWriter::end_chunk`]: a chunk whose writing failed is written
    /// again alike.)
    fn first_record_in(&self, from: u64, to: u64) -> Option<u32> {
        self.starts
            .iter()
            .take_while(|&&s| s < to)
            .find(|&&s| s >= from)
            .map(|&s| (s - from) as u32)
    }

    /// Writes `pending ++ head` uncompressed as one chunk and empties `pending`.
    fn emit_stored(&mut self, head: &[u8], is_final: bool) -> Result<()> {
        let len = self.pending.len() + head.len();
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&self.pending);
        hasher.update(head);
        self.begin_chunk(Compression::None, len, len, hasher.finalize(), is_final)?;
        self.inner.write_all(&self.pending)?;
        self.inner.write_all(head)?;
        self.pending.clear();
        self.end_chunk(len, len, is_final)
    }

    /// Writes a chunk from the start of `pending` with snappy, or stored when the data does
    /// not shrink; adapts `raw_target` to the compression ratio seen.
    fn emit_compressed(&mut self, is_final: bool) -> Result<()> {
        let cap = self.capacity();
        let limit = max_payload(self.options.chunk_size) as usize;
        let mut n = self.pending.len().min(self.raw_target).min(limit);
        for _ in 0..3 {
            let encoder = self.encoder.as_mut().expect("compressing writer");
            self.scratch
                .resize(encoder.max_compress_len(n).max(self.scratch.len()), 0);
            let c = encoder.compress(&self.pending[..n], &mut self.scratch)?;
            if c <= cap && c < n {
                let is_final = is_final && n == self.pending.len();
                self.write_compressed(n, c, is_final)?;
                // Aim the next chunk at filling ~97% of the slot at the ratio just seen.
                let target = (cap as u64 * n as u64 / c as u64) * 97 / 100;
                self.raw_target = (target as usize).clamp(cap, limit);
                return Ok(());
            }
            if c >= n || n <= cap {
                break;
            }
            // Too much raw data for one slot: shrink by the overshoot and retry.
            n = ((n as u64 * cap as u64 / c as u64) * 95 / 100).max(cap as u64) as usize;
        }
        // Incompressible (or not fitting): store a slot's worth uncompressed.
        self.raw_target = cap;
        let n = self.pending.len().min(cap);
        let tail = self.pending.split_off(n);
        let is_final = is_final && tail.is_empty();
        self.emit_stored(&[], is_final)?;
        self.pending = tail;
        Ok(())
    }

    /// Writes `pending[..n]`, compressed into `scratch[..c]`, as one chunk.
    fn write_compressed(&mut self, n: usize, c: usize, is_final: bool) -> Result<()> {
        let crc = crc32fast::hash(&self.scratch[..c]);
        self.begin_chunk(Compression::Snappy, n, c, crc, is_final)?;
        self.inner.write_all(&self.scratch[..c])?;
        self.pending.drain(..n);
        self.end_chunk(n, c, is_final)
    }

    /// Writes the padding owed and the header of a chunk of `raw` payload bytes, `stored` of
    /// them on disk with CRC `crc`.
    fn begin_chunk(
        &mut self,
        compression: Compression,
        raw: usize,
        stored: usize,
        crc: u32,
        is_final: bool,
    ) -> Result<()> {
        let from = self.emitted;
        let header = ChunkHeader {
            is_final,
            compression,
            chunk_size: self.options.chunk_size,
            stored_size: stored as u32,
            payload_size: raw as u32,
            first_record: self.first_record_in(from, from + raw as u64),
            payload_crc: crc,
        };
        self.pay_padding()?;
        self.inner.write_all(&header.encode())?;
        Ok(())
    }

    /// Bookkeeping after a chunk of `raw` payload bytes, `stored` of them on disk.
    fn end_chunk(&mut self, raw: usize, stored: usize, is_final: bool) -> Result<()> {
        self.emitted += raw as u64;
        while self.starts.front().is_some_and(|&s| s < self.emitted) {
            self.starts.pop_front();
        }
        self.chunks += 1;
        self.last_final = is_final;
        let padding = (self.capacity() - stored) as u64;
        if is_final {
            self.owed_padding = padding;
        } else {
            self.owed_padding = 0;
            write_zeros(&mut self.inner, padding)?;
        }
        Ok(())
    }

    /// Writes what is pending as the final chunk (or an empty final chunk), and flushes.
    fn write_final_chunk(&mut self) -> Result<()> {
        if self.encoder.is_some() {
            while !self.pending.is_empty() {
                self.emit_compressed(true)?;
            }
        } else if !self.pending.is_empty() {
            self.emit_stored(&[], true)?;
        }
        if !self.last_final {
            // The last chunk filled its slot (or there is none yet): end with an empty
            // final chunk so readers can tell a complete file from a cut one.
            self.emit_stored(&[], true)?;
        }
        self.inner.flush().map_err(Error::from)
    }

    fn pay_padding(&mut self) -> Result<()> {
        write_zeros(&mut self.inner, self.owed_padding)?;
        self.owed_padding = 0;
        Ok(())
    }
}

fn write_zeros(w: &mut impl Write, mut n: u64) -> Result<()> {
    const ZEROS: [u8; 4096] = [0; 4096];
    while n > 0 {
        let step = n.min(ZEROS.len() as u64) as usize;
        w.write_all(&ZEROS[..step])?;
        n -= step as u64;
    }
    Ok(())
}

impl<W: Write> FrameWrite for VarWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let start = self.emitted + self.pending.len() as u64;
        self.starts.push_back(start);
        let (prefix, n) = encode_length(payload.len() as u64);
        let result = self
            .append(&prefix[..n])
            .and_then(|()| self.append(payload));
        self.records += u64::from(result.is_ok());
        self.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        let result = self.write_final_chunk();
        self.inner.watch(result)
    }
}

finish_on_drop!(VarWriter, FrameWrite::finish, "writing the final chunk");
