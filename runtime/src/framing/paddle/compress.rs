//! Chunk payload compression: none, snappy (the framed stream format, as golang/snappy's
//! buffered writer produces it) and gzip, with a hard cap on decompressed size.

use std::io::{Read, Write};

use super::gozip::{GoGzip, Level};
use super::recovery::Damage;
use super::Compressor;

/// A writer's compression state: the gzip encoder (created on first use) keeps its tables
/// between chunks.
#[derive(Debug, Default)]
pub(crate) struct ChunkCompressor {
    gzip: Option<Box<GoGzip>>,
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
    pub(crate) fn compress(&mut self, compressor: Compressor, raw: &[u8], out: &mut Vec<u8>) {
        match compressor {
            Compressor::None => out.extend_from_slice(raw),
            Compressor::Snappy => {
                let mut enc = snap::write::FrameEncoder::new(out);
                enc.write_all(raw)
                    .and_then(|()| enc.flush())
                    .expect("writing to a Vec cannot fail");
            }
            Compressor::Gzip => self
                .gzip
                .get_or_insert_with(|| Box::new(GoGzip::new(Level::DEFAULT)))
                .compress(raw, out),
        }
    }
}

/// Decompresses a stored payload into `out` (cleared first), refusing to produce more than
/// `limit` bytes: output grows only as decompression produces it, so a bomb costs at most
/// `limit` bytes of memory.
pub(crate) fn decompress(
    compressor: Compressor,
    stored: &[u8],
    limit: u64,
    out: &mut Vec<u8>,
) -> Result<(), Damage> {
    out.clear();
    let result = match compressor {
        Compressor::None => unreachable!("uncompressed payloads are used in place"),
        Compressor::Snappy => snap::read::FrameDecoder::new(stored)
            .take(limit.saturating_add(1))
            .read_to_end(out),
        Compressor::Gzip => flate2::read::MultiGzDecoder::new(stored)
            .take(limit.saturating_add(1))
            .read_to_end(out),
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
