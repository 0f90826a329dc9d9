//! Avro schemas as this crate needs them: parsed from a file's (or `rcc -l avro`'s) JSON
//! into types with their named types resolved, the `hadoop.type` marks kept, and each type's
//! least encoded width (what bounds the values a block's bytes can hold).

use std::collections::HashMap;

use serde_json::{json, Value as Json};

/// The `hadoop.type` mark of an array holding a DDL map (see docs/avro.md).
const HADOOP_TYPE: &str = "hadoop.type";
const MAP_MARK: &str = "map";

/// The most named types and record fields a schema may have, each use of a named type
/// counted with its fields (a schema that refers to its records many times over could
/// otherwise expand without bound).
const MAX_NAMED: usize = 1 << 20;

/// An Avro type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Type {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Array {
        items: Box<Type>,
        /// Marked `"hadoop.type": "map"`: a DDL map whose keys are not `ustring`.
        hadoop_map: bool,
    },
    Map(Box<Type>),
    Union(Vec<Type>),
    /// A record, enum or fixed: an index into [`Schema::named`].
    Named(usize),
}

/// A named type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Named {
    /// The full name (`namespace.name`).
    pub name: String,
    pub kind: NamedKind,
    /// The least number of bytes a value takes.
    pub width: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NamedKind {
    Record(Vec<Field>),
    /// The symbols.
    Enum(Vec<String>),
    /// The size in bytes.
    Fixed(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub name: String,
    pub ty: Type,
}

/// A parsed schema: its root type and the named types it defines.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    pub root: Type,
    pub named: Vec<Named>,
}

impl Schema {
    /// Parses `json`; an error (a sentence) for what is not an Avro schema or what this crate
    /// cannot read: a record that holds itself (Arrow has no recursive types).
    pub fn parse(json: &str) -> Result<Schema, String> {
        let value: Json =
            serde_json::from_str(json).map_err(|e| format!("the schema is not JSON: {e}"))?;
        let mut parser = Parser::default();
        let root = parser.ty(&value, "")?;
        Ok(Schema {
            root,
            named: parser.named,
        })
    }

    /// The fields of the root record, `None` when the root is not a record.
    pub fn root_fields(&self) -> Option<&[Field]> {
        match &self.root {
            Type::Named(i) => match &self.named[*i].kind {
                NamedKind::Record(fields) => Some(fields),
                _ => None,
            },
            _ => None,
        }
    }

    /// The schema as arrow-avro 59 reads it: every named type defined where it is used, named
    /// by [`Schema::arrow_avro_name`], without logical types or other properties (which do
    /// not change how values are encoded). arrow-avro does not resolve a writer's type that is
    /// referred to by name (it decodes it as the reader's type at that place, whatever the
    /// writer wrote), nor skip one; defined in place, each is resolved.
    pub fn inlined(&self) -> String {
        self.inline(&self.root).to_string()
    }

    fn inline(&self, ty: &Type) -> Json {
        match ty {
            Type::Null => "null".into(),
            Type::Boolean => "boolean".into(),
            Type::Int => "int".into(),
            Type::Long => "long".into(),
            Type::Float => "float".into(),
            Type::Double => "double".into(),
            Type::Bytes => "bytes".into(),
            Type::String => "string".into(),
            Type::Array { items, .. } => json!({"type": "array", "items": self.inline(items)}),
            Type::Map(values) => json!({"type": "map", "values": self.inline(values)}),
            Type::Union(branches) => branches.iter().map(|b| self.inline(b)).collect(),
            Type::Named(i) => {
                let name = Self::arrow_avro_name(*i);
                match &self.named[*i].kind {
                    NamedKind::Record(fields) => {
                        let fields: Vec<Json> = fields
                            .iter()
                            .map(|f| json!({"name": f.name, "type": self.inline(&f.ty)}))
                            .collect();
                        json!({"type": "record", "name": name, "fields": fields})
                    }
                    NamedKind::Enum(symbols) => {
                        json!({"type": "enum", "name": name, "symbols": symbols})
                    }
                    NamedKind::Fixed(size) => json!({"type": "fixed", "name": name, "size": size}),
                }
            }
        }
    }

    /// The name of named type `i` in [`Schema::inlined`].
    pub fn arrow_avro_name(i: usize) -> String {
        format!("n{i}")
    }

    /// The least number of bytes a value of `ty` takes.
    pub fn width(&self, ty: &Type) -> usize {
        match ty {
            Type::Null => 0,
            Type::Boolean | Type::Int | Type::Long | Type::Bytes | Type::String => 1,
            Type::Array { .. } | Type::Map(_) | Type::Union(_) => 1,
            Type::Float => 4,
            Type::Double => 8,
            Type::Named(i) => self.named[*i].width,
        }
    }

    /// `ty` as a person reads it in a message: `string`, `array<int>`, `record m.P`.
    pub fn describe(&self, ty: &Type) -> String {
        match ty {
            Type::Null => "null".into(),
            Type::Boolean => "boolean".into(),
            Type::Int => "int".into(),
            Type::Long => "long".into(),
            Type::Float => "float".into(),
            Type::Double => "double".into(),
            Type::Bytes => "bytes".into(),
            Type::String => "string".into(),
            Type::Array { items, .. } => format!("array<{}>", self.describe(items)),
            Type::Map(values) => format!("map<{}>", self.describe(values)),
            Type::Union(branches) => {
                let b: Vec<_> = branches.iter().map(|t| self.describe(t)).collect();
                format!("union [{}]", b.join(", "))
            }
            Type::Named(i) => {
                let named = &self.named[*i];
                match named.kind {
                    NamedKind::Record(_) => format!("record {}", named.name),
                    NamedKind::Enum(_) => format!("enum {}", named.name),
                    NamedKind::Fixed(size) => format!("fixed {} ({size} bytes)", named.name),
                }
            }
        }
    }
}

#[derive(Default)]
struct Parser {
    named: Vec<Named>,
    /// Named types and record fields so far, copies included.
    size: usize,
    by_name: HashMap<String, usize>,
    /// Records whose definition is being read: a reference to one is recursion.
    open: Vec<usize>,
}

fn primitive(name: &str) -> Option<Type> {
    Some(match name {
        "null" => Type::Null,
        "boolean" => Type::Boolean,
        "int" => Type::Int,
        "long" => Type::Long,
        "float" => Type::Float,
        "double" => Type::Double,
        "bytes" => Type::Bytes,
        "string" => Type::String,
        _ => return None,
    })
}

impl Parser {
    /// The type `json` in namespace `ns`.
    fn ty(&mut self, json: &Json, ns: &str) -> Result<Type, String> {
        match json {
            Json::String(name) => match primitive(name) {
                Some(t) => Ok(t),
                None => self.reference(name, ns),
            },
            Json::Array(branches) => {
                let branches = branches
                    .iter()
                    .map(|b| self.ty(b, ns))
                    .collect::<Result<Vec<_>, _>>()?;
                if branches.is_empty() {
                    return Err("a union without branches".into());
                }
                Ok(Type::Union(branches))
            }
            Json::Object(object) => {
                let Some(ty) = object.get("type") else {
                    return Err(format!("a type without `type`: {json}"));
                };
                let Json::String(kind) = ty else {
                    return self.ty(ty, ns);
                };
                match kind.as_str() {
                    "record" | "error" => self.record(object, ns),
                    "enum" => {
                        let symbols = object
                            .get("symbols")
                            .and_then(Json::as_array)
                            .and_then(|s| s.iter().map(|s| s.as_str().map(String::from)).collect())
                            .ok_or_else(|| format!("an enum without `symbols`: {json}"))?;
                        self.define(object, ns, NamedKind::Enum(symbols), 1)
                            .map(|(t, _)| t)
                    }
                    "fixed" => {
                        let size = object
                            .get("size")
                            .and_then(Json::as_u64)
                            .and_then(|s| usize::try_from(s).ok())
                            .ok_or_else(|| format!("a fixed without a valid `size`: {json}"))?;
                        self.define(object, ns, NamedKind::Fixed(size), size)
                            .map(|(t, _)| t)
                    }
                    "array" => {
                        let items = object
                            .get("items")
                            .ok_or_else(|| format!("an array without `items`: {json}"))?;
                        Ok(Type::Array {
                            items: Box::new(self.ty(items, ns)?),
                            hadoop_map: object.get(HADOOP_TYPE).and_then(Json::as_str)
                                == Some(MAP_MARK),
                        })
                    }
                    "map" => {
                        let values = object
                            .get("values")
                            .ok_or_else(|| format!("a map without `values`: {json}"))?;
                        Ok(Type::Map(Box::new(self.ty(values, ns)?)))
                    }
                    other => match primitive(other) {
                        Some(t) => Ok(t),
                        None => self.reference(other, ns),
                    },
                }
            }
            other => Err(format!("not an Avro type: {other}")),
        }
    }

    fn reference(&mut self, name: &str, ns: &str) -> Result<Type, String> {
        let full = full_name(name, ns);
        let i = self
            .by_name
            .get(&full)
            .or_else(|| self.by_name.get(name))
            .copied()
            .ok_or_else(|| format!("the type `{name}` is not defined before its use"))?;
        if self.open.contains(&i) {
            return Err(format!(
                "the record `{}` holds itself, which Arrow (and so this reader) cannot: \
                 recursive records are not supported in Avro container files",
                self.named[i].name
            ));
        }
        self.copy(&Type::Named(i))
    }

    /// A copy of `ty` whose named types are new ones (each use of a named type is a type of
    /// its own, see [`Schema::inlined`]); refused past [`MAX_NAMED`] named types.
    fn copy(&mut self, ty: &Type) -> Result<Type, String> {
        Ok(match ty {
            Type::Array { items, hadoop_map } => Type::Array {
                items: Box::new(self.copy(items)?),
                hadoop_map: *hadoop_map,
            },
            Type::Map(values) => Type::Map(Box::new(self.copy(values)?)),
            Type::Union(branches) => Type::Union(
                branches
                    .iter()
                    .map(|b| self.copy(b))
                    .collect::<Result<_, _>>()?,
            ),
            Type::Named(i) => {
                self.grow(1)?;
                let mut named = self.named[*i].clone();
                if let NamedKind::Record(fields) = &named.kind {
                    self.grow(fields.len())?;
                    let fields = fields
                        .iter()
                        .map(|f| {
                            Ok(Field {
                                name: f.name.clone(),
                                ty: self.copy(&f.ty)?,
                            })
                        })
                        .collect::<Result<_, String>>()?;
                    named.kind = NamedKind::Record(fields);
                }
                self.named.push(named);
                Type::Named(self.named.len() - 1)
            }
            primitive => primitive.clone(),
        })
    }

    /// Defines the named type of `object` (its namespace: its own, or `ns`); returns it and
    /// its namespace.
    fn define(
        &mut self,
        object: &serde_json::Map<String, Json>,
        ns: &str,
        kind: NamedKind,
        width: usize,
    ) -> Result<(Type, String), String> {
        let name = object
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| "a named type without a `name`".to_string())?;
        let own_ns = object.get("namespace").and_then(Json::as_str).unwrap_or(ns);
        let full = full_name(name, own_ns);
        let namespace = full.rsplit_once('.').map_or("", |(n, _)| n).to_owned();
        if self.by_name.contains_key(&full) {
            return Err(format!("the type `{full}` is defined twice"));
        }
        self.grow(1)?;
        let i = self.named.len();
        self.named.push(Named {
            name: full.clone(),
            kind,
            width,
        });
        self.by_name.insert(full, i);
        Ok((Type::Named(i), namespace))
    }

    fn record(&mut self, object: &serde_json::Map<String, Json>, ns: &str) -> Result<Type, String> {
        let (ty, namespace) = self.define(object, ns, NamedKind::Record(Vec::new()), 0)?;
        let Type::Named(i) = ty else { unreachable!() };
        let fields_json = object
            .get("fields")
            .and_then(Json::as_array)
            .ok_or_else(|| format!("the record `{}` has no `fields`", self.named[i].name))?;
        self.open.push(i);
        self.grow(fields_json.len())?;
        let mut fields = Vec::with_capacity(fields_json.len());
        let mut width = 0usize;
        for f in fields_json {
            let name = f
                .get("name")
                .and_then(Json::as_str)
                .ok_or_else(|| format!("a field of `{}` has no `name`", self.named[i].name))?;
            let ty = f.get("type").ok_or_else(|| {
                format!(
                    "the field `{name}` of `{}` has no `type`",
                    self.named[i].name
                )
            })?;
            let ty = self.ty(ty, &namespace)?;
            width = width.saturating_add(self.width_of(&ty));
            fields.push(Field {
                name: name.to_owned(),
                ty,
            });
        }
        self.open.pop();
        self.named[i].kind = NamedKind::Record(fields);
        self.named[i].width = width;
        Ok(Type::Named(i))
    }

    /// Counts `n` more named types or fields; an error past [`MAX_NAMED`].
    fn grow(&mut self, n: usize) -> Result<(), String> {
        self.size = self.size.saturating_add(n);
        if self.size > MAX_NAMED {
            return Err(format!(
                "the schema's named types and fields, each use of a named type counted, are \
                 more than {MAX_NAMED}"
            ));
        }
        Ok(())
    }

    fn width_of(&self, ty: &Type) -> usize {
        match ty {
            Type::Named(i) => self.named[*i].width,
            Type::Null => 0,
            Type::Float => 4,
            Type::Double => 8,
            _ => 1,
        }
    }
}

/// The full name of `name` in namespace `ns`.
fn full_name(name: &str, ns: &str) -> String {
    if name.contains('.') || ns.is_empty() {
        name.to_owned()
    } else {
        format!("{ns}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_marks_and_widths() {
        let s = Schema::parse(
            r#"{"type": "record", "name": "R", "namespace": "m", "fields": [
                {"name": "b", "type": {"type": "int", "hadoop.type": "byte"}},
                {"name": "p", "type": {"type": "record", "name": "P", "fields": [
                    {"name": "x", "type": "double"}]}},
                {"name": "q", "type": "P"},
                {"name": "e", "type": {"type": "array", "hadoop.type": "map",
                    "items": {"type": "record", "name": "E", "namespace": "o", "fields": []}}}
            ]}"#,
        )
        .unwrap();
        let fields = s.root_fields().unwrap();
        assert_ne!(fields[2].ty, fields[1].ty, "each use a type of its own");
        assert_eq!(
            s.describe(&fields[2].ty),
            "record m.P",
            "a reference by short name"
        );
        assert!(s
            .inlined()
            .contains(r#"{"name":"q","type":{"type":"record","name":"n2","#));
        assert_eq!(s.describe(&fields[1].ty), "record m.P");
        assert_eq!(s.width(&s.root), 1 + 8 + 8 + 1);
        let Type::Array { items, hadoop_map } = &fields[3].ty else {
            panic!()
        };
        assert!(hadoop_map);
        assert_eq!(s.width(items), 0);
        assert_eq!(s.describe(items), "record o.E");
    }

    #[test]
    fn a_schema_that_expands_without_bound_is_refused() {
        // Each record refers to the one before twice: 2^40 uses of the first.
        let mut records = vec![r#"{"type": "record", "name": "R0", "fields": []}"#.to_string()];
        for i in 1..40 {
            let p = i - 1;
            records.push(format!(
                r#"{{"type": "record", "name": "R{i}", "fields": [
                    {{"name": "a", "type": "R{p}"}}, {{"name": "b", "type": "R{p}"}}]}}"#
            ));
        }
        let fields: Vec<String> = records
            .iter()
            .enumerate()
            .map(|(i, r)| format!(r#"{{"name": "f{i}", "type": {r}}}"#))
            .collect();
        let json = format!(
            r#"{{"type": "record", "name": "Top", "fields": [{}]}}"#,
            fields.join(",")
        );
        let e = Schema::parse(&json).unwrap_err();
        assert!(e.contains("more than 1048576"), "{e}");
    }

    #[test]
    fn recursion_and_nonsense_are_refused() {
        let e = Schema::parse(
            r#"{"type": "record", "name": "T", "fields": [
                {"name": "kids", "type": {"type": "array", "items": "T"}}]}"#,
        )
        .unwrap_err();
        assert!(e.contains("`T` holds itself"), "{e}");
        for bad in [
            "[",
            "7",
            r#"{"type": "record", "name": "R"}"#,
            r#""Undefined""#,
            "[]",
        ] {
            assert!(Schema::parse(bad).is_err(), "{bad}");
        }
    }
}
