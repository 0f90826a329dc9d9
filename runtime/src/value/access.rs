//! Building and taking apart [`Value`]s as `serde_json::Value` is: `From` for Rust values,
//! `as_*` accessors, and record fields by name through the schema.

use super::Value;
use crate::archive::Depth;
use crate::error::{Error, ErrorKind, Result};
use crate::schema::{RecordId, Schema};

/// `From` for each Rust type that stands for one DDL type: `i8` (`byte`), `bool`, `i32`
/// (`int`), `i64` (`long`), `f32`, `f64`, strings (`ustring`) and bytes (`buffer`).
///
/// There is no `From<Vec<Value>>`: a list of values is a `vector` or a record's fields, and
/// only the schema tells which. Say it with [`Value::Vector`], [`Value::Record`] or
/// [`Value::from_fields`].
macro_rules! from_scalar {
    ($($ty:ty => $variant:ident),* $(,)?) => {
        $(impl From<$ty> for Value {
            fn from(v: $ty) -> Value {
                Value::$variant(v.into())
            }
        })*
    };
}

from_scalar!(
    i8 => Byte,
    bool => Bool,
    i32 => Int,
    i64 => Long,
    f32 => Float,
    f64 => Double,
    String => String,
    &str => String,
    Box<str> => String,
    std::borrow::Cow<'_, str> => String,
    Vec<u8> => Buffer,
    &[u8] => Buffer,
);

impl<const N: usize> From<[u8; N]> for Value {
    /// A `buffer` of the bytes.
    fn from(v: [u8; N]) -> Value {
        Value::Buffer(v.to_vec())
    }
}

/// `as_*` accessors: `Some` of the content of one variant, by value (`copy`) or by
/// reference through `Deref` (`&String` as `&str`, `&Vec<Value>` as `&[Value]`).
macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident($($how:tt)*) $variant:ident -> $ty:ty;)*) => {
        $($(#[$doc])*
        pub fn $name(self: accessors!(@self $($how)*)) -> Option<$ty> {
            match self {
                Value::$variant(v) => Some(accessors!(@get v $($how)*)),
                _ => None,
            }
        })*
    };
    (@self copy) => { &Self };
    (@self ref) => { &Self };
    (@self mut) => { &mut Self };
    (@get $v:ident copy) => { *$v };
    (@get $v:ident ref) => { &**$v };
    (@get $v:ident mut) => { $v };
}

/// Accessors: each returns the content of exactly its variant, `None` for any other (no
/// conversions: an `int` is not a `long`, as in the schema).
///
/// ```
/// use hadoop_record::Value;
/// let v = Value::from("text");
/// assert_eq!(v.as_str(), Some("text"));
/// assert_eq!(v.as_bytes(), None);
/// assert_eq!(Value::from(7).as_int(), Some(7));
/// assert_eq!(Value::from(7).as_long(), None);
/// assert_eq!(Value::from(7i64).as_long(), Some(7));
/// let list = Value::Vector(vec![1.into(), 2.into()]);
/// assert_eq!(list.as_vector().map(<[Value]>::len), Some(2));
/// ```
impl Value {
    accessors! {
        /// The `byte`.
        as_byte(copy) Byte -> i8;
        /// The `boolean`.
        as_bool(copy) Bool -> bool;
        /// The `int`.
        as_int(copy) Int -> i32;
        /// The `long`.
        as_long(copy) Long -> i64;
        /// The `float`.
        as_float(copy) Float -> f32;
        /// The `double`.
        as_double(copy) Double -> f64;
        /// The `ustring`.
        as_str(ref) String -> &str;
        /// The `buffer`'s bytes.
        as_bytes(ref) Buffer -> &[u8];
        /// The `vector`'s elements.
        as_vector(ref) Vector -> &[Value];
        /// The `vector`'s elements, to change, add or remove.
        as_vector_mut(mut) Vector -> &mut Vec<Value>;
        /// The `map`'s entries, in the order they were read or given.
        as_map(ref) Map -> &[(Value, Value)];
        /// The `map`'s entries, to change, add or remove.
        as_map_mut(mut) Map -> &mut Vec<(Value, Value)>;
        /// The record's field values, in declaration order; [`Value::field`] finds one by
        /// name.
        as_record(ref) Record -> &[Value];
    }

    /// The record's field values, to change (a record keeps its number of fields: a
    /// slice).
    pub fn as_record_mut(&mut self) -> Option<&mut [Value]> {
        match self {
            Value::Record(v) => Some(v),
            _ => None,
        }
    }

    /// Whether this is jute's null.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The field `name` of this record value of type `id` of `schema`: `None` when this is
    /// not a record, the schema has no record `id`, the record no field `name`, or the value
    /// fewer fields than its type.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// use hadoop_record::Value;
    ///
    /// let mut schema = Schema::new();
    /// let point = schema.add(RecordType::new("geo", "Point", vec![
    ///     FieldDef::new("x", FieldType::Int),
    ///     FieldDef::new("label", FieldType::String),
    /// ]))?;
    /// let mut p = Value::from_fields(&schema, point, [("label", "origin".into())])?;
    /// assert_eq!(p.field(&schema, point, "x"), Some(&Value::Int(0)));
    /// assert_eq!(p.field(&schema, point, "label").and_then(Value::as_str), Some("origin"));
    /// assert_eq!(p.field(&schema, point, "z"), None);
    ///
    /// *p.field_mut(&schema, point, "x").unwrap() = 3.into();
    /// assert_eq!(p, Value::Record(vec![Value::Int(3), Value::from("origin")]));
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn field(&self, schema: &Schema, id: RecordId, name: &str) -> Option<&Value> {
        self.as_record()?.get(schema.field_index(id, name)?)
    }

    /// The field `name` of this record value, to change; see [`Value::field`].
    pub fn field_mut(&mut self, schema: &Schema, id: RecordId, name: &str) -> Option<&mut Value> {
        let index = schema.field_index(id, name)?;
        self.as_record_mut()?.get_mut(index)
    }

    /// A record of type `id` of `schema` with the fields `fields` names, each at most once,
    /// and the others empty ([`Value::empty`]), as a newly constructed record of Hadoop's
    /// classes has them. A name the record lacks, a name given twice or a record the schema
    /// lacks is an [`ErrorKind::Schema`] error. The values are not checked against the
    /// fields' types here: writing the record checks them.
    ///
    /// ```
    /// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
    /// use hadoop_record::{ErrorKind, Value};
    ///
    /// let mut schema = Schema::new();
    /// let id = schema.add(RecordType::new("m", "R", vec![
    ///     FieldDef::new("n", FieldType::Long),
    ///     FieldDef::new("data", FieldType::Buffer),
    /// ]))?;
    /// let r = Value::from_fields(&schema, id, [("data", vec![1u8, 2].into()), ("n", 5i64.into())])?;
    /// assert_eq!(r, Value::Record(vec![Value::Long(5), Value::Buffer(vec![1, 2])]));
    /// let e = Value::from_fields(&schema, id, [("m", 5i64.into())]).unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::Schema);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn from_fields<'a>(
        schema: &Schema,
        id: RecordId,
        fields: impl IntoIterator<Item = (&'a str, Value)>,
    ) -> Result<Value> {
        let record = schema.checked_record(id)?;
        let mut values: Vec<Option<Value>> = vec![None; record.fields.len()];
        for (name, value) in fields {
            let Some(i) = record.field_index(name) else {
                return Err(Error::new(
                    ErrorKind::Schema,
                    format!("{} has no field {name:?}", record.name),
                ));
            };
            if values[i].replace(value).is_some() {
                return Err(Error::new(
                    ErrorKind::Schema,
                    format!("field {name:?} of {} given twice", record.name),
                ));
            }
        }
        let mut depth = Depth::default();
        let fields = values
            .into_iter()
            .zip(&record.fields)
            .map(|(v, def)| match v {
                Some(v) => Ok(v),
                None => Value::empty_of(schema, &def.ty, &mut depth),
            });
        Ok(Value::Record(fields.collect::<Result<_>>()?))
    }
}
