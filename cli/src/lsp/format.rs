//! Formatting: exactly `rcc fmt`'s output, as one edit replacing the document.

use lsp_types::{Position, Range, TextEdit};

use super::position::LineIndex;

/// The canonical layout of `text`, or `None` when it does not parse (a file that does not
/// parse is left untouched, as `rcc fmt` leaves it).
// Wired to the formatter when toolchain-fmt lands: call its `format` function here (the one
// `rcc fmt` prints the output of) and return its result, `None` on a syntax error. Then
// `AVAILABLE` becomes true, which advertises the capability.
fn format(_text: &str) -> Option<String> {
    None
}

/// Whether the server formats documents (advertised in its capabilities).
pub(crate) const AVAILABLE: bool = false;

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
