#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
//!
//! ## Inside
//!
//! The DDL front end is shared by the back ends, build scripts and the `rcc` subcommands.
//!
//! The data flow follows the module tree: [`syntax`] (grammar and syntax tree) → `load`
//! (files and includes, [`load`]/[`load_with`]) → `check` (names, types, containment) →
//! [`model`] (the checked [`Model`]) → [`backend`] (Rust, C++ and Java code and Avro
//! schemas; [`Config`] drives the Rust from a build script). Problems come back as
//! [`Diagnostics`], which render exactly as `rcc` prints them. [`query`] answers an
//! editor's questions (`rcc lsp`) from the same stages. Beside the back ends,
//! [`format`](mod@format) prints a syntax tree in the canonical layout with its comments
//! (`rcc fmt`), and [`describe`] gives the model as JSON (`rcc describe`). Files are
//! written whole through [`atomic_file`].
//!
//! ```no_run
//! // build.rs
//! use hadoop_record_compiler::{load, LoadOptions};
//!
//! let model = match load(&["schema/links.jr"], &LoadOptions::default()) {
//!     Ok(model) => model,
//!     Err(diagnostics) => panic!("{diagnostics}"),
//! };
//! for path in model.files_read() {
//!     println!("cargo:rerun-if-changed={}", path.display());
//! }
//! ```

pub mod atomic_file;
pub mod backend;
mod check;
pub mod config;
pub mod describe;
pub mod diagnostics;
pub mod format;
mod load;
pub mod model;
pub mod query;
pub mod source;
pub mod syntax;
#[cfg(test)]
mod test_support;

use std::path::Path;

pub use config::Config;
pub use diagnostics::{Diagnostic, Diagnostics, RenderOptions, Severity};
pub use load::{
    FileSystem, LoadOptions, MemoryFileSystem, ParseCache, RealFileSystem, MAX_FILE_SIZE,
};
pub use model::{
    Comment, CommentKind, Field, Model, ModelSchema, Module, Primitive, Record, RecordIndex, Type,
};
pub use source::{FileId, Location, SourceFile, Span};

/// Reads the DDL files `paths` and everything they include from disk, and checks them.
///
/// Includes are looked up next to the including file, then in each of
/// `options.include_dirs()`. On failure, every problem found is in the [`Diagnostics`]. What
/// Hadoop's own rcc would reject is in [`Model::warnings`] (or, with
/// `options.hadoop_compat()`, an error).
pub fn load<P: AsRef<Path>>(paths: &[P], options: &LoadOptions) -> Result<Model, Diagnostics> {
    load_with(&RealFileSystem, paths, options)
}

/// [`load`] from any [`FileSystem`], e.g. a [`MemoryFileSystem`].
pub fn load_with<P: AsRef<Path>>(
    fs: &dyn FileSystem,
    paths: &[P],
    options: &LoadOptions,
) -> Result<Model, Diagnostics> {
    let roots: Vec<&Path> = paths.iter().map(AsRef::as_ref).collect();
    check::check(load::load_files(fs, &roots, options, None), options)
}
