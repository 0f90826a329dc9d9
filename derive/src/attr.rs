//! The `#[record(...)]` attributes: parsed leniently so that every mistake is reported at
//! once, each at its own span.
//!
//! On a struct: `name = "Rec"` (the record type name, default the struct name),
//! `module = "a.b"` (the DDL module, for the runtime schema), `crate = "path"` (where the
//! runtime is, default `::hadoop_record`), `rename_all = "camelCase"` (serde's spellings, for
//! fields without a `name`), `display = false` (no `Display` impl), and the flags `ord` and
//! `partial_ord` (Hadoop's order as `Ord` and `PartialOrd`). On a field: `name =
//! "isRelative"` (the field's tag, default the field name without `r#`).

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, Expr, Lit, LitStr, Token};

use crate::ctxt::Ctxt;

/// A string given in an attribute, with the span of its literal.
#[derive(Clone)]
pub struct Spanned {
    pub value: String,
    pub span: Span,
}

/// Attributes of the struct.
pub struct Container {
    pub name: Option<Spanned>,
    pub module: Option<Spanned>,
    pub krate: Option<syn::Path>,
    pub rename_all: Option<(RenameRule, LitStr)>,
    /// `display = false`: no `Display` impl.
    pub display: bool,
    pub order: Order,
}

/// Which of Rust's order traits the derive implements, as Hadoop's order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Neither (the default): the struct may derive Rust's own.
    None,
    /// `partial_ord`: `PartialOrd`.
    Partial,
    /// `ord`: `PartialOrd` and `Ord`.
    Total,
}

/// serde's `rename_all` rules, as serde applies them to a struct's fields (which it takes to
/// be snake_case). Written out rather than taken from `heck`: heck splits words its own way
/// (at digits and at case changes, and it drops leading underscores), while these must give
/// the names a serde user predicts from serde's rules.
#[derive(Clone, Copy)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    const ALL: [(&'static str, RenameRule); 8] = [
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    fn from_str(s: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|&(_, r)| r)
    }

    /// The DDL name of the field named `field` in Rust.
    pub fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply(field);
                let mut chars = pascal.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// Attributes of one field.
pub struct Field {
    pub name: Option<Spanned>,
}

/// One attribute key: remembers where it was first set, to report a repeated key.
struct Attr<T> {
    key: &'static str,
    value: Option<T>,
}

impl<T> Attr<T> {
    fn new(key: &'static str) -> Self {
        Attr { key, value: None }
    }

    fn set(&mut self, cx: &Ctxt, at: &syn::Path, value: T) {
        if self.value.is_some() {
            cx.error_spanned_by(at, format!("duplicate record attribute `{}`", self.key));
        } else {
            self.value = Some(value);
        }
    }
}

const CONTAINER_KEYS: &str =
    "`name`, `module`, `crate`, `rename_all`, `display`, `ord` or `partial_ord`";
const FIELD_KEYS: &str = "`name`";

impl Container {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut name = Attr::new("name");
        let mut module = Attr::new("module");
        let mut krate = Attr::new("crate");
        let mut rename_all = Attr::new("rename_all");
        let mut display = Attr::new("display");
        let mut order = Attr::new("ord` or `partial_ord");
        for_each_key(cx, attrs, |meta| {
            if meta.path.is_ident("name") {
                name_value(cx, meta, &mut name, "record name")?;
            } else if meta.path.is_ident("module") {
                if let Some(s) = string_value(cx, meta)? {
                    check_module(cx, &s);
                    module.set(cx, &meta.path, spanned(&s));
                }
            } else if meta.path.is_ident("crate") {
                if let Some(s) = string_value(cx, meta)? {
                    match s.parse::<syn::Path>() {
                        Ok(path) => krate.set(cx, &meta.path, path),
                        Err(_) => cx.error_spanned_by(
                            &s,
                            format!(
                                "`crate` must be a path such as `::hadoop_record`, not {:?}",
                                s.value()
                            ),
                        ),
                    }
                }
            } else if meta.path.is_ident("rename_all") {
                if let Some(s) = string_value(cx, meta)? {
                    match RenameRule::from_str(&s.value()) {
                        Some(rule) => rename_all.set(cx, &meta.path, (rule, s)),
                        None => cx.error_spanned_by(
                            &s,
                            format!(
                                "unknown `rename_all` rule {:?}; expected one of {}",
                                s.value(),
                                RenameRule::ALL.map(|(n, _)| format!("{n:?}")).join(", ")
                            ),
                        ),
                    }
                }
            } else if meta.path.is_ident("display") {
                if let Some(on) = bool_value(cx, meta)? {
                    display.set(cx, &meta.path, on);
                }
            } else if meta.path.is_ident("ord") || meta.path.is_ident("partial_ord") {
                let kind = if meta.path.is_ident("ord") {
                    Order::Total
                } else {
                    Order::Partial
                };
                if meta.input.peek(Token![=]) {
                    cx.error_spanned_by(&meta.path, "`ord` and `partial_ord` take no value");
                    skip_value(meta.input)?;
                } else {
                    order.set(cx, &meta.path, kind);
                }
            } else {
                unknown_key(cx, meta, CONTAINER_KEYS)?;
            }
            Ok(())
        });
        Container {
            name: name.value,
            module: module.value,
            krate: krate.value,
            rename_all: rename_all.value,
            display: display.value.unwrap_or(true),
            order: order.value.unwrap_or(Order::None),
        }
    }
}

impl Field {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut name = Attr::new("name");
        for_each_key(cx, attrs, |meta| {
            if meta.path.is_ident("name") {
                name_value(cx, meta, &mut name, "field name")?;
            } else {
                unknown_key(cx, meta, FIELD_KEYS)?;
            }
            Ok(())
        });
        Field { name: name.value }
    }
}

/// Calls `f` for each `key ...` inside every `#[record(...)]` attribute. A syntax error
/// ends the attribute it is in (syn cannot resynchronise inside one) but not the others.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("record")) {
        if let Err(e) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(e);
        }
    }
}

/// `name = "..."`: a DDL name, of `what` (a record or a field), into `name`.
fn name_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    name: &mut Attr<Spanned>,
    what: &str,
) -> syn::Result<()> {
    if let Some(s) = string_value(cx, meta)? {
        check_ident(cx, &s, what);
        name.set(cx, &meta.path, spanned(&s));
    }
    Ok(())
}

fn spanned(s: &LitStr) -> Spanned {
    Spanned {
        value: s.value(),
        span: s.span(),
    }
}

/// The string literal after `key =`; a value of another kind is reported (and skipped) so
/// that parsing goes on.
fn string_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    let (key, expr) = value_of(meta)?;
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(s)),
        other => {
            cx.error_spanned_by(
                other,
                format!("expected a string literal: `{key} = \"...\"`"),
            );
            Ok(None)
        }
    }
}

/// The key and the expression after `key =`.
fn value_of(meta: &ParseNestedMeta) -> syn::Result<(String, Expr)> {
    let key = meta.path.to_token_stream().to_string();
    let mut expr: Expr = meta.value()?.parse()?;
    // Tokens passed through a macro_rules! fragment arrive wrapped in an invisible group.
    while let Expr::Group(group) = expr {
        expr = *group.expr;
    }
    Ok((key, expr))
}

/// The `true` or `false` after `key =`; a value of another kind is reported and skipped.
fn bool_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<bool>> {
    let (key, expr) = value_of(meta)?;
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Bool(b), ..
        }) => Ok(Some(b.value)),
        other => {
            cx.error_spanned_by(other, format!("expected `{key} = true` or `{key} = false`"));
            Ok(None)
        }
    }
}

/// Reports an unknown key and skips whatever value follows it, up to the next `,`.
fn unknown_key(cx: &Ctxt, meta: &ParseNestedMeta, expected: &str) -> syn::Result<()> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(
        &meta.path,
        format!("unknown record attribute `{key}`; expected {expected}"),
    );
    skip_value(meta.input)
}

fn skip_value(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Hadoop's identifier rule (`[A-Za-z][A-Za-z0-9_]*`): record and field names written
/// explicitly are DDL names and appear as such in signatures and XML.
pub fn is_ddl_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn check_ident(cx: &Ctxt, s: &LitStr, what: &str) {
    let value = s.value();
    if !is_ddl_ident(&value) {
        cx.error_spanned_by(
            s,
            format!(
                "{what} {value:?} is not a Hadoop identifier (a letter followed by letters, digits or `_`)"
            ),
        );
    }
}

fn check_module(cx: &Ctxt, s: &LitStr) {
    let value = s.value();
    if !value.split('.').all(is_ddl_ident) {
        cx.error_spanned_by(
            s,
            format!(
                "module {value:?} is not a dotted Hadoop module name such as `org.example.links`"
            ),
        );
    }
}
