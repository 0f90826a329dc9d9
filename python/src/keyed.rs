//! SequenceFiles whose keys are records too (`read(..., framing="seqfile", key_type=...)`):
//! each pair decoded by two `BatchDecoder`s, the key into a struct column `key` ahead of the
//! value's columns. The files are listed as `rcc sql` lists them and read in order.

use std::io::{BufReader, Read};
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef};
use datafusion::common::DataFusionError;
use hadoop_record::framing::seqfile::{SeqReadOptions, SeqReader};
use hadoop_record::framing::split::{Framing, Location};
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::Format;
use hadoop_record_arrow::decode::{BatchDecoder, DecodeOptions};
use hadoop_record_datafusion::{Place, RecordError, RecordFormat};

use crate::source::{ReadError, Source};
use crate::storage;
use hadoop_record_storage::StorageOptions;

/// The name of the key column.
pub(crate) const KEY: &str = "key";

/// What a keyed read decodes.
pub(crate) struct Keyed {
    pub key: (Arc<Schema>, RecordId),
    /// Whether the key column is read.
    pub with_key: bool,
    /// The value's fields to decode, by index; `None`: all.
    pub projection: Option<Vec<usize>>,
    pub n_rows: Option<usize>,
}

/// A file being read.
type Input = BufReader<Box<dyn Read + Send>>;

/// The pairs of SequenceFiles as batches of a key column and the value's columns.
pub(crate) struct KeyedSource {
    files: std::vec::IntoIter<String>,
    storage: StorageOptions,
    options: SeqReadOptions,
    encoding: Format,
    keys: BatchDecoder,
    values: BatchDecoder,
    schema: SchemaRef,
    with_key: bool,
    left: Option<usize>,
    current: Option<(String, SeqReader<Input>)>,
}

impl KeyedSource {
    /// Opens nothing yet: the files are read in turn by `next_batch`.
    pub(crate) fn new(
        format: &RecordFormat,
        files: Vec<String>,
        storage: StorageOptions,
        keyed: Keyed,
        batch_size: usize,
    ) -> Result<Self, DataFusionError> {
        let table = format.options();
        let framing = table
            .framing()
            .to_framing()
            .map_err(|e| DataFusionError::Plan(e.message().to_owned()))?;
        let Framing::SeqFile(options) = framing else {
            return Err(DataFusionError::Plan(
                "key_type= applies to framing='seqfile' (the only framing with keys)".into(),
            ));
        };
        let (schema, id) = format.record_type();
        let decode = |projection| {
            DecodeOptions::default()
                .with_batch_size(batch_size)
                .with_projection(projection)
                .with_nullable(table.nullable())
        };
        let external = |e: hadoop_record_arrow::Error| DataFusionError::External(Box::new(e));
        let values =
            BatchDecoder::new(schema.clone(), id, decode(keyed.projection)).map_err(external)?;
        let keys = BatchDecoder::new(keyed.key.0, keyed.key.1, decode(None)).map_err(external)?;
        let mut fields = Vec::new();
        if keyed.with_key {
            let key_fields = keys.schema().fields().clone();
            fields.push(Arc::new(Field::new(
                KEY,
                DataType::Struct(key_fields),
                false,
            )));
        }
        fields.extend(values.schema().fields().iter().cloned());
        Ok(KeyedSource {
            files: files.into_iter(),
            storage,
            options,
            encoding: table.encoding(),
            keys,
            values,
            schema: Arc::new(ArrowSchema::new(fields)),
            with_key: keyed.with_key,
            left: keyed.n_rows,
            current: None,
        })
    }

    pub(crate) fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn error(file: &str, n: u64, offset: u64, error: hadoop_record::Error) -> ReadError {
        ReadError::Scan(DataFusionError::External(Box::new(RecordError {
            file: file.to_owned(),
            place: Place::Payload {
                framing: "seqfile".into(),
                location: Location {
                    record: Some(n),
                    offset,
                },
                range_start: 0,
                in_range: n,
            },
            error,
        })))
    }

    /// Decodes pairs until the batch is full or the files end.
    fn fill(&mut self) -> Result<(), ReadError> {
        while !self.values.is_full() && self.left != Some(self.values.len()) {
            let (file, reader) = match &mut self.current {
                Some(current) => current,
                None => {
                    let Some(url) = self.files.next() else {
                        return Ok(());
                    };
                    let name = storage::display_name(&url).to_owned();
                    let open = storage::open(&url, &self.storage)
                        .map_err(hadoop_record::Error::from)
                        .and_then(|f| {
                            SeqReader::with_options(
                                BufReader::with_capacity(1 << 20, f),
                                self.options,
                            )
                        });
                    let framing = Place::Framing {
                        framing: "seqfile".into(),
                    };
                    let reader = open.map_err(|error| {
                        ReadError::Scan(DataFusionError::External(Box::new(RecordError {
                            file: name.clone(),
                            place: framing,
                            error,
                        })))
                    })?;
                    self.current.insert((name, reader))
                }
            };
            let n = reader.records_read();
            let offset = reader.offset();
            let pair = match reader.next_pair() {
                None => {
                    self.current = None;
                    continue;
                }
                Some(Err(e)) => {
                    let place = Place::Framing {
                        framing: "seqfile".into(),
                    };
                    return Err(ReadError::Scan(DataFusionError::External(Box::new(
                        RecordError {
                            file: file.clone(),
                            place,
                            error: e,
                        },
                    ))));
                }
                Some(Ok(pair)) => pair,
            };
            if self.with_key {
                self.keys
                    .decode_payload(pair.key, Format::Binary)
                    .map_err(|e| Self::error(file, n, offset, e.in_field("key")))?;
            }
            self.values
                .decode_payload(pair.value, self.encoding)
                .map_err(|e| Self::error(file, n, offset, e))?;
        }
        Ok(())
    }
}

impl Source for KeyedSource {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        if self.left == Some(0) {
            return Ok(None);
        }
        self.fill()?;
        let arrow =
            |e: hadoop_record_arrow::Error| ReadError::Scan(DataFusionError::External(Box::new(e)));
        let Some(values) = self.values.flush().map_err(arrow)? else {
            return Ok(None);
        };
        if let Some(left) = &mut self.left {
            *left -= values.num_rows().min(*left);
        }
        let mut columns: Vec<ArrayRef> = Vec::new();
        if self.with_key {
            let keys = self.keys.flush().map_err(arrow)?.expect("a key per value");
            columns.push(Arc::new(StructArray::from(keys)));
        }
        columns.extend(values.columns().iter().cloned());
        RecordBatch::try_new(self.schema.clone(), columns)
            .map(Some)
            .map_err(|e| ReadError::Scan(DataFusionError::ArrowError(Box::new(e), None)))
    }
}
