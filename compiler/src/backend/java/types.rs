//! Java types of DDL types, as Hadoop's rcc maps them: byte→`byte`, boolean→`boolean`,
//! int→`int`, long→`long`, float→`float`, double→`double`, ustring→`String`,
//! buffer→`org.apache.hadoop.record.Buffer`, vector→`java.util.ArrayList<Boxed>`,
//! map→`java.util.TreeMap<K,V>`, record→its class. Always fully qualified, so that a record
//! named `String` or `Integer` changes nothing.
//!
//! The templates get each field's type as a tree ([`descriptor`]) and walk it with
//! recursive macros.

use serde_json::{json, Value};

use super::names::RecordNames;
use crate::model::{Primitive, Type};

const HADOOP: &str = "org.apache.hadoop.record";

/// `ty` as a Java type (primitives unboxed).
pub(crate) fn java(ty: &Type, names: &[RecordNames]) -> String {
    match ty {
        Type::Primitive(p) => primitive(*p).0.to_string(),
        other => boxed(other, names),
    }
}

/// `ty` as a Java reference type (primitives boxed), for type arguments.
pub(crate) fn boxed(ty: &Type, names: &[RecordNames]) -> String {
    match ty {
        Type::Primitive(p) => primitive(*p).1.to_string(),
        Type::Vector(e) => format!("java.util.ArrayList<{}>", boxed(e, names)),
        Type::Map(k, v) => format!(
            "java.util.TreeMap<{}, {}>",
            boxed(k, names),
            boxed(v, names)
        ),
        Type::Record(r) => names[r.index()].qualified(),
    }
}

/// (Java type, boxed type, `RecordOutput`/`RecordInput` method suffix, `TypeID` constant).
fn primitive(p: Primitive) -> (&'static str, &'static str, &'static str, &'static str) {
    match p {
        Primitive::Byte => ("byte", "java.lang.Byte", "Byte", "ByteTypeID"),
        Primitive::Boolean => ("boolean", "java.lang.Boolean", "Bool", "BoolTypeID"),
        Primitive::Int => ("int", "java.lang.Integer", "Int", "IntTypeID"),
        Primitive::Long => ("long", "java.lang.Long", "Long", "LongTypeID"),
        Primitive::Float => ("float", "java.lang.Float", "Float", "FloatTypeID"),
        Primitive::Double => ("double", "java.lang.Double", "Double", "DoubleTypeID"),
        Primitive::UString => (
            "java.lang.String",
            "java.lang.String",
            "String",
            "StringTypeID",
        ),
        Primitive::Buffer => (
            "org.apache.hadoop.record.Buffer",
            "org.apache.hadoop.record.Buffer",
            "Buffer",
            "BufferTypeID",
        ),
    }
}

/// The tree the templates walk: `kind` (`byte` … `buffer`, `vector`, `map`, `record`),
/// `java` and `boxed` types, `io` (the suffix of `writeX`/`readX`), `type_id` (Hadoop's
/// `meta` expression), `elem`, `key`, `value`, and for records `class`.
pub(crate) fn descriptor(ty: &Type, names: &[RecordNames]) -> Value {
    let mut d = json!({
        "java": java(ty, names),
        "boxed": boxed(ty, names),
        "type_id": type_id(ty, names),
    });
    let extra = match ty {
        Type::Primitive(p) => {
            let (_, _, io, _) = primitive(*p);
            json!({ "kind": p.keyword(), "io": io })
        }
        Type::Vector(e) => json!({ "kind": "vector", "elem": descriptor(e, names) }),
        Type::Map(k, v) => json!({
            "kind": "map",
            "key": descriptor(k, names),
            "value": descriptor(v, names),
        }),
        Type::Record(r) => json!({ "kind": "record", "class": names[r.index()].qualified() }),
    };
    if let (Value::Object(d), Value::Object(extra)) = (&mut d, extra) {
        d.extend(extra);
    }
    d
}

/// Hadoop's `org.apache.hadoop.record.meta` expression for `ty`'s type id.
pub(crate) fn type_id(ty: &Type, names: &[RecordNames]) -> String {
    let meta = format!("{HADOOP}.meta");
    match ty {
        Type::Primitive(p) => format!("{meta}.TypeID.{}", primitive(*p).3),
        Type::Vector(e) => format!("new {meta}.VectorTypeID({})", type_id(e, names)),
        Type::Map(k, v) => format!(
            "new {meta}.MapTypeID({}, {})",
            type_id(k, names),
            type_id(v, names)
        ),
        Type::Record(r) => format!(
            "new {meta}.StructTypeID({}.getTypeInfo())",
            names[r.index()].qualified()
        ),
    }
}
