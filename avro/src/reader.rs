//! Reading an Avro Object Container File into record batches of the Hadoop mapping.

use std::io::{BufReader, Read};

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_avro::reader::{Decoder, ReaderBuilder};
use arrow_avro::schema::{AvroSchema, Fingerprint, FingerprintAlgorithm, SchemaStore};
use arrow_schema::SchemaRef;

use crate::check::record_ends;
use crate::container::{Block, Container};
use crate::error::{Error, Place, Result};
use crate::resolve::reader_schema;
use crate::schema::Schema;
use crate::shape::to_mapping;
use crate::writer::refuse_recursive;

/// The largest block (compressed or not) read by default: 2 GiB less a byte, the most Java's
/// `DataFileReader` reads.
pub const MAX_BLOCK_BYTES: usize = i32::MAX as usize;

/// The Confluent-style prefix that arrow-avro's [`Decoder`] reads before each record: magic
/// 0 and schema id 0, the only schema it is given.
const PREFIX: [u8; 5] = [0; 5];

/// The Avro schema (JSON text) in the header of the container file `input`, read no
/// further than the header: what [`ddl_of_schema`](crate::ddl_of_schema) takes.
pub fn file_schema<R: Read>(input: R) -> Result<String> {
    let container = Container::open(BufReader::new(input), MAX_BLOCK_BYTES)?;
    Ok(container.header().schema.clone())
}

/// Reads an Avro Object Container File, written by this crate or any Avro tool, as record
/// batches of a DDL record type's Arrow schema (the Hadoop mapping of `hadoop-record-arrow`),
/// resolving the file's schema to the record type by Avro's rules (see docs/avro.md:
/// fields by name, Avro's promotions, a default for a field the file lacks, a mismatch
/// refused naming the field and both types).
///
/// A damaged, truncated or hostile file is an [`Error::Damaged`] naming the block and its
/// byte offset, never a panic; no length in the file is allocated before the bytes that
/// back it are read. After an error the iterator ends.
pub struct AvroReader<R: Read> {
    container: Container<BufReader<R>>,
    writer: Schema,
    decoder: Decoder,
    target: SchemaRef,
    /// The records of the block being decoded, each behind [`PREFIX`], and how far the
    /// decoder has got in them.
    block: Option<(Place, Vec<u8>, usize)>,
    /// The number (in the file) of the next batch's first record.
    first: u64,
    done: bool,
}

impl<R: Read> AvroReader<R> {
    /// A reader of the file `input` into batches of (at most) `batch_size` records of
    /// `arrow_schema` (the mapping's schema of the DDL record type). Reads the file's header
    /// and resolves its schema to the record type: an [`Error::Damaged`] for a header that is
    /// not sound, an [`Error::Schema`] when Avro's rules cannot read the file's records as
    /// the record type.
    pub fn new(input: R, arrow_schema: SchemaRef, batch_size: usize) -> Result<Self> {
        refuse_recursive(&arrow_schema)?;
        let container = Container::open(BufReader::new(input), MAX_BLOCK_BYTES)?;
        let json = &container.header().schema;
        let writer = Schema::parse(json)
            .map_err(|m| Error::Schema(format!("the file's Avro schema: {m}")))?;
        let reader = reader_schema(&writer, &arrow_schema).map_err(Error::Schema)?;
        let mut store = SchemaStore::new_with_type(FingerprintAlgorithm::Id);
        store.set(Fingerprint::Id(0), AvroSchema::new(writer.inlined()))?;
        let decoder = ReaderBuilder::new()
            .with_batch_size(batch_size.max(1))
            .with_reader_schema(AvroSchema::new(reader))
            .with_writer_schema_store(store)
            .with_active_fingerprint(Fingerprint::Id(0))
            .build_decoder()
            .map_err(|e| {
                Error::Schema(format!(
                    "arrow-avro cannot read the file's records as the record type: {e}"
                ))
            })?;
        Ok(AvroReader {
            container,
            writer,
            decoder,
            target: arrow_schema,
            block: None,
            first: 0,
            done: false,
        })
    }

    /// Refuses blocks longer than `max` bytes (compressed, or once decompressed), rather
    /// than [`MAX_BLOCK_BYTES`]: a bound on the memory one block takes.
    pub fn with_max_block_bytes(mut self, max: usize) -> Self {
        self.container.set_max_block(max);
        self
    }

    /// The schema of the batches: the one the reader was made with.
    pub fn schema(&self) -> SchemaRef {
        self.target.clone()
    }

    /// The file's own (writer's) Avro schema, as its header holds it.
    pub fn avro_schema(&self) -> &str {
        &self.container.header().schema
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            if self.decoder.batch_is_full() {
                return self.flush().map(Some);
            }
            if let Some((place, framed, pos)) = &mut self.block {
                if *pos < framed.len() {
                    let n = self.decoder.decode(&framed[*pos..]).map_err(|e| {
                        Error::damaged(*place, format!("arrow-avro cannot decode a record: {e}"))
                    })?;
                    if n == 0 && !self.decoder.batch_is_full() {
                        return Err(Error::damaged(*place, "arrow-avro decoded no record"));
                    }
                    *pos += n;
                    continue;
                }
            }
            match self.container.next_block()? {
                Some(block) => self.block = Some(self.frame(block)?),
                None => {
                    self.block = None;
                    return if self.decoder.batch_is_empty() {
                        Ok(None)
                    } else {
                        self.flush().map(Some)
                    };
                }
            }
        }
    }

    /// The block's records, checked, each behind [`PREFIX`].
    fn frame(&self, block: Block) -> Result<(Place, Vec<u8>, usize)> {
        let ends = record_ends(&self.writer, &block.data, block.count)
            .map_err(|m| Error::damaged(block.place, m))?;
        let mut framed = Vec::with_capacity(block.data.len() + ends.len() * PREFIX.len());
        let mut start = 0;
        for end in ends {
            framed.extend_from_slice(&PREFIX);
            framed.extend_from_slice(&block.data[start..end]);
            start = end;
        }
        Ok((block.place, framed, 0))
    }

    /// The decoded records as a batch of the mapping.
    fn flush(&mut self) -> Result<RecordBatch> {
        let batch = self.decoder.flush()?.expect("called with records decoded");
        let rows = batch.num_rows();
        let record = self
            .target
            .metadata()
            .get(hadoop_record_arrow::mapping::RECORD_KEY)
            .map_or("the record", |name| name.rsplit('.').next().unwrap_or(name));
        let columns = self
            .target
            .fields()
            .iter()
            .zip(batch.columns())
            .map(|(f, c)| to_mapping(c, f, &format!("{record}.{}", f.name()), self.first))
            .collect::<Result<Vec<ArrayRef>>>()?;
        self.first += rows as u64;
        Ok(RecordBatch::try_new_with_options(
            self.target.clone(),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(rows)),
        )?)
    }
}

impl<R: Read> Iterator for AvroReader<R> {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_batch();
        if !matches!(next, Ok(Some(_))) {
            self.done = true;
        }
        next.transpose()
    }
}
