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

use crate::diagnostics::{Diagnostics, Severity};
use crate::load::Loaded;
use crate::model::{Model, Module};
use crate::LoadOptions;

/// Checks what [`crate::load::load_files`] read. The files that parsed are checked even
/// when others did not, but then unresolved names are not reported: they may be declared
/// in a file that could not be read.
pub(crate) fn check(loaded: Loaded, options: &LoadOptions) -> Result<Model, Diagnostics> {
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
        if options.hadoop_compat {
            diagnostics = compat::check(&input, Severity::Error);
        } else {
            warnings = compat::check(&input, Severity::Warning);
        }
    }
    if !diagnostics.is_empty() {
        // In reading order: by file, then position; problems without a place first.
        diagnostics.sort_by_key(|d| d.primary_label().map(|l| (l.file(), l.span().start)));
        return Err(Diagnostics::new(files, diagnostics));
    }
    let modules = decls
        .modules
        .into_iter()
        .map(|m| Module {
            name: m.name,
            records: m.records,
            location: m.location,
            comments: m.comments,
        })
        .collect();
    Ok(Model {
        files,
        modules,
        records,
        by_name: decls.by_name,
        warnings,
    })
}
