//! Lowers pest's pairs into the typed [`ast`](super::ast). The grammar guarantees the shape
//! of every pair, so a mismatch here is a bug in this file, not bad input.

use pest::iterators::Pair;

use super::ast::{
    AttachedComments, Braces, Class, CommentKind, Field, File, Ident, Include, Item, Module,
    Primitive, QualifiedName, TypeExpr,
};
use super::comments::Comments;
use super::parser::Rule;
use crate::source::Span;

fn span(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

/// The span of `pair` without trailing whitespace and comments, which pest includes in a
/// rule that ends in an optional or repeated part: it ends where its last token ends.
fn trimmed_span(pair: &Pair<'_, Rule>) -> Span {
    let start = pair.as_span().start();
    let end = pair
        .clone()
        .into_inner()
        .filter(|p| !is_comment(p.as_rule()))
        .map(|p| p.as_span().end())
        .max()
        .unwrap_or_else(|| pair.as_span().end());
    Span::new(start, end)
}

/// Comments are atomic rules (for speed), so pest reports them as pairs.
fn is_comment(rule: Rule) -> bool {
    matches!(rule, Rule::block_comment | Rule::line_comment)
}

/// The children of `pair` that carry meaning: keywords, punctuation and comments dropped.
fn parts<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_include
                | Rule::kw_module
                | Rule::kw_class
                | Rule::kw_vector
                | Rule::kw_map
                | Rule::lbrace
                | Rule::rbrace
                | Rule::langle
                | Rule::rangle
                | Rule::comma
                | Rule::semicolon
                | Rule::dot
                | Rule::quote
                | Rule::EOI
                | Rule::block_comment
                | Rule::line_comment
        )
    })
}

pub(super) fn file(pair: Pair<'_, Rule>) -> File {
    let text = pair.as_str();
    let bom = text
        .starts_with('\u{FEFF}')
        .then(|| Span::new(0, '\u{FEFF}'.len_utf8()));
    let comments = Comments::scan(text, bom.map_or(0, |b| b.end));
    // Hadoop's lexer fails on a `//` comment that the file ends in, but not on a bare `//`.
    let unterminated_comment = comments
        .last_at_end()
        .filter(|c| c.kind == CommentKind::Line && c.text.len() > 2)
        .map(|c| c.span);
    let mut items: Vec<Item> = parts(pair)
        .map(|p| match p.as_rule() {
            Rule::include => Item::Include(include(p)),
            Rule::module => Item::Module(module(p)),
            r => unreachable!("file item {r:?}"),
        })
        .collect();
    attach(&mut items, &comments);
    File {
        items,
        bom,
        unterminated_comment,
        comments: comments.into_list(),
    }
}

/// Gives every declaration its comments.
fn attach(items: &mut [Item], comments: &Comments<'_>) {
    for item in items {
        match item {
            Item::Include(i) => i.comments = comments.attach(i.span.start, i.path_span.end),
            Item::Module(m) => {
                m.comments = comments.attach(m.span.start, m.braces.open.end);
                for class in &mut m.classes {
                    class.comments = comments.attach(class.span.start, class.braces.open.end);
                    for field in &mut class.fields {
                        field.comments = comments.attach(field.span.start, field.span.end);
                    }
                }
            }
        }
    }
}

fn include(pair: Pair<'_, Rule>) -> Include {
    let span = span(&pair);
    let path = parts(pair).next().expect("include path");
    let path_span = self::span(&path);
    let text = parts(path).next().expect("path text");
    Include {
        path: text.as_str().to_owned(),
        path_span,
        span,
        comments: AttachedComments::default(),
    }
}

/// What a module and a class have in common: the span up to the `}` (or the `;` after it),
/// the braces, the `;`, and the other children (the name, then the classes or fields),
/// read in one pass.
struct Block<'i> {
    span: Span,
    braces: Braces,
    semicolon: Option<Span>,
    parts: Vec<Pair<'i, Rule>>,
}

fn block(pair: Pair<'_, Rule>) -> Block<'_> {
    let start = pair.as_span().start();
    let mut block = Block {
        span: Span::new(start, start),
        braces: Braces::default(),
        semicolon: None,
        parts: Vec::new(),
    };
    for p in pair.into_inner() {
        let rule = p.as_rule();
        if !is_comment(rule) {
            block.span.end = p.as_span().end();
        }
        match rule {
            Rule::lbrace => block.braces.open = span(&p),
            Rule::rbrace => block.braces.close = span(&p),
            Rule::semicolon => block.semicolon = Some(span(&p)),
            Rule::kw_module | Rule::kw_class | Rule::block_comment | Rule::line_comment => {}
            _ => block.parts.push(p),
        }
    }
    block
}

fn module(pair: Pair<'_, Rule>) -> Module {
    let block = block(pair);
    let mut parts = block.parts.into_iter();
    let name = qualified_name(parts.next().expect("module name"));
    Module {
        name,
        classes: parts.map(class).collect(),
        span: block.span,
        semicolon: block.semicolon,
        braces: block.braces,
        comments: AttachedComments::default(),
    }
}

fn class(pair: Pair<'_, Rule>) -> Class {
    let block = block(pair);
    let mut parts = block.parts.into_iter();
    let name = ident(parts.next().expect("class name"));
    Class {
        name,
        fields: parts.map(field).collect(),
        span: block.span,
        semicolon: block.semicolon,
        braces: block.braces,
        comments: AttachedComments::default(),
    }
}

fn field(pair: Pair<'_, Rule>) -> Field {
    let span = span(&pair);
    let mut parts = parts(pair);
    let ty = field_type(parts.next().expect("field type"));
    let name = ident(parts.next().expect("field name"));
    Field {
        ty,
        name,
        span,
        comments: AttachedComments::default(),
    }
}

fn field_type(pair: Pair<'_, Rule>) -> TypeExpr {
    let inner = parts(pair).next().expect("a type");
    let span = trimmed_span(&inner);
    match inner.as_rule() {
        Rule::primitive => TypeExpr::Primitive {
            kind: Primitive::from_keyword(inner.as_str()).expect("grammar lists primitives"),
            span,
        },
        Rule::vector => {
            let element = field_type(parts(inner).next().expect("element type"));
            TypeExpr::Vector {
                element: Box::new(element),
                span,
            }
        }
        Rule::map => {
            let mut parts = parts(inner);
            let key = field_type(parts.next().expect("key type"));
            let value = field_type(parts.next().expect("value type"));
            TypeExpr::Map {
                key: Box::new(key),
                value: Box::new(value),
                span,
            }
        }
        Rule::record_ref => TypeExpr::Record(qualified_name(inner)),
        r => unreachable!("type {r:?}"),
    }
}

fn qualified_name(pair: Pair<'_, Rule>) -> QualifiedName {
    let span = trimmed_span(&pair);
    let segments = parts(pair).map(ident).collect();
    QualifiedName { segments, span }
}

fn ident(pair: Pair<'_, Rule>) -> Ident {
    Ident {
        text: pair.as_str().to_owned(),
        span: span(&pair),
    }
}
