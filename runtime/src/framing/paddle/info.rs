//! A summary of a PaddlePaddle RecordIO file: what `rcc frame info` prints.

use crate::framing::count::Count;
use std::fmt;
use std::io::Read;

use super::recovery::Skipped;
use super::scanner::{ChunkScanner, Step};
use super::{ChunkHeader, Layout, PaddleReadOptions};
use crate::error::Result;

/// A valid chunk (magic, CRC-32, decompression and record table all checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkSummary {
    /// Byte offset of the header.
    pub offset: u64,
    /// The header fields.
    pub header: ChunkHeader,
    /// Global number of the chunk's first record (counting valid chunks only).
    pub first_record: u64,
    /// Size of the payload once decompressed.
    pub decompressed_size: u64,
}

/// What [`info`] found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaddleInfo {
    /// The layout the file was read with.
    pub layout: Layout,
    /// Bytes read.
    pub bytes: u64,
    /// The valid chunks, in order.
    pub chunks: Vec<ChunkSummary>,
    /// Records in the valid chunks.
    pub records: u64,
    /// The damaged stretches a recovering reader skips (empty for a sound file).
    pub skipped: Vec<Skipped>,
}

impl PaddleInfo {
    /// Whether the file is sound (a strict reader reads it without error).
    pub fn is_sound(&self) -> bool {
        self.skipped.is_empty()
    }
}

/// Reads a whole file and summarises it: every valid chunk with its header and
/// decompressed size, and every damaged stretch with its offset, length and reason (what a
/// recovering [`PaddleReader`](super::PaddleReader) skips). Damage is reported, not
/// returned as an error, whatever `options.recover` says; only I/O errors fail.
///
/// ```
/// use hadoop_record::framing::paddle::{info, PaddleReadOptions, PaddleWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = PaddleWriter::new(Vec::new());
/// w.write_payload(b"abc")?;
/// w.finish()?;
/// let mut file = w.into_inner()?;
/// file.extend_from_slice(&[4, 3, 2]); // a truncated header
/// let info = info(&file[..], &PaddleReadOptions::default())?;
/// assert_eq!((info.chunks.len(), info.records), (1, 1));
/// assert_eq!(info.skipped[0].offset, 27);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn info<R: Read>(reader: R, options: &PaddleReadOptions) -> Result<PaddleInfo> {
    let mut scanner = ChunkScanner::new(reader, options.with_recover(true));
    let mut out = PaddleInfo {
        layout: options.layout,
        bytes: 0,
        chunks: Vec::new(),
        records: 0,
        skipped: Vec::new(),
    };
    loop {
        match scanner.step()? {
            Step::Chunk => {
                let c = &scanner.chunk;
                out.chunks.push(ChunkSummary {
                    offset: c.offset,
                    header: c.header,
                    first_record: out.records,
                    decompressed_size: c.raw_len,
                });
                out.records += u64::from(c.header.num_records);
            }
            Step::Skipped(s) => out.skipped.push(s),
            Step::End => break,
        }
    }
    out.bytes = scanner.offset();
    Ok(out)
}

impl fmt::Display for PaddleInfo {
    /// A human-readable report: one line per chunk and per skipped stretch.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "paddle recordio ({:?} layout): {} bytes, {}, {}, {}",
            self.layout,
            self.bytes,
            Count::of(self.chunks.len(), "chunk", "chunks"),
            Count::of(self.records, "record", "records"),
            if self.is_sound() {
                "no damage".to_owned()
            } else {
                Count::of(self.skipped.len(), "damaged stretch", "damaged stretches").to_string()
            }
        )?;
        for c in &self.chunks {
            let compressor = match c.header.compressor() {
                Some(comp) => format!("{comp:?}").to_lowercase(),
                None => c.header.compressor.to_string(),
            };
            writeln!(
                f,
                "chunk at {}: {} (first {}), {} {} bytes -> {} bytes, crc32 0x{:08x} ok",
                c.offset,
                Count::of(c.header.num_records, "record", "records"),
                c.first_record,
                compressor,
                c.header.compressed_size,
                c.decompressed_size,
                c.header.checksum
            )?;
        }
        for s in &self.skipped {
            writeln!(f, "{s}")?;
        }
        Ok(())
    }
}
