//! Semantic checks, from syntax trees to the checked [`Model`]. Every check runs and every
//! problem is reported in one go:
//!
//! 1. [`declare`]: the records of every module; duplicate classes and fields, keywords used
//!    as names, empty classes and modules.
//! 2. [`resolve`]: field types, with "did you mean" for unknown names and a list of the
//!    candidates for an ambiguous one.
//! 3. [`containment`]: records that contain themselves other than through a vector or map.
//! 4. [`compat`], when all is well: what Hadoop's own rcc would reject, as warnings (or
//!    errors, with [`LoadOptions::hadoop_compat`]).

mod compat;
mod containment;
mod declare;
mod resolve;
mod suggest;

use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::load::{IncludeTarget, Loaded};
use crate::model::{Model, Module};
use crate::source::FileId;
use crate::syntax::ast;
use crate::LoadOptions;
pub(crate) use resolve::Reference;

/// What the checks make of a load, also when they find errors (for tools that work on
/// broken input, such as a language server).
pub(crate) struct Checked {
    /// The model. When there are `errors` it is partial: a class declared twice is there
    /// once, fields whose type did not resolve are left out, files that did not parse add
    /// nothing, and it has no warnings.
    pub model: Model,
    /// The errors, in reading order.
    pub errors: Vec<Diagnostic>,
    /// The syntax trees of the files that parsed, each after the files it includes.
    pub parsed: Vec<(FileId, Arc<ast::File>)>,
    /// `(file, n)` → where the `n`th include of `file` led.
    pub includes: HashMap<(FileId, usize), IncludeTarget>,
    /// For each record of the model, the records its fields name, in source order.
    pub references: Vec<Vec<Reference>>,
}

/// Checks what [`crate::load::load_files`] read. The files that parsed are checked even
/// when others did not, but then unresolved names are not reported: they may be declared
/// in a file that could not be read.
pub(crate) fn check(loaded: Loaded, options: &LoadOptions) -> Result<Model, Diagnostics> {
    let checked = check_all(loaded, options);
    if checked.errors.is_empty() {
        Ok(checked.model)
    } else {
        Err(Diagnostics::new(checked.model.files, checked.errors))
    }
}

/// [`check`], keeping everything found on the way.
pub(crate) fn check_all(loaded: Loaded, options: &LoadOptions) -> Checked {
    let Loaded {
        files,
        parsed,
        includes,
        mut diagnostics,
    } = loaded;
    let complete = diagnostics.is_empty();
    let decls = declare::declare(&files, &parsed, &mut diagnostics);
    let (records, references) = resolve::resolve(&files, &decls, complete, &mut diagnostics);
    containment::check(&records, &mut diagnostics);
    let mut warnings = Vec::new();
    if diagnostics.is_empty() {
        let input = compat::Input {
            files: &files,
            parsed: &parsed,
            includes: &includes,
            decls: &decls,
            records: &records,
            references: &references,
        };
        if options.hadoop_compat() {
            diagnostics = compat::check(&input, Severity::Error);
        } else {
            warnings = compat::check(&input, Severity::Warning);
        }
    }
    // In reading order: by file, then position; problems without a place first.
    diagnostics.sort_by_key(|d| d.primary_label().map(|l| (l.file(), l.span().start)));
    let declare::Decls {
        modules, by_name, ..
    } = decls;
    let modules = modules
        .into_iter()
        .map(|m| Module {
            name: m.name,
            records: m.records,
            location: m.location,
            comments: m.comments,
        })
        .collect();
    Checked {
        model: Model {
            files,
            modules,
            records,
            by_name,
            warnings,
        },
        errors: diagnostics,
        parsed,
        includes,
        references,
    }
}
