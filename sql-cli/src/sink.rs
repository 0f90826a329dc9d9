//! `rcc-sql`'s sink for a result printed or written to a local file: a table for people,
//! or the bytes of a CSV, JSON-lines, Parquet or records file
//! (`hadoop_record_datafusion::write::BatchWriter`).

use std::io::Write;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use hadoop_record_datafusion::write::{BatchWriter, PartFormat};

/// Where the result goes.
pub(crate) enum Sink<W: Write + Send + 'static> {
    /// The batches so far, and the result's schema: an empty result is its header.
    Table(W, Vec<RecordBatch>, SchemaRef),
    File(Box<BatchWriter<W>>),
}

impl<W: Write + Send + 'static> Sink<W> {
    /// A table (`format` `None`) or a file of `format`.
    pub(crate) fn new(
        format: Option<&PartFormat>,
        out: W,
        schema: SchemaRef,
    ) -> Result<Self, String> {
        Ok(match format {
            None => Sink::Table(out, Vec::new(), schema),
            Some(format) => Sink::File(Box::new(BatchWriter::new(format, out, schema)?)),
        })
    }

    pub(crate) fn write(&mut self, batch: RecordBatch) -> Result<(), String> {
        match self {
            Sink::Table(_, batches, _) => {
                batches.push(batch);
                Ok(())
            }
            Sink::File(writer) => writer.write(&batch),
        }
    }

    pub(crate) fn finish(self) -> Result<(), String> {
        let failed = |e: String| format!("cannot write the result: {e}");
        match self {
            Sink::Table(mut out, mut batches, schema) => {
                // No rows still has columns, which the table's header shows.
                if batches.iter().all(|batch| batch.num_rows() == 0) {
                    batches = vec![RecordBatch::new_empty(schema)];
                }
                let table = datafusion::arrow::util::pretty::pretty_format_batches(&batches)
                    .map_err(|e| failed(e.to_string()))?;
                writeln!(out, "{table}").map_err(|e| failed(e.to_string()))?;
                out.flush().map_err(|e| failed(e.to_string()))
            }
            Sink::File(writer) => (*writer).finish().map(drop),
        }
    }
}
