//! [`RecordTypeInfo`] as a [`Record`]: written and read exactly as Hadoop's
//! `RecordTypeInfo.serialize`/`read_from` do — every value under the one tag the record is
//! written with (so in XML every member is named by it), the top-level struct's fields
//! without a type byte, nested ones with theirs.

use std::cmp::Ordering;

use super::{FieldTypeInfo, RecordTypeInfo, TypeDesc};
use crate::archive::{Depth, RecordInput, RecordOutput};
use crate::error::{Error, ErrorKind, Result};
use crate::schema::{FieldDef, FieldType, RecordId, SchemaBuilder};
use crate::Record;

fn write_fields<O: RecordOutput + ?Sized>(
    fields: &[FieldTypeInfo],
    out: &mut O,
    tag: &str,
) -> Result<()> {
    let n = i32::try_from(fields.len()).map_err(|_| {
        Error::new(
            ErrorKind::Limit,
            "more than 2^31 fields in type information",
        )
    })?;
    out.write_int(n, tag)?;
    for field in fields {
        out.write_string(&field.name, tag)?;
        write_type(&field.type_id, out, tag)?;
    }
    Ok(())
}

fn write_type<O: RecordOutput + ?Sized>(ty: &TypeDesc, out: &mut O, tag: &str) -> Result<()> {
    out.write_byte(ty.type_val(), tag)?;
    match ty {
        TypeDesc::Vector(element) => write_type(element, out, tag),
        TypeDesc::Map(key, value) => {
            write_type(key, out, tag)?;
            write_type(value, out, tag)
        }
        TypeDesc::Struct(fields) => write_fields(fields, out, tag),
        _ => Ok(()),
    }
}

/// Reads a field list. The count comes from the input, so nothing is reserved for it: each
/// field needs bytes of its own, and the input ends (an error) long before a hostile count.
fn read_fields<I: RecordInput + ?Sized>(
    input: &mut I,
    tag: &str,
    depth: &mut Depth,
) -> Result<Vec<FieldTypeInfo>> {
    let count = input.read_int(tag)?;
    let mut fields = Vec::new();
    for i in 0..count.max(0) {
        let name = input.read_string(tag).map_err(|e| e.in_index(i as u64))?;
        let type_id = read_type(input, tag, depth).map_err(|e| e.in_field(&name))?;
        fields.push(FieldTypeInfo { name, type_id });
    }
    Ok(fields)
}

/// Reads a type id. Each struct, vector and map in it counts against the readers' nesting
/// limit ([`Depth`]), so hostile type information (a vector of a vector of …) fails cleanly
/// instead of exhausting the stack.
fn read_type<I: RecordInput + ?Sized>(
    input: &mut I,
    tag: &str,
    depth: &mut Depth,
) -> Result<TypeDesc> {
    let position = input.position();
    let type_val = input.read_byte(tag)?;
    if matches!(type_val, 8 | 10 | 11) {
        depth.enter().map_err(|e| e.at(position))?;
    }
    let ty = match type_val {
        1 => TypeDesc::Bool,
        2 => TypeDesc::Buffer,
        3 => TypeDesc::Byte,
        4 => TypeDesc::Double,
        5 => TypeDesc::Float,
        6 => TypeDesc::Int,
        7 => TypeDesc::Long,
        8 => {
            let key = read_type(input, tag, depth)?;
            TypeDesc::Map(Box::new(key), Box::new(read_type(input, tag, depth)?))
        }
        9 => TypeDesc::String,
        10 => TypeDesc::Struct(read_fields(input, tag, depth)?),
        11 => TypeDesc::Vector(Box::new(read_type(input, tag, depth)?)),
        other => {
            return Err(Error::new(
                ErrorKind::Syntax,
                format!("unknown type id {other} in type information (1 to 11 are known)"),
            )
            .at(position))
        }
    };
    if ty.is_composite() {
        depth.leave();
    }
    Ok(ty)
}

impl Record for RecordTypeInfo {
    fn type_name() -> &'static str {
        "RecordTypeInfo"
    }

    fn write_to<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_record(tag)?;
        out.write_string(&self.name, tag)?;
        write_fields(&self.fields, out, tag)?;
        out.end_record(tag)
    }

    fn read_from<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.start_record(tag)?;
        let name = input.read_string(tag)?;
        let fields = read_fields(input, tag, &mut Depth::default())?;
        input.end_record(tag)?;
        Ok(RecordTypeInfo { name, fields })
    }

    /// Hadoop's `RecordTypeInfo.compareTo` throws: type information has no order of its
    /// own. This one is a total order of names, then fields, for sorting and deduplication.
    fn compare_hadoop(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }

    /// Type information has no fixed layout (its fields depend on the record it describes),
    /// so its self-description covers only the name that starts it.
    fn describe(schema: &mut SchemaBuilder) -> RecordId {
        schema.record::<Self>("RecordTypeInfo", |_| {
            vec![FieldDef::new("name", FieldType::String)]
        })
    }
}
