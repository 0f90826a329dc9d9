//! Properties of the Rust back end on random schemas with awkward names (keywords, mixed
//! case, underscores): generation never fails or panics, and gives Rust that parses, whose
//! names are distinct (colliding ones get the fallbacks of `docs/naming.md`), whose module
//! files differ in more than case, and which is the same every time.

use std::collections::HashSet;

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::{load_with, LoadOptions, MemoryFileSystem};
use proptest::prelude::*;

/// Names drawn to collide often after conversion and to hit Rust keywords.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "type",
            "self",
            "Self",
            "super",
            "crate",
            "fn",
            "match",
            "gen",
            "async",
            "union",
            "String",
            "Vec",
            "Result",
            "Record",
            "URL",
            "url",
            "Url",
            "isRelative",
            "is_relative",
            "IsRelative",
            "a__b",
            "a_b",
            "A_B",
            "x1",
            "X1",
            "x_2",
            "links",
            "b",
            "B",
            "u8",
            "U8",
            "link",
            "Link",
            "Modules",
            "modules",
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z][a-zA-Z0-9_]{0,6}",
    ]
}

/// A field type over the primitives and the records `0..records` of `module`.
fn field_type(records: usize) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "byte", "boolean", "int", "long", "float", "double", "ustring", "buffer"
        ])
        .prop_map(str::to_owned),
        (0..records).prop_map(|r| format!("R{r}")),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| format!("vector<{t}>")),
            (inner.clone(), inner).prop_map(|(k, v)| format!("map<{k}, {v}>")),
        ]
    })
}

/// DDL text: `modules` modules, each with records `R0..` (referring to each other only
/// through vectors and maps, so containment is fine) and renamed copies with random names.
fn schema() -> impl Strategy<Value = String> {
    let module = (
        prop::collection::vec(name(), 1..3),
        prop::collection::vec(
            (name(), prop::collection::vec((name(), field_type(3)), 1..5)),
            0..4,
        ),
    );
    prop::collection::vec(module, 1..4).prop_map(|modules| {
        let mut text = String::new();
        for (m, (segments, classes)) in modules.into_iter().enumerate() {
            // A fixed first segment per module keeps module names distinct in the DDL.
            text.push_str(&format!("module m{m}.{} {{\n", segments.join(".")));
            for r in 0..3 {
                text.push_str(&format!(
                    "  class R{r} {{ vector<R{}> next; }}\n",
                    (r + 1) % 3
                ));
            }
            let mut used = HashSet::new();
            for (class, fields) in classes {
                if !used.insert(class.clone()) || class.starts_with('R') {
                    continue;
                }
                text.push_str(&format!("  class {class} {{\n"));
                let mut seen = HashSet::new();
                for (field, ty) in fields {
                    if seen.insert(field.clone()) {
                        // Wrapped in a vector: records may not contain themselves directly.
                        text.push_str(&format!("    vector<{ty}> {field};\n"));
                    }
                }
                text.push_str("  }\n");
            }
            text.push_str("}\n");
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn generation_is_valid_rust_with_distinct_names(ddl in schema()) {
        let mut fs = MemoryFileSystem::new();
        fs.insert("p.jr", ddl.as_str());
        let model = match load_with(&fs, &["p.jr"], &LoadOptions::default()) {
            Ok(model) => model,
            // DDL keywords as names and the like: the front end's business.
            Err(_) => return Ok(()),
        };
        let options = Options::default();
        let code = rust::generate_file(&model, &options).expect("every checked model generates");
        let file = syn::parse_file(&code).expect("generated Rust parses");
        prop_assert_eq!(rust::generate_file(&model, &options).unwrap(), code.clone());
        check_distinct_names(&file.items)?;
        let mut files = HashSet::new();
        for f in rust::generate_tree(&model, &options).unwrap() {
            let lower = f.path.to_string_lossy().to_lowercase();
            prop_assert!(files.insert(lower), "{}", f.path.display());
        }
    }
}

/// Within every module, type and module names are distinct; within every struct, field
/// names are.
fn check_distinct_names(items: &[syn::Item]) -> Result<(), TestCaseError> {
    let mut names = HashSet::new();
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                prop_assert!(names.insert(s.ident.to_string()), "type {}", s.ident);
                let mut fields = HashSet::new();
                for f in &s.fields {
                    let ident = f.ident.as_ref().unwrap().to_string();
                    prop_assert!(fields.insert(ident.clone()), "field {ident}");
                }
            }
            syn::Item::Mod(m) => {
                prop_assert!(names.insert(m.ident.to_string()), "module {}", m.ident);
                check_distinct_names(&m.content.as_ref().unwrap().1)?;
            }
            other => prop_assert!(
                false,
                "unexpected item {:?}",
                quote::ToTokens::to_token_stream(other).to_string()
            ),
        }
    }
    Ok(())
}
