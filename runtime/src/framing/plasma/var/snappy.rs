//! Raw snappy for plasma-var chunks, present only with the crate's `snappy` feature: without
//! it a snappy chunk (read or written) is an `Unsupported` error naming the feature.

use crate::error::Result;
#[cfg(feature = "snappy")]
use crate::error::{Error, ErrorKind};

/// A raw snappy encoder and decoder, each keeping its tables between chunks.
#[cfg(feature = "snappy")]
#[derive(Debug)]
pub(super) struct Snappy {
    encoder: snap::raw::Encoder,
    decoder: snap::raw::Decoder,
}

/// Nothing: this build has no snappy, so no value of this type exists.
#[cfg(not(feature = "snappy"))]
#[derive(Debug)]
pub(super) enum Snappy {}

#[cfg(feature = "snappy")]
impl Snappy {
    pub(super) fn new() -> Result<Self> {
        Ok(Snappy {
            encoder: snap::raw::Encoder::new(),
            decoder: snap::raw::Decoder::new(),
        })
    }

    /// The most bytes compressing `n` bytes can take.
    pub(super) fn max_compress_len(&self, n: usize) -> usize {
        snap::raw::max_compress_len(n)
    }

    /// Compresses `input` into `out` (at least [`Snappy::max_compress_len`] long); the
    /// compressed length.
    pub(super) fn compress(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize> {
        self.encoder
            .compress(input, out)
            .map_err(|e| Error::new(ErrorKind::Io, format!("snappy: {e}")))
    }

    /// The length `stored` unpacks to, as its preamble says.
    pub(super) fn decompress_len(&self, stored: &[u8]) -> std::result::Result<usize, String> {
        snap::raw::decompress_len(stored).map_err(|e| e.to_string())
    }

    /// Unpacks `stored` into `out` (exactly [`Snappy::decompress_len`] long).
    pub(super) fn decompress(
        &mut self,
        stored: &[u8],
        out: &mut [u8],
    ) -> std::result::Result<usize, String> {
        self.decoder
            .decompress(stored, out)
            .map_err(|e| e.to_string())
    }
}

#[cfg(not(feature = "snappy"))]
impl Snappy {
    pub(super) fn new() -> Result<Self> {
        Err(crate::framing::unavailable(
            "snappy for plasma-var chunks",
            "snappy",
        ))
    }

    pub(super) fn max_compress_len(&self, _: usize) -> usize {
        match *self {}
    }

    pub(super) fn compress(&mut self, _: &[u8], _: &mut [u8]) -> Result<usize> {
        match *self {}
    }

    pub(super) fn decompress_len(&self, _: &[u8]) -> std::result::Result<usize, String> {
        match *self {}
    }

    pub(super) fn decompress(
        &mut self,
        _: &[u8],
        _: &mut [u8],
    ) -> std::result::Result<usize, String> {
        match *self {}
    }
}
