//! [`ParquetFile`], and [`ParquetOptions::properties`]: the writer the options make.

use std::io::Write;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;

use super::{dictionary, ParquetOptions};

impl ParquetOptions {
    /// The writer's properties; an unknown compression is an error naming the known ones
    /// (the caller says where it was given).
    ///
    /// ```
    /// use hadoop_record_cli::parquet_out::ParquetOptions;
    /// let options = ParquetOptions { parquet_compression: Some("snappy".into()), ..Default::default() };
    /// assert!(options.properties().is_ok());
    /// let wrong = ParquetOptions { parquet_compression: Some("brotli".into()), ..Default::default() };
    /// assert!(wrong.properties().unwrap_err().contains("unknown compression `brotli`"));
    /// let leveled = ParquetOptions { parquet_compression: Some("zstd(9)".into()), ..Default::default() };
    /// let compression = leveled.properties()?.compression(&parquet::schema::types::ColumnPath::from("n"));
    /// assert_eq!(format!("{compression:?}"), "ZSTD(ZstdLevel(9))");
    /// # Ok::<(), String>(())
    /// ```
    pub fn properties(&self) -> Result<WriterProperties, String> {
        let compression = match self.parquet_compression.as_deref().unwrap_or("zstd") {
            "none" | "uncompressed" => Compression::UNCOMPRESSED,
            "snappy" => Compression::SNAPPY,
            "gzip" => Compression::GZIP(GzipLevel::default()),
            "lz4" => Compression::LZ4_RAW,
            "zstd" => Compression::ZSTD(ZstdLevel::default()),
            // A level, as DataFusion's and Spark's options spell it: `zstd(3)`, `gzip(9)`.
            leveled if leveled.starts_with("zstd(") || leveled.starts_with("gzip(") => leveled
                .parse()
                .map_err(|e| format!("compression `{leveled}`: {e}"))?,
            other => {
                return Err(format!(
                    "unknown compression `{other}` (expected none, \
                     snappy, gzip, lz4 or zstd, or with a level gzip(N) or zstd(N))"
                ))
            }
        };
        let mut builder = WriterProperties::builder()
            .set_compression(compression)
            .set_created_by(format!("rcc (hadoop-record) {}", env!("CARGO_PKG_VERSION")));
        if let Some(rows) = self.row_group_size {
            builder = builder.set_max_row_group_row_count(Some(rows as usize));
        }
        Ok(builder.build())
    }
}

/// A Parquet file being written: its writer is made at the first batch, whose values
/// decide which columns are dictionary-encoded (`dictionary`).
pub struct ParquetFile<W: Write + Send> {
    /// The file's schema (strings as `Utf8`).
    schema: SchemaRef,
    /// The writer's properties, until it is made.
    properties: Option<WriterProperties>,
    /// The output, until the writer is made.
    out: Option<W>,
    writer: Option<ArrowWriter<W>>,
}

impl<W: Write + Send> ParquetFile<W> {
    /// A file of rows of `schema` (its string views written as plain strings) into `out`.
    pub fn new(out: W, schema: &SchemaRef, properties: WriterProperties) -> Self {
        ParquetFile {
            schema: plain_strings(schema),
            properties: Some(properties),
            out: Some(out),
            writer: None,
        }
    }

    /// Writes the rows of `batch`.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let batch = cast_to(&self.schema, batch).map_err(|e| e.to_string())?;
        let writer = self.writer(Some(&batch))?;
        writer.write(&batch).map_err(|e| e.to_string())
    }

    /// The writer, made now if it is not yet, with the columns' dictionaries chosen on
    /// `first` (a file without rows: the writer's defaults).
    fn writer(&mut self, first: Option<&RecordBatch>) -> Result<&mut ArrowWriter<W>, String> {
        if let (Some(properties), Some(out)) = (self.properties.take(), self.out.take()) {
            let properties = match first {
                Some(batch) => dictionary::choose(properties.into_builder(), batch).build(),
                None => properties,
            };
            let writer = ArrowWriter::try_new(out, self.schema.clone(), Some(properties))
                .map_err(|e| format!("cannot write Parquet: {e}"))?;
            self.writer = Some(writer);
        }
        self.writer
            .as_mut()
            .ok_or_else(|| "the Parquet writer failed before".to_owned())
    }

    /// Writes the footer; the output.
    pub fn finish(mut self) -> Result<W, String> {
        self.writer(None)?;
        let writer = self
            .writer
            .take()
            .ok_or("the Parquet writer failed before")?;
        writer.into_inner().map_err(|e| e.to_string())
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

/// `batch` with its columns cast to `schema`'s types where the Parquet writer needs it: a
/// top-level string view goes in as it is (the writer encodes views and plain strings
/// alike; copying every string into a plain array would be work for nothing), views inside
/// lists and structs are cast.
fn cast_to(schema: &SchemaRef, batch: &RecordBatch) -> Result<RecordBatch, ArrowError> {
    let as_is = |have: &DataType, want: &DataType| {
        have == want || matches!((have, want), (DataType::Utf8View, DataType::Utf8))
    };
    let fields = schema.fields();
    let columns = batch.columns();
    if columns
        .iter()
        .zip(fields)
        .all(|(c, f)| as_is(c.data_type(), f.data_type()))
    {
        return Ok(batch.clone());
    }
    let columns = columns
        .iter()
        .zip(fields)
        .map(
            |(column, field)| match as_is(column.data_type(), field.data_type()) {
                true => Ok(column.clone()),
                false => arrow_cast::cast(column, field.data_type()),
            },
        )
        .collect::<Result<Vec<ArrayRef>, _>>()?;
    let fields: Vec<Field> = fields
        .iter()
        .zip(&columns)
        .map(|(f, c)| f.as_ref().clone().with_data_type(c.data_type().clone()))
        .collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
}
