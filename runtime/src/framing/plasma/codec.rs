//! tokio-util codecs for the plasma-text and plasma-fixed formats (feature `tokio`).
//!
//! The var-size format has no codec, on purpose. It exists for split reading: a file on
//! seekable storage cut into bigblocks, each reader seeking to its own chunk slots
//! ([`VarReader::split`](super::VarReader::split)); a stream read front to back from a
//! socket is not what it is for, and Plasma itself has no such reader. A decoder would also
//! have to be a second, push-style implementation of every consistency check of the
//! pull-style [`VarReader`](super::VarReader) (records running through any number of
//! chunks, first-record offsets, the final flag, recovery), which is how two readers come
//! to disagree. An async program reads a var-size file with `VarReader` on a blocking
//! thread (`tokio::task::spawn_blocking` over a `std::fs::File`), and writes one the same
//! way with [`VarWriter`](super::VarWriter).

use bytes::{BufMut, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::fixed::check_length;
use super::text::{check_payload, LineScanner, Scan, TextOptions};
use crate::error::{Error, ErrorKind, Position, Result};

/// Decodes LF-terminated records (without their LF) and encodes payloads as such, with
/// the same scanner and limits as [`super::TextReader`].
///
/// ```
/// use bytes::BytesMut;
/// use hadoop_record::framing::plasma::TextCodec;
/// use tokio_util::codec::Decoder;
/// let mut codec = TextCodec::default();
/// let mut buf = BytesMut::from(&b"one\ntw"[..]);
/// assert_eq!(codec.decode(&mut buf).unwrap().unwrap(), &b"one"[..]);
/// assert!(codec.decode(&mut buf).unwrap().is_none());
/// buf.extend_from_slice(b"o\n");
/// assert_eq!(codec.decode(&mut buf).unwrap().unwrap(), &b"two"[..]);
/// ```
#[derive(Debug, Clone)]
pub struct TextCodec {
    options: TextOptions,
    scanner: LineScanner,
    /// Bytes at the front of the buffer already scanned for LF.
    scanned: usize,
}

impl TextCodec {
    /// A codec with these options.
    pub fn new(options: TextOptions) -> Self {
        TextCodec {
            scanner: LineScanner::new(&options, 0),
            options,
            scanned: 0,
        }
    }
}

impl Default for TextCodec {
    fn default() -> Self {
        Self::new(TextOptions::default())
    }
}

impl Decoder for TextCodec {
    type Item = Bytes;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        match self.scanner.scan(&src[self.scanned..])? {
            Scan::Line(i) => {
                let mut line = src.split_to(self.scanned + i + 1);
                line.truncate(line.len() - 1);
                self.scanned = 0;
                Ok(Some(line.freeze()))
            }
            Scan::Partial => {
                self.scanned = src.len();
                Ok(None)
            }
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        if let Some(line) = self.decode(src)? {
            return Ok(Some(line));
        }
        if self.scanner.at_eof(self.options.allow_unterminated())? {
            self.scanned = 0;
            return Ok(Some(src.split().freeze()));
        }
        Ok(None)
    }
}

impl Encoder<&[u8]> for TextCodec {
    type Error = Error;

    fn encode(&mut self, payload: &[u8], dst: &mut BytesMut) -> Result<()> {
        check_payload(payload)?;
        dst.reserve(payload.len() + 1);
        dst.put_slice(payload);
        dst.put_u8(b'\n');
        Ok(())
    }
}

/// Decodes and encodes records of exactly `size` bytes.
#[derive(Debug, Clone)]
pub struct FixedCodec {
    size: usize,
    offset: u64,
}

impl FixedCodec {
    /// A codec for `size`-byte records (`size` ≥ 1).
    pub fn new(size: usize) -> Result<Self> {
        if size == 0 {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "plasma-fixed record size must be at least 1 byte",
            ));
        }
        Ok(FixedCodec { size, offset: 0 })
    }
}

impl Decoder for FixedCodec {
    type Item = Bytes;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        if src.len() < self.size {
            return Ok(None);
        }
        self.offset += self.size as u64;
        Ok(Some(src.split_to(self.size).freeze()))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>> {
        if let Some(record) = self.decode(src)? {
            return Ok(Some(record));
        }
        if src.is_empty() {
            return Ok(None);
        }
        let have = src.len();
        src.clear();
        Err(Error::eof(format!(
            "input ends inside a record ({have} of {} bytes)",
            self.size
        ))
        .at(Position::Byte(self.offset)))
    }
}

impl Encoder<&[u8]> for FixedCodec {
    type Error = Error;

    fn encode(&mut self, payload: &[u8], dst: &mut BytesMut) -> Result<()> {
        check_length(payload, self.size, "stream")?;
        dst.extend_from_slice(payload);
        Ok(())
    }
}
