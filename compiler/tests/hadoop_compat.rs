//! What Hadoop's own rcc rejects but this one accepts is a warning, with file:line:col and
//! the source line, and an error with `--hadoop-compat`; warnings never change the exit
//! status otherwise.
//!
//! Verified by hand against Hadoop 2.10.2's `Rcc` (hadoop-common-2.10.2.jar with
//! commons-io 2.5, slf4j-api 1.7.36 and commons-logging 1.1.3 on the class path; `java
//! org.apache.hadoop.record.compiler.generated.Rcc --language java --destdir OUT FILE.jr`):
//! it rejects every file of `tests/ddl/compat/` (with the message each file's first comment
//! quotes; the three of `named_before_declaration.jr` each on its own), and accepts every
//! file of [`PORTABLE`], for which there is no warning. `tests/interop/tests/rcc.rs` checks
//! the same live, on every run, with Hadoop's rcc from Maven Central.

use std::path::Path;

use hadoop_record_compiler::{load, LoadOptions, RenderOptions, Severity};

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// DDL Hadoop's rcc accepts, each on its own (the stress corpus of names included).
const PORTABLE: &[&str] = &[
    "tests/ddl/hadoop/links.jr",
    "tests/ddl/hadoop/location.jr",
    "tests/ddl/hadoop/signatures.jr",
    "tests/ddl/hadoop/single.jr",
    "tests/ddl/hadoop/test.jr",
    "tests/ddl/rust/collisions.jr",
    "tests/ddl/rust/keywords.jr",
    "tests/ddl/rust/modules.jr",
    "tests/ddl/names/stress.jr",
    "tests/ddl/compat/helpers/inc.jr",
    "../tests/fixtures/hadoop-java/common.jr",
    "../tests/fixtures/hadoop-java/composite.jr",
    "../tests/fixtures/hadoop-java/prims.jr",
    "../tests/fixtures/bench/large.jr",
    "../examples/weblinks/schema/outlinks.jr",
];

/// Each construct: the files named (as on the command line), the include directories, and
/// how many warnings it gives.
const CASES: &[(&str, &[&str], &[&str], usize)] = &[
    (
        "semicolon_after_class",
        &["tests/ddl/compat/semicolon_after_class.jr"],
        &[],
        1,
    ),
    (
        "semicolon_after_module",
        &["tests/ddl/compat/semicolon_after_module.jr"],
        &[],
        1,
    ),
    (
        "byte_order_mark",
        &["tests/ddl/compat/byte_order_mark.jr"],
        &[],
        1,
    ),
    (
        "final_comment_without_line_break",
        &["tests/ddl/compat/final_comment_without_line_break.jr"],
        &[],
        1,
    ),
    (
        "names_itself",
        &["tests/ddl/compat/names_itself.jr"],
        &[],
        2,
    ),
    (
        "named_before_declaration",
        &["tests/ddl/compat/named_before_declaration.jr"],
        &[],
        3,
    ),
    (
        "simple_name_from_another_module",
        &["tests/ddl/compat/simple_name_from_another_module.jr"],
        &[],
        1,
    ),
    (
        "uses_a_file_not_included",
        &[
            "tests/ddl/compat/helpers/declares.jr",
            "tests/ddl/compat/uses_a_file_not_included.jr",
        ],
        &[],
        1,
    ),
    (
        "found_with_include_dir",
        &["tests/ddl/compat/include_dir/found_with_include_dir.jr"],
        &["tests/ddl/compat/helpers"],
        1,
    ),
];

fn options(include_dirs: &[&str], hadoop_compat: bool) -> LoadOptions {
    LoadOptions::default()
        .with_include_dirs(include_dirs.iter().copied())
        .with_hadoop_compat(hadoop_compat)
}

#[test]
fn each_construct_hadoop_rejects_is_a_warning_or_with_hadoop_compat_an_error() {
    for &(name, files, dirs, count) in CASES {
        let model = load(files, &options(dirs, false)).unwrap_or_else(|d| panic!("{name}: {d}"));
        let warnings = model.warnings();
        assert_eq!(warnings.len(), count, "{name}:\n{warnings}");
        assert_eq!(warnings.error_count(), 0, "{name}");
        for w in &warnings {
            assert_eq!(w.severity(), Severity::Warning, "{name}");
            // Each points at the construct, with the source line under its location.
            let label = w.primary_label().unwrap_or_else(|| panic!("{name}: {w:?}"));
            assert!(warnings.location_of(label).is_some());
        }
        let rendered = warnings.render(&RenderOptions::default());
        insta::assert_snapshot!(name, rendered);

        let errors = load(files, &options(dirs, true)).unwrap_err();
        assert_eq!(errors.error_count(), count, "{name}:\n{errors}");
        let messages = |d: &hadoop_record_compiler::Diagnostics| -> Vec<String> {
            d.iter().map(|d| d.message().to_owned()).collect()
        };
        assert_eq!(messages(&errors), messages(&warnings), "{name}");
        assert!(
            errors.to_string().contains("(`--hadoop-compat`)"),
            "{name}:\n{errors}"
        );
    }
}

#[test]
fn what_hadoop_accepts_gives_no_warning() {
    for file in PORTABLE {
        let model = load(&[file], &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"));
        assert!(model.warnings().is_empty(), "{file}:\n{}", model.warnings());
        load(&[file], &options(&[], true)).unwrap_or_else(|d| panic!("{file}:\n{d}"));
    }
    // A root that another root includes, and a bare `//` at the very end.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.jr"),
        "module a { class X { int x; } }\n//",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.jr"),
        "include \"a.jr\"\nmodule b { class Y { a.X x; } }\n",
    )
    .unwrap();
    let roots = [dir.path().join("a.jr"), dir.path().join("b.jr")];
    let model = load(&roots, &LoadOptions::default()).unwrap();
    assert!(model.warnings().is_empty(), "{}", model.warnings());
}

#[test]
fn an_included_file_may_name_what_its_includer_declared_before_the_include() {
    // Hadoop's rcc reads the included file where the include stands, with what it already
    // knows (checked by hand).
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "back.jr",
        "module a { class X { int x; } }\ninclude \"inc.jr\"\n",
    );
    write("inc.jr", "module b { class Y { a.X x; } }\n");
    let model = load(&[dir.path().join("back.jr")], &LoadOptions::default()).unwrap();
    assert!(model.warnings().is_empty(), "{}", model.warnings());
    // Alone, `inc.jr` does not know `a.X`, and it was not named on the command line with
    // `back.jr` as its root: compiled on its own, it is a different story.
    let roots = [dir.path().join("inc.jr"), dir.path().join("back.jr")];
    let model = load(&roots, &LoadOptions::default()).unwrap();
    let warnings = model.warnings();
    assert_eq!(warnings.len(), 1, "{warnings}");
    assert!(warnings.to_string().contains("`a.X` is not declared in"));
}

#[test]
fn build_scripts_fail_with_hadoop_compat() {
    let dir = tempfile::tempdir().unwrap();
    let file = Path::new(CRATE_DIR).join("tests/ddl/compat/semicolon_after_class.jr");
    let mut config = hadoop_record_compiler::Config::new();
    config
        .out_dir(dir.path())
        .emit_rerun_if_changed(false)
        .emit_warnings(false);
    config.compile(&[&file]).unwrap();
    let err = config.hadoop_compat(true).compile(&[&file]).unwrap_err();
    assert!(
        err.to_string()
            .contains("error: `;` after the `}` of class `A`"),
        "{err}"
    );
}
