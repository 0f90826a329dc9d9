//! The printer: tokens in, canonical text out, with the source's comments put back between
//! them. The walk over the tree ([`super::layout`]) says where each token stood in the
//! source and how it is separated from the one before; the printer prints every comment
//! that stood before it first:
//!
//! - a comment that followed code on its line stays on that line, after one space;
//! - any other starts a line of its own, indented as the declaration that follows it (the
//!   body's indentation before a `}`), one level deeper inside a declaration;
//! - a `//` comment ends its line; a `/* */` comment is followed on the same line by what
//!   followed it there.
//!
//! Each of these depends only on what the source has between tokens and comments, which
//! printing keeps, so a second run makes the same decisions: formatting is idempotent.

use crate::syntax::ast::{Comment, CommentKind};
use crate::syntax::line_breaks;

/// One level of indentation.
const INDENT: &str = "    ";

/// Whether a blank line goes before a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Blank {
    /// Never.
    Never,
    /// When the source has one or more there.
    Keep,
    /// Always.
    Always,
}

/// How a declaration's first token starts its line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    /// Indentation level of the token.
    indent: usize,
    /// Indentation level of the comments on lines of their own before it.
    comment_indent: usize,
    /// Before the first of those comments.
    before_comments: Blank,
    /// Before the token when no comment is before it.
    before: Blank,
    /// Before the token when comments are.
    after_comments: Blank,
}

impl Line {
    /// Indentation level of the declaration.
    pub(super) fn indent(self) -> usize {
        self.indent
    }

    /// The first declaration of a file or of a `{ }` block: no blank line before it.
    pub(super) fn first(indent: usize) -> Line {
        Line {
            indent,
            comment_indent: indent,
            before_comments: Blank::Never,
            before: Blank::Never,
            after_comments: Blank::Keep,
        }
    }

    /// A declaration after another: a blank line where the source has one or more.
    pub(super) fn next(indent: usize) -> Line {
        Line {
            indent,
            comment_indent: indent,
            before_comments: Blank::Keep,
            before: Blank::Keep,
            after_comments: Blank::Keep,
        }
    }

    /// A top-level declaration after a module, or a module after an include: always one
    /// blank line before it (and its comments).
    pub(super) fn apart(indent: usize) -> Line {
        Line {
            indent,
            comment_indent: indent,
            before_comments: Blank::Always,
            before: Blank::Always,
            after_comments: Blank::Keep,
        }
    }

    /// The `}` of a block at `indent`: the comments before it are the body's.
    pub(super) fn close(indent: usize) -> Line {
        Line {
            indent,
            comment_indent: indent + 1,
            before_comments: Blank::Keep,
            before: Blank::Never,
            after_comments: Blank::Never,
        }
    }
}

/// What separates a token from the one before it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Sep {
    /// Nothing: `vector<int>`.
    Glue,
    /// One space.
    Space,
    /// A line break: the token starts a declaration.
    Line(Line),
}

/// Prints tokens and the comments between them.
pub(super) struct Printer<'a> {
    /// The source text; empty when printing a tree without it.
    text: &'a str,
    /// The source's comments, in order.
    comments: &'a [Comment],
    next_comment: usize,
    newline: &'static str,
    out: String,
    /// Where the last token or comment printed ends in the source.
    end: usize,
    /// Something is printed on the current line.
    line_open: bool,
    /// The current line ends in a `//` comment.
    must_break: bool,
    /// The last thing printed is a comment.
    after_comment: bool,
    /// Indentation level of the current declaration.
    indent: usize,
}

impl<'a> Printer<'a> {
    /// A printer for the tree parsed from `text`, whose comments are `comments`. Lines end
    /// as the source's first line does (`\r\n` or `\n`).
    pub(super) fn new(text: &'a str, comments: &'a [Comment]) -> Self {
        let newline = match text.find(['\n', '\r']) {
            Some(at) if text[at..].starts_with("\r\n") => "\r\n",
            _ => "\n",
        };
        Printer {
            text,
            comments,
            next_comment: 0,
            newline,
            out: String::with_capacity(text.len() + text.len() / 8),
            end: 0,
            line_open: false,
            must_break: false,
            after_comment: false,
            indent: 0,
        }
    }

    /// A printer for a tree without its source: no comments, no blank lines kept.
    pub(super) fn without_source() -> Printer<'static> {
        Printer::new("", &[])
    }

    /// The source between two offsets (empty without a source).
    fn gap(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or("")
    }

    /// Where the first token at or after `from` starts: past whitespace and comments.
    pub(super) fn token_after(&self, from: usize) -> usize {
        let mut at = from;
        loop {
            let rest = self.text.get(at..).unwrap_or("");
            at += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
            match self.comments.binary_search_by_key(&at, |c| c.span.start) {
                Ok(i) => at = self.comments[i].span.end,
                Err(_) => return at,
            }
        }
    }

    /// Prints `token`, which starts at `at` in the source, after the comments before it.
    pub(super) fn token(&mut self, token: &str, at: usize, sep: Sep) {
        let first = self.comments_before(at, sep);
        let gap = self.gap(self.end, at);
        match sep {
            Sep::Line(line) => {
                let blank = if first {
                    line.before
                } else {
                    line.after_comments
                };
                self.start_line(line.indent, blank, gap);
                self.indent = line.indent;
            }
            Sep::Glue | Sep::Space => {
                if self.must_break || (self.after_comment && line_breaks(gap) > 0) {
                    self.start_line(self.indent + 1, Blank::Never, gap);
                } else if self.after_comment || matches!(sep, Sep::Space) {
                    self.out.push(' ');
                }
            }
        }
        self.out.push_str(token);
        self.end = at + token.len();
        self.line_open = true;
        self.must_break = false;
        self.after_comment = false;
    }

    /// Prints the comments that are left, ends the last line, and returns the text.
    pub(super) fn finish(mut self) -> String {
        self.comments_before(usize::MAX, Sep::Line(Line::next(0)));
        if self.line_open {
            self.out.push_str(self.newline);
        }
        self.out
    }

    /// Prints the comments that start before `at`, where a token separated by `sep`
    /// follows; true when none of them started a line.
    fn comments_before(&mut self, at: usize, sep: Sep) -> bool {
        let mut first = true;
        while let Some(comment) = self
            .comments
            .get(self.next_comment)
            .filter(|c| c.span.start < at)
        {
            self.next_comment += 1;
            let gap = self.gap(self.end, comment.span.start);
            if self.line_open && line_breaks(gap) == 0 {
                self.out.push(' ');
            } else {
                let (indent, blank) = match sep {
                    Sep::Line(line) if first => (line.comment_indent, line.before_comments),
                    Sep::Line(line) => (line.comment_indent, Blank::Keep),
                    Sep::Glue | Sep::Space => (self.indent + 1, Blank::Never),
                };
                self.start_line(indent, blank, gap);
                first = false;
            }
            self.comment(comment);
        }
        first
    }

    /// Ends the current line (if anything is on it), adds a blank line as `blank` says
    /// given the source `gap` before what follows, and indents.
    fn start_line(&mut self, indent: usize, blank: Blank, gap: &str) {
        if self.line_open {
            self.out.push_str(self.newline);
            let blank = match blank {
                Blank::Never => false,
                Blank::Keep => line_breaks(gap) > 1,
                Blank::Always => true,
            };
            if blank {
                self.out.push_str(self.newline);
            }
        }
        for _ in 0..indent {
            self.out.push_str(INDENT);
        }
        self.line_open = false;
    }

    /// Prints a comment where the output stands. Trailing whitespace goes; the further
    /// lines of a block comment keep their text, except that lines starting with `*` are
    /// aligned one column right of the `/*`.
    fn comment(&mut self, comment: &Comment) {
        let line_start = self.out.rfind('\n').map_or(0, |i| i + 1);
        let column = self.out[line_start..].chars().count();
        let mut lines = comment.text.split('\n').map(str::trim_end);
        self.out.push_str(lines.next().unwrap_or(""));
        let rest: Vec<&str> = lines.collect();
        let starred = rest.iter().all(|l| l.trim_start().starts_with('*'));
        for line in rest {
            self.out.push_str(self.newline);
            if starred {
                self.out.extend(std::iter::repeat_n(' ', column + 1));
                self.out.push_str(line.trim_start());
            } else {
                self.out.push_str(line);
            }
        }
        self.end = comment.span.end;
        self.line_open = true;
        self.must_break = comment.kind == CommentKind::Line;
        self.after_comment = true;
    }
}
