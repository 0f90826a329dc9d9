//! Collects the records of every module across all files and checks the declarations
//! themselves: duplicate classes and fields, keywords used as names, empty classes and
//! modules.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::model::{Comment, RecordIndex};
use crate::source::{FileId, Location, SourceFile};
use crate::syntax::ast::{self, is_keyword, Ident};

/// A module, merged over every block that declares it.
pub(super) struct ModuleDecl {
    pub name: String,
    pub location: Location,
    pub records: Vec<RecordIndex>,
    /// Of every block, in load order.
    pub comments: Vec<Comment>,
}

/// A record declaration that made it into the symbol table.
pub(super) struct RecordDecl<'a> {
    pub file: FileId,
    pub module: String,
    pub qualified: String,
    pub class: &'a ast::Class,
    /// The comments of the declaring file.
    pub comments: &'a [ast::Comment],
}

/// The symbol table: every record once, by qualified and by simple name.
pub(super) struct Decls<'a> {
    pub modules: Vec<ModuleDecl>,
    pub records: Vec<RecordDecl<'a>>,
    pub by_name: HashMap<String, RecordIndex>,
    pub by_simple: HashMap<&'a str, Vec<RecordIndex>>,
}

fn keyword_name(file: FileId, name: &Ident, what: &str) -> Option<Diagnostic> {
    is_keyword(&name.text).then(|| {
        Diagnostic::error(format!(
            "`{}` is a keyword and cannot name a {what}",
            name.text
        ))
        .primary(file, name.span, "keyword used as a name")
        .help(format!("choose another name, e.g. `{}_`", name.text))
    })
}

/// Builds the symbol table from `parsed` (in include order), reporting bad declarations.
pub(super) fn declare<'a>(
    files: &[SourceFile],
    parsed: &'a [(FileId, Arc<ast::File>)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Decls<'a> {
    let mut decls = Decls {
        modules: Vec::new(),
        records: Vec::new(),
        by_name: HashMap::new(),
        by_simple: HashMap::new(),
    };
    let mut module_index: HashMap<String, usize> = HashMap::new();
    for (file, tree) in parsed {
        let file = *file;
        let source = &files[file.index()];
        for item in &tree.items {
            let ast::Item::Module(module) = item else {
                continue;
            };
            let name = module.name.to_string();
            for segment in &module.name.segments {
                diagnostics.extend(keyword_name(file, segment, "module"));
            }
            if module.classes.is_empty() {
                diagnostics.push(
                    Diagnostic::error(format!("module `{name}` declares no classes"))
                        .primary(file, module.name.span, "empty module")
                        .help("declare at least one class in it, as Hadoop's rcc requires"),
                );
            }
            let m = *module_index.entry(name.clone()).or_insert_with(|| {
                decls.modules.push(ModuleDecl {
                    name: name.clone(),
                    location: source.location(module.name.span),
                    records: Vec::new(),
                    comments: Vec::new(),
                });
                decls.modules.len() - 1
            });
            decls.modules[m].comments.extend(Comment::attached(
                source,
                &tree.comments,
                &module.comments,
            ));
            for class in &module.classes {
                check_class(file, class, diagnostics);
                let qualified = format!("{name}.{}", class.name.text);
                if let Some(&first) = decls.by_name.get(&qualified) {
                    let first = &decls.records[first.index()];
                    diagnostics.push(
                        Diagnostic::error(format!(
                            "class `{}` is declared twice in module `{name}`",
                            class.name.text
                        ))
                        .primary(file, class.name.span, "declared again here")
                        .secondary(first.file, first.class.name.span, "first declared here")
                        .help("rename or remove one of them (Hadoop's rcc would silently keep the last)"),
                    );
                    continue;
                }
                let index = RecordIndex::new(decls.records.len());
                decls.by_name.insert(qualified.clone(), index);
                decls
                    .by_simple
                    .entry(class.name.text.as_str())
                    .or_default()
                    .push(index);
                decls.modules[m].records.push(index);
                decls.records.push(RecordDecl {
                    file,
                    module: name.clone(),
                    qualified,
                    class,
                    comments: &tree.comments,
                });
            }
        }
    }
    decls
}

/// Checks one class on its own: its name, that it has fields, that they are unique.
fn check_class(file: FileId, class: &ast::Class, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.extend(keyword_name(file, &class.name, "class"));
    if class.fields.is_empty() {
        diagnostics.push(
            Diagnostic::error(format!("class `{}` has no fields", class.name.text))
                .primary(file, class.name.span, "empty class")
                .help("declare at least one field, as Hadoop's rcc requires"),
        );
    }
    let mut seen: HashMap<&str, &Ident> = HashMap::new();
    for field in &class.fields {
        diagnostics.extend(keyword_name(file, &field.name, "field"));
        if let Some(first) = seen.get(field.name.text.as_str()) {
            diagnostics.push(
                Diagnostic::error(format!(
                    "field `{}` is declared twice in class `{}`",
                    field.name.text, class.name.text
                ))
                .primary(file, field.name.span, "declared again here")
                .secondary(file, first.span, "first declared here")
                .help("rename or remove one of them"),
            );
        } else {
            seen.insert(&field.name.text, &field.name);
        }
    }
}
