//! Hover: a field's DDL type, comment and its Rust, Java and C++ types; a record's
//! qualified name, comment and generated types; where an include leads.

use std::fmt::Write;

use hadoop_record_compiler::backend::{Api, FieldApi, RecordApi};
use hadoop_record_compiler::query::{Analysis, Occurrence};
use hadoop_record_compiler::{Model, RecordIndex, Span};

/// The generated code's names, per back end, for record `r`.
fn generated(apis: &Api, model: &Model, r: RecordIndex) -> [(&'static str, RecordApi); 3] {
    [
        ("Rust", apis.rust(model, r)),
        ("Java", apis.java(model, r)),
        ("C++", apis.cpp(model, r)),
    ]
}

/// What to show for `occurrence`, as Markdown, and the span it is about.
pub(crate) fn hover(analysis: &Analysis, apis: &Api, occurrence: &Occurrence) -> (String, Span) {
    let model = analysis.model();
    match occurrence {
        Occurrence::RecordDeclaration { record, span }
        | Occurrence::RecordReference { record, span } => {
            (record_hover(model, apis, *record), *span)
        }
        Occurrence::Field {
            record,
            field,
            span,
        } => (field_hover(model, apis, *record, *field), *span),
        Occurrence::Include { target, span } => {
            let text = match target {
                Some(file) => format!("includes `{}`", model.file(*file).path().display()),
                None => "included file not found".to_owned(),
            };
            (text, *span)
        }
        Occurrence::Module { name, span } => {
            let records = model.module(name).map_or(0, |m| m.records().len());
            (
                format!(
                    "module `{name}`: {records} record{}",
                    if records == 1 { "" } else { "s" }
                ),
                *span,
            )
        }
    }
}

/// A declaration's comment (the bodies of the comments next to it), if it has one.
fn comment(doc: String) -> Option<String> {
    (!doc.is_empty()).then_some(doc)
}

fn record_hover(model: &Model, apis: &Api, r: RecordIndex) -> String {
    let record = model.record(r);
    let mut out = format!("```ddl\nclass {}\n```\n", record.qualified_name(),);
    if let Some(comment) = comment(record.doc()) {
        let _ = write!(out, "\n{comment}\n");
    }
    let _ = write!(
        out,
        "\n{} field{}, declared at `{}`\n\n",
        record.fields().len(),
        if record.fields().len() == 1 { "" } else { "s" },
        record.location()
    );
    for (language, api) in generated(apis, model, r) {
        let _ = writeln!(out, "- {language}: `{}`", api.path);
    }
    out
}

fn field_hover(model: &Model, apis: &Api, r: RecordIndex, index: usize) -> String {
    let record = model.record(r);
    let field = &record.fields()[index];
    let mut out = format!(
        "```ddl\n{} {}\n```\nfield of `{}`\n",
        model.type_to_string(field.ty()),
        field.name(),
        record.qualified_name()
    );
    // The field's own comment: the record's is on the record's hover.
    if let Some(comment) = comment(field.doc()) {
        let _ = write!(out, "\n{comment}\n");
    }
    out.push('\n');
    for (language, api) in generated(apis, model, r) {
        let Some(FieldApi {
            member,
            ty,
            accessors,
        }) = api.fields.get(index)
        else {
            continue;
        };
        let _ = write!(out, "- {language}: `{ty}` (`{member}`");
        for accessor in accessors {
            let _ = write!(out, ", `{accessor}`");
        }
        out.push_str(")\n");
    }
    out
}
