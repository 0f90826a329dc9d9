//! Hadoop binary records straight into an Avro Object Container File.

use std::io::Write;

use hadoop_record::archive::binary::RawInput;

use super::plan::Op;
use super::Transcoder;
use crate::blocks::Blocks;
use crate::codec::AvroCodec;
use crate::container::{self, put_long};
use crate::error::{Error, Result};
use crate::writer::{new_sync, BLOCK_BYTES};

/// Writes records given in Hadoop's binary encoding into an Avro Object Container File
/// under the schema of a [`Transcoder`] (`rcc -l avro`'s, byte for byte), without going
/// through Arrow: each value is re-encoded as it is read. The same file as
/// [`AvroWriter`](crate::AvroWriter) writes from batches of the same records.
///
/// The header is written by [`new`](AvroRecordWriter::new), blocks of about 256 KiB of
/// records as they fill, and the file is whole once [`finish`](AvroRecordWriter::finish)
/// returned `Ok`. A record that is not sound Hadoop binary of the type is an
/// [`Error::Record`], and leaves nothing of itself in the file.
///
/// ```
/// use hadoop_record::archive::binary::RawInput;
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// use hadoop_record_avro::{AvroCodec, AvroRecordReader, AvroRecordWriter, Transcoder};
///
/// let mut schema = Schema::new();
/// let id = schema.add(RecordType::new("m", "P", vec![FieldDef::new("x", FieldType::Int)]))?;
/// let avsc = r#"{"type": "record", "name": "P", "namespace": "m",
///                "fields": [{"name": "x", "type": "int"}]}"#;
/// let transcoder = Transcoder::new(avsc, &schema, id)?;
/// let mut writer = AvroRecordWriter::new(Vec::new(), &transcoder, AvroCodec::Null)?;
/// // Two records, 1024 and -1, as Hadoop writes them.
/// let mut records = RawInput::new(b"\x8e\x04\x00\xff");
/// writer.write_record(&mut records)?;
/// writer.write_record(&mut records)?;
/// let file = writer.finish()?;
///
/// let mut reader = AvroRecordReader::new(&file[..], &schema, id)?;
/// let mut back = Vec::new();
/// while reader.read_record(&mut back)? {}
/// assert_eq!(back, b"\x8e\x04\x00\xff");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AvroRecordWriter<W: Write> {
    blocks: Blocks<W>,
    plan: Op,
    /// The records of the block being made, Avro-encoded, and how many.
    block: Vec<u8>,
    count: usize,
}

impl<W: Write> AvroRecordWriter<W> {
    /// A writer of the file `out` with `transcoder`'s Avro schema (written as it was given),
    /// blocks compressed with `codec`. Writes the file's header.
    pub fn new(mut out: W, transcoder: &Transcoder, codec: AvroCodec) -> Result<Self> {
        codec.check_built().map_err(Error::Schema)?;
        let sync = new_sync()?;
        out.write_all(&container::header(&transcoder.json, codec, &sync))?;
        Ok(AvroRecordWriter {
            blocks: Blocks::new(out, codec, sync),
            plan: transcoder.plan.clone(),
            block: Vec::with_capacity(BLOCK_BYTES + BLOCK_BYTES / 4),
            count: 0,
        })
    }

    /// Reads one record from `input` (Hadoop binary, from where the cursor is) and adds it
    /// to the file, leaving the cursor after it. On an [`Error::Record`] the cursor is
    /// somewhere inside the record, and nothing of it was added.
    #[inline]
    pub fn write_record(&mut self, input: &mut RawInput<'_>) -> Result<()> {
        let start = self.add(input)?;
        self.end_record(start)
    }

    /// Adds the one record `payload` holds (Hadoop binary, as a framing carries it): bytes
    /// after the record are an [`Error::Record`] too, and leave nothing of it in the file.
    pub fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let mut input = RawInput::new(payload);
        let start = self.add(&mut input)?;
        if let Err(e) = input.finish() {
            self.block.truncate(start);
            self.count -= 1;
            return Err(Error::Record(e));
        }
        self.end_record(start)
    }

    /// Adds the record of `input` to the block; where it starts there.
    #[inline]
    fn add(&mut self, input: &mut RawInput<'_>) -> Result<usize> {
        let start = self.block.len();
        if let Err(e) = encode(&self.plan, input, &mut self.block) {
            self.block.truncate(start);
            return Err(Error::Record(e));
        }
        self.count += 1;
        Ok(start)
    }

    /// Writes a block once the records added make one: those before the last one added
    /// (which starts at `last`), or that one alone when it is longer than a block.
    #[inline]
    fn end_record(&mut self, last: usize) -> Result<()> {
        if self.block.len() <= BLOCK_BYTES {
            return Ok(());
        }
        if last > 0 {
            self.write_block(last, self.count - 1)
        } else {
            self.write_block(self.block.len(), self.count)
        }
    }

    /// Writes the first `count` records of the block, its first `bytes` bytes, as a block.
    fn write_block(&mut self, bytes: usize, count: usize) -> Result<()> {
        self.blocks.push(count, &self.block[..bytes])?;
        self.block.drain(..bytes);
        self.count -= count;
        Ok(())
    }

    /// Writes the last block and flushes the file; the file is whole (and only then).
    pub fn finish(mut self) -> Result<W> {
        if self.count > 0 {
            self.write_block(self.block.len(), self.count)?;
        }
        self.blocks.finish()
    }
}

/// Transcodes one value of `op` from `input` (Hadoop binary) onto `out` (Avro binary).
#[inline]
fn encode(op: &Op, input: &mut RawInput<'_>, out: &mut Vec<u8>) -> hadoop_record::Result<()> {
    match op {
        // Java reads any byte but 0 as true; Avro's is 1.
        Op::Bool => out.push(u8::from(input.take_array::<1>()?[0] != 0)),
        Op::Byte => put_long(out, i64::from(input.take_array::<1>()?[0] as i8)),
        Op::Int => put_long(out, i64::from(input.read_vint()?)),
        Op::Long => put_long(out, input.read_vlong()?),
        Op::Float => out.extend_from_slice(&u32::from_be_bytes(input.take_array()?).to_le_bytes()),
        Op::Double => out.extend_from_slice(&u64::from_be_bytes(input.take_array()?).to_le_bytes()),
        Op::String => {
            let s = input.read_str()?;
            put_long(out, s.len() as i64);
            out.extend_from_slice(s.as_bytes());
        }
        Op::Bytes => {
            let b = input.read_bytes()?;
            put_long(out, b.len() as i64);
            out.extend_from_slice(b);
        }
        Op::Vector(item) => {
            // Every item takes a byte at least (see `plan`): the count is bounded.
            let n = input.read_len()?;
            if n > 0 {
                put_long(out, n as i64);
                for _ in 0..n {
                    encode(item, input, out)?;
                }
            }
            out.push(0);
        }
        Op::Record(fields) => {
            for field in fields.iter() {
                encode(field, input, out)?;
            }
        }
    }
    Ok(())
}
