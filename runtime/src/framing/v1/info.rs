//! A summary of a RecordIO v1 file for `rcc frame info`.

use std::fmt;
use std::io::Read;

use super::header::FileHeader;
use super::{V1ReadOptions, V1Reader};
use crate::error::Error;

/// What a RecordIO v1 file holds.
#[derive(Debug)]
pub struct V1Info {
    /// The header, when it could be read.
    pub header: Option<FileHeader>,
    /// Records read, per type in order of first appearance.
    pub types: Vec<(String, u64)>,
    /// Records read in all.
    pub records: u64,
    /// Payload bytes of those records.
    pub payload_bytes: u64,
    /// Segments read (partial and terminating, reserved included).
    pub segments: u64,
    /// Reserved (`.`-typed) records read (and skipped by normal readers).
    pub reserved: Vec<(String, u64)>,
    /// What stopped reading early, if anything. The format has no checksums and no
    /// recovery: reading stops at the first damage.
    pub error: Option<Error>,
}

/// Reads a whole RecordIO v1 file and summarises it.
pub fn info<R: Read>(input: R, options: V1ReadOptions) -> V1Info {
    let mut info = V1Info {
        header: None,
        types: Vec::new(),
        records: 0,
        payload_bytes: 0,
        segments: 0,
        reserved: Vec::new(),
        error: None,
    };
    let options = options.with_deliver_reserved(true);
    let mut reader = match V1Reader::with_options(input, options) {
        Ok(reader) => reader,
        Err(e) => {
            info.error = Some(e);
            return info;
        }
    };
    info.header = Some(reader.header().clone());
    for record in reader.by_ref() {
        match record {
            Ok(r) => {
                let counts = if r.record_type.starts_with('.') {
                    &mut info.reserved
                } else {
                    info.records += 1;
                    info.payload_bytes += r.payload.len() as u64;
                    &mut info.types
                };
                match counts.iter_mut().find(|(t, _)| *t == r.record_type) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((r.record_type, 1)),
                }
            }
            Err(e) => info.error = Some(e),
        }
    }
    info.segments = reader.segments();
    info
}

impl fmt::Display for V1Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "format: v1")?;
        if let Some(header) = &self.header {
            let (major, minor) = header.version();
            writeln!(f, "version: {major}.{minor}")?;
            writeln!(f, "headers: {}", header.pairs().len())?;
            for (key, value) in header.pairs() {
                writeln!(f, "  {key}: {value}")?;
            }
        }
        writeln!(
            f,
            "records: {} ({} payload bytes, {} segments)",
            self.records, self.payload_bytes, self.segments
        )?;
        for (t, n) in &self.types {
            writeln!(f, "  {t}: {n}")?;
        }
        let reserved: u64 = self.reserved.iter().map(|(_, n)| n).sum();
        writeln!(f, "reserved records (skipped by readers): {reserved}")?;
        for (t, n) in &self.reserved {
            writeln!(f, "  {t}: {n}")?;
        }
        writeln!(f, "checksums: none in this format")?;
        match &self.error {
            None => writeln!(f, "status: ok"),
            Some(e) => writeln!(
                f,
                "error: {e}\nrecovery: none; readers stop at the first damage"
            ),
        }
    }
}
