//! The canonical layout (docs/format.md): the walk over the syntax tree that hands each
//! token to the [`Printer`] with where it stood and how it is separated from the token
//! before it.

use super::printer::{Line, Printer, Sep};
use crate::syntax::ast::{
    Braces, Class, Field, File, Include, Item, Module, QualifiedName, TypeExpr,
};

/// A whole file: a blank line between a module and what is next to it, includes as grouped.
pub(super) fn file(p: &mut Printer<'_>, file: &File) {
    let mut previous: Option<&Item> = None;
    for item in &file.items {
        let line = match previous {
            None => Line::first(0),
            Some(before) if is_module(before) || is_module(item) => Line::apart(0),
            Some(_) => Line::next(0),
        };
        match item {
            Item::Include(i) => include(p, i, line),
            Item::Module(m) => module(p, m, line),
        }
        previous = Some(item);
    }
}

fn is_module(item: &Item) -> bool {
    matches!(item, Item::Module(_))
}

/// `include "path"`.
fn include(p: &mut Printer<'_>, include: &Include, line: Line) {
    p.token("include", include.span.start, Sep::Line(line));
    let path = format!("\"{}\"", include.path);
    p.token(&path, include.path_span.start, Sep::Space);
}

/// `module a.b {`, its classes one level in, `}`.
pub(super) fn module(p: &mut Printer<'_>, module: &Module, line: Line) {
    let name = |p: &mut Printer<'_>| name(p, &module.name, Sep::Space);
    let header = ("module", module.span.start, name);
    block(p, line, header, module.braces, &module.classes, class);
}

/// `class Name {`, its fields one level in, `}`.
pub(super) fn class(p: &mut Printer<'_>, class: &Class, line: Line) {
    let name = |p: &mut Printer<'_>| p.token(&class.name.text, class.name.span.start, Sep::Space);
    let header = ("class", class.span.start, name);
    block(p, line, header, class.braces, &class.fields, field);
}

/// A module or class: `keyword` (at `start` in the source), the name `name` prints, `{`,
/// each of `items` one level in, `}` (a `;` after it is dropped).
fn block<T>(
    p: &mut Printer<'_>,
    line: Line,
    (keyword, start, name): (&str, usize, impl FnOnce(&mut Printer<'_>)),
    braces: Braces,
    items: &[T],
    item: fn(&mut Printer<'_>, &T, Line),
) {
    p.token(keyword, start, Sep::Line(line));
    name(p);
    p.token("{", braces.open.start, Sep::Space);
    let indent = line.indent() + 1;
    for (i, it) in items.iter().enumerate() {
        item(p, it, block_line(i, indent));
    }
    p.token(
        "}",
        braces.close.start,
        Sep::Line(Line::close(line.indent())),
    );
}

/// The line of the `i`th declaration of a block at `indent`.
fn block_line(i: usize, indent: usize) -> Line {
    if i == 0 {
        Line::first(indent)
    } else {
        Line::next(indent)
    }
}

/// `type name;`
fn field(p: &mut Printer<'_>, field: &Field, line: Line) {
    ty(p, &field.ty, Sep::Line(line));
    p.token(&field.name.text, field.name.span.start, Sep::Space);
    p.token(";", field.span.end.saturating_sub(1), Sep::Glue);
}

/// `int`, `vector<T>`, `map<K, V>` or a record's name.
fn ty(p: &mut Printer<'_>, ty: &TypeExpr, sep: Sep) {
    match ty {
        TypeExpr::Primitive { kind, span } => p.token(kind.keyword(), span.start, sep),
        TypeExpr::Vector { element, span } => {
            p.token("vector", span.start, sep);
            p.token("<", p.token_after(span.start + "vector".len()), Sep::Glue);
            self::ty(p, element, Sep::Glue);
            p.token(">", span.end.saturating_sub(1), Sep::Glue);
        }
        TypeExpr::Map { key, value, span } => {
            p.token("map", span.start, sep);
            p.token("<", p.token_after(span.start + "map".len()), Sep::Glue);
            self::ty(p, key, Sep::Glue);
            p.token(",", p.token_after(key.span().end), Sep::Glue);
            self::ty(p, value, Sep::Space);
            p.token(">", span.end.saturating_sub(1), Sep::Glue);
        }
        TypeExpr::Record(record) => name(p, record, sep),
    }
}

/// `a.b.c`
fn name(p: &mut Printer<'_>, name: &QualifiedName, sep: Sep) {
    let mut sep = sep;
    let mut end = None;
    for segment in &name.segments {
        if let Some(end) = end {
            p.token(".", p.token_after(end), Sep::Glue);
        }
        p.token(&segment.text, segment.span.start, sep);
        sep = Sep::Glue;
        end = Some(segment.span.end);
    }
}
