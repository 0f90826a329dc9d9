//! Between the Hadoop mapping's Arrow types and the Arrow types arrow-avro encodes and
//! decodes: a DDL map whose keys are not `ustring` is an Avro array of key/value records,
//! which arrow-avro holds as a `List` of `Struct`s where the mapping has a `Map`; a `byte` is
//! an Avro `int` (`Int32` from arrow-avro, `Int8` in the mapping); Avro maps come in the
//! writer's order, the mapping's maps in Hadoop's key order (as Java's `TreeMap` holds them:
//! of a repeated key, the last value).

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, ArrayRef, Int8Array, ListArray, MapArray, StringViewArray, StructArray};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema as HadoopSchema};
use hadoop_record::Format;
use hadoop_record_arrow::java_order;

use crate::error::{Error, Result};
use crate::schema::{NamedKind, Schema, Type};

/// The Arrow field arrow-avro encodes a column of `field` from, under Avro type `ty`: maps
/// that Avro holds as arrays become lists of their entries.
pub(crate) fn encoded_field(schema: &Schema, ty: &Type, field: &Field) -> Field {
    // A nullable column's `["null", T]`: its values are T's.
    if let Type::Union(branches) = ty {
        let mut values = branches.iter().filter(|b| **b != Type::Null);
        if let (Some(only), None) = (values.next(), values.next()) {
            return encoded_field(schema, only, field);
        }
    }
    let data_type = match (field.data_type(), ty) {
        (DataType::Map(entries, _), Type::Array { items, .. }) => {
            DataType::List(Arc::new(encoded_field(schema, items, entries)))
        }
        (DataType::List(item), Type::Array { items, .. }) => {
            DataType::List(Arc::new(encoded_field(schema, items, item)))
        }
        (DataType::Map(entries, sorted), Type::Map(values)) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return field.clone();
            };
            let kv = Fields::from(vec![
                kv[0].as_ref().clone(),
                encoded_field(schema, values, &kv[1]),
            ]);
            DataType::Map(
                Arc::new(
                    entries
                        .as_ref()
                        .clone()
                        .with_data_type(DataType::Struct(kv)),
                ),
                *sorted,
            )
        }
        (DataType::Struct(children), Type::Named(i)) => match &schema.named[*i].kind {
            NamedKind::Record(avro_fields) => DataType::Struct(
                children
                    .iter()
                    .map(|c| match avro_fields.iter().find(|f| f.name == *c.name()) {
                        Some(f) => Arc::new(encoded_field(schema, &f.ty, c)),
                        None => c.clone(),
                    })
                    .collect(),
            ),
            _ => return field.clone(),
        },
        _ => return field.clone(),
    };
    field.clone().with_data_type(data_type)
}

/// `array` as arrow-avro encodes it: of the type [`encoded_field`] gives `to`.
pub(crate) fn to_encoded(array: &ArrayRef, to: &Field) -> Result<ArrayRef> {
    if array.data_type() == to.data_type() {
        return Ok(array.clone());
    }
    Ok(match to.data_type() {
        DataType::List(item) => {
            let (offsets, values, nulls) = match array.data_type() {
                DataType::Map(..) => {
                    let map = array.as_map();
                    let entries: ArrayRef = Arc::new(map.entries().clone());
                    (map.offsets().clone(), entries, map.nulls().cloned())
                }
                _ => {
                    let list = array.as_list::<i32>();
                    (
                        list.offsets().clone(),
                        list.values().clone(),
                        list.nulls().cloned(),
                    )
                }
            };
            Arc::new(ListArray::try_new(
                item.clone(),
                offsets,
                to_encoded(&values, item)?,
                nulls,
            )?)
        }
        DataType::Map(entries, sorted) => {
            let map = array.as_map();
            let kv = to_encoded(&(Arc::new(map.entries().clone()) as ArrayRef), entries)?;
            Arc::new(MapArray::try_new(
                entries.clone(),
                map.offsets().clone(),
                kv.as_struct().clone(),
                map.nulls().cloned(),
                *sorted,
            )?)
        }
        DataType::Struct(fields) => {
            let s = array.as_struct();
            let columns = fields
                .iter()
                .zip(s.columns())
                .map(|(f, c)| to_encoded(c, f))
                .collect::<Result<Vec<_>>>()?;
            Arc::new(StructArray::try_new(
                fields.clone(),
                columns,
                s.nulls().cloned(),
            )?)
        }
        _ => array.clone(),
    })
}

/// Brings arrow-avro's decoded column `array` to the mapping's field `to`: `Int32` to `Int8`
/// (a value out of a byte's range is an error), lists of key/value records to maps, string
/// maps into Hadoop's key order, and field names, nullability and metadata to the
/// mapping's. A null where `to` has none is an error. `path` names the column in errors,
/// `first` is the number (in the file) of the batch's first record.
pub(crate) fn to_mapping(
    array: &ArrayRef,
    to: &FieldRef,
    path: &str,
    first: u64,
) -> Result<ArrayRef> {
    if !to.is_nullable() && array.null_count() > 0 {
        let row = (0..array.len()).find(|&i| array.is_null(i)).unwrap_or(0);
        return Err(Error::Schema(format!(
            "{path} is null (in the file's record {} or one it holds), which Hadoop's `{}` \
             cannot hold: Hadoop has no nulls",
            first + row as u64,
            hadoop_type(to)
        )));
    }
    let nulls = array.nulls().cloned();
    Ok(match to.data_type() {
        DataType::Int8 => {
            let ints = array.as_primitive::<Int32Type>();
            if let Some((row, v)) = ints
                .iter()
                .enumerate()
                .find_map(|(i, v)| v.filter(|v| i8::try_from(*v).is_err()).map(|v| (i, v)))
            {
                return Err(Error::Schema(format!(
                    "{path} holds {v} (in the file's record {} or one it holds), out of the \
                     range of Hadoop's `byte` (-128 to 127)",
                    first + row as u64
                )));
            }
            Arc::new(Int8Array::new(
                ints.values().iter().map(|&v| v as i8).collect(),
                nulls,
            ))
        }
        DataType::Utf8View => Arc::new(StringViewArray::from(array.as_string::<i32>())),
        DataType::List(item) => {
            let list = array.as_list::<i32>();
            let values = to_mapping(list.values(), item, &format!("{path}[]"), first)?;
            Arc::new(ListArray::try_new(
                item.clone(),
                list.offsets().clone(),
                values,
                nulls,
            )?)
        }
        DataType::Map(entries, sorted) => {
            let (offsets, kv) = match array.data_type() {
                DataType::Map(..) => {
                    let map = array.as_map();
                    (map.offsets().clone(), map.entries().clone())
                }
                _ => {
                    let list = array.as_list::<i32>();
                    (list.offsets().clone(), list.values().as_struct().clone())
                }
            };
            let DataType::Struct(fields) = entries.data_type() else {
                unreachable!("a map's entries are a struct");
            };
            let keys = to_mapping(kv.column(0), &fields[0], &format!("{path}{{key}}"), first)?;
            let values = to_mapping(kv.column(1), &fields[1], &format!("{path}{{value}}"), first)?;
            let mut schema = HadoopSchema::new();
            let key_type = key_type(&fields[0], &mut schema)?;
            let (offsets, keys, values) =
                java_order(&schema, &key_type, Format::Binary, offsets, keys, values)?;
            let kv = StructArray::try_new(fields.clone(), vec![keys, values], None)?;
            Arc::new(MapArray::try_new(
                entries.clone(),
                offsets,
                kv,
                nulls,
                *sorted,
            )?)
        }
        DataType::Struct(fields) => {
            let s = array.as_struct();
            let columns = fields
                .iter()
                .zip(s.columns())
                .map(|(f, c)| to_mapping(c, f, &format!("{path}.{}", f.name()), first))
                .collect::<Result<Vec<_>>>()?;
            Arc::new(StructArray::try_new(fields.clone(), columns, nulls)?)
        }
        want if want == array.data_type() => array.clone(),
        want => {
            return Err(Error::Schema(format!(
                "{path}: arrow-avro decoded {} where the mapping has {want}",
                array.data_type()
            )))
        }
    })
}

/// The field's Hadoop type as its metadata spells it (its Arrow type without).
pub(crate) fn hadoop_type(field: &Field) -> String {
    field
        .metadata()
        .get(hadoop_record_arrow::mapping::TYPE_KEY)
        .cloned()
        .unwrap_or_else(|| field.data_type().to_string())
}

/// The Hadoop type of a map key of Arrow field `field` (of the mapping), its records added
/// to `schema`: what [`java_order`] orders the keys by.
fn key_type(field: &Field, schema: &mut HadoopSchema) -> Result<FieldType> {
    Ok(match field.data_type() {
        DataType::Int8 => FieldType::Byte,
        DataType::Boolean => FieldType::Bool,
        DataType::Int32 => FieldType::Int,
        DataType::Int64 => FieldType::Long,
        DataType::Float32 => FieldType::Float,
        DataType::Float64 => FieldType::Double,
        DataType::Utf8 => FieldType::String,
        DataType::Binary => FieldType::Buffer,
        DataType::List(item) => FieldType::Vector(Box::new(key_type(item, schema)?)),
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!("a map's entries are a struct");
            };
            FieldType::Map(
                Box::new(key_type(&kv[0], schema)?),
                Box::new(key_type(&kv[1], schema)?),
            )
        }
        DataType::Struct(fields) => {
            let fields = fields
                .iter()
                .map(|f| Ok(FieldDef::new(f.name(), key_type(f, schema)?)))
                .collect::<Result<Vec<_>>>()?;
            let name = format!("K{}", schema.records().len());
            FieldType::Record(
                schema
                    .add(RecordType::new("key", name, fields))
                    .map_err(|e| Error::Schema(e.to_string()))?,
            )
        }
        other => {
            return Err(Error::Schema(format!(
                "a map key of Arrow type {other} is not of the Hadoop mapping"
            )))
        }
    })
}
