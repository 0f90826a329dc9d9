//! Hadoop's `compareTo`, on values and on binary encodings: memberwise in declaration
//! order, the first non-equal field deciding.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Record;

/// Body of `Record::compare_hadoop(&self, __other: &Self)`.
pub fn hadoop(record: &Record) -> TokenStream {
    let krate = &record.krate;
    fieldwise(
        record,
        "cmp_hadoop",
        quote!(#krate::__private::Ordering::is_ne(__o)),
    )
}

/// Body of `Field::partial_cmp_hadoop` or `Field::partial_cmp_ties` (`method`) of the
/// record: the first field whose answer is not `Some(Equal)` decides.
pub fn partial(record: &Record, method: &str) -> TokenStream {
    let krate = &record.krate;
    let equal = quote!(#krate::__private::Some(#krate::__private::Ordering::Equal));
    fieldwise(record, method, quote!(__o != #equal))
}

/// Calls `method` on each field of `self` and `__other` in declaration order, returning the
/// first result `__o` for which `decided` holds, else the last field's.
fn fieldwise(record: &Record, method: &str, decided: TokenStream) -> TokenStream {
    let (last, rest) = record
        .fields
        .split_last()
        .expect("a record has at least one field");
    let steps = rest.iter().map(|field| {
        let compare = record.field_fn(field, method);
        let member = field.member;
        quote! {
            let __o = #compare(&self.#member, &__other.#member);
            if #decided {
                return __o;
            }
        }
    });
    let compare = record.field_fn(last, method);
    let member = last.member;
    quote! {
        #(#steps)*
        #compare(&self.#member, &__other.#member)
    }
}

/// Body of `Field::cmp_raw(__a, __b)` for the record: compares field by field on the
/// bytes, each field consumed whole from both inputs while they compare equal. Every record
/// entered counts towards the cursors' nesting limit, which bounds the recursion of
/// recursive types on hostile input.
pub fn raw(record: &Record) -> TokenStream {
    let krate = &record.krate;
    let steps = record.fields.iter().map(|field| {
        let compare = record.field_fn(field, "cmp_raw");
        let tag = &field.name;
        quote! {
            let __o = #compare(__a, __b).map_err(|__e| #krate::__private::in_field(__e, #tag))?;
            if #krate::__private::Ordering::is_ne(__o) {
                break '__compare __o;
            }
        }
    });
    quote! {
        #krate::__private::enter(__a)?;
        #krate::__private::enter(__b)?;
        let __o = '__compare: {
            #(#steps)*
            #krate::__private::Ordering::Equal
        };
        #krate::__private::leave(__a);
        #krate::__private::leave(__b);
        #krate::__private::Ok(__o)
    }
}
