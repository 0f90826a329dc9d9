//! [`Value`]: a record or field value held without a Rust type, read and written through a
//! [`crate::schema::Schema`].

/// A value of any DDL type. Which variant is valid where is decided by the schema.
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
    /// `map<K, V>`: entries in the order they were read or are to be written.
    Map(Vec<(Value, Value)>),
    /// A record: field values in declaration order.
    Record(Vec<Value>),
}
