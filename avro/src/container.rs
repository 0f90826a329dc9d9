//! The framing of Avro's Object Container Files: a header (magic, metadata map, sync marker),
//! then blocks (record count, byte length, the records, possibly compressed, the sync marker).
//!
//! Written here rather than taken from arrow-avro 59, which (a) writes a header schema of its
//! own making from the Arrow schema, not the one it encodes with (so the `hadoop.type` marks
//! of `rcc -l avro`'s schema would not reach the file), and (b) reads a file cut inside a
//! block as if it ended before that block, without an error; loops forever on a block with
//! bytes past its records; panics on a snappy block shorter than its checksum; and names
//! neither block nor offset in its errors (each seen with arrow-avro 59.3.2).
//! Every length read here is checked against the bytes that follow before anything is
//! allocated for it.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use crate::codec::AvroCodec;
use crate::error::{Error, Place, Result};

/// The first four bytes of every container file.
pub(crate) const MAGIC: &[u8; 4] = b"Obj\x01";
/// Metadata key of the writer's schema.
pub(crate) const SCHEMA_KEY: &str = "avro.schema";
/// Metadata key of the codec.
pub(crate) const CODEC_KEY: &str = "avro.codec";

/// Appends `v` in Avro's long encoding (zig-zag, then 7 bits a byte, low bits first).
#[inline]
pub(crate) fn put_long(out: &mut Vec<u8>, v: i64) {
    let mut n = ((v << 1) ^ (v >> 63)) as u64;
    if n < 0x80 {
        out.push(n as u8);
        return;
    }
    // Gathered, then one copy: a push a byte is slower for the many-byte longs.
    let mut bytes = [0u8; 10];
    let mut len = 0;
    while n >= 0x80 {
        bytes[len] = (n as u8) | 0x80;
        n >>= 7;
        len += 1;
    }
    bytes[len] = n as u8;
    out.extend_from_slice(&bytes[..=len]);
}

/// Appends `bytes` as Avro `bytes` (length, then the bytes).
fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_long(out, bytes.len() as i64);
    out.extend_from_slice(bytes);
}

/// The header of a file whose schema is `schema` (written as it is) and codec `codec`.
pub(crate) fn header(schema: &str, codec: AvroCodec, sync: &[u8; 16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(schema.len() + 64);
    out.extend_from_slice(MAGIC);
    put_long(&mut out, 2);
    put_bytes(&mut out, SCHEMA_KEY.as_bytes());
    put_bytes(&mut out, schema.as_bytes());
    put_bytes(&mut out, CODEC_KEY.as_bytes());
    put_bytes(&mut out, codec.name().as_bytes());
    put_long(&mut out, 0);
    out.extend_from_slice(sync);
    out
}

/// Writes one block of `count` records whose (compressed) bytes are `data`.
pub(crate) fn write_block<W: Write>(
    out: &mut W,
    count: usize,
    data: &[u8],
    sync: &[u8; 16],
) -> io::Result<()> {
    let mut head = Vec::with_capacity(20);
    put_long(&mut head, count as i64);
    put_long(&mut head, data.len() as i64);
    out.write_all(&head)?;
    out.write_all(data)?;
    out.write_all(sync)
}

/// A container file's header as read.
#[derive(Debug)]
pub(crate) struct Header {
    /// The writer's schema, as the file holds it.
    pub schema: String,
    pub codec: AvroCodec,
    pub sync: [u8; 16],
}

/// One block as read: where it starts, its record count and its bytes, decompressed.
#[derive(Debug)]
pub(crate) struct Block {
    pub place: Place,
    pub count: u64,
    pub data: Vec<u8>,
}

/// Reads a container file: its header, then its blocks one by one, counting bytes.
pub(crate) struct Container<R> {
    input: R,
    offset: u64,
    next_block: u64,
    header: Header,
    max_block: usize,
}

impl<R: BufRead> Container<R> {
    /// Reads the header of the file `input`; blocks longer than `max_block` bytes
    /// (compressed or not) are refused.
    pub fn open(input: R, max_block: usize) -> Result<Self> {
        let mut bytes = Bytes {
            input,
            offset: 0,
            place: Place::Header { offset: 0 },
        };
        let header = read_header(&mut bytes)?;
        Ok(Container {
            input: bytes.input,
            offset: bytes.offset,
            next_block: 0,
            header,
            max_block,
        })
    }

    /// Refuses blocks longer than `max` bytes from now on.
    pub fn set_max_block(&mut self, max: usize) {
        self.max_block = max;
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next block, `None` at the end of the file.
    pub fn next_block(&mut self) -> Result<Option<Block>> {
        let place = Place::Block {
            block: self.next_block,
            offset: self.offset,
        };
        let mut bytes = Bytes {
            input: &mut self.input,
            offset: self.offset,
            place,
        };
        if bytes.at_end()? {
            return Ok(None);
        }
        let count = bytes.long("the block's record count")?;
        let count = u64::try_from(count)
            .map_err(|_| Error::damaged(place, format!("negative record count {count}")))?;
        let size = bytes.long("the block's byte length")?;
        let size = usize::try_from(size)
            .map_err(|_| Error::damaged(place, format!("negative byte length {size}")))?;
        if size > self.max_block {
            return Err(Error::damaged(
                place,
                format!(
                    "the block claims {size} bytes, more than the {} a block may hold \
                     (AvroReader::with_max_block_bytes)",
                    self.max_block
                ),
            ));
        }
        let data = bytes.exact(size, "the block's data")?;
        let sync = bytes.exact(16, "the block's sync marker")?;
        if sync != self.header.sync {
            return Err(Error::damaged(
                place,
                "the sync marker after the block's data is not the header's (the block's \
                 length or data is damaged)",
            ));
        }
        self.offset = bytes.offset;
        self.next_block += 1;
        let data = self
            .header
            .codec
            .decompress(data, self.max_block)
            .map_err(|m| Error::damaged(place, m))?;
        Ok(Some(Block { place, count, data }))
    }
}

/// A byte reader that knows its offset, and where it is for errors.
struct Bytes<R> {
    input: R,
    offset: u64,
    place: Place,
}

impl<R: BufRead> Bytes<R> {
    fn io(&self, e: io::Error) -> Error {
        Error::damaged(self.place, format!("reading at byte {}: {e}", self.offset))
    }

    fn truncated(&self, what: &str) -> Error {
        Error::damaged(
            self.place,
            format!(
                "the file ends at byte {} inside {what} (it is truncated)",
                self.offset
            ),
        )
    }

    fn at_end(&mut self) -> Result<bool> {
        loop {
            match self.input.fill_buf() {
                Ok(buf) => return Ok(buf.is_empty()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io(e)),
            }
        }
    }

    fn byte(&mut self, what: &str) -> Result<u8> {
        if self.at_end()? {
            return Err(self.truncated(what));
        }
        let first = self.input.fill_buf().map(|buf| buf[0]);
        let b = first.map_err(|e| self.io(e))?;
        self.input.consume(1);
        self.offset += 1;
        Ok(b)
    }

    /// An Avro long (at most 10 bytes, within 64 bits).
    fn long(&mut self, what: &str) -> Result<i64> {
        let start = self.offset;
        let mut n: u64 = 0;
        for i in 0..10 {
            let b = self.byte(what)?;
            if i == 9 && b > 1 {
                break;
            }
            n |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok((n >> 1) as i64 ^ -((n & 1) as i64));
            }
        }
        Err(Error::damaged(
            self.place,
            format!("{what} at byte {start} is not a valid Avro long (over 64 bits)"),
        ))
    }

    /// `len` bytes, read as they come (never allocated ahead of the bytes).
    fn exact(&mut self, len: usize, what: &str) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let read =
            io::Read::read_to_end(&mut io::Read::take(&mut self.input, len as u64), &mut out);
        let read = read.map_err(|e| self.io(e));
        self.offset += out.len() as u64;
        read?;
        if out.len() < len {
            return Err(self.truncated(what));
        }
        Ok(out)
    }

    /// Avro `bytes`: a length, then that many bytes.
    fn bytes(&mut self, what: &str) -> Result<Vec<u8>> {
        let at = self.offset;
        let len = self.long(what)?;
        let len = usize::try_from(len).map_err(|_| {
            Error::damaged(self.place, format!("{what} at byte {at} has length {len}"))
        })?;
        self.exact(len, what)
    }
}

fn read_header<R: BufRead>(bytes: &mut Bytes<R>) -> Result<Header> {
    let magic = bytes.exact(4, "the magic number").map_err(|_| {
        Error::damaged(
            bytes.place,
            format!(
                "the file has {} bytes, too few for an Avro container file",
                bytes.offset
            ),
        )
    })?;
    if magic != MAGIC {
        return Err(Error::damaged(
            bytes.place,
            format!(
                "not an Avro container file: it starts with {}, not Obj\\x01",
                magic.escape_ascii()
            ),
        ));
    }
    let mut meta = BTreeMap::new();
    loop {
        let count = bytes.long("the metadata's entry count")?;
        if count == 0 {
            break;
        }
        if count < 0 {
            // A negative count is followed by the block's byte length, which is not needed.
            bytes.long("the metadata block's byte length")?;
        }
        for _ in 0..count.unsigned_abs() {
            let key_at = bytes.offset;
            let key = bytes.bytes("a metadata key")?;
            let key = String::from_utf8(key).map_err(|_| {
                Error::damaged(
                    Place::Header { offset: key_at },
                    "a metadata key is not UTF-8",
                )
            })?;
            let value = bytes.bytes("a metadata value")?;
            meta.insert(key, (value, key_at));
        }
    }
    let sync: [u8; 16] = bytes
        .exact(16, "the header's sync marker")?
        .try_into()
        .expect("16 bytes");
    let Some((schema, at)) = meta.remove(SCHEMA_KEY) else {
        return Err(Error::damaged(
            bytes.place,
            "the header has no `avro.schema`: not a container file any Avro reader can read",
        ));
    };
    let schema = String::from_utf8(schema).map_err(|_| {
        Error::damaged(
            Place::Header { offset: at },
            "the header's `avro.schema` is not UTF-8",
        )
    })?;
    let codec = match meta.remove(CODEC_KEY) {
        None => AvroCodec::Null,
        Some((name, at)) => {
            let place = Place::Header { offset: at };
            let name = String::from_utf8(name)
                .map_err(|_| Error::damaged(place, "the header's `avro.codec` is not UTF-8"))?;
            let codec: AvroCodec = name.parse().map_err(|m| Error::damaged(place, m))?;
            codec.check_built().map_err(|m| Error::damaged(place, m))?;
            codec
        }
    };
    Ok(Header {
        schema,
        codec,
        sync,
    })
}
