//! `impl Field`: the record as a field of other records (nesting, vectors, maps), and its
//! raw comparison and skipping.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Record;
use crate::compare;

pub fn expand(record: &Record) -> TokenStream {
    let krate = &record.krate;
    let ident = record.ident;
    let (impl_generics, ty_generics, where_clause) = record.generics.split_for_impl();
    let compare_raw = compare::raw(record);
    let partial_hadoop = compare::partial(record, "partial_cmp_hadoop");
    let partial_ties = compare::partial(record, "partial_cmp_ties");
    let option_ordering = quote!(#krate::__private::Option<#krate::__private::Ordering>);
    let skips = record.fields.iter().map(|field| {
        let skip = record.field_fn(field, "skip_raw");
        let tag = &field.name;
        quote! {
            #skip(__input).map_err(|__e| #krate::__private::in_field(__e, #tag))?;
        }
    });
    let raw_input = quote!(#krate::archive::binary::RawInput<'_>);

    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::field::Field for #ident #ty_generics #where_clause {
            #[inline]
            fn write<__O: #krate::RecordOutput + ?#krate::__private::Sized>(
                &self,
                __out: &mut __O,
                __tag: &str,
            ) -> #krate::Result<()> {
                <Self as #krate::Record>::write_to(self, __out, __tag)
            }

            #[inline]
            fn read<__I: #krate::RecordInput + ?#krate::__private::Sized>(
                __input: &mut __I,
                __tag: &str,
            ) -> #krate::Result<Self> {
                <Self as #krate::Record>::read_from(__input, __tag)
            }

            fn field_type(__schema: &mut #krate::schema::SchemaBuilder) -> #krate::schema::FieldType {
                #krate::schema::FieldType::Record(<Self as #krate::Record>::describe(__schema))
            }

            #[inline]
            fn cmp_hadoop(&self, __other: &Self) -> #krate::__private::Ordering {
                <Self as #krate::Record>::compare_hadoop(self, __other)
            }

            fn partial_cmp_hadoop(&self, __other: &Self) -> #option_ordering {
                #partial_hadoop
            }

            fn partial_cmp_ties(&self, __other: &Self) -> #option_ordering {
                #partial_ties
            }

            fn cmp_raw(
                __a: &mut #raw_input,
                __b: &mut #raw_input,
            ) -> #krate::Result<#krate::__private::Ordering> {
                #compare_raw
            }

            fn skip_raw(__input: &mut #raw_input) -> #krate::Result<()> {
                #krate::__private::enter(__input)?;
                #(#skips)*
                #krate::__private::leave(__input);
                #krate::__private::Ok(())
            }
        }
    }
}
