//! [`BatchWriter`]: record batches as the bytes of a Parquet, CSV, JSON-lines (these two in
//! `rcc`'s JSON dialect, [`crate::dialect`]), Avro or records file.

use std::io::Write;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use hadoop_record_avro::{derived_schema, AvroCodec, AvroWriter};
use hadoop_record_cli::parquet_out::ParquetFile;

use crate::dialect::{FlatCsvWriter, JsonLinesWriter};

use super::records::RecordsWriter;
use super::spec::PartFormat;

/// Batches written as one file of a [`PartFormat`] into `W`.
///
/// ```
/// use std::sync::Arc;
/// use datafusion::arrow::array::{Int64Array, RecordBatch};
/// use hadoop_record_datafusion::write::{BatchWriter, PartFormat};
/// let batch = RecordBatch::try_from_iter([("n", Arc::new(Int64Array::from(vec![1, 2])) as _)])?;
/// # let dir = tempfile::tempdir()?;
/// let path = dir.path().join("n.csv");
/// let mut writer = BatchWriter::new(&PartFormat::Csv, std::fs::File::create(&path)?, batch.schema())?;
/// writer.write(&batch)?;
/// writer.finish()?;
/// assert_eq!(std::fs::read(&path)?, b"n\n1\n2\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub enum BatchWriter<W: Write + Send + 'static> {
    /// CSV with a header row, nested records as dotted columns, vectors and maps as JSON.
    Csv(FlatCsvWriter<W>),
    /// JSON lines, as `rcc convert --to json` writes records.
    Json(JsonLinesWriter<W>),
    /// A Parquet file.
    Parquet(ParquetFile<W>),
    /// Hadoop records.
    Records(Box<RecordsWriter>),
    /// An Avro container file.
    Avro(Box<AvroWriter<W>>),
}

impl<W: Write + Send + 'static> BatchWriter<W> {
    /// Starts a file of rows of `schema`: a column the format cannot hold is an error here,
    /// before anything is written.
    pub fn new(format: &PartFormat, out: W, schema: SchemaRef) -> Result<Self, String> {
        Ok(match format {
            PartFormat::Csv => BatchWriter::Csv(FlatCsvWriter::new(out, schema)?),
            PartFormat::Json => BatchWriter::Json(JsonLinesWriter::new(out, schema)?),
            PartFormat::Parquet(options) => {
                BatchWriter::Parquet(ParquetFile::new(out, &schema, options.properties()?))
            }
            PartFormat::Records(records) => {
                BatchWriter::Records(Box::new(RecordsWriter::new(records, out)?))
            }
            PartFormat::Avro { codec } => {
                let codec = codec
                    .parse::<AvroCodec>()
                    .map_err(|e| format!("--avro-codec: {e}"))?;
                let avsc = derived_schema(&schema).map_err(|e| e.to_string())?;
                let writer = AvroWriter::new(out, &avsc, schema, codec)
                    .map_err(|e| format!("cannot write Avro: {e}"))?;
                BatchWriter::Avro(Box::new(writer))
            }
        })
    }

    /// Writes the rows of `batch`.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let result = match self {
            BatchWriter::Csv(w) => w.write(batch),
            BatchWriter::Json(w) => w.write(batch),
            BatchWriter::Parquet(file) => file.write(batch),
            BatchWriter::Records(w) => w.write(batch),
            BatchWriter::Avro(w) => w.write(batch).map_err(|e| e.to_string()),
        };
        result.map_err(|e| format!("cannot write the result: {e}"))
    }

    /// Ends the file (Parquet's footer, a framing's last chunk) and flushes the output.
    pub fn finish(self) -> Result<(), String> {
        let failed = |e: String| format!("cannot write the result: {e}");
        let mut out = match self {
            BatchWriter::Csv(w) => w.finish().map_err(failed)?,
            BatchWriter::Json(w) => w.finish().map_err(failed)?,
            BatchWriter::Parquet(file) => file.finish().map_err(failed)?,
            BatchWriter::Records(w) => return w.finish().map_err(failed),
            BatchWriter::Avro(w) => w.finish().map_err(|e| failed(e.to_string()))?,
        };
        out.flush().map_err(|e| failed(e.to_string()))
    }
}
