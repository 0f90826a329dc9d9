//! Where a record is named: its declaration and every field type that names it.

use super::Analysis;
use crate::model::RecordIndex;
use crate::source::{FileId, Span};

/// Every place that names record `r`, as the span of its simple name (the `Link` of
/// `links.Link`, which a rename replaces): the declaration first, then the references in
/// the order of [`Analysis::references`].
pub fn occurrences(analysis: &Analysis, r: RecordIndex) -> Vec<(FileId, Span)> {
    let record = analysis.model().record(r);
    let declaration = record.location();
    let len = record.name().len();
    std::iter::once((declaration.file, declaration.span))
        .chain(
            analysis
                .references()
                .iter()
                .filter(|reference| reference.target == r)
                .map(|reference| {
                    let end = reference.span.end;
                    (reference.file, Span::new(end.saturating_sub(len), end))
                }),
        )
        .collect()
}
