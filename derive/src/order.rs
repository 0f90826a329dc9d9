//! `impl PartialOrd` and `impl Ord` as Hadoop's order (`#[record(partial_ord)]`,
//! `#[record(ord)]`), through the runtime's `compare::partial_cmp` and `compare::total_cmp`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Record;
use crate::attr::Order;

pub fn expand(record: &Record) -> TokenStream {
    if record.order == Order::None {
        return TokenStream::new();
    }
    let krate = &record.krate;
    let ident = record.ident;
    let (impl_generics, ty_generics, where_clause) = record.generics.split_for_impl();
    let ordering = quote!(#krate::__private::Ordering);
    let partial = quote! {
        #[automatically_derived]
        impl #impl_generics #krate::__private::PartialOrd for #ident #ty_generics #where_clause {
            #[inline]
            fn partial_cmp(&self, __other: &Self) -> #krate::__private::Option<#ordering> {
                #krate::compare::partial_cmp(self, __other)
            }
        }
    };
    if record.order == Order::Partial {
        return partial;
    }
    quote! {
        #partial
        #[automatically_derived]
        impl #impl_generics #krate::__private::Ord for #ident #ty_generics #where_clause {
            #[inline]
            fn cmp(&self, __other: &Self) -> #ordering {
                #krate::compare::total_cmp(self, __other)
            }
        }
    }
}
