//! Writing an Avro Object Container File from record batches of the Hadoop mapping.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_avro::schema::SCHEMA_METADATA_KEY;
use arrow_avro::writer::format::AvroBinaryFormat;
use arrow_avro::writer::{Encoder, WriterBuilder};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef};

use crate::blocks::Blocks;
use crate::codec::AvroCodec;
use crate::container;
use crate::error::{Error, Result};
use crate::schema::Schema;
use crate::shape::{encoded_field, to_encoded};

/// About this many bytes of records (before compression) go into one block. Java's writers
/// flush a block at 64,000 bytes by default; larger blocks compress better, and readers that
/// split files (Hadoop's input formats) still find a sync marker every quarter megabyte.
pub(crate) const BLOCK_BYTES: usize = 256 * 1024;

/// Writes record batches as an Avro Object Container File whose schema is the `.avsc`
/// `rcc -l avro` writes for the record type (byte for byte, so Avro readers see its
/// `hadoop.type` marks and docs). Batches are in the Hadoop mapping of `hadoop-record-arrow`
/// (`byte` as `Int8`, maps as `Map`s in Hadoop's key order, …).
///
/// Nothing is written until [`new`](AvroWriter::new) has checked the schemas; the header is
/// written then, each [`write`](AvroWriter::write) adds blocks, and the file is whole once
/// [`finish`](AvroWriter::finish) returned `Ok`.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Int32Array, RecordBatch};
/// use arrow_schema::{DataType, Field, Schema};
/// use hadoop_record_avro::{AvroCodec, AvroReader, AvroWriter};
///
/// let avsc = r#"{"type": "record", "name": "P", "namespace": "m",
///                "fields": [{"name": "x", "type": "int"}]}"#;
/// let arrow = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, false)]));
/// let batch = RecordBatch::try_new(arrow.clone(), vec![Arc::new(Int32Array::from(vec![1, 2]))])?;
///
/// let mut writer = AvroWriter::new(Vec::new(), avsc, arrow.clone(), AvroCodec::Deflate)?;
/// writer.write(&batch)?;
/// let file = writer.finish()?;
///
/// let batches: Vec<_> = AvroReader::new(&file[..], arrow, 1024)?.collect::<Result<_, _>>()?;
/// assert_eq!(batches, [batch]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AvroWriter<W: Write> {
    blocks: Blocks<W>,
    /// The batches' schema, as given.
    arrow: SchemaRef,
    /// The schema arrow-avro encodes from (maps Avro holds as arrays are lists there).
    encoded: SchemaRef,
    encoder: Encoder,
}

impl<W: Write> AvroWriter<W> {
    /// A writer of the file `out` with the Avro schema `avro_schema_json` (written into the
    /// file as it is) for batches of `arrow_schema` (the mapping's Arrow schema of the same
    /// record type), blocks compressed with `codec`. Writes the file's header.
    ///
    /// An [`Error::Schema`] when the Avro schema is not a record schema that holds the
    /// batches' columns (by name, in Avro's types for the mapping's; see docs/avro.md), or
    /// the record type holds itself (Arrow has no recursive types).
    pub fn new(
        mut out: W,
        avro_schema_json: &str,
        arrow_schema: SchemaRef,
        codec: AvroCodec,
    ) -> Result<Self> {
        codec.check_built().map_err(Error::Schema)?;
        let avro = Schema::parse(avro_schema_json)
            .map_err(|m| Error::Schema(format!("the Avro schema: {m}")))?;
        refuse_recursive(&arrow_schema)?;
        let Some(avro_fields) = avro.root_fields() else {
            return Err(Error::Schema(format!(
                "the Avro schema is of type `{}`, not a record",
                avro.describe(&avro.root)
            )));
        };
        let fields: Vec<Field> = arrow_schema
            .fields()
            .iter()
            .map(|f| match avro_fields.iter().find(|a| a.name == *f.name()) {
                Some(a) => encoded_field(&avro, &a.ty, f),
                None => f.as_ref().clone(),
            })
            .collect();
        let metadata =
            HashMap::from([(SCHEMA_METADATA_KEY.to_owned(), avro_schema_json.to_owned())]);
        let encoded = Arc::new(ArrowSchema::new_with_metadata(fields, metadata));
        let encoder = WriterBuilder::new(encoded.as_ref().clone())
            .build_encoder::<AvroBinaryFormat>()
            .map_err(|e| {
                Error::Schema(format!(
                    "the Avro schema does not hold the record type's columns: {e}"
                ))
            })?;
        let encoded = encoder.schema();
        let sync = new_sync()?;
        out.write_all(&container::header(avro_schema_json, codec, &sync))?;
        Ok(AvroWriter {
            blocks: Blocks::new(out, codec, sync),
            arrow: arrow_schema,
            encoded,
            encoder,
        })
    }

    /// Writes the records of `batch` (of the schema the writer was made for) as blocks.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let same = batch.schema().fields().len() == self.arrow.fields().len()
            && batch
                .schema()
                .fields()
                .iter()
                .zip(self.arrow.fields())
                .all(|(a, b)| a.name() == b.name() && a.data_type() == b.data_type());
        if !same {
            return Err(Error::Schema(format!(
                "the batch's columns are not those the writer was made for: {:?}, not {:?}",
                batch.schema().fields(),
                self.arrow.fields()
            )));
        }
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let columns = batch
            .columns()
            .iter()
            .zip(self.encoded.fields())
            .map(|(c, f)| to_encoded(c, f))
            .collect::<Result<Vec<ArrayRef>>>()?;
        let encoded = RecordBatch::try_new(self.encoded.clone(), columns)?;
        self.encoder.encode(&encoded)?;
        let rows = self.encoder.flush();
        let offsets = rows.offsets();
        let data = rows.bytes();
        let mut first = 0;
        while first + 1 < offsets.len() {
            let start = offsets[first];
            let mut last = first + 1;
            while last + 1 < offsets.len() && offsets[last + 1] - start <= BLOCK_BYTES {
                last += 1;
            }
            self.blocks
                .push(last - first, &data[start..offsets[last]])?;
            first = last;
        }
        Ok(())
    }

    /// Flushes the file and returns the output; the file is whole (and only then).
    pub fn finish(self) -> Result<W> {
        self.blocks.finish()
    }
}

/// A new file's sync marker: random, as Avro's writers make it.
pub(crate) fn new_sync() -> Result<[u8; 16]> {
    let mut sync = [0u8; 16];
    getrandom::fill(&mut sync)
        .map_err(|e| Error::Io(std::io::Error::other(format!("no sync marker: {e}"))))?;
    Ok(sync)
}

/// Refuses an Arrow schema holding recursive records (the mapping's `Binary` cut): Avro
/// holds them as records that refer to themselves, which arrow-avro cannot encode or decode.
pub(crate) fn refuse_recursive(arrow: &ArrowSchema) -> Result<()> {
    fn find(field: &Field, path: &str) -> Option<String> {
        let path = format!("{path}.{}", field.name());
        if hadoop_record_arrow::mapping::recursive_encoding(field).is_some() {
            return Some(path);
        }
        match field.data_type() {
            DataType::List(item) => find(item, &path),
            DataType::Map(entries, _) => find(entries, &path),
            DataType::Struct(fields) => fields.iter().find_map(|f| find(f, &path)),
            _ => None,
        }
    }
    let record = arrow
        .metadata()
        .get(hadoop_record_arrow::mapping::RECORD_KEY)
        .map_or("the record", String::as_str);
    match arrow.fields().iter().find_map(|f| find(f, record)) {
        Some(path) => Err(Error::Schema(format!(
            "{path} holds a record inside itself (a recursive record type), which Avro \
             container files of this crate cannot hold (Arrow has no recursive types)"
        ))),
        None => Ok(()),
    }
}
