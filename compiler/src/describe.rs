//! The checked model as JSON (`rcc describe`), for code generators of anyone's own, as
//! protoc plugins read a `CodeGeneratorRequest`: the files read, the modules, the records
//! and their fields with structured types (record references resolved to the record's
//! qualified name and declaring file), source positions, comments and Hadoop's type
//! signatures. The JSON Schema of the output is `docs/describe.schema.json`; it carries
//! [`FORMAT_VERSION`], which changes when a field is removed or changes meaning (new fields
//! may appear without a change).
//!
//! ```
//! use hadoop_record_compiler::{describe, load_with, LoadOptions, MemoryFileSystem};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links {\n  // A link.\n  class Link { vector<Link> more; }\n}\n");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let json = describe::describe(&model);
//! assert_eq!(json["format_version"], describe::FORMAT_VERSION);
//! let link = &json["records"][0];
//! assert_eq!(link["qualified_name"], "links.Link");
//! assert_eq!(link["doc"], "A link.");
//! assert_eq!(link["fields"][0]["type"]["element"]["kind"], "record");
//! assert_eq!(link["fields"][0]["type"]["element"]["file"], "links.jr");
//! ```

use serde_json::{json, Value};

use crate::model::{Comment, CommentKind, Model, Type};
use crate::source::Location;

/// The version of the output's layout, the `format_version` of every output and the
/// `const` of that property in `docs/describe.schema.json`.
pub const FORMAT_VERSION: u64 = 1;

/// `model` as the JSON that `rcc describe` prints.
pub fn describe(model: &Model) -> Value {
    let schema = model.to_schema();
    let path = |file| model.file(file).path().display().to_string();
    let files: Vec<Value> = model
        .files()
        .iter()
        .map(|f| {
            let includes: Vec<String> = f.includes().iter().map(|&i| path(i)).collect();
            json!({ "path": path(f.id()), "root": f.is_root(), "includes": includes })
        })
        .collect();
    let modules: Vec<Value> = model
        .modules()
        .iter()
        .map(|m| {
            let records: Vec<&str> = m
                .records()
                .iter()
                .map(|&r| model.record(r).qualified_name())
                .collect();
            json!({
                "name": m.name(),
                "records": records,
                "location": location(model, m.location()),
                "comments": comments(model, m.comments()),
                "doc": m.doc(),
            })
        })
        .collect();
    let records: Vec<Value> = model
        .records()
        .iter()
        .map(|r| {
            let fields: Vec<Value> = r
                .fields()
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name(),
                        "type": ty(model, f.ty()),
                        "ddl_type": model.type_to_string(f.ty()),
                        "location": location(model, f.location()),
                        "type_location": location(model, f.type_location()),
                        "comments": comments(model, f.comments()),
                        "doc": f.doc(),
                    })
                })
                .collect();
            json!({
                "name": r.name(),
                "module": r.module(),
                "qualified_name": r.qualified_name(),
                "file": path(r.file()),
                "root": r.in_root_file(),
                "signature": schema.signature(r.qualified_name()).map(|s| s.to_string()),
                "location": location(model, r.location()),
                "comments": comments(model, r.comments()),
                "doc": r.doc(),
                "fields": fields,
            })
        })
        .collect();
    json!({
        "format_version": FORMAT_VERSION,
        "files": files,
        "modules": modules,
        "records": records,
    })
}

/// `{"kind": "primitive", "name": "int"}`, `{"kind": "vector", "element": …}`,
/// `{"kind": "map", "key": …, "value": …}` or `{"kind": "record", "name": "m.R", "file": …}`.
fn ty(model: &Model, ty: &Type) -> Value {
    match ty {
        Type::Primitive(p) => json!({ "kind": "primitive", "name": p.keyword() }),
        Type::Vector(element) => json!({ "kind": "vector", "element": self::ty(model, element) }),
        Type::Map(key, value) => json!({
            "kind": "map",
            "key": self::ty(model, key),
            "value": self::ty(model, value),
        }),
        Type::Record(r) => {
            let record = model.record(*r);
            json!({
                "kind": "record",
                "name": record.qualified_name(),
                "file": model.file(record.file()).path().display().to_string(),
            })
        }
    }
}

/// File, 1-based line and column (in characters) of the start and end, byte offsets.
fn location(model: &Model, location: &Location) -> Value {
    let (end_line, end_column) = model.file(location.file).line_col(location.span.end);
    json!({
        "file": location.path.display().to_string(),
        "line": location.line,
        "column": location.column,
        "end_line": end_line,
        "end_column": end_column,
        "start": location.span.start,
        "end": location.span.end,
    })
}

fn comments(model: &Model, comments: &[Comment]) -> Vec<Value> {
    comments
        .iter()
        .map(|c| {
            json!({
                "kind": match c.kind() {
                    CommentKind::Line => "line",
                    CommentKind::Block => "block",
                },
                "text": c.text(),
                "body": c.body(),
                "trailing": c.is_trailing(),
                "location": location(model, c.location()),
            })
        })
        .collect()
}
