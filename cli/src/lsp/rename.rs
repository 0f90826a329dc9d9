//! Rename of a record or a field across every DDL file of the workspace (a walk, on a
//! worker thread), through the compiler's checked rename (`query::rename`): refused with
//! its message when the new name would change the DDL. The edits name the version of each
//! open document they were computed on, when the client takes versioned edits.

use std::collections::BTreeMap;

use hadoop_record_compiler::query::rename::{self, RenameTarget};
use hadoop_record_compiler::query::{Analysis, Occurrence};
use hadoop_record_compiler::Span;
use lsp_server::{ErrorCode, ResponseError};
use lsp_types::{
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, TextEdit,
    Url, WorkspaceEdit,
};

use super::documents::Uris;
use super::jobs::{failure, Cancel};
use super::position::LineIndex;
use super::workspace::Workspace;

/// What `occurrence` renames, and the span of the name under the cursor; `None` for what
/// cannot be renamed here (an include, a module).
pub(crate) fn target(analysis: &Analysis, occurrence: &Occurrence) -> Option<(RenameTarget, Span)> {
    let model = analysis.model();
    match occurrence {
        Occurrence::RecordDeclaration { record, span } => {
            Some((RenameTarget::Record(analysis.record_key(*record)), *span))
        }
        Occurrence::RecordReference { record, span } => {
            // Only the simple name is replaced (the `Link` of `links.Link`).
            let len = model.record(*record).name().len();
            let name = Span::new(span.end.saturating_sub(len), span.end);
            Some((RenameTarget::Record(analysis.record_key(*record)), name))
        }
        Occurrence::Field {
            record,
            field,
            span,
        } => Some((
            RenameTarget::Field {
                record: analysis.record_key(*record),
                field: model.record(*record).fields()[*field].name().to_owned(),
            },
            *span,
        )),
        Occurrence::Include { .. } | Occurrence::Module { .. } => None,
    }
}

/// The edits that rename `target` to `new_name` in every known file, or why not. With
/// `versioned` (the client supports `documentChanges`), one `TextDocumentEdit` per file,
/// naming the version of the open document (`null` for a file that is not open); else
/// `changes`, by URI.
pub(crate) fn rename(
    workspace: &Workspace,
    target: &RenameTarget,
    new_name: &str,
    versioned: bool,
    cancel: &Cancel,
) -> Result<WorkspaceEdit, ResponseError> {
    let roots = workspace.known_files(cancel)?;
    let edits = rename::rename(
        &workspace.fs,
        &roots,
        &workspace.options,
        &mut workspace.cache(),
        target,
        new_name,
    )
    .map_err(|e| failure(ErrorCode::RequestFailed, e.to_string()))?;
    cancel.check()?;
    // By URI, so that the edits come in the same order every time.
    let mut files: BTreeMap<Url, (Option<i32>, Vec<TextEdit>)> = BTreeMap::new();
    for (path, spans) in edits {
        let (Some(uri), Some(text)) = (workspace.uri(&path), workspace.text(&path)) else {
            return Err(failure(
                ErrorCode::RequestFailed,
                format!("cannot read `{}`", path.display()),
            ));
        };
        let index = LineIndex::new(&text);
        let edits = spans
            .into_iter()
            .map(|span| TextEdit::new(index.range(span), new_name.to_owned()))
            .collect();
        files.insert(uri, (workspace.version(&path), edits));
    }
    if !versioned {
        let changes = files
            .into_iter()
            .map(|(uri, (_, edits))| (uri, edits))
            .collect();
        return Ok(WorkspaceEdit::new(changes));
    }
    let edits = files
        .into_iter()
        .map(|(uri, (version, edits))| TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        })
        .collect();
    Ok(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Edits(edits)),
        ..WorkspaceEdit::default()
    })
}
