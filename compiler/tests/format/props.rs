//! Property: any DDL, with any whitespace and comments between its tokens, formats to text
//! that formats to itself, parses to the same tree and has the same comments in the same
//! order.

use hadoop_record_compiler::format::format_source;
use hadoop_record_compiler::syntax::{self, ast};
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_]{0,5}".prop_filter("not a keyword", |n| !ast::is_keyword(n))
}

fn dotted() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(name(), 1..=3).prop_map(|segments| {
        let mut tokens = Vec::new();
        for (i, s) in segments.into_iter().enumerate() {
            if i > 0 {
                tokens.push(".".to_owned());
            }
            tokens.push(s);
        }
        tokens
    })
}

fn tokens(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|&p| p.to_owned()).collect()
}

fn ty() -> impl Strategy<Value = Vec<String>> {
    let leaf = prop_oneof![
        proptest::sample::select(ast::Primitive::ALL.to_vec()).prop_map(|p| tokens(&[p.keyword()])),
        dotted(),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|t| [tokens(&["vector", "<"]), t, tokens(&[">"])].concat()),
            (inner.clone(), inner).prop_map(|(k, v)| {
                [tokens(&["map", "<"]), k, tokens(&[","]), v, tokens(&[">"])].concat()
            }),
        ]
    })
}

fn class() -> impl Strategy<Value = Vec<String>> {
    (
        name(),
        proptest::collection::vec((ty(), name()), 0..4),
        any::<bool>(),
    )
        .prop_map(|(name, fields, semicolon)| {
            let mut out = tokens(&["class"]);
            out.extend([name, "{".to_owned()]);
            for (ty, name) in fields {
                out.extend(ty);
                out.extend([name, ";".to_owned()]);
            }
            out.push("}".to_owned());
            if semicolon {
                out.push(";".to_owned());
            }
            out
        })
}

fn item() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        "[a-z/._-]{1,8}".prop_map(|path| vec!["include".to_owned(), format!("\"{path}\"")]),
        (
            dotted(),
            proptest::collection::vec(class(), 0..3),
            any::<bool>()
        )
            .prop_map(|(name, classes, semicolon)| {
                let mut out = tokens(&["module"]);
                out.extend(name);
                out.push("{".to_owned());
                out.extend(classes.into_iter().flatten());
                out.push("}".to_owned());
                if semicolon {
                    out.push(";".to_owned());
                }
                out
            }),
    ]
}

/// What may stand between two tokens; `{n}` is replaced by a comment's number.
const TRIVIA: [&str; 12] = [
    "",
    " ",
    "\n",
    "\n\n\n",
    "\t",
    "\r\n",
    " // c{n}\n",
    "// c{n}\n\n",
    "/* c{n} */",
    "\n/* c{n} */ ",
    "/* c{n}\n   * more */\n",
    "/** c{n}\n  free text\n*/",
];

/// A DDL file: `items`' tokens with the trivia `choices` picks between them; and how many
/// comments it has.
fn text(items: Vec<Vec<String>>, choices: Vec<usize>, end: usize) -> (String, usize) {
    let tokens: Vec<String> = items.into_iter().flatten().collect();
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut out = String::new();
    let mut comments = 0;
    for (i, token) in tokens.iter().enumerate() {
        let mut trivia = TRIVIA[choices[i % choices.len()] % TRIVIA.len()].to_owned();
        if trivia.contains("{n}") {
            comments += 1;
            trivia = trivia.replace("{n}", &comments.to_string());
        }
        if trivia.is_empty() && is_word(out.chars().last()) && is_word(token.chars().next()) {
            trivia = " ".to_owned();
        }
        out.push_str(&trivia);
        out.push_str(token);
    }
    // The file may end in a `//` comment without a line break.
    out.push_str(["", "\n", " // end", "\n\n/* end */\n"][end % 4]);
    (out, comments + usize::from(end % 4 >= 2))
}

fn comment_lines(file: &ast::File) -> Vec<Vec<String>> {
    file.comments
        .iter()
        .map(|c| c.text.lines().map(|l| l.trim().to_owned()).collect())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn formatting_is_idempotent_and_keeps_tree_and_comments(
        items in proptest::collection::vec(item(), 1..4),
        choices in proptest::collection::vec(0..TRIVIA.len() * 3, 1..40),
        end in 0..4usize,
    ) {
        // Mostly plain spaces.
        let choices = choices.into_iter().map(|c| if c >= TRIVIA.len() { 1 } else { c }).collect();
        let (text, comments) = text(items, choices, end);
        let tree = syntax::parse(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(tree.comments.len(), comments, "{}", text);
        for comment in &tree.comments {
            prop_assert_eq!(&text[comment.span.range()], comment.text.as_str());
        }
        let formatted = format_source(&text).unwrap();
        prop_assert_eq!(&format_source(&formatted).unwrap(), &formatted, "{}", text);
        let again = syntax::parse(&formatted)
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{formatted}")))?;
        prop_assert_eq!(comment_lines(&again), comment_lines(&tree), "{}", text);
        prop_assert_eq!(again.without_spans(), tree.without_spans(), "{}", text);
    }
}
