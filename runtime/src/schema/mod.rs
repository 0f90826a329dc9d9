//! The runtime schema model: record types with ordered, typed fields, as Hadoop's
//! `RecordTypeInfo`/`TypeID`. Derived and generated types describe themselves with it, the
//! compiler's checked model converts into it, and the schema-driven codec reads and writes
//! [`crate::Value`]s from it alone.
//!
//! A [`Schema`] is always whole: every [`FieldType::Record`] in it names a record of the same
//! schema. [`Schema::add`] refuses a record that refers to one not yet added; records that
//! refer to each other are declared first and defined after ([`Schema::declare`],
//! [`Schema::define`]). So a [`RecordId`] from the schema is all a reader or writer needs,
//! and every function that takes a [`RecordId`] or a [`FieldType`] from elsewhere checks it
//! and returns an [`ErrorKind::Schema`] error, never panics, for a record the schema lacks.
//!
//! ```
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//!
//! let mut schema = Schema::new();
//! let point = schema.add(RecordType::new("geo", "Point", vec![
//!     FieldDef::new("x", FieldType::Int),
//!     FieldDef::new("y", FieldType::Int),
//! ]))?;
//! // A tree of points: `Tree` holds itself through a vector.
//! let tree = schema.declare("geo", "Tree");
//! schema.define(tree, vec![
//!     FieldDef::new("at", FieldType::Record(point)),
//!     FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(tree)))),
//! ])?;
//! assert_eq!(schema.signature(tree)?, "LTree(LPoint(ii)[LTree])");
//! assert_eq!(schema.field_index(tree, "kids"), Some(1));
//!
//! // A reference to a record of another schema is refused.
//! let mut other = Schema::new();
//! let e = other.add(RecordType::new("geo", "Line", vec![FieldDef::new("p", FieldType::Record(tree))]));
//! assert_eq!(e.unwrap_err().kind(), hadoop_record::ErrorKind::Schema);
//! # Ok::<(), hadoop_record::Error>(())
//! ```

mod builder;
mod depth;
mod signature;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, ErrorKind, Result};

pub use builder::SchemaBuilder;
pub use signature::Signature;

/// The type of a field, mirroring the DDL.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// `byte` (i8)
    Byte,
    /// `boolean`
    Bool,
    /// `int` (i32)
    Int,
    /// `long` (i64)
    Long,
    /// `float` (f32)
    Float,
    /// `double` (f64)
    Double,
    /// `ustring`
    String,
    /// `buffer`
    Buffer,
    /// `vector<T>`
    Vector(Box<FieldType>),
    /// `map<K, V>`
    Map(Box<FieldType>, Box<FieldType>),
    /// A record type of the same [`Schema`].
    Record(RecordId),
}

impl FieldType {
    /// Calls `f` with every record this type refers to, in order (once per mention).
    pub(crate) fn for_each_record(&self, f: &mut impl FnMut(RecordId)) {
        match self {
            FieldType::Vector(e) => e.for_each_record(f),
            FieldType::Map(k, v) => {
                k.for_each_record(f);
                v.for_each_record(f);
            }
            FieldType::Record(id) => f(*id),
            _ => {}
        }
    }
}

/// A record type within a [`Schema`]: its position there, handed out by [`Schema::add`],
/// [`Schema::declare`] and [`Schema::find`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(u32);

impl RecordId {
    /// Position of the record in [`Schema::records`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A field of a record type: its DDL name and type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldDef {
    /// The field's name as in the DDL (the XML `<name>`).
    pub name: String,
    /// The field's type.
    pub ty: FieldType,
}

impl FieldDef {
    /// A field named `name` of type `ty`.
    pub fn new(name: impl Into<String>, ty: FieldType) -> Self {
        FieldDef {
            name: name.into(),
            ty,
        }
    }
}

/// A record type: its module, its simple name and its fields in declaration order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RecordType {
    /// Dotted DDL module name; empty for types that have none (hand-written structs).
    pub module: String,
    /// The simple class name, as it appears in the signature.
    pub name: String,
    /// Fields in declaration order.
    pub fields: Vec<FieldDef>,
}

impl RecordType {
    /// A record type `module.name` with `fields`.
    pub fn new(module: impl Into<String>, name: impl Into<String>, fields: Vec<FieldDef>) -> Self {
        RecordType {
            module: module.into(),
            name: name.into(),
            fields,
        }
    }

    /// `module.Name`, or just `Name` without a module.
    pub fn full_name(&self) -> String {
        if self.module.is_empty() {
            self.name.clone()
        } else {
            format!("{}.{}", self.module, self.name)
        }
    }

    /// The position of the field `name`, the first of that name.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// A set of record types that may refer to each other (also recursively, through vectors
/// and maps). See the [module docs](self) for what it guarantees.
#[derive(Clone, Default)]
pub struct Schema {
    records: Vec<RecordType>,
    /// Which version of which schema this is: a fresh number from [`STAMPS`] whenever the
    /// records change, copied by `clone`, so that two schemas with the same stamp hold the
    /// same records. Lets a reader keep what it built for a schema ([`crate::meta::Filters`])
    /// and know it still applies without comparing the schemas. (`new` gives 0: all empty.)
    stamp: u64,
}

/// The source of [`Schema`] stamps.
static STAMPS: AtomicU64 = AtomicU64::new(1);

impl PartialEq for Schema {
    fn eq(&self, other: &Schema) -> bool {
        self.stamp == other.stamp || self.records == other.records
    }
}

impl Eq for Schema {}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema")
            .field("records", &self.records)
            .finish()
    }
}

impl Schema {
    /// An empty schema.
    pub fn new() -> Self {
        Schema::default()
    }

    /// Adds a record type and returns its id.
    ///
    /// Its fields may refer to records already in the schema, and to the record itself
    /// (the id this returns, [`Schema::next_id`]); a reference to any other id is an
    /// [`ErrorKind::Schema`] error, and nothing is added. Records that refer to records added
    /// after them are [declared](Schema::declare) first.
    pub fn add(&mut self, record: RecordType) -> Result<RecordId> {
        let id = self.next_id();
        self.check_fields(&record.name, &record.fields, self.records.len() + 1)?;
        self.records.push(record);
        self.touch();
        Ok(id)
    }

    /// Adds a record type `module.name` with no fields yet and returns its id, for records
    /// that refer to each other: declare them all, then give each its fields with
    /// [`Schema::define`]. A record never defined has no fields.
    pub fn declare(&mut self, module: impl Into<String>, name: impl Into<String>) -> RecordId {
        let id = self.next_id();
        self.records.push(RecordType::new(module, name, Vec::new()));
        self.touch();
        id
    }

    /// Sets the fields of record `id` (replacing any it had). They may refer to every
    /// record of the schema; an id the schema lacks, for `id` or in a field, is an
    /// [`ErrorKind::Schema`] error, and nothing changes.
    pub fn define(&mut self, id: RecordId, fields: Vec<FieldDef>) -> Result<()> {
        let name = &self.checked_record(id)?.name;
        self.check_fields(name, &fields, self.records.len())?;
        self.records[id.index()].fields = fields;
        self.touch();
        Ok(())
    }

    /// The id the next record added or declared gets.
    pub fn next_id(&self) -> RecordId {
        RecordId(u32::try_from(self.records.len()).expect("fewer than 2^32 records"))
    }

    /// All record types, indexed by [`RecordId::index`].
    pub fn records(&self) -> &[RecordType] {
        &self.records
    }

    /// The ids of all record types, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = RecordId> + '_ {
        (0..self.records.len()).map(|i| RecordId(i as u32))
    }

    /// The record type `id`, or `None` when the schema has no record `id` (an id of a larger
    /// schema). An id of another schema that is in range names this schema's record there:
    /// ids are positions.
    pub fn record(&self, id: RecordId) -> Option<&RecordType> {
        self.records.get(id.index())
    }

    /// The record type `id`, or an [`ErrorKind::Schema`] error naming the id.
    pub(crate) fn checked_record(&self, id: RecordId) -> Result<&RecordType> {
        self.records
            .get(id.index())
            .ok_or_else(|| self.no_record(id))
    }

    /// The record type `id`, which the caller checked (it came from this schema, through
    /// [`Schema::check`] or [`Schema::checked_record`]): the fast path of readers and
    /// writers.
    #[inline]
    pub(crate) fn record_at(&self, id: RecordId) -> &RecordType {
        &self.records[id.index()]
    }

    /// Whether every record `ty` refers to is in this schema; an [`ErrorKind::Schema`]
    /// error naming the first that is not.
    pub fn check(&self, ty: &FieldType) -> Result<()> {
        let mut missing = None;
        ty.for_each_record(&mut |id| {
            if missing.is_none() && id.index() >= self.records.len() {
                missing = Some(id);
            }
        });
        match missing {
            None => Ok(()),
            Some(id) => Err(self.no_record(id)),
        }
    }

    #[cold]
    fn no_record(&self, id: RecordId) -> Error {
        Error::new(
            ErrorKind::Schema,
            format!(
                "record id {} is not in this schema (of {} records)",
                id.0,
                self.records.len()
            ),
        )
    }

    /// Refuses `fields` of record `name` that refer to records at or past `limit`.
    fn check_fields(&self, name: &str, fields: &[FieldDef], limit: usize) -> Result<()> {
        for field in fields {
            let mut bad = None;
            field.ty.for_each_record(&mut |r| {
                if bad.is_none() && r.index() >= limit {
                    bad = Some(r);
                }
            });
            if let Some(r) = bad {
                let message = format!(
                    "refers to record id {}, which is not in the schema (of {limit} records; \
                     declare records before referring to them)",
                    r.0
                );
                return Err(Error::new(ErrorKind::Schema, message)
                    .in_field(&field.name)
                    .in_field(name));
            }
        }
        Ok(())
    }

    /// A fresh stamp: the records changed.
    fn touch(&mut self) {
        self.stamp = STAMPS.fetch_add(1, Ordering::Relaxed);
    }

    /// Which version of which schema this is (see the field).
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Looks a record up by `module.Name`, or by simple name when that is unique.
    pub fn find(&self, name: &str) -> Option<RecordId> {
        if let Some(i) = self.records.iter().position(|r| r.full_name() == name) {
            return Some(RecordId(i as u32));
        }
        let mut matches = self
            .records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.name == name);
        match (matches.next(), matches.next()) {
            (Some((i, _)), None) => Some(RecordId(i as u32)),
            _ => None,
        }
    }

    /// The position of record `id`'s field `name` (the first of that name), or `None` when
    /// there is no such record or field. Look a field up once, then index
    /// [`crate::Value::as_record`] with it; [`crate::Value::field`] does both.
    pub fn field_index(&self, id: RecordId, name: &str) -> Option<usize> {
        self.record(id)?.field_index(name)
    }

    /// The DDL spelling of a type, e.g. `map<ustring, vector<m.Point>>`, for messages; an
    /// [`ErrorKind::Schema`] error for a record the schema lacks.
    pub fn type_name(&self, ty: &FieldType) -> Result<String> {
        self.check(ty)?;
        Ok(self.name_of(ty))
    }

    /// [`Schema::type_name`] of a checked type.
    pub(crate) fn name_of(&self, ty: &FieldType) -> String {
        match ty {
            FieldType::Byte => "byte".into(),
            FieldType::Bool => "boolean".into(),
            FieldType::Int => "int".into(),
            FieldType::Long => "long".into(),
            FieldType::Float => "float".into(),
            FieldType::Double => "double".into(),
            FieldType::String => "ustring".into(),
            FieldType::Buffer => "buffer".into(),
            FieldType::Vector(t) => format!("vector<{}>", self.name_of(t)),
            FieldType::Map(k, v) => format!("map<{}, {}>", self.name_of(k), self.name_of(v)),
            FieldType::Record(id) => self.record_at(*id).full_name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(name: &str, fields: Vec<FieldDef>) -> RecordType {
        RecordType::new("m", name, fields)
    }

    #[test]
    fn hadoop_test_record_signature() {
        // Hadoop's RecRecord1 from its own test suite.
        let mut s = Schema::new();
        let r0 = s
            .add(rec(
                "RecRecord0",
                vec![FieldDef::new("StringVal", FieldType::String)],
            ))
            .unwrap();
        let t = |ty| Box::new(ty);
        let r1 = s
            .add(rec(
                "RecRecord1",
                vec![
                    FieldDef::new("a", FieldType::Bool),
                    FieldDef::new("b", FieldType::Byte),
                    FieldDef::new("c", FieldType::Int),
                    FieldDef::new("d", FieldType::Long),
                    FieldDef::new("e", FieldType::Float),
                    FieldDef::new("f", FieldType::Double),
                    FieldDef::new("g", FieldType::String),
                    FieldDef::new("h", FieldType::Buffer),
                    FieldDef::new("i", FieldType::Vector(t(FieldType::String))),
                    FieldDef::new(
                        "j",
                        FieldType::Map(t(FieldType::String), t(FieldType::String)),
                    ),
                    FieldDef::new("k", FieldType::Record(r0)),
                ],
            ))
            .unwrap();
        assert_eq!(
            s.signature(r1).unwrap(),
            "LRecRecord1(zbilfdsB[s]{ss}LRecRecord0(s))"
        );
        assert_eq!(s.find("m.RecRecord0"), Some(r0));
        assert_eq!(s.find("RecRecord1"), Some(r1));
        assert_eq!(s.find("Nope"), None);
    }

    #[test]
    fn max_depth_counts_records_vectors_and_maps_along_the_deepest_chain() {
        let t = |ty| Box::new(ty);
        let mut s = Schema::new();
        let leaf = s
            .add(rec("Leaf", vec![FieldDef::new("x", FieldType::Int)]))
            .unwrap();
        let mid = s
            .add(rec(
                "Mid",
                vec![
                    FieldDef::new(
                        "a",
                        FieldType::Vector(t(FieldType::Vector(t(FieldType::Int)))),
                    ),
                    FieldDef::new(
                        "m",
                        FieldType::Map(t(FieldType::String), t(FieldType::Record(leaf))),
                    ),
                ],
            ))
            .unwrap();
        let top = s
            .add(rec(
                "Top",
                vec![FieldDef::new("mid", FieldType::Record(mid))],
            ))
            .unwrap();
        assert_eq!(s.max_depth(leaf).unwrap(), Some(1));
        assert_eq!(s.max_depth(mid).unwrap(), Some(3));
        assert_eq!(s.max_depth(top).unwrap(), Some(4));
        // A chain of 10,000 records, one inside the next: no recursion to overflow.
        let mut s = Schema::new();
        let mut inner = s
            .add(rec("R0", vec![FieldDef::new("x", FieldType::Int)]))
            .unwrap();
        for i in 1..10_000 {
            let fields = vec![FieldDef::new("r", FieldType::Record(inner))];
            inner = s.add(rec(&format!("R{i}"), fields)).unwrap();
        }
        assert_eq!(s.max_depth(inner).unwrap(), Some(10_000));
        // A cycle anywhere below makes the depth unbounded.
        let mut s = Schema::new();
        let a = s.declare("m", "A");
        let b = s
            .add(rec(
                "B",
                vec![FieldDef::new(
                    "a",
                    FieldType::Vector(t(FieldType::Record(a))),
                )],
            ))
            .unwrap();
        let c = s
            .add(rec("C", vec![FieldDef::new("b", FieldType::Record(b))]))
            .unwrap();
        s.define(a, vec![FieldDef::new("b", FieldType::Record(b))])
            .unwrap();
        assert_eq!(s.max_depth(c).unwrap(), None);
        assert_eq!(s.max_depth(a).unwrap(), None);
    }

    #[test]
    fn recursive_reference_ends_without_parentheses() {
        let mut s = Schema::new();
        // Added whole: a record may refer to itself.
        let tree = s.next_id();
        let fields = vec![
            FieldDef::new("v", FieldType::Int),
            FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(tree)))),
        ];
        assert_eq!(s.add(rec("Tree", fields)).unwrap(), tree);
        assert_eq!(s.signature(tree).unwrap().to_string(), "LTree(i[LTree])");
    }

    #[test]
    fn a_schema_stays_whole_and_its_stamp_follows_its_records() {
        let mut s = Schema::new();
        let a = s.add(rec("A", vec![])).unwrap();
        let stamp = s.stamp();
        // A reference past the record being added is refused, and nothing is added.
        let ahead = RecordId(2);
        let e = s
            .add(rec("B", vec![FieldDef::new("x", FieldType::Record(ahead))]))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Schema);
        assert_eq!(e.path(), "B.x");
        assert_eq!((s.records().len(), s.stamp()), (1, stamp));
        assert!(s.define(ahead, vec![]).is_err());
        assert!(s
            .define(a, vec![FieldDef::new("x", FieldType::Record(ahead))])
            .is_err());
        assert_eq!(s.stamp(), stamp);
        // A clone is the same version; a change makes a new one.
        let copy = s.clone();
        assert_eq!(copy.stamp(), stamp);
        s.define(a, vec![FieldDef::new("n", FieldType::Int)])
            .unwrap();
        assert_ne!(s.stamp(), stamp);
        assert_ne!(s, copy);
        assert!(s.check(&FieldType::Record(ahead)).is_err());
        assert!(s
            .type_name(&FieldType::Vector(Box::new(FieldType::Record(ahead))))
            .is_err());
        assert_eq!(s.type_name(&FieldType::Record(a)).unwrap(), "m.A");
    }
}
