//! Resolves field types. A dotted name is fully qualified; a simple name is looked up in
//! the current module, then as the one record of that name anywhere in the compilation
//! (the extension the documentation's `testrec.jr` needs). Declaration order does not
//! matter.

use super::declare::{Decls, RecordDecl};
use super::suggest;
use crate::diagnostics::{listing, Diagnostic};
use crate::model::{Field, Record, RecordIndex, Type};
use crate::source::{FileId, SourceFile};
use crate::syntax::ast::{is_keyword, Primitive, QualifiedName, TypeExpr};

/// The records of `decls` with resolved field types; unresolved fields are left out and,
/// when the set of files is `complete`, reported.
pub(super) fn resolve(
    files: &[SourceFile],
    decls: &Decls<'_>,
    complete: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Record> {
    let mut records = Vec::with_capacity(decls.records.len());
    for decl in &decls.records {
        let source = &files[decl.file.index()];
        let resolver = Resolver { decls, decl };
        let mut fields = Vec::with_capacity(decl.class.fields.len());
        for field in &decl.class.fields {
            match resolver.ty(&field.ty) {
                Ok(ty) => fields.push(Field {
                    name: field.name.text.clone(),
                    ty,
                    location: source.location(field.name.span),
                    type_location: source.location(field.ty.span()),
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
        });
    }
    records
}

struct Resolver<'d, 'a> {
    decls: &'d Decls<'a>,
    decl: &'d RecordDecl<'a>,
}

impl Resolver<'_, '_> {
    fn file(&self) -> FileId {
        self.decl.file
    }

    fn ty(&self, ty: &TypeExpr) -> Result<Type, Diagnostic> {
        Ok(match ty {
            TypeExpr::Primitive { kind, .. } => Type::Primitive(*kind),
            TypeExpr::Vector { element, .. } => Type::Vector(Box::new(self.ty(element)?)),
            TypeExpr::Map { key, value, .. } => {
                Type::Map(Box::new(self.ty(key)?), Box::new(self.ty(value)?))
            }
            TypeExpr::Record(name) => Type::Record(self.record(name)?),
        })
    }

    fn record(&self, name: &QualifiedName) -> Result<RecordIndex, Diagnostic> {
        let text = name.to_string();
        if name.is_qualified() {
            return self
                .decls
                .by_name
                .get(&text)
                .copied()
                .ok_or_else(|| self.unknown(name, &text));
        }
        let local = format!("{}.{text}", self.decl.module);
        if let Some(&index) = self.decls.by_name.get(&local) {
            return Ok(index);
        }
        match self.decls.by_simple.get(text.as_str()).map(Vec::as_slice) {
            Some(&[one]) => Ok(one),
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
