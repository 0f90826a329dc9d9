//! Turns pest's errors into messages in the user's words: each grammar rule has a
//! description (as pest's `renamed_rules` would), the found token is quoted from the text,
//! and common slips get a hint.

use crate::diagnostics::QUOTE_CHARS;
use hadoop_record::error::excerpt;
use pest::error::{Error, ErrorVariant, InputLocation};

use super::parser::Rule;
use super::SyntaxError;
use crate::source::Span;

/// What a rule looks like to a user: "`}`", "a field name". Exhaustive on purpose: a new
/// grammar rule does not compile until it is described here.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::file => "`include` or `module`",
        Rule::bom => "a byte order mark",
        Rule::include | Rule::kw_include => "`include`",
        Rule::include_path => "a quoted path",
        Rule::path_text => "a path",
        Rule::module | Rule::kw_module => "`module`",
        Rule::module_name => "a module name",
        Rule::class | Rule::kw_class => "`class`",
        Rule::field => "a field",
        Rule::field_type | Rule::primitive => "a type",
        Rule::vector | Rule::kw_vector => "`vector`",
        Rule::map | Rule::kw_map => "`map`",
        Rule::record_ref => "a record name",
        Rule::class_name => "a class name",
        Rule::field_name => "a field name",
        Rule::name_segment | Rule::identifier | Rule::name_char => "a name",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::langle => "`<`",
        Rule::rangle => "`>`",
        Rule::comma => "`,`",
        Rule::semicolon => "`;`",
        Rule::dot => "`.`",
        Rule::quote => "`\"`",
        Rule::EOI => "end of file",
        Rule::WHITESPACE => "whitespace",
        Rule::COMMENT | Rule::block_comment | Rule::line_comment => "a comment",
    }
}

/// "`a`", "`a` or `b`", "`a`, `b` or `c`"
fn one_of(items: &[&str]) -> String {
    match items {
        [] => "something else".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The token found at `pos`, described for a message, and its span.
fn found(text: &str, pos: usize) -> (String, Span) {
    let rest = &text[pos..];
    let Some(c) = rest.chars().next() else {
        return ("end of file".into(), Span::new(text.len(), text.len()));
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let shown = excerpt(&rest[..len]).at_most(QUOTE_CHARS).to_string();
        return (shown, Span::new(pos, pos + len));
    }
    if matches!(c, '\n' | '\r') {
        // Underline the end of the line, not the break, which would span two lines.
        return ("end of line".into(), Span::new(pos, pos));
    }
    let span = Span::new(pos, pos + c.len_utf8());
    let shown = match c {
        '`' => "a backtick".to_owned(),
        c if c.is_ascii_graphic() => format!("`{c}`"),
        c if c.is_control() || c.is_whitespace() || c == '\u{FEFF}' => {
            format!("character U+{:04X}", c as u32)
        }
        c => format!("`{c}` (U+{:04X})", c as u32),
    };
    (shown, span)
}

/// A hint for the slips people make, judged from what was expected and what was found.
fn hint(text: &str, pos: usize, expected: &[Rule]) -> Option<String> {
    let rest = &text[pos..];
    let expects = |r: Rule| expected.contains(&r);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let lower = word.to_ascii_lowercase();
    if !word.is_empty() && word != lower && super::ast::is_keyword(&lower) {
        return Some(format!("keywords are lower case: write `{lower}`"));
    }
    let c = rest.chars().next()?;
    match c {
        ',' if expects(Rule::semicolon) => {
            Some("declare one field per declaration, e.g. `int a; int b;`".into())
        }
        ';' => Some("remove this `;`".into()),
        '#' => Some("`#` does not start a comment here; use `//` or `/* … */`".into()),
        '\n' | '\r' if expects(Rule::quote) => {
            Some("an include path must be closed with `\"` on the same line".into())
        }
        '"' if expects(Rule::path_text) => Some("an include path cannot be empty".into()),
        '\u{c}' | '\u{b}' | '\u{a0}' => {
            Some("only spaces, tabs and line breaks count as whitespace in DDL".into())
        }
        '}' if expects(Rule::semicolon) => Some("every field ends with `;`".into()),
        c if c.is_alphabetic() && !c.is_ascii() => {
            Some("names are made of ASCII letters, digits and `_`".into())
        }
        _ => None,
    }
}

/// The expected rules in the order a message lists them (end of file last), without the
/// optional `;` after a class or module when something more telling is also expected.
fn tidy(mut expected: Vec<Rule>) -> Vec<Rule> {
    let optional_semicolon = expected.iter().any(|r| {
        matches!(
            r,
            Rule::rbrace | Rule::EOI | Rule::class | Rule::module | Rule::include
        )
    });
    if optional_semicolon {
        expected.retain(|r| *r != Rule::semicolon);
    }
    expected.sort_by_key(|r| (*r == Rule::EOI, *r));
    expected.dedup();
    expected
}

/// The [`SyntaxError`] for pest's `error` on `text`.
pub(super) fn syntax_error(text: &str, error: &Error<Rule>) -> SyntaxError {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    }
    .min(text.len());

    if text[pos..].starts_with("/*") {
        return SyntaxError {
            message: "unterminated comment".into(),
            span: Span::new(pos, pos + 2),
            label: "this `/*` has no closing `*/`".into(),
            help: Some("comments do not nest; close this one with `*/`".into()),
        };
    }

    let (positives, negatives) = match &error.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => (positives.clone(), negatives.clone()),
        ErrorVariant::CustomError { message } => {
            // The grammar raises no custom errors; keep pest's words should that change.
            return SyntaxError {
                message: message.clone(),
                span: Span::new(pos, pos),
                label: String::new(),
                help: None,
            };
        }
    };

    let (found, span) = found(text, pos);
    let expected = tidy(positives);
    let mut described: Vec<&str> = Vec::new();
    for rule in &expected {
        let d = describe(*rule);
        if !described.contains(&d) {
            described.push(d);
        }
    }
    let (message, label) = if described.is_empty() {
        let unexpected: Vec<&str> = negatives.iter().map(|r| describe(*r)).collect();
        (
            format!("unexpected {}", one_of(&unexpected)),
            "not allowed here".to_owned(),
        )
    } else {
        let list = one_of(&described);
        (
            format!("expected {list}, found {found}"),
            format!("expected {list}"),
        )
    };
    SyntaxError {
        message,
        span,
        label,
        help: hint(text, pos, &expected),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_naturally() {
        assert_eq!(one_of(&["`;`"]), "`;`");
        assert_eq!(one_of(&["`,`", "`>`"]), "`,` or `>`");
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
    }

    #[test]
    fn found_tokens_are_quoted_words_characters_or_code_points() {
        assert_eq!(found("x Class y", 2), ("`Class`".into(), Span::new(2, 7)));
        assert_eq!(found("a}", 1), ("`}`".into(), Span::new(1, 2)));
        assert_eq!(found("a", 1), ("end of file".into(), Span::new(1, 1)));
        assert_eq!(found("a\nb", 1), ("end of line".into(), Span::new(1, 1)));
        assert_eq!(found("\u{0}", 0).0, "character U+0000");
        assert_eq!(found("é", 0), ("`é` (U+00E9)".into(), Span::new(0, 2)));
        let long = "a".repeat(1000);
        assert_eq!(
            found(&long, 0).0,
            format!("`{}…` (1000 bytes)", "a".repeat(QUOTE_CHARS))
        );
        assert_eq!(found(&long, 0).1, Span::new(0, 1000));
    }

    #[test]
    fn the_optional_semicolon_is_listed_only_alone() {
        assert_eq!(tidy(vec![Rule::semicolon]), [Rule::semicolon]);
        assert_eq!(
            tidy(vec![
                Rule::semicolon,
                Rule::EOI,
                Rule::module,
                Rule::include
            ]),
            [Rule::include, Rule::module, Rule::EOI]
        );
    }
}
