//! Resolves field types. A dotted name is fully qualified; a simple name is looked up in
//! the current module, then as the one record of that name anywhere in the compilation
//! (the extension the documentation's `testrec.jr` needs). Declaration order does not
//! matter.

use super::declare::{Decls, RecordDecl};
use super::suggest;
use crate::diagnostics::{listing, Diagnostic};
use crate::model::{Comment, Field, Record, RecordIndex, Type};
use crate::source::{FileId, SourceFile, Span};
use crate::syntax::ast::{is_keyword, Primitive, QualifiedName, TypeExpr};

/// How a record name was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// A dotted name, fully qualified.
    Qualified,
    /// A simple name of a record of the current module.
    InModule,
    /// A simple name of the only record of that name, in another module (an extension).
    Elsewhere,
}

/// A record named in a field's type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reference {
    pub target: RecordIndex,
    pub file: FileId,
    /// The name as written.
    pub span: Span,
    pub found: Found,
}

/// The records of `decls` with resolved field types, and for each record the records its
/// fields name, in source order. Unresolved fields are left out and, when the set of
/// files is `complete`, reported.
pub(super) fn resolve(
    files: &[SourceFile],
    decls: &Decls<'_>,
    complete: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Record>, Vec<Vec<Reference>>) {
    let mut records = Vec::with_capacity(decls.records.len());
    let mut references = Vec::with_capacity(decls.records.len());
    for decl in &decls.records {
        let source = &files[decl.file.index()];
        let resolver = Resolver { decls, decl };
        let mut fields = Vec::with_capacity(decl.class.fields.len());
        let mut named = Vec::new();
        for field in &decl.class.fields {
            match resolver.ty(&field.ty, &mut named) {
                Ok(ty) => fields.push(Field {
                    name: field.name.text.clone(),
                    ty,
                    location: source.location(field.name.span),
                    type_location: source.location(field.ty.span()),
                    comments: Comment::attached(source, decl.comments, &field.comments),
                }),
                Err(d) if complete => diagnostics.push(d),
                Err(_) => {}
            }
        }
        records.push(Record {
            name: decl.class.name.text.clone(),
            module: decl.module.clone(),
            qualified_name: decl.qualified.clone(),
            fields,
            location: source.location(decl.class.name.span),
            in_root_file: source.is_root(),
            comments: Comment::attached(source, decl.comments, &decl.class.comments),
        });
        references.push(named);
    }
    (records, references)
}

struct Resolver<'d, 'a> {
    decls: &'d Decls<'a>,
    decl: &'d RecordDecl<'a>,
}

impl Resolver<'_, '_> {
    fn file(&self) -> FileId {
        self.decl.file
    }

    /// The type `ty` stands for; the records it names are appended to `named`.
    fn ty(&self, ty: &TypeExpr, named: &mut Vec<Reference>) -> Result<Type, Diagnostic> {
        Ok(match ty {
            TypeExpr::Primitive { kind, .. } => Type::Primitive(*kind),
            TypeExpr::Vector { element, .. } => Type::Vector(Box::new(self.ty(element, named)?)),
            TypeExpr::Map { key, value, .. } => {
                let key = self.ty(key, named)?;
                Type::Map(Box::new(key), Box::new(self.ty(value, named)?))
            }
            TypeExpr::Record(name) => {
                let (target, found) = self.record(name)?;
                named.push(Reference {
                    target,
                    file: self.file(),
                    span: name.span,
                    found,
                });
                Type::Record(target)
            }
        })
    }

    fn record(&self, name: &QualifiedName) -> Result<(RecordIndex, Found), Diagnostic> {
        let text = name.to_string();
        if name.is_qualified() {
            return match self.decls.by_name.get(&text) {
                Some(&index) => Ok((index, Found::Qualified)),
                None => Err(self.unknown(name, &text)),
            };
        }
        let local = format!("{}.{text}", self.decl.module);
        if let Some(&index) = self.decls.by_name.get(&local) {
            return Ok((index, Found::InModule));
        }
        match self.decls.by_simple.get(text.as_str()).map(Vec::as_slice) {
            Some(&[one]) => Ok((one, Found::Elsewhere)),
            Some(many) if !many.is_empty() => Err(self.ambiguous(name, &text, many)),
            _ => Err(self.unknown(name, &text)),
        }
    }

    /// Whether `record` can be named by its simple name from the current module.
    fn simple_name_works(&self, record: &RecordDecl<'_>) -> bool {
        record.module == self.decl.module
            || self
                .decls
                .by_simple
                .get(record.class.name.text.as_str())
                .is_some_and(|v| v.len() == 1)
    }

    fn unknown(&self, name: &QualifiedName, text: &str) -> Diagnostic {
        let mut d = Diagnostic::error(format!("unknown type `{text}`")).primary(
            self.file(),
            name.span,
            "not a primitive type or a declared record",
        );
        if is_keyword(text) {
            return d.help(format!("`{text}` is a keyword of the DDL, not a type"));
        }
        if let Some(ddl) = suggest::ddl_name_for(text) {
            return d.help(format!("the DDL spells this type `{ddl}`"));
        }
        let suggestion = if name.is_qualified() {
            suggest::closest(
                text,
                self.decls
                    .records
                    .iter()
                    .map(|r| (r.qualified.as_str(), r.qualified.as_str())),
            )
        } else {
            let records = self.decls.records.iter().map(|r| {
                let shown = if self.simple_name_works(r) {
                    r.class.name.text.as_str()
                } else {
                    r.qualified.as_str()
                };
                (r.class.name.text.as_str(), shown)
            });
            let primitives = Primitive::ALL.iter().map(|p| (p.keyword(), p.keyword()));
            suggest::closest(text, primitives.chain(records))
        };
        if let Some(s) = suggestion {
            d = d.help(format!("did you mean `{s}`?"));
        } else if let Some(same) = self.decls.by_simple.get(name.last().text.as_str()) {
            // `wrong.module.Point` when a `Point` exists elsewhere.
            let names: Vec<String> = same
                .iter()
                .map(|&i| format!("`{}`", self.decls.records[i.index()].qualified))
                .collect();
            d = d.help(format!("records of that name: {}", listing(&names, ", ")));
        } else if !name.is_qualified() {
            d = d.note(format!(
                "a simple name means a record of module `{}`, or the only record of that name in any file read",
                self.decl.module
            ));
        }
        d
    }

    fn ambiguous(
        &self,
        name: &QualifiedName,
        text: &str,
        candidates: &[RecordIndex],
    ) -> Diagnostic {
        let mut d = Diagnostic::error(format!("ambiguous record name `{text}`")).primary(
            self.file(),
            name.span,
            format!(
                "`{text}` is not in module `{}`, and {} modules declare it",
                self.decl.module,
                candidates.len()
            ),
        );
        let mut names = Vec::new();
        for &index in candidates {
            let r = &self.decls.records[index.index()];
            d = d.secondary(r.file, r.class.name.span, format!("`{}`", r.qualified));
            names.push(format!("`{}`", r.qualified));
        }
        d.help(format!("use a qualified name: {}", listing(&names, " or ")))
    }
}
