//! The DDL record type of an Avro file's schema, for reading Avro files that came with no
//! `.jr` (`rcc sql --from avro` without `--schema`): each Avro record a DDL class, in a
//! module named after its namespace, and each field the DDL type that reads it by Avro's
//! resolution ([`crate::AvroReader`]); `rcc -l avro`'s `hadoop.type` marks give back the
//! exact DDL types (`byte`, maps of other keys than `ustring`).

use std::collections::HashMap;

use serde_json::Value as Json;

use crate::error::{Error, Result};

/// The module of the records an Avro schema puts in no namespace.
pub const DEFAULT_MODULE: &str = "avro";

/// The DDL text declaring the record type of the Avro schema `avsc` (and the records it
/// holds), and that type's full name (`module.Class`).
///
/// A `["null", T]` union is `T` (a null in the data is then an error naming the field:
/// Hadoop has no nulls); Avro types that no DDL type reads (enums, fixed, other unions) are
/// an [`Error::Schema`] naming the field.
///
/// ```
/// let avsc = r#"{"type": "record", "name": "Hit", "namespace": "web", "fields": [
///     {"name": "url", "type": "string"},
///     {"name": "n", "type": ["null", "long"], "default": null},
///     {"name": "tags", "type": {"type": "array", "items": "string"}}]}"#;
/// let (ddl, record) = hadoop_record_avro::ddl_of_schema(avsc)?;
/// assert_eq!(record, "web.Hit");
/// assert_eq!(ddl, "module web {\n    class Hit {\n        ustring url;\n        long n;\n        vector<ustring> tags;\n    }\n}\n");
/// # Ok::<(), hadoop_record_avro::Error>(())
/// ```
pub fn ddl_of_schema(avsc: &str) -> Result<(String, String)> {
    let json: Json = serde_json::from_str(avsc)
        .map_err(|e| Error::Schema(format!("the file's Avro schema is not JSON: {e}")))?;
    let mut ddl = Ddl::default();
    let root = ddl.ty(&json, "", "the record")?;
    if !ddl.classes.iter().any(|c| c.full_name == root) {
        return Err(Error::Schema(format!(
            "the file holds values of Avro type `{root}`, not records"
        )));
    }
    Ok((ddl.text(), root))
}

#[derive(Default)]
struct Ddl {
    /// The classes in the order they must be declared (a record after those it holds).
    classes: Vec<Class>,
    /// Avro full name → DDL full name.
    names: HashMap<String, String>,
}

struct Class {
    module: String,
    name: String,
    full_name: String,
    fields: Vec<(String, String)>,
}

impl Ddl {
    /// The DDL type of Avro type `json` (defined in namespace `ns`); `path` names the field.
    fn ty(&mut self, json: &Json, ns: &str, path: &str) -> Result<String> {
        let unheld = |what: &str| {
            Error::Schema(format!(
                "{path} is an Avro {what}, which no Hadoop record type reads (give --schema \
                 and --type of a record that leaves it out)"
            ))
        };
        Ok(match json {
            Json::String(name) => match name.as_str() {
                "boolean" => "boolean".into(),
                "int" => "int".into(),
                "long" => "long".into(),
                "float" => "float".into(),
                "double" => "double".into(),
                "string" => "ustring".into(),
                "bytes" => "buffer".into(),
                "null" => return Err(unheld("null")),
                name => {
                    let full = if name.contains('.') || ns.is_empty() {
                        name.to_owned()
                    } else {
                        format!("{ns}.{name}")
                    };
                    match self.names.get(&full).or_else(|| self.names.get(name)) {
                        Some(ddl) => ddl.clone(),
                        None => return Err(unheld(&format!("type `{name}` that is not defined"))),
                    }
                }
            },
            Json::Array(branches) => {
                let values: Vec<&Json> = branches.iter().filter(|b| *b != "null").collect();
                match values[..] {
                    [only] if branches.len() == 2 => self.ty(only, ns, path)?,
                    _ => return Err(unheld(&format!("union {json}"))),
                }
            }
            Json::Object(object) => {
                let mark = object.get("hadoop.type").and_then(Json::as_str);
                match object.get("type").unwrap_or(&Json::Null) {
                    Json::String(t) if t == "int" && mark == Some("byte") => "byte".into(),
                    Json::String(t) if t == "array" => {
                        let items = object.get("items").unwrap_or(&Json::Null);
                        match (mark, entry_fields(items)) {
                            (Some("map"), Some((key, value))) => {
                                let key = self.ty(key, ns, &format!("{path} (keys)"))?;
                                let value = self.ty(value, ns, &format!("{path} (values)"))?;
                                format!("map<{key}, {value}>")
                            }
                            _ => format!("vector<{}>", self.ty(items, ns, &format!("{path}[]"))?),
                        }
                    }
                    Json::String(t) if t == "map" => {
                        let values = object.get("values").unwrap_or(&Json::Null);
                        format!(
                            "map<ustring, {}>",
                            self.ty(values, ns, &format!("{path}[]"))?
                        )
                    }
                    Json::String(t) if t == "record" || t == "error" => {
                        self.record(object, ns, path)?
                    }
                    Json::String(t) if t == "enum" || t == "fixed" => return Err(unheld(t)),
                    // A primitive with properties (logical types: dates, timestamps,
                    // decimals read as their int, long or bytes).
                    inner @ Json::String(_) => self.ty(inner, ns, path)?,
                    _ => return Err(unheld(&format!("type {json}"))),
                }
            }
            _ => return Err(unheld(&format!("type {json}"))),
        })
    }

    /// A record: its class declared (after the classes its fields need), its DDL name.
    fn record(
        &mut self,
        object: &serde_json::Map<String, Json>,
        ns: &str,
        path: &str,
    ) -> Result<String> {
        let name = object.get("name").and_then(Json::as_str).unwrap_or("");
        let (namespace, name) = match name.rsplit_once('.') {
            Some((namespace, name)) => (namespace.to_owned(), name.to_owned()),
            None => match object.get("namespace").and_then(Json::as_str) {
                Some(namespace) => (namespace.to_owned(), name.to_owned()),
                None => (ns.to_owned(), name.to_owned()),
            },
        };
        let avro_name = match namespace.as_str() {
            "" => name.clone(),
            ns => format!("{ns}.{name}"),
        };
        let module = match namespace.as_str() {
            "" => DEFAULT_MODULE.to_owned(),
            ns => ns.to_owned(),
        };
        let full_name = format!("{module}.{name}");
        // Known from here on, so that a field refers to it (a recursive record fails in
        // the reader, which names it).
        self.names.insert(avro_name, full_name.clone());
        let mut fields = Vec::new();
        for field in object
            .get("fields")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let field_name = field.get("name").and_then(Json::as_str).unwrap_or("");
            let path = format!(
                "{}.{field_name}",
                if path == "the record" { &name } else { path }
            );
            let ty = self.ty(field.get("type").unwrap_or(&Json::Null), &namespace, &path)?;
            fields.push((ty, field_name.to_owned()));
        }
        self.classes.push(Class {
            module,
            name,
            full_name: full_name.clone(),
            fields,
        });
        Ok(full_name)
    }

    /// The classes as DDL text, a module per namespace in the order first declared.
    fn text(&self) -> String {
        let mut out = String::new();
        for class in &self.classes {
            out.push_str(&format!(
                "module {} {{\n    class {} {{\n",
                class.module, class.name
            ));
            for (ty, name) in &class.fields {
                out.push_str(&format!("        {ty} {name};\n"));
            }
            out.push_str("    }\n}\n");
        }
        out
    }
}

/// The `key` and `value` types of the records of an array marked as a Hadoop map.
fn entry_fields(items: &Json) -> Option<(&Json, &Json)> {
    let fields = items.get("fields")?.as_array()?;
    let find = |name: &str| {
        fields
            .iter()
            .find(|f| f.get("name").and_then(Json::as_str) == Some(name))
            .and_then(|f| f.get("type"))
    };
    Some((find("key")?, find("value")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rcc_l_avro_marks_and_spark_names_give_ddl_types() {
        let avsc = r#"{"type": "record", "name": "topLevelRecord", "fields": [
            {"name": "b", "type": {"type": "int", "hadoop.type": "byte"}},
            {"name": "m", "type": {"type": "array", "hadoop.type": "map", "items": {
                "type": "record", "name": "m_entry", "namespace": "topLevelRecord",
                "fields": [{"name": "key", "type": "int"}, {"name": "value", "type": "double"}]}}},
            {"name": "o", "type": ["null", {"type": "record", "name": "o",
                "namespace": "topLevelRecord", "fields": [{"name": "c", "type": "string"}]}]},
            {"name": "again", "type": "topLevelRecord.o"},
            {"name": "d", "type": {"type": "int", "logicalType": "date"}},
            {"name": "s", "type": {"type": "map", "values": "bytes"}}]}"#;
        let (ddl, record) = ddl_of_schema(avsc).unwrap();
        assert_eq!(record, "avro.topLevelRecord");
        assert_eq!(
            ddl,
            "module topLevelRecord {\n    class o {\n        ustring c;\n    }\n}\n\
             module avro {\n    class topLevelRecord {\n        byte b;\n        \
             map<int, double> m;\n        topLevelRecord.o o;\n        topLevelRecord.o again;\n        \
             int d;\n        map<ustring, buffer> s;\n    }\n}\n"
        );
    }

    #[test]
    fn types_no_record_reads_are_refused_naming_the_field() {
        for (ty, what) in [
            (
                r#"{"type": "enum", "name": "E", "symbols": ["A"]}"#,
                "Avro enum",
            ),
            (r#"["int", "string"]"#, "Avro union"),
            (r#"{"type": "fixed", "name": "F", "size": 4}"#, "Avro fixed"),
        ] {
            let avsc = format!(
                r#"{{"type": "record", "name": "R", "fields": [{{"name": "x", "type": {ty}}}]}}"#
            );
            let Err(Error::Schema(m)) = ddl_of_schema(&avsc) else {
                panic!("{ty} accepted")
            };
            assert!(m.starts_with(&format!("R.x is an {what}")), "{m}");
        }
        let Err(Error::Schema(m)) = ddl_of_schema(r#""long""#) else {
            panic!("a long accepted")
        };
        assert!(m.contains("not records"), "{m}");
    }
}
