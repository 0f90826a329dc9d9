//! [`BatchWriter`]: record batches as the bytes of a Parquet, CSV or JSON-lines file.

use std::io::Write;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::arrow::error::ArrowError;
use datafusion::parquet::arrow::ArrowWriter;

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
    /// CSV with a header row.
    Csv(datafusion::arrow::csv::Writer<W>),
    /// JSON lines.
    Json(datafusion::arrow::json::LineDelimitedWriter<W>),
    /// The file's schema (strings as `Utf8`) and its writer.
    Parquet(SchemaRef, ArrowWriter<W>),
    /// Hadoop records.
    Records(Box<RecordsWriter>),
}

impl<W: Write + Send + 'static> BatchWriter<W> {
    /// Starts a file of rows of `schema`.
    pub fn new(format: &PartFormat, out: W, schema: SchemaRef) -> Result<Self, String> {
        Ok(match format {
            PartFormat::Csv => BatchWriter::Csv(
                datafusion::arrow::csv::WriterBuilder::new()
                    .with_header(true)
                    .build(out),
            ),
            PartFormat::Json => {
                BatchWriter::Json(datafusion::arrow::json::LineDelimitedWriter::new(out))
            }
            PartFormat::Parquet => {
                let schema = plain_strings(&schema);
                let writer = ArrowWriter::try_new(out, schema.clone(), None)
                    .map_err(|e| format!("cannot write Parquet: {e}"))?;
                BatchWriter::Parquet(schema, writer)
            }
            PartFormat::Records(records) => {
                BatchWriter::Records(Box::new(RecordsWriter::new(records, out)?))
            }
        })
    }

    /// Writes the rows of `batch`.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let result = match self {
            BatchWriter::Csv(w) => w.write(batch).map_err(|e| e.to_string()),
            BatchWriter::Json(w) => w.write(batch).map_err(|e| e.to_string()),
            BatchWriter::Parquet(schema, w) => cast_to(schema, batch)
                .and_then(|batch| w.write(&batch).map_err(ArrowError::from))
                .map_err(|e| e.to_string()),
            BatchWriter::Records(w) => w.write(batch),
        };
        result.map_err(|e| format!("cannot write the result: {e}"))
    }

    /// Ends the file (Parquet's footer, a framing's last chunk) and flushes the output.
    pub fn finish(self) -> Result<(), String> {
        let failed = |e: String| format!("cannot write the result: {e}");
        let mut out = match self {
            BatchWriter::Csv(w) => w.into_inner(),
            BatchWriter::Json(mut w) => {
                w.finish().map_err(|e| failed(e.to_string()))?;
                w.into_inner()
            }
            BatchWriter::Parquet(_, w) => w.into_inner().map_err(|e| failed(e.to_string()))?,
            BatchWriter::Records(w) => return w.finish().map_err(failed),
        };
        out.flush().map_err(|e| failed(e.to_string()))
    }
}

/// `schema` with its string views (`Utf8View`, how record tables hold strings) as `Utf8`,
/// also inside lists and structs: a Parquet file then declares plain strings, which every
/// reader takes, whatever the engine held them as.
fn plain_strings(schema: &SchemaRef) -> SchemaRef {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| f.as_ref().clone().with_data_type(plain(f.data_type())))
        .collect();
    Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
}

fn plain(ty: &DataType) -> DataType {
    let field = |f: &Field| Arc::new(f.clone().with_data_type(plain(f.data_type())));
    match ty {
        DataType::Utf8View => DataType::Utf8,
        DataType::List(item) => DataType::List(field(item)),
        DataType::LargeList(item) => DataType::LargeList(field(item)),
        DataType::Struct(fields) => DataType::Struct(fields.iter().map(|f| field(f)).collect()),
        DataType::Map(entries, sorted) => DataType::Map(field(entries), *sorted),
        other => other.clone(),
    }
}

/// `batch` with its columns cast to `schema`'s types where they differ.
fn cast_to(schema: &SchemaRef, batch: &RecordBatch) -> Result<RecordBatch, ArrowError> {
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(column, field)| {
            if column.data_type() == field.data_type() {
                Ok(column.clone())
            } else {
                cast(column, field.data_type())
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema.clone(), columns)
}
