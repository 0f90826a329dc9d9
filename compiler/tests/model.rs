//! The checked model: resolution, locations, include flags, and the conversion into the
//! runtime schema (signatures checked against Hadoop's own).

use std::path::Path;

use hadoop_record::schema::FieldType;
use hadoop_record_compiler::{
    load, load_with, LoadOptions, MemoryFileSystem, Model, Primitive, Type,
};

fn fixtures() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/hadoop-java"
    ))
}

fn ddl(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ddl")
        .join(path)
}

/// A file system in memory holding `files` (path, text).
fn memory(files: &[(&str, &str)]) -> MemoryFileSystem {
    let mut fs = MemoryFileSystem::new();
    for (path, text) in files {
        fs.insert(path, *text);
    }
    fs
}

fn load_ok(paths: &[std::path::PathBuf]) -> Model {
    load(paths, &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn signatures_match_hadoops() {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("manifest.json")).unwrap())
            .unwrap();
    let schemas: Vec<_> = manifest["schemas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| fixtures().join(s.as_str().unwrap()))
        .collect();
    let model = load_ok(&schemas);
    let schema = model.to_schema();
    let expected = manifest["signatures"].as_object().unwrap();
    assert_eq!(expected.len(), model.records().len());
    for (name, signature) in expected {
        let got = schema
            .signature(name)
            .unwrap_or_else(|| panic!("no record {name}"));
        assert_eq!(got, signature.as_str().unwrap(), "{name}");
    }
}

#[test]
fn hadoop_test_record_signatures() {
    // Signatures Hadoop's rcc prints for its own test records (spec §2).
    let model = load_ok(&[ddl("hadoop/test.jr"), ddl("hadoop/signatures.jr")]);
    let schema = model.to_schema();
    for (name, signature) in [
        (
            "org.apache.hadoop.record.RecRecord1",
            "LRecRecord1(zbilfdsB[s]{ss}LRecRecord0(s))",
        ),
        (
            "org.apache.hadoop.record.RecRecordOld",
            "LRecRecordOld(s[l][[LRecRecord0(s)]]LRecRecord0(s)[[[s]]]f{bs}[{il}][{il}])",
        ),
        ("sigs.Keys", "LKeys({LK(i)[i]}{[i]i}{Bf})"),
    ] {
        assert_eq!(schema.signature(name).unwrap(), signature);
    }
}

#[test]
fn schema_ids_follow_model_order() {
    let model = load_ok(&[ddl("extensions/forward.jr")]);
    let schema = model.to_schema();
    for (i, record) in model.records().iter().enumerate() {
        let index = model.find(record.qualified_name()).unwrap();
        assert_eq!(index.index(), i);
        let id = schema.id(index);
        assert_eq!(schema.find(record.qualified_name()), Some(id));
        let runtime = schema.schema().record(id);
        assert_eq!(runtime.unwrap().module, record.module());
        assert_eq!(runtime.unwrap().name, record.name());
        assert_eq!(runtime.unwrap().fields.len(), record.fields().len());
    }
    // Recursion through containers survives the conversion.
    let tree = schema.find("ext.forward.Tree").unwrap();
    let fields = &schema.schema().record(tree).unwrap().fields;
    assert_eq!(
        fields[1].ty,
        FieldType::Vector(Box::new(FieldType::Record(tree)))
    );
    assert_eq!(
        schema.signature("ext.forward.Tree").unwrap(),
        "LTree(i[LTree]{sLTree}LLeaf(s))"
    );
}

#[test]
fn documentation_examples_resolve() {
    // testrec.jr names `RI` of module `inclrec` without qualification.
    let model = load_ok(&[ddl("docs/testrec.jr")]);
    let r = model.get("testrec.R").unwrap();
    let Type::Record(ri) = r.fields()[1].ty() else {
        panic!("{:?}", r.fields()[1].ty())
    };
    assert_eq!(model.record(*ri).qualified_name(), "inclrec.RI");
    assert_eq!(model.type_to_string(r.fields()[0].ty()), "vector<float>");

    let model = load_ok(&[ddl("docs/outlinks.jr")]);
    let out = model.get("outlinks.OutLinks").unwrap();
    assert_eq!(
        model.type_to_string(out.fields()[1].ty()),
        "vector<links.Link>"
    );
}

#[test]
fn included_records_are_in_the_model_and_marked() {
    let model = load_ok(&[ddl("docs/testrec.jr")]);
    let names: Vec<_> = model.records().iter().map(|r| r.qualified_name()).collect();
    // Included files come first.
    assert_eq!(names, ["inclrec.RI", "testrec.R"]);
    assert!(!model.get("inclrec.RI").unwrap().in_root_file());
    assert!(model.get("testrec.R").unwrap().in_root_file());
    let files: Vec<_> = model
        .files()
        .iter()
        .map(|f| (f.path().to_owned(), f.is_root()))
        .collect();
    assert_eq!(files.len(), 2);
    assert!(files[0].0.ends_with("docs/testrec.jr") && files[0].1);
    assert!(files[1].0.ends_with("docs/inclrec.jr") && !files[1].1);
    assert_eq!(model.files_read().count(), 2);

    // Naming the included file too makes it a root, still read once.
    let model = load_ok(&[ddl("docs/inclrec.jr"), ddl("docs/testrec.jr")]);
    assert_eq!(model.files().len(), 2);
    assert!(model.records().iter().all(|r| r.in_root_file()));
}

#[test]
fn records_and_fields_keep_their_locations() {
    let model = load_ok(&[ddl("docs/links.jr")]);
    let link = model.get("links.Link").unwrap();
    let loc = link.location();
    assert!(loc.path.ends_with("docs/links.jr"));
    assert_eq!((loc.line, loc.column), (4, 11));
    let text = model.file(loc.file).text();
    assert_eq!(&text[loc.span.range()], "Link");
    let url = &link.fields()[0];
    assert_eq!(url.name(), "URL");
    assert_eq!((url.location().line, url.location().column), (5, 17));
    assert_eq!(
        (url.type_location().line, url.type_location().column),
        (5, 9)
    );
    assert_eq!(&text[url.type_location().span.range()], "ustring");
    assert_eq!(url.ty(), &Type::Primitive(Primitive::UString));
    let module = model.module("links").unwrap();
    assert_eq!(module.segments().collect::<Vec<_>>(), ["links"]);
    assert_eq!(module.records(), [model.find("links.Link").unwrap()]);
}

#[test]
fn modules_merge_across_blocks_and_files() {
    let model = load_ok(&[ddl("hadoop/single.jr"), ddl("hadoop/test.jr")]);
    assert_eq!(model.modules().len(), 1);
    let names: Vec<_> = model.modules()[0]
        .records()
        .iter()
        .map(|&i| model.record(i).name())
        .collect();
    assert_eq!(
        names,
        [
            "RecBuffer",
            "RecInt",
            "RecString",
            "RecRecord0",
            "RecRecord1",
            "RecRecordOld",
            "RecRecordNew"
        ]
    );
}

#[test]
fn include_directories_are_searched_in_order() {
    let mut fs = memory(&[
        (
            "src/main.jr",
            "include \"common.jr\" module app { class A { C c; } }",
        ),
        ("first/common.jr", "module first { class C { int x; } }"),
        ("second/common.jr", "module second { class C { int x; } }"),
    ]);
    let options = LoadOptions::default()
        .with_include_dir("first")
        .with_include_dir("second");
    let model = load_with(&fs, &["src/main.jr"], &options).unwrap();
    assert!(model.get("first.C").is_some());
    assert!(model.get("second.C").is_none());
    assert_eq!(
        model
            .files_read()
            .map(|p| p.to_str().unwrap())
            .collect::<Vec<_>>(),
        ["src/main.jr", "first/common.jr"]
    );

    // Next to the including file wins over every include directory.
    fs.insert("src/common.jr", "module local { class C { int x; } }");
    let model = load_with(&fs, &["src/main.jr"], &options).unwrap();
    assert!(model.get("local.C").is_some());
}

#[test]
fn a_file_included_twice_is_read_once() {
    let fs = memory(&[
        (
            "a.jr",
            "include \"b.jr\" include \"./c.jr\" module a { class A { b.B b; } }",
        ),
        ("b.jr", "include \"c.jr\" module b { class B { c.C c; } }"),
        ("c.jr", "module c { class C { int x; } }"),
    ]);
    let model = load_with(&fs, &["a.jr"], &LoadOptions::default()).unwrap();
    assert_eq!(model.files().len(), 3);
    let names: Vec<_> = model.records().iter().map(|r| r.qualified_name()).collect();
    assert_eq!(names, ["c.C", "b.B", "a.A"]);
}

#[test]
fn diagnostics_list_every_file_read() {
    let fs = memory(&[
        ("a.jr", "include \"b.jr\" module a { class A { Nope n; } }"),
        ("b.jr", "module b { class B { int x; } }"),
    ]);
    let err = load_with(&fs, &["a.jr"], &LoadOptions::default()).unwrap_err();
    assert_eq!(err.files_read().count(), 2);
    assert_eq!(err.len(), 1);
    let d = err.iter().next().unwrap();
    assert_eq!(d.message(), "unknown type `Nope`");
    let loc = err.location_of(d.primary_label().unwrap()).unwrap();
    assert_eq!(loc.to_string(), "a.jr:1:37");
}

/// The editor's questions (`query`), answered over the model and the syntax trees.
#[path = "model/query.rs"]
mod query;

#[test]
fn comments_belong_to_the_declarations_they_stand_next_to() {
    let text = "\
// The file's header, apart from what follows.

// About m,
/* in two comments. */
module m { // m's too
    // A: the comment next to it only.

    // A itself.
    class A {
        int x; // x
        /* y, */ // both
        int y;
        // before the brace: nobody's
    } // after the brace: nobody's
    class B { int z; /* z */ }
}
/** m again. */
module m { class C { A a; } }
";
    let fs = memory(&[("c.jr", text)]);
    let model = load_with(&fs, &["c.jr"], &LoadOptions::default()).unwrap();
    let texts = |comments: &[hadoop_record_compiler::Comment]| -> Vec<(String, bool)> {
        comments
            .iter()
            .map(|c| (c.text().to_owned(), c.is_trailing()))
            .collect()
    };
    let m = model.module("m").unwrap();
    assert_eq!(
        texts(m.comments()),
        [
            ("// About m,".to_owned(), false),
            ("/* in two comments. */".to_owned(), false),
            ("// m's too".to_owned(), true),
            ("/** m again. */".to_owned(), false),
        ]
    );
    assert_eq!(m.doc(), "About m,\nin two comments.\nm's too\nm again.");
    let a = model.get("m.A").unwrap();
    assert_eq!(texts(a.comments()), [("// A itself.".to_owned(), false)]);
    assert_eq!(a.comments()[0].location().to_string(), "c.jr:8:5");
    let fields: Vec<String> = a.fields().iter().map(|f| f.doc()).collect();
    assert_eq!(fields, ["x", "y,\nboth"]);
    assert_eq!(model.get("m.B").unwrap().fields()[0].doc(), "z");
    assert_eq!(model.get("m.C").unwrap().doc(), "");

    // In the syntax tree, every comment is kept, and declarations point into the list.
    let tree = hadoop_record_compiler::syntax::parse(text).unwrap();
    assert_eq!(tree.comments.len(), 13);
    assert!(tree
        .comments
        .iter()
        .any(|c| c.text == "// before the brace: nobody's"));
    let hadoop_record_compiler::syntax::ast::Item::Module(first) = &tree.items[0] else {
        panic!("a module")
    };
    assert_eq!(
        (
            first.comments.leading.clone(),
            first.comments.trailing.clone()
        ),
        (1..3, 3..4)
    );
}
