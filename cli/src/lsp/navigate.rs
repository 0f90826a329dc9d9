//! Go to definition (a record name to its declaration, an include to the file) and find
//! references (every place that names a record, in every DDL file of the workspace: a
//! walk, on a worker thread).

use std::collections::BTreeSet;
use std::path::PathBuf;

use hadoop_record_compiler::query::{self, Analysis, Occurrence, RecordKey};
use hadoop_record_compiler::{FileId, Span};
use lsp_server::ResponseError;
use lsp_types::{Location, Position, Range};

use super::documents::Uris;
use super::jobs::Cancel;
use super::position::LineIndex;
use super::workspace::Workspace;

/// Where `occurrence` is declared.
pub(crate) fn definition(
    world: &impl Uris,
    analysis: &Analysis,
    occurrence: &Occurrence,
) -> Option<Location> {
    let model = analysis.model();
    match occurrence {
        Occurrence::RecordDeclaration { record, .. }
        | Occurrence::RecordReference { record, .. } => {
            let at = model.record(*record).location();
            location(world, analysis, at.file, at.span)
        }
        Occurrence::Field { record, field, .. } => {
            let at = model.record(*record).fields()[*field].location();
            location(world, analysis, at.file, at.span)
        }
        Occurrence::Include { target, .. } => {
            let file = model.file((*target)?);
            let start = Position::new(0, 0);
            Some(Location::new(
                world.uri(file.canonical_path())?,
                Range::new(start, start),
            ))
        }
        Occurrence::Module { name, .. } => {
            let at = model.module(name)?.location();
            location(world, analysis, at.file, at.span)
        }
    }
}

/// The LSP location of `span` in `file` of `analysis`.
pub(crate) fn location(
    world: &impl Uris,
    analysis: &Analysis,
    file: FileId,
    span: Span,
) -> Option<Location> {
    let source = analysis.model().file(file);
    let range = LineIndex::new(source.text()).range(span);
    Some(Location::new(world.uri(source.canonical_path())?, range))
}

/// Every place that names the record `key`, in every known file; with its declaration
/// when `declaration` is set.
pub(crate) fn references(
    workspace: &Workspace,
    key: &RecordKey,
    declaration: bool,
    cancel: &Cancel,
) -> Result<Vec<Location>, ResponseError> {
    let mut seen: BTreeSet<(PathBuf, Span)> = BTreeSet::new();
    let mut out = Vec::new();
    for analysis in workspace.analyses(cancel)? {
        let Some(r) = analysis.record_by_key(key) else {
            continue;
        };
        let declared = analysis.model().record(r).location().span;
        for (i, (file, span)) in query::occurrences(&analysis, r).into_iter().enumerate() {
            if i == 0 && !declaration {
                debug_assert_eq!(span, declared);
                continue;
            }
            let path = analysis.model().file(file).canonical_path().to_owned();
            if seen.insert((path, span)) {
                out.extend(location(workspace, &analysis, file, span));
            }
        }
    }
    Ok(out)
}
