//! Avro schemas read from their JSON (`.avsc`), any tool's: the types with their named
//! types (records, enums, fixed) resolved to one table, which is what schema resolution
//! compares ([`super::resolution`]). Properties (`doc`, `hadoop.type`, logical types) do not
//! change how values are encoded and are left out.

use std::collections::HashMap;

use serde_json::Value;

/// An Avro type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum AvroType {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Array(Box<AvroType>),
    /// A map's values (its keys are strings).
    Map(Box<AvroType>),
    Union(Vec<AvroType>),
    /// A record, enum or fixed: an index into [`Avsc::named`].
    Named(usize),
}

/// A named type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Named {
    /// `namespace.name`, or `name` without a namespace.
    pub full_name: String,
    /// The aliases' full names.
    pub aliases: Vec<String>,
    pub kind: NamedKind,
}

impl Named {
    /// The name without its namespace.
    pub fn name(&self) -> &str {
        self.full_name.rsplit('.').next().unwrap_or(&self.full_name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NamedKind {
    Record(Vec<Field>),
    Enum {
        symbols: Vec<String>,
        /// The symbol a reader takes for one it lacks.
        default: Option<String>,
    },
    Fixed(u64),
}

/// A record's field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Field {
    pub name: String,
    pub aliases: Vec<String>,
    pub ty: AvroType,
    /// Whether it has a `default` (what a reader takes when the data lacks the field).
    pub has_default: bool,
}

/// A parsed schema.
#[derive(Debug, Clone)]
pub(super) struct Avsc {
    pub root: AvroType,
    pub named: Vec<Named>,
}

impl Avsc {
    /// Parses `text`; an error (a sentence) for what is not an Avro schema.
    pub fn parse(text: &str) -> Result<Avsc, String> {
        let json: Value = serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
        Avsc::from_json(&json)
    }

    /// The schema `json`; an error (a sentence) for what is not an Avro schema.
    pub fn from_json(json: &Value) -> Result<Avsc, String> {
        let mut parser = Parser::default();
        let root = parser.ty(json, "", "")?;
        Ok(Avsc {
            root,
            named: parser.named,
        })
    }

    /// `ty` as reports spell it: `int`, `array<long>`, `map<string>`, a named type by its
    /// full name, `union[null, int]`.
    pub fn describe(&self, ty: &AvroType) -> String {
        match ty {
            AvroType::Null => "null".into(),
            AvroType::Boolean => "boolean".into(),
            AvroType::Int => "int".into(),
            AvroType::Long => "long".into(),
            AvroType::Float => "float".into(),
            AvroType::Double => "double".into(),
            AvroType::Bytes => "bytes".into(),
            AvroType::String => "string".into(),
            AvroType::Array(items) => format!("array<{}>", self.describe(items)),
            AvroType::Map(values) => format!("map<{}>", self.describe(values)),
            AvroType::Union(branches) => {
                let branches: Vec<String> = branches.iter().map(|b| self.describe(b)).collect();
                format!("union[{}]", branches.join(", "))
            }
            AvroType::Named(i) => self.named[*i].full_name.clone(),
        }
    }
}

fn primitive(name: &str) -> Option<AvroType> {
    Some(match name {
        "null" => AvroType::Null,
        "boolean" => AvroType::Boolean,
        "int" => AvroType::Int,
        "long" => AvroType::Long,
        "float" => AvroType::Float,
        "double" => AvroType::Double,
        "bytes" => AvroType::Bytes,
        "string" => AvroType::String,
        _ => return None,
    })
}

/// `name` in namespace `namespace`: a name with a dot is already full.
fn full_name(name: &str, namespace: &str) -> String {
    if name.contains('.') || namespace.is_empty() {
        name.to_owned()
    } else {
        format!("{namespace}.{name}")
    }
}

#[derive(Default)]
struct Parser {
    named: Vec<Named>,
    by_name: HashMap<String, usize>,
}

impl Parser {
    /// The type `json` at `at` (a JSON path, for errors) in namespace `namespace`.
    fn ty(&mut self, json: &Value, namespace: &str, at: &str) -> Result<AvroType, String> {
        match json {
            Value::String(name) => self.named_or_primitive(name, namespace, at),
            Value::Array(branches) => branches
                .iter()
                .enumerate()
                .map(|(i, b)| self.ty(b, namespace, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()
                .map(AvroType::Union),
            Value::Object(object) => {
                let at_type = format!("{at}.type");
                let kind = match object.get("type") {
                    Some(Value::String(kind)) => kind.as_str(),
                    // `{"type": {…}}`: the type inside.
                    Some(inner) => return self.ty(inner, namespace, &at_type),
                    None => return Err(format!("{}: a type without `type`", place(at))),
                };
                let get = |key: &str| {
                    object
                        .get(key)
                        .ok_or_else(|| format!("{}: a type `{kind}` without `{key}`", place(at)))
                };
                match kind {
                    "record" | "error" => self.record(object, namespace, at),
                    "enum" => {
                        let symbols = strings(get("symbols")?)
                            .ok_or_else(|| format!("{}: `symbols` is not strings", place(at)))?;
                        let default = object
                            .get("default")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                        self.define(object, namespace, at, NamedKind::Enum { symbols, default })
                            .map(|(ty, _)| ty)
                    }
                    "fixed" => {
                        let size = get("size")?.as_u64().ok_or_else(|| {
                            format!("{}: `size` is not a whole number", place(at))
                        })?;
                        self.define(object, namespace, at, NamedKind::Fixed(size))
                            .map(|(ty, _)| ty)
                    }
                    "array" => {
                        let items = self.ty(get("items")?, namespace, &format!("{at}.items"))?;
                        Ok(AvroType::Array(Box::new(items)))
                    }
                    "map" => {
                        let values = self.ty(get("values")?, namespace, &format!("{at}.values"))?;
                        Ok(AvroType::Map(Box::new(values)))
                    }
                    name => self.named_or_primitive(name, namespace, &at_type),
                }
            }
            other => Err(format!("{}: `{other}` is not an Avro type", place(at))),
        }
    }

    /// A primitive, or a named type defined before.
    fn named_or_primitive(
        &mut self,
        name: &str,
        namespace: &str,
        at: &str,
    ) -> Result<AvroType, String> {
        if let Some(primitive) = primitive(name) {
            return Ok(primitive);
        }
        self.by_name
            .get(&full_name(name, namespace))
            .or_else(|| self.by_name.get(name))
            .map(|&i| AvroType::Named(i))
            .ok_or_else(|| {
                format!(
                    "{}: the type `{name}` is not defined (a named type is defined before \
                     its uses)",
                    place(at)
                )
            })
    }

    /// Registers the named type `object` (before its fields are read: they may name it).
    fn define(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: &str,
        at: &str,
        kind: NamedKind,
    ) -> Result<(AvroType, String), String> {
        let name = object
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{}: a named type without a `name`", place(at)))?;
        let namespace = match (name.rsplit_once('.'), object.get("namespace")) {
            (Some((space, _)), _) => space.to_owned(),
            (None, Some(Value::String(space))) => space.clone(),
            (None, _) => namespace.to_owned(),
        };
        let full = full_name(name, &namespace);
        let aliases = object
            .get("aliases")
            .and_then(strings)
            .unwrap_or_default()
            .iter()
            .map(|alias| full_name(alias, &namespace))
            .collect();
        if self.by_name.contains_key(&full) {
            return Err(format!("{}: the type `{full}` is defined twice", place(at)));
        }
        self.by_name.insert(full.clone(), self.named.len());
        self.named.push(Named {
            full_name: full,
            aliases,
            kind,
        });
        Ok((AvroType::Named(self.named.len() - 1), namespace))
    }

    fn record(
        &mut self,
        object: &serde_json::Map<String, Value>,
        namespace: &str,
        at: &str,
    ) -> Result<AvroType, String> {
        let (ty, namespace) = self.define(object, namespace, at, NamedKind::Record(Vec::new()))?;
        let fields = object
            .get("fields")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{}: a record without a `fields` array", place(at)))?;
        let mut parsed = Vec::with_capacity(fields.len());
        for (i, field) in fields.iter().enumerate() {
            let at = format!("{at}.fields[{i}]");
            let name = field
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{}: a field without a `name`", place(&at)))?;
            let json = field
                .get("type")
                .ok_or_else(|| format!("{}: the field `{name}` has no `type`", place(&at)))?;
            parsed.push(Field {
                name: name.to_owned(),
                aliases: field.get("aliases").and_then(strings).unwrap_or_default(),
                ty: self.ty(json, &namespace, &format!("{at}.type"))?,
                has_default: field.get("default").is_some(),
            });
        }
        let AvroType::Named(i) = ty else {
            unreachable!("`define` gives a named type")
        };
        self.named[i].kind = NamedKind::Record(parsed);
        Ok(ty)
    }
}

/// `json` as a list of strings, if it is one.
fn strings(json: &Value) -> Option<Vec<String>> {
    json.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect()
}

/// Where `at` (a JSON path from the schema's top) is, for errors.
fn place(at: &str) -> String {
    if at.is_empty() {
        "at its top".to_owned()
    } else {
        format!("at `{}`", at.trim_start_matches('.'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_types_resolve_by_namespace_and_full_name() {
        let avsc = Avsc::parse(
            r#"{"type": "record", "name": "R", "namespace": "a", "aliases": ["Old", "x.Y"],
                "fields": [
                  {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A"]}},
                  {"name": "f", "type": {"type": "fixed", "name": "b.F", "size": 4}},
                  {"name": "again", "type": ["null", "E", "a.E", "b.F", "R"], "default": null},
                  {"name": "items", "type": {"type": "array", "items": {"type": "long"}}}
                ]}"#,
        )
        .unwrap();
        let names: Vec<&str> = avsc.named.iter().map(|n| n.full_name.as_str()).collect();
        assert_eq!(names, ["a.R", "a.E", "b.F"]);
        assert_eq!(avsc.named[0].aliases, ["a.Old", "x.Y"]);
        assert_eq!(avsc.named[0].name(), "R");
        let NamedKind::Record(fields) = &avsc.named[0].kind else {
            panic!("{avsc:?}")
        };
        assert_eq!(
            avsc.describe(&fields[2].ty),
            "union[null, a.E, a.E, b.F, a.R]"
        );
        assert!(fields[2].has_default && !fields[0].has_default);
        assert_eq!(avsc.describe(&fields[3].ty), "array<long>");
    }

    #[test]
    fn what_is_not_a_schema_is_an_error_saying_where() {
        for (text, error) in [
            ("{", "it is not JSON"),
            (
                r#"{"type": "record", "name": "R"}"#,
                "at its top: a record without",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "m.X"}]}"#,
                "at `fields[0].type`: the type `m.X` is not defined",
            ),
            (
                r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "R"},
                    {"name": "b", "type": {"type": "record", "name": "R", "fields": []}}]}"#,
                "at `fields[1].type`: the type `R` is defined twice",
            ),
            (
                r#"{"type": "array"}"#,
                "at its top: a type `array` without `items`",
            ),
            ("7", "at its top: `7` is not an Avro type"),
        ] {
            let e = Avsc::parse(text).unwrap_err();
            assert!(e.contains(error), "{text}: {e}");
        }
    }
}
