//! Questions an editor asks about DDL, answered from the same front end as `rcc check`:
//! an [`Analysis`] of some root files (the checked model, partial when there are errors,
//! with every file's syntax tree and every record reference), what is at an offset
//! ([`at`]), where a record is named ([`occurrences`]), whether a rename is safe
//! ([`rename`]), what may be typed at an offset ([`complete`]) and each file's outline
//! ([`outline`]).
//!
//! An analysis is a pure function of the files' texts: a language server feeds it the
//! documents being edited through a [`FileSystem`] overlay ([`OverlayFileSystem`]) and keeps
//! a [`ParseCache`], so that after a change only the changed file is parsed again.
//!
//! ```
//! use hadoop_record_compiler::query::{self, Occurrence};
//! use hadoop_record_compiler::{LoadOptions, MemoryFileSystem, ParseCache};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("a.jr", "module a { class P { int x; } class Q { P p; } }");
//! let analysis = query::analyze(&fs, &["a.jr"], &LoadOptions::default(), &mut ParseCache::new());
//! assert!(analysis.diagnostics().is_empty());
//! let file = analysis.file_id("a.jr".as_ref()).unwrap();
//! let offset = "module a { class P { int x; } class Q { P".len();
//! let Some(Occurrence::RecordReference { record, .. }) = query::at(&analysis, file, offset) else {
//!     panic!("a reference to P")
//! };
//! assert_eq!(analysis.model().record(record).qualified_name(), "a.P");
//! ```

mod at;
mod complete;
mod occurrences;
mod outline;
mod overlay;
pub mod rename;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::check;
use crate::diagnostics::Diagnostic;
use crate::load::{self, FileSystem, LoadOptions, ParseCache};
use crate::model::{Model, RecordIndex};
use crate::source::{FileId, Span};
use crate::syntax::ast;

pub use at::{at, Occurrence};
pub use complete::{complete, Completion, CompletionKind};
pub use occurrences::occurrences;
pub use outline::{outline, OutlineItem, OutlineKind};
pub use overlay::OverlayFileSystem;

/// A record named in a field's type, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordReference {
    /// The file it is written in.
    pub file: FileId,
    /// The name as written (`Link` or `links.Link`).
    pub span: Span,
    /// The record it names.
    pub target: RecordIndex,
}

/// What the front end makes of some root files and what they include, also when they are
/// broken: see [`analyze`].
#[derive(Debug, Clone)]
pub struct Analysis {
    model: Model,
    errors: Vec<Diagnostic>,
    trees: Vec<Option<Arc<ast::File>>>,
    /// Per file, where each of its includes led (in source order).
    includes: Vec<Vec<Option<FileId>>>,
    references: Vec<RecordReference>,
}

/// Loads and checks `roots` as `rcc check` does, keeping everything found also when there
/// are errors. Files whose text is unchanged since `cache` last saw them are not parsed
/// again.
pub fn analyze<P: AsRef<Path>>(
    fs: &dyn FileSystem,
    roots: &[P],
    options: &LoadOptions,
    cache: &mut ParseCache,
) -> Analysis {
    let roots: Vec<&Path> = roots.iter().map(AsRef::as_ref).collect();
    let loaded = load::load_files(fs, &roots, options, Some(cache));
    let checked = check::check_all(loaded, options);
    let files = checked.model.files().len();
    let mut trees = vec![None; files];
    let mut includes = vec![Vec::new(); files];
    for (file, tree) in &checked.parsed {
        let count = tree
            .items
            .iter()
            .filter(|i| matches!(i, ast::Item::Include(_)))
            .count();
        includes[file.index()] = (0..count)
            .map(|n| checked.includes.get(&(*file, n)).map(|t| t.file))
            .collect();
    }
    for (file, tree) in checked.parsed {
        trees[file.index()] = Some(tree);
    }
    let references = checked
        .references
        .iter()
        .flatten()
        .map(|r| RecordReference {
            file: r.file,
            span: r.span,
            target: r.target,
        })
        .collect();
    Analysis {
        model: checked.model,
        errors: checked.errors,
        trees,
        includes,
        references,
    }
}

impl Analysis {
    /// The model: complete when there are no errors, else what could be made of the files
    /// (see [`Analysis::has_errors`]).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// What `rcc check` reports: its errors, or when there are none, the warnings about
    /// what Hadoop's rcc rejects. In reading order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        if self.errors.is_empty() {
            &self.model.warnings
        } else {
            &self.errors
        }
    }

    /// Whether `rcc check` would fail. The model then lacks what the errors concern: a
    /// class declared twice is there once, a field whose type did not resolve is left out,
    /// and a file that did not parse adds nothing.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The syntax tree of `file`, if it parsed.
    pub fn tree(&self, file: FileId) -> Option<&ast::File> {
        self.trees.get(file.index())?.as_deref()
    }

    /// The file whose canonical path (or path as reached) is `path`.
    pub fn file_id(&self, path: &Path) -> Option<FileId> {
        let files = self.model.files();
        files
            .iter()
            .find(|f| f.canonical_path() == path)
            .or_else(|| files.iter().find(|f| f.path() == path))
            .map(|f| f.id())
    }

    /// Where the `n`th include of `file` (from 0) led, if it was found.
    pub fn include_target(&self, file: FileId, n: usize) -> Option<FileId> {
        *self.includes.get(file.index())?.get(n)?
    }

    /// Every resolved record reference, by record then in source order.
    pub fn references(&self) -> &[RecordReference] {
        &self.references
    }

    /// Whether the analysis read the file at canonical path `path` (as a root or through an
    /// include): a change to it changes this analysis.
    pub fn reads(&self, path: &Path) -> bool {
        self.model
            .files()
            .iter()
            .any(|f| f.canonical_path() == path)
    }

    /// The record of this analysis that `key` names.
    pub fn record_by_key(&self, key: &RecordKey) -> Option<RecordIndex> {
        let r = self.model.find(&key.qualified_name)?;
        let file = self.model.record(r).file();
        (self.model.file(file).canonical_path() == key.file).then_some(r)
    }

    /// What names record `r` across analyses.
    pub fn record_key(&self, r: RecordIndex) -> RecordKey {
        let record = self.model.record(r);
        RecordKey {
            file: self.model.file(record.file()).canonical_path().to_owned(),
            qualified_name: record.qualified_name().to_owned(),
        }
    }
}

/// A record as known across analyses of different roots: its declaring file and its
/// qualified name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RecordKey {
    /// The canonical path of the file that declares it.
    pub file: PathBuf,
    /// `module.Name`.
    pub qualified_name: String,
}
