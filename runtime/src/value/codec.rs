//! Reading and writing [`Value`]s from a schema alone, through the same archives (and so
//! with the same bytes) as typed records.

use super::{key_cmp, Value};
use crate::archive::{NullType, RecordInput, RecordOutput};
use crate::error::{Error, ErrorKind, Result};
use crate::schema::{FieldType, RecordId, Schema};

/// Writes `value`, a record of type `id`, under `tag` (empty for a top-level record). A
/// value that does not match the type is an [`ErrorKind::Schema`] error naming the field
/// path, and so is a record the schema lacks.
pub fn write_record<O: RecordOutput + ?Sized>(
    out: &mut O,
    schema: &Schema,
    id: RecordId,
    value: &Value,
    tag: &str,
) -> Result<()> {
    schema.checked_record(id)?;
    write_checked(out, schema, &FieldType::Record(id), value, tag)
}

/// Reads a record of type `id` written under `tag`; an [`ErrorKind::Schema`] error when the
/// schema has no record `id`.
pub fn read_record<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    id: RecordId,
    tag: &str,
) -> Result<Value> {
    schema.checked_record(id)?;
    read_checked(input, schema, &FieldType::Record(id), tag)
}

/// Writes `value` as type `ty`. A value that does not match the type is an
/// [`ErrorKind::Schema`] error naming the field path, and so is a type that names a record
/// the schema lacks.
pub fn write_value<O: RecordOutput + ?Sized>(
    out: &mut O,
    schema: &Schema,
    ty: &FieldType,
    value: &Value,
    tag: &str,
) -> Result<()> {
    schema.check(ty)?;
    write_checked(out, schema, ty, value, tag)
}

/// [`write_value`] of a checked type.
pub(crate) fn write_checked<O: RecordOutput + ?Sized>(
    out: &mut O,
    schema: &Schema,
    ty: &FieldType,
    value: &Value,
    tag: &str,
) -> Result<()> {
    match (ty, value) {
        (FieldType::Byte, Value::Byte(v)) => out.write_byte(*v, tag),
        (FieldType::Bool, Value::Bool(v)) => out.write_bool(*v, tag),
        (FieldType::Int, Value::Int(v)) => out.write_int(*v, tag),
        (FieldType::Long, Value::Long(v)) => out.write_long(*v, tag),
        (FieldType::Float, Value::Float(v)) => out.write_float(*v, tag),
        (FieldType::Double, Value::Double(v)) => out.write_double(*v, tag),
        (FieldType::String, Value::String(v)) => out.write_string(v, tag),
        (FieldType::String, Value::Null) => out.write_null(NullType::String, tag),
        (FieldType::Buffer, Value::Null) => out.write_null(NullType::Buffer, tag),
        (FieldType::Vector(_), Value::Null) => out.write_null(NullType::Vector, tag),
        (FieldType::Buffer, Value::Buffer(v)) => out.write_buffer(v, tag),
        (FieldType::Vector(element), Value::Vector(items)) => {
            out.start_vector(items.len(), tag)?;
            for (i, item) in items.iter().enumerate() {
                write_checked(out, schema, element, item, tag).map_err(|e| e.in_index(i as u64))?;
            }
            out.end_vector(tag)
        }
        (FieldType::Map(kt, vt), Value::Map(entries)) => {
            let entries = java_order(entries);
            out.start_map(entries.len(), tag)?;
            for (i, (k, v)) in entries.into_iter().enumerate() {
                write_checked(out, schema, kt, k, tag)
                    .and_then(|()| write_checked(out, schema, vt, v, tag))
                    .map_err(|e| e.in_index(i as u64))?;
            }
            out.end_map(tag)
        }
        (FieldType::Record(id), Value::Record(fields)) => {
            let record = schema.record_at(*id);
            if fields.len() != record.fields.len() {
                return Err(Error::new(
                    ErrorKind::Schema,
                    format!(
                        "{} has {} fields but the value has {}",
                        record.name,
                        record.fields.len(),
                        fields.len()
                    ),
                ));
            }
            out.start_record(tag)?;
            for (def, field) in record.fields.iter().zip(fields) {
                write_checked(out, schema, &def.ty, field, &def.name)
                    .map_err(|e| e.in_field(&def.name))?;
            }
            out.end_record(tag)
        }
        (ty, value) => Err(Error::new(
            ErrorKind::Schema,
            format!(
                "expected {} but the value is a {}",
                schema.name_of(ty),
                value.type_name()
            ),
        )),
    }
}

/// Map entries in Java's `TreeMap` order; of equal keys the first key stays with the last
/// value, as with `TreeMap.put`.
fn java_order(entries: &[(Value, Value)]) -> Vec<(&Value, &Value)> {
    let mut sorted: Vec<(&Value, &Value)> = entries.iter().map(|(k, v)| (k, v)).collect();
    // Stable: equal keys keep their order, so the last of a run is the last given.
    crate::compare::sort_by_java(&mut sorted, |a, b| key_cmp(a.0, b.0));
    let mut out: Vec<(&Value, &Value)> = Vec::with_capacity(sorted.len());
    for entry in sorted {
        match out.last_mut() {
            Some(last) if key_cmp(last.0, entry.0).is_eq() => last.1 = entry.1,
            _ => out.push(entry),
        }
    }
    out
}

/// Reads a value of type `ty` written under `tag`; an [`ErrorKind::Schema`] error when `ty`
/// names a record the schema lacks.
pub fn read_value<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    ty: &FieldType,
    tag: &str,
) -> Result<Value> {
    schema.check(ty)?;
    read_checked(input, schema, ty, tag)
}

/// [`read_value`] of a checked type.
pub(crate) fn read_checked<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    ty: &FieldType,
    tag: &str,
) -> Result<Value> {
    Ok(match ty {
        FieldType::Byte => Value::Byte(input.read_byte(tag)?),
        FieldType::Bool => Value::Bool(input.read_bool(tag)?),
        FieldType::Int => Value::Int(input.read_int(tag)?),
        FieldType::Long => Value::Long(input.read_long(tag)?),
        FieldType::Float => Value::Float(input.read_float(tag)?),
        FieldType::Double => Value::Double(input.read_double(tag)?),
        // Only jute has nulls; the other formats never return `None` here.
        FieldType::String => input
            .read_nullable_string(tag)?
            .map_or(Value::Null, Value::String),
        FieldType::Buffer => input
            .read_nullable_buffer(tag)?
            .map_or(Value::Null, Value::Buffer),
        FieldType::Vector(element) => read_vector(input, schema, element, tag)?,
        FieldType::Map(kt, vt) => read_map(input, schema, kt, vt, tag)?,
        FieldType::Record(id) => read_fields(input, schema, *id, tag)?,
    })
}

// The containers are read out of line: `read_value` recurses once per level of nesting, and
// keeping their locals out of its frame makes each level take a third of the stack in
// unoptimised builds.

#[inline(never)]
fn read_vector<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    element: &FieldType,
    tag: &str,
) -> Result<Value> {
    let Some(mut index) = input.start_nullable_vector(tag)? else {
        return Ok(Value::Null);
    };
    let mut items = Vec::with_capacity(index.size_hint());
    while input.next_element(&mut index)? {
        let item = read_checked(input, schema, element, tag)
            .map_err(|e| e.in_index(items.len() as u64))?;
        items.push(item);
    }
    input.end_vector(tag)?;
    Ok(Value::Vector(items))
}

#[inline(never)]
fn read_map<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    kt: &FieldType,
    vt: &FieldType,
    tag: &str,
) -> Result<Value> {
    let mut index = input.start_map(tag)?;
    let mut entries = Vec::with_capacity(index.size_hint());
    while input.next_element(&mut index)? {
        let i = entries.len() as u64;
        let k = read_checked(input, schema, kt, tag).map_err(|e| e.in_index(i))?;
        let v = read_checked(input, schema, vt, tag).map_err(|e| e.in_index(i))?;
        entries.push((k, v));
    }
    input.end_map(tag)?;
    Ok(Value::Map(entries))
}

#[inline(never)]
fn read_fields<I: RecordInput + ?Sized>(
    input: &mut I,
    schema: &Schema,
    id: RecordId,
    tag: &str,
) -> Result<Value> {
    let record = schema.record_at(id);
    input.start_record(tag)?;
    let mut fields = Vec::with_capacity(record.fields.len());
    for def in &record.fields {
        let field =
            read_checked(input, schema, &def.ty, &def.name).map_err(|e| e.in_field(&def.name))?;
        fields.push(field);
    }
    input.end_record(tag)?;
    Ok(Value::Record(fields))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::binary::RawInput;
    use crate::schema::{FieldDef, RecordType};

    fn schema() -> (Schema, RecordId) {
        let mut s = Schema::new();
        let id = s
            .add(RecordType::new(
                "m",
                "R",
                vec![
                    FieldDef::new("n", FieldType::Int),
                    FieldDef::new(
                        "m",
                        FieldType::Map(Box::new(FieldType::String), Box::new(FieldType::Bool)),
                    ),
                ],
            ))
            .unwrap();
        (s, id)
    }

    #[test]
    fn reads_binary_and_reports_the_field_path() {
        let (s, id) = schema();
        let bytes = [0x05, 0x01, 0x01, b'k', 0x01];
        let v = read_record(&mut RawInput::new(&bytes), &s, id, "").unwrap();
        assert_eq!(
            v,
            Value::Record(vec![
                Value::Int(5),
                Value::Map(vec![(Value::String("k".into()), Value::Bool(true))])
            ])
        );
        // The map's key is cut short.
        let e = read_record(&mut RawInput::new(&bytes[..3]), &s, id, "").unwrap_err();
        assert_eq!(e.path(), "m[0]");
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn map_entries_are_sorted_and_deduplicated_like_a_tree_map() {
        let a = Value::String("a".into());
        let b = Value::String("b".into());
        let entries = vec![
            (b.clone(), Value::Int(1)),
            (a.clone(), Value::Int(2)),
            (b.clone(), Value::Int(3)),
        ];
        let order: Vec<_> = java_order(&entries)
            .into_iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(order, vec![(a, Value::Int(2)), (b, Value::Int(3))]);
        // Record keys compare with compareTo, where -0.0 == 0.0: one entry, with the first
        // key and the last value, as TreeMap.put keeps them.
        let zero = Value::Record(vec![Value::Float(0.0)]);
        let minus_zero = Value::Record(vec![Value::Float(-0.0)]);
        let entries = vec![(zero.clone(), Value::Int(1)), (minus_zero, Value::Int(2))];
        let order: Vec<_> = java_order(&entries)
            .into_iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(order.len(), 1);
        assert!(order[0].0.bitwise_eq(&zero));
        assert_eq!(order[0].1, Value::Int(2));
    }
}
