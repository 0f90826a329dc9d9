//! DDL names as Rust names: modules and fields in snake_case, types in UpperCamelCase, Rust
//! keywords escaped, and nothing that trips rustc's naming lints or clippy's
//! `upper_case_acronyms`.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Words reserved in some Rust edition from 2018 on (strict and reserved keywords, `gen`
/// since 2024): an identifier spelled so must be raw (`r#type`) or changed.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers: these get a trailing `_` instead.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// A Rust identifier: its text, and whether it is written raw (`r#type`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct RustName {
    text: String,
    raw: bool,
}

impl RustName {
    fn escaped(text: String) -> Self {
        if NOT_RAW.contains(&text.as_str()) {
            RustName {
                text: text + "_",
                raw: false,
            }
        } else {
            let raw = KEYWORDS.contains(&text.as_str());
            RustName { text, raw }
        }
    }

    /// The name without `r#`: what the derive takes as the DDL name by default, and the
    /// file name of a module.
    pub(crate) fn plain(&self) -> &str {
        &self.text
    }

    /// As written in Rust source: `r#type`, `links`.
    pub(crate) fn source(&self) -> String {
        if self.raw {
            format!("r#{}", self.text)
        } else {
            self.text.clone()
        }
    }

    /// The identifier token.
    pub(crate) fn ident(&self) -> Ident {
        if self.raw {
            Ident::new_raw(&self.text, Span::call_site())
        } else {
            Ident::new(&self.text, Span::call_site())
        }
    }
}

/// A module segment or a field: snake_case (`isRelative` → `is_relative`, `URL` → `url`),
/// keywords escaped (`type` → `r#type`, `self` → `self_`).
pub(crate) fn snake(ddl: &str) -> RustName {
    RustName::escaped(ddl.to_snake_case())
}

/// A record type: the DDL class name when rustc's `non_camel_case_types` accepts it and it
/// is no keyword (`RecRecord1`, `RI`), else UpperCamelCase (`link` → `Link`,
/// `Self` → `Self_`).
pub(crate) fn camel(ddl: &str) -> RustName {
    let text = if is_camel_case(ddl) && !KEYWORDS.contains(&ddl) {
        ddl.to_owned()
    } else {
        ddl.to_upper_camel_case()
    };
    RustName::escaped(text)
}

/// rustc's test for `non_camel_case_types` (`is_camel_case` in rustc_lint), for ASCII
/// names: no leading lowercase letter, no `__`, no `_` next to a letter (leading and
/// trailing `_` ignored).
fn is_camel_case(name: &str) -> bool {
    let name = name.trim_matches('_');
    let bytes = name.as_bytes();
    !bytes.first().is_some_and(u8::is_ascii_lowercase)
        && !name.contains("__")
        && !bytes.windows(2).any(|w| {
            (w[0].is_ascii_alphabetic() && w[1] == b'_')
                || (w[1].is_ascii_alphabetic() && w[0] == b'_')
        })
}

/// Whether clippy's `upper_case_acronyms` flags a type of this name (all capitals, longer
/// than two letters, e.g. `URL`), so the generated type must allow it.
pub(crate) fn is_upper_case_acronym(name: &str) -> bool {
    name.len() > 2 && name.bytes().all(|b| b.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_become_snake_case() {
        assert_eq!(snake("URL").source(), "url");
        assert_eq!(snake("isRelative").source(), "is_relative");
        assert_eq!(snake("baseURL").source(), "base_url");
        assert_eq!(snake("I32").source(), "i32");
        assert_eq!(snake("f0").source(), "f0");
        assert_eq!(snake("a__b").source(), "a_b");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(snake("type").source(), "r#type");
        assert_eq!(snake("type").plain(), "type");
        assert_eq!(snake("gen").source(), "r#gen");
        assert_eq!(snake("self").source(), "self_");
        assert_eq!(snake("Self").source(), "self_");
        assert_eq!(snake("super").source(), "super_");
        assert_eq!(snake("crate").source(), "crate_");
        assert_eq!(camel("Self").source(), "Self_");
        assert_eq!(camel("self").source(), "Self_");
        assert_eq!(camel("type").source(), "Type");
        assert_eq!(snake("union").source(), "union");
    }

    #[test]
    fn type_names_are_kept_when_valid() {
        for name in ["RecRecord1", "RI", "URL", "Link", "C0", "A1b", "_Foo"] {
            assert_eq!(camel(name).source(), name);
        }
        assert_eq!(camel("link").source(), "Link");
        assert_eq!(camel("my_rec").source(), "MyRec");
        assert_eq!(camel("Rec_Record").source(), "RecRecord");
        assert_eq!(camel("A__B").source(), "AB");
        assert_eq!(camel("X_1").source(), "X1");
    }

    #[test]
    fn camel_case_agrees_with_rustc() {
        assert!(is_camel_case("RI"));
        assert!(!is_camel_case("X_1"));
        assert!(is_camel_case("X1"));
        assert!(is_camel_case("_Foo_"));
        assert!(!is_camel_case("foo"));
        assert!(!is_camel_case("Foo_Bar"));
        assert!(!is_camel_case("Foo__1"));
    }

    #[test]
    fn acronyms() {
        assert!(is_upper_case_acronym("URL"));
        assert!(!is_upper_case_acronym("RI"));
        assert!(!is_upper_case_acronym("ABC1"));
        assert!(!is_upper_case_acronym("Url"));
    }
}
