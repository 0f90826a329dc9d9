//! [`Value`]: a record or field value held without a Rust type, read and written through a
//! [`crate::schema::Schema`] — the schema-driven codec.
//!
//! ```
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::value::{read_record, write_record};
//! use hadoop_record::archive::binary::RawInput;
//! use hadoop_record::Value;
//!
//! let mut schema = Schema::new();
//! let point = schema.add(RecordType::new("geo", "Point", vec![
//!     FieldDef::new("x", FieldType::Int),
//!     FieldDef::new("y", FieldType::Int),
//! ]))?;
//! // 1024 and -1 in Hadoop's binary encoding.
//! let bytes = [0x8e, 0x04, 0x00, 0xff];
//! let value = read_record(&mut RawInput::new(&bytes), &schema, point, "")?;
//! assert_eq!(value, Value::Record(vec![Value::Int(1024), Value::Int(-1)]));
//! assert_eq!(value.field(&schema, point, "x").and_then(Value::as_int), Some(1024));
//! # Ok::<(), hadoop_record::Error>(())
//! ```
//!
//! A [`Value`] is built from Rust values with `From` (`Value::from(7)`, `"text".into()`)
//! and [`Value::from_fields`], and taken apart with the `as_*` accessors and
//! [`Value::field`], as `serde_json::Value` is; the schema says which variant a field
//! holds, as the record's type would.

mod access;
mod codec;
mod compare;
mod hash;
mod input;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
mod output;

use crate::archive::Depth;
use crate::error::{Error, ErrorKind, Result};
use crate::record::Record;
use crate::schema::{FieldType, Schema};

pub(crate) use codec::{read_checked, write_checked};
pub use codec::{read_record, read_value, write_record, write_value};
pub use compare::{compare_hadoop, equals_hadoop, key_cmp};
pub use hash::hash_hadoop;
pub use input::ValueInput;
pub use output::ValueOutput;

/// The [`Value`] of a typed record: what reading its bytes with its schema
/// ([`Record::schema`]) gives, as `serde_json::to_value` is to serde.
///
/// ```
/// use hadoop_record::value::{from_value, to_value};
/// use hadoop_record::{Record, Value};
///
/// #[derive(Record, Debug, PartialEq)]
/// struct Point { x: i32, label: String }
///
/// let v = to_value(&Point { x: 1, label: "a".into() })?;
/// assert_eq!(v, Value::Record(vec![Value::Int(1), Value::from("a")]));
/// assert_eq!(from_value::<Point>(v)?, Point { x: 1, label: "a".into() });
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub fn to_value<T: Record>(record: &T) -> Result<Value> {
    let mut out = ValueOutput::new();
    record.write_to(&mut out, "")?;
    out.into_value()
        .ok_or_else(|| Error::new(ErrorKind::Schema, "the record wrote no whole value"))
}

/// The typed record of a [`Value`], as `serde_json::from_value` is to serde: the value must
/// be one record of `T`'s type, all of it read; anything else is an
/// [`ErrorKind::Schema`] error naming the field path.
pub fn from_value<T: Record>(value: Value) -> Result<T> {
    let mut input = ValueInput::new(value);
    let record = T::read_from(&mut input, "").map_err(|e| e.in_field(T::type_name()))?;
    if !input.is_done() {
        return Err(Error::new(
            ErrorKind::Schema,
            format!("the value holds more than a {}", T::type_name()),
        ));
    }
    Ok(record)
}

/// A value of any DDL type. Which variant is valid where is decided by the schema.
///
/// `From` makes one of each Rust type that stands for a DDL type: `i8` (`byte`), `bool`,
/// `i32` (`int`), `i64` (`long`), `f32`, `f64`, strings (`String`, `&str`, `Box<str>`,
/// `Cow<str>`: `ustring`) and bytes (`Vec<u8>`, `&[u8]`, `[u8; N]`: `buffer`). There is no
/// `From<Vec<Value>>`: a list of values is a `vector` or a record's fields, and only the
/// schema tells which — say it with [`Value::Vector`], [`Value::Record`] or
/// [`Value::from_fields`]. The `as_*` accessors give the content of exactly their variant.
///
/// ```
/// use hadoop_record::Value;
/// let v = Value::Vector(vec![1.into(), 2.into()]);
/// assert_eq!(v.as_vector().map(|items| items[1].as_int()), Some(Some(2)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `byte`
    Byte(i8),
    /// `boolean`
    Bool(bool),
    /// `int`
    Int(i32),
    /// `long`
    Long(i64),
    /// `float`
    Float(f32),
    /// `double`
    Double(f64),
    /// `ustring`
    String(String),
    /// `buffer`
    Buffer(Vec<u8>),
    /// `vector<T>`
    Vector(Vec<Value>),
    /// `map<K, V>`: entries in the order they were read or given; always written in Java's
    /// key order.
    Map(Vec<(Value, Value)>),
    /// A record: field values in declaration order.
    Record(Vec<Value>),
    /// Java's `null` for a `ustring`, `buffer` or `vector`, which only jute writes (a length
    /// of −1): read from jute, written to jute and JSON (`null`), refused by Hadoop's binary
    /// and XML encodings, an empty field in CSV.
    Null,
}

impl Value {
    /// The empty value of `ty`: 0, `false`, `""`, no bytes, no elements, and a record of
    /// empty fields. What a field that data does not hold reads as. An
    /// [`ErrorKind::Schema`] error when `ty` names a record the
    /// schema lacks.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// use hadoop_record::Value;
    ///
    /// let mut schema = Schema::new();
    /// let id = schema.add(RecordType::new("m", "R", vec![
    ///     FieldDef::new("s", FieldType::String),
    ///     FieldDef::new("n", FieldType::Int),
    /// ]))?;
    /// let empty = Value::empty(&schema, &FieldType::Record(id))?;
    /// assert_eq!(empty, Value::Record(vec![Value::String(String::new()), Value::Int(0)]));
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn empty(schema: &Schema, ty: &FieldType) -> Result<Value> {
        schema.check(ty)?;
        Value::empty_of(schema, ty, &mut Depth::default())
    }

    /// [`Value::empty`] of a checked type; records count against `depth`, so that a record
    /// that holds itself (not through a vector or map) is an error, not a stack overflow.
    pub(crate) fn empty_of(schema: &Schema, ty: &FieldType, depth: &mut Depth) -> Result<Value> {
        Ok(match ty {
            FieldType::Byte => Value::Byte(0),
            FieldType::Bool => Value::Bool(false),
            FieldType::Int => Value::Int(0),
            FieldType::Long => Value::Long(0),
            FieldType::Float => Value::Float(0.0),
            FieldType::Double => Value::Double(0.0),
            FieldType::String => Value::String(String::new()),
            FieldType::Buffer => Value::Buffer(Vec::new()),
            FieldType::Vector(_) => Value::Vector(Vec::new()),
            FieldType::Map(..) => Value::Map(Vec::new()),
            FieldType::Record(id) => {
                depth.enter()?;
                let fields = schema.record_at(*id).fields.iter();
                let fields = fields.map(|f| Value::empty_of(schema, &f.ty, depth));
                let record = Value::Record(fields.collect::<Result<_>>()?);
                depth.leave();
                record
            }
        })
    }

    /// The name of the variant's DDL type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Byte(_) => "byte",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "int",
            Value::Long(_) => "long",
            Value::Float(_) => "float",
            Value::Double(_) => "double",
            Value::String(_) => "ustring",
            Value::Buffer(_) => "buffer",
            Value::Vector(_) => "vector",
            Value::Map(_) => "map",
            Value::Record(_) => "record",
            Value::Null => "null",
        }
    }

    /// Equality with floats compared by bits (NaN equals NaN, −0.0 differs from 0.0): what
    /// "the same value" means for round-trip checks.
    pub fn bitwise_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits(),
            (Value::Vector(a), Value::Vector(b)) | (Value::Record(a), Value::Record(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bitwise_eq(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka.bitwise_eq(kb) && va.bitwise_eq(vb))
            }
            _ => self == other,
        }
    }
}
