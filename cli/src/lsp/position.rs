//! Byte offsets and LSP positions. LSP counts lines split at `\n`, `\r\n` or `\r`, and
//! characters in UTF-16 code units (the protocol's default encoding, which every client
//! supports); the compiler counts bytes.

use hadoop_record_compiler::Span;
use lsp_types::{Position, Range};

/// The line starts of a text, to convert between offsets and positions.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { text, starts }
    }

    /// The position of byte `offset` (clamped to the text, and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(saturate(line), saturate(character))
    }

    /// The range of `span`.
    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of `position`: a position past the end of its line means the end of
    /// the line, one past the last line the end of the text (as LSP asks).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_every_line_break() {
        // `é` is one UTF-16 unit (two bytes); `𝄞` two units (four bytes).
        let text = "aé𝄞b\r\nx\ry\nz";
        let index = LineIndex::new(text);
        assert_eq!(index.position(0), Position::new(0, 0));
        assert_eq!(index.position(3), Position::new(0, 2));
        assert_eq!(index.position(7), Position::new(0, 4));
        assert_eq!(index.position(10), Position::new(1, 0));
        assert_eq!(index.position(12), Position::new(2, 0));
        assert_eq!(index.position(14), Position::new(3, 0));
        assert_eq!(index.position(99), Position::new(3, 1));
        // Inside a character: its start.
        assert_eq!(index.position(2), Position::new(0, 1));
        for offset in [0, 1, 3, 7, 8, 10, 12, 14, 15] {
            assert_eq!(index.offset(index.position(offset)), offset, "{offset}");
        }
        // Past a line's end, past the last line.
        assert_eq!(index.offset(Position::new(1, 40)), 11);
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
    }
}
