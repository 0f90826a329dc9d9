//! [`JsonLinesWriter`]: one JSON object per row, as `rcc convert --to json` writes records.

use std::io::Write;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;

use super::{check, object, Encode};

/// Rows written as JSON lines in `rcc`'s dialect (see the [module](super) documentation):
/// `{"column": value, …}`, columns in their order, each row ending in a line feed.
pub struct JsonLinesWriter<W: Write> {
    out: W,
    schema: SchemaRef,
    /// The text of the batch being written: a batch is written whole or not at all.
    text: Vec<u8>,
}

impl<W: Write> JsonLinesWriter<W> {
    /// Starts writing rows of `schema` into `out`; a column JSON cannot hold is an error
    /// naming it, and nothing is written.
    pub fn new(out: W, schema: SchemaRef) -> Result<Self, String> {
        check(schema.fields())?;
        Ok(JsonLinesWriter {
            out,
            schema,
            text: Vec::new(),
        })
    }

    /// Writes the rows of `batch`, whose columns are the schema's.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        if batch.num_columns() != self.schema.fields().len() {
            return Err(format!(
                "a batch of {} columns where the result has {}",
                batch.num_columns(),
                self.schema.fields().len()
            ));
        }
        let row = object(self.schema.fields(), batch.columns(), None)?;
        self.text.clear();
        for i in 0..batch.num_rows() {
            row.encode(i, &mut self.text);
            self.text.push(b'\n');
        }
        self.out.write_all(&self.text).map_err(|e| e.to_string())
    }

    /// Ends the rows: the output, not flushed.
    pub fn finish(self) -> Result<W, String> {
        Ok(self.out)
    }
}
