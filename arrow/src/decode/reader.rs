//! [`BatchReader`]: a stream of records back to back in one encoding, as batches.

use std::io::Read;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordReader};

use super::{BatchDecoder, DecodeOptions, Visit};
use crate::Error;

/// Reads a stream of records (back to back, in one encoding) as [`RecordBatch`]es of
/// [`DecodeOptions::batch_size`] rows (the last one shorter).
///
/// It is an [`Iterator`] and an Arrow [`RecordBatchReader`], whose errors are
/// [`ArrowError`]s: a bad record is an [`ArrowError::ExternalError`] holding the
/// [`hadoop_record::Error`] (record number, position, field path, as [`RecordReader`] reports
/// it), which `hadoop_record_arrow::Error::from` takes back out. The rows before a bad record
/// come first as a batch of their own; the iterator ends after the error.
///
/// ```
/// use std::sync::Arc;
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// use hadoop_record::Format;
/// use hadoop_record_arrow::decode::{BatchReader, DecodeOptions};
///
/// let mut schema = Schema::new();
/// let id = schema.add(RecordType {
///     module: "m".into(),
///     name: "P".into(),
///     fields: vec![FieldDef::new("x", FieldType::Int), FieldDef::new("y", FieldType::Int)],
/// })?;
/// let csv = b"1,2\n3,4\n5,6\n7,x\n";
/// let options = DecodeOptions::default().with_batch_size(2);
/// let mut batches = BatchReader::new(&csv[..], Format::Csv, Arc::new(schema), id, options)?;
/// assert_eq!(batches.next().unwrap()?.num_rows(), 2);
/// assert_eq!(batches.next().unwrap()?.num_rows(), 1);
/// let e = batches.next().unwrap().unwrap_err();
/// assert_eq!(
///     hadoop_record_arrow::Error::from(e).to_string(),
///     "record 3, line 4:3, in P.y: expected an int, found `x`"
/// );
/// assert!(batches.next().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct BatchReader<R> {
    reader: RecordReader<R>,
    decoder: BatchDecoder,
    /// An error to report once the rows before it are out.
    pending: Option<hadoop_record::Error>,
    done: bool,
}

impl<R: Read> BatchReader<R> {
    /// A reader of `format` records of type `record` from `input` (unbuffered: the record
    /// reader buffers), with the jute and depth options of `options`.
    pub fn new(
        input: R,
        format: Format,
        schema: Arc<Schema>,
        record: RecordId,
        options: DecodeOptions,
    ) -> Result<Self, Error> {
        let decoder = BatchDecoder::new(schema, record, options)?;
        let reader = RecordReader::new(input, format)
            .with_jute_options(decoder.options.jute)
            .with_max_depth(decoder.max_depth);
        Ok(Self::from_parts(reader, decoder))
    }

    /// A reader over a [`RecordReader`] set up by the caller, decoding with `decoder`.
    pub fn from_parts(reader: RecordReader<R>, decoder: BatchDecoder) -> Self {
        BatchReader {
            reader,
            decoder,
            pending: None,
            done: false,
        }
    }

    /// The decoder, e.g. for its schema.
    pub fn decoder(&self) -> &BatchDecoder {
        &self.decoder
    }

    /// The record reader, e.g. for its position.
    pub fn reader(&self) -> &RecordReader<R> {
        &self.reader
    }

    /// Records read so far.
    pub fn records_read(&self) -> u64 {
        self.reader.records_read()
    }

    /// The next batch: `None` after the last.
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>, Error> {
        if let Some(e) = self.pending.take() {
            self.done = true;
            return Err(e.into());
        }
        if self.done {
            return Ok(None);
        }
        let type_name = self.decoder.type_name.clone();
        while !self.decoder.is_full() {
            match self
                .reader
                .read_visit(&type_name, &mut Visit(&mut self.decoder))
            {
                Ok(Some(())) => {}
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    if self.decoder.is_empty() {
                        self.done = true;
                        return Err(e.into());
                    }
                    self.pending = Some(e);
                    break;
                }
            }
        }
        self.decoder.flush()
    }
}

impl<R: Read> Iterator for BatchReader<R> {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().map_err(ArrowError::from).transpose()
    }
}

impl<R: Read> RecordBatchReader for BatchReader<R> {
    fn schema(&self) -> SchemaRef {
        self.decoder.schema()
    }
}
