//! The Java back end (`rcc -l java`): a drop-in replacement for Hadoop's own rcc. Every
//! record of the files named (not of included files) becomes
//! `<module path as folders>/<Class>.java`, with the public API Hadoop's rcc generates
//! (a `org.apache.hadoop.record.Record` with constructors, `getX`/`setX`, `serialize`,
//! `deserialize`, `compareTo`, `equals`, `hashCode`, `clone`, `signature()`, type info and
//! type filter, a raw `Comparator`), and its behaviour: the same bytes through Hadoop's
//! `RecordOutput`s, the same comparisons and hash codes. Where Hadoop's rcc is wrong, this
//! one is right: classes whose fields are all records compile, the raw comparator agrees
//! with `compareTo`, names that are not Java identifiers get a Java name
//! ([`names`](self) documents the rules), fields start empty instead of `null`, `clone`
//! is deep, and a record too wide for a Java constructor (over 254 parameter slots) has no
//! all-fields constructor rather than one javac refuses.
//!
//! Code comes from the tera templates in `templates/java` (`record.java.tera`, whose
//! recursive macros in `macros.tera` walk field types), fed by the checked [`Model`].
//!
//! ```
//! use hadoop_record_compiler::{backend::java, load_with, LoadOptions, MemoryFileSystem};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links { class Link { ustring URL; boolean isRelative; } }");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let files = java::generate(&model, &java::Options::default()).unwrap();
//! assert_eq!(files[0].path.to_str(), Some("links/Link.java"));
//! assert!(files[0].contents.contains("public class Link extends org.apache.hadoop.record.Record {"));
//! assert!(files[0].contents.contains("public boolean getIsRelative() {"));
//! ```

mod indent;
pub(crate) mod names;
mod types;

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::{locate, FieldApi, OutputFile, RecordApi};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{Model, Primitive, RecordIndex, Type};

/// Which Hadoop API the generated classes compile against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum JavaApi {
    /// Hadoop 2.x (`org.apache.hadoop:hadoop-common`, up to 2.10): the whole record package,
    /// with `meta` (type information and type filters) and the CSV and XML readers.
    #[default]
    Hadoop2,
    /// The remnant Hadoop 3 ships in `org.apache.hadoop:hadoop-streaming` (with
    /// `hadoop-common` 3 for `WritableComparable`): no `meta`, so no `getTypeInfo` or
    /// `setTypeFilter`; its runtime has no CSV or XML readers (and no XML writer).
    Hadoop3,
}

impl JavaApi {
    fn describe(self) -> &'static str {
        match self {
            JavaApi::Hadoop2 => "Hadoop 2.x, org.apache.hadoop:hadoop-common",
            JavaApi::Hadoop3 => "Hadoop 3, org.apache.hadoop:hadoop-streaming",
        }
    }
}

hadoop_record::__options! {
    /// How to generate Java.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Options {
        /// The Hadoop API to compile against (default Hadoop 2).
        api / with_api: copy JavaApi = JavaApi::default();
        /// Absolute DDL paths are shown relative to this directory in comments (so output
        /// does not depend on where the sources are checked out); absolute paths outside it
        /// are shown by file name only.
        source_root / with_source_root: ref Option<PathBuf> = None;
    }
}

const RECORD_TEMPLATE: &str = include_str!("../../../templates/java/record.java.tera");
const MACROS_TEMPLATE: &str = include_str!("../../../templates/java/macros.tera");

/// The Java class of every record of `model` (`a.b.Class`), in [`Model::records`] order.
///
/// ```
/// use hadoop_record_compiler::{backend::java, load_with, LoadOptions, MemoryFileSystem};
/// let mut fs = MemoryFileSystem::new();
/// fs.insert("x.jr", "module a.package { class Comparator { int x; } }");
/// let model = load_with(&fs, &["x.jr"], &LoadOptions::default()).unwrap();
/// assert_eq!(java::qualified_names(&model), ["a.package_.Comparator_"]);
/// ```
pub fn qualified_names(model: &Model) -> Vec<String> {
    names::assign(model)
        .iter()
        .map(names::RecordNames::qualified)
        .collect()
}

/// Record `r` as the class [`generate`] writes for it, from the names of every record.
pub(crate) fn record_api(names: &[names::RecordNames], model: &Model, r: RecordIndex) -> RecordApi {
    let record = &names[r.index()];
    super::record_api(model, r, record.qualified(), &record.fields, |ty, n| {
        FieldApi {
            member: n.member.clone(),
            ty: types::java(ty, names),
            accessors: vec![n.getter.clone(), n.setter.clone()],
        }
    })
}

/// One `.java` file per record of the files named (Hadoop's rcc writes none for included
/// files), at `<package as folders>/<Class>.java` relative to the output directory.
pub fn generate(model: &Model, options: &Options) -> Result<Vec<OutputFile>, Diagnostics> {
    let mut tera = tera::Tera::default();
    tera.add_raw_templates([
        ("macros.tera", MACROS_TEMPLATE),
        ("record.java", RECORD_TEMPLATE),
    ])
    .map_err(|e| template_error(model, &e))?;
    let names = names::assign(model);
    let schema = model.to_schema();
    let root = options.source_root().as_deref();
    let meta = options.api() == JavaApi::Hadoop2;
    let mut out = Vec::new();
    for (i, record) in model.records().iter().enumerate() {
        if !record.in_root_file() {
            continue;
        }
        let n = &names[i];
        let fields: Vec<Value> = record
            .fields()
            .iter()
            .zip(&n.fields)
            .map(|(field, f)| {
                json!({
                    "ddl": field.name(),
                    "doc": format!("{} {}", model.type_to_string(field.ty()), field.name()),
                    "member": f.member,
                    "getter": f.getter,
                    "setter": f.setter,
                    "ty": descriptor(field.ty(), &names),
                })
            })
            .collect();
        let context = json!({
            "package": n.package,
            "class": n.class,
            "ddl": record.qualified_name(),
            "ddl_name": record.name(),
            "source": locate(record.location(), root),
            "api_name": options.api().describe(),
            "meta": meta,
            "signature": schema.signature(record.qualified_name()).map(|s| s.to_string()),
            "fields": fields,
            "all_fields_constructor": constructor_fits(record.fields().iter().map(|f| f.ty())),
            "nested": nested_records(model, i, &names),
        });
        let context = tera::Context::from_value(context).map_err(|e| template_error(model, &e))?;
        let code = tera
            .render("record.java", &context)
            .map_err(|e| template_error(model, &e))?;
        let mut path: PathBuf = n.package.split('.').collect();
        path.push(format!("{}.java", n.class));
        out.push(OutputFile {
            path,
            contents: indent::reindent(&code),
        });
    }
    Ok(out)
}

/// Whether a constructor taking fields of these types fits the JVM's limit of 255 parameter
/// slots, `this` included (a `long` or `double` takes two). Hadoop's rcc writes the
/// all-fields constructor whatever the count, and javac refuses it past the limit ("too many
/// parameters"); such a record has only the no-argument constructor and the setters.
fn constructor_fits<'a>(types: impl Iterator<Item = &'a Type>) -> bool {
    let slots: usize = types
        .map(|ty| match ty {
            Type::Primitive(Primitive::Long | Primitive::Double) => 2,
            _ => 1,
        })
        .sum();
    slots < 255
}

/// The template's type tree ([`types::descriptor`]) plus `immutable`: whether a value can be
/// shared by a copy (primitives and strings).
fn descriptor(ty: &Type, names: &[names::RecordNames]) -> Value {
    let mut d = types::descriptor(ty, names);
    mark_immutable(&mut d, ty);
    d
}

fn mark_immutable(d: &mut Value, ty: &Type) {
    let immutable = matches!(ty, Type::Primitive(p) if *p != Primitive::Buffer);
    d["immutable"] = Value::Bool(immutable);
    match ty {
        Type::Vector(e) => mark_immutable(&mut d["elem"], e),
        Type::Map(k, v) => {
            mark_immutable(&mut d["key"], k);
            mark_immutable(&mut d["value"], v);
        }
        _ => {}
    }
}

/// The records `setTypeFilter` passes a nested filter to, as Hadoop's rcc finds them: every
/// record type in the fields (inside vectors and maps too), in order of first appearance,
/// each once, looked up in the filter by its simple DDL name.
fn nested_records(model: &Model, record: usize, names: &[names::RecordNames]) -> Vec<Value> {
    fn walk(ty: &Type, seen: &mut BTreeSet<usize>, order: &mut Vec<usize>) {
        match ty {
            Type::Primitive(_) => {}
            Type::Vector(e) => walk(e, seen, order),
            Type::Map(k, v) => {
                walk(k, seen, order);
                walk(v, seen, order);
            }
            Type::Record(r) => {
                if seen.insert(r.index()) {
                    order.push(r.index());
                }
            }
        }
    }
    let (mut seen, mut order) = (BTreeSet::new(), Vec::new());
    for field in model.records()[record].fields() {
        walk(field.ty(), &mut seen, &mut order);
    }
    order
        .into_iter()
        .map(|r| {
            json!({
                "class": names[r].qualified(),
                "ddl_name": model.records()[r].name(),
            })
        })
        .collect()
}

/// A template that fails to build or render is a bug of rcc, reported as a diagnostic.
fn template_error(model: &Model, e: &dyn std::error::Error) -> Diagnostics {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    Diagnostics::new(
        model.files().to_vec(),
        vec![Diagnostic::error(format!(
            "internal error in the Java templates: {message}"
        ))],
    )
}
