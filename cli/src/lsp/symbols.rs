//! Document symbols (an outline of modules, classes and fields) and workspace symbols
//! (every module, class and field of every DDL file known, matched against a query: a
//! walk, on a worker thread).

use hadoop_record_compiler::query::{self, OutlineItem, OutlineKind};
use lsp_server::ResponseError;
use lsp_types::{DocumentSymbol, Location, SymbolInformation, SymbolKind};

use super::documents::Uris;
use super::jobs::Cancel;
use super::position::LineIndex;
use super::workspace::Workspace;

fn kind(kind: OutlineKind) -> SymbolKind {
    match kind {
        OutlineKind::Module => SymbolKind::MODULE,
        OutlineKind::Class => SymbolKind::CLASS,
        OutlineKind::Field => SymbolKind::FIELD,
    }
}

/// The outline of a file, as nested symbols.
pub(crate) fn document_symbols(
    items: &[OutlineItem],
    index: &LineIndex<'_>,
) -> Vec<DocumentSymbol> {
    items
        .iter()
        .map(|item| {
            #[allow(deprecated)] // `deprecated` must still be given
            DocumentSymbol {
                name: item.name.clone(),
                detail: item.detail.clone(),
                kind: kind(item.kind),
                tags: None,
                deprecated: None,
                range: index.range(item.span),
                selection_range: index.range(item.name_span),
                children: (!item.children.is_empty())
                    .then(|| document_symbols(&item.children, index)),
            }
        })
        .collect()
}

/// Whether the characters of `query` appear in `name` in order, ignoring case (as editors
/// match symbol queries).
fn matches(query: &str, name: &str) -> bool {
    let mut name = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| name.any(|c| c == q))
}

/// The modules, classes (by qualified name) and fields of every known file that match
/// `query`. Files that do not parse add nothing.
pub(crate) fn workspace_symbols(
    workspace: &Workspace,
    query: &str,
    cancel: &Cancel,
) -> Result<Vec<SymbolInformation>, ResponseError> {
    let mut out = Vec::new();
    let files = workspace.known_files(cancel)?;
    let mut cache = workspace.cache();
    for key in files {
        cancel.check()?;
        let (Some(text), Some(uri)) = (workspace.text(&key), workspace.uri(&key)) else {
            continue;
        };
        let Ok(tree) = cache.parse(&key, &text) else {
            continue;
        };
        let index = LineIndex::new(&text);
        let mut add = |item: &OutlineItem, name: String, container: Option<String>| {
            if matches(query, &name) {
                #[allow(deprecated)] // `deprecated` must still be given
                out.push(SymbolInformation {
                    name,
                    kind: kind(item.kind),
                    tags: None,
                    deprecated: None,
                    location: Location::new(uri.clone(), index.range(item.name_span)),
                    container_name: container,
                });
            }
        };
        for module in query::outline(&tree) {
            add(&module, module.name.clone(), None);
            for class in &module.children {
                let qualified = format!("{}.{}", module.name, class.name);
                add(class, qualified.clone(), Some(module.name.clone()));
                for field in &class.children {
                    add(field, field.name.clone(), Some(qualified.clone()));
                }
            }
        }
    }
    Ok(out)
}
