//! From text to syntax tree: a depth pre-scan (see [`MAX_TYPE_DEPTH`]), the pest grammar
//! (`grammar/jr.pest`), and lowering of pest's pairs into the typed [`ast`].
//!
//! ```
//! use hadoop_record_compiler::syntax;
//!
//! let file = syntax::parse("module links { class Link { ustring URL; }; }").unwrap();
//! assert_eq!(file.to_string(), "module links {\n    class Link {\n        ustring URL;\n    }\n}\n");
//! ```

pub mod ast;
mod comments;
mod depth;
mod expected;
mod lower;
mod parser;

use pest::Parser as _;

use crate::source::Span;
pub(crate) use comments::line_breaks;
pub use depth::MAX_TYPE_DEPTH;

/// Why a text is not valid DDL: a message, the span to underline with its label, and an
/// optional hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong, e.g. "expected `;`, found `}`".
    pub message: String,
    /// Where.
    pub span: Span,
    /// Text shown under the span.
    pub label: String,
    /// What to do about it, when there is something useful to say.
    pub help: Option<String>,
}

/// Parses one DDL file. Never panics and never overflows the stack, whatever the input.
pub fn parse(text: &str) -> Result<ast::File, SyntaxError> {
    depth::check_type_depth(text)?;
    let mut pairs = parser::JrParser::parse(parser::Rule::file, text)
        .map_err(|e| expected::syntax_error(text, &e))?;
    let file = pairs.next().expect("the file rule matched");
    Ok(lower::file(file))
}
