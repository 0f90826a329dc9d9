//! Recursive record references held as bytes (see [`crate::mapping`]): one record in
//! Hadoop's binary encoding, or jute's when nulls must be held, written and read by the
//! runtime's schema-driven codec.

use hadoop_record::archive::jute::JuteOptions;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::{value, Error, ErrorKind, Format, RecordReader, RecordWriter, Result, Value};

/// The bytes of `value`, a record of type `id`, in `format`.
pub(crate) fn write(
    schema: &Schema,
    id: RecordId,
    value: &Value,
    format: Format,
) -> Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer.write_value(schema, id, value)?;
    Ok(writer.into_inner()?)
}

/// The record of type `ty` (a record type) that `bytes` hold in `format`: exactly one.
pub(crate) fn read(schema: &Schema, ty: &FieldType, bytes: &[u8], format: Format) -> Result<Value> {
    let FieldType::Record(id) = ty else {
        return Err(Error::new(ErrorKind::Schema, "not a record type"));
    };
    // The bytes were written from a record already read: no limit but the format's own.
    let mut reader = RecordReader::from_slice(bytes, format)
        .with_jute_options(JuteOptions::default().with_max_buffer(i32::MAX));
    let value = reader.read_value(schema, *id)?;
    let trailing = !reader.at_end()?;
    match value {
        Some(value) if !trailing => Ok(value),
        _ => Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "the {format} bytes of a recursive {} hold {} record",
                crate::mapping::record_type(schema, *id).full_name(),
                if trailing { "more than one" } else { "no" }
            ),
        )),
    }
}

/// Writes the record `bytes` hold (of type `ty`, in `format`) to `out` under `tag`.
pub(crate) fn transcode<O: hadoop_record::RecordOutput + ?Sized>(
    schema: &Schema,
    ty: &FieldType,
    bytes: &[u8],
    format: Format,
    out: &mut O,
    tag: &str,
) -> Result<()> {
    let record = read(schema, ty, bytes, format).map_err(|e| {
        Error::new(
            e.kind(),
            format!("the bytes of this recursive record do not read back: {e}"),
        )
    })?;
    value::write_value(out, schema, ty, &record, tag)
}
