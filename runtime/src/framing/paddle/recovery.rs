//! What can be wrong with a chunk, and what a recovering reader skipped.

use std::fmt;

use super::{ChunkHeader, Layout};
use crate::error::{Error, ErrorKind, Position};

/// Why a chunk (or a stretch of bytes) could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// No magic number where a header should start.
    BadMagic {
        /// The four bytes found instead, as a little-endian `u32`.
        found: u32,
    },
    /// The input ends inside a header (1 to 19 bytes of it remain).
    TruncatedHeader {
        /// Bytes of the header present.
        have: u64,
    },
    /// The input ends inside a chunk's payload.
    TruncatedPayload {
        /// Payload bytes present.
        have: u64,
        /// Payload bytes the header declares.
        want: u64,
    },
    /// The payload's CRC-32 does not match the header.
    Checksum {
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the payload as read.
        computed: u32,
    },
    /// The header names a compressor id other than 0, 1 or 2.
    UnknownCompressor(u32),
    /// The header names an unknown compressor in the layout read, but reads well in the
    /// other one: the file is in that layout.
    OtherLayout {
        /// The compressor id as read.
        id: u32,
        /// The layout the header reads well in.
        layout: Layout,
    },
    /// The chunk's compressor is one this build lacks ([`Compressor::is_available`]).
    ///
    /// [`Compressor::is_available`]: super::Compressor::is_available
    Unavailable(super::Compressor),
    /// The chunk is larger than the reader's limit (stored, or once decompressed).
    TooLarge {
        /// What exceeds the limit.
        what: &'static str,
        /// Its size in bytes (for a decompressed payload: at least this much).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The compressed payload does not decompress.
    Decompress(String),
    /// The decompressed payload does not hold exactly `num_records` records.
    Records(String),
}

impl Damage {
    /// The [`ErrorKind`] a strict reader reports for this damage.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Damage::BadMagic { .. }
            | Damage::Decompress(_)
            | Damage::Records(_)
            | Damage::OtherLayout { .. } => ErrorKind::Syntax,
            Damage::TruncatedHeader { .. } | Damage::TruncatedPayload { .. } => {
                ErrorKind::UnexpectedEof
            }
            Damage::Checksum { .. } => ErrorKind::Checksum,
            Damage::UnknownCompressor(_) | Damage::Unavailable(_) => ErrorKind::Unsupported,
            Damage::TooLarge { .. } => ErrorKind::Limit,
        }
    }

    /// The error a strict reader reports for damage at `offset`, with what to do about
    /// it when something can be done (`--recover`, `--max-record-size`).
    #[cold]
    pub fn to_error(&self, offset: u64) -> Error {
        let message = match self {
            Damage::Unavailable(_) | Damage::OtherLayout { .. } => self.to_string(),
            _ => format!("damaged chunk: {self}"),
        };
        let error = Error::new(self.kind(), message).at(Position::Byte(offset));
        match self.remedy(offset) {
            Some(hint) => error.with_hint(hint),
            None => error,
        }
    }

    /// What a strict reader's user can do about this damage at `offset`: recovery for a
    /// damaged chunk that has chunks after it to read on with (not for input that ends, nor
    /// for a first chunk whose magic is wrong: that is no Paddle file), a larger limit for
    /// a chunk over it.
    fn remedy(&self, offset: u64) -> Option<&'static str> {
        match self {
            Damage::Checksum { .. }
            | Damage::Decompress(_)
            | Damage::Records(_)
            | Damage::UnknownCompressor(_) => Some(crate::framing::RECOVER_HINT),
            Damage::BadMagic { .. } if offset > 0 => Some(crate::framing::RECOVER_HINT),
            Damage::TooLarge { .. } => Some(crate::framing::LIMIT_HINT),
            _ => None,
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::BadMagic { found } => {
                write!(f, "bad magic number 0x{found:08x} (expected 0x01020304)")
            }
            Damage::TruncatedHeader { have } => {
                write!(f, "input ends inside a chunk header ({have} of 20 bytes)")
            }
            Damage::TruncatedPayload { have, want } => {
                write!(
                    f,
                    "input ends inside a chunk payload ({have} of {want} bytes)"
                )
            }
            Damage::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch: header says 0x{stored:08x}, payload has 0x{computed:08x}"
            ),
            Damage::UnknownCompressor(id) => write!(f, "unknown compressor id {id}"),
            Damage::OtherLayout { id, layout } => {
                let (name, framing) = match layout {
                    Layout::Go => ("Go", "paddle"),
                    Layout::Cpp => ("C++", "paddle-cpp"),
                };
                write!(
                    f,
                    "unknown compressor id {id}, but the chunk header reads well in Paddle's \
                     {name} layout: read the file as {framing}"
                )
            }
            Damage::Unavailable(c) => write!(f, "{}", c.unavailable().message()),
            Damage::TooLarge { what, size, limit } => write!(
                f,
                "{what} of {size} bytes exceeds the limit of {limit} bytes"
            ),
            Damage::Decompress(msg) => write!(f, "payload does not decompress: {msg}"),
            Damage::Records(msg) => write!(f, "bad record table: {msg}"),
        }
    }
}

/// A stretch of input a recovering reader skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Byte offset where the skipped stretch starts (the damaged chunk's header).
    pub offset: u64,
    /// Length of the stretch: up to the next valid chunk, or to the end of the input.
    pub bytes: u64,
    /// What was wrong at `offset`.
    pub reason: Damage,
    /// The damaged chunk's header, when its magic and fields could be read.
    pub header: Option<ChunkHeader>,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "skipped {} byte(s) at byte {}: {}",
            self.bytes, self.offset, self.reason
        )
    }
}
