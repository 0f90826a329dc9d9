//! Errors about DDL, with the places they point at, and their rendering as the CLI prints
//! them: `path:line:col`, the message, the source line with the span underlined, and a help
//! line where one helps.

mod render;

use std::fmt;
use std::path::Path;

use crate::source::{FileId, SourceFile, Span};

/// How bad a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// The input is accepted, but something deserves attention.
    Warning,
}

/// A span in a file, with the text shown under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    file: FileId,
    span: Span,
    message: String,
    primary: bool,
}

impl Label {
    /// The file the span is in.
    pub fn file(&self) -> FileId {
        self.file
    }

    /// The bytes underlined.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The text shown under the span (may be empty).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether this is the place the diagnostic is about (the others give context).
    pub fn is_primary(&self) -> bool {
        self.primary
    }
}

/// One problem found in the DDL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    severity: Severity,
    message: String,
    labels: Vec<Label>,
    notes: Vec<String>,
}

impl Diagnostic {
    /// An error saying `message`.
    pub(crate) fn error(message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, message)
    }

    /// A diagnostic of `severity` saying `message`.
    pub(crate) fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds the primary label: where the problem is.
    pub(crate) fn primary(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            file,
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label: a related place.
    pub(crate) fn secondary(
        mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        self.labels.push(Label {
            file,
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    /// Adds a `help:` line.
    pub(crate) fn help(mut self, text: impl fmt::Display) -> Self {
        self.notes.push(format!("help: {text}"));
        self
    }

    /// Adds a `note:` line.
    pub(crate) fn note(mut self, text: impl fmt::Display) -> Self {
        self.notes.push(format!("note: {text}"));
        self
    }

    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The places it points at; the primary one first.
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// `help: …` and `note: …` lines.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The primary label, if the diagnostic points at a place.
    pub fn primary_label(&self) -> Option<&Label> {
        self.labels.iter().find(|l| l.primary)
    }
}

/// How to render diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Emit ANSI colour codes.
    pub color: bool,
}

/// Everything wrong with a load: the diagnostics in the order found, plus the files read,
/// which rendering quotes from. Returned by [`crate::load`] when any error was found.
///
/// `Display` renders without colour, exactly as `rcc` prints to a pipe.
#[derive(Debug, Clone)]
pub struct Diagnostics {
    files: Vec<SourceFile>,
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub(crate) fn new(files: Vec<SourceFile>, list: Vec<Diagnostic>) -> Self {
        Diagnostics { files, list }
    }

    /// The diagnostics, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    /// How many diagnostics there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many are errors.
    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// The files read (also those that failed to parse), e.g. for a build script's
    /// `cargo:rerun-if-changed`.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// Paths of the files read.
    pub fn files_read(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(SourceFile::path)
    }

    /// `path:line:col` of a label.
    pub fn location_of(&self, label: &Label) -> Option<crate::source::Location> {
        self.files
            .get(label.file.index())
            .map(|f| f.location(label.span))
    }

    /// All diagnostics rendered as the CLI prints them, each followed by a blank line.
    pub fn render(&self, options: &RenderOptions) -> String {
        self.list
            .iter()
            .map(|d| self.render_one(d, options))
            .collect()
    }

    /// One diagnostic, rendered as the CLI prints it, followed by a blank line.
    pub fn render_one(&self, diagnostic: &Diagnostic, options: &RenderOptions) -> String {
        let mut text = render::render(&self.files, diagnostic, options);
        let trimmed = text.trim_end_matches('\n').len();
        text.truncate(trimmed);
        text.push_str("\n\n");
        text
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&RenderOptions::default()))
    }
}

impl std::error::Error for Diagnostics {}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}
