//! Gzip exactly as Go writes it: the bytes of `gzip.NewWriter(w)` given the whole input in
//! one `Write`, then `Close` — what PaddlePaddle's Go writer does for every gzip chunk.
//!
//! Written here because no crate does it: flate2 (miniz_oxide or zlib) produces valid
//! deflate streams, but a different encoder's choices (matches, block boundaries, Huffman
//! codes) give different bytes, and byte-identical chunks are the point. Reading gzip
//! chunks needs no such care and uses flate2.
//!
//! The data flow: [`matcher`] turns the input into tokens (literals and matches) with
//! Go's hash chains and lazy matching, and cuts blocks where Go does; [`block`] picks
//! stored, fixed or dynamic Huffman coding for each block by Go's size estimates and
//! writes it through [`bits`], with codes from [`huffman`]. This module adds the gzip
//! header and trailer. Only the lazy-matching levels (4 to 9, of which 6 is the default)
//! are implemented: each is a row of [`Level`] parameters.
//!
//! Every rule that shows in the output is written down in the module docs, and checked
//! against vectors made by Go 1.19 (`tests/data/gozip_vectors.*`).

mod bits;
mod block;
mod huffman;
mod matcher;
mod token;

#[cfg(test)]
mod tests;

use matcher::Deflater;

/// Parameters of one of Go's lazy-matching compression levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Level {
    /// Go's level number (for the gzip header's XFL byte).
    number: u8,
    /// A held match this long is emitted without looking for a longer one at the next byte.
    lazy: usize,
    /// A match this long ends the search.
    nice: usize,
    /// Candidates looked at per search.
    chain: usize,
}

impl Level {
    /// Go's `DefaultCompression` (level 6), which `gzip.NewWriter` uses.
    pub(crate) const DEFAULT: Level = Level {
        number: 6,
        lazy: 16,
        nice: 128,
        chain: 128,
    };

    /// Go's level `number`, for 4 to 9. (Go's table also has a "good" length that quarters
    /// the chain; for these levels it never applies, as each search starts from length 3.)
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn go(number: u8) -> Option<Level> {
        let (lazy, nice, chain) = match number {
            4 => (4, 16, 16),
            5 => (16, 32, 32),
            6 => (16, 128, 128),
            7 => (32, 128, 256),
            8 => (128, 258, 1024),
            9 => (258, 258, 4096),
            _ => return None,
        };
        Some(Level {
            number,
            lazy,
            nice,
            chain,
        })
    }
}

/// A gzip encoder whose output is byte-identical to Go's `compress/gzip` (no name, no
/// comment, mtime 0, OS 255 "unknown"). Keeps its tables (about 650 KiB) between inputs.
#[derive(Debug)]
pub(crate) struct GoGzip {
    level: Level,
    deflater: Deflater,
}

impl GoGzip {
    /// An encoder at `level`.
    pub(crate) fn new(level: Level) -> Self {
        GoGzip {
            level,
            deflater: Deflater::new(),
        }
    }

    /// Appends the gzip stream of `data` to `out`.
    pub(crate) fn compress(&mut self, data: &[u8], out: &mut Vec<u8>) {
        let xfl = match self.level.number {
            9 => 2,
            1 => 4,
            _ => 0,
        };
        out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255]);
        self.deflater.deflate(data, &self.level, out);
        out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    }
}
