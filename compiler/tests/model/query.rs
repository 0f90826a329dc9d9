//! `hadoop_record_compiler::query`: what is at an offset, where records are named, rename
//! edits and refusals, completion, outlines, and analyses of broken input.

use std::path::{Path, PathBuf};

use hadoop_record_compiler::query::rename::{rename, RenameTarget};
use hadoop_record_compiler::query::{
    self, Analysis, CompletionKind, Occurrence, OutlineKind, RecordKey,
};
use hadoop_record_compiler::{FileId, LoadOptions, MemoryFileSystem, ParseCache, Span};

const COMMON: &str = "\
module common {
    class Point { int x; int y; }
}
";

const SHAPES: &str = "\
include \"common.jr\"
module shapes {
    class Polygon {
        vector<common.Point> corners;
        ustring name;
    }
    class Scene { map<ustring, Polygon> byName; common.Point origin; }
}
";

fn workspace() -> MemoryFileSystem {
    let mut fs = MemoryFileSystem::new();
    fs.insert("common.jr", COMMON);
    fs.insert("shapes.jr", SHAPES);
    fs
}

fn analyze(fs: &MemoryFileSystem, root: &str) -> Analysis {
    query::analyze(fs, &[root], &LoadOptions::default(), &mut ParseCache::new())
}

fn file(analysis: &Analysis, path: &str) -> FileId {
    analysis.file_id(Path::new(path)).unwrap()
}

/// The offset of the `n`th (from 0) `needle` in `text`, plus `plus`.
fn offset(text: &str, needle: &str, n: usize, plus: usize) -> usize {
    text.match_indices(needle).nth(n).unwrap().0 + plus
}

fn text_at(text: &str, span: Span) -> &str {
    &text[span.range()]
}

#[test]
fn at_finds_references_declarations_fields_includes_and_primitives() {
    let fs = workspace();
    let a = analyze(&fs, "shapes.jr");
    assert!(a.diagnostics().is_empty());
    let shapes = file(&a, "shapes.jr");
    let model = a.model();

    // A qualified reference, also with the cursor just past it.
    for at in [
        offset(SHAPES, "common.Point", 0, 0),
        offset(SHAPES, "common.Point", 0, 9),
        offset(SHAPES, "common.Point", 0, 12),
    ] {
        let Some(Occurrence::RecordReference { record, span }) = query::at(&a, shapes, at) else {
            panic!("no reference at {at}");
        };
        assert_eq!(model.record(record).qualified_name(), "common.Point");
        assert_eq!(text_at(SHAPES, span), "common.Point");
    }
    // A simple name inside a map.
    let Some(Occurrence::RecordReference { record, .. }) =
        query::at(&a, shapes, offset(SHAPES, "Polygon>", 0, 2))
    else {
        panic!("no reference in the map");
    };
    assert_eq!(model.record(record).qualified_name(), "shapes.Polygon");
    // The declaration.
    let Some(Occurrence::RecordDeclaration { record, span }) =
        query::at(&a, shapes, offset(SHAPES, "Scene", 0, 1))
    else {
        panic!("no declaration");
    };
    assert_eq!(model.record(record).qualified_name(), "shapes.Scene");
    assert_eq!(text_at(SHAPES, span), "Scene");
    // A field, by its name.
    let Some(Occurrence::Field {
        record,
        field,
        span,
    }) = query::at(&a, shapes, offset(SHAPES, "byName", 0, 3))
    else {
        panic!("no field");
    };
    assert_eq!(model.record(record).fields()[field].name(), "byName");
    assert_eq!(text_at(SHAPES, span), "byName");
    // A primitive stands for its field; the include, the module name; nothing on
    // punctuation.
    assert!(matches!(
        query::at(&a, shapes, offset(SHAPES, "ustring name", 0, 2)),
        Some(Occurrence::Field { span, .. }) if text_at(SHAPES, span) == "name"
    ));
    let Some(Occurrence::Include { target, .. }) = query::at(&a, shapes, 10) else {
        panic!("no include");
    };
    assert_eq!(model.file(target.unwrap()).path(), Path::new("common.jr"));
    assert!(matches!(
        query::at(&a, shapes, offset(SHAPES, "shapes", 0, 0)),
        Some(Occurrence::Module { name, .. }) if name == "shapes"
    ));
    assert_eq!(query::at(&a, shapes, offset(SHAPES, "{", 1, 0) + 1), None);
}

#[test]
fn occurrences_cover_the_simple_name_of_every_reference() {
    let fs = workspace();
    let a = analyze(&fs, "shapes.jr");
    let point = a.model().find("common.Point").unwrap();
    let found: Vec<(String, &str)> = query::occurrences(&a, point)
        .into_iter()
        .map(|(f, span)| {
            let text = a.model().file(f).text();
            (
                a.model().file(f).path().display().to_string(),
                &text[span.range()],
            )
        })
        .map(|(p, t)| (p, if t == "Point" { "Point" } else { "?" }))
        .collect();
    assert_eq!(
        found,
        [
            ("common.jr".to_owned(), "Point"),
            ("shapes.jr".to_owned(), "Point"),
            ("shapes.jr".to_owned(), "Point"),
        ]
    );
}

#[test]
fn a_broken_file_still_answers_for_what_parsed() {
    let mut fs = workspace();
    // An unknown type: an error, but the rest resolves.
    fs.insert(
        "shapes.jr",
        SHAPES.replace("ustring name;", "Nope name;").as_str(),
    );
    let a = analyze(&fs, "shapes.jr");
    assert!(a.has_errors());
    assert_eq!(a.diagnostics()[0].message(), "unknown type `Nope`");
    let shapes = file(&a, "shapes.jr");
    assert!(matches!(
        query::at(&a, shapes, offset(SHAPES, "common.Point", 1, 8)),
        Some(Occurrence::RecordReference { .. })
    ));
    // A syntax error: diagnostics, and no tree for that file.
    fs.insert("shapes.jr", "module shapes { class Half { int");
    let a = analyze(&fs, "shapes.jr");
    assert_eq!(a.diagnostics().len(), 1);
    assert!(a.tree(file(&a, "shapes.jr")).is_none());
}

#[test]
fn the_parse_cache_keeps_unchanged_files() {
    let mut fs = workspace();
    let mut cache = ParseCache::new();
    let options = LoadOptions::default();
    let first = query::analyze(&fs, &["shapes.jr"], &options, &mut cache);
    fs.insert("shapes.jr", SHAPES.replace("name;", "title;").as_str());
    let second = query::analyze(&fs, &["shapes.jr"], &options, &mut cache);
    let tree = |a: &Analysis, p: &str| a.tree(file(a, p)).unwrap() as *const _;
    // The same tree object for the unchanged include, a new one for the edited file.
    assert_eq!(tree(&first, "common.jr"), tree(&second, "common.jr"));
    assert_ne!(tree(&first, "shapes.jr"), tree(&second, "shapes.jr"));
    assert!(second.model().get("shapes.Polygon").unwrap().fields()[1].name() == "title");
}

fn key(path: &str, name: &str) -> RecordKey {
    RecordKey {
        file: PathBuf::from(path),
        qualified_name: name.to_owned(),
    }
}

fn renamed(
    fs: &MemoryFileSystem,
    roots: &[&str],
    target: &RenameTarget,
    new: &str,
) -> Result<Vec<(String, usize)>, String> {
    let edits = rename(
        fs,
        roots,
        &LoadOptions::default(),
        &mut ParseCache::new(),
        target,
        new,
    )
    .map_err(|e| e.0)?;
    Ok(edits
        .iter()
        .flat_map(|(p, spans)| {
            spans
                .iter()
                .map(move |s| (p.display().to_string(), s.start))
        })
        .collect())
}

#[test]
fn renaming_a_record_edits_every_file_that_names_it() {
    let fs = workspace();
    let target = RenameTarget::Record(key("common.jr", "common.Point"));
    let edits = renamed(&fs, &["common.jr", "shapes.jr"], &target, "Vertex").unwrap();
    assert_eq!(
        edits,
        [
            ("common.jr".to_owned(), offset(COMMON, "Point", 0, 0)),
            ("shapes.jr".to_owned(), offset(SHAPES, "Point", 0, 0)),
            ("shapes.jr".to_owned(), offset(SHAPES, "Point", 1, 0)),
        ]
    );
    // Target-language keywords are escaped by every back end, so they are fine.
    for name in ["type", "self", "delete", "package", "String"] {
        assert!(
            renamed(&fs, &["shapes.jr"], &target, name).is_ok(),
            "{name}"
        );
    }
}

#[test]
fn renames_that_would_change_the_ddl_are_refused() {
    let fs = workspace();
    let point = RenameTarget::Record(key("common.jr", "common.Point"));
    let polygon = RenameTarget::Record(key("shapes.jr", "shapes.Polygon"));
    let field = RenameTarget::Field {
        record: key("shapes.jr", "shapes.Polygon"),
        field: "name".into(),
    };
    let refused =
        |target: &RenameTarget, new: &str| renamed(&fs, &["shapes.jr"], target, new).unwrap_err();
    assert_eq!(
        refused(&polygon, "Scene"),
        "module `shapes` already has a record `Scene`, at shapes.jr:7:11"
    );
    assert_eq!(
        refused(&field, "corners"),
        "record `shapes.Polygon` already has a field `corners`, at shapes.jr:4:30"
    );
    assert_eq!(
        refused(&point, "class"),
        "`class` is a keyword of the DDL and cannot name a record or field"
    );
    assert!(refused(&point, "2d").starts_with("`2d` is not a DDL name"));
    assert!(refused(&point, "a.b").starts_with("`a.b` is not a DDL name"));

    // A simple name that finds a record of another module would find the renamed one.
    let mut fs = MemoryFileSystem::new();
    fs.insert(
        "x.jr",
        "module a { class Here { int x; } class User { There t; } }\nmodule b { class There { int y; } }",
    );
    let here = RenameTarget::Record(key("x.jr", "a.Here"));
    let message = renamed(&fs, &["x.jr"], &here, "There").unwrap_err();
    assert!(
        message.contains("would make the name at x.jr:1:47 mean `a.There` instead of `b.There`"),
        "{message}"
    );
    assert!(renamed(&fs, &["x.jr"], &here, "Elsewhere").is_ok());
}

#[test]
fn renaming_a_field_edits_its_name_only() {
    let fs = workspace();
    let field = RenameTarget::Field {
        record: key("shapes.jr", "shapes.Polygon"),
        field: "name".into(),
    };
    assert_eq!(
        renamed(&fs, &["shapes.jr"], &field, "title").unwrap(),
        [("shapes.jr".to_owned(), offset(SHAPES, "name;", 0, 0))]
    );
}

fn labels(text: &str, at: usize, a: Option<&Analysis>) -> Option<(String, Vec<String>)> {
    let (span, items) = query::complete(text, at, a.map(Analysis::model))?;
    Some((
        text[span.range()].to_owned(),
        items.into_iter().map(|c| c.label).collect(),
    ))
}

#[test]
fn completion_offers_what_fits_where_the_cursor_is() {
    let fs = workspace();
    let a = analyze(&fs, "shapes.jr");
    // Top level, in a module, in a class.
    assert_eq!(labels("", 0, None).unwrap().1, ["include", "module"]);
    assert_eq!(
        labels("module m {\n  cl", 15, None).unwrap(),
        ("cl".to_owned(), vec!["class".to_owned()])
    );
    let text = "include \"common.jr\"\nmodule shapes {\n  class New {\n    vector<Pol";
    let (typed, items) = labels(text, text.len(), Some(&a)).unwrap();
    assert_eq!(typed, "Pol");
    for want in ["int", "ustring", "vector", "map", "Polygon", "common.Point"] {
        assert!(items.iter().any(|i| i == want), "{want} in {items:?}");
    }
    // A record of another module is offered qualified, one of this module simply.
    assert!(!items.iter().any(|i| i == "Point" || i == "shapes.Polygon"));
    let (_, items) = query::complete(text, text.len(), Some(a.model())).unwrap();
    assert_eq!(
        items
            .iter()
            .find(|c| c.label == "common.Point")
            .unwrap()
            .kind,
        CompletionKind::Record
    );
    // After a type (a field name comes), in a comment, in a path: nothing.
    assert_eq!(labels("module m { class C { int x", 26, Some(&a)), None);
    assert_eq!(labels("module m { class C { // in", 26, Some(&a)), None);
    assert_eq!(labels("include \"comm", 13, Some(&a)), None);
    // A map's value type, after a comma.
    let text = "module m { class C { map<ustring, ";
    assert!(labels(text, text.len(), Some(&a))
        .unwrap()
        .1
        .contains(&"long".to_owned()));
}

#[test]
fn the_outline_lists_modules_classes_and_fields() {
    let fs = workspace();
    let a = analyze(&fs, "shapes.jr");
    let outline = query::outline(a.tree(file(&a, "shapes.jr")).unwrap());
    assert_eq!(outline.len(), 1);
    let module = &outline[0];
    assert_eq!(
        (module.kind, module.name.as_str()),
        (OutlineKind::Module, "shapes")
    );
    let classes: Vec<&str> = module.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(classes, ["Polygon", "Scene"]);
    let field = &module.children[1].children[0];
    assert_eq!(field.kind, OutlineKind::Field);
    assert_eq!(field.name, "byName");
    assert_eq!(field.detail.as_deref(), Some("map<ustring, Polygon>"));
    assert_eq!(text_at(SHAPES, field.name_span), "byName");
}

#[test]
fn the_back_ends_tell_hover_their_names_and_types() {
    use hadoop_record_compiler::backend::Api;
    let fs = workspace();
    let a = analyze(&fs, "shapes.jr");
    let scene = a.model().find("shapes.Scene").unwrap();
    let api = Api::new(a.model());
    let r = api.rust(a.model(), scene);
    assert_eq!(r.path, "shapes::Scene");
    assert_eq!(r.fields[0].member, "by_name");
    assert_eq!(
        r.fields[0].ty,
        "::std::collections::BTreeMap<String, Polygon>"
    );
    assert_eq!(r.fields[1].ty, "super::common::Point");
    let j = api.java(a.model(), scene);
    assert_eq!(
        j.fields[0].ty,
        "java.util.TreeMap<java.lang.String, shapes.Polygon>"
    );
    let c = api.cpp(a.model(), scene);
    assert_eq!(c.path, "::shapes::Scene");
    assert_eq!(c.fields[1].ty, "::common::Point");
}
