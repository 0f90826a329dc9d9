//! Comments: read from the text of a file that parsed, and attached to the declarations they
//! belong to ([`AttachedComments`]).
//!
//! Pest reports a comment it skipped as a pair only when the rule that skipped it matched:
//! a comment before the failed last attempt of a repetition (the comments before a class's
//! `}`, say) is skipped again without a pair. So the comments are read from the text, which
//! is simple once the text is known to parse: outside comments, a `"` or `/` occurs only in
//! an include's quoted path, and a comment starts at any other `/`.

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
    /// The comments of `text`, which parsed, from `start` (after a byte order mark).
    pub(super) fn scan(text: &'t str, start: usize) -> Self {
        let mut list = Vec::new();
        let mut at = start;
        while let Some(found) = text[at..].find(['/', '"']) {
            at += found;
            let rest = &text[at..];
            let (kind, len) = if let Some(path) = rest.strip_prefix('"') {
                // An include's path: no escapes, no line breaks.
                at += path.find('"').map_or(rest.len(), |end| end + 2);
                continue;
            } else if rest.starts_with("//") {
                (
                    CommentKind::Line,
                    rest.find(['\n', '\r']).unwrap_or(rest.len()),
                )
            } else if let Some(body) = rest.strip_prefix("/*") {
                (
                    CommentKind::Block,
                    body.find("*/").map_or(rest.len(), |end| end + 4),
                )
            } else {
                at += 1;
                continue;
            };
            list.push(Comment {
                kind,
                text: rest[..len].to_owned(),
                span: Span::new(at, at + len),
            });
            at += len;
        }
        let around = around(text, start, &list);
        Comments { text, list, around }
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

/// For each comment of `list` (those of `text` after `start`): where the token before it
/// ends and where the token after it starts, past whitespace and the comments next to it.
fn around(text: &str, start: usize, list: &[Comment]) -> Vec<(Option<usize>, Option<usize>)> {
    let space = [' ', '\t', '\n', '\r'];
    let mut before: Vec<Option<usize>> = Vec::with_capacity(list.len());
    for (i, comment) in list.iter().enumerate() {
        let end = start
            + text[start..comment.span.start]
                .trim_end_matches(space)
                .len();
        before.push(match i.checked_sub(1) {
            Some(previous) if list[previous].span.end == end => before[previous],
            _ => (end > start).then_some(end),
        });
    }
    let mut after = vec![None; list.len()];
    for (i, comment) in list.iter().enumerate().rev() {
        let rest = &text[comment.span.end..];
        let next = comment.span.end + rest.len() - rest.trim_start_matches(space).len();
        after[i] = match list.get(i + 1) {
            Some(following) if following.span.start == next => after[i + 1],
            _ => (next < text.len()).then_some(next),
        };
    }
    before.into_iter().zip(after).collect()
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
