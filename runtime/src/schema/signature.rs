//! Hadoop's type signatures: [`Signature`] and [`Schema::signature`].

use std::fmt;

use super::{FieldType, RecordId, Schema};
use crate::error::Result;

impl Schema {
    /// Hadoop's type signature of record `id`, e.g. `LOuter(LInner(sl)z)`.
    ///
    /// Nested records are inlined, as in Hadoop. A record that refers back to one of its
    /// enclosing records (possible only through a vector or map, and not expressible in
    /// Hadoop's DDL) writes the back reference as `L` + name without parentheses.
    ///
    /// An [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when the schema has no
    /// record `id`.
    pub fn signature(&self, id: RecordId) -> Result<Signature> {
        self.checked_record(id)?;
        Ok(self.signature_of(id))
    }

    /// [`Schema::signature`] of a checked id.
    pub(crate) fn signature_of(&self, id: RecordId) -> Signature {
        let mut out = String::new();
        let mut stack = Vec::new();
        self.write_record_signature(id, &mut out, &mut stack);
        Signature(out)
    }

    fn write_record_signature(&self, id: RecordId, out: &mut String, stack: &mut Vec<RecordId>) {
        let record = self.record_at(id);
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
