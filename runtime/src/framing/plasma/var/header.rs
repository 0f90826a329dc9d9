//! The 32-byte chunk header of the var-size format (docs/plasma-var-format.md defines it).

use crate::by_name::from_name;
use crate::error::{Error, ErrorKind, Position, Result};

/// Bytes of a chunk header.
pub const HEADER_LEN: usize = 32;
/// The first four bytes of every chunk.
pub const MAGIC: [u8; 4] = *b"PMRV";
/// The format version this implementation reads and writes.
pub const VERSION: u8 = 1;
/// The default chunk size: 64 KiB, as the Plasma documentation describes.
pub const DEFAULT_CHUNK_SIZE: u32 = 64 << 10;
/// The smallest chunk size (header plus 32 payload bytes).
pub const MIN_CHUNK_SIZE: u32 = 64;
/// The largest chunk size (1 GiB).
pub const MAX_CHUNK_SIZE: u32 = 1 << 30;
/// A compressed chunk holds at most this many times its capacity in payload bytes, which
/// caps what a reader decompresses.
pub const MAX_EXPANSION: u64 = 16;
/// Header flag: the writer finished the file with this chunk.
pub const FLAG_FINAL: u8 = 0x01;
/// Checksum algorithm 1: CRC-32 (IEEE 802.3, the zlib/gzip CRC) of the stored bytes.
pub const CHECKSUM_CRC32: u8 = 1;
/// The `first_record` value meaning no record starts in the chunk.
pub const NO_RECORD: u32 = u32::MAX;

/// How a chunk's payload is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compression {
    /// Stored as is (flag 0).
    #[default]
    None,
    /// Snappy raw block format, with its length preamble (flag 1).
    Snappy,
}

impl Compression {
    const ALL: [Compression; 2] = [Compression::None, Compression::Snappy];

    /// The flag byte.
    pub fn flag(self) -> u8 {
        match self {
            Compression::None => 0,
            Compression::Snappy => 1,
        }
    }

    /// The compression a flag byte names.
    pub fn from_flag(flag: u8) -> Option<Self> {
        match flag {
            0 => Some(Compression::None),
            1 => Some(Compression::Snappy),
            _ => None,
        }
    }

    /// The name used in options and summaries: `none` or `snappy`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Snappy => "snappy",
        }
    }
}

from_name!(Compression, "plasma-var compression");

/// A decoded chunk header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkHeader {
    /// Whether the writer finished the file with this chunk.
    pub is_final: bool,
    /// How the payload is stored.
    pub compression: Compression,
    /// Bytes of the chunk's slot in the file, header included; the same in every chunk.
    pub chunk_size: u32,
    /// Payload bytes stored after the header (compressed size when compressed).
    pub stored_size: u32,
    /// Payload bytes after decompression.
    pub payload_size: u32,
    /// Offset in the (decompressed) payload of the first record that starts in this chunk.
    pub first_record: Option<u32>,
    /// CRC-32 of the stored payload bytes.
    pub payload_crc: u32,
}

/// The most bytes `stored` bytes of snappy raw data can unpack to: the densest element, a
/// 3-byte copy, yields 64 bytes. Bounding a header's payload size by it means a forged size
/// never makes a reader allocate more than ~21 times the bytes actually stored.
pub fn snappy_max_expansion(stored: u32) -> u64 {
    (u64::from(stored) * 64).div_ceil(3)
}

/// Checks a chunk size given by a caller or read from a header.
pub fn check_chunk_size(size: u32) -> Result<()> {
    if !(MIN_CHUNK_SIZE..=MAX_CHUNK_SIZE).contains(&size) {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!("plasma-var chunk size {size} outside {MIN_CHUNK_SIZE}..={MAX_CHUNK_SIZE}"),
        ));
    }
    Ok(())
}

/// Payload bytes a chunk of `chunk_size` bytes can store.
pub fn capacity(chunk_size: u32) -> u32 {
    chunk_size - HEADER_LEN as u32
}

/// The most payload bytes a compressed chunk of `chunk_size` may expand to.
pub fn max_payload(chunk_size: u32) -> u32 {
    (capacity(chunk_size) as u64 * MAX_EXPANSION).min(u32::MAX as u64) as u32
}

impl ChunkHeader {
    /// The 32 header bytes, big-endian, ending with the CRC-32 of the first 28.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..4].copy_from_slice(&MAGIC);
        out[4] = VERSION;
        out[5] = if self.is_final { FLAG_FINAL } else { 0 };
        out[6] = self.compression.flag();
        out[7] = CHECKSUM_CRC32;
        out[8..12].copy_from_slice(&self.chunk_size.to_be_bytes());
        out[12..16].copy_from_slice(&self.stored_size.to_be_bytes());
        out[16..20].copy_from_slice(&self.payload_size.to_be_bytes());
        out[20..24].copy_from_slice(&self.first_record.unwrap_or(NO_RECORD).to_be_bytes());
        out[24..28].copy_from_slice(&self.payload_crc.to_be_bytes());
        let crc = crc32fast::hash(&out[..28]);
        out[28..32].copy_from_slice(&crc.to_be_bytes());
        out
    }

    /// Decodes and validates the header of the chunk at file offset `at`. Errors point at
    /// the offending field.
    pub fn decode(bytes: &[u8; HEADER_LEN], at: u64) -> Result<ChunkHeader> {
        let field = |offset: u64, kind: ErrorKind, message: String| {
            Error::new(kind, message).at(Position::Byte(at + offset))
        };
        let u32_at =
            |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if bytes[0..4] != MAGIC {
            return Err(field(
                0,
                ErrorKind::Syntax,
                format!("no plasma-var chunk header at byte {at} (bad magic)"),
            ));
        }
        if bytes[4] != VERSION {
            return Err(field(
                4,
                ErrorKind::Unsupported,
                format!(
                    "plasma-var chunk version {} (only {VERSION} is known)",
                    bytes[4]
                ),
            ));
        }
        if bytes[7] != CHECKSUM_CRC32 {
            return Err(field(
                7,
                ErrorKind::Unsupported,
                format!("unknown checksum algorithm {}", bytes[7]),
            ));
        }
        let crc = crc32fast::hash(&bytes[..28]);
        if crc != u32_at(28) {
            return Err(field(
                28,
                ErrorKind::Checksum,
                format!(
                    "chunk header checksum mismatch (stored {:08x}, computed {crc:08x})",
                    u32_at(28)
                ),
            ));
        }
        if bytes[5] & !FLAG_FINAL != 0 {
            return Err(field(
                5,
                ErrorKind::Unsupported,
                format!("unknown chunk flags {:#04x}", bytes[5]),
            ));
        }
        let compression = Compression::from_flag(bytes[6]).ok_or_else(|| {
            field(
                6,
                ErrorKind::Unsupported,
                format!("unknown compression flag {}", bytes[6]),
            )
        })?;
        let chunk_size = u32_at(8);
        check_chunk_size(chunk_size).map_err(|e| e.at(Position::Byte(at + 8)))?;
        let stored_size = u32_at(12);
        if stored_size > capacity(chunk_size) {
            return Err(field(
                12,
                ErrorKind::Syntax,
                format!("stored size {stored_size} does not fit a chunk of {chunk_size} bytes"),
            ));
        }
        let payload_size = u32_at(16);
        let payload_ok = match compression {
            Compression::None => payload_size == stored_size,
            Compression::Snappy => {
                payload_size <= max_payload(chunk_size)
                    && u64::from(payload_size) <= snappy_max_expansion(stored_size)
            }
        };
        if !payload_ok {
            return Err(field(
                16,
                ErrorKind::Limit,
                format!(
                    "payload size {payload_size} impossible for {} bytes stored with {}",
                    stored_size,
                    compression.name()
                ),
            ));
        }
        let first_record = match u32_at(20) {
            NO_RECORD => None,
            first if first < payload_size => Some(first),
            first => {
                return Err(field(
                    20,
                    ErrorKind::Syntax,
                    format!("first record offset {first} outside the {payload_size}-byte payload"),
                ))
            }
        };
        Ok(ChunkHeader {
            is_final: bytes[5] & FLAG_FINAL != 0,
            compression,
            chunk_size,
            stored_size,
            payload_size,
            first_record,
            payload_crc: u32_at(24),
        })
    }
}

/// The length prefix of a record: one byte for lengths up to 254, else `0xFF` and the
/// length as a big-endian u64. Returns the prefix bytes and their count.
#[inline]
pub fn encode_length(len: u64) -> ([u8; 9], usize) {
    let mut out = [0u8; 9];
    if len <= MAX_SHORT_LENGTH as u64 {
        out[0] = len as u8;
        (out, 1)
    } else {
        out[0] = LONG_LENGTH;
        out[1..].copy_from_slice(&len.to_be_bytes());
        (out, 9)
    }
}

/// The marker byte of the 9-byte length form.
pub const LONG_LENGTH: u8 = 0xFF;
/// The longest record whose length fits the 1-byte form.
pub const MAX_SHORT_LENGTH: usize = 254;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ChunkHeader {
        ChunkHeader {
            is_final: true,
            compression: Compression::None,
            chunk_size: 65536,
            stored_size: 100,
            payload_size: 100,
            first_record: Some(7),
            payload_crc: 0xdead_beef,
        }
    }

    #[test]
    fn header_bytes_are_as_documented() {
        let bytes = sample().encode();
        assert_eq!(&bytes[..8], b"PMRV\x01\x01\x00\x01");
        assert_eq!(&bytes[8..12], &[0, 1, 0, 0]);
        assert_eq!(&bytes[12..16], &[0, 0, 0, 100]);
        assert_eq!(&bytes[16..20], &[0, 0, 0, 100]);
        assert_eq!(&bytes[20..24], &[0, 0, 0, 7]);
        assert_eq!(&bytes[24..28], &[0xde, 0xad, 0xbe, 0xef]);
        assert_eq!(&bytes[28..32], &crc32fast::hash(&bytes[..28]).to_be_bytes());
        assert_eq!(ChunkHeader::decode(&bytes, 0).unwrap(), sample());
    }

    #[test]
    fn every_corrupted_byte_is_caught() {
        let good = sample().encode();
        for i in 0..HEADER_LEN {
            let mut bad = good;
            bad[i] ^= 0x10;
            let e = ChunkHeader::decode(&bad, 1000).unwrap_err();
            match e.position() {
                Some(Position::Byte(p)) => assert!((1000..1032).contains(&p), "{e}"),
                other => panic!("no byte position: {other:?}"),
            }
        }
    }

    #[test]
    fn lengths_use_the_short_form_up_to_254() {
        assert_eq!(encode_length(0), ([0; 9], 1));
        assert_eq!(encode_length(254).1, 1);
        let (bytes, n) = encode_length(255);
        assert_eq!(&bytes[..n], &[0xff, 0, 0, 0, 0, 0, 0, 0, 0xff]);
    }
}
