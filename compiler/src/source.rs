//! Source files as read, and positions in them: [`Span`] (byte range), [`FileId`], and
//! [`Location`] (path, line, column and span) for the checked model and diagnostics.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A byte range `start..end` in one source file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The span as a `Range`, for slicing the source text.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// Identifies a [`SourceFile`] within one load (an index into [`crate::Model::files`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(u32);

impl FileId {
    pub(crate) fn new(index: usize) -> Self {
        FileId(u32::try_from(index).expect("fewer than 2^32 files"))
    }

    /// Position of the file in [`crate::Model::files`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A place in a DDL file, as a person reads it: path, 1-based line and column (in
/// characters), plus the byte span it covers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file, as it is named in diagnostics.
    pub path: Arc<Path>,
    /// The file within its load.
    pub file: FileId,
    /// 1-based line of `span.start`.
    pub line: u32,
    /// 1-based column of `span.start`, counted in characters.
    pub column: u32,
    /// The bytes covered.
    pub span: Span,
}

impl fmt::Display for Location {
    /// `path:line:column`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

/// One DDL file that was read: its path, its text and whether it was named by the caller
/// (a *root* file) or only reached through `include`.
#[derive(Debug, Clone)]
pub struct SourceFile {
    id: FileId,
    path: Arc<Path>,
    canonical: PathBuf,
    text: String,
    line_starts: Vec<usize>,
    is_root: bool,
    includes: Vec<FileId>,
}

impl SourceFile {
    pub(crate) fn new(
        id: FileId,
        path: PathBuf,
        canonical: PathBuf,
        text: String,
        is_root: bool,
    ) -> Self {
        let line_starts = std::iter::once(0).chain(memchr_newlines(&text)).collect();
        SourceFile {
            id,
            path: path.into(),
            canonical,
            text,
            line_starts,
            is_root,
            includes: Vec::new(),
        }
    }

    /// This file's id.
    pub fn id(&self) -> FileId {
        self.id
    }

    /// The path as it was reached: as given by the caller for a root file, or the
    /// including file's directory (or an include directory) joined with the include path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The canonical path, used to read each file only once.
    pub fn canonical_path(&self) -> &Path {
        &self.canonical
    }

    /// The text of the file. For a file that is not valid UTF-8 this is a lossy copy, used
    /// only to show where the bad bytes are.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the caller named this file (rather than it being only included). Back ends
    /// that mirror Hadoop's `rcc` generate code for the records of root files only.
    pub fn is_root(&self) -> bool {
        self.is_root
    }

    pub(crate) fn mark_root(&mut self) {
        self.is_root = true;
    }

    /// The files this file's `include`s name, in the order they appear (each once).
    pub fn includes(&self) -> &[FileId] {
        &self.includes
    }

    pub(crate) fn add_include(&mut self, file: FileId) {
        if !self.includes.contains(&file) {
            self.includes.push(file);
        }
    }

    /// 0-based index of the line holding byte `offset`.
    pub(crate) fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte range of line `index` (0-based), including its line terminator.
    pub(crate) fn line_range(&self, index: usize) -> Range<usize> {
        let start = self.line_starts[index.min(self.line_starts.len() - 1)];
        let end = self
            .line_starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        start..end
    }

    /// 1-based (line, column) of byte `offset`; the column counts characters.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// The [`Location`] of `span` in this file.
    pub fn location(&self, span: Span) -> Location {
        let (line, column) = self.line_col(span.start);
        Location {
            path: self.path.clone(),
            file: self.id,
            line: saturate(line),
            column: saturate(column),
            span,
        }
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Offsets just past each `\n`: the starts of lines 2, 3, …
fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i + 1)
}

/// Source file 0, named `name` (its path too), holding `text`: what unit tests read.
#[cfg(test)]
pub(crate) fn test_file(name: &str, text: &str) -> SourceFile {
    SourceFile::new(FileId::new(0), name.into(), name.into(), text.into(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        test_file("a.jr", text)
    }

    #[test]
    fn line_and_column_count_characters() {
        let f = file("ab\n// é\nxyz");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(2), (1, 3));
        assert_eq!(f.line_col(3), (2, 1));
        // After the two-byte `é`, the column counts one character.
        assert_eq!(f.line_col(8), (2, 5));
        assert_eq!(f.line_col(9), (3, 1));
        assert_eq!(f.line_col(100), (3, 4));
        assert_eq!(f.location(Span::new(9, 12)).to_string(), "a.jr:3:1");
    }

    #[test]
    fn line_ranges_include_terminators() {
        let f = file("ab\ncd");
        assert_eq!(f.line_range(0), 0..3);
        assert_eq!(f.line_range(1), 3..5);
        assert_eq!(f.line_index(3), 1);
    }
}
