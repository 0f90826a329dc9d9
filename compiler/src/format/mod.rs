//! The formatter behind `rcc fmt`: one canonical layout for DDL, with every comment kept
//! next to the code it was next to. The layout is written down in `docs/format.md`; in
//! short, four-space indents, one declaration per line, `map<K, V>`, blank lines as the
//! source has them (at most one, never after `{` or before `}`), one blank line around
//! modules, and none of what Hadoop's rcc rejects for no reason of meaning (a byte order
//! mark, `;` after `}`, a missing final line break).
//!
//! Formatting is per file and syntax only: includes are not read. It never changes meaning:
//! the formatted text parses to the same tree, comments aside, and formatting it again
//! changes nothing.
//!
//! ```
//! use hadoop_record_compiler::format::format_source;
//!
//! let text = "module links{class Link{ustring URL;// where\nmap<ustring,int>hits;};}";
//! assert_eq!(
//!     format_source(text).unwrap(),
//!     "module links {\n    class Link {\n        ustring URL; // where\n        map<ustring, int> hits;\n    }\n}\n"
//! );
//! ```

mod layout;
mod printer;

use std::fmt;
use std::path::Path;

use printer::{Line, Printer};

use crate::diagnostics::Diagnostics;
use crate::load::{self, FileSystem};
use crate::source::FileId;
use crate::syntax::{self, ast, SyntaxError};

/// `text` formatted, or why it does not parse.
pub fn format_source(text: &str) -> Result<String, SyntaxError> {
    let tree = syntax::parse(text)?;
    Ok(format_tree(text, &tree))
}

/// `tree`, parsed from `text`, formatted (for callers that hold the tree already).
pub fn format_tree(text: &str, tree: &ast::File) -> String {
    let mut printer = Printer::new(text, &tree.comments);
    layout::file(&mut printer, tree);
    printer.finish()
}

/// A file's text as read and as formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    /// As read.
    pub original: String,
    /// As formatted.
    pub formatted: String,
}

impl Formatted {
    /// Whether formatting changes the file.
    pub fn is_changed(&self) -> bool {
        self.original != self.formatted
    }
}

/// Reads the DDL file `path` from `fs` and formats it. A file that cannot be read, is not
/// UTF-8 or does not parse gives the diagnostics `rcc check` gives for it.
pub fn format_file(fs: &dyn FileSystem, path: &Path) -> Result<Formatted, Diagnostics> {
    match fs.read(path) {
        Ok(bytes) => format_bytes(path, bytes),
        Err(e) => Err(Diagnostics::new(
            Vec::new(),
            vec![load::unreadable(path, &e)],
        )),
    }
}

/// Formats `bytes`, read from `path` (the name diagnostics show), as [`format_file`] does.
pub fn format_bytes(path: &Path, bytes: Vec<u8>) -> Result<Formatted, Diagnostics> {
    let path = load::tidy(path);
    let (file, tree) = load::parse_file(FileId::new(0), path.clone(), path, bytes, true, None);
    match tree {
        Ok(tree) => Ok(Formatted {
            formatted: format_tree(file.text(), &tree),
            original: file.text().to_owned(),
        }),
        Err(d) => Err(Diagnostics::new(vec![file], vec![d])),
    }
}

// ---------------------------------------------------------------------------------------
// The syntax tree's `Display`: the canonical layout without a source, so without comments
// and with no blank lines but those around modules.

impl fmt::Display for ast::File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut printer = Printer::without_source();
        layout::file(&mut printer, self);
        f.write_str(&printer.finish())
    }
}

impl fmt::Display for ast::Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut printer = Printer::without_source();
        layout::module(&mut printer, self, Line::first(0));
        f.write_str(&printer.finish())
    }
}

impl fmt::Display for ast::Class {
    /// Without a final line break.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut printer = Printer::without_source();
        layout::class(&mut printer, self, Line::first(0));
        f.write_str(printer.finish().trim_end())
    }
}
