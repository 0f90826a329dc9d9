//! Encode back: [`RecordBatch`]es to records through any [`RecordOutput`], byte for byte
//! what the runtime writes for the same values.
//!
//! A [`BatchEncoder`] checks a batch's columns against the [mapping](crate::mapping)
//! (matched by name; see [`conform`](self) for the equivalent Arrow types it accepts) and
//! prepares it as [`Rows`], which write one record per row. What Hadoop cannot hold is an
//! error naming the record (row) and the column path, never a changed value: a null where
//! the type has none, a map whose keys are out of Hadoop's order or repeat, a wrong Arrow
//! type, a missing or unknown column.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Int32Array, RecordBatch, StringArray};
//! use arrow_schema::{DataType, Field, Schema as ArrowSchema};
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::{Format, RecordWriter};
//! use hadoop_record_arrow::{BatchEncoder, EncodeOptions};
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType {
//!     module: "m".into(),
//!     name: "P".into(),
//!     fields: vec![FieldDef::new("name", FieldType::String), FieldDef::new("n", FieldType::Int)],
//! })?;
//! // A batch from elsewhere: nullable columns, in another order.
//! let batch = RecordBatch::try_new(
//!     Arc::new(ArrowSchema::new(vec![
//!         Field::new("n", DataType::Int32, true),
//!         Field::new("name", DataType::Utf8, true),
//!     ])),
//!     vec![
//!         Arc::new(Int32Array::from(vec![Some(1), None])),
//!         Arc::new(StringArray::from(vec!["a", "b"])),
//!     ],
//! )?;
//! let mut encoder = BatchEncoder::new(Arc::new(schema), id, EncodeOptions::default())?;
//! let mut writer = RecordWriter::new(Vec::new(), Format::Csv);
//! let e = encoder.write_batch(&batch, &mut writer).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "record 1, in P.n: a null, which Hadoop's int cannot hold (Hadoop has no nulls)"
//! );
//! assert_eq!(writer.into_inner()?, b"'a,1\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod conform;
mod rows;

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{RecordOutput, RecordWriter, VisitOutput};

use crate::mapping::{arrow_schema, MappingOptions};
use crate::Error;
pub use rows::Rows;

hadoop_record::__options! {
    /// How a [`BatchEncoder`] encodes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct EncodeOptions {
        /// jute's nullable types: a null `ustring`, `buffer` or `vector` is written as a
        /// null (which only jute and CSV can hold); otherwise every null is an error.
        nullable / with_nullable: copy bool = false;
    }
}

/// Encodes record batches as records of one type.
#[derive(Debug)]
pub struct BatchEncoder {
    schema: Arc<Schema>,
    record: RecordId,
    type_name: Arc<str>,
    options: EncodeOptions,
    expected: SchemaRef,
}

impl BatchEncoder {
    /// An encoder of batches as records of type `record` of `schema`; an
    /// [`ErrorKind::Schema`](hadoop_record::ErrorKind::Schema) error when the schema has no
    /// record `record`.
    pub fn new(
        schema: Arc<Schema>,
        record: RecordId,
        options: EncodeOptions,
    ) -> Result<Self, hadoop_record::Error> {
        let expected = Arc::new(arrow_schema(
            &schema,
            record,
            MappingOptions::default().with_nullable(options.nullable),
        )?);
        Ok(BatchEncoder {
            type_name: crate::mapping::record_type(&schema, record)
                .name
                .as_str()
                .into(),
            schema,
            record,
            options,
            expected,
        })
    }

    /// The Arrow schema the mapping gives the record type: what batches are checked against.
    pub fn expected_schema(&self) -> SchemaRef {
        self.expected.clone()
    }

    /// Checks `batch` against the mapping and prepares its rows for writing. Errors name the
    /// column path (`P.tags`) and what is wrong with it.
    pub fn prepare(&self, batch: &RecordBatch) -> Result<Rows, Error> {
        Rows::new(
            self.schema.clone(),
            self.record,
            self.type_name.clone(),
            &self.expected,
            batch,
            self.options,
        )
        .map_err(|e| e.in_field(&self.type_name).into())
    }

    /// Writes every row of `batch` as a record. A row that cannot be written is an error
    /// naming it (the writer's record number) and the field path; the rows before it are
    /// written, nothing of it is.
    pub fn write_batch<W: Write>(
        &mut self,
        batch: &RecordBatch,
        writer: &mut RecordWriter<W>,
    ) -> Result<(), Error> {
        let rows = self.prepare(batch)?;
        for row in 0..rows.num_rows() {
            rows.write_to(row, writer)?;
        }
        Ok(())
    }
}

/// Writes one row through a [`RecordWriter`].
struct Visit<'a> {
    rows: &'a Rows,
    row: usize,
}

impl VisitOutput for Visit<'_> {
    fn visit<O: RecordOutput + ?Sized>(&mut self, out: &mut O) -> hadoop_record::Result<()> {
        self.rows.write_row(self.row, out)
    }
}
