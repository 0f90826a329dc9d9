//! The schemas' JSON: a tree whose objects keep their keys in the order given, printed
//! with serde_json's escapes and numbers.
//!
//! Why not `serde_json::Value`: its objects are sorted by key, or kept in insertion order
//! when any crate of the build turns on serde_json's `preserve_order` feature (the runtime's
//! `json` feature does), so the same schema would print one way in a build script and
//! another in `rcc`. These objects serialize their keys in the order Avro's own tools print
//! them (`type`, `name`, `namespace`, `doc`, `fields`), whatever the features.
//!
//! Why not serde_json's pretty printer: it lays out every value alike, and a field's default
//! goes on one line ([`Json::Inline`]). A record's default holds its records' defaults, as
//! deep as the record; laid out a line per value, indented ever deeper, the defaults of a
//! chain of records a hundred deep made the schemas eight times their size.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value of a schema: strings, arrays and objects, and the numbers and booleans of
/// fields' defaults.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json {
    Bool(bool),
    Int(i64),
    /// Printed with a fraction (`0.0`), as a `float` or `double` default reads best.
    Float(f64),
    String(String),
    Array(Vec<Json>),
    /// Keys in the order they are printed: the schema's own words, or a record default's
    /// field names.
    Object(Vec<(Cow<'static, str>, Json)>),
    /// A value [`pretty`] prints on one line, without spaces.
    Inline(Box<Json>),
}

impl Json {
    /// An object of keys known when compiling.
    pub(super) fn object(entries: Vec<(&'static str, Json)>) -> Json {
        Json::Object(
            entries
                .into_iter()
                .map(|(key, value)| (Cow::Borrowed(key), value))
                .collect(),
        )
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Json::String(s.to_owned())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Int(n) => serializer.serialize_i64(*n),
            Json::Float(x) => serializer.serialize_f64(*x),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key.as_ref(), value)?;
                }
                map.end()
            }
            Json::Inline(json) => json.serialize(serializer),
        }
    }
}

/// `json` pretty-printed as serde_json prints it (two-space indents, `"key": value`, `[]`
/// and `{}` when empty) but for [`Json::Inline`] values, with a final line break.
pub(super) fn pretty(json: &Json) -> String {
    let mut text = String::new();
    layout(json, 0, &mut text);
    text.push('\n');
    text
}

/// Appends `json`, whose first line is indented `depth` levels, to `out`.
fn layout(json: &Json, depth: usize, out: &mut String) {
    let line = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    match json {
        Json::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { "," });
                line(out, depth + 1);
                layout(item, depth + 1, out);
            }
            line(out, depth);
            out.push(']');
        }
        Json::Object(entries) if !entries.is_empty() => {
            out.push('{');
            for (i, (key, value)) in entries.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { "," });
                line(out, depth + 1);
                out.push_str(&compact(&Json::String(key.to_string())));
                out.push_str(": ");
                layout(value, depth + 1, out);
            }
            line(out, depth);
            out.push('}');
        }
        // Scalars, `[]`, `{}` and inline values.
        _ => out.push_str(&compact(json)),
    }
}

/// `json` on one line, without spaces.
fn compact(json: &Json) -> String {
    serde_json::to_string(json).expect(
        "a tree of finite numbers, strings, arrays and objects with string keys always \
         serializes",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_strings_are_escaped() {
        let json = Json::object(vec![
            ("type", "record".into()),
            ("name", "Z".into()),
            ("doc", "a \"quoted\"\nline\t\u{1}é".into()),
            ("fields", Json::Array(vec![])),
        ]);
        assert_eq!(
            pretty(&json),
            "{\n  \"type\": \"record\",\n  \"name\": \"Z\",\n  \
             \"doc\": \"a \\\"quoted\\\"\\nline\\t\\u0001é\",\n  \"fields\": []\n}\n"
        );
    }

    #[test]
    fn nested_values_are_laid_out_as_serde_json_does_but_inline_ones() {
        let json = Json::object(vec![
            (
                "a",
                Json::Array(vec![Json::Int(1), Json::object(vec![("b", "c".into())])]),
            ),
            ("e", Json::Array(vec![])),
            ("o", Json::Object(vec![])),
            (
                "default",
                Json::Inline(Box::new(Json::object(vec![
                    ("x", Json::Float(0.0)),
                    ("y", Json::Array(vec![Json::Bool(false)])),
                ]))),
            ),
        ]);
        let serde = serde_json::to_string_pretty(&Json::object(vec![
            (
                "a",
                Json::Array(vec![Json::Int(1), Json::object(vec![("b", "c".into())])]),
            ),
            ("e", Json::Array(vec![])),
            ("o", Json::Object(vec![])),
        ]))
        .unwrap();
        assert_eq!(
            pretty(&json),
            format!(
                "{},\n  \"default\": {{\"x\":0.0,\"y\":[false]}}\n}}\n",
                serde.strip_suffix("\n}").unwrap()
            )
        );
    }

    #[test]
    fn defaults_print_as_avro_reads_them() {
        let json = Json::Object(vec![
            ("i".into(), Json::Int(0)),
            ("d".into(), Json::Float(0.0)),
            ("z".into(), Json::Bool(false)),
            (String::from("a field").into(), Json::Object(vec![])),
            ("v".into(), Json::Array(vec![])),
        ]);
        assert_eq!(
            serde_json::to_string(&json).unwrap(),
            r#"{"i":0,"d":0.0,"z":false,"a field":{},"v":[]}"#
        );
    }
}
