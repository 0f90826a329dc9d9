//! What `rcc check` reports, as LSP diagnostics: each on the file its primary label points
//! at (an error in an included file is published on that file), with the same message,
//! its `help:` and `note:` lines, and the exact range; compatibility warnings as warnings.

use std::collections::{BTreeMap, HashMap};

use hadoop_record_compiler::query::Analysis;
use hadoop_record_compiler::{Diagnostic, Severity};
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, Position, Range, Url};

use super::documents::{Uris, World};
use super::position::LineIndex;

/// The diagnostics of every file the open documents' analyses report on, by URI. A
/// diagnostic that several analyses report (an error in a file two documents include) is
/// there once.
pub(crate) fn collect(world: &World) -> HashMap<Url, Vec<lsp_types::Diagnostic>> {
    let mut out: HashMap<Url, Vec<lsp_types::Diagnostic>> = HashMap::new();
    // Sorted so that the order of the published list does not depend on hashing.
    let documents: BTreeMap<_, _> = world.documents.iter().collect();
    for document in documents.values() {
        let analysis = &document.analysis;
        let mut indexes = HashMap::new();
        for diagnostic in analysis.diagnostics() {
            let Some((uri, converted)) =
                convert(world, analysis, diagnostic, &document.uri, &mut indexes)
            else {
                continue;
            };
            let list = out.entry(uri).or_default();
            if !list.contains(&converted) {
                list.push(converted);
            }
        }
    }
    out
}

/// `diagnostic` as an LSP diagnostic and the URI to publish it on; one without a place
/// goes on `root`, at its start.
fn convert<'a>(
    world: &World,
    analysis: &'a Analysis,
    diagnostic: &Diagnostic,
    root: &Url,
    indexes: &mut HashMap<usize, LineIndex<'a>>,
) -> Option<(Url, lsp_types::Diagnostic)> {
    let model = analysis.model();
    let mut place = |file: hadoop_record_compiler::FileId, span| {
        let source = model.file(file);
        let uri = world.uri(source.canonical_path())?;
        let index = indexes
            .entry(file.index())
            .or_insert_with(|| LineIndex::new(source.text()));
        Some((uri, index.range(span)))
    };
    let (uri, range) = match diagnostic.primary_label() {
        Some(label) => place(label.file(), label.span())?,
        None => (
            root.clone(),
            Range::new(Position::new(0, 0), Position::new(0, 0)),
        ),
    };
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels()
        .iter()
        .filter(|l| !l.is_primary())
        .filter_map(|l| {
            let (uri, range) = place(l.file(), l.span())?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri, range),
                message: l.message().to_owned(),
            })
        })
        .collect();
    let mut message = diagnostic.message().to_owned();
    for note in diagnostic.notes() {
        message.push('\n');
        message.push_str(note);
    }
    Some((
        uri,
        lsp_types::Diagnostic {
            range,
            severity: Some(match diagnostic.severity() {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            source: Some("rcc".to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Default::default()
        },
    ))
}
