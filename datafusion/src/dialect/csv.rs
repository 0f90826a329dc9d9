//! [`FlatCsvWriter`]: CSV with a header row, nested records flattened into dotted columns,
//! vectors and maps as JSON cells.

use std::io::Write;
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, RecordBatch, RecordBatchOptions, StringBuilder,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::compute::nullif;
use datafusion::arrow::csv::{Writer, WriterBuilder};
use datafusion::arrow::datatypes::{DataType, Field, Fields, Schema, SchemaRef};
use hadoop_record_arrow::mapping::recursive_encoding;

use super::{check, encoder};

/// Rows written as CSV with a header row: a nested record's fields are columns of their
/// own, named by their path (`origin.city`), as far down as records go; vectors, maps and
/// anything else nested are one cell each, holding their JSON text in `rcc`'s dialect (see
/// the [module](super) documentation). Other values are written as Arrow's CSV writer
/// writes them. An empty result is its header row.
///
/// ```
/// use std::sync::Arc;
/// use datafusion::arrow::array::{ArrayRef, Int32Array, ListArray, RecordBatch, StringArray, StructArray};
/// use datafusion::arrow::datatypes::{DataType, Field, Int32Type};
/// use hadoop_record_datafusion::dialect::FlatCsvWriter;
/// let origin = StructArray::from(vec![(
///     Arc::new(Field::new("city", DataType::Utf8, false)),
///     Arc::new(StringArray::from(vec!["Lima, Peru"])) as ArrayRef,
/// )]);
/// let tags = ListArray::from_iter_primitive::<Int32Type, _, _>([Some(vec![Some(1), Some(2)])]);
/// let batch = RecordBatch::try_from_iter([
///     ("origin", Arc::new(origin) as ArrayRef),
///     ("tags", Arc::new(tags) as _),
/// ])?;
/// let mut writer = FlatCsvWriter::new(Vec::new(), batch.schema())?;
/// writer.write(&batch)?;
/// assert_eq!(writer.finish()?, b"origin.city,tags\n\"Lima, Peru\",\"[1, 2]\"\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FlatCsvWriter<W: Write> {
    csv: Writer<W>,
    columns: Vec<Column>,
    /// The columns written: flat, dotted names, JSON cells as strings.
    flat: SchemaRef,
    /// Whether the header row is written.
    started: bool,
}

/// A column of the CSV file: a field of the result's columns, at the end of a path through
/// records.
struct Column {
    /// The result's column, then the field of each record below it.
    path: Vec<usize>,
    /// The field at the end of the path.
    field: Field,
    /// Written as JSON text; otherwise, as Arrow's CSV writer writes it.
    json: bool,
}

impl<W: Write> FlatCsvWriter<W> {
    /// Starts writing rows of `schema` into `out`; a value that cannot be written is an
    /// error naming its column, and nothing is written.
    pub fn new(out: W, schema: SchemaRef) -> Result<Self, String> {
        let mut columns = Vec::new();
        let mut flat = Vec::new();
        flatten(
            schema.fields(),
            &mut Vec::new(),
            "",
            &mut columns,
            &mut flat,
        );
        let cells: Fields = columns
            .iter()
            .zip(&flat)
            .filter(|(column, _)| column.json)
            .map(|(column, named)| column.field.clone().with_name(named.name()))
            .collect();
        check(&cells)?;
        Ok(FlatCsvWriter {
            csv: WriterBuilder::new().with_header(true).build(out),
            columns,
            flat: Arc::new(Schema::new(flat)),
            started: false,
        })
    }

    /// Writes the rows of `batch`, whose columns are the schema's.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let arrays = self
            .columns
            .iter()
            .zip(self.flat.fields())
            .map(|(column, flat)| column.cells(batch, flat.name()))
            .collect::<Result<Vec<_>, String>>()?;
        let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
        let flat = RecordBatch::try_new_with_options(self.flat.clone(), arrays, &options)
            .map_err(|e| e.to_string())?;
        self.csv.write(&flat).map_err(|e| e.to_string())?;
        self.started = true;
        Ok(())
    }

    /// Ends the file (the header row, if no batch came): the output, not flushed.
    pub fn finish(mut self) -> Result<W, String> {
        if !self.started {
            let empty = RecordBatch::new_empty(self.flat.clone());
            self.csv.write(&empty).map_err(|e| e.to_string())?;
        }
        Ok(self.csv.into_inner())
    }
}

/// Appends the CSV columns of `fields` (found at `path`, named under `prefix`) to `columns`,
/// and their flat fields to `flat`.
fn flatten(
    fields: &Fields,
    path: &mut Vec<usize>,
    prefix: &str,
    columns: &mut Vec<Column>,
    flat: &mut Vec<Field>,
) {
    for (i, field) in fields.iter().enumerate() {
        path.push(i);
        let name = format!("{prefix}{}", field.name());
        match field.data_type() {
            DataType::Struct(inner) if !inner.is_empty() => {
                flatten(inner, path, &format!("{name}."), columns, flat);
            }
            ty => {
                // A recursive record's bytes go through the JSON encoder, which refuses
                // them as it does in JSON output.
                let json = ty.is_nested() || recursive_encoding(field).is_some();
                let flat_type = if json { DataType::Utf8 } else { ty.clone() };
                flat.push(Field::new(name, flat_type, true));
                columns.push(Column {
                    path: path.clone(),
                    field: field.as_ref().clone(),
                    json,
                });
            }
        }
        path.pop();
    }
}

impl Column {
    /// The cells of this column in `batch`: null where the value or a record above it is.
    fn cells(&self, batch: &RecordBatch, name: &str) -> Result<ArrayRef, String> {
        let mut array = batch
            .columns()
            .get(self.path[0])
            .ok_or_else(|| format!("a batch without column {name}"))?
            .clone();
        let mut above: Option<NullBuffer> = None;
        for &i in &self.path[1..] {
            let record = array
                .as_struct_opt()
                .ok_or_else(|| format!("{name}: a batch whose column is not a record"))?;
            above = NullBuffer::union(above.as_ref(), record.nulls());
            array = record.column(i).clone();
        }
        if self.json {
            let values = encoder(&self.field, &array, name)?;
            let mut cells = StringBuilder::new();
            let mut text = Vec::new();
            for i in 0..array.len() {
                if above.as_ref().is_some_and(|n| n.is_null(i)) || array.is_null(i) {
                    cells.append_null();
                } else {
                    text.clear();
                    values.encode(i, &mut text);
                    let text = std::str::from_utf8(&text).map_err(|e| format!("{name}: {e}"))?;
                    cells.append_value(text);
                }
            }
            Ok(Arc::new(cells.finish()))
        } else {
            match above {
                Some(nulls) if nulls.null_count() > 0 => {
                    let masked = BooleanArray::new(!nulls.inner(), None);
                    nullif(&array, &masked).map_err(|e| format!("{name}: {e}"))
                }
                _ => Ok(array),
            }
        }
    }
}
