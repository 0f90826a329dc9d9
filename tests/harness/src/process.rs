//! Running the command-line programs under test: a whole run with its standard input, its
//! output as text, and what it left in a directory.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `command` to the end with `stdin` as its standard input.
///
/// A program a test has just written (a copy of `rcc`, a script) can be busy for a moment:
/// a process that another test thread forks in the meantime holds the written file open
/// until it execs (`ETXTBSY`). Such a start is tried again, for up to a second.
pub fn run(mut command: Command, stdin: &[u8]) -> Output {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut tries = 0;
    let mut child = loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            started => break started.unwrap_or_else(|e| panic!("{command:?} runs: {e}")),
        }
    };
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Written from a thread so that a large input cannot deadlock against a full stdout.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("the command finishes");
    feeder.join().unwrap();
    out
}

/// Standard output as text; the commands write only UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text; the commands write only UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Asserts that standard error holds `needle`, and shows all of it when it does not.
#[track_caller]
pub fn assert_stderr_contains(o: &Output, needle: &str) {
    assert_stderr(o, |e, t| e.contains(t), "lacks", needle);
}

/// Asserts that standard error starts with `prefix`, and shows all of it when it does not.
#[track_caller]
pub fn assert_stderr_starts_with(o: &Output, prefix: &str) {
    assert_stderr(o, |e, t| e.starts_with(t), "does not start with", prefix);
}

/// Asserts that standard error ends with `suffix`, and shows all of it when it does not.
#[track_caller]
pub fn assert_stderr_ends_with(o: &Output, suffix: &str) {
    assert_stderr(o, |e, t| e.ends_with(t), "does not end with", suffix);
}

/// Asserts `holds(stderr, text)`; the message says stderr `fails` `text`, then all of it.
#[track_caller]
fn assert_stderr(o: &Output, holds: fn(&str, &str) -> bool, fails: &str, text: &str) {
    let err = stderr(o);
    assert!(holds(&err, text), "stderr {fails} {text:?}:\n{err}");
}

/// Asserts that the command exited with 0, showing `what` and standard error when it did not.
#[track_caller]
pub fn assert_success(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
}

/// The names in `dir`, sorted: what a command left there (no temporary, say).
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} lists: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
