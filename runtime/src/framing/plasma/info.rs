//! Summaries of Plasma files for `rcc frame info`: records, chunks, checksums, damage.

use std::fmt;
use std::io::Read;

use super::fixed::FixedReader;
use super::text::{TextOptions, TextReader};
use super::var::{ChunkSummary, Compression, Skip, VarReadOptions, VarReader};
use crate::error::Error;

/// A summary of a plasma-text file.
#[derive(Debug)]
pub struct TextInfo {
    /// Complete records read.
    pub records: u64,
    /// Payload bytes of those records (without LFs).
    pub payload_bytes: u64,
    /// The longest record, in bytes.
    pub longest: u64,
    /// What stopped reading early, if anything.
    pub error: Option<Error>,
}

/// Reads a whole plasma-text file and summarises it.
pub fn text_info<R: Read>(input: R, options: TextOptions) -> TextInfo {
    let mut info = TextInfo {
        records: 0,
        payload_bytes: 0,
        longest: 0,
        error: None,
    };
    for record in TextReader::with_options(input, options) {
        match record {
            Ok(r) => {
                info.records += 1;
                info.payload_bytes += r.len() as u64;
                info.longest = info.longest.max(r.len() as u64);
            }
            Err(e) => info.error = Some(e),
        }
    }
    info
}

impl fmt::Display for TextInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "format: plasma-text")?;
        writeln!(
            f,
            "records: {} ({} payload bytes, longest {})",
            self.records, self.payload_bytes, self.longest
        )?;
        write_error(f, &self.error)
    }
}

/// A summary of a plasma-fixed file.
#[derive(Debug)]
pub struct FixedInfo {
    /// The record size.
    pub record_size: usize,
    /// Complete records read.
    pub records: u64,
    /// What stopped reading early (a trailing partial record), if anything.
    pub error: Option<Error>,
}

/// Reads a whole plasma-fixed file of `record_size`-byte records and summarises it.
pub fn fixed_info<R: Read>(input: R, record_size: usize) -> FixedInfo {
    let mut info = FixedInfo {
        record_size,
        records: 0,
        error: None,
    };
    match FixedReader::new(input, record_size) {
        Ok(reader) => {
            for record in reader {
                match record {
                    Ok(_) => info.records += 1,
                    Err(e) => info.error = Some(e),
                }
            }
        }
        Err(e) => info.error = Some(e),
    }
    info
}

impl fmt::Display for FixedInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "format: plasma-fixed:{}", self.record_size)?;
        writeln!(
            f,
            "records: {} ({} payload bytes)",
            self.records,
            self.records * self.record_size as u64
        )?;
        write_error(f, &self.error)
    }
}

/// A summary of a plasma-var file, read in recovering mode.
#[derive(Debug)]
pub struct VarInfo {
    /// The chunk size, when a header could be read.
    pub chunk_size: Option<u32>,
    /// Every chunk slot read, in order, with its header and any problem.
    pub chunks: Vec<ChunkSummary>,
    /// Records a recovering reader delivers.
    pub records: u64,
    /// Payload bytes of those records.
    pub payload_bytes: u64,
    /// What recovery skips; empty for a sound file.
    pub skipped: Vec<Skip>,
    /// Damage recovery cannot get past (an I/O error, or a damaged first header).
    pub error: Option<Error>,
}

impl VarInfo {
    /// Whether a strict reader reads the whole file without error.
    pub fn is_sound(&self) -> bool {
        self.skipped.is_empty() && self.error.is_none()
    }
}

/// Reads a whole plasma-var file in recovering mode and summarises its chunks.
pub fn var_info<R: Read>(input: R, options: VarReadOptions) -> VarInfo {
    let mut reader = VarReader::with_options(input, options.with_recover(true));
    reader.log_chunks();
    let mut info = VarInfo {
        chunk_size: None,
        chunks: Vec::new(),
        records: 0,
        payload_bytes: 0,
        skipped: Vec::new(),
        error: None,
    };
    for record in reader.by_ref() {
        match record {
            Ok(r) => {
                info.records += 1;
                info.payload_bytes += r.len() as u64;
            }
            Err(e) => info.error = Some(e),
        }
    }
    info.chunk_size = reader.chunk_size();
    info.skipped = reader.skipped().to_vec();
    info.chunks = reader.take_log();
    info
}

impl fmt::Display for VarInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "format: plasma-var")?;
        match self.chunk_size {
            Some(size) => writeln!(f, "chunk size: {size}")?,
            None => writeln!(f, "chunk size: unknown")?,
        }
        let snappy = self
            .chunks
            .iter()
            .filter(|c| {
                c.header
                    .is_some_and(|h| h.compression == Compression::Snappy)
            })
            .count();
        let bad = self.chunks.iter().filter(|c| c.problem.is_some()).count();
        writeln!(
            f,
            "chunks: {} ({} snappy, {} damaged)",
            self.chunks.len(),
            snappy,
            bad
        )?;
        let mismatched = self.chunks.iter().filter(|c| c.checksum_mismatch).count();
        writeln!(
            f,
            "checksums: {} ok, {} mismatched",
            self.chunks.len() - bad,
            mismatched
        )?;
        writeln!(
            f,
            "records: {} ({} payload bytes)",
            self.records, self.payload_bytes
        )?;
        for c in self.chunks.iter().filter(|c| c.problem.is_some()) {
            writeln!(
                f,
                "damaged chunk at byte {}: {}",
                c.offset,
                c.problem.as_deref().unwrap_or_default()
            )?;
        }
        if self.skipped.is_empty() {
            writeln!(f, "recovery skips: nothing")?;
        }
        for s in &self.skipped {
            writeln!(
                f,
                "recovery skips bytes {}..{} ({} bytes): {}",
                s.offset,
                s.offset + s.len,
                s.len,
                s.reason
            )?;
        }
        match &self.error {
            Some(_) => write_error(f, &self.error),
            None if self.skipped.is_empty() => writeln!(f, "status: ok"),
            None => writeln!(
                f,
                "status: damaged ({} byte range(s) lost; a strict reader stops at the first)",
                self.skipped.len()
            ),
        }
    }
}

fn write_error(f: &mut fmt::Formatter<'_>, error: &Option<Error>) -> fmt::Result {
    match error {
        None => writeln!(f, "status: ok"),
        Some(e) => writeln!(f, "error: {e}"),
    }
}
