//! `src/tree` and `src/names` are what `rcc -d` writes for their schemas today.

use std::path::{Path, PathBuf};

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::{load, LoadOptions};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Checks that `src/{dir}` holds exactly what `rcc -d` generates for `schemas` (paths
/// relative to the repository).
fn check_tree(dir: &str, schemas: &[&str]) {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = std::fs::canonicalize(crate_dir.join("../..")).unwrap();
    let regenerate = format!(
        "cargo run -p hadoop-record-cli -- -d tests/generated/src/{dir} {}",
        schemas.join(" ")
    );
    let paths: Vec<PathBuf> = schemas.iter().map(|s| repo.join(s)).collect();
    let model = load(&paths, &LoadOptions::default()).unwrap();
    let options = Options::default().with_source_root(Some(repo));
    let files = rust::generate_tree(&model, &options).unwrap();
    let tree = crate_dir.join("src").join(dir);
    for file in &files {
        let path = tree.join(&file.path);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == file.contents,
            "{} is out of date; from the repository root run\n{regenerate}",
            path.display()
        );
    }
    let mut on_disk = Vec::new();
    files_under(&tree, &mut on_disk);
    on_disk.sort();
    let mut expected: Vec<PathBuf> = files.iter().map(|f| tree.join(&f.path)).collect();
    expected.sort();
    assert_eq!(on_disk, expected, "stale files in src/{dir}");
}

#[test]
fn the_checked_in_fixture_tree_is_up_to_date() {
    check_tree(
        "tree",
        &[
            "tests/fixtures/hadoop-java/prims.jr",
            "tests/fixtures/hadoop-java/composite.jr",
        ],
    );
}

#[test]
fn the_checked_in_names_tree_is_up_to_date() {
    check_tree(
        "names",
        &[
            "compiler/tests/ddl/rust/keywords.jr",
            "compiler/tests/ddl/rust/modules.jr",
        ],
    );
}
