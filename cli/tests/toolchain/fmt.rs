//! `rcc fmt`: rewriting in place, `--check`, `--diff`, standard input, and files that
//! cannot be formatted, with their exit codes.

use std::path::Path;

use crate::support::{
    assert_errors, assert_stderr_contains, dir_with, rcc_in, stderr, stdout, CRATE_DIR,
};

/// Not in the canonical layout.
const UNFORMATTED: &str = "module m{class A{int x;// the x\nmap<ustring,int>y;};}";
/// `UNFORMATTED`, formatted.
const FORMATTED: &str =
    "module m {\n    class A {\n        int x; // the x\n        map<ustring, int> y;\n    }\n}\n";
/// Does not parse (the `;` after `x` is missing).
const BROKEN: &str = "module m {\n    class A {\n        int x\n    }\n}\n";

/// A directory holding `files` (name, text).
fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn fmt_rewrites_the_files_named_and_those_in_directories() {
    let dir = dir_with(&[
        ("a.jr", UNFORMATTED),
        ("sub/b.jr", UNFORMATTED),
        ("sub/c.jute", UNFORMATTED),
        ("sub/d.txt", UNFORMATTED),
        ("sub/.hidden/e.jr", UNFORMATTED),
        ("f.jr", FORMATTED),
    ]);
    let out = rcc_in(dir.path(), &["fmt", "a.jr", "sub", "f.jr"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Each file rewritten is named; those already formatted are not.
    let said = "reformatted a.jr\nreformatted sub/b.jr\nreformatted sub/c.jute\n";
    assert_eq!(
        (stdout(&out), stderr(&out)),
        (String::new(), said.to_owned())
    );
    for name in ["a.jr", "sub/b.jr", "sub/c.jute", "f.jr"] {
        assert_eq!(read(dir.path(), name), FORMATTED, "{name}");
    }
    // Other files and hidden directories are left alone.
    for name in ["sub/d.txt", "sub/.hidden/e.jr"] {
        assert_eq!(read(dir.path(), name), UNFORMATTED, "{name}");
    }
}

/// A file is rewritten whole through a hidden temporary (`atomic_file`), which keeps its
/// permissions and its symbolic link, and leaves nothing beside it.
#[cfg(unix)]
#[test]
fn fmt_keeps_permissions_and_links_and_leaves_no_temporary() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = dir_with(&[("a.jr", UNFORMATTED), ("b.jr", UNFORMATTED)]);
    let mode = |name: &str| {
        std::fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    };
    for (name, kept) in [("a.jr", 0o640), ("b.jr", 0o664)] {
        let permissions = std::fs::Permissions::from_mode(kept);
        std::fs::set_permissions(dir.path().join(name), permissions).unwrap();
    }
    symlink("b.jr", dir.path().join("link.jr")).unwrap();
    let out = rcc_in(dir.path(), &["fmt", "a.jr", "link.jr"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        (read(dir.path(), "a.jr"), mode("a.jr")),
        (FORMATTED.into(), 0o640)
    );
    assert_eq!(
        (read(dir.path(), "b.jr"), mode("b.jr")),
        (FORMATTED.into(), 0o664)
    );
    let link = std::fs::symlink_metadata(dir.path().join("link.jr")).unwrap();
    assert!(link.file_type().is_symlink());
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["a.jr", "b.jr", "link.jr"]);
}

#[test]
fn fmt_check_names_every_file_that_would_change_and_changes_none() {
    let dir = dir_with(&[
        ("a.jr", UNFORMATTED),
        ("b.jr", FORMATTED),
        ("c.jr", UNFORMATTED),
    ]);
    let out = rcc_in(dir.path(), &["fmt", "--check", "a.jr", "b.jr", "c.jr"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "a.jr\nc.jr\n");
    assert_eq!(
        stderr(&out),
        "error: 2 of 3 files would be reformatted (run `rcc fmt` on them)\n"
    );
    assert_eq!(read(dir.path(), "a.jr"), UNFORMATTED);

    let clean = rcc_in(dir.path(), &["fmt", "--check", "b.jr"], b"");
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert_eq!(
        (stdout(&clean), stderr(&clean)),
        (String::new(), String::new())
    );
}

#[test]
fn fmt_diff_shows_the_changes_and_changes_nothing() {
    let original = "module m {\n  class A {\n    int x;\n  };\n}\n";
    let dir = dir_with(&[("a.jr", original), ("b.jr", FORMATTED)]);
    let out = rcc_in(dir.path(), &["fmt", "--diff", "a.jr", "b.jr"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "\
--- a.jr
+++ a.jr
@@ -1,5 +1,5 @@
 module m {
-  class A {
-    int x;
-  };
+    class A {
+        int x;
+    }
 }
"
    );
    assert_eq!(
        stderr(&out),
        "error: 1 of 2 files would be reformatted (run `rcc fmt` on it)\n"
    );
    assert_eq!(read(dir.path(), "a.jr"), original);

    let clean = rcc_in(dir.path(), &["fmt", "--diff", "--check", "b.jr"], b"");
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(stdout(&clean), "");
}

#[test]
fn fmt_reads_standard_input_and_writes_standard_output() {
    let out = rcc_in(CRATE_DIR, &["fmt", "-"], UNFORMATTED.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), FORMATTED);
    // Formatted input comes back unchanged, and --check accepts it.
    let again = rcc_in(CRATE_DIR, &["fmt", "-"], FORMATTED.as_bytes());
    assert_eq!(stdout(&again), FORMATTED);
    let check = rcc_in(CRATE_DIR, &["fmt", "--check", "-"], UNFORMATTED.as_bytes());
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(stdout(&check), "<stdin>\n");
}

#[test]
fn a_file_that_does_not_parse_is_reported_as_check_reports_it_and_left_alone() {
    let dir = dir_with(&[("bad.jr", BROKEN), ("good.jr", UNFORMATTED)]);
    let checked = rcc_in(dir.path(), &["check", "bad.jr"], b"");
    assert_eq!(checked.status.code(), Some(1));
    assert_stderr_contains(&checked, "--> bad.jr:4:5");

    let out = rcc_in(dir.path(), &["fmt", "bad.jr", "good.jr"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("reformatted good.jr\n{}", stderr(&checked))
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(read(dir.path(), "bad.jr"), BROKEN);
    // The other files are formatted all the same.
    assert_eq!(read(dir.path(), "good.jr"), FORMATTED);

    // Standard input is named as such, and nothing is written to standard output.
    let piped = rcc_in(dir.path(), &["fmt", "-"], BROKEN.as_bytes());
    assert_eq!(piped.status.code(), Some(1));
    assert_eq!(stdout(&piped), "");
    assert_stderr_contains(&piped, "--> <stdin>:4:5");
}

#[test]
fn unreadable_and_non_utf8_files_are_reported_as_check_reports_them() {
    let latin1 = b"// caf\xe9\nmodule m{class A{int x;}}\n";
    let dir = dir_with(&[]);
    std::fs::write(dir.path().join("latin1.jr"), latin1).unwrap();
    for file in ["missing.jr", "latin1.jr"] {
        let checked = rcc_in(dir.path(), &["check", file], b"");
        let out = rcc_in(dir.path(), &["fmt", file], b"");
        assert_eq!(out.status.code(), Some(1), "{file}");
        assert_eq!(stderr(&out), stderr(&checked), "{file}");
    }
    let out = rcc_in(dir.path(), &["fmt", "missing.jr"], b"");
    assert_eq!(
        stderr(&out),
        "error: cannot read `missing.jr`: no such file\n\nerror: found 1 error\n"
    );
    assert_eq!(std::fs::read(dir.path().join("latin1.jr")).unwrap(), latin1);
}

#[test]
fn several_broken_files_are_all_reported_with_one_count() {
    let dir = dir_with(&[("a.jr", BROKEN), ("b.jr", BROKEN)]);
    let out = rcc_in(dir.path(), &["fmt", "."], b"");
    assert_errors(&out, &["--> a.jr:4:5", "--> b.jr:4:5"], 2);
}

#[test]
fn formatting_needs_no_includes() {
    // The included file does not exist: formatting is per file and reads no includes.
    let text = "include \"nowhere.jr\"\nmodule m { class A { nowhere.B b; } }\n";
    let dir = dir_with(&[("a.jr", text)]);
    let out = rcc_in(dir.path(), &["fmt", "a.jr"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(dir.path(), "a.jr"),
        "include \"nowhere.jr\"\n\nmodule m {\n    class A {\n        nowhere.B b;\n    }\n}\n"
    );
}

#[test]
fn a_directory_without_ddl_is_an_error() {
    let dir = dir_with(&[("notes.txt", "")]);
    let out = rcc_in(dir.path(), &["fmt", "."], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "error: no .jr or .jute files in `.`\n");
}
