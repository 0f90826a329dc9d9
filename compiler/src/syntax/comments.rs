//! Comments: read from the gaps between the tokens pest matched, and attached to the
//! declarations they belong to ([`AttachedComments`]).
//!
//! Pest reports a comment it skipped as a pair only when the rule that skipped it matched:
//! a comment before the failed last attempt of a repetition (the comments before a class's
//! `}`, say) is skipped again without a pair. The tokens are always reported, and between
//! two tokens there is nothing but whitespace and comments, so the comments are read from
//! those gaps: the grammar stays as Hadoop's, and no comment is lost.

use super::ast::{AttachedComments, Comment, CommentKind};
use crate::source::Span;

/// How many line breaks `text` holds: `\n`, `\r\n` and a lone `\r` (Hadoop's lexer ends a
/// line at each) count one each.
pub(crate) fn line_breaks(text: &str) -> usize {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

/// The comments of a file, with the tokens around each.
pub(super) struct Comments<'t> {
    text: &'t str,
    list: Vec<Comment>,
    /// For each comment: where the token before it ends, and where the token after it
    /// starts (`None` at the start and end of the file).
    around: Vec<(Option<usize>, Option<usize>)>,
}

impl<'t> Comments<'t> {
    /// The comments of `text` between and around `tokens` (in source order), from `start`
    /// (after a byte order mark).
    pub(super) fn scan(text: &'t str, start: usize, tokens: &[Span]) -> Self {
        let mut comments = Comments {
            text,
            list: Vec::new(),
            around: Vec::new(),
        };
        let mut before = None;
        let mut from = start;
        for token in tokens {
            comments.scan_gap(from..token.start, before, Some(token.start));
            before = Some(token.end);
            from = token.end;
        }
        comments.scan_gap(from..text.len(), before, None);
        comments
    }

    /// Reads the comments of `gap`, which holds only whitespace and comments.
    fn scan_gap(
        &mut self,
        gap: std::ops::Range<usize>,
        before: Option<usize>,
        after: Option<usize>,
    ) {
        let mut at = gap.start;
        while at < gap.end {
            let rest = &self.text[at..gap.end];
            let (kind, len) = if rest.starts_with("//") {
                (
                    CommentKind::Line,
                    rest.find(['\n', '\r']).unwrap_or(rest.len()),
                )
            } else if let Some(body) = rest.strip_prefix("/*") {
                let len = body.find("*/").map_or(rest.len(), |end| end + 4);
                (CommentKind::Block, len)
            } else {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
            self.list.push(Comment {
                kind,
                text: rest[..len].to_owned(),
                span: Span::new(at, at + len),
            });
            self.around.push((before, after));
            at += len;
        }
    }

    /// Whether comment `i` follows a token on the same line.
    fn is_trailing(&self, i: usize) -> bool {
        self.around[i]
            .0
            .is_some_and(|end| line_breaks(&self.text[end..self.list[i].span.start]) == 0)
    }

    /// The comments of the declaration whose first token starts at `first` and whose
    /// comments trail the token that ends at `last` (see [`AttachedComments`]).
    pub(super) fn attach(&self, first: usize, last: usize) -> AttachedComments {
        let end = self.list.partition_point(|c| c.span.start < first);
        let mut start = end;
        let mut next = first;
        while let Some(i) = start.checked_sub(1) {
            let comment = &self.list[i];
            if self.around[i].1 != Some(first)
                || self.is_trailing(i)
                || line_breaks(&self.text[comment.span.end..next]) > 1
            {
                break;
            }
            next = comment.span.start;
            start = i;
        }
        let from = self.list.partition_point(|c| c.span.start < last);
        let mut to = from;
        while to < self.list.len() && self.around[to].0 == Some(last) && self.is_trailing(to) {
            to += 1;
        }
        AttachedComments {
            leading: start..end,
            trailing: from..to,
        }
    }

    /// The comments, in source order.
    pub(super) fn into_list(self) -> Vec<Comment> {
        self.list
    }

    /// The last comment, if it ends the text.
    pub(super) fn last_at_end(&self) -> Option<&Comment> {
        self.list.last().filter(|c| c.span.end == self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_count_each_convention_once() {
        assert_eq!(line_breaks("a\nb\r\nc\rd"), 3);
        assert_eq!(line_breaks("\r\n\r\n"), 2);
        assert_eq!(line_breaks("  "), 0);
    }
}
