//! Reading data written with a writer's type information into a reader's schema, with the
//! rules of the classes Hadoop's rcc generates (`setTypeFilter` and the filtered
//! `read_from`), see the [module docs](super).

use std::mem::Discriminant;
use std::ops::Range;

use super::{FieldTypeInfo, RecordTypeInfo, TypeDesc};
use crate::archive::RecordInput;
use crate::error::Result;
use crate::schema::{FieldDef, FieldType, RecordId, Schema};

/// The type filters in force after `Reader.setTypeFilter(info)` in a fresh JVM: the one of
/// the reader's record, and those it passes on to the record types its fields hold. Built
/// once for a reader's schema and the writer's type information, then used for every record
/// read with them ([`crate::RecordReader::read_value_with`] and
/// [`crate::RecordReader::read_with`] keep theirs).
///
/// ```
/// use hadoop_record::archive::binary::RawInput;
/// use hadoop_record::meta::{Filters, RecordTypeInfo};
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// use hadoop_record::Value;
///
/// let mut schema = Schema::new();
/// let old = schema.add(RecordType::new("v1", "R", vec![
///     FieldDef::new("id", FieldType::Int),
///     FieldDef::new("gone", FieldType::String),
/// ]))?;
/// let new = schema.add(RecordType::new("v2", "R", vec![
///     FieldDef::new("added", FieldType::Bool),
///     FieldDef::new("id", FieldType::Int),
/// ]))?;
/// // v1.R{id: 7, gone: "x"} in binary, read as v2.R.
/// let filters = Filters::new(&schema, new, &RecordTypeInfo::of(&schema, old)?)?;
/// let value = filters.read_record(&mut RawInput::new(&[7, 1, b'x']), "")?;
/// assert_eq!(value, Value::Record(vec![Value::Bool(false), Value::Int(7)]));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Filters {
    /// The reader's schema (a clone: the filters hold ids of it).
    pub(super) schema: Schema,
    pub(super) reader: RecordId,
    /// `FieldType::Record(reader)`, where a read starts.
    pub(super) root: FieldType,
    /// Each record type's filter, by [`RecordId::index`].
    plans: Vec<Option<Plan>>,
    /// Whether a record type has a filter or holds one that has (through any fields,
    /// vectors and maps), by [`RecordId::index`]: a record that does not is read as written,
    /// without looking at its fields.
    filtered_below: Vec<bool>,
    /// Whether every filter reads each written field into the reader's field at the same
    /// place (the writer's type information is the reader's): then the filters change
    /// nothing, and a read is a plain read.
    pub(super) identity: bool,
    /// Whether no field of the reader's record holds a filtered record: then a derived
    /// record reads straight from the input, field by field (`ByField`).
    pub(super) by_field: bool,
}

/// One record type's filter: the writer's fields, and for each the reader's field it is read
/// into (`None`: skipped).
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub(crate) fields: Vec<FieldTypeInfo>,
    pub(crate) targets: Vec<Option<usize>>,
    /// When the targets ascend (the writer's fields arrive in the reader's order, so that
    /// they can be read straight into it): what to do at each reader field.
    pub(crate) in_order: Option<InOrder>,
}

/// How a record whose writer's fields come in the reader's order is read.
#[derive(Debug, Clone)]
pub(crate) struct InOrder {
    /// For each reader field, the writer's fields to skip before it and whether the data
    /// holds it (then it is the next writer's field).
    pub(crate) steps: Vec<Step>,
    /// The writer's fields to skip after the last reader field the data holds.
    pub(crate) tail: Range<usize>,
}

/// See [`InOrder::steps`].
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub(crate) skip: Range<usize>,
    pub(crate) present: bool,
    /// Which kind of type the reader field has: what a read of it is checked against.
    pub(crate) kind: Discriminant<FieldType>,
}

impl InOrder {
    /// The steps of ascending `targets` into a record of `reader` fields; `None` when they
    /// do not ascend.
    fn new(targets: &[Option<usize>], reader: &[FieldDef]) -> Option<InOrder> {
        let mut steps: Vec<Step> = reader
            .iter()
            .map(|f| Step {
                skip: 0..0,
                present: false,
                kind: std::mem::discriminant(&f.ty),
            })
            .collect();
        let (mut from, mut last) = (0, None);
        for (w, target) in targets.iter().enumerate() {
            if let Some(j) = *target {
                if last >= Some(j) {
                    return None;
                }
                steps[j].skip = from..w;
                steps[j].present = true;
                (from, last) = (w + 1, Some(j));
            }
        }
        Some(InOrder {
            steps,
            tail: from..targets.len(),
        })
    }
}

impl Filters {
    /// The filters of reading record `reader` of `schema` from data written with `info`;
    /// an [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when the schema has no
    /// record `reader`.
    pub fn new(schema: &Schema, reader: RecordId, info: &RecordTypeInfo) -> Result<Filters> {
        schema.checked_record(reader)?;
        let mut filters = Filters {
            schema: schema.clone(),
            reader,
            root: FieldType::Record(reader),
            plans: vec![None; schema.records().len()],
            filtered_below: Vec::new(),
            identity: false,
            by_field: false,
        };
        filters.set(reader, info);
        filters.filtered_below = filtered_below(schema, &filters.plans);
        filters.identity = filters.plans.iter().enumerate().all(|(i, plan)| {
            plan.as_ref().is_none_or(|plan| {
                plan.targets.len() == filters.schema.records()[i].fields.len()
                    && plan.targets.iter().enumerate().all(|(w, t)| *t == Some(w))
            })
        });
        filters.by_field = filters
            .schema
            .record_at(reader)
            .fields
            .iter()
            .all(|f| !filters.filtered_in(&f.ty));
        Ok(filters)
    }

    /// `setTypeFilter(info)` on `id`: its own filter, then `Nested.setTypeFilter(
    /// info.getNestedStructTypeInfo("Nested"))` for every record type its fields hold, in
    /// order of first appearance; a filter that is not found changes nothing (Java ignores
    /// `setTypeFilter(null)`), a later one replaces an earlier one (they are per class).
    fn set(&mut self, id: RecordId, info: &RecordTypeInfo) {
        let reader = &self.schema.record_at(id).fields;
        let targets: Vec<Option<usize>> = info
            .fields
            .iter()
            .map(|wanted| {
                reader.iter().position(|f| {
                    FieldTypeInfo::new(f.name.clone(), TypeDesc::shallow(&f.ty)).hadoop_eq(wanted)
                })
            })
            .collect();
        let in_order = InOrder::new(&targets, reader);
        let mut nested = Vec::new();
        for field in reader {
            field.ty.for_each_record(&mut |r| {
                if !nested.contains(&r) {
                    nested.push(r);
                }
            });
        }
        self.plans[id.index()] = Some(Plan {
            fields: info.fields.clone(),
            targets,
            in_order,
        });
        for record in nested {
            if let Some(inner) = info.nested(&self.schema.record_at(record).name) {
                self.set(record, &inner);
            }
        }
    }

    /// The reader's schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The reader's record type.
    pub fn reader(&self) -> RecordId {
        self.reader
    }

    /// Whether record type `id` reads with a filter.
    pub fn applies_to(&self, id: RecordId) -> bool {
        self.plan(id).is_some()
    }

    /// The filter of record type `id`, if it has one.
    #[inline]
    pub(crate) fn plan(&self, id: RecordId) -> Option<&Plan> {
        self.plans.get(id.index()).and_then(Option::as_ref)
    }

    /// Whether a value of `ty` may hold a record with a filter.
    pub(crate) fn filtered_in(&self, ty: &FieldType) -> bool {
        match ty {
            FieldType::Vector(e) => self.filtered_in(e),
            FieldType::Map(k, v) => self.filtered_in(k) || self.filtered_in(v),
            FieldType::Record(id) => self.filtered_below.get(id.index()) == Some(&true),
            _ => false,
        }
    }
}

/// [`Filters::filtered_below`]: the records with a plan, and every record that holds one of
/// them, found by walking from each planned record to the records that refer to it.
fn filtered_below(schema: &Schema, plans: &[Option<Plan>]) -> Vec<bool> {
    let mut holders: Vec<Vec<RecordId>> = vec![Vec::new(); plans.len()];
    for holder in schema.ids() {
        for field in &schema.record_at(holder).fields {
            field
                .ty
                .for_each_record(&mut |held| holders[held.index()].push(holder));
        }
    }
    let mut marked: Vec<bool> = plans.iter().map(Option::is_some).collect();
    let mut pending: Vec<usize> = (0..plans.len()).filter(|&i| marked[i]).collect();
    while let Some(held) = pending.pop() {
        for holder in &holders[held] {
            if !marked[holder.index()] {
                marked[holder.index()] = true;
                pending.push(holder.index());
            }
        }
    }
    marked
}

/// Reads past one value of type `ty` (Hadoop's `meta.Utils.skip`).
pub(crate) fn skip<I: RecordInput + ?Sized>(input: &mut I, ty: &TypeDesc, tag: &str) -> Result<()> {
    match ty {
        TypeDesc::Bool => input.read_bool(tag).map(drop),
        TypeDesc::Buffer => input.read_buffer(tag).map(drop),
        TypeDesc::Byte => input.read_byte(tag).map(drop),
        TypeDesc::Double => input.read_double(tag).map(drop),
        TypeDesc::Float => input.read_float(tag).map(drop),
        TypeDesc::Int => input.read_int(tag).map(drop),
        TypeDesc::Long => input.read_long(tag).map(drop),
        TypeDesc::String => input.read_string(tag).map(drop),
        TypeDesc::Map(key, value) => {
            let mut index = input.start_map(tag)?;
            while input.next_element(&mut index)? {
                skip(input, key, tag)?;
                skip(input, value, tag)?;
            }
            input.end_map(tag)
        }
        TypeDesc::Vector(element) => {
            let mut index = input.start_vector(tag)?;
            while input.next_element(&mut index)? {
                skip(input, element, tag)?;
            }
            input.end_vector(tag)
        }
        TypeDesc::Struct(fields) => {
            input.start_record(tag)?;
            for field in fields {
                skip(input, &field.type_id, tag).map_err(|e| e.in_field(&field.name))?;
            }
            input.end_record(tag)
        }
    }
}
