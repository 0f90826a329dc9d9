//! The C++ back end (`rcc -l c++`): Hadoop's C++ mapping, from the tera templates in
//! `templates/cpp`, plus a C++17 runtime of our own (`templates/cpp/runtime`), byte for byte
//! with Hadoop's Java in all three encodings.
//!
//! Every DDL file `x.jr` gives `x.jr.hh` and `x.jr.cc` ([`generate`]); [`runtime`] gives the
//! runtime's headers (`hadoop/*.hh`) and its one source file (`hadoop_record.cc`). With all of
//! them in one directory, `g++ -std=c++17 -I DIR DIR/*.cc app.cc` builds.
//!
//! `module a.b` becomes `namespace a::b`; a record becomes
//! `class X : public ::hadoop::Record` with Hadoop's members (`getF`/`setF`, `serialize`,
//! `deserialize`, `type`, `signature`, `validate`, `operator<`, `operator==`); types map as
//! byte → `std::int8_t`, boolean → `bool`, int → `std::int32_t`, long → `std::int64_t`,
//! float, double, ustring and buffer → `std::string`, vector → `std::vector`, map →
//! `std::map` (with `hadoop::KeyLess` where Java's key order differs from `std::less`).
//!
//! ```
//! use hadoop_record_compiler::{backend::cpp, load_with, LoadOptions, MemoryFileSystem};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links { class Link { ustring URL; boolean isRelative; } }");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let files = cpp::generate(&model, &cpp::Options::default()).unwrap();
//! assert_eq!(files[0].path.to_str(), Some("links.jr.hh"));
//! assert!(files[0].contents.contains("class Link : public ::hadoop::Record {"));
//! assert!(files[0].contents.contains("bool getIsRelative() const"));
//! assert!(cpp::runtime().iter().any(|f| f.path.to_str() == Some("hadoop_record.cc")));
//! ```
//!
//! Layout: `names` gives every namespace, class and member its C++ name, `layout` decides
//! which header defines which classes in which order, `types` spells types, and this file
//! fills the templates.

mod layout;
pub(crate) mod names;
mod runtime;
mod types;

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{locate, show_path, FieldApi, OutputFile, RecordApi, GENERATED_MARK};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{Model, RecordIndex};
use layout::{FileOut, Header};
pub(crate) use names::RecordNames;

pub use runtime::runtime;

hadoop_record::__options! {
    /// How to generate C++.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Options {
        /// Absolute DDL paths are shown relative to this directory in comments (so output
        /// does not depend on where the sources are checked out); absolute paths outside it
        /// are shown by file name only.
        source_root / with_source_root: ref Option<PathBuf> = None;
    }
}

const HEADER_TEMPLATE: &str = include_str!("../../../templates/cpp/header.hh.tera");
const SOURCE_TEMPLATE: &str = include_str!("../../../templates/cpp/source.cc.tera");

/// The C++ name of the class generated for every record of `model` (`::a::b::Class`), in
/// [`Model::records`] order.
///
/// ```
/// use hadoop_record_compiler::{backend::cpp, load_with, LoadOptions, MemoryFileSystem};
/// let mut fs = MemoryFileSystem::new();
/// fs.insert("x.jr", "module a.delete { class errno { int x; } }");
/// let model = load_with(&fs, &["x.jr"], &LoadOptions::default()).unwrap();
/// assert_eq!(cpp::qualified_names(&model), ["::a::delete_::errno_"]);
/// ```
pub fn qualified_names(model: &Model) -> Vec<String> {
    names::assign(model)
        .iter()
        .map(RecordNames::qualified)
        .collect()
}

/// Record `r` as the class [`generate`] writes for it, from the names of every record.
pub(crate) fn record_api(names: &[RecordNames], model: &Model, r: RecordIndex) -> RecordApi {
    let record = &names[r.index()];
    super::record_api(model, r, record.qualified(), &record.fields, |ty, n| {
        FieldApi {
            member: n.member.clone(),
            ty: types::cpp(ty, names),
            accessors: std::iter::once(n.getter.clone())
                .chain(n.setter.clone())
                .collect(),
        }
    })
}

/// `x.jr.hh` and `x.jr.cc` for every DDL file of `model` (included files too, so that the
/// headers they include exist), with paths relative to the output directory.
///
/// Fails only when two DDL files have the same file name (the generated files are named
/// after it alone, as Hadoop names them) or a file name cannot be written in `#include`.
pub fn generate(model: &Model, options: &Options) -> Result<Vec<OutputFile>, Diagnostics> {
    let plan = layout::plan(model).map_err(|p| Diagnostics::new(model.files().to_vec(), p))?;
    let names = names::assign(model);
    let schema = model.to_schema();
    let mut tera = tera::Tera::default();
    tera.add_raw_templates([
        ("header.hh", HEADER_TEMPLATE),
        ("source.cc", SOURCE_TEMPLATE),
    ])
    .map_err(|e| template_error(model, &e))?;
    let root = options.source_root().as_deref();
    let classes: Vec<serde_json::Value> = model
        .records()
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let n = &names[i];
            let fields: Vec<serde_json::Value> = record
                .fields()
                .iter()
                .zip(&n.fields)
                .map(|(field, f)| {
                    json!({
                        "ddl_name": field.name(),
                        "doc": format!("{} {}", model.type_to_string(field.ty()), field.name()),
                        "member": f.member,
                        "getter": f.getter,
                        "setter": f.setter,
                        "cpp_type": types::cpp(field.ty(), &names),
                        "ddl_type": types::descriptor(field.ty(), &names),
                        "init": types::initializer(field.ty()),
                    })
                })
                .collect();
            json!({
                "namespace": n.namespace_path(),
                "name": n.class,
                "ddl": record.qualified_name(),
                "ddl_name": record.name(),
                "location": locate(record.location(), root),
                "signature": schema.signature(record.qualified_name()).map(|s| s.to_string()),
                "fields": fields,
            })
        })
        .collect();
    let mut out = Vec::with_capacity(2 * plan.len());
    for file in &plan {
        let banner = banner(model, file, root);
        let header = render(
            &tera,
            "header.hh",
            &header_context(file, &plan, &classes, &banner),
        )
        .map_err(|e| template_error(model, &e))?;
        let source_classes: Vec<&serde_json::Value> =
            file.records.iter().map(|r| &classes[r.index()]).collect();
        let source = render(
            &tera,
            "source.cc",
            &json!({
                "banner": banner,
                "header": format!("{}.hh", file.name),
                "classes": source_classes,
            }),
        )
        .map_err(|e| template_error(model, &e))?;
        out.push(OutputFile {
            path: PathBuf::from(format!("{}.hh", file.name)),
            contents: header,
        });
        out.push(OutputFile {
            path: PathBuf::from(format!("{}.cc", file.name)),
            contents: source,
        });
    }
    Ok(out)
}

fn header_context(
    file: &FileOut,
    plan: &[FileOut],
    classes: &[serde_json::Value],
    banner: &str,
) -> serde_json::Value {
    let guard = guard(&file.name);
    match &file.header {
        Header::Shared { definitions } => json!({
            "banner": banner,
            "guard": guard,
            "file": file.name,
            "shared": format!("{}.hh", plan[definitions.index()].name),
        }),
        Header::Definitions {
            includes,
            classes: order,
        } => {
            let includes: Vec<String> = includes
                .iter()
                .map(|f| format!("{}.hh", plan[f.index()].name))
                .collect();
            let ordered: Vec<&serde_json::Value> =
                order.iter().map(|r| &classes[r.index()]).collect();
            json!({
                "banner": banner,
                "guard": guard,
                "file": file.name,
                "shared": false,
                "includes": includes,
                "classes": ordered,
            })
        }
    }
}

fn render(tera: &tera::Tera, name: &str, context: &serde_json::Value) -> tera::Result<String> {
    let context = tera::Context::from_value(context.clone())?;
    tera.render(name, &context)
}

/// A template that does not render is a bug in `rcc`, reported rather than panicking.
fn template_error(model: &Model, e: &tera::Error) -> Diagnostics {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        message.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    Diagnostics::new(
        model.files().to_vec(),
        vec![
            Diagnostic::error(format!("the C++ templates failed: {message}"))
                .note("this is a bug in rcc"),
        ],
    )
}

/// The comment at the top of every generated file.
fn banner(model: &Model, file: &FileOut, root: Option<&Path>) -> String {
    format!(
        "{GENERATED_MARK}, the Hadoop Record I/O compiler, from `{}`.\n// Do not edit: changes are lost when the code is generated again.\n",
        show_path(model.file(file.file).path(), root)
    )
}

/// The include guard of `name.hh`: its letters and digits, and a hash of the exact name so
/// that names differing only in punctuation get different guards.
fn guard(name: &str) -> String {
    let mut text = String::from("RCC_");
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            text.push(c.to_ascii_uppercase());
        } else if !text.ends_with('_') {
            text.push('_');
        }
    }
    // FNV-1a, 32 bits.
    let hash = name.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    if !text.ends_with('_') {
        text.push('_');
    }
    format!("{text}HH_{hash:08X}")
}

/// The C++ names of a record, for the templates and type spellings.
pub(crate) type Names = [RecordNames];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_are_identifiers_without_double_underscores() {
        assert!(guard("links.jr").starts_with("RCC_LINKS_JR_HH_"));
        assert_eq!(guard("links.jr").len(), "RCC_LINKS_JR_HH_".len() + 8);
        for name in ["links.jr", "a-b.jr", "a_b.jr", "x..jr", "é.jr", "9.jr"] {
            let g = guard(name);
            assert!(!g.contains("__"), "{g}");
            assert!(
                g.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{g}"
            );
        }
        assert_ne!(guard("a-b.jr"), guard("a_b.jr"));
    }
}
