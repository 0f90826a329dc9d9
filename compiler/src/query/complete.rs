//! What may be typed at an offset: keywords at the top level and in a module, types where a
//! field's type goes. Read from the text before the offset, not from a syntax tree, since
//! the file is usually half-typed when this is asked.

use crate::model::{Model, Primitive};
use crate::source::Span;

/// What a [`Completion`] inserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    /// `include`, `module`, `class`.
    Keyword,
    /// `int`, `ustring`, …
    Primitive,
    /// `vector`, `map`.
    Container,
    /// A record, by the name that finds it from here.
    Record,
}

/// One thing that may be typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The text to insert.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A line about it: a record's qualified name and file, a container's shape.
    pub detail: Option<String>,
}

/// A token of the text before the offset.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Punct(u8),
    Text,
}

/// Where the offset is, as the text before it tells.
struct Context<'a> {
    /// Braces open: 0 at the top level, 1 in a module, 2 in a class.
    depth: usize,
    /// The module whose block holds the offset.
    module: Option<String>,
    /// The last token before the word being typed.
    previous: Option<Token<'a>>,
    /// Inside a comment or a quoted path.
    in_trivia: bool,
}

/// What may be typed at byte `offset` of `text`: the span the typed word covers (to be
/// replaced) and the candidates. `model` supplies the records in scope (those of the
/// file's compilation: itself and what it includes), with a simple name for records of
/// the module being written and a qualified name for the others (as Hadoop's rcc needs).
/// Nothing inside a comment, a quoted path, or where a name is being declared.
pub fn complete(
    text: &str,
    offset: usize,
    model: Option<&Model>,
) -> Option<(Span, Vec<Completion>)> {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let context = scan(&before[..word_start]);
    if context.in_trivia {
        return None;
    }
    let keyword = |k: &str| Completion {
        label: k.to_owned(),
        kind: CompletionKind::Keyword,
        detail: None,
    };
    let starts_item = matches!(
        context.previous,
        None | Some(Token::Punct(b'{' | b'}' | b';') | Token::Text)
    );
    let items = match context.depth {
        0 if starts_item => vec![keyword("include"), keyword("module")],
        1 if starts_item => vec![keyword("class")],
        2 if starts_item || matches!(context.previous, Some(Token::Punct(b'<' | b','))) => {
            types(model, context.module.as_deref())
        }
        _ => return None,
    };
    Some((Span::new(word_start, offset), items))
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Primitives, containers and the records of `model`.
fn types(model: Option<&Model>, module: Option<&str>) -> Vec<Completion> {
    let mut out: Vec<Completion> = Primitive::ALL
        .iter()
        .map(|p| Completion {
            label: p.keyword().to_owned(),
            kind: CompletionKind::Primitive,
            detail: None,
        })
        .collect();
    for (name, shape) in [("vector", "vector<T>"), ("map", "map<K, V>")] {
        out.push(Completion {
            label: name.to_owned(),
            kind: CompletionKind::Container,
            detail: Some(shape.to_owned()),
        });
    }
    if let Some(model) = model {
        for record in model.records() {
            let local = Some(record.module()) == module;
            out.push(Completion {
                label: if local {
                    record.name()
                } else {
                    record.qualified_name()
                }
                .to_owned(),
                kind: CompletionKind::Record,
                detail: Some(format!(
                    "{} ({})",
                    record.qualified_name(),
                    model.file(record.file()).path().display()
                )),
            });
        }
    }
    out
}

/// Reads `text` (all of it before the word being typed) as the lexer would, counting
/// braces and noting the module and the last token.
fn scan(text: &str) -> Context<'_> {
    let bytes = text.as_bytes();
    let mut context = Context {
        depth: 0,
        module: None,
        previous: None,
        in_trivia: false,
    };
    // The module name being read after `module`, until its `{`.
    let mut naming_module: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with("//") {
            match text[i..].find(['\n', '\r']) {
                Some(end) => i += end,
                None => {
                    context.in_trivia = true;
                    return context;
                }
            }
        } else if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(end) => i += end + 4,
                None => {
                    context.in_trivia = true;
                    return context;
                }
            }
        } else if b == b'"' {
            match text[i + 1..].find(['"', '\n', '\r']) {
                Some(end) if bytes[i + 1 + end] == b'"' => i += end + 2,
                Some(end) => i += end + 1,
                None => {
                    context.in_trivia = true;
                    return context;
                }
            }
            context.previous = Some(Token::Text);
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            let end = text[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(text.len(), |e| i + e);
            let word = &text[i..end];
            if let Some(name) = naming_module.as_mut() {
                name.push_str(word);
            } else if word == "module" && context.depth == 0 {
                naming_module = Some(String::new());
            }
            context.previous = Some(Token::Word(word));
            i = end;
        } else {
            match b {
                b'.' => {
                    if let Some(name) = naming_module.as_mut() {
                        name.push('.');
                    }
                }
                b'{' => {
                    if context.depth == 0 {
                        context.module = naming_module.take();
                    }
                    context.depth += 1;
                }
                b'}' => {
                    context.depth = context.depth.saturating_sub(1);
                    if context.depth == 0 {
                        context.module = None;
                    }
                }
                _ => {}
            }
            context.previous = Some(Token::Punct(b));
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    context
}
