//! What the compiler's test files share: running the `rcc` binary, the fixture encodings
//! as `rcc convert` names them, and comparing decoded values. Used as `mod support;`; each test file uses only part of it.
#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

pub use fixture_harness::process::{
    assert_stderr_contains, assert_stderr_ends_with, assert_stderr_starts_with, assert_success,
    listing, run, stderr, stdout,
};
use fixture_harness::{Case, Encoding};
use hadoop_record::archive::FloatText;

/// `rcc args`, to run in `dir`, with NO_COLOR unset so that colour follows `--color` and
/// the terminal alone.
pub fn command(dir: impl AsRef<Path>, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rcc"));
    command.args(args).current_dir(dir).env_remove("NO_COLOR");
    command
}

/// Runs `rcc args` in `dir` with `stdin` as its standard input.
pub fn rcc_in(dir: impl AsRef<Path>, args: &[&str], stdin: &[u8]) -> Output {
    run(command(dir, args), stdin)
}

/// Asserts that `out` is a failed check (exit status 1) that reports each of `errors` (a
/// message, or where it is: `path:line:col`) and ends with the count, `count` errors; its
/// standard error.
#[track_caller]
pub fn assert_errors(out: &Output, errors: &[&str], count: usize) -> String {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    let err = stderr(out);
    for error in errors {
        assert!(err.contains(error), "no {error:?} in\n{err}");
    }
    let plural = if count == 1 { "" } else { "s" };
    let total = format!("error: found {count} error{plural}\n");
    assert!(err.ends_with(&total), "no {total:?} at the end of\n{err}");
    err
}

/// A new temporary directory holding `files` (path, text), their directories made.
pub fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// The help `rcc args` prints (a `--help`), which must exit 0 and hold each of `wanted`.
#[track_caller]
pub fn help_with(args: &[&str], wanted: &[&str]) -> String {
    let out = rcc_in(CRATE_DIR, args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    let help = stdout(&out);
    for want in wanted {
        assert!(help.contains(want), "{args:?} lacks {want:?}:\n{help}");
    }
    help
}

/// The compiler crate's directory, which holds the DDL test files (`tests/ddl/...`): the
/// commands run there, and the paths in their messages are relative to it.
pub const CRATE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../compiler");

/// The encodings converted between, as `--from`/`--to` name them.
pub const FORMATS: [(Encoding, &str); 3] = [
    (Encoding::Binary, "binary"),
    (Encoding::Csv, "csv"),
    (Encoding::Xml, "xml"),
];

/// The `--float-text` arguments a conversion to `to` is run with, each with the JDK whose
/// float text it must write: none (the default, JDK 8 to 18's), `legacy` and `shortest` for
/// CSV and XML; none alone for the other encodings, which hold no float text.
pub fn float_text_runs(to: &str) -> Vec<(&'static [&'static str], FloatText)> {
    match to {
        "csv" | "xml" => vec![
            (&[], FloatText::Legacy),
            (&["--float-text", "legacy"], FloatText::Legacy),
            (&["--float-text", "shortest"], FloatText::Shortest),
        ],
        _ => vec![(&[], FloatText::Legacy)],
    }
}

/// How `--from`/`--to` name `encoding`.
pub fn name_of(encoding: Encoding) -> &'static str {
    FORMATS.iter().find(|(e, _)| *e == encoding).unwrap().1
}

/// The cases of each stem (`int_128`) by encoding name.
pub fn stems(cases: &'static [Case]) -> BTreeMap<String, BTreeMap<&'static str, &'static Case>> {
    let mut out: BTreeMap<String, BTreeMap<&str, &Case>> = BTreeMap::new();
    for case in cases {
        let (stem, _) = case.name.rsplit_once('.').unwrap();
        out.entry(stem.to_owned())
            .or_default()
            .insert(name_of(case.encoding), case);
    }
    out
}

/// Asserts that `out` is a clean success (exit 0, nothing on standard error) whose
/// standard output is `want`; `what` names the run in failure messages.
pub fn assert_clean_output(out: &Output, want: &[u8], what: &str) {
    assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(out));
    assert_eq!(stderr(out), "", "{what}");
    assert!(
        out.stdout == want,
        "{what}:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(want)
    );
}

/// The real file system with relative paths taken from [`CRATE_DIR`], where the commands
/// run: the library then reads and names files as `rcc` does there.
pub struct InCrateDir;

impl hadoop_record_compiler::FileSystem for InCrateDir {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        hadoop_record_compiler::RealFileSystem.read(&Path::new(CRATE_DIR).join(path))
    }

    fn canonicalize(&self, path: &Path) -> std::io::Result<std::path::PathBuf> {
        hadoop_record_compiler::RealFileSystem.canonicalize(&Path::new(CRATE_DIR).join(path))
    }
}

/// What `rcc` loads for `paths` (relative to [`CRATE_DIR`]), loaded by the library.
pub fn load_in_crate_dir(paths: &[&str]) -> hadoop_record_compiler::Model {
    hadoop_record_compiler::load_with(
        &InCrateDir,
        paths,
        &hadoop_record_compiler::LoadOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"))
}

/// `rcc convert` in `dir` of `stdin`: `schema`'s `record_type` from `from` to `to`, then
/// `extra`.
pub fn convert_in(
    dir: impl AsRef<Path>,
    schema: (&str, &str),
    formats: (&str, &str),
    extra: &[&str],
    stdin: &[u8],
) -> Output {
    rcc_in(dir, &convert_args(schema, formats, extra), stdin)
}

/// The arguments of `rcc convert`: `schema`'s `record_type` from `from` to `to`, then
/// `extra`.
pub fn convert_args<'a>(
    (schema, record_type): (&'a str, &'a str),
    (from, to): (&'a str, &'a str),
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "convert",
        "--schema",
        schema,
        "--type",
        record_type,
        "--from",
        from,
        "--to",
        to,
    ];
    args.extend(extra);
    args
}

/// A fresh temporary directory, and in it the output path of commands that must be refused
/// before they write anything.
pub struct Refusals {
    dir: tempfile::TempDir,
    output: std::path::PathBuf,
}

impl Refusals {
    /// A new directory, its output named `output`.
    pub fn new(output: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join(output);
        Refusals { dir, output }
    }

    /// The directory, for the inputs a test writes.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The output path, as an argument.
    pub fn output(&self) -> &str {
        self.output.to_str().unwrap()
    }

    /// Asserts that `out` is a refusal (exit status 1) that made no output; `what` names the
    /// run in failure messages.
    #[track_caller]
    pub fn assert_refused(&self, out: &Output, what: &dyn std::fmt::Debug) {
        assert_eq!(out.status.code(), Some(1), "{what:?}: {}", stderr(out));
        assert!(!self.output.exists(), "{what:?} created the output");
    }
}
