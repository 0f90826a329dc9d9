//! The Avro schema of columns that no DDL record type describes (a query's result): each
//! Arrow type as the Avro type a reader expects for it, the Hadoop mapping's own types
//! marked as `rcc -l avro` marks them, so a result of record columns reads back as records.
//!
//! Names follow Spark's Avro writer (`topLevelRecord`, a nested record named after its
//! field in its parent's namespace), which is what tools downstream of Hadoop data meet most;
//! a nullable column is Avro's usual `["null", T]` with `null` as its default.

use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema, TimeUnit};
use serde_json::{json, Map, Value as Json};

use crate::error::{Error, Result};

/// The name of the top-level record of a derived schema (as Spark's Avro writer names it).
pub const TOP_LEVEL_RECORD: &str = "topLevelRecord";

/// The Avro schema (JSON text) of records with the columns of `arrow`, for
/// [`AvroWriter`](crate::AvroWriter): an [`Error::Schema`] naming the column whose type Avro
/// cannot hold (and the cast that makes it fit).
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
/// let columns = Schema::new(vec![
///     Field::new("url", DataType::Utf8, false),
///     Field::new("n", DataType::Int64, true),
/// ]);
/// let avsc = hadoop_record_avro::derived_schema(&columns)?;
/// assert_eq!(
///     avsc,
///     r#"{"type":"record","name":"topLevelRecord","fields":[{"name":"url","type":"string"},{"name":"n","type":["null","long"],"default":null}]}"#
/// );
/// # Ok::<(), hadoop_record_avro::Error>(())
/// ```
pub fn derived_schema(arrow: &ArrowSchema) -> Result<String> {
    let record = record(arrow.fields(), TOP_LEVEL_RECORD, "", "")?;
    Ok(record.to_string())
}

/// A record of `fields` named `name` in `namespace`; `path` names columns in errors.
fn record(fields: &Fields, name: &str, namespace: &str, path: &str) -> Result<Json> {
    // Nested records live in this record's namespace, after Spark's writer.
    let inner = match namespace {
        "" => name.to_owned(),
        ns => format!("{ns}.{name}"),
    };
    let fields = fields
        .iter()
        .map(|f| {
            let path = match path {
                "" => f.name().clone(),
                p => format!("{p}.{}", f.name()),
            };
            let mut out = Map::new();
            out.insert("name".into(), json!(f.name()));
            let ty = field_type(f, &inner, &path)?;
            if f.is_nullable() {
                out.insert("type".into(), json!(["null", ty]));
                out.insert("default".into(), Json::Null);
            } else {
                out.insert("type".into(), ty);
            }
            Ok(Json::Object(out))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut out = Map::new();
    out.insert("type".into(), json!("record"));
    out.insert("name".into(), json!(name));
    if !namespace.is_empty() {
        out.insert("namespace".into(), json!(namespace));
    }
    out.insert("fields".into(), Json::Array(fields));
    Ok(Json::Object(out))
}

/// The Avro type of the values of `field` (nullability aside); records it holds are named
/// in `namespace`.
fn field_type(field: &Field, namespace: &str, path: &str) -> Result<Json> {
    let item = |f: &Field| -> Result<Json> {
        let ty = field_type(f, namespace, path)?;
        Ok(if f.is_nullable() {
            json!(["null", ty])
        } else {
            ty
        })
    };
    Ok(match field.data_type() {
        DataType::Boolean => json!("boolean"),
        // The mapping's `byte`, marked as `rcc -l avro` marks it.
        DataType::Int8 => json!({"type": "int", "hadoop.type": "byte"}),
        DataType::Int16 | DataType::Int32 | DataType::UInt8 | DataType::UInt16 => json!("int"),
        DataType::Int64 | DataType::UInt32 => json!("long"),
        DataType::Float16 | DataType::Float32 => json!("float"),
        DataType::Float64 => json!("double"),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => json!("string"),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => json!("bytes"),
        DataType::Date32 => json!({"type": "int", "logicalType": "date"}),
        DataType::Timestamp(unit, zone) => {
            let unit = match unit {
                // Avro has no seconds: arrow-avro writes them as milliseconds.
                TimeUnit::Second | TimeUnit::Millisecond => "millis",
                TimeUnit::Microsecond => "micros",
                TimeUnit::Nanosecond => "nanos",
            };
            let local = if zone.is_some() { "" } else { "local-" };
            json!({"type": "long", "logicalType": format!("{local}timestamp-{unit}")})
        }
        DataType::Decimal128(precision, scale) => json!({
            "type": "bytes", "logicalType": "decimal", "precision": precision, "scale": scale
        }),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            json!({"type": "array", "items": item(f)?})
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(unheld(path, field.data_type()));
            };
            if matches!(
                kv[0].data_type(),
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            ) {
                json!({"type": "map", "values": item(&kv[1])?})
            } else {
                // Keys Avro maps cannot have: an array of key/value records, marked as
                // `rcc -l avro` marks a DDL map whose keys are not `ustring`.
                let entry = record(kv, &format!("{}_entry", field.name()), namespace, path)?;
                json!({"type": "array", "items": entry, "hadoop.type": "map"})
            }
        }
        DataType::Struct(fields) => record(fields, field.name(), namespace, path)?,
        other => return Err(unheld(path, other)),
    })
}

fn unheld(path: &str, ty: &DataType) -> Error {
    Error::Schema(format!(
        "column `{path}` is of type {ty}, which Avro output does not hold: cast it in the \
         query (CAST({path} AS VARCHAR), or to BIGINT, DOUBLE)"
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, Date32Array, Int16Array, Int8Array, MapArray, RecordBatch, StringArray,
        StructArray,
    };
    use arrow_buffer::OffsetBuffer;

    use super::*;
    use crate::{AvroCodec, AvroWriter};

    #[test]
    fn nested_records_are_named_after_their_fields_and_non_string_keyed_maps_marked() {
        let point = Fields::from(vec![Field::new("x", DataType::Int8, false)]);
        let kv = Fields::from(vec![
            Field::new("key", DataType::Int32, false),
            Field::new("value", DataType::Utf8, true),
        ]);
        let columns = ArrowSchema::new(vec![
            Field::new("p", DataType::Struct(point), true),
            Field::new(
                "m",
                DataType::Map(
                    Arc::new(Field::new("entries", DataType::Struct(kv), false)),
                    false,
                ),
                false,
            ),
        ]);
        let avsc: Json = serde_json::from_str(&derived_schema(&columns).unwrap()).unwrap();
        assert_eq!(
            avsc,
            json!({"type": "record", "name": "topLevelRecord", "fields": [
                {"name": "p", "type": ["null", {"type": "record", "name": "p",
                    "namespace": "topLevelRecord", "fields": [
                        {"name": "x", "type": {"type": "int", "hadoop.type": "byte"}}]}],
                 "default": null},
                {"name": "m", "type": {"type": "array", "hadoop.type": "map", "items":
                    {"type": "record", "name": "m_entry", "namespace": "topLevelRecord",
                     "fields": [{"name": "key", "type": "int"},
                                {"name": "value", "type": ["null", "string"], "default": null}]}}}
            ]})
        );
    }

    #[test]
    fn a_type_avro_cannot_hold_is_refused_naming_the_column_and_the_cast() {
        let columns = ArrowSchema::new(vec![Field::new(
            "t",
            DataType::Time64(TimeUnit::Nanosecond),
            false,
        )]);
        let Err(Error::Schema(m)) = derived_schema(&columns) else {
            panic!("accepted")
        };
        assert!(m.contains("column `t` is of type Time64(ns)"), "{m}");
        assert!(m.contains("CAST(t AS VARCHAR)"), "{m}");
    }

    #[test]
    fn result_columns_with_nulls_write_under_the_derived_schema() {
        let point = Fields::from(vec![Field::new("x", DataType::Int8, false)]);
        let kv = Fields::from(vec![
            Field::new("key", DataType::Int16, false),
            Field::new("value", DataType::Utf8, true),
        ]);
        let entries = Arc::new(Field::new("entries", DataType::Struct(kv.clone()), false));
        let columns = Arc::new(ArrowSchema::new(vec![
            Field::new("p", DataType::Struct(point.clone()), true),
            Field::new("m", DataType::Map(entries.clone(), false), true),
            Field::new("d", DataType::Date32, true),
            Field::new("s", DataType::Int16, false),
        ]));
        let p = StructArray::try_new(
            point,
            vec![Arc::new(Int8Array::from(vec![-1, 0])) as ArrayRef],
            Some(vec![true, false].into()),
        )
        .unwrap();
        let m = MapArray::try_new(
            entries,
            OffsetBuffer::from_lengths([2, 0]),
            StructArray::try_new(
                kv,
                vec![
                    Arc::new(Int16Array::from(vec![3, 4])) as ArrayRef,
                    Arc::new(StringArray::from(vec![Some("c"), None])),
                ],
                None,
            )
            .unwrap(),
            Some(vec![true, false].into()),
            false,
        )
        .unwrap();
        let batch = RecordBatch::try_new(
            columns.clone(),
            vec![
                Arc::new(p),
                Arc::new(m),
                Arc::new(Date32Array::from(vec![Some(20_000), None])),
                Arc::new(Int16Array::from(vec![7, -7])),
            ],
        )
        .unwrap();
        let avsc = derived_schema(&columns).unwrap();
        let mut writer = AvroWriter::new(Vec::new(), &avsc, columns, AvroCodec::Null).unwrap();
        writer.write(&batch).unwrap();
        let file = writer.finish().unwrap();
        // The records' bytes, after the header's sync marker: union branch 1 then the
        // record (x = -1), branch 1 and an array block of two key/value records, branch 1
        // and the date, the short; then nulls (branch 0) and the short.
        let body: &[u8] = &[
            2, 1, 2, 4, 6, 2, 2, b'c', 8, 0, 0, 2, 0xc0, 0xb8, 0x02, 14, // record 0
            0, 0, 0, 13, // record 1
        ];
        assert!(
            file.windows(body.len()).any(|w| w == body),
            "records not found in {file:?}"
        );
    }
}
