//! Generates Rust for the Hadoop fixture schemas and for the compiler's test shapes, as a
//! user's build script would.

use hadoop_record_compiler::Config;

fn main() {
    // composite.jr includes common.jr, whose types come along.
    Config::new()
        .file_name("fixtures")
        .compile(&[
            "../fixtures/hadoop-java/prims.jr",
            "../fixtures/hadoop-java/composite.jr",
        ])
        .unwrap();

    // Every shape of the compiler's snapshot tests, so that all of it is compiled with
    // #![deny(warnings)] and linted by CI's clippy run.
    let ddl = "../../compiler/tests/ddl";
    Config::new()
        .file_name("shapes")
        // Forward references, recursion and `};` on purpose: no warnings about them.
        .emit_warnings(false)
        // Attributes of the user's: tests/shapes.rs checks they arrived.
        .type_attribute(".shapes.nested.Measured", "#[derive(Copy)]")
        .field_attribute("Measured.weight", "#[doc(alias = \"mass\")]")
        .compile(&[
            format!("{ddl}/rust/all_types.jr"),
            format!("{ddl}/rust/containers.jr"),
            format!("{ddl}/rust/keywords.jr"),
            format!("{ddl}/rust/modules.jr"),
            format!("{ddl}/docs/outlinks.jr"),
            format!("{ddl}/docs/testrec.jr"),
            format!("{ddl}/hadoop/test.jr"),
            format!("{ddl}/hadoop/links.jr"),
            format!("{ddl}/hadoop/signatures.jr"),
            format!("{ddl}/hadoop/single.jr"),
        ])
        .unwrap();

    // Only Debug, Clone and PartialEq, and the user's own derives where the default ones
    // would clash: the example of `Config::type_attribute`'s documentation.
    Config::new()
        .file_name("minimal")
        .minimal_derives(true)
        .type_attribute("links.Link", "#[derive(Eq, Hash)]")
        .compile(&["../../examples/weblinks/schema/outlinks.jr"])
        .unwrap();

    // The stress corpus of names: every back end's keywords and colliding spellings.
    Config::new()
        .file_name("stress")
        .compile(&[format!("{ddl}/names/stress.jr")])
        .unwrap();
}
