//! Hadoop binary records to and from Avro, value by value, without Arrow: the way of
//! `rcc convert --to avro` and `--from avro --to binary` when the file's schema is the
//! record type's own.
//!
//! The two encodings hold a record the same way (its fields in order, no tags), so each
//! value is re-encoded as it is read: Hadoop's zero-compressed integers to Avro's zig-zag
//! ones, big-endian floats to little-endian, a vector's count to an array's block. The
//! Arrow way ([`AvroWriter`](crate::AvroWriter), [`AvroReader`](crate::AvroReader)) builds
//! columns in between, which Avro's row encoding has no use for, and stays the way of what
//! needs it: schema resolution and maps.
//!
//! Written here as no crate does it: apache-avro and arrow-avro both decode into values
//! (a `Value` per field, or Arrow arrays) before encoding them again.

mod from_avro;
mod plan;
mod to_avro;

pub use from_avro::AvroRecordReader;
pub use to_avro::AvroRecordWriter;

use hadoop_record::schema::{RecordId, Schema as Hadoop};

use crate::error::{Error, Result};
use crate::schema::Schema;

/// The direct way between a DDL record type's Hadoop binary encoding and an Avro schema
/// that is the type's own, to the letter: the same fields in the same order and with the
/// same names, each of the Avro type `rcc -l avro` gives its DDL type (docs/avro.md).
///
/// Made by [`Transcoder::new`], which refuses (an [`Error::Schema`]) the types and schemas
/// only the Arrow way handles: a schema that needs Avro's resolution, maps (an Avro map's
/// entries come in any order, Hadoop's in Java's key order), recursive records, vectors of
/// records without fields.
#[derive(Debug, Clone)]
pub struct Transcoder {
    /// The schema as given: what a file's header holds.
    json: String,
    avro: Schema,
    plan: plan::Op,
}

impl Transcoder {
    /// The transcoder of record `id` of `schema` to and from the Avro schema
    /// `avro_schema_json`.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// use hadoop_record_avro::Transcoder;
    ///
    /// let mut schema = Schema::new();
    /// let fields = vec![FieldDef::new("b", FieldType::Byte), FieldDef::new("s", FieldType::String)];
    /// let id = schema.add(RecordType::new("m", "R", fields))?;
    /// let avsc = r#"{"type": "record", "name": "R", "namespace": "m", "fields": [
    ///     {"name": "b", "type": {"type": "int", "hadoop.type": "byte"}},
    ///     {"name": "s", "type": "string"}]}"#;
    /// assert!(Transcoder::new(avsc, &schema, id).is_ok());
    /// // Fields in another order need Avro's resolution: the Arrow way.
    /// let swapped = r#"{"type": "record", "name": "R", "fields": [
    ///     {"name": "s", "type": "string"}, {"name": "b", "type": "int"}]}"#;
    /// assert!(Transcoder::new(swapped, &schema, id).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(avro_schema_json: &str, schema: &Hadoop, id: RecordId) -> Result<Self> {
        let avro = Schema::parse(avro_schema_json)
            .map_err(|m| Error::Schema(format!("the Avro schema: {m}")))?;
        let name = schema
            .record(id)
            .map_or_else(|| format!("record {}", id.index()), |r| r.full_name());
        let plan = plan::plan(schema, id, &avro).ok_or_else(|| {
            Error::Schema(format!(
                "the Avro schema is not {name}'s own to the letter, or {name} holds a map, \
                 itself, or a vector of records without fields: read and write it through \
                 Arrow (AvroReader, AvroWriter)"
            ))
        })?;
        Ok(Transcoder {
            json: avro_schema_json.to_owned(),
            avro,
            plan,
        })
    }
}
