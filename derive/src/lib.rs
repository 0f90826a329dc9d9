#![doc = include_str!("../README.md")]
//!
//! ## Inside
//!
//! The derive stitches calls to the runtime's `Field` impls field by field; the runtime owns
//! every byte. See `hadoop_record::Record` for the attributes.
//!
//! Module layout: `attr` parses `#[record(...)]`, `ast` checks the struct into a model (and
//! names the `Field` calls the impls make), `record`, `field`, `compare`, `display` and
//! `order` emit the impls; `ctxt` collects errors so that all of them are reported in one
//! pass.

mod ast;
mod attr;
mod compare;
mod ctxt;
mod display;
mod field;
mod order;
mod record;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `hadoop_record::Record` and `hadoop_record::field::Field` (so the record can nest
/// in other records), and `Display` printing the record's CSV form as Java's
/// `Record.toString()` does (`#[record(display = false)]` leaves `Display` to you).
///
/// A struct with named fields is a record, its fields written in declaration order. The
/// record type name is the struct's name and each field's tag is the field's name (`r#where`
/// becomes `where`). Field types map as the runtime's `Field` impls say: i8 → `byte`,
/// bool → `boolean`, i32 → `int`, i64 → `long`, f32 → `float`, f64 → `double`,
/// String → `ustring`, `Vec<u8>` (or `bytes::Bytes`) → `buffer`, `Vec<T>` → `vector<T>`,
/// `BTreeMap`/`HashMap` → `map` (written in Java's key order), `Box<T>` → `T`, and any
/// other record. Anything else is a compile error at the field's type.
///
/// Attributes:
/// - `#[record(name = "URL")]` on the struct or a field: the DDL name, where the Rust name
///   differs (it shows in signatures and XML `<name>` elements);
/// - `#[record(module = "org.example")]` on the struct: the DDL module, for the runtime
///   schema (`Record::schema`);
/// - `#[record(crate = "path")]` on the struct: where the runtime is, when it is not
///   `::hadoop_record`;
/// - `#[record(rename_all = "camelCase")]` on the struct: the DDL names of the fields that
///   have no `name`, by serde's rules and spellings (`lowercase`, `UPPERCASE`, `PascalCase`,
///   `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`; the kebab-case rules make names
///   Hadoop's DDL does not allow), so that Rust fields stay snake_case;
/// - `#[record(display = false)]` on the struct: no `Display` impl, for a type with its own;
/// - `#[record(ord)]` on the struct: `PartialOrd` and `Ord` as Hadoop's order
///   ([`compare::total_cmp`](../hadoop_record/compare/fn.total_cmp.html)), for a struct that
///   is `Eq` (no float inside); `#[record(partial_ord)]`: `PartialOrd` alone
///   ([`compare::partial_cmp`](../hadoop_record/compare/fn.partial_cmp.html): `None` where a
///   NaN takes part). Where Hadoop's `compareTo` says less or greater, so do they; where it
///   says equal, they agree with `==`. Rust's own derived order differs from Hadoop's
///   (strings by code point instead of UTF-16 unit, maps by their values too), so derive it
///   only when that is the order you want.
///
/// Type parameters are allowed (bound by `Field + 'static`); lifetimes, enums, unions, tuple
/// and unit structs and structs without fields are not (Hadoop records have at least one
/// named field).
///
/// ```
/// use hadoop_record::Record;
///
/// #[derive(Record, Debug, PartialEq)]
/// #[record(module = "org.example.links")]
/// struct Link {
///     #[record(name = "URL")]
///     url: String,
///     #[record(name = "isRelative")]
///     is_relative: bool,
///     r#where: Vec<i32>,
/// }
///
/// assert_eq!(Link::signature(), "LLink(sz[i])");
/// let (schema, id) = Link::schema();
/// assert_eq!(schema.record(id).unwrap().full_name(), "org.example.links.Link");
/// assert_eq!(schema.record(id).unwrap().fields[0].name, "URL");
/// ```
///
/// Hadoop's camelCase names on snake_case fields, and Hadoop's order:
///
/// ```
/// use hadoop_record::Record;
///
/// #[derive(Record, Debug, Clone, PartialEq, Eq)]
/// #[record(rename_all = "camelCase", ord)]
/// struct Page {
///     page_title: String,
///     out_links: i32,
/// }
///
/// assert_eq!(Page::signature(), "LPage(si)");
/// assert_eq!(Page::schema().0.records()[0].fields[0].name, "pageTitle");
/// // U+1F600 sorts before U+FF5E in Java (UTF-16 units), after it in Rust's `str` order.
/// let smile = Page { page_title: "\u{1F600}".into(), out_links: 0 };
/// let tilde = Page { page_title: "\u{FF5E}".into(), out_links: 0 };
/// assert!(smile < tilde);
/// ```
#[proc_macro_derive(Record, attributes(record))]
pub fn derive_record(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let cx = ctxt::Ctxt::new();
    let record = ast::Record::from_ast(&cx, input);
    cx.check()?;
    let record = record.expect("no errors, so a record");
    let mut out = record::expand(&record);
    out.extend(field::expand(&record));
    out.extend(display::expand(&record));
    out.extend(order::expand(&record));
    Ok(out)
}
