//! `#[derive(Record)]` for Hadoop Record I/O. Use it through `hadoop_record::Record`, which
//! brings the trait and the derive together.
//!
//! The derive stitches calls to the runtime's `Field` impls field by field; the runtime owns
//! every byte. See `hadoop_record::Record` for the attributes.
//!
//! Module layout: [`attr`] parses `#[record(...)]`, [`ast`] checks the struct into a model,
//! [`record`], [`field`], [`compare`] and [`display`] emit the impls; [`ctxt`] collects
//! errors so that all of them are reported in one pass.

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
/// in other records), and `Display` printing the record's CSV form.
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
