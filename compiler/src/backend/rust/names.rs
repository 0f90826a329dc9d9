//! DDL names as Rust names: modules and fields in snake_case, types in UpperCamelCase, Rust
//! keywords escaped, and nothing that trips rustc's naming lints or clippy's
//! `upper_case_acronyms`.
//!
//! Names that would collide in one Rust namespace (a record's fields; a module's records
//! and child modules, which share Rust's type namespace) are told apart by [`assign`], by
//! the rules in `docs/naming.md`. The wire name never changes: the derive is told the DDL
//! spelling whenever the Rust name differs.

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

/// Rust's primitive types. A struct of such a name would shadow the primitive in the
/// generated field types (`Vec<u8>`), so a record never keeps one as its DDL spelling. (A
/// module does not shadow them in type position.)
const PRIMITIVE_TYPES: &[&str] = &[
    "bool", "char", "str", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
    "u128", "usize", "f16", "f32", "f64", "f128",
];

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

/// What a DDL name names in Rust, which decides its convention and its fallbacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A segment of a dotted module name: a Rust module (and, in the file-per-module
    /// layout, a file name).
    Module,
    /// A record: a struct.
    Type,
    /// A field: a struct field.
    Field,
}

impl Kind {
    /// The usual mapping: [`snake`] for modules and fields, [`camel`] for types.
    fn preferred(self, ddl: &str) -> RustName {
        match self {
            Kind::Module | Kind::Field => snake(ddl),
            Kind::Type => camel(ddl),
        }
    }

    /// The first fallback: the DDL spelling itself, keywords escaped (`B` beside `b`,
    /// `link` beside `Link`). Modules never take it, so that no two module files differ
    /// only in case (which case-insensitive file systems cannot hold), and records never
    /// take a primitive type's name.
    fn spelled(self, ddl: &str) -> Option<RustName> {
        match self {
            Kind::Module => None,
            Kind::Type if PRIMITIVE_TYPES.contains(&ddl) => None,
            Kind::Type | Kind::Field => Some(RustName::escaped(ddl.to_owned())),
        }
    }

    /// The last fallback, for `n` = 2, 3, …: the usual name without trailing `_`, then the
    /// number (`self_2`, `Link2`, or `Rec1_2` when the name ends in a digit). It holds a
    /// digit, so it is no keyword, and it keeps the naming lints quiet.
    fn numbered(self, preferred: &RustName, n: usize) -> RustName {
        let base = preferred.plain().trim_end_matches('_');
        let text = match self {
            Kind::Type if !base.ends_with(|c: char| c.is_ascii_digit()) => format!("{base}{n}"),
            _ => format!("{base}_{n}"),
        };
        RustName { text, raw: false }
    }

    /// The lint that `name` trips as this kind of item, if any: only fallbacks that keep
    /// the DDL spelling do, and the generated item then allows it.
    pub(crate) fn lint(self, name: &RustName) -> Option<&'static str> {
        match self {
            Kind::Module | Kind::Field if !is_snake_case(name.plain()) => Some("non_snake_case"),
            Kind::Type if !is_camel_case(name.plain()) => Some("non_camel_case_types"),
            _ => None,
        }
    }
}

/// Rust names for the DDL names of one Rust namespace (`(kind, DDL name)`, distinct DDL
/// names of a kind), in the same order. Deterministic, in two passes:
///
/// 1. A name whose usual mapping is its own DDL spelling (`url`, `Link`, `r#type` for
///    `type`) keeps it.
/// 2. Every other name, in order, takes the first of these that is still free: its usual
///    mapping ([`Kind::preferred`]), its DDL spelling ([`Kind::spelled`]), the numbered
///    forms ([`Kind::numbered`]).
pub(crate) fn assign(names: &[(Kind, &str)]) -> Vec<RustName> {
    let mut taken = std::collections::HashSet::new();
    let mut out: Vec<Option<RustName>> = names
        .iter()
        .map(|&(kind, ddl)| {
            let name = kind.preferred(ddl);
            (name.plain() == ddl && taken.insert(name.plain().to_owned())).then_some(name)
        })
        .collect();
    for (slot, &(kind, ddl)) in out.iter_mut().zip(names) {
        if slot.is_some() {
            continue;
        }
        let preferred = kind.preferred(ddl);
        let numbered = (2..).map(|n| kind.numbered(&preferred, n));
        let name = std::iter::once(preferred.clone())
            .chain(kind.spelled(ddl))
            .chain(numbered)
            .find(|name| !taken.contains(name.plain()))
            .expect("the numbered names never run out");
        taken.insert(name.plain().to_owned());
        *slot = Some(name);
    }
    out.into_iter()
        .map(|name| name.expect("every name is assigned"))
        .collect()
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

/// rustc's test for `non_snake_case` (`is_snake_case` in rustc_lint), for ASCII names: no
/// capital letter and no `__` (leading and trailing `_` ignored).
fn is_snake_case(name: &str) -> bool {
    let name = name.trim_matches('_');
    !name.bytes().any(|b| b.is_ascii_uppercase()) && !name.contains("__")
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
        assert!(is_camel_case("X1_2"));
        assert!(is_camel_case("_Foo_"));
        assert!(!is_camel_case("foo"));
        assert!(!is_camel_case("Foo_Bar"));
        assert!(!is_camel_case("Foo__1"));
    }

    #[test]
    fn snake_case_agrees_with_rustc() {
        assert!(is_snake_case("is_relative"));
        assert!(is_snake_case("self_"));
        assert!(is_snake_case("a1_b2"));
        assert!(!is_snake_case("isRelative"));
        assert!(!is_snake_case("B"));
        assert!(!is_snake_case("a__b"));
    }

    #[test]
    fn acronyms() {
        assert!(is_upper_case_acronym("URL"));
        assert!(!is_upper_case_acronym("RI"));
        assert!(!is_upper_case_acronym("ABC1"));
        assert!(!is_upper_case_acronym("Url"));
    }

    fn assigned(names: &[(Kind, &str)]) -> Vec<String> {
        assign(names).iter().map(RustName::source).collect()
    }

    #[test]
    fn a_name_already_in_rust_style_keeps_it_and_the_other_keeps_its_spelling() {
        use Kind::*;
        // Either order: the DDL spelling that is already the Rust name wins.
        assert_eq!(assigned(&[(Field, "B"), (Field, "b")]), ["B", "b"]);
        assert_eq!(assigned(&[(Field, "b"), (Field, "B")]), ["b", "B"]);
        assert_eq!(
            assigned(&[(Field, "isRelative"), (Field, "is_relative")]),
            ["isRelative", "is_relative"]
        );
        assert_eq!(
            assigned(&[(Type, "link"), (Type, "Link")]),
            ["link", "Link"]
        );
        assert_eq!(
            assigned(&[(Field, "type"), (Field, "Type")]),
            ["r#type", "Type"]
        );
        // Neither is: the first takes the usual name.
        assert_eq!(assigned(&[(Field, "URL"), (Field, "Url")]), ["url", "Url"]);
        // No collision, no change.
        assert_eq!(
            assigned(&[(Field, "isHTTP"), (Type, "isHTTP")]),
            ["is_http", "IsHttp"]
        );
    }

    #[test]
    fn unusable_spellings_fall_back_to_numbers() {
        use Kind::*;
        // `self` and `Self` cannot be identifiers, raw or not.
        assert_eq!(
            assigned(&[
                (Field, "Self"),
                (Field, "self"),
                (Field, "SELF"),
                (Field, "self_")
            ]),
            ["Self_", "self_2", "SELF", "self_"]
        );
        assert_eq!(
            assigned(&[(Type, "self"), (Type, "Self")]),
            ["Self_", "Self2"]
        );
        // A struct named `u8` would shadow the primitive.
        assert_eq!(assigned(&[(Type, "U8"), (Type, "u8")]), ["U8", "U8_2"]);
        // Modules never keep a spelling that differs from another only in case.
        assert_eq!(
            assigned(&[(Module, "Modules"), (Module, "modules")]),
            ["modules_2", "modules"]
        );
        // Modules and types share a namespace.
        assert_eq!(
            assigned(&[(Module, "link"), (Type, "Link"), (Type, "link")]),
            ["link", "Link", "Link2"]
        );
        // A numbered name already taken by a DDL name is skipped.
        assert_eq!(
            assigned(&[(Field, "X"), (Field, "x"), (Field, "x_2"), (Field, "X_2")]),
            ["X", "x", "x_2", "X_2"]
        );
        assert_eq!(
            assigned(&[(Module, "A"), (Module, "a"), (Module, "a_2")]),
            ["a_3", "a", "a_2"]
        );
    }

    #[test]
    fn only_kept_spellings_need_lint_allowances() {
        let names = assign(&[
            (Kind::Field, "B"),
            (Kind::Field, "b"),
            (Kind::Type, "link"),
            (Kind::Type, "Link"),
        ]);
        assert_eq!(Kind::Field.lint(&names[0]), Some("non_snake_case"));
        assert_eq!(Kind::Field.lint(&names[1]), None);
        assert_eq!(Kind::Type.lint(&names[2]), Some("non_camel_case_types"));
        assert_eq!(Kind::Type.lint(&names[3]), None);
        assert_eq!(Kind::Type.lint(&camel("Self")), None);
        assert_eq!(Kind::Field.lint(&snake("Self")), None);
    }
}
