//! Renders a [`Diagnostic`] with codespan-reporting, through a view of the source files that
//! keeps terminals safe: control characters are masked and overlong lines (minified or
//! binary input) are cut to a window around the span, with the real line and column kept
//! in the header.

use std::borrow::Cow;
use std::ops::Range;

use codespan_reporting::diagnostic::{self as cs, LabelStyle};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor};

use super::{Diagnostic, RenderOptions, Severity};
use crate::source::SourceFile;

/// Lines longer than this (in bytes) are shown as a window around the span.
const MAX_LINE: usize = 240;
/// Bytes of context kept on each side of a span in a window.
const CONTEXT: usize = 60;
/// Most bytes of a span shown in a window.
const MAX_SPAN: usize = 100;
const ELLIPSIS: &str = "...";

/// One file as the renderer sees it.
enum View<'a> {
    /// A whole file, masked.
    Whole {
        file: &'a SourceFile,
        text: Cow<'a, str>,
    },
    /// A window of one long line.
    Window {
        file: &'a SourceFile,
        /// `...` + the window + `...` + newline.
        text: String,
        /// 0-based line of the window in `file`.
        line: usize,
        /// Offset in `file` of the first byte of the window.
        start: usize,
        /// Length of the leading ellipsis (0 when the window starts the line).
        lead: usize,
    },
}

struct Views<'a>(Vec<View<'a>>);

impl<'a> Files<'a> for Views<'a> {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, files::Error> {
        let file = match self.get(id)? {
            View::Whole { file, .. } | View::Window { file, .. } => file,
        };
        Ok(file.path().display().to_string())
    }

    fn source(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(match self.get(id)? {
            View::Whole { text, .. } => text,
            View::Window { text, .. } => text,
        })
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        Ok(match self.get(id)? {
            View::Whole { file, .. } => file.line_index(byte_index),
            View::Window { .. } => 0,
        })
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, files::Error> {
        Ok(match self.get(id)? {
            View::Whole { .. } => line_index + 1,
            View::Window { line, .. } => line + 1,
        })
    }

    fn column_number(
        &'a self,
        id: usize,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        match self.get(id)? {
            View::Whole { text, file } => {
                Ok(files::column_index(text, file.line_range(line_index), byte_index) + 1)
            }
            View::Window {
                file, start, lead, ..
            } => Ok(file.line_col(start + byte_index.saturating_sub(*lead)).1),
        }
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, files::Error> {
        Ok(match self.get(id)? {
            View::Whole { file, .. } => file.line_range(line_index),
            View::Window { text, .. } => 0..text.len(),
        })
    }
}

impl<'a> Views<'a> {
    fn get(&self, id: usize) -> Result<&View<'a>, files::Error> {
        self.0.get(id).ok_or(files::Error::FileMissing)
    }
}

/// `text` with every control character but tab and line breaks replaced by `?` bytes, so
/// that byte offsets stay valid and nothing in the file can drive the terminal.
fn mask(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The view and the view-relative span for a label at `span` in `file`.
fn view_for<'a>(
    views: &mut Vec<View<'a>>,
    whole: &mut Vec<Option<usize>>,
    file: &'a SourceFile,
    span: Range<usize>,
) -> (usize, Range<usize>) {
    let text = file.text();
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    let line = file.line_index(start);
    let line_range = file.line_range(line);
    if line_range.len() <= MAX_LINE {
        let index = file.id().index();
        if whole.len() <= index {
            whole.resize(index + 1, None);
        }
        let id = *whole[index].get_or_insert_with(|| {
            views.push(View::Whole {
                file,
                text: mask(text),
            });
            views.len() - 1
        });
        return (id, start..end);
    }
    // A window of the long line around the span.
    let content_end = text[line_range.clone()]
        .trim_end_matches(['\n', '\r'])
        .len()
        + line_range.start;
    let end = end.min(content_end).min(start + MAX_SPAN);
    let from = floor_boundary(text, start.saturating_sub(CONTEXT).max(line_range.start));
    let end = ceil_boundary(text, end.max(start));
    // The window always reaches the span, even one past the line's content.
    let to = ceil_boundary(text, (end + CONTEXT).min(content_end)).max(end);
    let lead = if from > line_range.start {
        ELLIPSIS.len()
    } else {
        0
    };
    let mut window = String::new();
    window.push_str(&ELLIPSIS[..lead]);
    window.push_str(&mask(&text[from..to]));
    if to < content_end {
        window.push_str(ELLIPSIS);
    }
    window.push('\n');
    views.push(View::Window {
        file,
        text: window,
        line,
        start: from,
        lead,
    });
    let s = start - from + lead;
    (views.len() - 1, s..s + (end - start))
}

/// `diagnostic` rendered as text, without a trailing blank line.
pub(super) fn render(
    files: &[SourceFile],
    diagnostic: &Diagnostic,
    options: &RenderOptions,
) -> String {
    let mut views = Vec::new();
    let mut whole = Vec::new();
    let mut labels = Vec::new();
    for label in &diagnostic.labels {
        let Some(file) = files.get(label.file.index()) else {
            continue;
        };
        let (id, span) = view_for(&mut views, &mut whole, file, label.span.range());
        let style = if label.primary {
            LabelStyle::Primary
        } else {
            LabelStyle::Secondary
        };
        labels.push(cs::Label::new(style, id, span).with_message(&label.message));
    }
    let severity = match diagnostic.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let cs_diagnostic = cs::Diagnostic::new(severity)
        .with_message(&diagnostic.message)
        .with_labels(labels)
        .with_notes(diagnostic.notes.clone());
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let views = Views(views);
    let mut out = Vec::new();
    let result = if options.color() {
        let mut writer = termcolor::Ansi::new(&mut out);
        term::emit_to_write_style(&mut writer, &config, &views, &cs_diagnostic)
    } else {
        term::emit_to_io_write(&mut out, &config, &views, &cs_diagnostic)
    };
    match result {
        Ok(()) => String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        // Only a bug in the views could get here; still say what the diagnostic is.
        Err(e) => format!(
            "error: {}\n(could not show the source: {e})\n",
            diagnostic.message
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{test_file, FileId, Span};

    fn file(text: &str) -> SourceFile {
        test_file("f.jr", text)
    }

    fn render_at(text: &str, span: Span) -> String {
        let files = [file(text)];
        let d = Diagnostic::error("boom").primary(FileId::new(0), span, "here");
        render(&files, &d, &RenderOptions::default())
    }

    #[test]
    fn long_lines_are_windowed_with_the_real_position() {
        let text = format!("{}@{}\n", "a".repeat(1000), "b".repeat(1000));
        let out = render_at(&text, Span::new(1000, 1001));
        assert!(out.contains("--> f.jr:1:1001"), "{out}");
        assert!(out.contains("...aaaa"), "{out}");
        assert!(out.contains("bbbb..."), "{out}");
        assert!(out.len() < 600, "{out}");
    }

    #[test]
    fn spans_at_or_past_the_end_of_a_long_line_render() {
        let text = format!("{}\r\nx", "a".repeat(1000));
        for at in [999, 1000, 1001, 1002, 1003] {
            let out = render_at(&text, Span::new(at, at));
            assert!(out.starts_with("error: boom"), "{at}: {out}");
        }
        let text = "é".repeat(600);
        for at in [0, 2, 600, 1198, 1200] {
            let out = render_at(&text, Span::new(at, at + 2));
            assert!(out.starts_with("error: boom"), "{at}: {out}");
        }
    }
}
