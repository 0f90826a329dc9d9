//! `#[derive(Record)]` for Hadoop Record I/O. Use it through `hadoop_record::Record`.
use proc_macro::TokenStream;

/// Derives `hadoop_record::Record` (placeholder until the derive lands).
#[proc_macro_derive(Record, attributes(record))]
pub fn derive_record(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
