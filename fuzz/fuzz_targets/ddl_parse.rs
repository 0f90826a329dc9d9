//! Feeds arbitrary bytes to the DDL front end as a file in memory (so `include` cannot
//! reach the real disk): parsing, include resolution, checks and diagnostic rendering must
//! never panic. Whatever parses must print as DDL that parses to the same tree, and format
//! (`rcc fmt`) to text that parses to the same tree and formats to itself.
#![no_main]

use hadoop_record_compiler::{
    format, load_with, syntax, LoadOptions, MemoryFileSystem, RenderOptions,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut fs = MemoryFileSystem::new();
    fs.insert("fuzz.jr", data);
    // A second file, so that includes of it and include cycles are reachable.
    fs.insert(
        "other.jr",
        "include \"fuzz.jr\" module other { class O { int x; } }",
    );
    match load_with(&fs, &["fuzz.jr"], &LoadOptions::default()) {
        Ok(model) => {
            // Not the signatures: they grow exponentially with records that hold a record
            // twice, one level after another, which is Hadoop's definition, not a bug.
            let schema = model.to_schema();
            assert_eq!(schema.schema().records().len(), model.records().len());
        }
        Err(diagnostics) => {
            assert!(diagnostics.error_count() > 0);
            let _ = diagnostics.render(&RenderOptions::default().with_color(true));
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(tree) = syntax::parse(text) {
            let printed = tree.to_string();
            let again = syntax::parse(&printed).expect("printed DDL parses");
            assert_eq!(tree.clone().without_spans(), again.without_spans());

            let formatted = format::format_tree(text, &tree);
            let reparsed = syntax::parse(&formatted).expect("formatted DDL parses");
            assert_eq!(reparsed.comments.len(), tree.comments.len());
            assert_eq!(reparsed.without_spans(), tree.without_spans());
            assert_eq!(
                format::format_source(&formatted).as_deref(),
                Ok(formatted.as_str())
            );
        }
    }
});
