//! `read(..., encoding="json")`: files of JSON records (what `rcc convert --to json` writes:
//! one per line, or an array), read by the runtime's `JsonReader` and decoded into batches
//! from the values. Unframed only: the DataFusion scan takes the runtime's encodings.

use std::io::Read;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use datafusion::common::DataFusionError;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::value::json::JsonReader;
use hadoop_record_arrow::decode::{BatchDecoder, DecodeOptions};
use hadoop_record_datafusion::{Place, RecordError};

use crate::source::{ReadError, Source};
use crate::storage;
use hadoop_record_storage::StorageOptions;

/// JSON records of files read in turn.
pub(crate) struct JsonSource {
    files: std::vec::IntoIter<String>,
    storage: StorageOptions,
    schema: Arc<Schema>,
    id: RecordId,
    decoder: BatchDecoder,
    left: Option<usize>,
    current: Option<(String, JsonReader<Box<dyn Read + Send>>)>,
}

impl JsonSource {
    pub(crate) fn new(
        schema: Arc<Schema>,
        id: RecordId,
        files: Vec<String>,
        storage: StorageOptions,
        options: DecodeOptions,
        n_rows: Option<usize>,
    ) -> Result<Self, DataFusionError> {
        let decoder = BatchDecoder::new(schema.clone(), id, options)
            .map_err(|e| DataFusionError::External(Box::new(e)))?;
        Ok(JsonSource {
            files: files.into_iter(),
            storage,
            schema,
            id,
            decoder,
            left: n_rows,
            current: None,
        })
    }

    pub(crate) fn schema(&self) -> SchemaRef {
        self.decoder.schema()
    }
}

/// A bad record of `file`, worded as a scan's.
fn failed(file: &str, error: hadoop_record::Error) -> ReadError {
    ReadError::Scan(DataFusionError::External(Box::new(RecordError {
        file: file.to_owned(),
        place: Place::Stream,
        error,
    })))
}

impl Source for JsonSource {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        while !self.decoder.is_full() && self.left != Some(self.decoder.len()) {
            let (file, reader) = match &mut self.current {
                Some(current) => current,
                None => {
                    let Some(url) = self.files.next() else {
                        break;
                    };
                    let name = storage::display_name(&url).to_owned();
                    let file =
                        storage::open(&url, &self.storage).map_err(|e| failed(&name, e.into()))?;
                    self.current.insert((name, JsonReader::new(file)))
                }
            };
            match reader.read_value(&self.schema, self.id) {
                Ok(Some(value)) => self
                    .decoder
                    .decode_value(&value)
                    .map_err(|e| failed(file, e))?,
                Ok(None) => self.current = None,
                Err(e) => return Err(failed(file, e)),
            }
        }
        let batch = self
            .decoder
            .flush()
            .map_err(|e| ReadError::Scan(DataFusionError::External(Box::new(e))))?;
        if let (Some(left), Some(batch)) = (&mut self.left, &batch) {
            *left -= batch.num_rows().min(*left);
        }
        Ok(batch)
    }
}
