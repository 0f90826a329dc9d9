//! What happens to data written with one version of a record when another version reads it
//! with Hadoop's rules ([`super::Filters`]): field by field, nested records included — for
//! `rcc compat`, a check to run before deploying a schema change.

use std::fmt;

use super::{FieldTypeInfo, Filters, RecordTypeInfo, TypeDesc};
use crate::error::Result;
use crate::schema::{FieldType, RecordId, Schema};

/// What becomes of one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Written and read: the same name and type.
    Kept,
    /// Written, and the reader has no field of that name: the data is skipped.
    Dropped,
    /// Written, and the reader's field of that name has another type: the data is skipped
    /// and the reader's field stays empty.
    TypeChanged,
    /// Not written: the reader's field stays empty.
    Defaulted,
    /// Read, but through a record type whose fields differ from what was written, without a
    /// type filter to sort them out (Hadoop finds a nested record's filter only through a
    /// field named like the record type): the bytes are misread, which fails or, worse,
    /// gives wrong values.
    Misread,
}

impl Outcome {
    /// The outcome's name in reports: `kept`, `dropped`, `type-changed`, `defaulted`,
    /// `misread`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Kept => "kept",
            Outcome::Dropped => "dropped",
            Outcome::TypeChanged => "type-changed",
            Outcome::Defaulted => "defaulted",
            Outcome::Misread => "misread",
        }
    }

    /// Whether data is lost (dropped, or dropped because its type changed).
    pub fn loses_data(&self) -> bool {
        matches!(self, Outcome::Dropped | Outcome::TypeChanged)
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    /// The field's path from the top record: `inner.a`; `history[].a` inside a vector,
    /// `tags{}.a` inside a map value.
    pub path: String,
    /// Its type as written, if it was.
    pub written: Option<String>,
    /// Its type as read, if the reader has it.
    pub read: Option<String>,
    /// What happens to it.
    pub outcome: Outcome,
}

impl fmt::Display for FieldChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types = match (&self.written, &self.read) {
            (Some(w), Some(r)) if w == r => w.clone(),
            (Some(w), Some(r)) => format!("{w} -> {r}"),
            (Some(w), None) => w.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => String::new(),
        };
        write!(f, "{:<24} {:<32} {}", self.path, types, self.outcome.name())
    }
}

/// Every field's fate when the reader record `reader` of `schema` reads data written with
/// `writer`'s type information, in the order the writer wrote them, then the reader's fields
/// the data lacks.
///
/// ```
/// use hadoop_record::meta::{compat, FieldTypeInfo, Outcome, RecordTypeInfo, TypeDesc};
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
///
/// let mut schema = Schema::new();
/// let new = schema.add(RecordType::new("v2", "R", vec![
///     FieldDef::new("id", FieldType::Long),
///     FieldDef::new("added", FieldType::Bool),
/// ]))?;
/// let old = RecordTypeInfo::new("R", vec![
///     FieldTypeInfo::new("id", TypeDesc::Int),
///     FieldTypeInfo::new("name", TypeDesc::String),
/// ]);
/// let outcomes: Vec<Outcome> = compat(&schema, new, &old)?.into_iter().map(|c| c.outcome).collect();
/// assert_eq!(outcomes, [Outcome::TypeChanged, Outcome::Dropped, Outcome::Defaulted]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
///
/// An [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when the schema has no record
/// `reader`.
pub fn compat(
    schema: &Schema,
    reader: RecordId,
    writer: &RecordTypeInfo,
) -> Result<Vec<FieldChange>> {
    let filters = Filters::new(schema, reader, writer)?;
    let mut out = Vec::new();
    Walk {
        schema,
        filters: &filters,
    }
    .record(reader, &writer.fields, "", &mut out);
    Ok(out)
}

struct Walk<'a> {
    schema: &'a Schema,
    filters: &'a Filters,
}

impl Walk<'_> {
    /// The reader's record `id` reading data of `written` fields through its filter (every
    /// record reached here has one).
    fn record(
        &self,
        id: RecordId,
        written: &[FieldTypeInfo],
        prefix: &str,
        out: &mut Vec<FieldChange>,
    ) {
        let reader = &self.schema.record_at(id).fields;
        let mut used = vec![false; reader.len()];
        for field in written {
            let path = format!("{prefix}{}", field.name);
            let target = reader.iter().position(|r| {
                FieldTypeInfo::new(r.name.clone(), TypeDesc::shallow(&r.ty)).hadoop_eq(field)
            });
            let change = |read: Option<&FieldType>, outcome| FieldChange {
                path: path.clone(),
                written: Some(match read {
                    Some(ty) => self.written_as(&field.type_id, ty),
                    None => type_name(&field.type_id),
                }),
                read: read.map(|t| self.schema.name_of(t)),
                outcome,
            };
            match target {
                Some(j) => {
                    used[j] = true;
                    let mut nested = Vec::new();
                    let misread = self.value(&reader[j].ty, &field.type_id, &path, &mut nested);
                    out.push(change(
                        Some(&reader[j].ty),
                        if misread {
                            Outcome::Misread
                        } else {
                            Outcome::Kept
                        },
                    ));
                    out.extend(nested);
                }
                None => match reader.iter().position(|r| r.name == field.name) {
                    Some(j) => {
                        // Reported here: the reader's field stays empty.
                        used[j] = true;
                        out.push(change(Some(&reader[j].ty), Outcome::TypeChanged));
                    }
                    None => out.push(change(None, Outcome::Dropped)),
                },
            }
        }
        for (def, _) in reader.iter().zip(&used).filter(|(_, used)| !**used) {
            out.push(FieldChange {
                path: format!("{prefix}{}", def.name),
                written: None,
                read: Some(self.schema.name_of(&def.ty)),
                outcome: Outcome::Defaulted,
            });
        }
    }

    /// The written type in DDL spelling, with a record written in the layout of the reader's
    /// record type `ty` holds named like it.
    fn written_as(&self, written: &TypeDesc, ty: &FieldType) -> String {
        match (written, ty) {
            (TypeDesc::Vector(w), FieldType::Vector(e)) => {
                format!("vector<{}>", self.written_as(w, e))
            }
            (TypeDesc::Map(wk, wv), FieldType::Map(k, v)) => {
                format!(
                    "map<{}, {}>",
                    self.written_as(wk, k),
                    self.written_as(wv, v)
                )
            }
            (TypeDesc::Struct(fields), FieldType::Record(id))
                if same_layout(&RecordTypeInfo::of_checked(self.schema, *id).fields, fields) =>
            {
                self.schema.record_at(*id).full_name()
            }
            _ => type_name(written),
        }
    }

    /// A value read as `ty` from data written as `written` (Hadoop-equal types); reports the
    /// nested records' fields into `out`; whether any part of it is misread.
    fn value(
        &self,
        ty: &FieldType,
        written: &TypeDesc,
        path: &str,
        out: &mut Vec<FieldChange>,
    ) -> bool {
        match (ty, written) {
            (FieldType::Vector(e), TypeDesc::Vector(w)) => {
                self.value(e, w, &format!("{path}[]"), out)
            }
            (FieldType::Map(k, v), TypeDesc::Map(wk, wv)) => {
                let key = self.value(k, wk, &format!("{path}{{key}}"), out);
                self.value(v, wv, &format!("{path}{{}}"), out) || key
            }
            (FieldType::Record(id), TypeDesc::Struct(fields)) if self.filters.applies_to(*id) => {
                let start = out.len();
                self.record(*id, fields, &format!("{path}."), out);
                out[start..].iter().any(|c| c.outcome == Outcome::Misread)
            }
            // Read unfiltered: right only when the data's types, in order, are the reader's
            // (names play no part in reading).
            (FieldType::Record(id), TypeDesc::Struct(fields)) => {
                !same_layout(&RecordTypeInfo::of_checked(self.schema, *id).fields, fields)
            }
            _ => false,
        }
    }
}

/// Whether data of fields `a` reads as fields `b` without a filter: the same types in the
/// same order, at every depth.
fn same_layout(a: &[FieldTypeInfo], b: &[FieldTypeInfo]) -> bool {
    fn same(a: &TypeDesc, b: &TypeDesc) -> bool {
        match (a, b) {
            (TypeDesc::Vector(x), TypeDesc::Vector(y)) => same(x, y),
            (TypeDesc::Map(xk, xv), TypeDesc::Map(yk, yv)) => same(xk, yk) && same(xv, yv),
            (TypeDesc::Struct(x), TypeDesc::Struct(y)) => same_layout(x, y),
            _ => a == b,
        }
    }
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(&x.type_id, &y.type_id))
}

/// A type id in DDL spelling; a record as `record{field: type, …}`.
pub fn type_name(ty: &TypeDesc) -> String {
    match ty {
        TypeDesc::Bool => "boolean".into(),
        TypeDesc::Buffer => "buffer".into(),
        TypeDesc::Byte => "byte".into(),
        TypeDesc::Double => "double".into(),
        TypeDesc::Float => "float".into(),
        TypeDesc::Int => "int".into(),
        TypeDesc::Long => "long".into(),
        TypeDesc::String => "ustring".into(),
        TypeDesc::Vector(e) => format!("vector<{}>", type_name(e)),
        TypeDesc::Map(k, v) => format!("map<{}, {}>", type_name(k), type_name(v)),
        TypeDesc::Struct(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name, type_name(&f.type_id)))
                .collect();
            format!("record{{{}}}", fields.join(", "))
        }
    }
}
