//! Bad input is normal input: nothing here may panic, overflow the stack or take long.
//! These run on the default test threads (2 MiB stacks).

use hadoop_record_compiler::diagnostics::QUOTE_CHARS;
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

/// A record whose one field is an `int` inside `open`, closed with as many `>`s as `depth`.
fn nested_field(open: &str, depth: usize) -> String {
    format!(
        "module m {{ class A {{ {open}int{} x; }} }}",
        ">".repeat(depth)
    )
}

#[test]
fn twenty_thousand_nested_vectors_is_a_depth_error() {
    let depth = 20_000;
    let text = nested_field(&"vector<".repeat(depth), depth);
    let rendered = check(text).expect("rejected");
    assert!(rendered.contains("type nested too deeply"), "{rendered}");
    assert!(rendered.contains("in.jr:1:"), "{rendered}");
    // The long line is shown as a window, not 160 KB of text.
    assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
}

#[test]
fn deep_maps_are_limited_too() {
    let depth = 5_000;
    let text = nested_field(&"map<int, ".repeat(depth), depth);
    assert!(check(text).unwrap().contains("type nested too deeply"));
}

#[test]
fn nesting_up_to_the_limit_is_accepted_and_round_trips() {
    let depth = syntax::MAX_TYPE_DEPTH;
    let text = nested_field(&("vector<".repeat(depth - 1) + "map<ustring, "), depth);
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

/// Issue 15: no diagnostic grows with the size of the input that caused it. Every quoted
/// name is an excerpt (its first characters, an ellipsis and its full length), and the
/// diagnostic still points at `file:line:col`.
#[test]
fn huge_names_are_quoted_as_excerpts() {
    let huge = "a".repeat(100_000);
    let cut = format!("`{}…` (100000 bytes)", "a".repeat(QUOTE_CHARS));
    for (text, message, at) in [
        (
            format!("module m {{ class C {{ {huge} x; }} }}"),
            format!("unknown type {cut}"),
            "in.jr:1:22",
        ),
        (
            format!("module m {{ class C {{ int {huge}; int {huge}; }} }}"),
            format!("field {cut} is declared twice in class `C`"),
            "in.jr:1:100032",
        ),
        (
            format!("module {huge} {{ class C {{ int x; }} }}\nmodule {huge} {{ class C {{ int x; }} }}"),
            format!("class `C` is declared twice in module {cut}"),
            "in.jr:2:100017",
        ),
        (
            format!("module m {{ class C {{ int x; }} {huge} }}"),
            format!("found {cut}"),
            "in.jr:1:",
        ),
        (
            format!("include \"{huge}\"\nmodule m {{ class C {{ int x; }} }}"),
            format!("cannot find included file {cut}"),
            "in.jr:1:9",
        ),
    ] {
        let rendered = check(text).expect("rejected");
        assert!(rendered.contains(&message), "{message}\n{rendered}");
        assert!(rendered.contains(at), "{at}\n{rendered}");
        assert!(rendered.len() < 2_000, "{} bytes:\n{rendered}", rendered.len());
    }
}

/// Lists of names in a diagnostic name a few and count the rest, and a diagnostic points
/// at a few places and counts the rest, however many the input holds.
#[test]
fn long_lists_are_cut_short() {
    // A containment cycle through 500 records, each holding the next.
    let n = 500;
    let mut text = String::from("module m {\n");
    for i in 0..n {
        text.push_str(&format!("class R{i} {{ R{} next; }}\n", (i + 1) % n));
    }
    text.push('}');
    let rendered = check(text).expect("rejected");
    assert!(rendered.contains("contains itself"), "{rendered}");
    assert!(rendered.contains("… (493 more)"), "{rendered}");
    assert!(
        rendered.contains("and 490 more place(s) not shown"),
        "{rendered}"
    );
    assert!(
        rendered.len() < 4_000,
        "{} bytes:\n{rendered}",
        rendered.len()
    );

    // A simple name declared by 300 modules.
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("module m{i} {{ class P {{ int x; }} }}\n"));
    }
    text.push_str("module user { class U { P p; } }\n");
    let rendered = check(text).expect("rejected");
    assert!(rendered.contains("ambiguous record name `P`"), "{rendered}");
    assert!(rendered.contains("… (292 more)"), "{rendered}");
    assert!(
        rendered.len() < 4_000,
        "{} bytes:\n{rendered}",
        rendered.len()
    );
}
