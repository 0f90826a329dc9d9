//! The Avro back end (`rcc -l avro`): an Avro schema (`.avsc`) for every record of the
//! files named (not of included files), at `<module>.<Name>.avsc`.
//!
//! Each schema is self-contained: the records a record uses are defined inline where they
//! are first used and named (by full name) after that, each with its DDL module as its Avro
//! namespace. What Avro has no type for is marked with the Avro property [`HADOOP_TYPE`], so
//! that reading a schema back gives the exact DDL types, and DDL comments become `doc`s:
//!
//! | DDL | Avro |
//! | --- | --- |
//! | `boolean`, `int`, `long`, `float`, `double` | the same |
//! | `byte` | `{"type": "int", "hadoop.type": "byte"}` |
//! | `ustring` | `string` |
//! | `buffer` | `bytes` |
//! | `vector<T>` | `{"type": "array", "items": T}` |
//! | `map<ustring, V>` | `{"type": "map", "values": V}` |
//! | `map<K, V>` (other keys) | `{"type": "array", "hadoop.type": "map", "items": E}`, `E` a record `<Record>_<field>_Entry` of fields `key` and `value` |
//! | a record | a record |
//!
//! ```
//! use hadoop_record_compiler::{backend::avro, load_with, LoadOptions, MemoryFileSystem};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links {\n  // A link.\n  class Link { byte kind; }\n}\n");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let files = avro::generate(&model);
//! assert_eq!(files[0].path.to_str(), Some("links.Link.avsc"));
//! assert_eq!(
//!     files[0].contents,
//!     r#"{
//!   "type": "record",
//!   "name": "Link",
//!   "namespace": "links",
//!   "doc": "A link.",
//!   "fields": [
//!     {
//!       "name": "kind",
//!       "type": {
//!         "type": "int",
//!         "hadoop.type": "byte"
//!       }
//!     }
//!   ]
//! }
//! "#
//! );
//! ```

mod entries;
mod json;

use std::collections::HashSet;
use std::path::PathBuf;

use self::entries::{is_avro_map_key, EntryNames, Site, Step};
use self::json::Json;
use super::OutputFile;
use crate::model::{Model, Primitive, RecordIndex, Type};

/// The Avro property marking a type that Avro lacks: [`BYTE`] on an `int`, [`MAP`] on an
/// array of key/value records.
pub const HADOOP_TYPE: &str = "hadoop.type";
/// [`HADOOP_TYPE`] of an `int` that is a DDL `byte`.
pub const BYTE: &str = "byte";
/// [`HADOOP_TYPE`] of an array of [`KEY`]/[`VALUE`] records that is a DDL map whose keys
/// are not `ustring`.
pub const MAP: &str = "map";
/// The key's field in an entry record of a [`MAP`] array.
pub const KEY: &str = "key";
/// The value's field in an entry record of a [`MAP`] array.
pub const VALUE: &str = "value";

/// One `.avsc` per record of the files named (Hadoop's rcc generates nothing for included
/// files), in [`Model::records`] order, at `<module>.<Name>.avsc` relative to the output
/// directory; each is pretty-printed JSON ending in a line break.
pub fn generate(model: &Model) -> Vec<OutputFile> {
    let entries = EntryNames::assign(model);
    model
        .records()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.in_root_file())
        .map(|(i, r)| OutputFile {
            path: PathBuf::from(format!("{}.avsc", r.qualified_name())),
            contents: json::pretty(&Writer::new(model, &entries).record(RecordIndex::new(i))),
        })
        .collect()
}

/// The `.avsc` of record `record` of `model` (included or not), as [`generate`] writes it.
pub fn schema(model: &Model, record: RecordIndex) -> String {
    let entries = EntryNames::assign(model);
    json::pretty(&Writer::new(model, &entries).record(record))
}

/// Writes one schema: remembers the records it has defined, which later uses name.
struct Writer<'a> {
    model: &'a Model,
    entries: &'a EntryNames,
    defined: HashSet<RecordIndex>,
}

impl<'a> Writer<'a> {
    fn new(model: &'a Model, entries: &'a EntryNames) -> Self {
        Writer {
            model,
            entries,
            defined: HashSet::new(),
        }
    }

    /// The definition of record `r`, or its full name once defined (a record that refers
    /// to itself is defined once its name is written).
    fn record(&mut self, r: RecordIndex) -> Json {
        let record = self.model.record(r);
        if !self.defined.insert(r) {
            return record.qualified_name().into();
        }
        let fields = record
            .fields()
            .iter()
            .enumerate()
            .map(|(f, field)| {
                let ty = self.ty(field.ty(), &mut Site::new(r, f));
                Json::Object(with_doc(
                    vec![("name", field.name().into()), ("type", ty)],
                    field.doc(),
                ))
            })
            .collect();
        let mut object = with_doc(
            vec![
                ("type", "record".into()),
                ("name", record.name().into()),
                ("namespace", record.module().into()),
            ],
            record.doc(),
        );
        object.push(("fields", Json::Array(fields)));
        Json::Object(object)
    }

    /// The Avro type of `ty`, found at `site`.
    fn ty(&mut self, ty: &Type, site: &mut Site) -> Json {
        match ty {
            Type::Primitive(p) => primitive(*p),
            Type::Vector(e) => {
                let items = site.within(Step::Item, |site| self.ty(e, site));
                Json::Object(vec![("type", "array".into()), ("items", items)])
            }
            Type::Map(k, v) if is_avro_map_key(k) => {
                let values = site.within(Step::Value, |site| self.ty(v, site));
                Json::Object(vec![("type", "map".into()), ("values", values)])
            }
            Type::Map(k, v) => {
                let key = site.within(Step::Key, |site| self.ty(k, site));
                let value = site.within(Step::Value, |site| self.ty(v, site));
                let namespace = self.model.record(site.record).module();
                let entry = Json::Object(vec![
                    ("type", "record".into()),
                    ("name", self.entries.get(site).into()),
                    ("namespace", namespace.into()),
                    (
                        "fields",
                        Json::Array(vec![
                            Json::Object(vec![("name", KEY.into()), ("type", key)]),
                            Json::Object(vec![("name", VALUE.into()), ("type", value)]),
                        ]),
                    ),
                ]);
                // The mark before the entry record, which may be long.
                Json::Object(vec![
                    ("type", "array".into()),
                    (HADOOP_TYPE, MAP.into()),
                    ("items", entry),
                ])
            }
            Type::Record(r) => self.record(*r),
        }
    }
}

/// The Avro type of a DDL primitive.
fn primitive(p: Primitive) -> Json {
    match p {
        Primitive::Byte => Json::Object(vec![("type", "int".into()), (HADOOP_TYPE, BYTE.into())]),
        Primitive::Boolean => "boolean".into(),
        Primitive::Int => "int".into(),
        Primitive::Long => "long".into(),
        Primitive::Float => "float".into(),
        Primitive::Double => "double".into(),
        Primitive::UString => "string".into(),
        Primitive::Buffer => "bytes".into(),
    }
}

/// `object` with a `doc` entry after it, unless `doc` is empty.
fn with_doc(mut object: Vec<(&'static str, Json)>, doc: String) -> Vec<(&'static str, Json)> {
    if !doc.is_empty() {
        object.push(("doc", Json::String(doc)));
    }
    object
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::test_support::{model, model_of};

    /// The schemas `generate` writes for `model`, parsed, by file name.
    fn schemas(model: &Model) -> Vec<(String, Value)> {
        generate(model)
            .into_iter()
            .map(|f| {
                let json = serde_json::from_str(&f.contents).unwrap();
                (f.path.to_str().unwrap().to_owned(), json)
            })
            .collect()
    }

    /// The one schema `generate` writes for a file declaring `ddl`'s record `name` last.
    fn only(ddl: &str, name: &str) -> Value {
        let model = model(ddl);
        let file = format!("{name}.avsc");
        schemas(&model)
            .into_iter()
            .find(|(path, _)| *path == file)
            .unwrap_or_else(|| panic!("no {file}"))
            .1
    }

    #[test]
    fn every_ddl_type_has_its_avro_type() {
        let ddl = "module m { class P { int x; } class All {
            byte b; boolean z; int i; long l; float f; double d; ustring s; buffer u;
            vector<int> v; map<ustring, long> sm; map<int, ustring> im; P p;
        } }";
        let byte = json!({"type": "int", "hadoop.type": "byte"});
        let p = json!({"type": "record", "name": "P", "namespace": "m",
                       "fields": [{"name": "x", "type": "int"}]});
        assert_eq!(
            only(ddl, "m.All"),
            json!({"type": "record", "name": "All", "namespace": "m", "fields": [
                {"name": "b", "type": byte},
                {"name": "z", "type": "boolean"},
                {"name": "i", "type": "int"},
                {"name": "l", "type": "long"},
                {"name": "f", "type": "float"},
                {"name": "d", "type": "double"},
                {"name": "s", "type": "string"},
                {"name": "u", "type": "bytes"},
                {"name": "v", "type": {"type": "array", "items": "int"}},
                {"name": "sm", "type": {"type": "map", "values": "long"}},
                {"name": "im", "type": {"type": "array", "hadoop.type": "map", "items": {
                    "type": "record", "name": "All_im_Entry", "namespace": "m", "fields": [
                        {"name": "key", "type": "int"},
                        {"name": "value", "type": "string"}]}}},
                {"name": "p", "type": p},
            ]})
        );
    }

    #[test]
    fn records_are_defined_at_their_first_use_and_named_after() {
        let ddl = "module m {
            class B { int x; }
            class Link { vector<Link> more; map<ustring, Link> byName; }
            class C { B b; }
            class A { B first; vector<B> many; C c; map<B, B> pairs; Link link; }
        }";
        let b = json!({"type": "record", "name": "B", "namespace": "m",
                       "fields": [{"name": "x", "type": "int"}]});
        let link = json!({"type": "record", "name": "Link", "namespace": "m", "fields": [
            {"name": "more", "type": {"type": "array", "items": "m.Link"}},
            {"name": "byName", "type": {"type": "map", "values": "m.Link"}},
        ]});
        assert_eq!(only(ddl, "m.Link"), link);
        assert_eq!(
            only(ddl, "m.A"),
            json!({"type": "record", "name": "A", "namespace": "m", "fields": [
                {"name": "first", "type": b},
                {"name": "many", "type": {"type": "array", "items": "m.B"}},
                {"name": "c", "type": {"type": "record", "name": "C", "namespace": "m",
                    "fields": [{"name": "b", "type": "m.B"}]}},
                {"name": "pairs", "type": {"type": "array", "hadoop.type": "map", "items": {
                    "type": "record", "name": "A_pairs_Entry", "namespace": "m", "fields": [
                        {"name": "key", "type": "m.B"},
                        {"name": "value", "type": "m.B"}]}}},
                {"name": "link", "type": link},
            ]})
        );
        // Each schema stands alone: C's defines B again.
        assert_eq!(only(ddl, "m.C")["fields"][0]["type"]["name"], json!("B"),);
    }

    #[test]
    fn records_of_other_modules_and_files_keep_their_namespace() {
        let model = model_of(
            &[
                (
                    "a.jr",
                    "include \"b.jr\"\nmodule a.x { class A { b.y.B b; vector<b.y.B> bs; } }",
                ),
                ("b.jr", "module b.y { class B { map<long, int> m; } }"),
            ],
            &["a.jr"],
        );
        // Only the file named gets files, as with Hadoop's rcc.
        let all = schemas(&model);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0, "a.x.A.avsc");
        assert_eq!(
            all[0].1,
            json!({"type": "record", "name": "A", "namespace": "a.x", "fields": [
                {"name": "b", "type": {"type": "record", "name": "B", "namespace": "b.y",
                    "fields": [{"name": "m", "type": {"type": "array", "hadoop.type": "map",
                        "items": {"type": "record", "name": "B_m_Entry", "namespace": "b.y",
                            "fields": [{"name": "key", "type": "long"},
                                       {"name": "value", "type": "int"}]}}}]}},
                {"name": "bs", "type": {"type": "array", "items": "b.y.B"}},
            ]})
        );
        let b = model.find("b.y.B").unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&schema(&model, b)).unwrap()["name"],
            "B"
        );
    }

    #[test]
    fn comments_become_docs() {
        let ddl = "module m {
            // A point.
            /* Two lines
             * of it. */
            class P {
                int x; // across
                /** Up. */
                int y;
                int z;
            }
        }";
        let p = only(ddl, "m.P");
        assert_eq!(p["doc"], "A point.\nTwo lines\nof it.");
        assert_eq!(p["fields"][0]["doc"], "across");
        assert_eq!(p["fields"][1]["doc"], "Up.");
        assert!(p["fields"][2].get("doc").is_none(), "{p}");
    }

    #[test]
    fn entry_records_are_named_by_where_the_map_is() {
        let ddl = "module m {
            class R_f_Entry { int x; }
            class R {
                map<int, map<long, int>> f;
                vector<map<boolean, map<ustring, map<byte, int>>>> g;
                map<map<int, int>, int> h;
            }
        }";
        let r = only(ddl, "m.R");
        // The entry record of the map array at `path` below `R`'s fields.
        let entry = |path: &str| {
            let t = r.pointer(&format!("/fields/{path}")).unwrap();
            assert_eq!(t["type"], "array", "{t}");
            assert_eq!(t["hadoop.type"], "map", "{t}");
            assert_eq!(t["items"]["namespace"], "m", "{t}");
            t["items"]["name"].as_str().unwrap().to_owned()
        };
        // A DDL record has the first name: the map's gets a number.
        assert_eq!(entry("0/type"), "R_f_Entry2");
        assert_eq!(entry("0/type/items/fields/1/type"), "R_f_value_Entry");
        assert_eq!(entry("1/type/items"), "R_g_item_Entry");
        assert_eq!(
            entry("1/type/items/items/fields/1/type/values"),
            "R_g_item_value_value_Entry"
        );
        assert_eq!(entry("2/type"), "R_h_Entry");
        assert_eq!(entry("2/type/items/fields/0/type"), "R_h_key_Entry");
        // The name depends on where the map is, not on what it holds.
        let changed = only(
            "module m { class R_f_Entry { int x; } class R { map<int, long> f; } }",
            "m.R",
        );
        assert_eq!(changed["fields"][0]["type"]["items"]["name"], "R_f_Entry2");
    }

    #[test]
    fn records_named_as_avro_primitives_are_named_by_full_name() {
        // Avro reserves the primitives' short names; a DDL record `string` keeps its name,
        // and every reference to it is its full name, which no primitive has.
        let ddl = "module m { class string { int x; } class bytes { string a; string b; } }";
        let bytes = only(ddl, "m.bytes");
        assert_eq!(bytes["name"], "bytes");
        assert_eq!(bytes["fields"][0]["type"]["name"], "string");
        assert_eq!(bytes["fields"][1]["type"], "m.string");
    }

    #[test]
    fn output_is_deterministic_and_in_model_order() {
        let ddl = "module z { class B { map<int, int> m; } class A { B b; map<long, B> n; } }";
        let model = model(ddl);
        let first = generate(&model);
        let paths: Vec<_> = first.iter().map(|f| f.path.to_str().unwrap()).collect();
        assert_eq!(paths, ["z.B.avsc", "z.A.avsc"]);
        for _ in 0..3 {
            assert_eq!(generate(&model), first);
        }
    }
}
