//! The `rcc` binary: exit codes, output, and Hadoop's invocation; the DDL toolchain's
//! commands in `toolchain/`.

mod lsp;
mod support;
mod toolchain;

use std::path::{Path, PathBuf};
use std::process::Output;

use hadoop_record_compiler::{load_with, LoadOptions, MemoryFileSystem, RenderOptions};
use support::{
    assert_errors, assert_stderr_contains, command, dir_with, help_with, rcc_in, run, stderr,
    stdout, CRATE_DIR,
};

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
    // The binary runs in the compiler's crate directory; the library reads the same file
    // under the same relative name.
    let mut fs = MemoryFileSystem::new();
    fs.insert(
        BAD,
        std::fs::read_to_string(Path::new(CRATE_DIR).join(BAD)).unwrap(),
    );
    let diagnostics = load_with(&fs, &[BAD], &LoadOptions::default())
        .map(|_| ())
        .unwrap_err();
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
    assert_errors(
        &out,
        &["missing_semicolon.jr:4:5", "empty_class.jr:2:11"],
        2,
    );
}

/// A file that does not parse stops no other file's type checks: the files that parse are
/// checked (their types too) in the same run, and every error is reported once.
#[test]
fn check_reports_type_errors_beside_parse_errors() {
    let parse = "tests/ddl/bad/missing_semicolon.jr";
    let types = [
        "tests/ddl/bad/duplicate_field.jr",
        "tests/ddl/bad/unknown_type_typo.jr",
    ];
    let out = rcc(&["check", parse, types[0], types[1]]);
    let err = assert_errors(
        &out,
        &["duplicate_field.jr:5:17", "unknown_type_typo.jr:"],
        3,
    );
    assert_eq!(err.matches("missing_semicolon.jr:4:5").count(), 1, "{err}");
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
    let dir = dir_with(&[(
        "main.jr",
        "include \"inclrec.jr\"\nmodule app { class A { inclrec.RI ri; } }\n",
    )]);
    let main = dir.path().join("main.jr");
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
        assert!(!Path::new(CRATE_DIR).join("target/rcc-bad").exists());
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
    help_with(
        &["--help"],
        &[
            "Examples:",
            "rcc check links.jr",
            "--language <LANG>",
            "--destdir <DIR>",
        ],
    );
    help_with(&["check", "--help"], &["--include-dir <DIR>"]);

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

#[test]
fn the_cli_warns_and_hadoop_compat_fails() {
    let file = "tests/ddl/compat/named_before_declaration.jr";
    for args in [vec!["check", file], vec![file]] {
        let out = rcc_in(CRATE_DIR, &args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "warning: record `m.B` is named before its declaration\n  --> {file}:5:9\n"
            )),
            "{err}"
        );
        assert!(err.contains("5 |         B b;\n"), "{err}");
        assert!(
            err.ends_with("warning: found 3 warnings: Hadoop's rcc would reject these DDL files\n"),
            "{err}"
        );
        let mut strict = args.clone();
        strict.insert(args.len() - 1, "--hadoop-compat");
        let out = rcc_in(CRATE_DIR, &strict, b"");
        assert_errors(
            &out,
            &["error: record `m.B` is named before its declaration"],
            3,
        );
        assert!(out.stdout.is_empty(), "{strict:?}");
    }
    // `rcc check --quiet` still warns; code generation still writes its code.
    let out = rcc_in(CRATE_DIR, &["check", "-q", file], b"");
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("warning: found 3 warnings"));
    let out = rcc_in(CRATE_DIR, &[file], b"");
    assert!(stdout(&out).contains("pub struct A {"));
    // The flag is documented.
    for args in [["check", "--help"], ["--help", ""]] {
        let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
        help_with(&args, &["--hadoop-compat"]);
    }
    // No warnings, no warning line.
    let out = rcc_in(CRATE_DIR, &["check", "tests/ddl/hadoop/test.jr"], b"");
    assert_eq!(stderr(&out), "");
}

#[test]
fn the_cli_writes_into_d_or_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    let ddl = PathBuf::from(CRATE_DIR).join("../tests/fixtures/hadoop-java/composite.jr");
    let out = rcc_in(
        dir.path(),
        &["-l", "java", "-d", "gen", ddl.to_str().unwrap()],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("gen/oracle/composite/Outer.java").is_file());
    let out = rcc_in(
        dir.path(),
        &["-l", "java", "--java-api", "hadoop3", ddl.to_str().unwrap()],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let outer = std::fs::read_to_string(dir.path().join("oracle/composite/Outer.java")).unwrap();
    assert!(!outer.contains("getTypeInfo"));
    // Java is a file per class: -o is refused with the reason.
    let out = rcc_in(
        dir.path(),
        &["-l", "java", "-o", "x.java", ddl.to_str().unwrap()],
        b"",
    );
    assert!(!out.status.success());
    assert_stderr_contains(&out, "-d DIR");
}

/// Generated files are replaced whole, keeping their permissions; `-o` over a DDL file
/// read is refused.
#[cfg(unix)]
#[test]
fn generated_files_keep_their_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ddl = PathBuf::from(CRATE_DIR).join(GOOD);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let file = dir.path().join("records.rs");
    std::fs::write(&file, "// an older generation\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = rcc_in(
        dir.path(),
        &["-o", "records.rs", ddl.to_str().unwrap()],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = rcc_in(dir.path(), &[ddl.to_str().unwrap()], b"");
    assert_eq!(std::fs::read(&file).unwrap(), printed.stdout);
    assert_eq!(mode(&file), 0o640);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "{names:?}");

    // The file named and the file it includes.
    let a = "include \"b.jr\"\nmodule a { class A { b.B b; } }\n";
    let b = "module b { class B { int x; } }\n";
    std::fs::write(dir.path().join("a.jr"), a).unwrap();
    std::fs::write(dir.path().join("b.jr"), b).unwrap();
    let real = dir.path().canonicalize().unwrap();
    for target in ["a.jr", "b.jr"] {
        let out = rcc_in(dir.path(), &["-o", target, "a.jr"], b"");
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            stderr(&out),
            format!(
                "error: refusing to write {0}: it is the input {0}; name another file\n",
                real.join(target).display()
            )
        );
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("a.jr")).unwrap(), a);
    assert_eq!(std::fs::read_to_string(dir.path().join("b.jr")).unwrap(), b);
}

/// `rcc type-info` over its own DDL file is refused, the file kept.
#[test]
fn type_info_never_writes_over_its_ddl() {
    let dir = tempfile::tempdir().unwrap();
    let ddl = "module m { class A { int x; } }\n";
    std::fs::write(dir.path().join("a.jr"), ddl).unwrap();
    let args = [
        "type-info",
        "--schema",
        "a.jr",
        "--type",
        "m.A",
        "--to",
        "binary",
        "a.jr",
    ];
    let out = rcc_in(dir.path(), &args, b"");
    assert_eq!(out.status.code(), Some(1));
    let real = dir.path().canonicalize().unwrap().join("a.jr");
    assert_eq!(
        stderr(&out),
        format!(
            "error: refusing to write {0}: it is the input {0}; name another file\n",
            real.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.jr")).unwrap(),
        ddl
    );
}

#[test]
fn help_describes_the_java_back_end() {
    help_with(&["--help"], &["--java-api", "hadoop3"]);
}

/// `rcc -l c++ -d DIR` writes headers, sources and the runtime (what they hold:
/// `compiler/tests/cpp_compile.rs`); `-o` is refused; the language is named
/// case-insensitively, as Hadoop's rcc takes it.
#[test]
fn the_cpp_command_writes_a_directory_and_refuses_o() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(CRATE_DIR).join("..");
    let links = "examples/weblinks/schema/links.jr";
    let refused = rcc_in(&repo, &["-l", "c++", "-o", "x.hh", links], b"");
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("`-o x.hh` is for Rust"));

    for lang in ["c++", "C++", "cpp", "CPP"] {
        let out_dir = dir.path().join(lang);
        let out = rcc_in(
            &repo,
            &["--language", lang, "-d", out_dir.to_str().unwrap(), links],
            b"",
        );
        assert!(out.status.success(), "{lang}: {}", stderr(&out));
        for name in [
            "links.jr.hh",
            "links.jr.cc",
            "hadoop_record.cc",
            "hadoop/recordio.hh",
        ] {
            assert!(out_dir.join(name).is_file(), "{lang}: {name}");
        }
    }

    help_with(&["--help"], &["rcc -l c++ -d gen links.jr", "C++17"]);
}

/// `rcc -l avro` (the mapping itself: the compiler's `backend::avro` tests; Java Avro parses
/// every schema: `tests/interop/tests/rcc.rs`): without `-d`, every schema to standard
/// output one after another, each exactly the file `-d DIR` writes as
/// `DIR/<namespace>.<Name>.avsc`; `-o` refused; a directory that cannot be made is an error.
#[test]
fn the_avro_command_prints_or_writes_a_schema_per_record() {
    let repo = Path::new(CRATE_DIR).join("..");
    let links = "examples/weblinks/schema/links.jr";
    let outlinks = "examples/weblinks/schema/outlinks.jr";
    // outlinks.jr includes links.jr: one schema, links.Link defined inside.
    let printed = rcc_in(&repo, &["-l", "avro", outlinks], b"");
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    assert_eq!(stderr(&printed), "");
    insta::assert_snapshot!("avro_weblinks_outlinks", stdout(&printed));
    let composite = rcc_in(
        &repo,
        &["-l", "avro", "tests/fixtures/hadoop-java/composite.jr"],
        b"",
    );
    assert_eq!(composite.status.code(), Some(0), "{}", stderr(&composite));
    insta::assert_snapshot!("avro_fixture_composite", stdout(&composite));

    // Both files named: a schema each, in the model's order (an included file's first).
    let both = rcc_in(&repo, &["-l", "AVRO", links, outlinks], b"");
    assert_eq!(both.status.code(), Some(0), "{}", stderr(&both));
    let dir = tempfile::tempdir().unwrap();
    let gen = dir.path().join("gen");
    let args = ["-l", "avro", "-d", gen.to_str().unwrap(), links, outlinks];
    let out = rcc_in(&repo, &args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!((stdout(&out), stderr(&out)), (String::new(), String::new()));
    assert_eq!(
        support::listing(&gen),
        ["links.Link.avsc", "outlinks.OutLinks.avsc"]
    );
    let read = |name: &str| std::fs::read_to_string(gen.join(name)).unwrap();
    assert_eq!(
        read("links.Link.avsc") + &read("outlinks.OutLinks.avsc"),
        stdout(&both)
    );
    assert_eq!(read("outlinks.OutLinks.avsc"), stdout(&printed));

    // Avro is a file per record: -o is refused with the fix, and nothing is written.
    let refused = rcc_in(
        dir.path(),
        &[
            "-l",
            "avro",
            "-o",
            "x.avsc",
            &repo.join(links).to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        stderr(&refused),
        "error: `-o x.avsc` is for Rust: Avro is a schema file per record, written into `-d DIR`\n"
    );
    assert!(!dir.path().join("x.avsc").exists());
    // A -d that is a file: the error names it, and the file is kept.
    std::fs::write(dir.path().join("plain"), "kept").unwrap();
    let blocked = rcc_in(
        &repo,
        &[
            "-l",
            "avro",
            "-d",
            dir.path().join("plain").to_str().unwrap(),
            links,
        ],
        b"",
    );
    assert_eq!(blocked.status.code(), Some(1));
    assert_stderr_contains(&blocked, "error: cannot write `");
    assert_stderr_contains(&blocked, "plain/links.Link.avsc`");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("plain")).unwrap(),
        "kept"
    );
}

/// `rcc sql` and `rcc cluster` run `rcc-sql` and `rcc-cluster`, found next to `rcc` first,
/// then on `PATH`, with every argument but the subcommand's name, and exit as they do;
/// without them, the error says how to install them. (The real companions: the tests of
/// `hadoop-record-sql-cli`.)
#[cfg(unix)]
#[test]
fn companion_commands_are_found_beside_rcc_or_on_path() {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir().unwrap();
    let (beside, on_path, empty) = (
        dir.path().join("bin"),
        dir.path().join("path"),
        dir.path().join("empty"),
    );
    let rcc = beside.join("rcc");
    for d in [&beside, &on_path, &empty] {
        std::fs::create_dir(d).unwrap();
    }
    std::fs::copy(env!("CARGO_BIN_EXE_rcc"), &rcc).unwrap();
    // Each fake companion prints where it is and its arguments, one a line, and exits 3.
    let fake = |path: PathBuf| {
        std::fs::write(
            &path,
            "#!/bin/sh\necho \"$0\"\nprintf '%s\\n' \"$@\"\nexit 3\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let sql = fake(beside.join("rcc-sql"));
    let cluster = fake(on_path.join("rcc-cluster"));
    let run_rcc = |args: &[&str], path: &Path| {
        let mut command = std::process::Command::new(&rcc);
        command.args(args).env("PATH", path);
        run(command, b"")
    };

    let out = run_rcc(
        &["--color", "never", "sql", "--schema", "a b.jr", "-x", "sql"],
        &empty,
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{}\n--color\nnever\n--schema\na b.jr\n-x\nsql\n",
            sql.display()
        )
    );

    let out = run_rcc(&["cluster", "scheduler", "--bind-port", "1"], &on_path);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{}\nscheduler\n--bind-port\n1\n", cluster.display())
    );
    let out = run_rcc(&["help", "cluster"], &on_path);
    assert_eq!(stdout(&out), format!("{}\n--help\n", cluster.display()));

    let out = run_rcc(&["cluster", "executor"], &empty);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "error: `rcc cluster` runs the companion command rcc-cluster, which was not found \
             next to {} or on PATH\n  install it: cargo install hadoop-record-sql-cli\n  from \
             a clone of the repository: cargo install --path sql-cli (or cargo build -p \
             hadoop-record-sql-cli, which puts it beside target/*/rcc)\n",
            rcc.display()
        )
    );

    // `rcc convert` to or from Parquet or Arrow: rcc's own work when it has the `columnar`
    // feature (the workspace's build), else rcc-convert's; other conversions always rcc's.
    let convert = fake(beside.join("rcc-convert"));
    let args = [
        "convert", "--schema", "none.jr", "--type", "n.N", "--from", "binary", "--to", "parquet",
        "-",
    ];
    let out = run_rcc(&args, &empty);
    if cfg!(feature = "columnar") {
        assert_eq!(out.status.code(), Some(1));
        assert_stderr_contains(&out, "none.jr");
    } else {
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let forwarded = args[1..].join("\n");
        assert_eq!(
            stdout(&out),
            format!("{}\n{forwarded}\n", convert.display())
        );
    }
    let args = [
        "convert", "--schema", "none.jr", "--type", "n.N", "--from", "csv", "--to", "json",
    ];
    let out = run_rcc(&args, &empty);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "none.jr");

    // rcc's own help lists them.
    let help = stdout(&run_rcc(&["--help"], &empty));
    assert!(help.contains("sql ") && help.contains("rcc-sql"), "{help}");
    assert!(
        help.contains("cluster ") && help.contains("rcc-cluster"),
        "{help}"
    );
}
