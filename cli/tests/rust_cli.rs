//! `rcc -l rust`: standard output, `-o FILE`, `-d DIR`, rewriting only what changed, and
//! errors.

mod support;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime};

use hadoop_record_compiler::backend::rust::{self, Options};
use support::{
    assert_stderr_contains, assert_stderr_starts_with, command, run, stderr, stdout, CRATE_DIR,
};

/// Runs `rcc args` in the crate directory, with NO_COLOR set.
fn rcc(args: &[&str]) -> Output {
    let mut rcc = command(CRATE_DIR, args);
    rcc.env("NO_COLOR", "1");
    run(rcc, b"")
}

/// A schema that includes another, which Hadoop's own rcc accepts too (so no warnings).
const OUTLINKS: &str = "../examples/weblinks/schema/outlinks.jr";

/// What the library generates for `paths`, shown relative to the crate directory.
fn expected(paths: &[&str]) -> String {
    let model = support::load_in_crate_dir(paths);
    rust::generate_file(&model, &Options::default()).unwrap()
}

fn age(path: &Path) -> SystemTime {
    let old = SystemTime::now() - Duration::from_secs(3600);
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(old).unwrap();
    std::fs::metadata(path).unwrap().modified().unwrap()
}

#[test]
fn without_o_or_d_the_code_goes_to_standard_output() {
    for args in [
        &["-l", "rust", OUTLINKS][..],
        &["--language", "RUST", OUTLINKS],
        &["-l", "rs", OUTLINKS],
        &[OUTLINKS],
    ] {
        let out = rcc(args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            String::from_utf8(out.stdout.clone()).unwrap(),
            expected(&[OUTLINKS])
        );
        assert_eq!(stderr(&out), "");
    }
}

#[test]
fn o_writes_one_file_and_rewrites_it_only_when_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sub/records.rs");
    let file_arg = file.to_str().unwrap();
    let out = rcc(&["-l", "rust", "-o", file_arg, OUTLINKS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        expected(&[OUTLINKS])
    );

    let before = age(&file);
    let out = rcc(&["--output", file_arg, OUTLINKS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );

    let out = rcc(&["-o", file_arg, "tests/ddl/docs/testrec.jr"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_ne!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        expected(&["tests/ddl/docs/testrec.jr"])
    );
}

#[test]
fn d_writes_a_mod_rs_and_a_file_per_module() {
    let dir = tempfile::tempdir().unwrap();
    let paths = [OUTLINKS, "tests/ddl/hadoop/test.jr"];
    let model = support::load_in_crate_dir(&paths);
    let files = rust::generate_tree(&model, &Options::default()).unwrap();
    let mut args = vec!["-d", dir.path().to_str().unwrap()];
    args.extend(paths);
    let out = rcc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(files.len(), 4);
    for f in &files {
        assert_eq!(
            std::fs::read_to_string(dir.path().join(&f.path)).unwrap(),
            f.contents,
            "{}",
            f.path.display()
        );
    }
    let links = dir.path().join("links.rs");
    let before = age(&links);
    let out = rcc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::metadata(&links).unwrap().modified().unwrap(),
        before
    );
}

/// Every file below `dir`, relative to it, sorted.
fn files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn d_removes_what_an_earlier_run_generated_for_modules_that_are_gone() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    let out = rcc(&["-d", dir_arg, OUTLINKS, "tests/ddl/hadoop/test.jr"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(dir.path().join("mine.rs"), "// written by hand\n").unwrap();
    std::fs::create_dir(dir.path().join("org")).ok();
    std::fs::write(dir.path().join("org/notes.txt"), "kept").unwrap();

    let out = rcc(&["-d", dir_arg, OUTLINKS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let model = support::load_in_crate_dir(&[OUTLINKS]);
    let mut expected: Vec<_> = rust::generate_tree(&model, &Options::default())
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect();
    expected.push("mine.rs".into());
    expected.push("org/notes.txt".into());
    expected.sort();
    assert_eq!(files_below(dir.path()), expected);
}

#[test]
fn o_and_d_together_are_a_usage_error() {
    let out = rcc(&["-o", "x.rs", "-d", "out", OUTLINKS]);
    assert_eq!(out.status.code(), Some(2));
    assert_stderr_contains(&out, "cannot be used with");
}

#[test]
fn ddl_errors_fail_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.rs");
    let bad = "tests/ddl/bad/many_errors_at_once.jr";
    let out = rcc(&["-o", file.to_str().unwrap(), bad]);
    assert_eq!(out.status.code(), Some(1), "{bad}");
    assert!(out.stdout.is_empty());
    assert!(!file.exists());
    let err = stderr(&out);
    assert!(err.contains(&format!("--> {bad}:")), "{err}");
    assert!(
        err.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("error: found"),
        "{err}"
    );
}

#[test]
fn names_that_collide_in_rust_generate_code() {
    // Hadoop accepts `byte b; buffer B;` in one class; so must every back end.
    let out = rcc(&["tests/ddl/rust/collisions.jr"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = stdout(&out);
    assert!(code.contains("pub b: i8,"), "{code}");
    assert!(code.contains("pub B: Vec<u8>,"), "{code}");
}

#[test]
fn unwritable_output_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should go.
    let out = rcc(&["-o", dir.path().to_str().unwrap(), OUTLINKS]);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_starts_with(&out, "error: cannot write `");
}
