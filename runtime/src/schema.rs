//! The runtime schema model: record types with ordered, typed fields, as Hadoop's
//! `RecordTypeInfo`/`TypeID`. Derived and generated types describe themselves with it, the
//! compiler's checked model converts into it, and the schema-driven codec reads and writes
//! [`crate::Value`]s from it alone.

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;

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

/// A record type within a [`Schema`].
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
    /// `module.Name`, or just `Name` without a module.
    pub fn full_name(&self) -> String {
        if self.module.is_empty() {
            self.name.clone()
        } else {
            format!("{}.{}", self.module, self.name)
        }
    }
}

/// A set of record types that may refer to each other (also recursively, through vectors
/// and maps).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schema {
    records: Vec<RecordType>,
}

impl Schema {
    /// An empty schema.
    pub fn new() -> Self {
        Schema::default()
    }

    /// Adds a record type and returns its id. Fields may refer to ids added later.
    pub fn add(&mut self, record: RecordType) -> RecordId {
        let id = RecordId(u32::try_from(self.records.len()).expect("fewer than 2^32 records"));
        self.records.push(record);
        id
    }

    /// All record types, indexed by [`RecordId::index`].
    pub fn records(&self) -> &[RecordType] {
        &self.records
    }

    /// The record type `id`.
    ///
    /// # Panics
    /// When `id` is not from this schema.
    pub fn record(&self, id: RecordId) -> &RecordType {
        &self.records[id.index()]
    }

    /// Mutable access to record type `id`, e.g. to fill in fields after adding a placeholder.
    pub fn record_mut(&mut self, id: RecordId) -> &mut RecordType {
        &mut self.records[id.index()]
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

    /// The DDL spelling of a type, e.g. `map<ustring, vector<m.Point>>`, for messages.
    pub fn type_name(&self, ty: &FieldType) -> String {
        match ty {
            FieldType::Byte => "byte".into(),
            FieldType::Bool => "boolean".into(),
            FieldType::Int => "int".into(),
            FieldType::Long => "long".into(),
            FieldType::Float => "float".into(),
            FieldType::Double => "double".into(),
            FieldType::String => "ustring".into(),
            FieldType::Buffer => "buffer".into(),
            FieldType::Vector(t) => format!("vector<{}>", self.type_name(t)),
            FieldType::Map(k, v) => format!("map<{}, {}>", self.type_name(k), self.type_name(v)),
            FieldType::Record(id) => self.record(*id).full_name(),
        }
    }

    /// How deep a record of type `id` nests, counted as the readers count it
    /// ([`crate::archive::Depth`]: records, vectors and maps open at once, the record itself
    /// included), or `None` when it can hold itself (through a vector or map), so that only
    /// the input bounds its depth.
    ///
    /// A reader of a non-recursive schema deeper than [`crate::archive::DEFAULT_MAX_DEPTH`]
    /// accepts everything the schema can produce with
    /// `with_max_depth(schema.max_depth(id).unwrap_or(DEFAULT_MAX_DEPTH).max(DEFAULT_MAX_DEPTH))`.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// let mut s = Schema::new();
    /// let point = s.add(RecordType { module: "m".into(), name: "P".into(),
    ///     fields: vec![FieldDef::new("x", FieldType::Int)] });
    /// let line = s.add(RecordType { module: "m".into(), name: "L".into(),
    ///     fields: vec![FieldDef::new("ps", FieldType::Vector(Box::new(FieldType::Record(point))))] });
    /// assert_eq!(s.max_depth(point), Some(1));
    /// assert_eq!(s.max_depth(line), Some(3));
    /// s.record_mut(point).fields.push(FieldDef::new("more", FieldType::Vector(Box::new(FieldType::Record(line)))));
    /// assert_eq!(s.max_depth(line), None);
    /// ```
    pub fn max_depth(&self, id: RecordId) -> Option<usize> {
        /// The containers a type nests at most below where it stands, and each record it
        /// refers to with the containers above that reference.
        fn walk(ty: &FieldType, above: usize, refs: &mut Vec<(RecordId, usize)>) -> usize {
            match ty {
                FieldType::Vector(t) => walk(t, above + 1, refs) + 1,
                FieldType::Map(k, v) => walk(k, above + 1, refs).max(walk(v, above + 1, refs)) + 1,
                FieldType::Record(r) => {
                    refs.push((*r, above));
                    0
                }
                _ => 0,
            }
        }
        #[derive(Clone, Copy)]
        enum Seen {
            No,
            Open,
            Depth(usize),
        }
        let mut seen = vec![Seen::No; self.records.len()];
        // Depth-first, without recursion: chains of records can be thousands long.
        let mut stack = vec![id];
        while let Some(&r) = stack.last() {
            let mut refs = Vec::new();
            let own = self.records[r.index()]
                .fields
                .iter()
                .map(|f| walk(&f.ty, 0, &mut refs))
                .max()
                .unwrap_or(0);
            if let Seen::No = seen[r.index()] {
                seen[r.index()] = Seen::Open;
                let pending: Vec<RecordId> = refs
                    .iter()
                    .map(|&(t, _)| t)
                    .filter(|t| !matches!(seen[t.index()], Seen::Depth(_)))
                    .collect();
                if pending
                    .iter()
                    .any(|t| matches!(seen[t.index()], Seen::Open))
                {
                    return None;
                }
                if !pending.is_empty() {
                    stack.extend(pending);
                    continue;
                }
            }
            if let Seen::Depth(_) = seen[r.index()] {
                stack.pop();
                continue;
            }
            let mut depth = own;
            for &(t, above) in &refs {
                match seen[t.index()] {
                    Seen::Depth(d) => depth = depth.max(above + d),
                    _ => return None,
                }
            }
            seen[r.index()] = Seen::Depth(depth + 1);
            stack.pop();
        }
        match seen[id.index()] {
            Seen::Depth(d) => Some(d),
            _ => None,
        }
    }

    /// Hadoop's type signature of record `id`, e.g. `LOuter(LInner(sl)z)`.
    ///
    /// Nested records are inlined, as in Hadoop. A record that refers back to one of its
    /// enclosing records (possible only through a vector or map, and not expressible in
    /// Hadoop's DDL) writes the back reference as `L` + name without parentheses.
    pub fn signature(&self, id: RecordId) -> Signature {
        let mut out = String::new();
        let mut stack = Vec::new();
        self.write_record_signature(id, &mut out, &mut stack);
        Signature(out)
    }

    fn write_record_signature(&self, id: RecordId, out: &mut String, stack: &mut Vec<RecordId>) {
        let record = self.record(id);
        out.push('L');
        out.push_str(&record.name);
        if stack.contains(&id) {
            return;
        }
        stack.push(id);
        out.push('(');
        for field in &record.fields {
            self.write_type_signature(&field.ty, out, stack);
        }
        out.push(')');
        stack.pop();
    }

    fn write_type_signature(&self, ty: &FieldType, out: &mut String, stack: &mut Vec<RecordId>) {
        match ty {
            FieldType::Byte => out.push('b'),
            FieldType::Bool => out.push('z'),
            FieldType::Int => out.push('i'),
            FieldType::Long => out.push('l'),
            FieldType::Float => out.push('f'),
            FieldType::Double => out.push('d'),
            FieldType::String => out.push('s'),
            FieldType::Buffer => out.push('B'),
            FieldType::Vector(t) => {
                out.push('[');
                self.write_type_signature(t, out, stack);
                out.push(']');
            }
            FieldType::Map(k, v) => {
                out.push('{');
                self.write_type_signature(k, out, stack);
                self.write_type_signature(v, out, stack);
                out.push('}');
            }
            FieldType::Record(id) => self.write_record_signature(*id, out, stack),
        }
    }
}

/// A Hadoop type signature such as `LRecRecord1(zbilfdsB[s]{ss}LRecRecord0(s))`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature(String);

impl Signature {
    /// The signature text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::ops::Deref for Signature {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Signature {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Signature {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl From<Signature> for String {
    fn from(s: Signature) -> String {
        s.0
    }
}

/// Builds the [`Schema`] of Rust record types, each registered once even when it refers to
/// itself; used by `#[derive(Record)]`.
#[derive(Debug, Default)]
pub struct SchemaBuilder {
    schema: Schema,
    seen: HashMap<TypeId, RecordId>,
}

impl SchemaBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        SchemaBuilder::default()
    }

    /// Registers the record type `T` named `name`, describing its fields with `fields`
    /// unless it is already registered (or being registered, for recursive types).
    pub fn record<T: ?Sized + 'static>(
        &mut self,
        name: &str,
        fields: impl FnOnce(&mut SchemaBuilder) -> Vec<FieldDef>,
    ) -> RecordId {
        self.record_in::<T>("", name, fields)
    }

    /// As [`SchemaBuilder::record`], for a record type declared in the dotted DDL `module`
    /// (`#[record(module = "a.b")]`); the module shows in [`RecordType::full_name`], never
    /// in the signature.
    pub fn record_in<T: ?Sized + 'static>(
        &mut self,
        module: &str,
        name: &str,
        fields: impl FnOnce(&mut SchemaBuilder) -> Vec<FieldDef>,
    ) -> RecordId {
        if let Some(&id) = self.seen.get(&TypeId::of::<T>()) {
            return id;
        }
        let id = self.schema.add(RecordType {
            module: module.to_owned(),
            name: name.to_owned(),
            fields: Vec::new(),
        });
        self.seen.insert(TypeId::of::<T>(), id);
        let fields = fields(self);
        self.schema.record_mut(id).fields = fields;
        id
    }

    /// The finished schema.
    pub fn finish(self) -> Schema {
        self.schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(name: &str, fields: Vec<FieldDef>) -> RecordType {
        RecordType {
            module: "m".into(),
            name: name.into(),
            fields,
        }
    }

    #[test]
    fn hadoop_test_record_signature() {
        // Hadoop's RecRecord1 from its own test suite.
        let mut s = Schema::new();
        let r0 = s.add(rec(
            "RecRecord0",
            vec![FieldDef::new("StringVal", FieldType::String)],
        ));
        let t = |ty| Box::new(ty);
        let r1 = s.add(rec(
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
        ));
        assert_eq!(
            s.signature(r1),
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
        let leaf = s.add(rec("Leaf", vec![FieldDef::new("x", FieldType::Int)]));
        let mid = s.add(rec(
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
        ));
        let top = s.add(rec(
            "Top",
            vec![FieldDef::new("mid", FieldType::Record(mid))],
        ));
        assert_eq!(s.max_depth(leaf), Some(1));
        assert_eq!(s.max_depth(mid), Some(3));
        assert_eq!(s.max_depth(top), Some(4));
        // A chain of 10,000 records, one inside the next: no recursion to overflow.
        let mut s = Schema::new();
        let mut inner = s.add(rec("R0", vec![FieldDef::new("x", FieldType::Int)]));
        for i in 1..10_000 {
            inner = s.add(rec(
                &format!("R{i}"),
                vec![FieldDef::new("r", FieldType::Record(inner))],
            ));
        }
        assert_eq!(s.max_depth(inner), Some(10_000));
        // A cycle anywhere below makes the depth unbounded.
        let mut s = Schema::new();
        let a = s.add(rec("A", vec![]));
        let b = s.add(rec(
            "B",
            vec![FieldDef::new(
                "a",
                FieldType::Vector(t(FieldType::Record(a))),
            )],
        ));
        let c = s.add(rec("C", vec![FieldDef::new("b", FieldType::Record(b))]));
        s.record_mut(a).fields = vec![FieldDef::new("b", FieldType::Record(b))];
        assert_eq!(s.max_depth(c), None);
        assert_eq!(s.max_depth(a), None);
    }

    #[test]
    fn recursive_reference_ends_without_parentheses() {
        let mut s = Schema::new();
        let tree = s.add(rec("Tree", vec![]));
        s.record_mut(tree).fields = vec![
            FieldDef::new("v", FieldType::Int),
            FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(tree)))),
        ];
        assert_eq!(s.signature(tree).to_string(), "LTree(i[LTree])");
    }
}
