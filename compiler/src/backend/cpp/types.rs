//! DDL types in generated C++: the C++ type of a field, the runtime's class describing its
//! DDL type (`::hadoop::ddl::…`), and its default member initializer.

use super::Names;
use crate::model::{Primitive, Type};

/// The C++ type of a field of type `ty`.
pub(crate) fn cpp(ty: &Type, names: &Names) -> String {
    match ty {
        Type::Primitive(p) => match p {
            Primitive::Byte => "::std::int8_t",
            Primitive::Boolean => "bool",
            Primitive::Int => "::std::int32_t",
            Primitive::Long => "::std::int64_t",
            Primitive::Float => "float",
            Primitive::Double => "double",
            Primitive::UString | Primitive::Buffer => "::std::string",
        }
        .to_owned(),
        Type::Vector(t) => format!("::std::vector<{}>", cpp(t, names)),
        Type::Map(k, v) => {
            if needs_key_less(k) {
                format!(
                    "::std::map<{}, {}, ::hadoop::KeyLess<{}>>",
                    cpp(k, names),
                    cpp(v, names),
                    descriptor(k, names)
                )
            } else {
                format!("::std::map<{}, {}>", cpp(k, names), cpp(v, names))
            }
        }
        Type::Record(r) => names[r.index()].qualified(),
    }
}

/// Whether a map with keys of type `k` needs `::hadoop::KeyLess` because `std::less` does not
/// order them as Java's TreeMap does (as `hadoop::ddl::KeyOrder` in the runtime decides):
/// strings (UTF-16 order), floats (`Float.compare`), vectors and maps.
fn needs_key_less(k: &Type) -> bool {
    matches!(
        k,
        Type::Primitive(Primitive::UString | Primitive::Float | Primitive::Double)
            | Type::Vector(_)
            | Type::Map(..)
    )
}

/// The runtime's class for DDL type `ty`: `::hadoop::ddl::Map<::hadoop::ddl::UString, …>`.
pub(crate) fn descriptor(ty: &Type, names: &Names) -> String {
    match ty {
        Type::Primitive(p) => format!(
            "::hadoop::ddl::{}",
            match p {
                Primitive::Byte => "Byte",
                Primitive::Boolean => "Bool",
                Primitive::Int => "Int",
                Primitive::Long => "Long",
                Primitive::Float => "Float",
                Primitive::Double => "Double",
                Primitive::UString => "UString",
                Primitive::Buffer => "Buffer",
            }
        ),
        Type::Vector(t) => format!("::hadoop::ddl::Vector<{}>", descriptor(t, names)),
        Type::Map(k, v) => format!(
            "::hadoop::ddl::Map<{}, {}>",
            descriptor(k, names),
            descriptor(v, names)
        ),
        Type::Record(r) => format!("::hadoop::ddl::Rec<{}>", names[r.index()].qualified()),
    }
}

/// The default member initializer: zero for numbers, false for booleans, none otherwise.
pub(crate) fn initializer(ty: &Type) -> &'static str {
    match ty {
        Type::Primitive(Primitive::Boolean) => " = false",
        Type::Primitive(Primitive::UString | Primitive::Buffer) => "",
        Type::Primitive(_) => " = 0",
        _ => "",
    }
}
