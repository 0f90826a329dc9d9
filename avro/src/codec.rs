//! The block codecs of Avro's container files, by the names the files carry (`avro.codec`).

use std::fmt;
use std::io::{Read, Write};
use std::str::FromStr;

/// How the blocks of an Avro container file are compressed: Avro's codecs, by the names
/// Avro gives them (`null deflate snappy zstandard bzip2 xz`). The default is
/// [`Deflate`](AvroCodec::Deflate), as Avro's own tools write.
///
/// ```
/// use hadoop_record_avro::AvroCodec;
/// assert_eq!("zstandard".parse::<AvroCodec>().unwrap(), AvroCodec::Zstandard);
/// assert_eq!(AvroCodec::default().name(), "deflate");
/// assert!("gzip".parse::<AvroCodec>().unwrap_err().contains("null, deflate"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AvroCodec {
    /// Blocks as they are.
    Null,
    /// Raw deflate (RFC 1951), no zlib header.
    #[default]
    Deflate,
    /// Raw Snappy, each block followed by the big-endian CRC-32 of its uncompressed bytes.
    Snappy,
    /// A Zstandard frame.
    Zstandard,
    /// A bzip2 stream.
    Bzip2,
    /// An xz stream.
    Xz,
}

impl AvroCodec {
    /// Every codec, in the order Avro's specification lists them.
    pub const ALL: [AvroCodec; 6] = [
        AvroCodec::Null,
        AvroCodec::Deflate,
        AvroCodec::Snappy,
        AvroCodec::Zstandard,
        AvroCodec::Bzip2,
        AvroCodec::Xz,
    ];

    /// The codec's name in a file's `avro.codec`.
    pub fn name(self) -> &'static str {
        match self {
            AvroCodec::Null => "null",
            AvroCodec::Deflate => "deflate",
            AvroCodec::Snappy => "snappy",
            AvroCodec::Zstandard => "zstandard",
            AvroCodec::Bzip2 => "bzip2",
            AvroCodec::Xz => "xz",
        }
    }

    /// The cargo feature of this crate that builds the codec in.
    fn feature(self) -> &'static str {
        match self {
            AvroCodec::Null => "",
            AvroCodec::Deflate => "deflate",
            AvroCodec::Snappy => "snappy",
            AvroCodec::Zstandard => "zstandard",
            AvroCodec::Bzip2 => "bzip2",
            AvroCodec::Xz => "xz",
        }
    }

    /// An error when this build lacks the codec.
    pub(crate) fn check_built(self) -> Result<(), String> {
        let built = match self {
            AvroCodec::Null => true,
            AvroCodec::Deflate => cfg!(feature = "deflate"),
            AvroCodec::Snappy => cfg!(feature = "snappy"),
            AvroCodec::Zstandard => cfg!(feature = "zstandard"),
            AvroCodec::Bzip2 => cfg!(feature = "bzip2"),
            AvroCodec::Xz => cfg!(feature = "xz"),
        };
        if built {
            Ok(())
        } else {
            Err(format!(
                "the Avro codec `{}` is not built in (build hadoop-record-avro with its feature \
                 `{}`)",
                self.name(),
                self.feature()
            ))
        }
    }

    /// `data` compressed.
    pub(crate) fn compress(self, data: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            AvroCodec::Null => Ok(data.to_vec()),
            #[cfg(feature = "libdeflate")]
            AvroCodec::Deflate => deflate_whole(data),
            #[cfg(all(feature = "deflate", not(feature = "libdeflate")))]
            AvroCodec::Deflate => deflate_stream(data),
            #[cfg(feature = "snappy")]
            AvroCodec::Snappy => {
                let mut out = snap::raw::Encoder::new()
                    .compress_vec(data)
                    .map_err(std::io::Error::other)?;
                out.extend_from_slice(&crc32fast::hash(data).to_be_bytes());
                Ok(out)
            }
            #[cfg(feature = "zstandard")]
            AvroCodec::Zstandard => zstd::bulk::compress(data, 0),
            #[cfg(feature = "bzip2")]
            AvroCodec::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
                e.write_all(data)?;
                e.finish()
            }
            #[cfg(feature = "xz")]
            AvroCodec::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
                e.write_all(data)?;
                e.finish()
            }
            #[allow(unreachable_patterns)]
            other => Err(std::io::Error::other(other.check_built().unwrap_err())),
        }
    }

    /// `data` decompressed, refused (with a message) when it would be longer than `limit`
    /// bytes: output grows as the compressed bytes produce it, never by a length read.
    pub(crate) fn decompress(self, data: Vec<u8>, limit: usize) -> Result<Vec<u8>, String> {
        let capped = |read: &mut dyn Read| -> Result<Vec<u8>, String> {
            let mut out = Vec::new();
            read.take(limit as u64 + 1)
                .read_to_end(&mut out)
                .map_err(|e| format!("{} data does not decompress: {e}", self.name()))?;
            if out.len() > limit {
                return Err(too_long(limit));
            }
            Ok(out)
        };
        match self {
            AvroCodec::Null => Ok(data),
            #[cfg(feature = "libdeflate")]
            AvroCodec::Deflate => inflate_whole(&data, limit),
            #[cfg(all(feature = "deflate", not(feature = "libdeflate")))]
            AvroCodec::Deflate => capped(&mut flate2::read::DeflateDecoder::new(&data[..])),
            #[cfg(feature = "snappy")]
            AvroCodec::Snappy => {
                let Some(split) = data.len().checked_sub(4) else {
                    return Err(format!(
                        "a snappy block is at least its 4-byte checksum long, this one has {} \
                         bytes",
                        data.len()
                    ));
                };
                let (body, crc) = data.split_at(split);
                let len = snap::raw::decompress_len(body)
                    .map_err(|e| format!("snappy data does not decompress: {e}"))?;
                if len > limit {
                    return Err(too_long(limit));
                }
                // snap allocates the length the data states before it decodes: refuse one
                // its bytes cannot hold (a snappy copy of 3 bytes gives at most 64).
                if len > body.len().saturating_mul(22) {
                    return Err(format!(
                        "snappy data states {len} bytes, more than its {} bytes can hold",
                        body.len()
                    ));
                }
                let out = snap::raw::Decoder::new()
                    .decompress_vec(body)
                    .map_err(|e| format!("snappy data does not decompress: {e}"))?;
                let want = u32::from_be_bytes(crc.try_into().expect("4 bytes"));
                let got = crc32fast::hash(&out);
                if got != want {
                    return Err(format!(
                        "snappy block checksum mismatch (stored {want:08x}, computed {got:08x})"
                    ));
                }
                Ok(out)
            }
            #[cfg(feature = "zstandard")]
            AvroCodec::Zstandard => capped(
                &mut zstd::stream::read::Decoder::new(&data[..])
                    .map_err(|e| format!("zstandard data does not decompress: {e}"))?,
            ),
            #[cfg(feature = "bzip2")]
            AvroCodec::Bzip2 => capped(&mut bzip2::read::BzDecoder::new(&data[..])),
            #[cfg(feature = "xz")]
            AvroCodec::Xz => capped(&mut liblzma::read::XzDecoder::new(&data[..])),
            #[allow(unreachable_patterns)]
            other => Err(other.check_built().unwrap_err()),
        }
    }
}

/// Deflate at zlib's default level, 6, as Java's `Deflater` and Avro's tools write.
const DEFLATE_LEVEL: u32 = 6;

/// `data` as raw deflate by libdeflate, which compresses a whole buffer (a block is one) at
/// the same level about three times as fast as zlib, the bytes a few per mille longer.
#[cfg(feature = "libdeflate")]
fn deflate_whole(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let level = libdeflater::CompressionLvl::new(DEFLATE_LEVEL as i32)
        .map_err(|e| std::io::Error::other(format!("libdeflate level: {e:?}")))?;
    let mut compressor = libdeflater::Compressor::new(level);
    let mut out = vec![0; compressor.deflate_compress_bound(data.len())];
    let n = compressor
        .deflate_compress(data, &mut out)
        .map_err(|e| std::io::Error::other(format!("libdeflate: {e}")))?;
    out.truncate(n);
    Ok(out)
}

/// Raw deflate `data` inflated by libdeflate (about twice zlib's speed), refused when it
/// gives more than `limit` bytes. libdeflate inflates into a buffer of a size given: it
/// starts at four times the data and doubles only when the data fills it, so what is
/// allocated stays within twice what the data gives.
#[cfg(feature = "libdeflate")]
fn inflate_whole(data: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let most = limit.saturating_add(1);
    let mut room = data.len().saturating_mul(4).max(4096).min(most);
    let mut inflater = libdeflater::Decompressor::new();
    loop {
        let mut out = vec![0; room];
        match inflater.deflate_decompress(data, &mut out) {
            Ok(n) if n > limit => return Err(too_long(limit)),
            Ok(n) => {
                out.truncate(n);
                return Ok(out);
            }
            Err(libdeflater::DecompressionError::InsufficientSpace) if room < most => {
                room = room.saturating_mul(2).min(most);
            }
            Err(libdeflater::DecompressionError::InsufficientSpace) => return Err(too_long(limit)),
            Err(e) => return Err(format!("deflate data does not decompress: {e}")),
        }
    }
}

/// `data` as raw deflate by flate2 (zlib or miniz_oxide): a build without libdeflate.
#[cfg(feature = "deflate")]
#[cfg_attr(feature = "libdeflate", allow(dead_code))]
fn deflate_stream(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut e = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(data.len() / 2),
        flate2::Compression::new(DEFLATE_LEVEL),
    );
    e.write_all(data)?;
    e.finish()
}

fn too_long(limit: usize) -> String {
    format!(
        "the block decompresses to more than {limit} bytes, the most a block may hold \
         (AvroReader::with_max_block_bytes)"
    )
}

impl fmt::Display for AvroCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AvroCodec {
    type Err = String;

    /// A codec by its Avro name; an error listing the names otherwise.
    fn from_str(s: &str) -> Result<Self, String> {
        AvroCodec::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = AvroCodec::ALL.iter().map(|c| c.name()).collect();
                format!(
                    "unknown Avro codec `{s}`: Avro's codecs are {}",
                    names.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text that compresses, and bytes that do not.
    fn samples() -> Vec<Vec<u8>> {
        let text: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("https://example.com/{}/{i},", i % 37).into_bytes())
            .collect();
        // Multiplicative hashing's high bits: no run or repeat deflate can use.
        let noise = (0..70_000u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8)
            .collect();
        vec![Vec::new(), b"a".to_vec(), text, noise]
    }

    #[test]
    fn every_built_codec_gives_back_its_bytes() {
        for codec in AvroCodec::ALL {
            if codec.check_built().is_err() {
                continue;
            }
            for data in samples() {
                let packed = codec.compress(&data).unwrap();
                assert_eq!(
                    codec.decompress(packed, data.len()).unwrap(),
                    data,
                    "{codec}"
                );
            }
        }
    }

    #[cfg(feature = "deflate")]
    #[test]
    fn both_deflate_writers_are_read_back_and_compress() {
        for data in samples() {
            let stream = deflate_stream(&data).unwrap();
            let written = AvroCodec::Deflate.compress(&data).unwrap();
            for packed in [stream.clone(), written.clone()] {
                let out = AvroCodec::Deflate
                    .decompress(packed.clone(), data.len())
                    .unwrap();
                assert_eq!(out, data);
                let mut inflated = Vec::new();
                flate2::read::DeflateDecoder::new(&packed[..])
                    .read_to_end(&mut inflated)
                    .unwrap();
                assert_eq!(inflated, data);
            }
            if data.len() > 100_000 {
                // Text compresses by either, to within a few per cent of each other.
                assert!(written.len() * 4 < data.len(), "{}", written.len());
                assert!(written.len() * 100 < stream.len() * 105);
            }
        }
    }

    #[test]
    fn damaged_deflate_is_an_error() {
        let data = samples().swap_remove(2);
        let packed = AvroCodec::Deflate.compress(&data).unwrap();
        let e = AvroCodec::Deflate
            .decompress(packed[..packed.len() / 2].to_vec(), usize::MAX)
            .unwrap_err();
        assert!(e.contains("deflate data does not decompress"), "{e}");
        // A block that inflates to far more than four times its size, within the limit.
        let zeros = vec![0u8; 3_000_000];
        let packed = AvroCodec::Deflate.compress(&zeros).unwrap();
        assert!(packed.len() * 100 < zeros.len());
        assert_eq!(
            AvroCodec::Deflate.decompress(packed, 3_000_000).unwrap(),
            zeros
        );
    }

    #[test]
    fn a_block_longer_than_the_limit_is_refused() {
        let data = vec![7u8; 10_000];
        for codec in AvroCodec::ALL {
            if codec.check_built().is_err() || codec == AvroCodec::Null {
                continue;
            }
            let e = codec
                .decompress(codec.compress(&data).unwrap(), 9_999)
                .unwrap_err();
            assert!(e.contains("more than 9999 bytes"), "{codec}: {e}");
            let e = codec
                .decompress(codec.compress(b"ab").unwrap(), 1)
                .unwrap_err();
            assert!(e.contains("more than 1 bytes"), "{codec}: {e}");
        }
    }
}
