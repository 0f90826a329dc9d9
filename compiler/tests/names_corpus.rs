//! The stress corpus of names, `tests/ddl/names/stress.jr`: every word that is reserved or
//! awkward in a target language (keywords of Rust, C++ and Java, names their generated code
//! or standard library use, primitive types) as a field, a record and a module segment,
//! and names that collide once put in a language's case conventions. It is Hadoop-valid DDL
//! (Hadoop's rcc parses it), so every back end must compile what it generates for it;
//! `tests/generated` compiles the Rust with warnings denied and checks that the wire names
//! are the DDL names. `docs/naming.md` has the rules it exercises.
//!
//! The file is generated from the lists below; this test fails when it is out of date.
//! Rewrite it with `UPDATE_CORPUS=1 cargo test -p hadoop-record-compiler --test names_corpus`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use hadoop_record_compiler::backend::rust::{self, Options};
use hadoop_record_compiler::syntax::ast::is_keyword;
use hadoop_record_compiler::{load, LoadOptions};

const CORPUS: &str = "tests/ddl/names/stress.jr";

/// Rust: strict, reserved and weak keywords of every edition, primitive types, the
/// prelude's types, traits and variants, crates, and the names the derive's expansion and
/// the generated code use.
const RUST: &[&str] = &[
    "abstract",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
    "union",
    "macro_rules",
    "raw",
    "safe",
    "auto",
    "bool",
    "char",
    "str",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f16",
    "f32",
    "f64",
    "f128",
    "String",
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Box",
    "Copy",
    "Clone",
    "Default",
    "Debug",
    "Drop",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Send",
    "Sync",
    "Sized",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "ToString",
    "ToOwned",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Extend",
    "std",
    "core",
    "alloc",
    "hadoop_record",
    "Record",
    "Field",
    "MapKey",
    "Value",
    "Schema",
    "Ordering",
    "BTreeMap",
    "HashMap",
    "derive",
    "allow",
    "doc",
    "cfg",
    "record",
    "test",
    "main",
    "drop",
];

/// C++: keywords and alternative tokens, predefined and standard macros, and the names
/// Hadoop's librecordio and its generated code use.
const CPP: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "final",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "override",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    "NULL",
    "EOF",
    "BUFSIZ",
    "INT_MAX",
    "errno",
    "assert",
    "stdin",
    "stdout",
    "stderr",
    "linux",
    "unix",
    "main",
    "std",
    "string",
    "int8_t",
    "int32_t",
    "int64_t",
    "size_t",
    "hadoop",
    "IArchive",
    "OArchive",
    "Record",
    "serialize",
    "deserialize",
    "signature",
    "validate",
    "type",
];

/// Java: keywords, literals and contextual keywords, and the names Hadoop's generated Java
/// and the classes it uses take.
const JAVA: &[&str] = &[
    "abstract",
    "assert",
    "break",
    "case",
    "catch",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "interface",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
    "record",
    "yield",
    "sealed",
    "permits",
    "open",
    "requires",
    "exports",
    "opens",
    "to",
    "uses",
    "provides",
    "with",
    "transitive",
    "when",
    "java",
    "javax",
    "org",
    "apache",
    "hadoop",
    "Object",
    "String",
    "Class",
    "Override",
    "Deprecated",
    "Buffer",
    "Record",
    "RecordInput",
    "RecordOutput",
    "Comparator",
    "Index",
    "Utils",
    "WritableComparator",
    "IOException",
    "ArrayList",
    "TreeMap",
    "Iterator",
    "Set",
    "Map",
    "Integer",
    "Long",
    "Float",
    "Double",
    "Boolean",
    "Byte",
    "Character",
    "System",
    "Math",
    "hashCode",
    "equals",
    "clone",
    "compareTo",
    "toString",
    "serialize",
    "deserialize",
    "signature",
    "getTypeInfo",
    "setTypeFilter",
    "compare",
    "compareRaw",
    "slurpRaw",
];

/// Field names that become the same name in some language's conventions (snake_case,
/// camelCase getters, upper case), in groups of mates.
const FIELD_MATES: &[&[&str]] = &[
    &["b", "B"],
    &["url", "URL", "Url"],
    &["isRelative", "is_relative", "IsRelative", "IS_RELATIVE"],
    &["type", "Type", "TYPE", "type_"],
    &["self", "Self", "SELF", "self_", "self_2"],
    &["super", "Super", "crate", "Crate"],
    &["x", "x_", "X", "x_2", "X_2"],
    &["aB", "a_b", "A_B", "a__b", "AB"],
    &["u8", "U8", "i32", "I32"],
];

/// Record names that collide in some language's conventions, in groups of mates.
const RECORD_MATES: &[&[&str]] = &[
    &["link", "Link", "LINK", "link_"],
    &["self", "Self", "Self_", "Self2"],
    &["u8", "U8", "bool", "Bool"],
    &["Rec1", "rec1", "Rec1_2"],
    &["my_rec", "MyRec", "myRec"],
];

/// Every word of the lists that can be a DDL name, sorted.
fn words() -> BTreeSet<&'static str> {
    RUST.iter()
        .chain(CPP)
        .chain(JAVA)
        .copied()
        .filter(|w| !is_keyword(w))
        .collect()
}

/// The corpus text.
fn corpus() -> String {
    let words = words();
    let mut out = String::new();
    let mut all: Vec<String> = Vec::new();
    out.push_str(
        "// Generated by compiler/tests/names_corpus.rs: do not edit. A stress corpus of names\n\
         // for every back end (docs/naming.md); Hadoop-valid DDL: no forward references,\n\
         // names from other modules qualified.\n",
    );

    // Every word as a field name, and mates side by side.
    out.push_str("\nmodule names.fields {\n    class Words {\n");
    for w in &words {
        writeln!(out, "        int {w};").unwrap();
    }
    out.push_str("    }\n");
    for (i, mates) in FIELD_MATES.iter().enumerate() {
        writeln!(out, "    class Mates{i} {{").unwrap();
        for (j, m) in mates.iter().enumerate() {
            let ty = ["byte", "buffer", "ustring", "vector<int>", "long"][j % 5];
            writeln!(out, "        {ty} {m};").unwrap();
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    all.push("names.fields.Words".into());
    all.extend((0..FIELD_MATES.len()).map(|i| format!("names.fields.Mates{i}")));

    // Every word as a record, holding a field of its own name; records named like
    // primitive and prelude types used by the records after them.
    out.push_str("\nmodule names.records {\n");
    for w in &words {
        writeln!(out, "    class {w} {{ int {w}; }}").unwrap();
        all.push(format!("names.records.{w}"));
    }
    out.push_str(
        "    class Uses {\n        String s; Vec v; Option o; Box b; u8 u; Self me; Record r;\n        \
         ustring text; buffer bytes; vector<int> ints; map<ustring, Vec> byName;\n    }\n}\n",
    );
    all.push("names.records.Uses".into());

    // Record mates, one module per group.
    for (i, mates) in RECORD_MATES.iter().enumerate() {
        writeln!(out, "\nmodule names.mates{i} {{").unwrap();
        for m in mates.iter() {
            writeln!(out, "    class {m} {{ int {m}; }}").unwrap();
            all.push(format!("names.mates{i}.{m}"));
        }
        let refs: Vec<String> = mates
            .iter()
            .enumerate()
            .map(|(j, m)| format!("{m} r{j};"))
            .collect();
        writeln!(out, "    class Refs {{ {} }}", refs.join(" ")).unwrap();
        out.push_str("}\n");
        all.push(format!("names.mates{i}.Refs"));
    }

    // Every word as a module segment.
    for w in &words {
        writeln!(
            out,
            "\nmodule names.segments.{w} {{ class M {{ int m; }} }}"
        )
        .unwrap();
        all.push(format!("names.segments.{w}.M"));
    }

    // Modules that differ in case, a module named like a record of its parent, a field
    // named like the first segment of the module its type is in, modules named like crates
    // at the top.
    for m in ["Modules", "modules", "MODULES"] {
        writeln!(out, "\nmodule names.{m} {{ class {m} {{ int {m}; }} }}").unwrap();
        all.push(format!("names.{m}.{m}"));
    }
    out.push_str("\nmodule names { class link { int a; } class Link { int b; } }\n");
    out.push_str("\nmodule names.link { class Inner { names.link names; names.Link Link; } }\n");
    all.extend(["names.link", "names.Link", "names.link.Inner"].map(String::from));
    for top in ["std", "core", "hadoop_record", "java", "org", "hadoop"] {
        writeln!(
            out,
            "\nmodule {top} {{ class {top} {{ names.records.{top} {top}; }} }}"
        )
        .unwrap();
        all.push(format!("{top}.{top}"));
    }
    out.push_str("\nmodule self.super.crate.Self { class Self { int Self; } }\n");
    all.push("self.super.crate.Self.Self".into());

    // One record reaching every other, so that one schema covers them all.
    out.push_str("\nmodule names.all {\n    class All {\n");
    for (i, record) in all.iter().enumerate() {
        writeln!(out, "        {record} r{i};").unwrap();
    }
    out.push_str("    }\n}\n");
    out
}

#[test]
fn the_corpus_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    let text = corpus();
    if std::env::var_os("UPDATE_CORPUS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{CORPUS} is out of date: run UPDATE_CORPUS=1 cargo test -p hadoop-record-compiler --test names_corpus"
    );
}

#[test]
fn the_corpus_checks_and_generates_rust_in_both_layouts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    let model = load(&[&path], &LoadOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    assert!(model.records().len() > 500, "{}", model.records().len());
    let code = rust::generate_file(&model, &Options::default()).unwrap();
    syn::parse_file(&code).unwrap();
    let files = rust::generate_tree(&model, &Options::default()).unwrap();
    // Module files never differ only in case (case-insensitive file systems).
    let mut lower = BTreeSet::new();
    for file in &files {
        let name = file.path.to_string_lossy().to_lowercase();
        assert!(lower.insert(name), "{}", file.path.display());
    }
}
