//! The elements of Hadoop's XML encoding, by name and as the exact tags Java writes.

/// The elements of Hadoop's XML encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    Value,
    Struct,
    Member,
    Name,
    Array,
    Boolean,
    I1,
    I4,
    /// Synonym of `i4` on input.
    Int,
    I8,
    Float,
    Double,
    String,
}

impl Elem {
    pub fn from_name(name: &[u8]) -> Option<Elem> {
        Some(match name {
            b"value" => Elem::Value,
            b"struct" => Elem::Struct,
            b"member" => Elem::Member,
            b"name" => Elem::Name,
            b"array" => Elem::Array,
            b"boolean" => Elem::Boolean,
            b"ex:i1" => Elem::I1,
            b"i4" => Elem::I4,
            b"int" => Elem::Int,
            b"ex:i8" => Elem::I8,
            b"ex:float" => Elem::Float,
            b"double" => Elem::Double,
            b"string" => Elem::String,
            _ => return None,
        })
    }

    /// The element name.
    pub fn name(self) -> &'static str {
        match self {
            Elem::Value => "value",
            Elem::Struct => "struct",
            Elem::Member => "member",
            Elem::Name => "name",
            Elem::Array => "array",
            Elem::Boolean => "boolean",
            Elem::I1 => "ex:i1",
            Elem::I4 => "i4",
            Elem::Int => "int",
            Elem::I8 => "ex:i8",
            Elem::Float => "ex:float",
            Elem::Double => "double",
            Elem::String => "string",
        }
    }

    /// `<name>`, as written.
    pub fn open_tag(self) -> &'static [u8] {
        match self {
            Elem::Value => b"<value>",
            Elem::Struct => b"<struct>",
            Elem::Member => b"<member>",
            Elem::Name => b"<name>",
            Elem::Array => b"<array>",
            Elem::Boolean => b"<boolean>",
            Elem::I1 => b"<ex:i1>",
            Elem::I4 => b"<i4>",
            Elem::Int => b"<int>",
            Elem::I8 => b"<ex:i8>",
            Elem::Float => b"<ex:float>",
            Elem::Double => b"<double>",
            Elem::String => b"<string>",
        }
    }

    /// `</name>`, as written.
    pub fn close_tag(self) -> &'static [u8] {
        match self {
            Elem::Value => b"</value>",
            Elem::Struct => b"</struct>",
            Elem::Member => b"</member>",
            Elem::Name => b"</name>",
            Elem::Array => b"</array>",
            Elem::Boolean => b"</boolean>",
            Elem::I1 => b"</ex:i1>",
            Elem::I4 => b"</i4>",
            Elem::Int => b"</int>",
            Elem::I8 => b"</ex:i8>",
            Elem::Float => b"</ex:float>",
            Elem::Double => b"</double>",
            Elem::String => b"</string>",
        }
    }
}
