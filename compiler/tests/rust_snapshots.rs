//! Snapshots of the Rust back end's output: the fixture schemas, the documentation's
//! examples, Hadoop's test shapes, and awkward and colliding names; plus user attributes and
//! the file-per-module layout. (`rust_build` compiles all of this with the derive.)

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::backend::OutputFile;
use hadoop_record_compiler::{load, LoadOptions, Model};

/// Loads DDL; paths are relative to the crate directory, where `cargo test` runs.
fn model(paths: &[&str]) -> Model {
    load(paths, &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"))
}

fn generate_with(paths: &[&str], options: &Options) -> String {
    rust::generate_file(&model(paths), options).unwrap_or_else(|d| panic!("{d}"))
}

fn generate(paths: &[&str]) -> String {
    generate_with(paths, &Options::default())
}

/// The file-per-module layout for DDL at `paths`.
fn tree(paths: &[&str]) -> Vec<OutputFile> {
    rust::generate_tree(&model(paths), &Options::default()).unwrap()
}

/// The paths of a layout's files.
fn file_paths(files: &[OutputFile]) -> Vec<&str> {
    files.iter().map(|f| f.path.to_str().unwrap()).collect()
}

fn show_tree(files: &[OutputFile]) -> String {
    files
        .iter()
        .map(|f| format!("==> {} <==\n{}", f.path.display(), f.contents))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Snapshots the Rust generated for each `{dir}/{name}.jr` as `{prefix}_{name}`.
fn snapshot_each(dir: &str, prefix: &str, names: &[&str]) {
    for name in names {
        insta::assert_snapshot!(
            format!("{prefix}_{name}"),
            generate(&[&format!("{dir}/{name}.jr")])
        );
    }
}

#[test]
fn fixture_schemas() {
    snapshot_each(
        "../tests/fixtures/hadoop-java",
        "fixture",
        &["common", "prims", "composite"],
    );
}

#[test]
fn documentation_examples() {
    snapshot_each(
        "tests/ddl/docs",
        "docs",
        &["links", "outlinks", "inclrec", "testrec"],
    );
}

#[test]
fn hadoop_test_shapes() {
    snapshot_each(
        "tests/ddl/hadoop",
        "hadoop",
        &["test", "links", "signatures", "single"],
    );
}

#[test]
fn all_field_types_containers_and_awkward_names() {
    snapshot_each(
        "tests/ddl/rust",
        "rust",
        &["all_types", "containers", "keywords"],
    );
}

#[test]
fn file_per_module_layout() {
    let files = tree(&["tests/ddl/docs/outlinks.jr", "tests/ddl/rust/keywords.jr"]);
    assert_eq!(
        file_paths(&files),
        [
            "mod.rs",
            "links.rs",
            "outlinks.rs",
            "type/self_/match.rs",
            "nest/nest.rs"
        ]
    );
    insta::assert_snapshot!("tree_outlinks_keywords", show_tree(&files));
}

#[test]
fn a_module_with_records_and_submodules_gets_a_file_declaring_them() {
    let files = tree(&["tests/ddl/hadoop/test.jr", "tests/ddl/hadoop/links.jr"]);
    assert_eq!(
        file_paths(&files),
        [
            "mod.rs",
            "org/apache/hadoop/record.rs",
            "org/apache/hadoop/record/location.rs",
            "org/apache/hadoop/record/links.rs",
        ]
    );
    insta::assert_snapshot!("tree_hadoop", show_tree(&files));
}

#[test]
fn included_modules_are_emitted_once() {
    let dir = "../tests/fixtures/hadoop-java";
    let both = generate(&[
        &format!("{dir}/composite.jr"),
        &format!("{dir}/common.jr"),
        &format!("{dir}/composite.jr"),
    ]);
    assert_eq!(both.matches("pub mod types {").count(), 1, "{both}");
    assert_eq!(both.matches("pub struct Point {").count(), 1, "{both}");
    assert_eq!(both.matches("pub mod composite {").count(), 1, "{both}");
    // Including common.jr from composite.jr alone also brings its types.
    let one = generate(&[&format!("{dir}/composite.jr")]);
    assert!(one.contains("pub struct Named {"), "{one}");
    assert_eq!(
        one,
        both.replace("`, `../tests/fixtures/hadoop-java/common.jr", "")
    );
}

#[test]
fn output_is_deterministic() {
    let paths = [
        "../tests/fixtures/hadoop-java/composite.jr",
        "tests/ddl/rust/containers.jr",
        "tests/ddl/rust/keywords.jr",
    ];
    let first = generate(&paths);
    for _ in 0..3 {
        assert_eq!(generate(&paths), first);
    }
    assert_eq!(tree(&paths), tree(&paths));
}

#[test]
fn absolute_paths_are_shown_relative_to_the_source_root() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let absolute = dir.join("tests/ddl/docs/links.jr");
    let model = load(&[&absolute], &LoadOptions::default()).unwrap();
    let rooted = rust::generate_file(
        &model,
        &Options::default().with_source_root(Some(dir.to_path_buf())),
    )
    .unwrap();
    assert_eq!(rooted, generate(&["tests/ddl/docs/links.jr"]));
    // Outside the root (or without one): the file name only.
    let bare = rust::generate_file(&model, &Options::default()).unwrap();
    assert!(bare.contains("from `links.jr`"), "{bare}");
    assert!(bare.contains("declared at `links.jr:4:11`"), "{bare}");
    assert!(!bare.contains(dir.to_str().unwrap()), "{bare}");
}

#[test]
fn one_file_output_has_no_inner_attributes_and_a_generated_header() {
    let code = generate(&["tests/ddl/rust/keywords.jr", "tests/ddl/rust/containers.jr"]);
    assert!(code.starts_with("// @generated by rcc"), "{code}");
    assert!(!code.contains("#!["), "{code}");
    assert!(!code.contains("crate::"), "{code}");
}

#[test]
fn user_attributes_and_runtime_path() {
    let options = Options::default()
        .with_runtime_crate(Some("::my_runtime::hr".into()))
        .with_type_attribute(".", "#[doc(alias = \"ddl\")]")
        .with_type_attribute(
            ".links",
            "#[cfg_attr(feature = \"serde\", derive(serde::Serialize))]",
        )
        .with_type_attribute("OutLinks", "#[non_exhaustive] #[must_use]")
        .with_field_attribute("Link.URL", "#[doc(alias = \"address\")]")
        .with_field_attribute(".outlinks.OutLinks", "#[allow(missing_docs)]");
    insta::assert_snapshot!(
        "user_attributes",
        generate_with(&["tests/ddl/docs/outlinks.jr"], &options)
    );
}

#[test]
fn bad_attributes_and_runtime_paths_are_reported() {
    let options = Options::default()
        .with_runtime_crate(Some("not a path".into()))
        .with_type_attribute(".", "derive(Hash)")
        .with_field_attribute(".", "#[doc = ]");
    let err = rust::generate_file(&model(&["tests/ddl/docs/links.jr"]), &options).unwrap_err();
    insta::assert_snapshot!("bad_options", err.to_string());
}

#[test]
fn names_that_collide_in_rust_get_their_documented_fallbacks() {
    insta::assert_snapshot!("collisions", generate(&["tests/ddl/rust/collisions.jr"]));
    // The file-per-module layout names modules the same way, in files that differ in more
    // than case.
    let files = tree(&["tests/ddl/rust/collisions.jr"]);
    assert_eq!(
        file_paths(&files),
        [
            "mod.rs",
            "collide.rs",
            "collide/fields.rs",
            "collide/records.rs",
            "collide/modules_2.rs",
            "collide/modules.rs",
            "collide/inner.rs"
        ]
    );
}

#[test]
fn modules_named_mod_stay_inline_in_the_file_per_module_layout() {
    // A file `mod.rs` for module `mod` would overwrite the root's, and below the root rustc
    // would look for its children next to it rather than under it.
    let files = tree(&["tests/ddl/rust/modules.jr"]);
    assert_eq!(
        file_paths(&files),
        ["mod.rs", "mod/child.rs", "lib.rs", "lib/mod/leaf.rs"]
    );
    insta::assert_snapshot!("tree_modules", show_tree(&files));
}
