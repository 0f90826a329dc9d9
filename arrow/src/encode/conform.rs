//! Checks a column against the mapping and brings it to the mapping's Arrow types.
//!
//! Accepted besides the mapping's own types, because other tools write them for the same
//! values (and nothing is lost): `LargeUtf8`, `Utf8View` and dictionaries of strings for
//! `ustring`; `LargeBinary`, `BinaryView`, `FixedSizeBinary` and dictionaries of those for
//! `buffer`; `LargeList` and `FixedSizeList` for `vector`; any names of list items and map
//! entries; nullable fields (a null found is an error where it is written, naming the row);
//! and integers and floats that widen without loss (`Int8`/`Int16`/`UInt8`/`UInt16` for
//! `int`, those and `Int32`/`UInt32` for `long`, `Float16` for `float`, `Float16`/`Float32`
//! for `double`). Narrowing (`Int64` for `int`), other logical types (`Utf8` for `buffer`,
//! `Int32` for `boolean`) and timestamps, decimals and the like are refused.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, ListArray, MapArray, StructArray};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::{Error, ErrorKind, Result};

use crate::mapping::{recursive_encoding, TYPE_KEY};

/// `array` (the column of `actual`) as the mapping's type for `expected` (of Hadoop type
/// `ty`); errors name the path below the column.
pub(crate) fn conform(
    schema: &Schema,
    ty: &FieldType,
    expected: &Field,
    actual: &Field,
    array: &ArrayRef,
) -> Result<ArrayRef> {
    // Record types are matched by their fields, whatever their names (a module renamed):
    // the metadata is compared where no record is involved.
    if let (Some(want), Some(found), false) = (
        expected.metadata().get(TYPE_KEY),
        actual.metadata().get(TYPE_KEY),
        holds_record(ty),
    ) {
        if want != found {
            return Err(mismatch(format!(
                "the column holds Hadoop `{found}` (its metadata says), not `{want}`"
            )));
        }
    }
    if recursive_encoding(actual).is_some_and(|f| Some(f) != recursive_encoding(expected)) {
        return Err(mismatch(format!(
            "the column holds recursive records in {} but `{}` is expected in {}",
            recursive_encoding(actual).map_or("?", |f| f.name()),
            crate::mapping::type_name(schema, ty),
            recursive_encoding(expected).map_or("no encoding", |f| f.name()),
        )));
    }
    let found = array.data_type();
    let refuse = || {
        mismatch(format!(
            "Hadoop `{}` is Arrow {} (or an equivalent type), but the column is {found}",
            crate::mapping::type_name(schema, ty),
            expected.data_type()
        ))
    };
    let cast = |to: &DataType| {
        arrow_cast::cast(array.as_ref(), to).map_err(|e| mismatch(format!("{found} as {to}: {e}")))
    };
    let want = expected.data_type();
    match (want, found) {
        (DataType::Struct(fields), DataType::Struct(_)) => {
            let FieldType::Record(id) = ty else {
                return Err(refuse());
            };
            let record = array.as_struct();
            let arrays = struct_children(schema, *id, fields, record)?;
            rebuild_struct(fields, arrays, record.nulls().cloned(), record.len())
        }
        (DataType::List(item), DataType::List(actual_item)) => {
            let FieldType::Vector(element) = ty else {
                return Err(refuse());
            };
            let list = array.as_list::<i32>();
            let values = conform(schema, element, item, actual_item, list.values())?;
            let item = relaxed(item, &values);
            let list =
                ListArray::try_new(item, list.offsets().clone(), values, list.nulls().cloned())
                    .map_err(|e| mismatch(e.to_string()))?;
            Ok(Arc::new(list))
        }
        (DataType::List(_), DataType::LargeList(f) | DataType::FixedSizeList(f, _)) => {
            let list = cast(&DataType::List(f.clone()))?;
            conform(schema, ty, expected, actual, &list)
        }
        (DataType::Map(entries, _), DataType::Map(actual_entries, _)) => {
            let FieldType::Map(k, v) = ty else {
                return Err(refuse());
            };
            let (DataType::Struct(kv), DataType::Struct(actual_kv)) =
                (entries.data_type(), actual_entries.data_type())
            else {
                return Err(refuse());
            };
            let map = array.as_map();
            let keys = conform(schema, k, &kv[0], &actual_kv[0], map.keys())
                .map_err(|e| e.in_field("key"))?;
            let values = conform(schema, v, &kv[1], &actual_kv[1], map.values())
                .map_err(|e| e.in_field("value"))?;
            if keys.null_count() > 0 {
                return Err(mismatch("a map key is null"));
            }
            let fields = Fields::from(vec![kv[0].clone(), relaxed(&kv[1], &values)]);
            let entries_array = StructArray::try_new(fields.clone(), vec![keys, values], None)
                .map_err(|e| mismatch(e.to_string()))?;
            let entries_field =
                Arc::new(Field::new(entries.name(), DataType::Struct(fields), false));
            let map = MapArray::try_new(
                entries_field,
                map.offsets().clone(),
                entries_array,
                map.nulls().cloned(),
                false,
            )
            .map_err(|e| mismatch(e.to_string()))?;
            Ok(Arc::new(map))
        }
        (want, found) if want == found => Ok(array.clone()),
        (DataType::Utf8, DataType::LargeUtf8 | DataType::Utf8View) => cast(want),
        (
            DataType::Binary,
            DataType::LargeBinary | DataType::BinaryView | DataType::FixedSizeBinary(_),
        ) => cast(want),
        (DataType::Utf8 | DataType::Binary, DataType::Dictionary(_, values))
            if equivalent_leaf(want, values) =>
        {
            cast(want)
        }
        (
            DataType::Int32,
            DataType::Int8 | DataType::Int16 | DataType::UInt8 | DataType::UInt16,
        )
        | (
            DataType::Int64,
            DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32,
        )
        | (DataType::Float32, DataType::Float16)
        | (DataType::Float64, DataType::Float16 | DataType::Float32) => cast(want),
        _ => Err(refuse()),
    }
}

/// Whether a value of type `ty` is or holds a record.
fn holds_record(ty: &FieldType) -> bool {
    match ty {
        FieldType::Record(_) => true,
        FieldType::Vector(t) => holds_record(t),
        FieldType::Map(k, v) => holds_record(k) || holds_record(v),
        _ => false,
    }
}

/// Whether dictionary values of type `values` decode to `want` (`Utf8` or `Binary`).
fn equivalent_leaf(want: &DataType, values: &DataType) -> bool {
    match want {
        DataType::Utf8 => matches!(
            values,
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        ),
        _ => matches!(
            values,
            DataType::Binary
                | DataType::LargeBinary
                | DataType::BinaryView
                | DataType::FixedSizeBinary(_)
        ),
    }
}

/// The children of a struct column as the record's fields, matched by name: every field
/// present, no other.
pub(crate) fn struct_children(
    schema: &Schema,
    id: hadoop_record::schema::RecordId,
    fields: &Fields,
    columns: &StructArray,
) -> Result<Vec<ArrayRef>> {
    let record = crate::mapping::record_type(schema, id);
    let actual = columns.fields();
    if let Some(extra) = actual
        .iter()
        .find(|a| !record.fields.iter().any(|f| &f.name == a.name()))
    {
        return Err(mismatch(format!(
            "column `{}` is not a field of {} (its fields: {})",
            extra.name(),
            record.full_name(),
            names(record)
        )));
    }
    record
        .fields
        .iter()
        .zip(fields.iter())
        .map(|(def, expected)| {
            let (i, found) = actual.find(&def.name).ok_or_else(|| {
                mismatch(format!(
                    "no column for field `{}` ({}) of {}",
                    def.name,
                    crate::mapping::type_name(schema, &def.ty),
                    record.full_name()
                ))
            })?;
            conform(schema, &def.ty, expected, found, columns.column(i))
                .map_err(|e| e.in_field(&def.name))
        })
        .collect()
}

fn names(record: &hadoop_record::schema::RecordType) -> String {
    let names: Vec<&str> = record.fields.iter().map(|f| f.name.as_str()).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// A struct of the conformed children, nullable where they hold nulls.
fn rebuild_struct(
    fields: &Fields,
    arrays: Vec<ArrayRef>,
    nulls: Option<arrow_buffer::NullBuffer>,
    len: usize,
) -> Result<ArrayRef> {
    let fields: Fields = fields
        .iter()
        .zip(&arrays)
        .map(|(f, a)| relaxed(f, a))
        .collect();
    StructArray::try_new_with_length(fields, arrays, nulls, len)
        .map(|s| Arc::new(s) as ArrayRef)
        .map_err(|e| mismatch(e.to_string()))
}

/// `field` with the type of `array`, nullable when the array holds nulls (reported where
/// they are written).
fn relaxed(field: &FieldRef, array: &ArrayRef) -> FieldRef {
    let nullable = field.is_nullable() || array.null_count() > 0;
    if nullable == field.is_nullable() && field.data_type() == array.data_type() {
        return field.clone();
    }
    Arc::new(
        field
            .as_ref()
            .clone()
            .with_data_type(array.data_type().clone())
            .with_nullable(nullable),
    )
}

fn mismatch(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Schema, message.into())
}
