//! "RecordIO v1.0", the typed, text-friendly framing.
//!
//! A file is a magic line `RecordIO v1.0`, `Key: value` header lines, a blank line, then
//! segments `type:len:` (terminating) or `type:len+` (partial), each followed by `len`
//! bytes of body and a LF. A record is zero or more partial segments and one terminating
//! segment, all of one type; readers join them. Types starting with `.` are reserved for
//! the library: readers skip them and writers refuse them.
//!
//! Where the spec is ambiguous this module follows the readings of `docs/recordio-v1.md`:
//! lenient header keys and separators when reading, strict ones when writing; segment
//! lengths up to 2^32−1 when reading, records split into segments of at most 2^31−1 bytes
//! when writing; any v1.x read, other major versions refused.

use crate::options::options;

mod decoder;
mod header;
mod info;
mod reader;
mod writer;

#[cfg(feature = "tokio")]
mod codec;

pub use decoder::{Decoder, Event};
pub use header::FileHeader;
pub(crate) use header::MAGIC;
pub use info::{info, V1Info};
pub use reader::{Payloads, V1Reader};
pub use writer::{check_record_type, V1FrameWriter, V1Writer};

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use codec::V1Codec;

/// The longest segment body readers accept: 2^32−1 bytes, the grammar's bound.
pub const MAX_SEGMENT_LEN: u64 = u32::MAX as u64;
/// The longest segment writers write by default: 2^31−1 bytes, which satisfies both
/// readings of the spec's limit.
pub const DEFAULT_WRITE_SEGMENT_LEN: u64 = i32::MAX as u64;
/// The longest segment type accepted (the spec sets no bound; this one keeps a segment
/// header small).
pub const MAX_TYPE_LEN: usize = 1024;
/// Bodies with at least this much left are read straight from the source.
const DIRECT_READ: u64 = 64 << 10;

/// A record with its type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypedRecord {
    /// The record type (letters and digits; a leading `.` only for reserved records).
    pub record_type: String,
    /// The record bytes, partial segments joined.
    pub payload: Vec<u8>,
}

impl TypedRecord {
    /// A record of `record_type`.
    pub fn new(record_type: impl Into<String>, payload: impl Into<Vec<u8>>) -> Self {
        TypedRecord {
            record_type: record_type.into(),
            payload: payload.into(),
        }
    }
}

options! {
    /// Options of the readers.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct V1ReadOptions {
        /// The longest record accepted, partial segments joined (default 1 GiB); a longer
        /// one is an [`crate::ErrorKind::Limit`] error at its segment header, before
        /// allocating.
        max_record_size / with_max_record_size: copy u64 = 1 << 30;
        /// The most header bytes accepted, magic and blank line included (default 1 MiB).
        max_header_size / with_max_header_size: copy usize = 1 << 20;
        /// Deliver reserved (`.`-typed) records instead of skipping them (default `false`;
        /// for tools that inspect a file's library records).
        deliver_reserved / with_deliver_reserved: copy bool = false;
    }
}

options! {
    /// Options of the writers.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct V1WriteOptions {
        /// The longest segment written (default 2^31−1); longer records are split into
        /// partial segments. At most [`MAX_SEGMENT_LEN`].
        max_segment_len / with_max_segment_len: copy u64 = DEFAULT_WRITE_SEGMENT_LEN;
        /// Refuse header keys outside the spec's `Word(-Word)*`, `Word = [A-Z][a-z]*`
        /// (default `true`). When `false`, any key readers accept (`Content-MD5`, `X-UH`)
        /// is written.
        strict_keys / with_strict_keys: copy bool = true;
    }
}
