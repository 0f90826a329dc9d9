//! `impl Display`: the record's CSV form, as Java's `Record.toString()` prints it (the final
//! line feed included).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Record;

pub fn expand(record: &Record) -> TokenStream {
    if !record.display {
        return TokenStream::new();
    }
    let krate = &record.krate;
    let ident = record.ident;
    let (impl_generics, ty_generics, where_clause) = record.generics.split_for_impl();
    let fmt = quote!(#krate::__private::fmt);
    quote! {
        #[automatically_derived]
        impl #impl_generics #fmt::Display for #ident #ty_generics #where_clause {
            fn fmt(&self, __f: &mut #fmt::Formatter<'_>) -> #fmt::Result {
                #krate::__private::display_csv(self, __f)
            }
        }
    }
}
