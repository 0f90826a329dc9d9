//! Bad input is normal input: nothing here may panic, overflow the stack or take long.
//! These run on the default test threads (2 MiB stacks).

use hadoop_record_compiler::{load_with, syntax, LoadOptions, MemoryFileSystem, RenderOptions};
use proptest::prelude::*;

/// Loads `contents` as `in.jr` from memory; the rendered diagnostics, or None when fine.
fn check(contents: impl Into<Vec<u8>>) -> Option<String> {
    let mut fs = MemoryFileSystem::new();
    fs.insert("in.jr", contents);
    load_with(&fs, &["in.jr"], &LoadOptions::default())
        .err()
        .map(|d| d.render(&RenderOptions::default()))
}

#[test]
fn twenty_thousand_nested_vectors_is_a_depth_error() {
    let depth = 20_000;
    let text = format!(
        "module m {{ class A {{ {}int{} x; }} }}",
        "vector<".repeat(depth),
        ">".repeat(depth)
    );
    let rendered = check(text).expect("rejected");
    assert!(rendered.contains("type nested too deeply"), "{rendered}");
    assert!(rendered.contains("in.jr:1:"), "{rendered}");
    // The long line is shown as a window, not 160 KB of text.
    assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
}

#[test]
fn deep_maps_are_limited_too() {
    let depth = 5_000;
    let text = format!(
        "module m {{ class A {{ {}int{} x; }} }}",
        "map<int, ".repeat(depth),
        ">".repeat(depth)
    );
    assert!(check(text).unwrap().contains("type nested too deeply"));
}

#[test]
fn nesting_up_to_the_limit_is_accepted_and_round_trips() {
    let depth = syntax::MAX_TYPE_DEPTH;
    let text = format!(
        "module m {{ class A {{ {}int{} x; }} }}",
        "vector<".repeat(depth - 1) + "map<ustring, ",
        ">".repeat(depth)
    );
    assert_eq!(check(text.clone()), None);
    let tree = syntax::parse(&text).unwrap();
    let again = syntax::parse(&tree.to_string()).unwrap();
    assert_eq!(tree.without_spans(), again.without_spans());
}

#[test]
fn ten_megabytes_of_documented_ddl() {
    // 20,000 records, each under a long doc comment: big, and realistic in shape.
    let doc = format!(
        "/**\n{} */\n",
        " * Lorem ipsum dolor sit amet, consectetur.\n".repeat(11)
    );
    let mut text = String::from("module big {\n");
    let mut i = 0;
    while text.len() < 10 << 20 {
        text.push_str(&doc);
        text.push_str(&format!(
            "    class C{i} {{ int a; vector<ustring> b; map<long, C{i}> c; }}\n"
        ));
        i += 1;
    }
    text.push_str("}\n");
    assert!(i > 15_000, "{i} records");
    assert_eq!(check(text), None);
}

#[test]
fn ten_megabytes_on_one_line_with_an_error_at_the_end() {
    let mut text = "module m { class A { int x; /* ".to_owned();
    text.push_str(&"x".repeat(10 << 20));
    text.push_str(" */ int y; @ } }");
    let rendered = check(text).unwrap();
    assert!(rendered.contains("found `@`"), "{rendered}");
    assert!(rendered.contains("in.jr:1:10485"), "{rendered}");
    assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
}

#[test]
fn ten_megabytes_of_binary_garbage() {
    // A deterministic pseudo-random byte stream.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let bytes: Vec<u8> = (0..10 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let rendered = check(bytes).unwrap();
    assert!(rendered.contains("is not UTF-8 text"), "{rendered}");
    assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let rendered = check("module \x1b[31m { }").unwrap();
    assert!(!rendered.contains('\x1b'), "{rendered:?}");
}

#[test]
fn a_long_record_chain_is_checked_without_recursion() {
    // C0 holds C1 holds … C9999: deep containment, but not a cycle.
    let n = 10_000;
    let mut text = String::from("module chain {\n");
    for i in 0..n - 1 {
        text.push_str(&format!("class C{i} {{ C{} next; }}\n", i + 1));
    }
    text.push_str(&format!("class C{} {{ int end; }}\n}}\n", n - 1));
    assert_eq!(check(text.clone()), None);
    // Closing the chain into a loop is found and reported once.
    let looped = text.replace("int end;", "C0 back;");
    let rendered = check(looped).unwrap();
    assert_eq!(rendered.matches("error:").count(), 1, "{rendered}");
    assert!(rendered.contains("record `chain.C0` contains itself"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = check(bytes);
    }

    #[test]
    fn ddl_like_text_never_panics(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("module"), Just("class"), Just("include"), Just("vector"), Just("map"),
                Just("<"), Just(">"), Just("{"), Just("}"), Just(";"), Just(","), Just("."),
                Just("\""), Just("int"), Just("ustring"), Just("A"), Just("b"), Just(" "),
                Just("\n"), Just("//"), Just("/*"), Just("*/"), Just("é"), Just("\t"),
            ],
            0..64,
        )
    ) {
        let text: String = parts.concat();
        let _ = check(text.clone());
        if let Ok(tree) = syntax::parse(&text) {
            let again = syntax::parse(&tree.to_string()).expect("printed form parses");
            prop_assert_eq!(tree.without_spans(), again.without_spans());
        }
    }
}
