//! Rename of a record or a field across every DDL file of the workspace, through the
//! compiler's checked rename (`query::rename`): refused with its message when the new name
//! would change the DDL.

use std::collections::HashMap;

use hadoop_record_compiler::query::rename::{self, RenameTarget};
use hadoop_record_compiler::query::{Analysis, Occurrence};
use hadoop_record_compiler::Span;
use lsp_types::{TextEdit, Url, WorkspaceEdit};

use super::documents::World;
use super::position::LineIndex;

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

/// The edits that rename `target` to `new_name` in every known file, or why not.
pub(crate) fn rename(
    world: &mut World,
    target: &RenameTarget,
    new_name: &str,
) -> Result<WorkspaceEdit, String> {
    let roots = world.known_files();
    let edits = rename::rename(
        &world.fs,
        &roots,
        &world.options,
        &mut world.cache,
        target,
        new_name,
    )
    .map_err(|e| e.to_string())?;
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for (path, spans) in edits {
        let (Some(uri), Some(text)) = (world.uri(&path), world.text(&path)) else {
            return Err(format!("cannot read `{}`", path.display()));
        };
        let index = LineIndex::new(&text);
        changes.insert(
            uri,
            spans
                .into_iter()
                .map(|span| TextEdit::new(index.range(span), new_name.to_owned()))
                .collect(),
        );
    }
    Ok(WorkspaceEdit::new(changes))
}
