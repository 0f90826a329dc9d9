//! The outline of a file: its modules, their classes, their fields.

use crate::source::Span;
use crate::syntax::ast;

/// What an [`OutlineItem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutlineKind {
    /// `module a.b { … }`
    Module,
    /// `class X { … }`
    Class,
    /// `type name;`
    Field,
}

/// One declaration of a file, with the declarations inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineItem {
    /// Module, class or field.
    pub kind: OutlineKind,
    /// The name as declared (dotted for a module).
    pub name: String,
    /// A field's type as written in canonical DDL; a class's module.
    pub detail: Option<String>,
    /// The whole declaration.
    pub span: Span,
    /// The name.
    pub name_span: Span,
    /// Classes of a module, fields of a class.
    pub children: Vec<OutlineItem>,
}

/// The modules of `tree`, in source order, with their classes and fields.
pub fn outline(tree: &ast::File) -> Vec<OutlineItem> {
    tree.items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Module(m) => Some(m),
            ast::Item::Include(_) => None,
        })
        .map(|module| {
            let module_name = module.name.to_string();
            let classes = module
                .classes
                .iter()
                .map(|class| OutlineItem {
                    kind: OutlineKind::Class,
                    name: class.name.text.clone(),
                    detail: Some(module_name.clone()),
                    span: class.span,
                    name_span: class.name.span,
                    children: class
                        .fields
                        .iter()
                        .map(|field| OutlineItem {
                            kind: OutlineKind::Field,
                            name: field.name.text.clone(),
                            detail: Some(field.ty.to_string()),
                            span: field.span,
                            name_span: field.name.span,
                            children: Vec::new(),
                        })
                        .collect(),
                })
                .collect();
            OutlineItem {
                kind: OutlineKind::Module,
                name: module_name,
                detail: None,
                span: module.span,
                name_span: module.name.span,
                children: classes,
            }
        })
        .collect()
}
