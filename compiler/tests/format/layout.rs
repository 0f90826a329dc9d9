//! The canonical layout (docs/format.md) on chosen inputs: snapshots of Hadoop's shapes,
//! the documentation's examples, the extensions and comments in every place, and one test
//! per rule.

use hadoop_record_compiler::format::format_source;
use hadoop_record_compiler::syntax;

fn format(text: &str) -> String {
    let formatted = format_source(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    assert_eq!(format_source(&formatted).unwrap(), formatted, "idempotent");
    formatted
}

#[test]
fn example_files_format_as_their_snapshots() {
    let mut count = 0;
    insta::glob!("..", "ddl/{docs,hadoop,extensions,format}/*.jr", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(format(&text));
        count += 1;
    });
    assert!(count >= 13, "only {count} files");
}

#[test]
fn one_declaration_per_line_four_space_indents_and_spaced_maps() {
    assert_eq!(
        format("module a.b{class C{int x;map<ustring,vector<C>>m;vector < vector<int> > v ;}}"),
        "\
module a.b {
    class C {
        int x;
        map<ustring, vector<C>> m;
        vector<vector<int>> v;
    }
}
"
    );
}

#[test]
fn blank_lines_are_kept_up_to_one_but_not_after_or_before_braces() {
    let text = "module m {\n\n\n    class A {\n\n        int x;\n\n\n\n        int y;\n        int z;\n\n    }\n    class B { int w; }\n\n\n    class C { int v; }\n\n}\n";
    assert_eq!(
        format(text),
        "\
module m {
    class A {
        int x;

        int y;
        int z;
    }
    class B {
        int w;
    }

    class C {
        int v;
    }
}
"
    );
}

#[test]
fn modules_stand_apart_and_includes_stay_grouped() {
    let text = "include \"a.jr\"\ninclude \"b.jr\"\n\n\ninclude \"c.jr\"\nmodule m { class A { int x; } }\nmodule n { class B { int y; } }\ninclude \"d.jr\"\n";
    assert_eq!(
        format(text),
        "\
include \"a.jr\"
include \"b.jr\"

include \"c.jr\"

module m {
    class A {
        int x;
    }
}

module n {
    class B {
        int y;
    }
}

include \"d.jr\"
"
    );
}

#[test]
fn what_hadoops_rcc_rejects_without_reason_goes() {
    // A byte order mark, `;` after `}`, a final `//` comment without a line break.
    let text = "\u{FEFF}module m {\n    class A {\n        int x;\n    };\n}; // the end";
    assert_eq!(
        format(text),
        "module m {\n    class A {\n        int x;\n    }\n} // the end\n"
    );
    let tree = syntax::parse(&format(text)).unwrap();
    assert_eq!((tree.bom, tree.unterminated_comment), (None, None));
}

#[test]
fn line_breaks_follow_the_first_line_of_the_source() {
    let crlf = "// a\r\nmodule m {\r\n  class A { int x; /* one\r\n   * two */ }\r\n}\r\n";
    assert_eq!(
        format(crlf),
        "// a\r\nmodule m {\r\n    class A {\r\n        int x; /* one\r\n                * two */\r\n    }\r\n}\r\n"
    );
    let mixed = "module m {\n class A { int x; }\r\n}";
    assert_eq!(
        format(mixed),
        "module m {\n    class A {\n        int x;\n    }\n}\n"
    );
    // A lone carriage return ends a line for Hadoop's lexer too; output ends lines with LF.
    assert_eq!(
        format("// a\rmodule m { class A { int x; } }"),
        "// a\nmodule m {\n    class A {\n        int x;\n    }\n}\n"
    );
}

#[test]
fn comments_keep_their_places() {
    let text = "\
// Leading, on its own line.
module m { // after the brace
    class A { int x; // after x
        /* before y */ int y; /* after y */ // and more
        // before the brace
    }
} // after the module
// at the end";
    assert_eq!(
        format(text),
        "\
// Leading, on its own line.
module m { // after the brace
    class A {
        int x; // after x
        /* before y */
        int y; /* after y */ // and more
        // before the brace
    }
} // after the module
// at the end
"
    );
}

#[test]
fn comments_inside_a_declaration_break_it_only_where_they_must() {
    // A `//` comment ends its line: what follows goes on the next, one level deeper.
    assert_eq!(
        format("module m { class A { vector< // why\n int> v; map<int /* k */, long> w; } }"),
        "\
module m {
    class A {
        vector< // why
            int> v;
        map<int /* k */ , long> w;
    }
}
"
    );
}

#[test]
fn block_comments_keep_their_text_and_starred_lines_align() {
    let text = "module m {\n\t\t/**\n\t\t * Tabbed,\n\t\t *   inside.\n\t\t */\n  class A {\n\t/* free\n\t   text\n   */\n  int x; }\n}\n";
    assert_eq!(
        format(text),
        "\
module m {
    /**
     * Tabbed,
     *   inside.
     */
    class A {
        /* free
\t   text
   */
        int x;
    }
}
"
    );
}

#[test]
fn trailing_whitespace_goes_everywhere() {
    let text = "// note   \nmodule m {   \n class A { int x; /* a   \n b */ }  \n}   \n";
    let formatted = format(text);
    assert!(
        formatted.lines().all(|l| l == l.trim_end()),
        "{formatted:?}"
    );
}

#[test]
fn display_prints_the_layout_without_comments() {
    let tree = syntax::parse("include \"a.jr\" // c\ninclude \"b.jr\"\nmodule m { /* c */ class A { int x; } class B { int y; } };").unwrap();
    assert_eq!(
        tree.to_string(),
        "include \"a.jr\"\ninclude \"b.jr\"\n\nmodule m {\n    class A {\n        int x;\n    }\n    class B {\n        int y;\n    }\n}\n"
    );
}

#[test]
fn a_file_that_does_not_parse_gives_the_parse_error() {
    for text in [
        "",
        "module m { class A { int x } }",
        "module m { class A { int x; }",
        "/* open",
    ] {
        assert_eq!(
            format_source(text).unwrap_err(),
            syntax::parse(text).unwrap_err(),
            "{text:?}"
        );
    }
}
