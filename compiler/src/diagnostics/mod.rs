//! Errors about DDL, with the places they point at, and their rendering as the CLI prints
//! them: `path:line:col`, the message, the source line with the span underlined, and a help
//! line where one helps.

mod render;

use std::fmt::{self, Write};
use std::path::Path;

use hadoop_record::error::excerpt;

use crate::source::{FileId, SourceFile, Span};

/// Most places one diagnostic points at; the rest are counted in a note.
const MAX_LABELS: usize = 10;
/// Most items a list in a message names ([`listing`]).
const MAX_LISTED: usize = 8;

/// Most characters of one quotation in a diagnostic: longer than the runtime's data
/// excerpts, so that file paths and any sensible name are shown whole.
pub const QUOTE_CHARS: usize = 120;

/// `text` with every quotation (between backticks) longer than [`QUOTE_CHARS`] cut to an
/// excerpt ([`excerpt`]): names, paths and tokens from a DDL file are quoted this way, and
/// may be as long as the file. Every message, label and note of a [`Diagnostic`] goes
/// through this, so none grows with the input. A quotation cut already is left as it is.
fn bounded(text: String) -> String {
    let overlong = |quoted: &str| {
        let chars = quoted.chars().count();
        chars > QUOTE_CHARS && !(chars == QUOTE_CHARS + 1 && quoted.ends_with('…'))
    };
    if !quotations(&text).any(overlong) {
        return text;
    }
    let mut out = String::with_capacity(text.len().min(1024));
    let mut rest = text.as_str();
    while let Some((before, quoted, after)) = split_quotation(rest) {
        out.push_str(before);
        if overlong(quoted) {
            let _ = write!(out, "{}", excerpt(quoted).at_most(QUOTE_CHARS));
        } else {
            let _ = write!(out, "`{quoted}`");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Text before the first quotation, the quotation without its backticks, and the rest.
fn split_quotation(text: &str) -> Option<(&str, &str, &str)> {
    let (before, rest) = text.split_once('`')?;
    let (quoted, after) = rest.split_once('`')?;
    Some((before, quoted, after))
}

fn quotations(mut text: &str) -> impl Iterator<Item = &str> {
    std::iter::from_fn(move || {
        let (_, quoted, after) = split_quotation(text)?;
        text = after;
        Some(quoted)
    })
}

/// `items` joined by `separator`, at most [`MAX_LISTED`] of them: a longer list ends with
/// how many it leaves out, so that a message listing names from the input stays short.
pub(crate) fn listing(items: &[String], separator: &str) -> String {
    let mut out = items
        .iter()
        .take(MAX_LISTED)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(separator);
    if items.len() > MAX_LISTED {
        let _ = write!(out, "{separator}… ({} more)", items.len() - MAX_LISTED);
    }
    out
}

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
    /// Secondary labels left out (past [`MAX_LABELS`]), and the note that counts them.
    left_out: Option<(usize, usize)>,
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
            message: bounded(message.into()),
            labels: Vec::new(),
            notes: Vec::new(),
            left_out: None,
        }
    }

    /// Adds the primary label: where the problem is.
    pub(crate) fn primary(self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.label(file, span, message.into(), true)
    }

    /// Adds a secondary label: a related place. Past [`MAX_LABELS`] places, a note counts
    /// the rest instead.
    pub(crate) fn secondary(
        mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        if self.labels.len() >= MAX_LABELS {
            let (count, note) = match self.left_out {
                Some((count, note)) => (count + 1, note),
                None => (1, self.notes.len()),
            };
            let text = format!("note: and {count} more place(s) not shown");
            match self.notes.get_mut(note) {
                Some(existing) => *existing = text,
                None => self.notes.push(text),
            }
            self.left_out = Some((count, note));
            return self;
        }
        self.label(file, span, message.into(), false)
    }

    fn label(mut self, file: FileId, span: Span, message: String, primary: bool) -> Self {
        self.labels.push(Label {
            file,
            span,
            message: bounded(message),
            primary,
        });
        self
    }

    /// Adds a `help:` line.
    pub(crate) fn help(mut self, text: impl fmt::Display) -> Self {
        self.notes.push(bounded(format!("help: {text}")));
        self
    }

    /// Adds a `note:` line.
    pub(crate) fn note(mut self, text: impl fmt::Display) -> Self {
        self.notes.push(bounded(format!("note: {text}")));
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

hadoop_record::__options! {
    /// How to render diagnostics.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct RenderOptions {
        /// Emit ANSI colour codes (default: no).
        color / with_color: copy bool = false;
    }
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
