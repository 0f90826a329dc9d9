//! Renaming a record or a field across every file that names it, refused when the new name
//! would change the meaning of the DDL.
//!
//! A new name is refused when it is not a DDL name, when it is a DDL keyword, when the
//! module already has a record of that name (or the record a field of that name), and
//! when, with the edits made, any file would get a new error or any record name would
//! name a different record (a simple name that found a record of another module and would
//! now find the renamed one, or become ambiguous). Keywords of Rust, C++ and Java are not
//! refused: every back end escapes each of them (`r#type`, `delete_`, `package_`, see
//! `docs/naming.md`), so the code generated after the rename compiles.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::{analyze, occurrences, Analysis, RecordKey};
use crate::load::{FileSystem, LoadOptions, ParseCache};
use crate::source::Span;
use crate::syntax::ast::is_keyword;

/// What to rename.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RenameTarget {
    /// A record: its declaration and every reference.
    Record(RecordKey),
    /// A field of a record (DDL names fields nowhere else).
    Field {
        /// The record.
        record: RecordKey,
        /// The field's name.
        field: String,
    },
}

/// Why a rename is refused: a sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenameError(pub String);

impl fmt::Display for RenameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenameError {}

/// The spans to replace with the new name, per file (by canonical path).
pub type RenameEdits = BTreeMap<PathBuf, BTreeSet<Span>>;

/// Whether `name` can name a record or field, and why not.
pub fn check_name(name: &str) -> Result<(), RenameError> {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(RenameError(format!(
            "`{name}` is not a DDL name: a name is a letter, then letters, digits and `_`"
        )));
    }
    if is_keyword(name) {
        return Err(RenameError(format!(
            "`{name}` is a keyword of the DDL and cannot name a record or field"
        )));
    }
    Ok(())
}

/// Renames `target` to `new_name` in every file that the analyses of `roots` read: the
/// edits, once checked (see the module's documentation).
pub fn rename<P: AsRef<Path>>(
    fs: &dyn FileSystem,
    roots: &[P],
    options: &LoadOptions,
    cache: &mut ParseCache,
    target: &RenameTarget,
    new_name: &str,
) -> Result<RenameEdits, RenameError> {
    check_name(new_name)?;
    let analyses: Vec<Analysis> = roots
        .iter()
        .map(|root| analyze(fs, std::slice::from_ref(root), options, cache))
        .collect();
    let mut edits = RenameEdits::new();
    for analysis in &analyses {
        collect_edits(analysis, target, new_name, &mut edits)?;
    }
    if edits.is_empty() {
        return Err(RenameError("nothing to rename here".into()));
    }
    let edited = Edited::new(fs, &edits, new_name).map_err(|e| RenameError(e.to_string()))?;
    let mut scratch = ParseCache::new();
    for (root, before) in roots.iter().zip(&analyses) {
        let after = analyze(&edited, std::slice::from_ref(root), options, &mut scratch);
        same_meaning(before, &after, target, new_name)?;
    }
    Ok(edits)
}

/// Adds the spans `analysis` has for `target` to `edits`, unless the new name is taken.
fn collect_edits(
    analysis: &Analysis,
    target: &RenameTarget,
    new_name: &str,
    edits: &mut RenameEdits,
) -> Result<(), RenameError> {
    let model = analysis.model();
    let path = |file: crate::FileId| model.file(file).canonical_path().to_owned();
    match target {
        RenameTarget::Record(key) => {
            let Some(r) = analysis.record_by_key(key) else {
                return Ok(());
            };
            let record = model.record(r);
            if record.name() == new_name {
                return Ok(());
            }
            if let Some(other) = model.get(&format!("{}.{new_name}", record.module())) {
                return Err(RenameError(format!(
                    "module `{}` already has a record `{new_name}`, at {}",
                    record.module(),
                    other.location()
                )));
            }
            for (file, span) in occurrences(analysis, r) {
                edits.entry(path(file)).or_default().insert(span);
            }
        }
        RenameTarget::Field { record, field } => {
            let Some(r) = analysis.record_by_key(record) else {
                return Ok(());
            };
            let record = model.record(r);
            let Some(f) = record.fields().iter().find(|f| f.name() == field) else {
                return Ok(());
            };
            if field == new_name {
                return Ok(());
            }
            if let Some(other) = record.fields().iter().find(|f| f.name() == new_name) {
                return Err(RenameError(format!(
                    "record `{}` already has a field `{new_name}`, at {}",
                    record.qualified_name(),
                    other.location()
                )));
            }
            let at = f.location();
            edits.entry(path(at.file)).or_default().insert(at.span);
        }
    }
    Ok(())
}

/// Checks that `after` (with the rename made) has no error `before` lacks, and that every
/// record reference names the same record, renamed.
fn same_meaning(
    before: &Analysis,
    after: &Analysis,
    target: &RenameTarget,
    new_name: &str,
) -> Result<(), RenameError> {
    if after.has_errors() && after.diagnostics().len() > before.errors.len() {
        let known: Vec<&str> = before.errors.iter().map(|d| d.message()).collect();
        let new = after
            .diagnostics()
            .iter()
            .find(|d| !known.contains(&d.message()))
            .or_else(|| after.diagnostics().first())
            .expect("an analysis with errors has diagnostics");
        let place = new
            .primary_label()
            .map(|l| format!(" at {}", after.model().file(l.file()).location(l.span())))
            .unwrap_or_default();
        return Err(RenameError(format!(
            "renaming to `{new_name}` would make an error{place}: {}",
            new.message()
        )));
    }
    let renamed = |name: &str| -> String {
        match target {
            RenameTarget::Record(key) if key.qualified_name == name => {
                let module = name.rsplit_once('.').map_or("", |(m, _)| m);
                format!("{module}.{new_name}")
            }
            _ => name.to_owned(),
        }
    };
    let (old, new) = (before.references(), after.references());
    for (a, b) in old.iter().zip(new) {
        let was = renamed(before.model().record(a.target).qualified_name());
        let now = after.model().record(b.target).qualified_name();
        if was != now {
            return Err(RenameError(format!(
                "renaming to `{new_name}` would make the name at {} mean `{now}` instead of `{was}`",
                before.model().file(a.file).location(a.span),
            )));
        }
    }
    if old.len() != new.len() {
        return Err(RenameError(format!(
            "renaming to `{new_name}` would change which records the files name"
        )));
    }
    Ok(())
}

/// `base` with the edits of a rename made.
struct Edited<'a> {
    base: &'a dyn FileSystem,
    texts: HashMap<PathBuf, Vec<u8>>,
}

impl<'a> Edited<'a> {
    fn new(base: &'a dyn FileSystem, edits: &RenameEdits, new_name: &str) -> io::Result<Self> {
        let mut texts = HashMap::new();
        for (path, spans) in edits {
            let mut text = base.read(path)?;
            for span in spans.iter().rev() {
                text.splice(span.range(), new_name.bytes());
            }
            texts.insert(path.clone(), text);
        }
        Ok(Edited { base, texts })
    }
}

impl FileSystem for Edited<'_> {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.texts.get(path) {
            Some(text) => Ok(text.clone()),
            None => self.base.read(path),
        }
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.base.canonicalize(path)
    }
}
