//! Type information, as Hadoop's `org.apache.hadoop.record.meta` has it: what a record's
//! fields are called and of which types, written next to data so that a reader of a later
//! (or earlier) version of the record can read it ([`crate::RecordReader::read_with`]).
//!
//! [`RecordTypeInfo`] reads and writes itself in binary, CSV and XML byte for byte as Hadoop's
//! does, and is a [`crate::Record`]:
//!
//! ```
//! use hadoop_record::meta::{FieldTypeInfo, RecordTypeInfo, TypeId};
//! use hadoop_record::{Format, RecordReader, RecordWriter};
//!
//! let info = RecordTypeInfo::new(
//!     "Point",
//!     vec![FieldTypeInfo::new("x", TypeId::Int), FieldTypeInfo::new("y", TypeId::Int)],
//! );
//! let mut w = RecordWriter::new(Vec::new(), Format::Csv);
//! w.write(&info)?;
//! let csv = w.into_inner()?;
//! assert_eq!(csv, b"'Point,2,'x,6,'y,6\n");
//! let back: RecordTypeInfo = RecordReader::new(&csv[..], Format::Csv).read()?.unwrap();
//! assert_eq!(back, info);
//! # Ok::<(), hadoop_record::Error>(())
//! ```
//!
//! Hadoop's rules for reading with a writer's type information, which [`Filters`] follows:
//! a field of the data is read into the reader's first field of the same name whose type id
//! is *Hadoop-equal* ([`TypeId::hadoop_eq`]: every struct equals every struct, whatever its
//! fields), and skipped otherwise; fields the data lacks keep their empty value. A nested
//! record type reads with the type information of the writer's *field* named like that
//! record type (`RecordTypeInfo.getNestedStructTypeInfo`), when there is one; otherwise it
//! reads unfiltered, which misreads data whose nested layout changed — as Hadoop's does.

mod compat;
mod filter;
mod filtered_input;
mod from_schema;
mod io;

pub use compat::{compat, type_name, FieldChange, Outcome};
pub use filter::Filters;

/// The type of a field in Hadoop's type information (`TypeID` and its subclasses).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeId {
    /// `boolean` (type value 1)
    Bool,
    /// `buffer` (2)
    Buffer,
    /// `byte` (3)
    Byte,
    /// `double` (4)
    Double,
    /// `float` (5)
    Float,
    /// `int` (6)
    Int,
    /// `long` (7)
    Long,
    /// `map<K, V>` (8)
    Map(Box<TypeId>, Box<TypeId>),
    /// `ustring` (9)
    String,
    /// A record (10): its fields, without a name (`StructTypeID`).
    Struct(Vec<FieldTypeInfo>),
    /// `vector<T>` (11)
    Vector(Box<TypeId>),
}

impl TypeId {
    /// Hadoop's `RIOType` byte of this type.
    #[inline]
    pub fn type_val(&self) -> i8 {
        match self {
            TypeId::Bool => 1,
            TypeId::Buffer => 2,
            TypeId::Byte => 3,
            TypeId::Double => 4,
            TypeId::Float => 5,
            TypeId::Int => 6,
            TypeId::Long => 7,
            TypeId::Map(..) => 8,
            TypeId::String => 9,
            TypeId::Struct(_) => 10,
            TypeId::Vector(_) => 11,
        }
    }

    /// Hadoop's `TypeID.equals`: the same kind of type, with equal element, key and value
    /// types; but any two structs are equal, whatever their fields (`StructTypeID` does not
    /// override `equals`). This is what decides which fields a type filter reads.
    ///
    /// ```
    /// use hadoop_record::meta::{FieldTypeInfo, TypeId};
    /// let a = TypeId::Struct(vec![FieldTypeInfo::new("x", TypeId::Int)]);
    /// let b = TypeId::Struct(vec![]);
    /// assert!(a.hadoop_eq(&b));
    /// assert!(!TypeId::Vector(Box::new(TypeId::Int)).hadoop_eq(&TypeId::Vector(Box::new(TypeId::Long))));
    /// ```
    pub fn hadoop_eq(&self, other: &TypeId) -> bool {
        match (self, other) {
            (TypeId::Vector(a), TypeId::Vector(b)) => a.hadoop_eq(b),
            (TypeId::Map(ka, va), TypeId::Map(kb, vb)) => ka.hadoop_eq(kb) && va.hadoop_eq(vb),
            (TypeId::Struct(_), TypeId::Struct(_)) => true,
            _ => self.type_val() == other.type_val() && !self.is_composite(),
        }
    }

    /// `==`, made for the check a kept filter makes before every record it reads: the same
    /// kinds compared in line, without a call per field.
    fn same_as(&self, other: &TypeId) -> bool {
        match (self, other) {
            (TypeId::Struct(a), TypeId::Struct(b)) => same_fields(a, b),
            (TypeId::Vector(a), TypeId::Vector(b)) => a.same_as(b),
            (TypeId::Map(ka, va), TypeId::Map(kb, vb)) => ka.same_as(kb) && va.same_as(vb),
            _ => !self.is_composite() && self.type_val() == other.type_val(),
        }
    }

    #[inline]
    pub(crate) fn is_composite(&self) -> bool {
        matches!(
            self,
            TypeId::Vector(_) | TypeId::Map(..) | TypeId::Struct(_)
        )
    }
}

/// A field's name and type (`FieldTypeInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldTypeInfo {
    /// The field's DDL name.
    pub name: String,
    /// Its type.
    pub type_id: TypeId,
}

impl FieldTypeInfo {
    /// A field `name` of type `type_id`.
    pub fn new(name: impl Into<String>, type_id: TypeId) -> Self {
        FieldTypeInfo {
            name: name.into(),
            type_id,
        }
    }

    /// Hadoop's `FieldTypeInfo.equals`: the same name and Hadoop-equal types
    /// ([`TypeId::hadoop_eq`]).
    pub fn hadoop_eq(&self, other: &FieldTypeInfo) -> bool {
        self.name == other.name && self.type_id.hadoop_eq(&other.type_id)
    }
}

/// A record's type information (`RecordTypeInfo`): its simple DDL name and its fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordTypeInfo {
    /// The record's simple DDL class name (`Outer`, not `m.Outer`).
    pub name: String,
    /// Its fields, in declaration order.
    pub fields: Vec<FieldTypeInfo>,
}

impl RecordTypeInfo {
    /// Type information of a record `name` with `fields`.
    pub fn new(name: impl Into<String>, fields: Vec<FieldTypeInfo>) -> Self {
        RecordTypeInfo {
            name: name.into(),
            fields,
        }
    }

    /// Whether data written with `self` reads as data written with `other`: the same fields
    /// (names and types, nested records included), whatever the records' own names.
    #[inline]
    pub(crate) fn reads_as(&self, other: &RecordTypeInfo) -> bool {
        same_fields(&self.fields, &other.fields)
    }

    /// Hadoop's `getNestedStructTypeInfo(name)`: the type information of this record's
    /// *field* named `name` when that field is a record, named `name`. (Hadoop's generated
    /// code asks with the nested record's class name, so a nested filter is found only when a
    /// field is named like its record type.)
    pub fn nested(&self, name: &str) -> Option<RecordTypeInfo> {
        self.fields.iter().find_map(|f| match &f.type_id {
            TypeId::Struct(fields) if f.name == name => {
                Some(RecordTypeInfo::new(name, fields.clone()))
            }
            _ => None,
        })
    }
}

/// `==` of two field lists, for [`RecordTypeInfo::reads_as`]: what a reader checks before
/// each record it reads with kept filters, so written to run without calls for the usual
/// fields (short names, types without fields).
#[inline]
fn same_fields(a: &[FieldTypeInfo], b: &[FieldTypeInfo]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).all(|(x, y)| {
        same_bytes(x.name.as_bytes(), y.name.as_bytes())
            && x.type_id.type_val() == y.type_id.type_val()
            && (!x.type_id.is_composite() || x.type_id.same_as(&y.type_id))
    })
}

/// `a == b`, comparing short slices in line, eight bytes at a time.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 24 {
        return a == b;
    }
    let (mut a, mut b) = (a, b);
    while let (Some((x, rest_a)), Some((y, rest_b))) =
        (a.split_first_chunk::<8>(), b.split_first_chunk::<8>())
    {
        if x != y {
            return false;
        }
        (a, b) = (rest_a, rest_b);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}
