//! The Avro back end (`rcc -l avro`): an Avro schema (`.avsc`) for every record of the
//! files named (not of included files), at `<module>.<Name>.avsc`.
//!
//! Each schema is self-contained: the records a record uses are defined inline where they
//! are first used and named (by full name) after that, each with its DDL module as its Avro
//! namespace. What Avro has no type for is marked with the Avro property [`HADOOP_TYPE`], so
//! that reading a schema back gives the exact DDL types, and DDL comments become `doc`s.
//! Every field has a `default`, Hadoop's empty value of its type (what Hadoop reads for a
//! field the data lacks), so that Avro's schema resolution fills a field added to a record
//! as Hadoop does — but where the default would hold a record still being defined, which
//! Java Avro refuses (see `Writer::field`):
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
//!       },
//!       "default": 0
//!     }
//!   ]
//! }
//! "#
//! );
//! ```

mod avsc;
mod entries;
mod json;
mod resolution;

pub use self::resolution::{resolution, AvroFinding, AvroOutcome};

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

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

/// [`resolution`] of the schemas of record `old_record` of `old` (the writer's) and
/// `new_record` of `new` (the reader's), as [`schema`] writes them: what Avro's schema
/// resolution does to data written as the old version of a record when read as the new.
///
/// Unlike [`resolution`] of their text, this takes schemas of any depth (serde_json reads
/// JSON nested at most 128 deep, about 40 records held one inside the other).
pub fn record_resolution(
    old: &Model,
    old_record: RecordIndex,
    new: &Model,
    new_record: RecordIndex,
) -> Vec<AvroFinding> {
    let parsed = |model: &Model, record| {
        let entries = EntryNames::assign(model);
        let tree = Writer::new(model, &entries).record(record);
        let json = serde_json::to_value(&tree)
            .expect("a tree of finite numbers, strings, arrays and objects converts");
        avsc::Avsc::from_json(&json).expect("the schemas `schema` writes are Avro schemas")
    };
    resolution::resolve(&parsed(old, old_record), &parsed(new, new_record))
}

/// Writes one schema: remembers the records it has defined, which later uses name.
struct Writer<'a> {
    model: &'a Model,
    entries: &'a EntryNames,
    defined: HashSet<RecordIndex>,
    /// The records whose definitions are being written, outermost first.
    open: Vec<RecordIndex>,
    /// The default of each record met, made once (a record can be used many times).
    defaults: HashMap<RecordIndex, Json>,
    /// The records whose default is being made.
    defaulting: HashSet<RecordIndex>,
    /// The records each record met holds by value (itself, its fields' records, theirs…).
    held: HashMap<RecordIndex, Rc<HashSet<RecordIndex>>>,
}

impl<'a> Writer<'a> {
    fn new(model: &'a Model, entries: &'a EntryNames) -> Self {
        Writer {
            model,
            entries,
            defined: HashSet::new(),
            open: Vec::new(),
            defaults: HashMap::new(),
            defaulting: HashSet::new(),
            held: HashMap::new(),
        }
    }

    /// The definition of record `r`, or its full name once defined (a record that refers
    /// to itself is defined once its name is written).
    fn record(&mut self, r: RecordIndex) -> Json {
        let record = self.model.record(r);
        if !self.defined.insert(r) {
            return record.qualified_name().into();
        }
        self.open.push(r);
        let fields = record
            .fields()
            .iter()
            .enumerate()
            .map(|(f, field)| {
                let ty = self.ty(field.ty(), &mut Site::new(r, f));
                self.field(field.name(), ty, field.doc(), field.ty())
            })
            .collect();
        self.open.pop();
        let mut object = with_doc(
            vec![
                ("type", "record".into()),
                ("name", record.name().into()),
                ("namespace", record.module().into()),
            ],
            record.doc(),
        );
        object.push(("fields", Json::Array(fields)));
        Json::object(object)
    }

    /// A field `name` of DDL type `ddl` (Avro type `ty`): its name, type, doc and default.
    ///
    /// No default when it would hold a record whose definition is still being written (a
    /// record holding itself through a vector or map: `map<Tree, Tree>` inside `Tree`):
    /// Java Avro checks a record default against the record's fields as it reads the field,
    /// before it has read them, and refuses the schema.
    fn field(&mut self, name: &str, ty: Json, doc: String, ddl: &Type) -> Json {
        let mut object = with_doc(vec![("name", name.into()), ("type", ty)], doc);
        let open = match ddl {
            Type::Record(r) => {
                let held = self.held(*r);
                self.open.iter().any(|o| held.contains(o))
            }
            _ => false,
        };
        if !open {
            object.push(("default", Json::Inline(Box::new(self.default(ddl)))));
        }
        Json::object(object)
    }

    /// The records `r` holds by value: itself, the records of its fields, theirs…
    fn held(&mut self, r: RecordIndex) -> Rc<HashSet<RecordIndex>> {
        if let Some(held) = self.held.get(&r) {
            return Rc::clone(held);
        }
        let mut held = HashSet::from([r]);
        let model = self.model;
        for field in model.record(r).fields() {
            if let Type::Record(q) = field.ty() {
                held.extend(self.held(*q).iter().copied());
            }
        }
        let held = Rc::new(held);
        self.held.insert(r, Rc::clone(&held));
        held
    }

    /// Hadoop's empty value of `ty` (what Hadoop reads for a field the data lacks), as an
    /// Avro default: 0, `false`, `""` (also an empty buffer: Avro's bytes are JSON strings),
    /// an empty array or map, a record of its fields' defaults.
    ///
    /// A record's default is finite: the checker refuses a record that contains itself
    /// other than through a vector or map (`check::containment`), whose default is empty;
    /// a model that had one would stop here rather than recurse without end.
    fn default(&mut self, ty: &Type) -> Json {
        match ty {
            Type::Primitive(p) => match p {
                Primitive::Boolean => Json::Bool(false),
                Primitive::Byte | Primitive::Int | Primitive::Long => Json::Int(0),
                Primitive::Float | Primitive::Double => Json::Float(0.0),
                Primitive::UString | Primitive::Buffer => "".into(),
            },
            Type::Map(k, _) if is_avro_map_key(k) => Json::Object(Vec::new()),
            Type::Vector(_) | Type::Map(..) => Json::Array(Vec::new()),
            Type::Record(r) => {
                if let Some(default) = self.defaults.get(r) {
                    return default.clone();
                }
                assert!(
                    self.defaulting.insert(*r),
                    "a checked model has no record that contains itself by value"
                );
                let model = self.model;
                let fields = model
                    .record(*r)
                    .fields()
                    .iter()
                    .map(|f| (Cow::Owned(f.name().to_owned()), self.default(f.ty())))
                    .collect();
                let default = Json::Object(fields);
                self.defaulting.remove(r);
                self.defaults.insert(*r, default.clone());
                default
            }
        }
    }

    /// The Avro type of `ty`, found at `site`.
    fn ty(&mut self, ty: &Type, site: &mut Site) -> Json {
        match ty {
            Type::Primitive(p) => primitive(*p),
            Type::Vector(e) => {
                let items = site.within(Step::Item, |site| self.ty(e, site));
                Json::object(vec![("type", "array".into()), ("items", items)])
            }
            Type::Map(k, v) if is_avro_map_key(k) => {
                let values = site.within(Step::Value, |site| self.ty(v, site));
                Json::object(vec![("type", "map".into()), ("values", values)])
            }
            Type::Map(k, v) => {
                let key = site.within(Step::Key, |site| self.ty(k, site));
                let value = site.within(Step::Value, |site| self.ty(v, site));
                let namespace = self.model.record(site.record).module();
                let fields = vec![
                    self.field(KEY, key, String::new(), k),
                    self.field(VALUE, value, String::new(), v),
                ];
                let entry = Json::object(vec![
                    ("type", "record".into()),
                    ("name", self.entries.get(site).into()),
                    ("namespace", namespace.into()),
                    ("fields", Json::Array(fields)),
                ]);
                // The mark before the entry record, which may be long.
                Json::object(vec![
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
        Primitive::Byte => Json::object(vec![("type", "int".into()), (HADOOP_TYPE, BYTE.into())]),
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
                       "fields": [{"name": "x", "type": "int", "default": 0}]});
        // Each field's default is Hadoop's empty value of its type.
        assert_eq!(
            only(ddl, "m.All"),
            json!({"type": "record", "name": "All", "namespace": "m", "fields": [
                {"name": "b", "type": byte, "default": 0},
                {"name": "z", "type": "boolean", "default": false},
                {"name": "i", "type": "int", "default": 0},
                {"name": "l", "type": "long", "default": 0},
                {"name": "f", "type": "float", "default": 0.0},
                {"name": "d", "type": "double", "default": 0.0},
                {"name": "s", "type": "string", "default": ""},
                {"name": "u", "type": "bytes", "default": ""},
                {"name": "v", "type": {"type": "array", "items": "int"}, "default": []},
                {"name": "sm", "type": {"type": "map", "values": "long"}, "default": {}},
                {"name": "im", "type": {"type": "array", "hadoop.type": "map", "items": {
                    "type": "record", "name": "All_im_Entry", "namespace": "m", "fields": [
                        {"name": "key", "type": "int", "default": 0},
                        {"name": "value", "type": "string", "default": ""}]}},
                 "default": []},
                {"name": "p", "type": p, "default": {"x": 0}},
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
                       "fields": [{"name": "x", "type": "int", "default": 0}]});
        let link = json!({"type": "record", "name": "Link", "namespace": "m", "fields": [
            {"name": "more", "type": {"type": "array", "items": "m.Link"}, "default": []},
            {"name": "byName", "type": {"type": "map", "values": "m.Link"}, "default": {}},
        ]});
        assert_eq!(only(ddl, "m.Link"), link);
        let b0 = json!({"x": 0});
        assert_eq!(
            only(ddl, "m.A"),
            json!({"type": "record", "name": "A", "namespace": "m", "fields": [
                {"name": "first", "type": b, "default": b0},
                {"name": "many", "type": {"type": "array", "items": "m.B"}, "default": []},
                {"name": "c", "type": {"type": "record", "name": "C", "namespace": "m",
                    "fields": [{"name": "b", "type": "m.B", "default": b0}]},
                 "default": {"b": b0}},
                {"name": "pairs", "type": {"type": "array", "hadoop.type": "map", "items": {
                    "type": "record", "name": "A_pairs_Entry", "namespace": "m", "fields": [
                        {"name": "key", "type": "m.B", "default": b0},
                        {"name": "value", "type": "m.B", "default": b0}]}},
                 "default": []},
                {"name": "link", "type": link, "default": {"more": [], "byName": {}}},
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
                            "fields": [{"name": "key", "type": "long", "default": 0},
                                       {"name": "value", "type": "int", "default": 0}]}},
                        "default": []}]},
                 "default": {"m": []}},
                {"name": "bs", "type": {"type": "array", "items": "b.y.B"}, "default": []},
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
    fn defaults_are_hadoops_empty_values_at_any_depth() {
        let ddl = "module m {
            class Leaf { float f; buffer u; map<long, Leaf> m; }
            class Mid { Leaf a; Leaf b; vector<Mid> more; }
            class Top { Mid mid; map<ustring, Top> byName; Leaf leaf; }
        }";
        let leaf = json!({"f": 0.0, "u": "", "m": []});
        let mid = json!({"a": leaf, "b": leaf, "more": []});
        let top = only(ddl, "m.Top");
        let defaults: Vec<&Value> = top["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| &f["default"])
            .collect();
        assert_eq!(defaults, [&mid, &json!({}), &leaf]);
        // A record's default is the same wherever it is used: in Mid's definition too.
        assert_eq!(top["fields"][0]["type"]["fields"][1]["default"], leaf);
        // The exact text: each default on one line (however deep), a fraction for floating
        // point.
        let model = model(ddl);
        let text = schema(&model, model.find("m.Top").unwrap());
        for line in [
            "\n      \"default\": {\"a\":{\"f\":0.0,\"u\":\"\",\"m\":[]},\
             \"b\":{\"f\":0.0,\"u\":\"\",\"m\":[]},\"more\":[]}\n",
            "\n      \"default\": {}\n",
            "\n                  \"default\": 0.0\n",
            "\n                  \"default\": \"\"\n",
        ] {
            assert!(text.contains(line), "{line} in {text}");
        }
    }

    #[test]
    fn no_default_holds_a_record_still_being_defined() {
        // Java Avro checks a record default as it reads the field, against the record's
        // fields: those of a record whose definition is still open are not read yet.
        let ddl = "module m {
            class Tree { int n; map<Tree, Tree> links; map<Tree, int> counts; }
            class Far { vector<Leaf> back; }
            class Leaf { int id; Far far; }
        }";
        let tree = only(ddl, "m.Tree");
        let entry = |f: usize| tree["fields"][f]["type"]["items"]["fields"].clone();
        assert_eq!(
            entry(1),
            json!([{"name": "key", "type": "m.Tree"}, {"name": "value", "type": "m.Tree"}])
        );
        assert_eq!(
            entry(2),
            json!([{"name": "key", "type": "m.Tree"}, {"name": "value", "type": "int", "default": 0}])
        );
        // The map itself is outside Tree's fields: it defaults to empty.
        assert_eq!(tree["fields"][1]["default"], json!([]));
        // Leaf inside Far's schema: its `far` is Far, still open there. In Leaf's own
        // schema, Far is defined inside `far`'s type, and closed before its default.
        let far = only(ddl, "m.Far");
        let leaf_in_far = &far["fields"][0]["type"]["items"];
        assert_eq!(
            leaf_in_far["fields"][1],
            json!({"name": "far", "type": "m.Far"})
        );
        assert_eq!(leaf_in_far["fields"][0]["default"], 0);
        let leaf = only(ddl, "m.Leaf");
        assert_eq!(leaf["fields"][1]["default"], json!({"back": []}));
        assert_eq!(far["fields"][0]["default"], json!([]));
    }

    #[test]
    fn a_record_holding_itself_by_value_never_reaches_the_back_end() {
        // Its default would be infinite: the checker refuses it, so a model never has one
        // (a record holding itself through a vector or map defaults to empty, above).
        for ddl in [
            "module m { class A { A a; } }",
            "module m { class A { B b; } class B { A a; } }",
        ] {
            let mut fs = crate::MemoryFileSystem::new();
            fs.insert("a.jr", ddl);
            let refused = crate::load_with(&fs, &["a.jr"], &crate::LoadOptions::default())
                .expect_err(ddl)
                .to_string();
            assert!(refused.contains("contains itself"), "{ddl}: {refused}");
        }
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
