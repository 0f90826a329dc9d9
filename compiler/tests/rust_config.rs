//! `Config`, the build-script interface: where it writes, what it writes, that it leaves
//! unchanged files alone, and how DDL errors fail the build.

use std::path::Path;
use std::time::{Duration, SystemTime};

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::config::Error;
use hadoop_record_compiler::{load, Config, LoadOptions};

const LINKS: &str = "tests/ddl/docs/links.jr";
const OUTLINKS: &str = "tests/ddl/docs/outlinks.jr";

fn config(out: &Path) -> Config {
    let mut config = Config::new();
    // The documentation's DDL has `};`: no cargo:warning lines in the test output.
    config
        .out_dir(out)
        .emit_rerun_if_changed(false)
        .emit_warnings(false);
    config
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// Sets the file's modification time an hour back, so that a rewrite is visible.
fn age(path: &Path) -> SystemTime {
    let old = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
    modified(path)
}

#[test]
fn writes_what_the_back_end_generates_named_after_the_first_schema() {
    let out = tempfile::tempdir().unwrap();
    let path = config(out.path()).compile(&[OUTLINKS]).unwrap();
    assert_eq!(path, out.path().join("outlinks.rs"));
    let model = load(&[OUTLINKS], &LoadOptions::default()).unwrap();
    let expected = rust::generate_file(&model, &Options::default()).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);

    let named = config(out.path())
        .file_name("records")
        .compile(&[OUTLINKS])
        .unwrap();
    assert_eq!(named, out.path().join("records.rs"));
}

#[test]
fn paths_in_the_output_are_relative_to_the_crate() {
    // Given absolute, shown relative to CARGO_MANIFEST_DIR (set by Cargo for tests too).
    let out = tempfile::tempdir().unwrap();
    let absolute = Path::new(env!("CARGO_MANIFEST_DIR")).join(OUTLINKS);
    let path = config(out.path()).compile(&[&absolute]).unwrap();
    let code = std::fs::read_to_string(path).unwrap();
    assert!(code.contains("from `tests/ddl/docs/outlinks.jr`"), "{code}");
    assert!(code.contains("`tests/ddl/docs/links.jr:4:11`"), "{code}");
    assert!(!code.contains(env!("CARGO_MANIFEST_DIR")), "{code}");
}

#[test]
fn a_file_is_rewritten_only_when_its_content_changes() {
    let out = tempfile::tempdir().unwrap();
    let path = config(out.path()).compile(&[LINKS]).unwrap();
    let before = age(&path);
    config(out.path()).compile(&[LINKS]).unwrap();
    assert_eq!(modified(&path), before, "unchanged output was rewritten");

    config(out.path())
        .type_attribute("Link", "#[non_exhaustive]")
        .compile(&[LINKS])
        .unwrap();
    assert_ne!(modified(&path), before, "changed output was not written");
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("#[non_exhaustive]\n    pub struct Link {"));
}

#[test]
fn include_dirs_and_attributes_reach_the_back_end() {
    let out = tempfile::tempdir().unwrap();
    // testrec.jr's include "inclrec.jr" is found next to it; a schema elsewhere needs -I.
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("main.jr");
    std::fs::write(
        &main,
        "include \"links.jr\"\nmodule m { class M { links.Link link; } }\n",
    )
    .unwrap();
    let err = config(out.path()).compile(&[&main]).unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot find included file `links.jr`"),
        "{err}"
    );

    let path = config(out.path())
        .include_dir("tests/ddl/docs")
        .field_attribute("links.Link.URL", "#[doc(alias = \"address\")]")
        .runtime_crate("::hr")
        .compile(&[&main])
        .unwrap();
    let code = std::fs::read_to_string(path).unwrap();
    assert!(code.contains("pub struct M {"), "{code}");
    assert!(
        code.contains("#[doc(alias = \"address\")]\n        pub url: String,"),
        "{code}"
    );
    assert!(code.contains("#[derive(::hr::Record)]"), "{code}");
    // Outside the crate: the file name only, so the output is the same on every machine.
    assert!(code.contains("from `main.jr`"), "{code}");
}

#[test]
fn ddl_errors_read_as_the_cli_prints_them() {
    let out = tempfile::tempdir().unwrap();
    let bad = "tests/ddl/bad/many_errors_at_once.jr";
    let err = config(out.path()).compile(&[bad]).unwrap_err();
    let Error::Ddl(diagnostics) = &err else {
        panic!("{err}")
    };
    let text = err.to_string();
    assert_eq!(
        text,
        format!(
            "{diagnostics}error: rcc could not compile the DDL: found {} errors",
            diagnostics.error_count()
        )
    );
    // `.unwrap()` in a build script shows the same text.
    assert_eq!(format!("{err:?}"), text);
    assert!(
        text.contains("--> tests/ddl/bad/many_errors_at_once.jr:"),
        "{text}"
    );
    assert!(std::fs::read_dir(out.path()).unwrap().next().is_none());
}

#[test]
fn without_out_dir_it_says_where_to_write() {
    if std::env::var_os("OUT_DIR").is_some() {
        // Only Cargo sets OUT_DIR, and only for build scripts and crates that have one.
        return;
    }
    let err = Config::new()
        .emit_rerun_if_changed(false)
        .emit_warnings(false)
        .compile(&[LINKS])
        .unwrap_err();
    assert!(matches!(err, Error::NoOutDir));
    assert!(err.to_string().contains("OUT_DIR is not set"), "{err}");
}

/// What each record derives: by default Hadoop's order, `Eq` and `Hash` where no float is
/// inside; with `minimal_derives`, `Debug`, `Clone` and `PartialEq` alone.
#[test]
fn derives_are_the_documented_ones() {
    let out = tempfile::tempdir().unwrap();
    let code = |config: &mut Config| {
        let path = config.compile(&[OUTLINKS]).unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    let default = code(&mut config(out.path()));
    // Link has no float: Eq, Hash and Hadoop's Ord.
    assert!(
        default.contains("#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]"),
        "{default}"
    );
    assert!(default.contains(", ord)]"), "{default}");
    assert!(!default.contains("PartialOrd"), "{default}");

    let minimal = code(config(out.path()).minimal_derives(true));
    assert!(
        minimal.contains("#[derive(Debug, Clone, PartialEq)]"),
        "{minimal}"
    );
    for absent in ["Default", "Eq,", "Hash", ", ord)]", "partial_ord"] {
        assert!(!minimal.contains(absent), "{absent}: {minimal}");
    }
}

/// What a build script compiles: the compiler without default features generates Rust only,
/// and neither it nor the runtime without default features pulls in a template engine, C
/// code or a compression codec. With default features the C++ and Java back ends are there.
#[test]
fn lean_builds_compile_no_codec_template_engine_or_c() {
    let tree = |package: &str, lean: bool| {
        let mut cargo = std::process::Command::new(env!("CARGO"));
        cargo
            .args([
                "tree",
                "--offline",
                "--prefix",
                "none",
                "-e",
                "normal,build",
            ])
            .args(["-p", package])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if lean {
            cargo.arg("--no-default-features");
        }
        let out = cargo.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let has =
        |crates: &str, name: &str| crates.lines().any(|l| l.starts_with(&format!("{name} v")));
    for package in ["hadoop-record", "hadoop-record-compiler"] {
        let crates = tree(package, true);
        for absent in [
            "tera",
            "flate2",
            "snap",
            "bzip2",
            "lz4",
            "lz4_flex",
            "cc",
            "libz-sys",
            "lz4-sys",
            "miniz_oxide",
        ] {
            assert!(
                !has(&crates, absent),
                "{package} without default features depends on {absent}:\n{crates}"
            );
        }
    }
    assert!(has(&tree("hadoop-record-compiler", false), "tera"));
}
