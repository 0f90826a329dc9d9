//! Hadoop's `compareTo`, on values and on binary encodings: memberwise in declaration
//! order, the first non-equal field deciding.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Record;
use crate::record::field_fn;

/// Body of `Record::compare_hadoop(&self, __other: &Self)`.
pub fn hadoop(record: &Record) -> TokenStream {
    let krate = &record.krate;
    let (last, rest) = record
        .fields
        .split_last()
        .expect("a record has at least one field");
    let steps = rest.iter().map(|field| {
        let compare = field_fn(record, field, "compare_hadoop");
        let member = field.member;
        quote! {
            let __o = #compare(&self.#member, &__other.#member);
            if #krate::__private::Ordering::is_ne(__o) {
                return __o;
            }
        }
    });
    let compare = field_fn(record, last, "compare_hadoop");
    let member = last.member;
    quote! {
        #(#steps)*
        #compare(&self.#member, &__other.#member)
    }
}

/// Body of `Field::compare_raw(__a, __b)` for the record: compares field by field on the
/// bytes, each field consumed whole from both inputs while they compare equal. Every record
/// entered counts towards the cursors' nesting limit, which bounds the recursion of
/// recursive types on hostile input.
pub fn raw(record: &Record) -> TokenStream {
    let krate = &record.krate;
    let steps = record.fields.iter().map(|field| {
        let compare = field_fn(record, field, "compare_raw");
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
