//! The Rust back end: turns a checked [`Model`] into plain structs carrying
//! `#[derive(hadoop_record::Record)]` and its attributes. The derive owns all encoding, so
//! generated and hand-written records cannot drift apart.
//!
//! `module a.b` becomes `pub mod a { pub mod b { … } }`; references between modules are
//! relative (`super::…`), so the tree works wherever it is mounted. Two layouts:
//! [`generate_file`] gives one self-contained file for
//! `mod generated { include!("…"); }`, [`generate_tree`] a `mod.rs` plus one file per
//! module with records.
//!
//! ```
//! use hadoop_record_compiler::{backend::rust, load_with, LoadOptions, MemoryFileSystem};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links { class Link { ustring URL; boolean isRelative; } }");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let code = rust::generate_file(&model, &rust::Options::default()).unwrap();
//! assert!(code.starts_with("// @generated"));
//! assert!(code.contains("pub mod links {"));
//! assert!(code.contains("#[record(name = \"isRelative\")]\n        pub is_relative: bool,"));
//! ```
//!
//! Layout: `names` converts names and tells colliding ones apart, `layout` builds the
//! module tree and names everything in it, `types` maps types (and decides which records can be `Ord`), `emit`
//! writes the tokens and formats them.

mod ast;
mod emit;
mod layout;
mod names;
mod types;

use std::path::{Path, PathBuf};

use super::{locate, record_api, show_path, FieldApi, OutputFile, RecordApi};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::{Model, RecordIndex};
use emit::{format_file, Emitter, Mode};
use layout::Layout;
use types::Ordered;

/// The runtime crate's path unless [`Options::runtime_crate`] says otherwise.
pub const DEFAULT_RUNTIME_CRATE: &str = "::hadoop_record";

hadoop_record::__options! {
    /// How to generate Rust. [`crate::Config`] sets these from a build script.
    ///
    /// ```
    /// use hadoop_record_compiler::backend::rust::Options;
    /// let options = Options::default()
    ///     .with_type_attribute(".links", "#[derive(serde::Serialize)]")
    ///     .with_minimal_derives(true);
    /// assert_eq!(options.type_attributes().len(), 1);
    /// ```
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Options {
        /// Path of the `hadoop-record` crate in the generated code, when the runtime is
        /// re-exported elsewhere; `None` (the default): [`DEFAULT_RUNTIME_CRATE`].
        runtime_crate / with_runtime_crate: ref Option<String> = None;
        /// Absolute DDL paths are shown relative to this directory in doc comments and
        /// headers (so output does not depend on where the sources are checked out);
        /// absolute paths outside it are shown by file name only. Relative paths are shown
        /// as given.
        source_root / with_source_root: ref Option<PathBuf> = None;
        /// `(path, attribute)`: attributes added to matching records (see
        /// [`Options::with_type_attribute`]).
        type_attributes / with_type_attributes: ref Vec<(String, String)> = Vec::new();
        /// `(path, attribute)`: attributes added to matching fields (see
        /// [`Options::with_field_attribute`]).
        field_attributes / with_field_attributes: ref Vec<(String, String)> = Vec::new();
        /// Jute's nulls: every `ustring`, `buffer` and `vector`, at any depth (vector
        /// elements and map values too), becomes an `Option` (`Option<String>`,
        /// `Option<Vec<u8>>`, `Option<Vec<T>>`), whose `None` is Java's `null` — a length of
        /// −1 in jute ([`hadoop_record::archive::jute`]). Map keys and records stay as they
        /// are: Java cannot write a null key or record. For ZooKeeper's `zookeeper.jute`.
        nullable / with_nullable: copy bool = false;
        /// Derive only `Debug`, `Clone` and `PartialEq` (and `Record`), leaving every other
        /// trait to [`Options::with_type_attribute`]; see
        /// [`crate::Config::minimal_derives`].
        minimal_derives / with_minimal_derives: copy bool = false;
    }
}

impl Options {
    /// Adds `attribute` to the records `path` selects, e.g.
    /// `(".links.Link", "#[derive(serde::Serialize)]")`. See [`path_matches`].
    #[must_use]
    pub fn with_type_attribute(
        mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.type_attributes.push((path.into(), attribute.into()));
        self
    }

    /// Adds `attribute` to the fields `path` selects (`links.Link.URL`).
    #[must_use]
    pub fn with_field_attribute(
        mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.field_attributes.push((path.into(), attribute.into()));
        self
    }
}

/// Whether a `type_attribute`/`field_attribute` path selects the DDL name `name`
/// (`module.Record` or `module.Record.field`), as prost-build matches paths: `.` selects
/// everything; a path starting with `.` is a prefix of whole segments (`.links` selects
/// every record of module `links` and below); any other path is a suffix of whole segments
/// (`Link` selects every record named `Link`, `Link.URL` that field of each).
///
/// ```
/// use hadoop_record_compiler::backend::rust::path_matches;
/// assert!(path_matches(".", "links.Link"));
/// assert!(path_matches(".links", "links.Link.URL"));
/// assert!(path_matches("Link.URL", "links.Link.URL"));
/// assert!(!path_matches("ink", "links.Link"));
/// assert!(!path_matches(".link", "links.Link"));
/// ```
pub fn path_matches(path: &str, name: &str) -> bool {
    if path == "." {
        return true;
    }
    match path.strip_prefix('.') {
        Some(prefix) => {
            name == prefix
                || name
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.'))
        }
        None => {
            name == path
                || name
                    .strip_suffix(path)
                    .is_some_and(|rest| rest.ends_with('.'))
        }
    }
}

/// User attributes, parsed.
#[derive(Default)]
pub(crate) struct Attributes {
    types: Vec<(String, Vec<syn::Attribute>)>,
    fields: Vec<(String, Vec<syn::Attribute>)>,
}

impl Attributes {
    fn parse(options: &Options) -> Result<Self, Vec<Diagnostic>> {
        let mut problems = Vec::new();
        let mut parse = |list: &[(String, String)], what: &str| {
            list.iter()
                .filter_map(|(path, text)| {
                    match syn::parse::Parser::parse_str(syn::Attribute::parse_outer, text) {
                        Ok(attrs) => Some((path.clone(), attrs)),
                        Err(e) => {
                            problems.push(
                                Diagnostic::error(format!(
                                    "the {what} attribute for `{path}` is not Rust attribute syntax: {e}"
                                ))
                                .note(format!("it is `{text}`"))
                                .help("write whole outer attributes, e.g. `#[derive(Hash)]`"),
                            );
                            None
                        }
                    }
                })
                .collect()
        };
        let types = parse(options.type_attributes(), "type");
        let fields = parse(options.field_attributes(), "field");
        if problems.is_empty() {
            Ok(Attributes { types, fields })
        } else {
            Err(problems)
        }
    }

    fn for_type<'a>(&'a self, record: &'a str) -> impl Iterator<Item = &'a syn::Attribute> {
        self.types
            .iter()
            .filter(move |(path, _)| path_matches(path, record))
            .flat_map(|(_, attrs)| attrs)
    }

    fn for_field<'a>(
        &'a self,
        record: &'a str,
        field: &'a str,
    ) -> impl Iterator<Item = &'a syn::Attribute> {
        let name = format!("{record}.{field}");
        self.fields
            .iter()
            .filter(move |(path, _)| path_matches(path, &name))
            .flat_map(|(_, attrs)| attrs)
    }
}

/// One self-contained Rust file holding every module of `model` (included files too), to
/// be used as `mod generated { include!("records.rs"); }`. It has no inner attributes.
///
/// Fails only when an option does not parse (an attribute, the runtime crate's path): DDL
/// names that would collide in Rust get fallbacks (`docs/naming.md`).
pub fn generate_file(model: &Model, options: &Options) -> Result<String, Diagnostics> {
    let generator = Generator::new(model, options)?;
    let mut files = Vec::new();
    let items = generator
        .emitter()
        .module_items(Layout::ROOT, Mode::OneFile, &mut files);
    Ok(format_file(&generator.header(), items))
}

/// A `mod.rs` and one file per module with records (`a/b.rs` for module `a.b`), with paths
/// relative to the directory they go into. (A module named `mod` is written inline in its
/// parent's file: a file `mod.rs` would mean something else to rustc.) Mount the tree with `mod generated;` (a
/// `generated/mod.rs`) or `#[path = "…/mod.rs"] mod generated;`.
pub fn generate_tree(model: &Model, options: &Options) -> Result<Vec<OutputFile>, Diagnostics> {
    let generator = Generator::new(model, options)?;
    let emitter = generator.emitter();
    let header = generator.header();
    let mut files = Vec::new();
    let root = emitter.module_items(Layout::ROOT, Mode::FilePerModule, &mut files);
    let mut out = vec![OutputFile {
        path: PathBuf::from("mod.rs"),
        contents: format_file(&header, root),
    }];
    for (node, items) in files {
        let segments = generator.layout.segments(node);
        let mut path: PathBuf = segments.iter().map(|s| s.plain()).collect();
        path.set_extension("rs");
        out.push(OutputFile {
            path,
            contents: format_file(&header, items),
        });
    }
    Ok(out)
}

/// How the code [`generate_file`] writes with default [`Options`] names records and
/// fields, and spells field types: see [`super::Api`].
#[derive(Debug)]
pub(crate) struct Api {
    layout: Layout,
    ordered: Ordered,
}

impl Api {
    /// Names every record and field of `model`.
    pub fn new(model: &Model) -> Self {
        Api {
            layout: Layout::new(model),
            ordered: Ordered::new(model, false),
        }
    }

    /// Record `r` of `model` (the model given to [`Api::new`]): its path, relative to
    /// where the tree is mounted, and its fields as the struct declares them.
    pub fn record(&self, model: &Model, r: RecordIndex) -> RecordApi {
        let attributes = Attributes::default();
        let emitter = Emitter {
            model,
            layout: &self.layout,
            ordered: &self.ordered,
            attributes: &attributes,
            runtime: syn::parse_str(DEFAULT_RUNTIME_CRATE).expect("a Rust path"),
            runtime_attr: None,
            source_root: None,
            nullable: false,
            minimal_derives: false,
        };
        let names = self.layout.record(r);
        let types = emitter.type_writer(names.node);
        let mut path: Vec<String> = self
            .layout
            .segments(names.node)
            .iter()
            .map(|s| s.source())
            .collect();
        path.push(names.name.source());
        record_api(model, r, path.join("::"), &names.fields, |ty, name| {
            FieldApi {
                member: name.source(),
                ty: type_text(&types.rust(ty)),
                accessors: Vec::new(),
            }
        })
    }
}

/// `ty` as rustfmt would write it.
fn type_text(ty: &syn::Type) -> String {
    let file: syn::File = syn::parse_quote!(type T = #ty;);
    let text = prettyplease::unparse(&file);
    text.trim()
        .trim_start_matches("type T = ")
        .trim_end_matches(';')
        .to_owned()
}

/// What both layouts need.
struct Generator<'a> {
    model: &'a Model,
    options: &'a Options,
    layout: Layout,
    ordered: Ordered,
    attributes: Attributes,
    runtime: syn::Path,
}

impl<'a> Generator<'a> {
    fn new(model: &'a Model, options: &'a Options) -> Result<Self, Diagnostics> {
        let fail = |problems| Diagnostics::new(model.files.clone(), problems);
        let mut problems = Vec::new();
        let runtime_text = options
            .runtime_crate()
            .as_deref()
            .unwrap_or(DEFAULT_RUNTIME_CRATE);
        let runtime = match syn::parse_str::<syn::Path>(runtime_text) {
            Ok(path) => path,
            Err(e) => {
                problems.push(Diagnostic::error(format!(
                    "the runtime crate path `{runtime_text}` is not a Rust path: {e}"
                )));
                syn::Path::from(ast::ident("hadoop_record"))
            }
        };
        let attributes = Attributes::parse(options).unwrap_or_else(|mut p| {
            problems.append(&mut p);
            Attributes::default()
        });
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        Ok(Generator {
            model,
            options,
            ordered: Ordered::new(model, options.minimal_derives()),
            layout: Layout::new(model),
            attributes,
            runtime,
        })
    }

    fn emitter(&self) -> Emitter<'_> {
        let runtime_attr = self
            .options
            .runtime_crate()
            .clone()
            .filter(|c| c != DEFAULT_RUNTIME_CRATE);
        Emitter {
            model: self.model,
            layout: &self.layout,
            ordered: &self.ordered,
            attributes: &self.attributes,
            runtime: self.runtime.clone(),
            runtime_attr,
            source_root: self.options.source_root().as_deref(),
            nullable: self.options.nullable(),
            minimal_derives: self.options.minimal_derives(),
        }
    }

    fn show_path(&self, path: &Path) -> String {
        show_path(path, self.options.source_root().as_deref())
    }

    /// The `@generated` comment at the top of every file.
    fn header(&self) -> String {
        let roots: Vec<String> = self
            .model
            .files()
            .iter()
            .filter(|f| f.is_root())
            .map(|f| format!("`{}`", self.show_path(f.path())))
            .collect();
        format!(
            "{}, the Hadoop Record I/O compiler, from {}.\n// Do not edit: changes are lost when the code is generated again.\n",
            super::GENERATED_MARK,
            roots.join(", ")
        )
    }
}
