//! Chunk payload compression: none, snappy (the framed stream format, as golang/snappy's
//! buffered writer produces it) and gzip, with a hard cap on decompressed size.

use std::io::{Read, Write};

use flate2::{Compression, GzBuilder};

use super::recovery::Damage;
use super::Compressor;

/// Compresses `raw` (a chunk's length-prefixed records) with `compressor`, appending to
/// `out`.
///
/// Snappy matches golang/snappy's `NewBufferedWriter` fed the whole payload in one `Write`,
/// as PaddlePaddle's Go writer does: the stream identifier, then one frame per 64 KiB block,
/// each compressed unless that saves less than 1/8, in which case it is stored. snap's
/// `FrameEncoder` given the payload in one `write_all` frames it the same way, and its
/// block compressor emits the same bytes as golang/snappy's (checked against Go output,
/// see `tests/framing_paddle_go.rs`).
///
/// Gzip writes the same 10-byte header as Go's `compress/gzip` (no name, mtime 0, XFL 0,
/// OS 255) at the default level, but the deflate data comes from flate2, not Go's
/// `compress/flate`, so its bytes differ from Go's (both are valid gzip).
pub(crate) fn compress(compressor: Compressor, raw: &[u8], out: &mut Vec<u8>) {
    match compressor {
        Compressor::None => out.extend_from_slice(raw),
        Compressor::Snappy => {
            let mut enc = snap::write::FrameEncoder::new(out);
            enc.write_all(raw)
                .and_then(|()| enc.flush())
                .expect("writing to a Vec cannot fail");
        }
        Compressor::Gzip => {
            let mut enc = GzBuilder::new()
                .mtime(0)
                .operating_system(255)
                .write(out, Compression::default());
            enc.write_all(raw)
                .and_then(|()| enc.try_finish())
                .expect("writing to a Vec cannot fail");
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
