//! Re-indents generated Java by its braces, so that the templates (whose recursive macros
//! nest blocks to any depth) need not track indentation.
//!
//! Written here because no crate formats Java from Rust; the generated code is regular enough
//! (one statement or brace per line, braces in string literals only inside `"…"`, no text
//! blocks) that counting braces outside literals and comments is all it takes.

/// `code` with every line indented by four spaces per open brace (a line starting with `}`
/// or `)` one level less; a line continuing an expression, `&&` or `.`, one more), blank runs
/// collapsed to one blank line, and no blank line right after `{` or before `}`.
pub(crate) fn reindent(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 2);
    let mut depth: usize = 0;
    let mut in_comment = false;
    let mut blank = false;
    for raw in code.lines() {
        let line = raw.trim();
        if line.is_empty() {
            blank = !out.is_empty() && !out.ends_with("{\n");
            continue;
        }
        let closes = !in_comment && (line.starts_with('}') || line.starts_with(')'));
        if blank && !closes {
            out.push('\n');
        }
        blank = false;
        let level = depth.saturating_sub(usize::from(closes))
            + usize::from(
                line.starts_with("&&") || line.starts_with('.') || line.starts_with("throws"),
            );
        for _ in 0..level {
            out.push_str("    ");
        }
        if in_comment && line.starts_with('*') {
            out.push(' ');
        }
        out.push_str(line);
        out.push('\n');
        let (opened, closed, comment) = braces(line, in_comment);
        in_comment = comment;
        depth = (depth + opened).saturating_sub(closed);
    }
    out
}

/// Braces opened and closed on `line` outside literals and comments, and whether a block
/// comment is still open at its end.
fn braces(line: &str, mut in_comment: bool) -> (usize, usize, bool) {
    let (mut opened, mut closed) = (0, 0);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                in_comment = false;
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                in_comment = true;
            }
            '"' | '\'' => {
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c {
                        break;
                    }
                }
            }
            '{' | '(' => opened += 1,
            '}' | ')' => closed += 1,
            _ => {}
        }
    }
    (opened, closed, in_comment)
}

#[cfg(test)]
mod tests {
    use super::reindent;

    #[test]
    fn indents_by_braces_outside_literals_and_comments() {
        let code = "class A {\n/**\n * Doc {@code x}.\n */\nvoid f() {\n\n\nString s = \"}{\";\n\
                    if (x) {\nreturn;\n}\n}\n}\n";
        assert_eq!(
            reindent(code),
            "class A {\n    /**\n     * Doc {@code x}.\n     */\n    void f() {\n        \
             String s = \"}{\";\n        if (x) {\n            return;\n        }\n    }\n}\n"
        );
    }

    #[test]
    fn parentheses_split_over_lines_indent_their_contents() {
        let code = "A(\nfinal int a,\nfinal int b) {\nthis.a = a;\n}\nreturn (a == b)\n&& c;\n";
        assert_eq!(
            reindent(code),
            "A(\n    final int a,\n    final int b) {\n    this.a = a;\n}\nreturn (a == b)\n    && c;\n"
        );
    }
}
