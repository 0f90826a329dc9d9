//! `rcc-sql`'s sink: where a query's result goes (a table for people, CSV, JSON lines or a
//! Parquet file).

use std::io::Write;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::arrow::error::ArrowError;
use datafusion::parquet::arrow::ArrowWriter;

use super::OutFormat;

/// Where the result goes.
pub(crate) enum Sink<W: Write + Send> {
    Table(W, Vec<RecordBatch>),
    Csv(datafusion::arrow::csv::Writer<W>),
    Json(datafusion::arrow::json::LineDelimitedWriter<W>),
    /// The file's schema (strings as `Utf8`) and its writer.
    Parquet(SchemaRef, ArrowWriter<W>),
}

impl<W: Write + Send> Sink<W> {
    pub(crate) fn new(to: OutFormat, out: W, schema: SchemaRef) -> Result<Self, String> {
        Ok(match to {
            OutFormat::Table => Sink::Table(out, Vec::new()),
            OutFormat::Csv => Sink::Csv(
                datafusion::arrow::csv::WriterBuilder::new()
                    .with_header(true)
                    .build(out),
            ),
            OutFormat::Json => Sink::Json(datafusion::arrow::json::LineDelimitedWriter::new(out)),
            OutFormat::Parquet => {
                let schema = plain_strings(&schema);
                let writer = ArrowWriter::try_new(out, schema.clone(), None)
                    .map_err(|e| format!("cannot write Parquet: {e}"))?;
                Sink::Parquet(schema, writer)
            }
        })
    }

    pub(crate) fn write(&mut self, batch: RecordBatch) -> Result<(), String> {
        let result = match self {
            Sink::Table(_, batches) => {
                batches.push(batch);
                Ok(())
            }
            Sink::Csv(w) => w.write(&batch).map_err(|e| e.to_string()),
            Sink::Json(w) => w.write(&batch).map_err(|e| e.to_string()),
            Sink::Parquet(schema, w) => cast_to(schema, &batch)
                .and_then(|batch| w.write(&batch).map_err(ArrowError::from))
                .map_err(|e| e.to_string()),
        };
        result.map_err(|e| format!("cannot write the result: {e}"))
    }

    pub(crate) fn finish(self) -> Result<(), String> {
        let failed = |e: String| format!("cannot write the result: {e}");
        let mut out = match self {
            Sink::Table(mut out, batches) => {
                let table = datafusion::arrow::util::pretty::pretty_format_batches(&batches)
                    .map_err(|e| failed(e.to_string()))?;
                writeln!(out, "{table}").map_err(|e| failed(e.to_string()))?;
                out
            }
            Sink::Csv(w) => w.into_inner(),
            Sink::Json(mut w) => {
                w.finish().map_err(|e| failed(e.to_string()))?;
                w.into_inner()
            }
            Sink::Parquet(_, w) => w.into_inner().map_err(|e| failed(e.to_string()))?,
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
