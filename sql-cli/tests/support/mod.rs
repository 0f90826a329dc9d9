//! What the tests of `rcc sql` and `rcc cluster` share: running the companion commands and
//! `rcc` itself, and the `web.Hit` records they query. Used as `mod support;`; each test
//! file uses only part of it.
#![allow(dead_code, unused_imports)]

pub mod cluster;
pub mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub use fixture_harness::process::{
    assert_stderr_contains, assert_stderr_ends_with, assert_stderr_starts_with, listing, run,
    stderr, stdout,
};

/// `rcc-sql`.
pub const RCC_SQL: &str = env!("CARGO_BIN_EXE_rcc-sql");
/// `rcc-cluster`.
pub const RCC_CLUSTER: &str = env!("CARGO_BIN_EXE_rcc-cluster");

/// Standard output of a run that must succeed.
#[track_caller]
pub fn ok(out: impl std::borrow::Borrow<Output>) -> String {
    let out = out.borrow();
    assert!(out.status.success(), "{}", stderr(out));
    stdout(out)
}

/// The words of `line`: flags and values as typed on a command line (none holding a
/// space).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The numbers of the first row of a CSV answer (the line after its header).
pub fn first_row(csv: &str) -> Vec<i64> {
    let row = csv.lines().nth(1).expect("a row after the header");
    row.split(',').map(|x| x.parse().unwrap()).collect()
}

/// The directory `group/name` under the target directory, made afresh (empty).
pub fn fresh_dir(group: &str, name: &str) -> PathBuf {
    let dir = fixture_harness::peers::target_dir().join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The files below `dir`, at any depth (none where it is missing).
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_below(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The files below `dir`, by their paths there, sorted.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = files_below(dir)
        .iter()
        .map(|path| {
            path.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    found.sort();
    found
}

/// `rcc sql` arguments for a query answered as CSV: `--in-framing FRAMING --to csv`,
/// `--partitions N` if given, the query, then `files`.
pub fn csv_query<'a>(
    framing: &'a str,
    partitions: Option<&'a str>,
    query: &'a str,
    files: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["--in-framing", framing, "--to", "csv"];
    args.extend(
        partitions
            .map(|n| ["--partitions", n])
            .into_iter()
            .flatten(),
    );
    args.push(query);
    args.extend_from_slice(files);
    args
}

/// `rcc sql` arguments for `query` over version `version` of the Delta table `table`,
/// answered as CSV.
pub fn delta_version_csv<'a>(version: &'a str, query: &'a str, table: &'a str) -> Vec<&'a str> {
    [
        ["--from", "delta", "--version", version],
        ["--to", "csv", query, table],
    ]
    .concat()
}

/// Runs `rcc-sql args` in `dir` with `stdin` as its standard input.
pub fn rcc_sql_in(dir: impl AsRef<Path>, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(RCC_SQL);
    command.args(args).current_dir(dir);
    run(command, stdin)
}

/// Runs `rcc args` in `dir` (`rcc sql` then runs the `rcc-sql` beside it).
pub fn rcc_in(dir: impl AsRef<Path>, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(rcc());
    command.args(args).current_dir(dir);
    run(command, stdin)
}

/// The `rcc` binary beside the companions, as `cargo install` and `cargo build` put them.
/// `cargo test --workspace` builds it; a test run of this package alone does not, so it
/// is built here then, into the same target directory and profile.
pub fn rcc() -> &'static Path {
    static RCC: OnceLock<PathBuf> = OnceLock::new();
    RCC.get_or_init(|| {
        let companion = Path::new(RCC_SQL);
        let rcc = companion.with_file_name(format!("rcc{}", std::env::consts::EXE_SUFFIX));
        if !rcc.is_file() {
            let profile_dir = companion.parent().unwrap();
            let mut cargo = Command::new(env!("CARGO"));
            cargo
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "hadoop-record-cli",
                    "--bin",
                    "rcc",
                ])
                .arg("--target-dir")
                .arg(profile_dir.parent().unwrap())
                .current_dir(env!("CARGO_MANIFEST_DIR"));
            if profile_dir.file_name() == Some("release".as_ref()) {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("cargo runs");
            assert!(status.success(), "cargo build of rcc failed");
        }
        rcc
    })
}
