//! The type information of a record of a runtime [`Schema`]: what the class Hadoop's rcc
//! generates returns from `getTypeInfo()`.

use std::collections::HashMap;

use super::{FieldTypeInfo, RecordTypeInfo, TypeDesc};
use crate::error::Result;
use crate::schema::{FieldType, RecordId, Schema};

impl RecordTypeInfo {
    /// The type information of record `id` of `schema`, as `getTypeInfo()` of the class
    /// Hadoop's rcc generates for it: its simple name, and its fields with nested records
    /// expanded into their fields.
    ///
    /// A record that holds itself (through a vector or map, which Hadoop's DDL cannot
    /// express) gets what Java's class initialisation gives: the inner occurrence lists the
    /// fields declared before it.
    ///
    /// ```
    /// use hadoop_record::meta::{FieldTypeInfo, RecordTypeInfo, TypeDesc};
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    ///
    /// let mut schema = Schema::new();
    /// let point = schema.add(RecordType::new("geo", "Point", vec![FieldDef::new("x", FieldType::Int)]))?;
    /// let line = schema.add(RecordType::new("geo", "Line", vec![FieldDef::new("from", FieldType::Record(point))]))?;
    /// let info = RecordTypeInfo::of(&schema, line)?;
    /// let x = FieldTypeInfo::new("x", TypeDesc::Int);
    /// assert_eq!(info, RecordTypeInfo::new("Line", vec![FieldTypeInfo::new("from", TypeDesc::Struct(vec![x]))]));
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    ///
    /// An [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when the schema has no
    /// record `id`.
    pub fn of(schema: &Schema, id: RecordId) -> Result<RecordTypeInfo> {
        schema.checked_record(id)?;
        Ok(RecordTypeInfo::of_checked(schema, id))
    }

    /// [`RecordTypeInfo::of`] a checked id.
    pub(crate) fn of_checked(schema: &Schema, id: RecordId) -> RecordTypeInfo {
        let mut init = ClassInit {
            schema,
            fields: HashMap::new(),
        };
        RecordTypeInfo::new(schema.record_at(id).name.clone(), init.fields_of(id))
    }
}

impl TypeDesc {
    /// `ty`'s type id with records left empty: enough to decide [`TypeDesc::hadoop_eq`], for
    /// which every struct is alike.
    pub fn shallow(ty: &FieldType) -> TypeDesc {
        type_id(ty, &mut |_| Vec::new())
    }
}

/// Java's static initialisation of the generated classes, simulated: each record's field
/// list is built once, and a record met again while its own list is being built sees the
/// fields added so far.
struct ClassInit<'s> {
    schema: &'s Schema,
    fields: HashMap<RecordId, Vec<FieldTypeInfo>>,
}

impl ClassInit<'_> {
    fn fields_of(&mut self, id: RecordId) -> Vec<FieldTypeInfo> {
        if let Some(fields) = self.fields.get(&id) {
            return fields.clone();
        }
        self.fields.insert(id, Vec::new());
        let schema = self.schema;
        for def in &schema.record_at(id).fields {
            let info = FieldTypeInfo::new(
                def.name.clone(),
                type_id(&def.ty, &mut |r| self.fields_of(r)),
            );
            self.fields.get_mut(&id).expect("inserted above").push(info);
        }
        self.fields[&id].clone()
    }
}

fn type_id(ty: &FieldType, record: &mut dyn FnMut(RecordId) -> Vec<FieldTypeInfo>) -> TypeDesc {
    match ty {
        FieldType::Byte => TypeDesc::Byte,
        FieldType::Bool => TypeDesc::Bool,
        FieldType::Int => TypeDesc::Int,
        FieldType::Long => TypeDesc::Long,
        FieldType::Float => TypeDesc::Float,
        FieldType::Double => TypeDesc::Double,
        FieldType::String => TypeDesc::String,
        FieldType::Buffer => TypeDesc::Buffer,
        FieldType::Vector(e) => TypeDesc::Vector(Box::new(type_id(e, record))),
        FieldType::Map(k, v) => {
            TypeDesc::Map(Box::new(type_id(k, record)), Box::new(type_id(v, record)))
        }
        FieldType::Record(id) => TypeDesc::Struct(record(*id)),
    }
}
