//! What is at an offset of a file: a record's declaration or a reference to it, a field,
//! an include, a primitive type, a module name.

use super::Analysis;
use crate::model::RecordIndex;
use crate::source::{FileId, Span};
use crate::syntax::ast;

/// Something named at an offset (see [`at`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occurrence {
    /// A class name where it is declared.
    RecordDeclaration {
        /// The record.
        record: RecordIndex,
        /// The class name.
        span: Span,
    },
    /// A record named in a field's type.
    RecordReference {
        /// The record named.
        record: RecordIndex,
        /// The name as written (`Link` or `links.Link`).
        span: Span,
    },
    /// A field: its name, or a part of its type that names no record.
    Field {
        /// The record holding it.
        record: RecordIndex,
        /// Its position in [`crate::Record::fields`].
        field: usize,
        /// The field's name.
        span: Span,
    },
    /// The path of an `include`.
    Include {
        /// The file it led to, if it was found.
        target: Option<FileId>,
        /// The quoted path.
        span: Span,
    },
    /// The name of a module, where a module block declares it.
    Module {
        /// The dotted name.
        name: String,
        /// The name.
        span: Span,
    },
}

fn covers(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

/// What is at byte `offset` of `file` (an offset just past a name counts as on it, as an
/// editor's cursor after a word does). Nothing when the file did not parse, or the offset
/// is on punctuation, a comment or blank space.
pub fn at(analysis: &Analysis, file: FileId, offset: usize) -> Option<Occurrence> {
    let tree = analysis.tree(file)?;
    let mut includes = 0;
    for item in &tree.items {
        match item {
            ast::Item::Include(include) => {
                if covers(include.path_span, offset) {
                    return Some(Occurrence::Include {
                        target: analysis.include_target(file, includes),
                        span: include.path_span,
                    });
                }
                includes += 1;
            }
            ast::Item::Module(module) if covers(module.span, offset) => {
                return in_module(analysis, file, module, offset);
            }
            ast::Item::Module(_) => {}
        }
    }
    None
}

fn in_module(
    analysis: &Analysis,
    file: FileId,
    module: &ast::Module,
    offset: usize,
) -> Option<Occurrence> {
    if covers(module.name.span, offset) {
        return Some(Occurrence::Module {
            name: module.name.to_string(),
            span: module.name.span,
        });
    }
    let class = module.classes.iter().find(|c| covers(c.span, offset))?;
    let record = declared_record(analysis, file, module, class);
    if covers(class.name.span, offset) {
        return record.map(|record| Occurrence::RecordDeclaration {
            record,
            span: class.name.span,
        });
    }
    let field = class.fields.iter().find(|f| covers(f.span, offset))?;
    if let Some(found) = in_type(analysis, file, &field.ty, offset) {
        return Some(found);
    }
    let record = record?;
    let index = analysis
        .model()
        .record(record)
        .fields()
        .iter()
        .position(|f| f.location().span == field.name.span)?;
    Some(Occurrence::Field {
        record,
        field: index,
        span: field.name.span,
    })
}

/// The record `class` declares, unless it is a second declaration of a name (which the
/// model leaves out).
pub(super) fn declared_record(
    analysis: &Analysis,
    file: FileId,
    module: &ast::Module,
    class: &ast::Class,
) -> Option<RecordIndex> {
    let model = analysis.model();
    let r = model.find(&format!("{}.{}", module.name, class.name.text))?;
    let location = model.record(r).location();
    (location.file == file && location.span == class.name.span).then_some(r)
}

/// A record reference at `offset` inside `ty`.
fn in_type(
    analysis: &Analysis,
    file: FileId,
    ty: &ast::TypeExpr,
    offset: usize,
) -> Option<Occurrence> {
    // Iterative: types nest up to `MAX_TYPE_DEPTH` levels.
    let mut ty = ty;
    loop {
        match ty {
            ast::TypeExpr::Primitive { .. } => return None,
            ast::TypeExpr::Record(name) => {
                if !covers(name.span, offset) {
                    return None;
                }
                let reference = analysis
                    .references()
                    .iter()
                    .find(|r| r.file == file && r.span == name.span)?;
                return Some(Occurrence::RecordReference {
                    record: reference.target,
                    span: name.span,
                });
            }
            ast::TypeExpr::Vector { element, .. } => ty = element,
            ast::TypeExpr::Map { key, value, .. } => {
                ty = if covers(key.span(), offset) {
                    key
                } else {
                    value
                };
            }
        }
    }
}
