//! The `rcc` binary: exit codes, output, and Hadoop's invocation.

mod support;

use std::path::Path;
use std::process::Output;

use hadoop_record_compiler::{load, LoadOptions, RenderOptions};
use support::{command, rcc_in, run, stderr, stdout, CRATE_DIR};

/// Runs `rcc args` in the crate directory, with NO_COLOR unset.
fn rcc(args: &[&str]) -> Output {
    rcc_in(CRATE_DIR, args, b"")
}

/// Good DDL that Hadoop's own rcc accepts too (so no warnings).
const GOOD: &str = "tests/ddl/hadoop/links.jr";
const BAD: &str = "tests/ddl/bad/many_errors_at_once.jr";

#[test]
fn check_succeeds_on_good_files() {
    let out = rcc(&["check", GOOD, "tests/ddl/hadoop/test.jr"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ok: 7 records in 3 modules, 3 files read\n");
    assert_eq!(stderr(&out), "");

    let quiet = rcc(&["check", "-q", GOOD]);
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(stdout(&quiet), "");
}

#[test]
fn check_prints_what_the_library_renders() {
    let out = rcc(&["check", BAD]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    let diagnostics = load(&[BAD], &LoadOptions::default())
        .map(|_| ())
        .unwrap_err();
    // The library resolves paths from the test's working directory, the binary from the
    // crate directory; both are the crate directory under cargo.
    let expected = format!(
        "{}error: found {} errors\n",
        diagnostics.render(&RenderOptions::default()),
        diagnostics.error_count()
    );
    assert_eq!(stderr(&out), expected);
    assert!(stderr(&out).contains("--> tests/ddl/bad/many_errors_at_once.jr:3:9"));
}

#[test]
fn check_reports_every_file() {
    let out = rcc(&[
        "check",
        "tests/ddl/bad/missing_semicolon.jr",
        "tests/ddl/bad/empty_class.jr",
        GOOD,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("missing_semicolon.jr:4:5"), "{err}");
    assert!(err.contains("empty_class.jr:2:11"), "{err}");
    assert!(err.ends_with("error: found 2 errors\n"), "{err}");
}

#[test]
fn missing_file_is_an_error() {
    let out = rcc(&["check", "no/such/file.jr"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: cannot read `no/such/file.jr`: no such file\n\nerror: found 1 error\n"
    );
}

#[test]
fn include_dirs_are_searched() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("main.jr");
    std::fs::write(
        &main,
        "include \"inclrec.jr\"\nmodule app { class A { inclrec.RI ri; } }\n",
    )
    .unwrap();
    let main = main.to_str().unwrap();

    let without = rcc(&["check", main]);
    assert_eq!(without.status.code(), Some(1));
    assert!(stderr(&without).contains("cannot find included file `inclrec.jr`"));
    assert!(stderr(&without).contains("help: add a directory to search with `-I DIR`"));

    let with = rcc(&[
        "check",
        "-I",
        "tests/ddl/hadoop",
        "-I",
        "tests/ddl/docs",
        main,
    ]);
    assert_eq!(with.status.code(), Some(0), "{}", stderr(&with));
    let long = rcc(&["check", "--include-dir", "tests/ddl/docs", main]);
    assert_eq!(long.status.code(), Some(0), "{}", stderr(&long));
}

#[test]
fn bad_ddl_is_reported_before_any_back_end_runs() {
    // Every back end is built (tests/rust_cli.rs, tests/java_backend.rs, tests/cpp_compile.rs);
    // bad DDL is reported first, as by `check`, and nothing is written.
    for lang in ["rust", "java", "c++"] {
        let out = rcc(&["-l", lang, "-d", "target/rcc-bad", BAD]);
        assert_eq!(out.status.code(), Some(1), "{lang}");
        assert!(stderr(&out).contains("error: found 5 errors"), "{lang}");
        assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/rcc-bad")
            .exists());
    }
}

#[test]
fn unknown_language_is_a_usage_error() {
    let out = rcc(&["-l", "cobol", GOOD]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("invalid value 'cobol'"), "{err}");
    assert!(
        err.contains("rust") && err.contains("c++") && err.contains("java"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(rcc(&[]).status.code(), Some(2));
    assert_eq!(rcc(&["check"]).status.code(), Some(2));
    assert_eq!(rcc(&["check", "--bogus", GOOD]).status.code(), Some(2));
}

#[test]
fn help_has_examples_and_version_works() {
    let help = rcc(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    let text = stdout(&help);
    assert!(text.contains("Examples:"), "{text}");
    assert!(text.contains("rcc check links.jr"), "{text}");
    assert!(text.contains("--language <LANG>"), "{text}");
    assert!(text.contains("--destdir <DIR>"), "{text}");

    let check_help = rcc(&["check", "--help"]);
    assert!(stdout(&check_help).contains("--include-dir <DIR>"));

    let version = rcc(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        stdout(&version),
        format!("rcc {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    // Output to a pipe: no colour.
    let piped = rcc(&["check", BAD]);
    assert!(!stderr(&piped).contains('\x1b'));

    let always = rcc(&["check", "--color", "always", BAD]);
    assert!(stderr(&always).contains("\x1b["));

    // NO_COLOR wins over auto (the terminal case cannot be tested from a pipe).
    let mut no_color = command(CRATE_DIR, &["check", "--color", "auto", BAD]);
    no_color.env("NO_COLOR", "1");
    let out = run(no_color, b"");
    assert!(!String::from_utf8_lossy(&out.stderr).contains('\x1b'));
}
