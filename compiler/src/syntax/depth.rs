//! A linear pre-scan that bounds type nesting before pest runs.
//!
//! pest's generated parser recurses once per `vector<…>`/`map<…>` level, so a deeply nested
//! type would overflow the stack before pest could report anything. This scan counts
//! unclosed `<` the way the lexer sees them (skipping comments and quoted include paths)
//! and stops at the first one past [`MAX_TYPE_DEPTH`]. Every later recursive pass over types
//! (lowering, checks, printing, code generation) is bounded by the same limit.

use super::SyntaxError;
use crate::source::Span;

/// Deepest nesting of `vector<…>` and `map<…>` accepted in one field type.
pub const MAX_TYPE_DEPTH: usize = 64;

/// Fails at the first `<` that opens more than [`MAX_TYPE_DEPTH`] levels.
pub(crate) fn check_type_depth(text: &str) -> Result<(), SyntaxError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr_from(bytes, i, b"\n\r").unwrap_or(bytes.len());
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                match find(bytes, i + 2, b"*/") {
                    Some(end) => i = end + 2,
                    None => return Ok(()), // unterminated: the parser reports it
                }
                continue;
            }
            b'"' => {
                i = memchr_from(bytes, i + 1, b"\"\n\r").map_or(bytes.len(), |e| e + 1);
                continue;
            }
            b'<' => {
                depth += 1;
                if depth > MAX_TYPE_DEPTH {
                    return Err(SyntaxError {
                        message: format!(
                            "type nested too deeply: more than {MAX_TYPE_DEPTH} levels of `vector<…>` or `map<…>`"
                        ),
                        span: Span::new(i, i + 1),
                        label: format!("level {depth} starts here"),
                        help: Some("flatten the type by giving inner parts a record of their own".into()),
                    });
                }
            }
            b'>' => depth = depth.saturating_sub(1),
            // A type never spans these, so nesting starts again from zero after them.
            b';' | b'{' | b'}' => depth = 0,
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn memchr_from(bytes: &[u8], from: usize, any_of: &[u8]) -> Option<usize> {
    bytes[from..]
        .iter()
        .position(|b| any_of.contains(b))
        .map(|p| from + p)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!(
            "module m {{ class C {{ {}int{} x; }} }}",
            "vector<".repeat(depth),
            ">".repeat(depth)
        )
    }

    #[test]
    fn accepts_up_to_the_limit() {
        assert!(check_type_depth(&nested(MAX_TYPE_DEPTH)).is_ok());
    }

    #[test]
    fn rejects_past_the_limit_at_the_offending_bracket() {
        let text = nested(MAX_TYPE_DEPTH + 1);
        let err = check_type_depth(&text).unwrap_err();
        let expected = text.match_indices('<').nth(MAX_TYPE_DEPTH).unwrap().0;
        assert_eq!(err.span, Span::new(expected, expected + 1));
    }

    #[test]
    fn ignores_brackets_in_comments_and_paths() {
        let many = "<".repeat(1000);
        let text = format!("// {many}\n/* {many} */ include \"{many}\"");
        assert!(check_type_depth(&text).is_ok());
    }

    #[test]
    fn statement_ends_reset_the_count() {
        let text = "vector<".repeat(40) + ";" + &"vector<".repeat(40);
        assert!(check_type_depth(&text).is_ok());
    }
}
