//! Every good DDL in the suite loads and checks, and parse -> print -> parse gives the
//! same syntax tree.

use std::path::{Path, PathBuf};

use hadoop_record_compiler::{load, syntax, LoadOptions};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `.jr` files directly in `dir`, sorted.
fn jr_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jr"))
        .collect();
    files.sort();
    files
}

/// The good DDL: the project's own, Hadoop's shapes, and the shared fixtures.
fn good_files() -> Vec<PathBuf> {
    let root = manifest_dir();
    let mut files = Vec::new();
    for dir in ["tests/ddl/docs", "tests/ddl/hadoop", "tests/ddl/extensions"] {
        files.extend(jr_files(&root.join(dir)));
    }
    files.extend(jr_files(&root.join("../tests/fixtures/hadoop-java")));
    files.push(root.join("../tests/fixtures/bench/large.jr"));
    files
}

/// All DDL in the suite, bad files included (many parse and fail only the checks).
fn all_files() -> Vec<PathBuf> {
    let mut files = good_files();
    files.extend(jr_files(&manifest_dir().join("tests/ddl/bad")));
    files.extend(jr_files(&manifest_dir().join("tests/ddl/bad/helpers")));
    files
}

#[test]
fn every_good_file_checks() {
    let files = good_files();
    assert!(files.len() >= 14, "found only {files:?}");
    for file in files {
        if let Err(d) = load(&[&file], &LoadOptions::default()) {
            panic!("{}:\n{d}", file.display());
        }
    }
}

#[test]
fn all_good_files_check_together() {
    // One compilation of everything: modules declared in several files merge, and files
    // included from several places are read once.
    let files = good_files();
    let model = load(&files, &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    let mut canonical: Vec<_> = model.files().iter().map(|f| f.canonical_path()).collect();
    let before = canonical.len();
    canonical.sort();
    canonical.dedup();
    assert_eq!(canonical.len(), before, "a file was read twice");
    assert!(model.files().iter().all(|f| f.is_root()));
}

#[test]
fn parse_print_parse_gives_the_same_tree() {
    let mut parsed = 0;
    for file in all_files() {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // the bad non-UTF-8 input
        };
        let Ok(first) = syntax::parse(&text) else {
            continue; // bad syntax on purpose
        };
        let printed = first.to_string();
        let second = syntax::parse(&printed).unwrap_or_else(|e| {
            panic!(
                "{}: printed form does not parse: {e:?}\n{printed}",
                file.display()
            )
        });
        assert_eq!(
            first.clone().without_spans(),
            second.clone().without_spans(),
            "{}",
            file.display()
        );
        // Printing is canonical: printing again changes nothing.
        assert_eq!(second.to_string(), printed, "{}", file.display());
        parsed += 1;
    }
    assert!(parsed >= 30, "only {parsed} files parsed");
}

#[test]
fn canonical_form_of_the_documentation_example() {
    let text = std::fs::read_to_string(manifest_dir().join("tests/ddl/docs/testrec.jr")).unwrap();
    let file = syntax::parse(&text).unwrap();
    assert_eq!(
        file.to_string(),
        "\
include \"inclrec.jr\"

module testrec {
    class R {
        vector<float> VF;
        RI Rec;
        buffer Buf;
    }
}
"
    );
}
