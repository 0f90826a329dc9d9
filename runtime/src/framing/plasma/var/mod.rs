//! `Mapred_io.var_size_format`: length-prefixed records in fixed-size, checksummed chunks.
//!
//! The file is a sequence of chunk slots of `chunk_size` bytes (default 64 KiB). Each slot
//! starts with a 32-byte header (size, payload sizes, the offset of the first record that
//! starts in the chunk, compression, checksums) followed by the payload; the last chunk may
//! end right after its payload. The payloads, joined, are a stream of records, each a
//! length (1 byte up to 254, else `0xFF` and a big-endian u64) and its bytes; records run on
//! from one chunk into the next. Because slots sit at multiples of the chunk size, a reader
//! can start at any chunk (bigblock) boundary and find its first record from the header.
//!
//! Plasma's own source could not be obtained, so the exact bytes are this crate's: see
//! `docs/plasma-var-format.md`. Compatibility with files Plasma wrote is unverified.

mod header;
mod reader;
mod snappy;
mod writer;

pub(crate) use header::MAGIC;
pub use header::{
    capacity, ChunkHeader, Compression, DEFAULT_CHUNK_SIZE, HEADER_LEN, MAX_CHUNK_SIZE,
    MIN_CHUNK_SIZE,
};
pub use reader::{ChunkSummary, Skip, VarReadOptions, VarReader};
pub use writer::{VarWriteOptions, VarWriter};
