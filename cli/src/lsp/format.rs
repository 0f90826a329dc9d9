//! Formatting: exactly `rcc fmt`'s output, as one edit replacing the document.

use lsp_types::{Position, Range, TextEdit};

use super::position::LineIndex;

/// The canonical layout of `text` (what `rcc fmt` writes), or `None` when it does not parse
/// (a file that does not parse is left untouched, as `rcc fmt` leaves it).
fn format(text: &str) -> Option<String> {
    hadoop_record_compiler::format::format_source(text).ok()
}

/// Whether the server formats documents (advertised in its capabilities).
pub(crate) const AVAILABLE: bool = true;

/// The edits that format `text`: none when it is formatted already or does not parse.
pub(crate) fn formatting(text: &str) -> Vec<TextEdit> {
    match format(text) {
        Some(formatted) if formatted != text => {
            let index = LineIndex::new(text);
            let end = index.position(text.len());
            vec![TextEdit::new(
                Range::new(Position::new(0, 0), end),
                formatted,
            )]
        }
        _ => Vec::new(),
    }
}
