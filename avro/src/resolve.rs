//! Avro's schema resolution from a file's (writer's) schema to a DDL record type: the reader
//! schema arrow-avro decodes with, made from the record type's Arrow schema (the mapping's)
//! and the writer's schema, so that a file any tool wrote reads as the DDL type if Avro's
//! rules allow:
//!
//! - record fields are matched by name (records themselves whatever their names: the reader
//!   schema names each record as the writer's is named in [`Schema::inlined`]);
//! - Avro's promotions: `int` to `long`, `float` or `double`, `long` to `float` or `double`,
//!   `float` to `double`, `string` to `bytes` and back;
//! - a field of the DDL type that the file lacks reads as the default of its type: 0,
//!   `false`, `""`, an empty buffer, vector or map, a record of such defaults (the DDL has no
//!   defaults of its own, and Hadoop's types no nulls);
//! - a field of the file that the DDL type lacks is skipped;
//! - a DDL map is an Avro `map` (`ustring` keys) or an array of records with fields `key`
//!   and `value` (any keys; `rcc -l avro` marks it `"hadoop.type": "map"`, which is not
//!   needed to read it);
//! - a union of `null` and one type (what many tools write for every field) reads as that
//!   type, a null in the data being an error (Hadoop has no nulls).
//!
//! Anything else is refused up front, naming the field and both types.

use arrow_schema::{DataType, Field, Fields, Schema as ArrowSchema};
use serde_json::{json, Value as Json};

use crate::schema::{NamedKind, Schema, Type};
use crate::shape::hadoop_type;

/// The reader schema (JSON) that reads `writer`'s records as the record type of `target`;
/// an error naming the field and both types when Avro's rules cannot.
pub(crate) fn reader_schema(writer: &Schema, target: &ArrowSchema) -> Result<String, String> {
    let root = target
        .metadata()
        .get(hadoop_record_arrow::mapping::RECORD_KEY)
        .map_or("the record", |name| name.rsplit('.').next().unwrap_or(name));
    let mut resolver = Resolver { writer, records: 0 };
    let Type::Named(i) = &writer.root else {
        return Err(format!(
            "the file holds values of Avro type `{}`, not records",
            writer.describe(&writer.root)
        ));
    };
    let json = resolver.record(*i, target.fields(), root)?;
    Ok(json.to_string())
}

struct Resolver<'a> {
    writer: &'a Schema,
    /// Reader records named so far (each gets a name of its own).
    records: usize,
}

impl Resolver<'_> {
    fn record(&mut self, index: usize, fields: &Fields, path: &str) -> Result<Json, String> {
        let named = &self.writer.named[index];
        let NamedKind::Record(writer_fields) = &named.kind else {
            unreachable!("called for records");
        };
        let mut out = Vec::with_capacity(fields.len());
        for field in fields {
            let path = format!("{path}.{}", field.name());
            let json = match writer_fields.iter().find(|w| w.name == *field.name()) {
                Some(w) => json!({"name": field.name(), "type": self.ty(&w.ty, field, &path)?}),
                None => {
                    let (ty, default) = self.default(field.data_type())?;
                    json!({"name": field.name(), "type": ty, "default": default})
                }
            };
            out.push(json);
        }
        Ok(json!({
            "type": "record",
            "name": Schema::arrow_avro_name(index),
            "fields": out,
        }))
    }

    /// A name for a record of defaults, unlike any of [`Schema::inlined`].
    fn name(&mut self) -> String {
        self.records += 1;
        format!("hadoop_default_{}", self.records)
    }

    /// The reader type that reads writer type `w` as the mapping's `field`.
    fn ty(&mut self, w: &Type, field: &Field, path: &str) -> Result<Json, String> {
        let mismatch = |why: &str| {
            format!(
                "{path}: the file's Avro `{}` cannot be read as the DDL's `{}`{why}",
                self.writer.describe(w),
                hadoop_type(field)
            )
        };
        let primitive = |name: &str| Ok(Json::String(name.into()));
        match (field.data_type(), w) {
            (_, Type::Union(branches)) => {
                let others: Vec<_> = branches.iter().filter(|b| **b != Type::Null).collect();
                let [only] = others[..] else {
                    return Err(mismatch(
                        " (of unions, only one of `null` and one type can be read)",
                    ));
                };
                let only = self.ty(only, field, path)?;
                Ok(Json::Array(
                    branches
                        .iter()
                        .map(|b| {
                            if *b == Type::Null {
                                Json::String("null".into())
                            } else {
                                only.clone()
                            }
                        })
                        .collect(),
                ))
            }
            (DataType::Int8 | DataType::Int32, Type::Int) => primitive("int"),
            (DataType::Int64, Type::Int | Type::Long) => primitive("long"),
            (DataType::Float32, Type::Int | Type::Long | Type::Float) => primitive("float"),
            (DataType::Float64, Type::Int | Type::Long | Type::Float | Type::Double) => {
                primitive("double")
            }
            (DataType::Boolean, Type::Boolean) => primitive("boolean"),
            (DataType::Utf8 | DataType::Utf8View, Type::String | Type::Bytes) => {
                primitive("string")
            }
            (DataType::Binary, Type::Bytes | Type::String) => primitive("bytes"),
            (DataType::List(item), Type::Array { items, .. }) => Ok(json!({
                "type": "array",
                "items": self.ty(items, item, &format!("{path}[]"))?,
            })),
            (DataType::Map(entries, _), Type::Map(values)) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("a map's entries are a struct");
                };
                if !matches!(kv[0].data_type(), DataType::Utf8) {
                    return Err(mismatch(" (Avro map keys are strings)"));
                }
                Ok(json!({
                    "type": "map",
                    "values": self.ty(values, &kv[1], &format!("{path}{{value}}"))?,
                }))
            }
            (DataType::Map(entries, _), Type::Array { items, .. }) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("a map's entries are a struct");
                };
                match items.as_ref() {
                    Type::Named(i) if self.is_entry(*i) => Ok(json!({
                        "type": "array",
                        "items": self.record(*i, kv, path)?,
                    })),
                    _ => Err(mismatch(
                        " (a map is an Avro map or an array of records with fields `key` and \
                         `value`)",
                    )),
                }
            }
            (DataType::Struct(fields), Type::Named(i))
                if matches!(self.writer.named[*i].kind, NamedKind::Record(_)) =>
            {
                self.record(*i, fields, path)
            }
            _ => Err(mismatch(
                " (Avro promotes only int to long, float or double, long to float or double, \
                 float to double, and string to bytes and back)",
            )),
        }
    }

    /// Whether named type `i` is a record of exactly the fields `key` and `value`.
    fn is_entry(&self, i: usize) -> bool {
        match &self.writer.named[i].kind {
            NamedKind::Record(fields) => {
                let mut names: Vec<_> = fields.iter().map(|f| f.name.as_str()).collect();
                names.sort_unstable();
                names == ["key", "value"]
            }
            _ => false,
        }
    }

    /// The reader type of a field the file lacks, and its default.
    fn default(&mut self, data_type: &DataType) -> Result<(Json, Json), String> {
        Ok(match data_type {
            DataType::Int8 | DataType::Int32 => (json!("int"), json!(0)),
            DataType::Int64 => (json!("long"), json!(0)),
            DataType::Float32 => (json!("float"), json!(0.0)),
            DataType::Float64 => (json!("double"), json!(0.0)),
            DataType::Boolean => (json!("boolean"), json!(false)),
            DataType::Utf8 | DataType::Utf8View => (json!("string"), json!("")),
            DataType::Binary => (json!("bytes"), json!("")),
            DataType::List(item) => {
                let (items, _) = self.default(item.data_type())?;
                (json!({"type": "array", "items": items}), json!([]))
            }
            DataType::Map(entries, _) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("a map's entries are a struct");
                };
                if kv[0].data_type() == &DataType::Utf8 {
                    let (values, _) = self.default(kv[1].data_type())?;
                    (json!({"type": "map", "values": values}), json!({}))
                } else {
                    let (entry, _) = self.default(entries.data_type())?;
                    (json!({"type": "array", "items": entry}), json!([]))
                }
            }
            DataType::Struct(fields) => {
                let mut types = Vec::with_capacity(fields.len());
                let mut defaults = serde_json::Map::new();
                for f in fields {
                    let (ty, default) = self.default(f.data_type())?;
                    types.push(json!({"name": f.name(), "type": ty, "default": default}));
                    defaults.insert(f.name().clone(), default);
                }
                let record = json!({"type": "record", "name": self.name(), "fields": types});
                (record, Json::Object(defaults))
            }
            other => return Err(format!("Arrow type {other} is not of the Hadoop mapping")),
        })
    }
}
