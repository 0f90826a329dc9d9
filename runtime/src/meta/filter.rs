//! Reading data written with a writer's type information into a reader's schema, with the
//! rules of the classes Hadoop's rcc generates (`setTypeFilter` and the filtered
//! `read_from`), see the [module docs](super).

use std::collections::HashMap;

use super::{FieldTypeInfo, RecordTypeInfo, TypeId};
use crate::archive::RecordInput;
use crate::error::Result;
use crate::schema::{FieldType, RecordId, Schema};
use crate::value::{read_value_filtered, Value};

/// The type filters in force after `Reader.setTypeFilter(info)` in a fresh JVM: the one of
/// the reader's record, and those it passes on to the record types its fields hold.
///
/// ```
/// use hadoop_record::archive::binary::RawInput;
/// use hadoop_record::meta::{Filters, RecordTypeInfo};
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// use hadoop_record::Value;
///
/// let mut schema = Schema::new();
/// let old = schema.add(RecordType {
///     module: "v1".into(),
///     name: "R".into(),
///     fields: vec![FieldDef::new("id", FieldType::Int), FieldDef::new("gone", FieldType::String)],
/// });
/// let new = schema.add(RecordType {
///     module: "v2".into(),
///     name: "R".into(),
///     fields: vec![FieldDef::new("added", FieldType::Bool), FieldDef::new("id", FieldType::Int)],
/// });
/// // v1.R{id: 7, gone: "x"} in binary, read as v2.R.
/// let filters = Filters::new(&schema, new, &RecordTypeInfo::of(&schema, old));
/// let value = filters.read_record(&mut RawInput::new(&[7, 1, b'x']), &schema, "")?;
/// assert_eq!(value, Value::Record(vec![Value::Bool(false), Value::Int(7)]));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Filters {
    reader: RecordId,
    plans: HashMap<RecordId, Plan>,
}

/// One record type's filter: the writer's fields, and for each the reader's field it is read
/// into (`None`: skipped).
#[derive(Debug, Clone)]
struct Plan {
    fields: Vec<FieldTypeInfo>,
    targets: Vec<Option<usize>>,
}

impl Filters {
    /// The filters of reading record `reader` of `schema` from data written with `info`.
    pub fn new(schema: &Schema, reader: RecordId, info: &RecordTypeInfo) -> Filters {
        let mut filters = Filters {
            reader,
            plans: HashMap::new(),
        };
        filters.set(schema, reader, info);
        filters
    }

    /// `setTypeFilter(info)` on `id`: its own filter, then `Nested.setTypeFilter(
    /// info.getNestedStructTypeInfo("Nested"))` for every record type its fields hold, in
    /// order of first appearance; a filter that is not found changes nothing (Java ignores
    /// `setTypeFilter(null)`), a later one replaces an earlier one (they are per class).
    fn set(&mut self, schema: &Schema, id: RecordId, info: &RecordTypeInfo) {
        let reader = &schema.record(id).fields;
        let targets = info
            .fields
            .iter()
            .map(|wanted| {
                reader.iter().position(|f| {
                    FieldTypeInfo::new(f.name.clone(), TypeId::shallow(&f.ty)).hadoop_eq(wanted)
                })
            })
            .collect();
        self.plans.insert(
            id,
            Plan {
                fields: info.fields.clone(),
                targets,
            },
        );
        let mut nested = Vec::new();
        for field in reader {
            records_in(&field.ty, &mut nested);
        }
        for record in nested {
            if let Some(inner) = info.nested(&schema.record(record).name) {
                self.set(schema, record, &inner);
            }
        }
    }

    /// Whether record type `id` reads with a filter.
    pub fn applies_to(&self, id: RecordId) -> bool {
        self.plans.contains_key(&id)
    }

    /// Reads one record of the reader's type, written under `tag`.
    pub fn read_record<I: RecordInput + ?Sized>(
        &self,
        input: &mut I,
        schema: &Schema,
        tag: &str,
    ) -> Result<Value> {
        read_value_filtered(
            input,
            schema,
            &FieldType::Record(self.reader),
            tag,
            Some(self),
        )
    }

    /// Reads a record of type `id` with its filter (the caller checked [`Self::applies_to`]):
    /// each written field into its target, or skipped; fields not written are empty.
    pub(crate) fn read_filtered<I: RecordInput + ?Sized>(
        &self,
        input: &mut I,
        schema: &Schema,
        id: RecordId,
        tag: &str,
    ) -> Result<Value> {
        let plan = &self.plans[&id];
        let reader = &schema.record(id).fields;
        let mut values: Vec<Value> = reader.iter().map(|f| Value::empty(schema, &f.ty)).collect();
        input.start_record(tag)?;
        for (written, target) in plan.fields.iter().zip(&plan.targets) {
            let result = match target {
                Some(j) => {
                    read_value_filtered(input, schema, &reader[*j].ty, &reader[*j].name, Some(self))
                        .map(|v| values[*j] = v)
                }
                None => skip(input, &written.type_id, &written.name),
            };
            result.map_err(|e| e.in_field(&written.name))?;
        }
        input.end_record(tag)?;
        Ok(Value::Record(values))
    }
}

/// The record types `ty` holds, each once, in order of first appearance.
fn records_in(ty: &FieldType, out: &mut Vec<RecordId>) {
    match ty {
        FieldType::Vector(e) => records_in(e, out),
        FieldType::Map(k, v) => {
            records_in(k, out);
            records_in(v, out);
        }
        FieldType::Record(id) if !out.contains(id) => out.push(*id),
        _ => {}
    }
}

/// Reads past one value of type `ty` (Hadoop's `meta.Utils.skip`).
pub(crate) fn skip<I: RecordInput + ?Sized>(input: &mut I, ty: &TypeId, tag: &str) -> Result<()> {
    match ty {
        TypeId::Bool => input.read_bool(tag).map(drop),
        TypeId::Buffer => input.read_buffer(tag).map(drop),
        TypeId::Byte => input.read_byte(tag).map(drop),
        TypeId::Double => input.read_double(tag).map(drop),
        TypeId::Float => input.read_float(tag).map(drop),
        TypeId::Int => input.read_int(tag).map(drop),
        TypeId::Long => input.read_long(tag).map(drop),
        TypeId::String => input.read_string(tag).map(drop),
        TypeId::Map(key, value) => {
            let mut index = input.start_map(tag)?;
            while input.next_element(&mut index)? {
                skip(input, key, tag)?;
                skip(input, value, tag)?;
            }
            input.end_map(tag)
        }
        TypeId::Vector(element) => {
            let mut index = input.start_vector(tag)?;
            while input.next_element(&mut index)? {
                skip(input, element, tag)?;
            }
            input.end_vector(tag)
        }
        TypeId::Struct(fields) => {
            input.start_record(tag)?;
            for field in fields {
                skip(input, &field.type_id, tag).map_err(|e| e.in_field(&field.name))?;
            }
            input.end_record(tag)
        }
    }
}
