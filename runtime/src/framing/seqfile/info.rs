//! A summary of a SequenceFile: what `rcc frame info --from seqfile` prints.

use crate::framing::count::Count;
use std::fmt;
use std::io::Read;

use super::header::Header;
use super::read_log::{BlockSummary, Log};
use super::reader::{SeqReader, Skipped};
use super::{Compression, SeqReadOptions};
use crate::error::{Error, Result};

/// What [`info`] found in a file.
#[derive(Debug)]
pub struct SeqInfo {
    /// The header.
    pub header: Header,
    /// Bytes read.
    pub bytes: u64,
    /// Records read (damaged ones not counted).
    pub records: u64,
    /// The blocks (block compression only).
    pub blocks: Vec<BlockSummary>,
    /// Byte offsets of the sync entries read.
    pub syncs: Vec<u64>,
    /// The damaged stretches a recovering reader skips (empty for a sound file).
    pub skipped: Vec<Skipped>,
    /// An I/O error that stopped the summary, if any.
    pub error: Option<Error>,
}

impl SeqInfo {
    /// Whether the file is sound (a strict reader reads it without error).
    pub fn is_sound(&self) -> bool {
        self.skipped.is_empty() && self.error.is_none()
    }
}

/// Reads a whole file and summarises it: the header, every block, every sync entry and
/// every damaged stretch (what a recovering [`SeqReader`] skips). Damage is reported, not
/// returned, whatever `options.recover` says; a bad header is an error.
///
/// ```
/// use hadoop_record::framing::seqfile::{info, SeqReadOptions, SeqWriteOptions, SeqWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = SeqWriter::new(Vec::new(), SeqWriteOptions::new("m.R").with_sync_interval(0));
/// for v in [&b"a"[..], b"b", b"c"] {
///     w.write_payload(v)?;
/// }
/// w.finish()?;
/// let file = w.into_inner()?;
/// let info = info(&file[..], &SeqReadOptions::default())?;
/// assert_eq!((info.records, info.syncs.len()), (3, 3));
/// assert!(info.is_sound());
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn info<R: Read>(reader: R, options: &SeqReadOptions) -> Result<SeqInfo> {
    let mut r = SeqReader::with_options(reader, options.with_recover(true))?;
    r.log = Some(Log::default());
    let mut error = None;
    while let Some(next) = r.next_pair() {
        if let Err(e) = next {
            error = Some(e);
        }
    }
    let log = r.log.take().unwrap_or_default();
    Ok(SeqInfo {
        bytes: r.offset(),
        records: r.records_read(),
        blocks: log.blocks,
        syncs: log.syncs,
        skipped: r.skipped().to_vec(),
        header: r.header().clone(),
        error,
    })
}

impl fmt::Display for SeqInfo {
    /// A human-readable report: the header, counts, blocks, sync positions, damage.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(
            f,
            "sequencefile: {} bytes, {}{}, {}, {}",
            self.bytes,
            Count::of(self.records, "record", "records"),
            if h.compression == Compression::Block {
                format!(" in {}", Count::of(self.blocks.len(), "block", "blocks"))
            } else {
                String::new()
            },
            Count::of(self.syncs.len(), "sync entry", "sync entries"),
            if self.is_sound() {
                "no damage".to_owned()
            } else {
                let n = self.skipped.len() + usize::from(self.error.is_some());
                Count::of(n, "damaged stretch", "damaged stretches").to_string()
            }
        )?;
        writeln!(f, "{h}")?;
        for b in &self.blocks {
            writeln!(
                f,
                "block at {}: {}, {} bytes -> {} bytes",
                b.offset,
                Count::of(b.records, "record", "records"),
                b.stored,
                b.raw
            )?;
        }
        if !self.syncs.is_empty() {
            let list: Vec<String> = self.syncs.iter().map(u64::to_string).collect();
            writeln!(f, "sync entries at: {}", list.join(" "))?;
        }
        for s in &self.skipped {
            writeln!(f, "{s}")?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "error: {e}")?;
        }
        Ok(())
    }
}
