//! The schemas' JSON: a tree whose objects keep their keys in the order given, printed by
//! serde_json.
//!
//! Why not `serde_json::Value`: its objects are sorted by key, or kept in insertion order
//! when any crate of the build turns on serde_json's `preserve_order` feature (the runtime's
//! `json` feature does), so the same schema would print one way in a build script and
//! another in `rcc`. These objects serialize their keys in the order Avro's own tools print
//! them (`type`, `name`, `namespace`, `doc`, `fields`), whatever the features.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value of a schema: strings, arrays and objects are all a schema needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Json {
    String(String),
    Array(Vec<Json>),
    /// Keys in the order they are printed.
    Object(Vec<(&'static str, Json)>),
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Json::String(s.to_owned())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
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
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

/// `json` pretty-printed (two-space indents), with a final line break.
pub(super) fn pretty(json: &Json) -> String {
    let mut text = serde_json::to_string_pretty(json)
        .expect("a tree of strings, arrays and objects with string keys always serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_strings_are_escaped() {
        let json = Json::Object(vec![
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
}
