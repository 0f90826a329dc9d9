//! The 20-byte chunk header: five little-endian `u32` fields, in the Go or the C++ order.

use super::{Compressor, Layout};

/// The magic number that starts every chunk header (bytes `04 03 02 01` on disk).
pub const MAGIC: u32 = 0x0102_0304;
/// The magic number as it appears in the file.
pub const MAGIC_BYTES: [u8; 4] = MAGIC.to_le_bytes();
/// Size of a chunk header in bytes.
pub const HEADER_LEN: usize = 20;

/// The fields of a chunk header (the magic is implied).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ChunkHeader {
    /// CRC-32 (IEEE) of the payload as stored (after compression).
    pub checksum: u32,
    /// Compressor id as stored: 0 none, 1 snappy, 2 gzip (see [`ChunkHeader::compressor`]).
    pub compressor: u32,
    /// Payload length in bytes, as stored.
    pub compressed_size: u32,
    /// Number of records in the chunk.
    pub num_records: u32,
}

impl ChunkHeader {
    /// Parses a header; `None` when the magic number is wrong.
    ///
    /// ```
    /// use hadoop_record::framing::paddle::{ChunkHeader, Layout};
    /// let bytes = [4, 3, 2, 1, 0xaa, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0];
    /// let h = ChunkHeader::parse(&bytes, Layout::Go).unwrap();
    /// assert_eq!((h.checksum, h.compressed_size, h.num_records), (0xaa, 5, 1));
    /// assert_eq!(h.to_bytes(Layout::Go), bytes);
    /// ```
    pub fn parse(bytes: &[u8; HEADER_LEN], layout: Layout) -> Option<ChunkHeader> {
        let field = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        if field(0) != MAGIC {
            return None;
        }
        Some(match layout {
            Layout::Go => ChunkHeader {
                checksum: field(1),
                compressor: field(2),
                compressed_size: field(3),
                num_records: field(4),
            },
            Layout::Cpp => ChunkHeader {
                num_records: field(1),
                checksum: field(2),
                compressor: field(3),
                compressed_size: field(4),
            },
        })
    }

    /// The header's bytes, magic first.
    pub fn to_bytes(&self, layout: Layout) -> [u8; HEADER_LEN] {
        let fields = match layout {
            Layout::Go => [
                MAGIC,
                self.checksum,
                self.compressor,
                self.compressed_size,
                self.num_records,
            ],
            Layout::Cpp => [
                MAGIC,
                self.num_records,
                self.checksum,
                self.compressor,
                self.compressed_size,
            ],
        };
        let mut out = [0; HEADER_LEN];
        for (dst, f) in out.chunks_exact_mut(4).zip(fields) {
            dst.copy_from_slice(&f.to_le_bytes());
        }
        out
    }

    /// The compressor, when the id is a known one.
    pub fn compressor(&self) -> Option<Compressor> {
        Compressor::from_id(self.compressor)
    }
}
