//! An Avro Object Container File straight into Hadoop binary records.

use std::io::{BufReader, Read};

use hadoop_record::archive::binary::vint;
use hadoop_record::schema::{RecordId, Schema as Hadoop};

use super::plan::Op;
use super::Transcoder;
use crate::check::record_ends;
use crate::container::{Block, Container};
use crate::error::{Error, Place, Result};
use crate::reader::MAX_BLOCK_BYTES;

/// Reads an Avro Object Container File whose schema is a record type's own, to the letter
/// (what `rcc -l avro` writes for it, as `rcc convert --to avro` and Java's writers with
/// that `.avsc` write), as the type's records in Hadoop's binary encoding, without going
/// through Arrow: the bytes Hadoop's Java writes for each record. A file whose schema
/// needs Avro's resolution (other field order, missing or promoted fields, unions) or
/// holds what only [`AvroReader`](crate::AvroReader) reads (maps, whose Hadoop order is
/// Java's) is refused by [`new`](AvroRecordReader::new) with an [`Error::Schema`]: read
/// it with `AvroReader`.
///
/// A damaged, truncated or hostile file is an [`Error::Damaged`] naming the block, the
/// record and the byte, and a value the DDL type cannot hold (a `byte` out of range, a
/// string Hadoop refuses) an [`Error::Schema`] naming them too; never a panic, and nothing
/// is allocated for a length the file's bytes do not back.
pub struct AvroRecordReader<R: Read> {
    container: Container<BufReader<R>>,
    transcoder: Transcoder,
    /// The block being read, where in its data the next record starts, and how many of
    /// its records were read.
    block: Option<(Block, usize, u64)>,
    done: bool,
}

impl<R: Read> AvroRecordReader<R> {
    /// A reader of the file `input` as records of type `id` of `schema`. Reads the file's
    /// header: an [`Error::Damaged`] for a header that is not sound, an [`Error::Schema`]
    /// when the file's schema is not the record type's own (see above).
    pub fn new(input: R, schema: &Hadoop, id: RecordId) -> Result<Self> {
        let container = Container::open(BufReader::new(input), MAX_BLOCK_BYTES)?;
        let transcoder = Transcoder::new(&container.header().schema, schema, id)?;
        Ok(AvroRecordReader {
            container,
            transcoder,
            block: None,
            done: false,
        })
    }

    /// Refuses blocks longer than `max` bytes (compressed, or once decompressed), rather
    /// than [`MAX_BLOCK_BYTES`]: a bound on the memory one block takes.
    pub fn with_max_block_bytes(mut self, max: usize) -> Self {
        self.container.set_max_block(max);
        self
    }

    /// The file's own (writer's) Avro schema, as its header holds it.
    pub fn avro_schema(&self) -> &str {
        &self.container.header().schema
    }

    /// Appends the next record's Hadoop binary bytes to `out`: `false` at the end of the
    /// file. After an error nothing of the record is in `out`, and the reader is done.
    pub fn read_record(&mut self, out: &mut Vec<u8>) -> Result<bool> {
        if self.done {
            return Ok(false);
        }
        let read = self.next_record(out);
        if !matches!(read, Ok(true)) {
            self.done = true;
        }
        read
    }

    fn next_record(&mut self, out: &mut Vec<u8>) -> Result<bool> {
        loop {
            let mut fault = None;
            if let Some((block, pos, read)) = &mut self.block {
                if *read < block.count {
                    let start = out.len();
                    let mut input = Avro {
                        data: &block.data,
                        pos: *pos,
                    };
                    match decode(&self.transcoder.plan, &mut input, out) {
                        Ok(()) => {
                            *pos = input.pos;
                            *read += 1;
                            return Ok(true);
                        }
                        Err(m) => {
                            out.truncate(start);
                            fault = Some((m, input.pos));
                        }
                    }
                } else if *pos != block.data.len() {
                    fault = Some((Fault::Damaged("bytes after the block's records"), *pos));
                }
            }
            if let Some((fault, at)) = fault {
                return Err(self.error(fault, at));
            }
            self.block = None;
            match self.container.next_block()? {
                Some(block) => self.block = Some((block, 0, 0)),
                None => return Ok(false),
            }
        }
    }

    /// The error of the block being read, found at byte `at` of its data: the check of
    /// the whole block against the schema names the record, byte and field of damage.
    #[cold]
    fn error(&self, fault: Fault, at: usize) -> Error {
        let (block, start, read) = self.block.as_ref().expect("a block is being read");
        if let Err(m) = record_ends(&self.transcoder.avro, &block.data, block.count) {
            return Error::damaged(block.place, m);
        }
        let (at, what) = match fault {
            Fault::Damaged(m) => return Error::damaged(block.place, m),
            Fault::Value(m) => (at, m),
        };
        let Place::Block { block: number, .. } = block.place else {
            unreachable!("records are in blocks")
        };
        Error::Schema(format!(
            "the file's block {number}, record {read} of the block (starting at byte {start} \
             of its data), byte {at}: {what}"
        ))
    }
}

/// Why a record could not be read: its bytes are damaged, or they hold a value Hadoop's
/// type cannot.
enum Fault {
    Damaged(&'static str),
    Value(String),
}

/// Avro binary in memory.
struct Avro<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Avro<'_> {
    #[inline]
    fn long(&mut self) -> Result<i64, Fault> {
        // One byte (-64..=63: lengths, counts, small numbers) is the common case.
        if let Some(&b) = self.data.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(i64::from(b >> 1) ^ -i64::from(b & 1));
            }
        }
        self.long_varint()
    }

    /// [`Avro::long`] of more than one byte (or at the end of the data).
    #[inline(never)]
    fn long_varint(&mut self) -> Result<i64, Fault> {
        let mut n: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.data.get(self.pos) else {
                return Err(Fault::Damaged("the data ends inside a number"));
            };
            self.pos += 1;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok((n >> 1) as i64 ^ -((n & 1) as i64));
            }
        }
        Err(Fault::Damaged("a long of more than 64 bits"))
    }

    #[inline]
    fn take(&mut self, n: usize) -> Result<&[u8], Fault> {
        if n > self.data.len() - self.pos {
            return Err(Fault::Damaged("a value longer than the bytes that follow"));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    #[inline]
    fn bytes(&mut self) -> Result<&[u8], Fault> {
        let n = self.long()?;
        let n = usize::try_from(n).map_err(|_| Fault::Damaged("a negative length"))?;
        self.take(n)
    }
}

/// Appends Hadoop's `vlong` of `v`.
#[inline]
fn put_vlong(out: &mut Vec<u8>, v: i64) {
    if (-112..=127).contains(&v) {
        out.push(v as u8);
    } else {
        let mut buf = [0u8; vint::MAX_LEN];
        let n = vint::encode(v, &mut buf);
        out.extend_from_slice(&buf[..n]);
    }
}

/// Transcodes one value of `op` from `input` (Avro binary) onto `out` (Hadoop binary).
fn decode(op: &Op, input: &mut Avro<'_>, out: &mut Vec<u8>) -> Result<(), Fault> {
    match op {
        Op::Bool => match input.take(1)?[0] {
            b @ (0 | 1) => out.push(b),
            _ => return Err(Fault::Damaged("a boolean byte not 0 or 1")),
        },
        Op::Byte => {
            let v = input.long()?;
            let b = i8::try_from(v).map_err(|_| {
                Fault::Value(format!(
                    "{v}, out of the range of Hadoop's `byte` (-128 to 127)"
                ))
            })?;
            out.push(b as u8);
        }
        Op::Int => {
            let v = input.long()?;
            i32::try_from(v).map_err(|_| Fault::Damaged("an int out of range"))?;
            put_vlong(out, v);
        }
        Op::Long => put_vlong(out, input.long()?),
        Op::Float => {
            let f = f32::from_le_bytes(input.take(4)?.try_into().expect("four bytes"));
            // Java's floatToIntBits, as Hadoop writes floats: one NaN.
            let f = if f.is_nan() { f32::NAN } else { f };
            out.extend_from_slice(&f.to_be_bytes());
        }
        Op::Double => {
            let d = f64::from_le_bytes(input.take(8)?.try_into().expect("eight bytes"));
            let d = if d.is_nan() { f64::NAN } else { d };
            out.extend_from_slice(&d.to_be_bytes());
        }
        Op::String => {
            let s = input.bytes()?;
            // ASCII (checked a word at a time) is UTF-8 without U+FFFE or U+FFFF.
            if !s.is_ascii() {
                hadoop_record::field::check_utf8(s, 0).map_err(|e| {
                    Fault::Value(format!("a string Hadoop cannot hold: {}", e.message()))
                })?;
            }
            put_vlong(out, s.len() as i64);
            out.extend_from_slice(s);
        }
        Op::Bytes => {
            let b = input.bytes()?;
            put_vlong(out, b.len() as i64);
            out.extend_from_slice(b);
        }
        Op::Vector(item) => {
            // Hadoop's count comes first: written as the first block's count, and written
            // again (the items moved) when more blocks follow.
            let at = out.len();
            let (mut first, mut total) = (0u64, 0u64);
            loop {
                let mut n = input.long()?;
                if n == 0 {
                    break;
                }
                if n < 0 {
                    n = n
                        .checked_neg()
                        .ok_or(Fault::Damaged("an array block count out of range"))?;
                    // The block's size in bytes, which is not needed.
                    input.long()?;
                }
                // Every item takes a byte at least (see `plan`).
                let n = n as u64;
                if n > (input.data.len() - input.pos) as u64 {
                    return Err(Fault::Damaged(
                        "more array items than the bytes that follow",
                    ));
                }
                if total == 0 {
                    first = n;
                    put_vlong(out, n as i64);
                }
                total += n;
                for _ in 0..n {
                    decode(item, input, out)?;
                }
            }
            if total > i32::MAX as u64 {
                return Err(Fault::Value(format!(
                    "an array of {total} items, more than Hadoop's limit of 2^31 - 1"
                )));
            }
            if total == 0 {
                out.push(0);
            } else if total != first {
                let mut head = Vec::with_capacity(vint::MAX_LEN);
                put_vlong(&mut head, total as i64);
                let old = {
                    let mut buf = [0u8; vint::MAX_LEN];
                    vint::encode(first as i64, &mut buf)
                };
                out.splice(at..at + old, head);
            }
        }
        Op::Record(fields) => {
            for field in fields.iter() {
                decode(field, input, out)?;
            }
        }
    }
    Ok(())
}
