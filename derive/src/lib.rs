#![doc = include_str!("../README.md")]
//!
//! ## Inside
//!
//! The derive stitches calls to the runtime's `Field` impls field by field; the runtime owns
//! every byte. See `hadoop_record::Record` for the attributes.
//!
//! Module layout: `attr` parses `#[record(...)]`, `ast` checks the struct into a model,
//! `record`, `field`, `compare` and `display` emit the impls; `ctxt` collects errors so that
//! all of them are reported in one pass.

mod ast;
mod attr;
mod compare;
mod ctxt;
mod display;
mod field;
mod record;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `hadoop_record::Record` and `hadoop_record::field::Field` (so the record can nest
/// in other records), and `Display` printing the record's CSV form as Java's
/// `Record.toString()` does.
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
///   `::hadoop_record`.
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
/// assert_eq!(schema.record(id).full_name(), "org.example.links.Link");
/// assert_eq!(schema.record(id).fields[0].name, "URL");
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
    Ok(out)
}
