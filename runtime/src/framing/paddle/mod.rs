//! PaddlePaddle chunked RecordIO: a file is a sequence of chunks, each a 20-byte header
//! (magic `0x01020304`, CRC-32 of the stored payload, compressor, stored size, record
//! count; little-endian `u32`s) and a payload holding `num_records × (u32 LE length,
//! bytes)`, compressed as a whole with none, snappy (framed stream) or gzip.
//!
//! - [`PaddleWriter`]: writes chunks as PaddlePaddle's Go writer does
//!   ([`FrameWrite`](super::FrameWrite)).
//! - [`PaddleReader`]: reads records in order from any `Read`, strict or recovering.
//! - [`PaddleIndex`] / [`PaddleFile`]: an index built by hopping headers, and random access
//!   by record number and by range on a `Read + Seek`.
//! - [`info`]: a summary of a file (chunks, header fields, checksums, what recovery skips).
//! - `PaddleCodec` (feature `tokio`): tokio-util `Decoder`/`Encoder` on the same cores.
//!
//! [`Layout::Go`] (the default) is the field order of the Go implementations, which the
//! reference files use; [`Layout::Cpp`] is the order of Paddle's C++ port (magic,
//! num_records, checksum, compressor, compress_size). Nothing in a file says which one it
//! is, so the variant is always chosen explicitly.
//!
//! # Limits
//!
//! A reader never allocates from a header's claims: payloads are read and decompressed
//! into buffers that grow with the bytes actually present. [`PaddleReadOptions::max_chunk_bytes`]
//! (default 64 MiB, twice Go's default chunk size) caps both the stored and the
//! decompressed size of a chunk, so a snappy or gzip bomb stops there with an
//! [`ErrorKind::Limit`](crate::ErrorKind::Limit) error; a chunk must also be able to hold
//! the 4-byte length of each record its header claims. Raise the cap for files written
//! with larger chunks or records.

use crate::by_name::from_name;
use crate::options::options;

mod chunk;
#[cfg(feature = "tokio")]
mod codec;
mod compress;
mod finder;
#[cfg(feature = "deflate")]
mod gozip;
mod header;
mod index;
mod info;
mod reader;
mod recovery;
mod scanner;
mod source;
mod split;
mod window;
mod writer;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use codec::{FlushChunk, PaddleCodec};
pub use header::{ChunkHeader, HEADER_LEN, MAGIC, MAGIC_BYTES};
pub use index::{ChunkEntry, PaddleFile, PaddleIndex, RecordRange};
pub use info::{info, ChunkSummary, PaddleInfo};
pub use reader::PaddleReader;
pub use recovery::{Damage, Skipped};
pub use writer::PaddleWriter;

pub(crate) use chunk::next_record;

/// Which header field order a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// PaddlePaddle/recordio and wangkuiyi/recordio (Go): magic, checksum, compressor,
    /// compressed_size, num_records.
    #[default]
    Go,
    /// Paddle's C++ port (`paddle/fluid/recordio`): magic, num_records, checksum,
    /// compressor, compress_size. Derived from the C++ source; no file written by it was
    /// available.
    Cpp,
}

/// How a chunk's payload is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compressor {
    /// Stored as is (id 0).
    #[default]
    None,
    /// The snappy framing format (stream identifier `ff 06 00 00 sNaPpY`, CRC-32C per
    /// frame), not raw snappy (id 1). Written byte-identical to golang/snappy's buffered
    /// writer.
    Snappy,
    /// A gzip stream (id 2). Written byte-identical to Go's `compress/gzip` at the default
    /// level (our own encoder following Go's `compress/flate`; flate2's deflate bytes
    /// differ); read with flate2.
    Gzip,
}

impl Compressor {
    const ALL: [Compressor; 3] = [Compressor::None, Compressor::Snappy, Compressor::Gzip];

    /// The name `rcc` takes after `--compression`: `none`, `snappy` or `gzip`.
    pub const fn name(self) -> &'static str {
        match self {
            Compressor::None => "none",
            Compressor::Snappy => "snappy",
            Compressor::Gzip => "gzip",
        }
    }

    /// The id stored in chunk headers.
    pub const fn id(self) -> u32 {
        match self {
            Compressor::None => 0,
            Compressor::Snappy => 1,
            Compressor::Gzip => 2,
        }
    }

    /// The compressor with this id, if known.
    pub const fn from_id(id: u32) -> Option<Compressor> {
        match id {
            0 => Some(Compressor::None),
            1 => Some(Compressor::Snappy),
            2 => Some(Compressor::Gzip),
            _ => None,
        }
    }
}

from_name!(
    /// A compressor by the name `rcc` takes after `--compression`: `none`, `snappy`, `gzip`.
    ///
    /// ```
    /// use hadoop_record::framing::paddle::Compressor;
    /// assert_eq!("gzip".parse::<Compressor>()?, Compressor::Gzip);
    /// assert!("lz4".parse::<Compressor>().is_err());
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    Compressor,
    "paddle compressor"
);

options! {
    /// Settings for [`PaddleWriter`].
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{Compressor, PaddleWriteOptions};
    /// let o = PaddleWriteOptions::default()
    ///     .with_compressor(Compressor::Snappy)
    ///     .with_max_chunk_size(1 << 20);
    /// assert_eq!(o.max_chunk_size(), 1 << 20);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct PaddleWriteOptions {
        /// Header field order (default Go).
        layout / with_layout: copy Layout = Layout::Go;
        /// Payload compression (default none; Go's own default is snappy).
        compressor / with_compressor: copy Compressor = Compressor::None;
        /// Maximum sum of record lengths per chunk, prefixes not counted (default 32 MiB,
        /// as Go's writer when given a negative size). A larger record gets a chunk of its
        /// own.
        max_chunk_size / with_max_chunk_size: copy u64 = PaddleWriteOptions::DEFAULT_MAX_CHUNK_SIZE;
        /// Also close a chunk once it has this many records (at least 1; the C++ writer's
        /// rule, with 1000). `None` (the default): no count limit.
        max_chunk_records / with_max_chunk_records: copy Option<u32> = None,
            map |records: Option<u32>| records.map(|n| n.max(1));
    }
}

impl PaddleWriteOptions {
    /// The default maximum chunk size: 32 MiB of record bytes.
    pub const DEFAULT_MAX_CHUNK_SIZE: u64 = 32 << 20;

    /// The C++ writer's settings: C++ layout, chunks closed by record count alone (1000
    /// records, as `paddle/fluid/recordio/writer.cc`; no byte limit but the format's 4 GiB),
    /// no compression (the C++ snappy stream format was not verified).
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{Layout, PaddleWriteOptions};
    /// let o = PaddleWriteOptions::cpp();
    /// assert_eq!((o.layout(), o.max_chunk_records(), o.max_chunk_size()), (Layout::Cpp, Some(1000), u64::MAX));
    /// ```
    pub fn cpp() -> Self {
        Self::default()
            .with_layout(Layout::Cpp)
            .with_max_chunk_records(Some(1000))
            .with_max_chunk_size(u64::MAX)
    }
}

options! {
    /// Settings for reading: [`PaddleReader`], [`PaddleIndex`], [`PaddleFile`], [`info`].
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{Layout, PaddleReadOptions};
    /// let o = PaddleReadOptions::default().with_layout(Layout::Cpp).with_recover(true);
    /// assert!(o.recover());
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct PaddleReadOptions {
        /// Header field order (default Go).
        layout / with_layout: copy Layout = Layout::Go;
        /// Skip damaged chunks and resynchronise on the next valid header instead of
        /// stopping (default false).
        recover / with_recover: copy bool = false;
        /// Largest stored or decompressed chunk payload accepted (default 64 MiB).
        max_chunk_bytes / with_max_chunk_bytes: copy u64 = PaddleReadOptions::DEFAULT_MAX_CHUNK_BYTES;
        /// (Splits) a split takes the chunks that start inside it, with all their records,
        /// instead of its share of every chunk it overlaps (default false; recovering splits
        /// always take whole chunks). A chunk that a split's end cuts is then read once, by
        /// one split, not whole by both: what a remote file wants, where reading a chunk
        /// means fetching it. Splits of a file with few large chunks are less even. Every
        /// split of one file must be read with the same setting.
        whole_chunks / with_whole_chunks: copy bool = false;
    }
}

impl PaddleReadOptions {
    /// The default cap on a chunk's stored and decompressed size: 64 MiB.
    pub const DEFAULT_MAX_CHUNK_BYTES: u64 = 64 << 20;
}
