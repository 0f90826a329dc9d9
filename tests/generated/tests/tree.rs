//! `src/tree` is what `rcc -d` writes for the fixture schemas today.

use std::path::{Path, PathBuf};

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::{load, LoadOptions};

const REGENERATE: &str =
    "cargo run -p hadoop-record-compiler --bin rcc -- -d tests/generated/src/tree \
     tests/fixtures/hadoop-java/prims.jr tests/fixtures/hadoop-java/composite.jr";

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

#[test]
fn the_checked_in_tree_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = std::fs::canonicalize(crate_dir.join("../..")).unwrap();
    let schemas =
        ["prims.jr", "composite.jr"].map(|s| repo.join("tests/fixtures/hadoop-java").join(s));
    let model = load(&schemas, &LoadOptions::default()).unwrap();
    let options = Options {
        source_root: Some(repo),
        ..Options::default()
    };
    let files = rust::generate_tree(&model, &options).unwrap();
    let tree = crate_dir.join("src/tree");
    for file in &files {
        let path = tree.join(&file.path);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == file.contents,
            "{} is out of date; from the repository root run\n{REGENERATE}",
            path.display()
        );
    }
    let mut on_disk = Vec::new();
    files_under(&tree, &mut on_disk);
    on_disk.sort();
    let mut expected: Vec<PathBuf> = files.iter().map(|f| tree.join(&f.path)).collect();
    expected.sort();
    assert_eq!(on_disk, expected, "stale files in src/tree");
}
