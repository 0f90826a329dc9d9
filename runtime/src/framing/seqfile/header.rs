//! The file header: `SEQ`, version, class names, compression flags, codec, metadata, sync.

use std::fmt;
use std::io::Read;

use super::source::Source;
use super::{Codec, Compression, SeqWriteOptions, MAGIC, SYNC_LEN, VERSION};
use crate::archive::binary::vint;
use crate::error::{excerpt, Error, ErrorKind, Position, Result};

/// A SequenceFile header as read or to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The format version (1 to 6; 6 is written).
    pub version: u8,
    /// The key class, e.g. `org.apache.hadoop.io.LongWritable`.
    pub key_class: String,
    /// The value class, e.g. a record class `links.Link`.
    pub value_class: String,
    /// Record or block compression, or none.
    pub compression: Compression,
    /// The codec class when compressed (`org.apache.hadoop.io.compress.DefaultCodec` for
    /// versions before 5, which do not name it).
    pub codec_class: Option<String>,
    /// Metadata pairs in file order (version 6).
    pub metadata: Vec<(Vec<u8>, Vec<u8>)>,
    /// The sync marker (absent in version 1).
    pub sync: Option<[u8; SYNC_LEN]>,
    /// Bytes of the header: the offset of the first record or block.
    pub len: u64,
}

impl Header {
    /// The header a writer with `options` writes (with `sync` as its marker).
    pub(crate) fn for_writer(options: &SeqWriteOptions, sync: [u8; SYNC_LEN]) -> Header {
        let mut metadata = options.metadata.clone();
        // A TreeMap<Text, Text>: sorted by bytes, the last value of a repeated key kept.
        metadata.reverse();
        metadata.sort_by(|a, b| a.0.cmp(&b.0));
        metadata.dedup_by(|a, b| a.0 == b.0);
        let compressed = options.compression != Compression::None;
        let mut header = Header {
            version: VERSION,
            key_class: options.key_class.clone(),
            value_class: options.value_class.clone(),
            compression: options.compression,
            codec_class: compressed.then(|| options.codec.class_name().to_owned()),
            metadata,
            sync: Some(sync),
            len: 0,
        };
        header.len = header.encode().len() as u64;
        header
    }

    /// Whether the values may be records of `class` (`module.Class`: the Java class `rcc -l
    /// java`, as Hadoop's own rcc, generates for a DDL type): the header names that class,
    /// or one of Hadoop's record classes (`org.apache.hadoop.record.Record`, which a writer
    /// names when it does not know the records' class), which names no type in particular.
    ///
    /// ```
    /// use hadoop_record::framing::seqfile::{SeqWriteOptions, SeqWriter};
    /// let file = SeqWriter::new(Vec::new(), SeqWriteOptions::new("links.Link")).into_inner()?;
    /// let header = hadoop_record::framing::seqfile::SeqReader::new(&file[..])?.header().clone();
    /// assert!(header.value_class_fits("links.Link"));
    /// assert!(!header.value_class_fits("links.Url"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_class_fits(&self, class: &str) -> bool {
        self.value_class == class || self.value_class.starts_with("org.apache.hadoop.record.")
    }

    /// What to warn of when the values are read as records of `class` (written as
    /// `written_as`, when given) and the header names another class
    /// ([`Header::value_class_fits`]): `a SequenceFile of a.B values, read as c.D: …`.
    pub fn value_class_warning(&self, class: &str, written_as: Option<&str>) -> Option<String> {
        if self.value_class_fits(class) || written_as.is_some_and(|w| self.value_class_fits(w)) {
            return None;
        }
        let named = excerpt(&self.value_class).unquoted().at_most(200);
        Some(format!(
            "a SequenceFile of {named} values, read as {}: its records may not be of that type \
             (give --type {named} if the DDL declares it)",
            written_as.unwrap_or(class)
        ))
    }

    /// The codec of a compressed file; an [`ErrorKind::Unsupported`] error naming a codec
    /// class this crate cannot read or write.
    pub fn codec(&self) -> Result<Option<Codec>> {
        match &self.codec_class {
            None => Ok(None),
            Some(class) => Codec::from_class_name(class).map(Some).ok_or_else(|| {
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "SequenceFile codec {} is not supported (supported: DefaultCodec, \
                         DeflateCodec, GzipCodec, BZip2Codec, SnappyCodec, Lz4Codec)",
                        excerpt(class).at_most(120)
                    ),
                )
            }),
        }
    }

    /// The header's bytes (version 6 layout).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        write_text(&mut out, self.key_class.as_bytes());
        write_text(&mut out, self.value_class.as_bytes());
        out.push(u8::from(self.compression != Compression::None));
        out.push(u8::from(self.compression == Compression::Block));
        if let Some(codec) = &self.codec_class {
            write_text(&mut out, codec.as_bytes());
        }
        out.extend_from_slice(&(self.metadata.len() as i32).to_be_bytes());
        for (k, v) in &self.metadata {
            write_text(&mut out, k);
            write_text(&mut out, v);
        }
        out.extend_from_slice(&self.sync.unwrap_or_default());
        out
    }

    /// Reads a header from the start of `src`; strings longer than `limit` are refused.
    pub(crate) fn read<R: Read>(src: &mut Source<R>, limit: u64) -> Result<Header> {
        let start = src.offset();
        let mut p = Parser {
            src,
            at: 0,
            start,
            limit,
        };
        let magic = p.bytes(4, "the SEQ magic and version")?;
        if magic[..3] != MAGIC {
            return Err(Error::syntax(format!(
                "not a SequenceFile: it starts with {:02x?}, not \"SEQ\"",
                &magic[..3]
            ))
            .at(Position::Byte(start)));
        }
        let version = magic[3];
        if version > VERSION {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("SequenceFile version {version} (versions up to {VERSION} are known)"),
            )
            .at(Position::Byte(start + 3)));
        }
        let (key_class, value_class) = if version < 4 {
            (p.utf8_class("key class")?, p.utf8_class("value class")?)
        } else {
            (p.string("key class")?, p.string("value class")?)
        };
        let compressed = version > 2 && p.flag("compressed flag")?;
        let block = version >= 4 && p.flag("block-compressed flag")?;
        let compression = match (compressed, block) {
            (false, _) => Compression::None,
            (true, false) => Compression::Record,
            (true, true) => Compression::Block,
        };
        let codec_class = match (compressed, version >= 5) {
            (false, _) => None,
            (true, true) => Some(p.string("codec class")?),
            (true, false) => Some(Codec::Deflate.class_name().to_owned()),
        };
        let mut metadata = Vec::new();
        if version >= 6 {
            let at = p.position();
            let count = i32::from_be_bytes(p.array("metadata count")?);
            if count < 0 {
                return Err(Error::syntax(format!("negative metadata count {count}")).at(at));
            }
            for _ in 0..count {
                let key = p.text("metadata key")?.to_vec();
                let value = p.text("metadata value")?.to_vec();
                metadata.push((key, value));
            }
        }
        let sync = if version > 1 {
            Some(p.array::<SYNC_LEN>("sync marker")?)
        } else {
            None
        };
        let len = p.at as u64;
        p.src.consume(p.at);
        Ok(Header {
            version,
            key_class,
            value_class,
            compression,
            codec_class,
            metadata,
            sync,
            len: start + len,
        })
    }
}

/// `Text.writeString`/`Text.write`: a vint length and the bytes.
fn write_text(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut buf = [0u8; vint::MAX_LEN];
    let n = vint::encode(bytes.len() as i64, &mut buf);
    out.extend_from_slice(&buf[..n]);
    out.extend_from_slice(bytes);
}

/// Peeks through the header without consuming it until it is whole.
struct Parser<'a, R> {
    src: &'a mut Source<R>,
    at: usize,
    start: u64,
    limit: u64,
}

impl<R: Read> Parser<'_, R> {
    fn position(&self) -> Position {
        Position::Byte(self.start + self.at as u64)
    }

    fn bytes(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        let have = self.src.fill(self.at + n)?.len();
        if have < self.at + n {
            return Err(Error::eof(format!(
                "the file ends inside the SequenceFile header (in the {what})"
            ))
            .at(Position::Byte(self.start + have as u64)));
        }
        let at = self.at;
        self.at += n;
        Ok(&self.src.window()[at..at + n])
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N, what)?);
        Ok(out)
    }

    fn flag(&mut self, what: &str) -> Result<bool> {
        Ok(self.array::<1>(what)?[0] != 0)
    }

    /// `Text.readString`'s bytes: a vint length and that many bytes.
    fn text(&mut self, what: &str) -> Result<&[u8]> {
        let at = self.position();
        let [marker] = self.array::<1>(what)?;
        let n = vint::payload_len(marker);
        let len = vint::decode(marker, self.bytes(n, what)?);
        if !(0..=i64::from(i32::MAX)).contains(&len) {
            return Err(Error::syntax(format!("bad length {len} of the {what}")).at(at));
        }
        self.sized(len as u64, what, at)
    }

    fn sized(&mut self, len: u64, what: &str, at: Position) -> Result<&[u8]> {
        if len > self.limit {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "the {what} of {len} bytes exceeds the limit of {} bytes",
                    self.limit
                ),
            )
            .at(at));
        }
        self.bytes(len as usize, what)
    }

    fn string(&mut self, what: &str) -> Result<String> {
        let at = self.position();
        let bytes = self.text(what)?.to_vec();
        String::from_utf8(bytes)
            .map_err(|_| Error::new(ErrorKind::Encoding, format!("the {what} is not UTF-8")).at(at))
    }

    /// A class name of versions before 4 (`UTF8`: an unsigned short length and bytes).
    fn utf8_class(&mut self, what: &str) -> Result<String> {
        let at = self.position();
        let len = u16::from_be_bytes(self.array(what)?);
        let bytes = self.sized(u64::from(len), what, at)?.to_vec();
        String::from_utf8(bytes)
            .map_err(|_| Error::new(ErrorKind::Encoding, format!("the {what} is not UTF-8")).at(at))
    }
}

impl fmt::Display for Header {
    /// What `rcc frame info` prints of a header.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "version: {}", self.version)?;
        writeln!(f, "key class: {}", self.key_class)?;
        writeln!(f, "value class: {}", self.value_class)?;
        writeln!(f, "compression: {}", self.compression.name())?;
        if let Some(codec) = &self.codec_class {
            writeln!(f, "codec: {codec}")?;
        }
        for (k, v) in &self.metadata {
            writeln!(
                f,
                "metadata: {} = {}",
                String::from_utf8_lossy(k),
                String::from_utf8_lossy(v)
            )?;
        }
        if let Some(sync) = &self.sync {
            let hex: String = sync.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(f, "sync marker: {hex}")?;
        }
        write!(f, "header: {} bytes", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Header> {
        Header::read(&mut Source::new(bytes, 0), 1 << 20)
    }

    #[test]
    fn a_written_header_reads_back() {
        let o = SeqWriteOptions::new("links.Link")
            .with_compression(Compression::Block)
            .with_codec(Codec::Snappy)
            .with_metadata("b", "2")
            .with_metadata("a", "1")
            .with_metadata("b", "3");
        let h = Header::for_writer(&o, [7; 16]);
        let bytes = h.encode();
        assert_eq!(&bytes[..4], b"SEQ\x06");
        let back = read(&bytes).unwrap();
        assert_eq!(back, h);
        let pairs: Vec<(&[u8], &[u8])> = back
            .metadata
            .iter()
            .map(|(k, v)| (k.as_slice(), v.as_slice()))
            .collect();
        assert_eq!(pairs, [(&b"a"[..], &b"1"[..]), (b"b", b"3")]);
        assert_eq!(back.codec().unwrap(), Some(Codec::Snappy));
    }

    #[test]
    fn version_4_and_3_headers() {
        // Version 4: Text class names, both flags, DefaultCodec implied, no metadata.
        let mut v4 = b"SEQ\x04\x01K\x01V\x01\x00".to_vec();
        v4.extend_from_slice(&[9; 16]);
        let h = read(&v4).unwrap();
        assert_eq!((h.compression, h.len), (Compression::Record, 26));
        assert_eq!(h.codec().unwrap(), Some(Codec::Deflate));
        // Version 3: UTF8 class names (u16 lengths), the compressed flag only.
        let mut v3 = b"SEQ\x03\x00\x01K\x00\x01V\x00".to_vec();
        v3.extend_from_slice(&[9; 16]);
        let h = read(&v3).unwrap();
        assert_eq!(
            (h.key_class.as_str(), h.compression),
            ("K", Compression::None)
        );
        // Version 1: no sync marker.
        let h = read(b"SEQ\x01\x00\x01K\x00\x01V").unwrap();
        assert_eq!((h.sync, h.len), (None, 10));
    }

    #[test]
    fn bad_headers_say_what_and_where() {
        let e = read(b"PAR1").unwrap_err();
        assert!(e.to_string().contains("not a SequenceFile"), "{e}");
        let e = read(b"SEQ\x07").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        let e = read(b"SEQ\x06\x05ab").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
        let e = read(b"SEQ\x06\x8c\x7f\xff\xff\xff").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Limit, Some(Position::Byte(4)))
        );
        let mut neg = b"SEQ\x06\x01K\x01V\x00\x00".to_vec();
        neg.extend_from_slice(&(-1i32).to_be_bytes());
        let e = read(&neg).unwrap_err();
        assert!(e.to_string().contains("negative metadata count"), "{e}");
        let mut zstd = b"SEQ\x06\x01K\x01V\x01\x01\x04Zstd".to_vec();
        zstd.extend_from_slice(&[0; 20]);
        let e = read(&zstd).unwrap().codec().unwrap_err();
        assert!(e.to_string().contains("`Zstd` is not supported"), "{e}");
    }
}
