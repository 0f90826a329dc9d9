//! Type information, as Hadoop's `org.apache.hadoop.record.meta` has it: what a record's
//! fields are called and of which types, written next to data so that a reader of a later
//! (or earlier) version of the record can read it ([`crate::RecordReader::read_with`]).
//!
//! [`RecordTypeInfo`] reads and writes itself in binary, CSV and XML byte for byte as Hadoop's
//! does, and is a [`crate::Record`]:
//!
//! ```
//! use hadoop_record::meta::{FieldTypeInfo, RecordTypeInfo, TypeDesc};
//! use hadoop_record::{Format, RecordReader, RecordWriter};
//!
//! let info = RecordTypeInfo::new(
//!     "Point",
//!     vec![FieldTypeInfo::new("x", TypeDesc::Int), FieldTypeInfo::new("y", TypeDesc::Int)],
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
//! is *Hadoop-equal* ([`TypeDesc::hadoop_eq`]: every struct equals every struct, whatever its
//! fields), and skipped otherwise; fields the data lacks keep their empty value. A nested
//! record type reads with the type information of the writer's *field* named like that
//! record type (`RecordTypeInfo.getNestedStructTypeInfo`), when there is one; otherwise it
//! reads unfiltered, which misreads data whose nested layout changed — as Hadoop's does.

pub(crate) mod by_field;
mod compat;
mod filter;
mod filtered_input;
mod from_schema;
mod io;
mod read;

pub use compat::{compat, type_name, FieldChange, Outcome};
pub use filter::Filters;

/// The type of a field in Hadoop's type information: Hadoop's `TypeID` and its subclasses
/// (named so as not to shadow `std::any::TypeId`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeDesc {
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
    Map(Box<TypeDesc>, Box<TypeDesc>),
    /// `ustring` (9)
    String,
    /// A record (10): its fields, without a name (`StructTypeID`).
    Struct(Vec<FieldTypeInfo>),
    /// `vector<T>` (11)
    Vector(Box<TypeDesc>),
}

impl TypeDesc {
    /// Hadoop's `RIOType` byte of this type.
    #[inline]
    pub fn type_val(&self) -> i8 {
        match self {
            TypeDesc::Bool => 1,
            TypeDesc::Buffer => 2,
            TypeDesc::Byte => 3,
            TypeDesc::Double => 4,
            TypeDesc::Float => 5,
            TypeDesc::Int => 6,
            TypeDesc::Long => 7,
            TypeDesc::Map(..) => 8,
            TypeDesc::String => 9,
            TypeDesc::Struct(_) => 10,
            TypeDesc::Vector(_) => 11,
        }
    }

    /// Hadoop's `TypeID.equals`: the same kind of type, with equal element, key and value
    /// types; but any two structs are equal, whatever their fields (`StructTypeID` does not
    /// override `equals`). This is what decides which fields a type filter reads.
    ///
    /// ```
    /// use hadoop_record::meta::{FieldTypeInfo, TypeDesc};
    /// let a = TypeDesc::Struct(vec![FieldTypeInfo::new("x", TypeDesc::Int)]);
    /// let b = TypeDesc::Struct(vec![]);
    /// assert!(a.hadoop_eq(&b));
    /// assert!(!TypeDesc::Vector(Box::new(TypeDesc::Int)).hadoop_eq(&TypeDesc::Vector(Box::new(TypeDesc::Long))));
    /// ```
    pub fn hadoop_eq(&self, other: &TypeDesc) -> bool {
        match (self, other) {
            (TypeDesc::Vector(a), TypeDesc::Vector(b)) => a.hadoop_eq(b),
            (TypeDesc::Map(ka, va), TypeDesc::Map(kb, vb)) => ka.hadoop_eq(kb) && va.hadoop_eq(vb),
            (TypeDesc::Struct(_), TypeDesc::Struct(_)) => true,
            _ => self.type_val() == other.type_val() && !self.is_composite(),
        }
    }

    /// `==`, made for the check a kept filter makes before every record it reads: the same
    /// kinds compared in line, without a call per field.
    fn same_as(&self, other: &TypeDesc) -> bool {
        match (self, other) {
            (TypeDesc::Struct(a), TypeDesc::Struct(b)) => same_fields(a, b),
            (TypeDesc::Vector(a), TypeDesc::Vector(b)) => a.same_as(b),
            (TypeDesc::Map(ka, va), TypeDesc::Map(kb, vb)) => ka.same_as(kb) && va.same_as(vb),
            _ => !self.is_composite() && self.type_val() == other.type_val(),
        }
    }

    #[inline]
    pub(crate) fn is_composite(&self) -> bool {
        matches!(
            self,
            TypeDesc::Vector(_) | TypeDesc::Map(..) | TypeDesc::Struct(_)
        )
    }
}

/// A field's name and type (`FieldTypeInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldTypeInfo {
    /// The field's DDL name.
    pub name: String,
    /// Its type.
    pub type_id: TypeDesc,
}

impl FieldTypeInfo {
    /// A field `name` of type `type_id`.
    pub fn new(name: impl Into<String>, type_id: TypeDesc) -> Self {
        FieldTypeInfo {
            name: name.into(),
            type_id,
        }
    }

    /// Hadoop's `FieldTypeInfo.equals`: the same name and Hadoop-equal types
    /// ([`TypeDesc::hadoop_eq`]).
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
            TypeDesc::Struct(fields) if f.name == name => {
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
