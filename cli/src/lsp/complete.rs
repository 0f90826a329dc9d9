//! Completion: the compiler's candidates (`query::complete`) as LSP items replacing the
//! word being typed.

use hadoop_record_compiler::query::{self, CompletionKind};
use lsp_types::{CompletionItem, CompletionItemKind, CompletionTextEdit, Position, TextEdit};

use super::documents::Document;
use super::position::LineIndex;

/// The candidates at `position` of `document`, whose text is `text`.
pub(crate) fn complete(document: &Document, text: &str, position: Position) -> Vec<CompletionItem> {
    let index = LineIndex::new(text);
    let offset = index.offset(position);
    // Records come from the last analysis in which the document parsed: while a line is
    // half-typed, the document does not parse and its includes are not read.
    let model = document
        .last_parsed
        .as_ref()
        .unwrap_or(&document.analysis)
        .model();
    let Some((span, items)) = query::complete(text, offset, Some(model)) else {
        return Vec::new();
    };
    let range = index.range(span);
    items
        .into_iter()
        .map(|item| CompletionItem {
            kind: Some(match item.kind {
                CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                CompletionKind::Primitive => CompletionItemKind::TYPE_PARAMETER,
                CompletionKind::Container => CompletionItemKind::KEYWORD,
                CompletionKind::Record => CompletionItemKind::CLASS,
            }),
            detail: item.detail,
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                item.label.clone(),
            ))),
            label: item.label,
            ..Default::default()
        })
        .collect()
}
