//! The schema-driven skipper: steps over a value the projection leaves out without decoding
//! it into anything. Binary encodings step over string and buffer bytes without checking or
//! copying them ([`RecordInput::skip_string`]); text encodings skip as they must, by reading.

use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::{RecordInput, Result};

/// Steps over one value of type `ty` written under `tag`. Nulls (jute's) are accepted
/// wherever a `ustring`, `buffer` or `vector` stands.
pub(crate) fn skip<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    ty: &FieldType,
    tag: &str,
) -> Result<()> {
    match ty {
        FieldType::Byte => input.read_byte(tag).map(drop),
        FieldType::Bool => input.read_bool(tag).map(drop),
        FieldType::Int => input.read_int(tag).map(drop),
        FieldType::Long => input.read_long(tag).map(drop),
        FieldType::Float => input.read_float(tag).map(drop),
        FieldType::Double => input.read_double(tag).map(drop),
        FieldType::String => input.skip_string(tag),
        FieldType::Buffer => input.skip_buffer(tag),
        FieldType::Vector(element) => {
            let Some(mut index) = input.start_nullable_vector(tag)? else {
                return Ok(());
            };
            let mut i = 0;
            while input.next_element(&mut index)? {
                skip(input, schema, element, tag).map_err(|e| e.in_index(i))?;
                i += 1;
            }
            input.end_vector(tag)
        }
        FieldType::Map(k, v) => {
            let mut index = input.start_map(tag)?;
            let mut i = 0;
            while input.next_element(&mut index)? {
                skip(input, schema, k, tag)
                    .and_then(|()| skip(input, schema, v, tag))
                    .map_err(|e| e.in_index(i))?;
                i += 1;
            }
            input.end_map(tag)
        }
        FieldType::Record(id) => {
            input.start_record(tag)?;
            for f in &crate::mapping::record_type(schema, *id).fields {
                skip(input, schema, &f.ty, &f.name).map_err(|e| e.in_field(&f.name))?;
            }
            input.end_record(tag)
        }
    }
}
