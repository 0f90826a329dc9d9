//! Chunk payload compression: none, snappy (the framed stream format, as golang/snappy's
//! buffered writer produces it) and gzip, with a hard cap on decompressed size. Snappy needs
//! the crate's `snappy` feature and gzip its `deflate` feature.

#[cfg(any(feature = "snappy", feature = "deflate"))]
use std::io::Read;
#[cfg(feature = "snappy")]
use std::io::Write;

#[cfg(feature = "deflate")]
use super::gozip::{GoGzip, Level};
use super::recovery::Damage;
use super::Compressor;
use crate::error::Result;

/// A writer's compression state: the gzip encoder (created on first use) keeps its tables
/// between chunks.
#[derive(Debug, Default)]
pub(crate) struct ChunkCompressor {
    #[cfg(feature = "deflate")]
    gzip: Option<Box<GoGzip>>,
}

impl Compressor {
    /// The crate feature this compressor needs (none for [`Compressor::None`]).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            Compressor::None => None,
            Compressor::Snappy => Some("snappy"),
            Compressor::Gzip => Some("deflate"),
        }
    }

    /// Whether this build reads and writes chunks of this compressor.
    pub fn is_available(self) -> bool {
        match self {
            Compressor::None => true,
            Compressor::Snappy => cfg!(feature = "snappy"),
            Compressor::Gzip => cfg!(feature = "deflate"),
        }
    }

    /// The error for a compressor this build lacks.
    pub(crate) fn unavailable(self) -> crate::Error {
        crate::framing::unavailable(
            &format!("the Paddle compressor {}", self.name()),
            self.feature().unwrap_or_default(),
        )
    }
}

impl ChunkCompressor {
    /// Compresses `raw` (a chunk's length-prefixed records) with `compressor`, appending
    /// to `out`.
    ///
    /// Snappy matches golang/snappy's `NewBufferedWriter` fed the whole payload in one
    /// `Write`, as PaddlePaddle's Go writer does: the stream identifier, then one frame per
    /// 64 KiB block, each compressed unless that saves less than 1/8, in which case it is
    /// stored. snap's `FrameEncoder` given the payload in one `write_all` frames it the same
    /// way, and its block compressor emits the same bytes as golang/snappy's (checked
    /// against Go output, see `tests/framing_paddle_go.rs`).
    ///
    /// Gzip is byte-identical to Go's `gzip.NewWriter` given the payload in one `Write`,
    /// then `Close`, as PaddlePaddle's writer does: see [`gozip`](super::gozip) for why it
    /// is our own encoder.
    #[cfg_attr(
        not(any(feature = "snappy", feature = "deflate")),
        allow(unreachable_code, unused_variables)
    )]
    pub(crate) fn compress(
        &mut self,
        compressor: Compressor,
        raw: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match compressor {
            Compressor::None => out.extend_from_slice(raw),
            #[cfg(feature = "snappy")]
            Compressor::Snappy => {
                let mut enc = snap::write::FrameEncoder::new(out);
                enc.write_all(raw)
                    .and_then(|()| enc.flush())
                    .expect("writing to a Vec cannot fail");
            }
            #[cfg(feature = "deflate")]
            Compressor::Gzip => self
                .gzip
                .get_or_insert_with(|| Box::new(GoGzip::new(Level::DEFAULT)))
                .compress(raw, out),
            #[allow(unreachable_patterns)]
            other => return Err(other.unavailable()),
        }
        Ok(())
    }
}

/// Decompresses a stored payload into `out` (cleared first), refusing to produce more than
/// `limit` bytes: output grows only as decompression produces it, so a bomb costs at most
/// `limit` bytes of memory.
#[cfg_attr(
    not(any(feature = "snappy", feature = "deflate")),
    allow(unreachable_code, unused_variables)
)]
pub(crate) fn decompress(
    compressor: Compressor,
    stored: &[u8],
    limit: u64,
    out: &mut Vec<u8>,
) -> Result<(), Damage> {
    out.clear();
    let result: std::io::Result<usize> = match compressor {
        Compressor::None => unreachable!("uncompressed payloads are used in place"),
        #[cfg(feature = "snappy")]
        Compressor::Snappy => snap::read::FrameDecoder::new(stored)
            .take(limit.saturating_add(1))
            .read_to_end(out),
        #[cfg(feature = "deflate")]
        Compressor::Gzip => flate2::read::MultiGzDecoder::new(stored)
            .take(limit.saturating_add(1))
            .read_to_end(out),
        #[allow(unreachable_patterns)]
        other => return Err(Damage::Unavailable(other)),
    };
    match result {
        Ok(_) if out.len() as u64 > limit => Err(Damage::TooLarge {
            what: "decompressed payload",
            size: out.len() as u64,
            limit,
        }),
        Ok(_) => Ok(()),
        Err(e) => Err(Damage::Decompress(e.to_string())),
    }
}
