//! The compression codecs: what Hadoop's `CompressionCodec`s write for one value (record
//! compression) or one block buffer (block compression), each a complete stream.
//!
//! Crates, and why: flate2 for zlib and gzip (with the `zlib` feature it runs on the zlib C
//! library, as Java's `Deflater` does, so the bytes are Java's); bzip2 (its default backend
//! is a Rust port of libbzip2, whose output equals Hadoop's `CBZip2OutputStream`'s); snap
//! and lz4_flex for the raw snappy and LZ4 blocks (pure Rust, well kept), and with the
//! `lz4-c` feature the LZ4 C library for compressing, whose bytes are lz4-java's; snap's
//! compressed bytes may differ from the C++ library behind snappy-java (see the module
//! documentation). The block framing of `BlockCompressorStream` around them is Hadoop's and
//! no crate has it, so it is written here. Each codec is behind its crate feature.

// Without every codec, `Engine`'s methods end in the arm that refuses the codec: what they
// would do with their arguments is compiled out.
#![cfg_attr(
    not(all(
        feature = "deflate",
        feature = "bzip2",
        feature = "snappy",
        feature = "lz4"
    )),
    allow(unreachable_code, unused_variables, clippy::ptr_arg)
)]

#[cfg(any(feature = "deflate", feature = "bzip2"))]
use std::io::Read;
#[cfg(feature = "bzip2")]
use std::io::Write;

#[cfg(feature = "deflate")]
use flate2::{Compress, Decompress, FlushCompress, FlushDecompress, Status};

use crate::by_name::from_name;
use crate::error::{Error, ErrorKind, Result};
use crate::framing::unavailable;

/// A compression codec by its Hadoop class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Codec {
    /// `org.apache.hadoop.io.compress.DefaultCodec`: a zlib stream (level 6). Files naming
    /// `DeflateCodec`, the same format, read as this.
    #[default]
    Deflate,
    /// `org.apache.hadoop.io.compress.GzipCodec`: a gzip member.
    Gzip,
    /// `org.apache.hadoop.io.compress.BZip2Codec`: a bzip2 stream (block size 900k).
    BZip2,
    /// `org.apache.hadoop.io.compress.SnappyCodec`: raw snappy in Hadoop's block framing.
    Snappy,
    /// `org.apache.hadoop.io.compress.Lz4Codec`: raw LZ4 blocks in Hadoop's block framing.
    Lz4,
}

impl Codec {
    /// Every codec, in the order of [`Codec::name`]'s documentation.
    pub const ALL: &'static [Codec] = &[
        Codec::Deflate,
        Codec::Gzip,
        Codec::BZip2,
        Codec::Snappy,
        Codec::Lz4,
    ];

    /// The Java class named in headers.
    pub fn class_name(self) -> &'static str {
        match self {
            Codec::Deflate => "org.apache.hadoop.io.compress.DefaultCodec",
            Codec::Gzip => "org.apache.hadoop.io.compress.GzipCodec",
            Codec::BZip2 => "org.apache.hadoop.io.compress.BZip2Codec",
            Codec::Snappy => "org.apache.hadoop.io.compress.SnappyCodec",
            Codec::Lz4 => "org.apache.hadoop.io.compress.Lz4Codec",
        }
    }

    /// The codec of a Java class, if supported.
    pub fn from_class_name(class: &str) -> Option<Codec> {
        if class == "org.apache.hadoop.io.compress.DeflateCodec" {
            return Some(Codec::Deflate);
        }
        Codec::ALL.iter().copied().find(|c| c.class_name() == class)
    }

    /// The command-line name: `deflate`, `gzip`, `bzip2`, `snappy` or `lz4`.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Deflate => "deflate",
            Codec::Gzip => "gzip",
            Codec::BZip2 => "bzip2",
            Codec::Snappy => "snappy",
            Codec::Lz4 => "lz4",
        }
    }

    /// The crate feature this codec needs: `deflate`, `bzip2`, `snappy` or `lz4`.
    pub fn feature(self) -> &'static str {
        match self {
            Codec::Deflate | Codec::Gzip => "deflate",
            Codec::BZip2 => "bzip2",
            Codec::Snappy => "snappy",
            Codec::Lz4 => "lz4",
        }
    }

    /// Whether this build reads and writes the codec (its [`Codec::feature`] is on).
    pub fn is_available(self) -> bool {
        match self {
            Codec::Deflate | Codec::Gzip => cfg!(feature = "deflate"),
            Codec::BZip2 => cfg!(feature = "bzip2"),
            Codec::Snappy => cfg!(feature = "snappy"),
            Codec::Lz4 => cfg!(feature = "lz4"),
        }
    }

    /// The error for a codec this build lacks.
    fn unavailable(self) -> Error {
        unavailable(
            &format!("the SequenceFile codec {}", self.name()),
            self.feature(),
        )
    }

    /// Largest input `BlockCompressorStream` compresses as one chunk: the buffer size
    /// (`io.compression.codec.{snappy,lz4}.buffersize`, 256 KiB) less the codec's overhead.
    #[cfg(any(feature = "snappy", feature = "lz4"))]
    fn block_input(self) -> Option<usize> {
        const BUFFER: usize = 256 * 1024;
        match self {
            Codec::Snappy => Some(BUFFER - (BUFFER / 6 + 32)),
            Codec::Lz4 => Some(BUFFER - (BUFFER / 255 + 16)),
            _ => None,
        }
    }
}

from_name!(Codec, "SequenceFile codec");

/// Hadoop's zlib level (`ZlibCompressor.CompressionLevel.DEFAULT_COMPRESSION`, zlib's 6).
#[cfg(feature = "deflate")]
const LEVEL: u32 = 6;
/// The header Hadoop 3's `BuiltInGzipCompressor` writes (no name, time 0, OS 0).
#[cfg(feature = "deflate")]
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0];

/// A codec with its reusable state.
pub(crate) struct Engine {
    codec: Codec,
    #[cfg(feature = "deflate")]
    deflate: Option<Compress>,
    #[cfg(feature = "deflate")]
    inflate: Option<Decompress>,
    #[cfg(feature = "snappy")]
    snappy_enc: snap::raw::Encoder,
    #[cfg(feature = "snappy")]
    snappy_dec: snap::raw::Decoder,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("codec", &self.codec)
            .finish()
    }
}

impl Engine {
    pub(crate) fn new(codec: Codec) -> Self {
        Engine {
            codec,
            #[cfg(feature = "deflate")]
            deflate: None,
            #[cfg(feature = "deflate")]
            inflate: None,
            #[cfg(feature = "snappy")]
            snappy_enc: snap::raw::Encoder::new(),
            #[cfg(feature = "snappy")]
            snappy_dec: snap::raw::Decoder::new(),
        }
    }

    /// An error if this build lacks the codec.
    pub(crate) fn check(&self) -> Result<()> {
        if self.codec.is_available() {
            Ok(())
        } else {
            Err(self.codec.unavailable())
        }
    }

    /// Appends the complete compressed stream of `raw` to `out`; an error only for a codec
    /// this build lacks ([`Engine::check`]).
    pub(crate) fn compress(&mut self, raw: &[u8], out: &mut Vec<u8>) -> Result<()> {
        match self.codec {
            #[cfg(feature = "deflate")]
            Codec::Deflate => deflate(self.deflater(true), raw, out),
            #[cfg(feature = "deflate")]
            Codec::Gzip => {
                out.extend_from_slice(&GZIP_HEADER);
                deflate(self.deflater(false), raw, out);
                out.extend_from_slice(&crc32fast::hash(raw).to_le_bytes());
                out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
            }
            #[cfg(feature = "bzip2")]
            Codec::BZip2 => {
                let mut enc = bzip2::write::BzEncoder::new(out, bzip2::Compression::best());
                enc.write_all(raw)
                    .and_then(|()| enc.try_finish())
                    .expect("compressing into a Vec cannot fail");
            }
            #[cfg(feature = "snappy")]
            Codec::Snappy => {
                let enc = &mut self.snappy_enc;
                block_compress(Codec::Snappy, raw, out, |chunk, out| {
                    let at = out.len();
                    out.resize(at + snap::raw::max_compress_len(chunk.len()), 0);
                    let n = enc
                        .compress(chunk, &mut out[at..])
                        .expect("a chunk under 4 GiB compresses");
                    out.truncate(at + n);
                })
            }
            #[cfg(feature = "lz4")]
            Codec::Lz4 => block_compress(Codec::Lz4, raw, out, lz4_chunk),
            #[allow(unreachable_patterns)]
            codec => return Err(codec.unavailable()),
        }
        Ok(())
    }

    /// Decompresses one stream into `out` (cleared first), producing at most `limit` bytes.
    /// Bytes after the end of the stream are ignored, as Hadoop's streams ignore them.
    pub(crate) fn decompress(
        &mut self,
        stored: &[u8],
        limit: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        out.clear();
        match self.codec {
            #[cfg(feature = "deflate")]
            Codec::Deflate => {
                let inflate = self.inflate.get_or_insert_with(|| Decompress::new(true));
                inflate.reset(true);
                inflate_into(inflate, stored, limit, out)
            }
            #[cfg(feature = "deflate")]
            Codec::Gzip => read_limited(flate2::bufread::MultiGzDecoder::new(stored), limit, out),
            #[cfg(feature = "bzip2")]
            Codec::BZip2 => read_limited(bzip2::bufread::MultiBzDecoder::new(stored), limit, out),
            #[cfg(feature = "snappy")]
            Codec::Snappy => {
                let dec = &mut self.snappy_dec;
                block_decompress(stored, limit, out, |chunk, out, room| {
                    let n = snap::raw::decompress_len(chunk).map_err(|e| e.to_string())?;
                    // Snappy expands at most 64/3 times (a 3-byte copy of 64 bytes).
                    if n > room || n as u64 > (chunk.len() as u64 * 64).div_ceil(3) {
                        return Err(format!(
                            "a snappy chunk claims {n} bytes, more than its block holds"
                        ));
                    }
                    let at = out.len();
                    out.resize(at + n, 0);
                    let got = dec
                        .decompress(chunk, &mut out[at..])
                        .map_err(|e| e.to_string())?;
                    out.truncate(at + got);
                    Ok(())
                })
            }
            #[cfg(feature = "lz4")]
            Codec::Lz4 => block_decompress(stored, limit, out, |chunk, out, room| {
                // LZ4 expands at most 255 times (plus the last literals).
                let cap = room.min(chunk.len().saturating_mul(255).saturating_add(16));
                let at = out.len();
                out.resize(at + cap, 0);
                let got = lz4_flex::block::decompress_into(chunk, &mut out[at..])
                    .map_err(|e| format!("bad LZ4 chunk: {e}"))?;
                out.truncate(at + got);
                Ok(())
            }),
            #[allow(unreachable_patterns)]
            codec => Err(codec.unavailable().to_string()),
        }
    }

    #[cfg(feature = "deflate")]
    fn deflater(&mut self, zlib: bool) -> &mut Compress {
        self.deflate
            .get_or_insert_with(|| Compress::new(flate2::Compression::new(LEVEL), zlib))
    }
}

/// One LZ4 block: with the `lz4-c` feature by the LZ4 C library's default compressor (what
/// lz4-java's `fastCompressor()` runs natively, so the bytes are Hadoop 3's), else by
/// lz4_flex.
#[cfg(feature = "lz4")]
fn lz4_chunk(chunk: &[u8], out: &mut Vec<u8>) {
    let at = out.len();
    #[cfg(feature = "lz4-c")]
    {
        let bound = lz4::block::compress_bound(chunk.len()).expect("a chunk under 2 GiB");
        out.resize(at + bound, 0);
        let n = lz4::block::compress_to_buffer(
            chunk,
            Some(lz4::block::CompressionMode::DEFAULT),
            false,
            &mut out[at..],
        )
        .expect("the output has the bound's size");
        out.truncate(at + n);
    }
    #[cfg(not(feature = "lz4-c"))]
    {
        out.resize(
            at + lz4_flex::block::get_maximum_output_size(chunk.len()),
            0,
        );
        let n = lz4_flex::block::compress_into(chunk, &mut out[at..])
            .expect("the output has the maximum size");
        out.truncate(at + n);
    }
}

/// Deflates all of `raw` to the end of its stream, appending to `out`.
#[cfg(feature = "deflate")]
fn deflate(c: &mut Compress, raw: &[u8], out: &mut Vec<u8>) {
    c.reset();
    loop {
        out.reserve(raw.len() / 4 + 64);
        let done = c.total_in() as usize;
        let status = c
            .compress_vec(&raw[done..], out, FlushCompress::Finish)
            .expect("deflate cannot fail on valid input");
        if status == Status::StreamEnd {
            return;
        }
    }
}

/// Inflates one zlib stream, refusing to produce more than `limit` bytes.
#[cfg(feature = "deflate")]
fn inflate_into(
    d: &mut Decompress,
    stored: &[u8],
    limit: u64,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    loop {
        let done = d.total_in() as usize;
        let room = (limit + 1).saturating_sub(out.len() as u64);
        if room == 0 {
            return Err(too_large(limit));
        }
        let grow = (stored.len().max(1024) * 4).min(usize::try_from(room).unwrap_or(usize::MAX));
        out.reserve(grow);
        let before = out.len();
        let status = d
            .decompress_vec(&stored[done..], out, FlushDecompress::None)
            .map_err(|e| e.to_string())?;
        if out.len() as u64 > limit {
            return Err(too_large(limit));
        }
        match status {
            Status::StreamEnd => return Ok(()),
            _ if d.total_in() as usize == stored.len() && out.len() == before => {
                return Err("the compressed data ends before its stream does".to_owned())
            }
            _ => {}
        }
    }
}

#[cfg(any(feature = "deflate", feature = "bzip2"))]
fn read_limited(reader: impl Read, limit: u64, out: &mut Vec<u8>) -> Result<(), String> {
    reader
        .take(limit.saturating_add(1))
        .read_to_end(out)
        .map_err(|e| e.to_string())?;
    if out.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(())
}

#[cfg(any(
    feature = "deflate",
    feature = "bzip2",
    feature = "snappy",
    feature = "lz4"
))]
fn too_large(limit: u64) -> String {
    format!("{TOO_LARGE}{limit} bytes")
}

/// How [`too_large`]'s message starts.
const TOO_LARGE: &str = "it decompresses to more than the limit of ";

/// The kind of error an [`Engine::decompress`] message stands for: [`ErrorKind::Limit`] for
/// output over the limit, [`ErrorKind::Syntax`] (damaged data) for the rest.
pub(crate) fn decompress_error_kind(message: &str) -> ErrorKind {
    if message.starts_with(TOO_LARGE) {
        ErrorKind::Limit
    } else {
        ErrorKind::Syntax
    }
}

#[cfg(any(feature = "snappy", feature = "lz4"))]
/// `BlockCompressorStream` given `raw` in one write, then finished: the raw length, then
/// each chunk of at most the codec's input size as a compressed length and bytes; a raw
/// length split into several chunks is followed by a zero length, as Hadoop's `finish`
/// writes one after the chunks of a large write.
fn block_compress(
    codec: Codec,
    raw: &[u8],
    out: &mut Vec<u8>,
    mut chunk: impl FnMut(&[u8], &mut Vec<u8>),
) {
    let max = codec.block_input().expect("a block codec");
    out.extend_from_slice(&(raw.len() as u32).to_be_bytes());
    if raw.is_empty() {
        return;
    }
    for piece in raw.chunks(max) {
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        chunk(piece, out);
        let n = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&n.to_be_bytes());
    }
    if raw.len() > max {
        out.extend_from_slice(&[0; 4]);
    }
}

#[cfg(any(feature = "snappy", feature = "lz4"))]
/// `BlockDecompressorStream`: blocks of a raw length and compressed chunks until a zero
/// raw length or the end of the input. `chunk` appends one chunk's bytes to `out`, at most
/// the `usize` it is given.
fn block_decompress(
    stored: &[u8],
    limit: u64,
    out: &mut Vec<u8>,
    mut chunk: impl FnMut(&[u8], &mut Vec<u8>, usize) -> Result<(), String>,
) -> Result<(), String> {
    let mut p = 0usize;
    let int = |p: usize| -> Option<i32> {
        let b = stored.get(p..p + 4)?;
        Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    while p < stored.len() {
        let raw = int(p).ok_or("the data ends inside a block length")?;
        p += 4;
        if raw == 0 {
            break;
        }
        if raw < 0 {
            return Err(format!("negative block length {raw}"));
        }
        let target = out.len() as u64 + raw as u64;
        if target > limit {
            return Err(too_large(limit));
        }
        let target = target as usize;
        while out.len() < target {
            let len = int(p).ok_or("the data ends inside a block")?;
            p += 4;
            if len <= 0 || len as usize > stored.len() - p {
                return Err(format!("bad chunk length {len}"));
            }
            chunk(&stored[p..p + len as usize], out, target - out.len())?;
            p += len as usize;
        }
        if out.len() != target {
            return Err("a block's chunks hold more than its length".to_owned());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(codec: Codec, raw: &[u8]) -> Vec<u8> {
        let mut e = Engine::new(codec);
        let mut stored = Vec::new();
        e.compress(raw, &mut stored).unwrap();
        let mut back = Vec::new();
        e.decompress(&stored, raw.len() as u64, &mut back)
            .unwrap_or_else(|m| panic!("{codec:?}: {m}"));
        assert_eq!(back, raw, "{codec:?}");
        stored
    }

    #[test]
    fn every_codec_round_trips_empty_small_and_large_inputs() {
        let large: Vec<u8> = (0..600_000u32)
            .map(|i| ((i % 251) ^ (i / 7)) as u8)
            .collect();
        for &codec in Codec::ALL {
            round_trip(codec, b"");
            round_trip(codec, b"hello, hello, hello");
            round_trip(codec, &large);
        }
    }

    #[test]
    fn hadoops_empty_streams() {
        assert_eq!(round_trip(Codec::Snappy, b""), [0, 0, 0, 0]);
        assert_eq!(round_trip(Codec::Lz4, b""), [0, 0, 0, 0]);
        assert_eq!(
            round_trip(Codec::Deflate, b""),
            [0x78, 0x9c, 3, 0, 0, 0, 0, 1]
        );
    }

    #[test]
    fn large_snappy_input_is_split_as_hadoop_splits_one_write() {
        let raw = vec![7u8; 300_000];
        let stored = round_trip(Codec::Snappy, &raw);
        assert_eq!(&stored[..4], &300_000u32.to_be_bytes());
        assert_eq!(&stored[stored.len() - 4..], &[0; 4]);
    }

    #[test]
    fn limits_and_damage_are_errors() {
        let raw = vec![0u8; 100_000];
        for &codec in Codec::ALL {
            let mut e = Engine::new(codec);
            let mut stored = Vec::new();
            e.compress(&raw, &mut stored).unwrap();
            let mut out = Vec::new();
            let m = e.decompress(&stored, 1000, &mut out).unwrap_err();
            assert_eq!(
                decompress_error_kind(&m),
                ErrorKind::Limit,
                "{codec:?}: {m}"
            );
            stored.truncate(stored.len() / 2);
            let m = e.decompress(&stored, 1 << 20, &mut out).unwrap_err();
            assert_eq!(
                decompress_error_kind(&m),
                ErrorKind::Syntax,
                "{codec:?}: {m}"
            );
        }
    }

    #[test]
    fn names_and_classes() {
        for &codec in Codec::ALL {
            assert_eq!(codec.name().parse::<Codec>().unwrap(), codec);
            assert_eq!(Codec::from_class_name(codec.class_name()), Some(codec));
        }
        assert!("zstd".parse::<Codec>().is_err());
        assert_eq!(
            Codec::from_class_name("org.apache.hadoop.io.compress.DeflateCodec"),
            Some(Codec::Deflate)
        );
    }
}
