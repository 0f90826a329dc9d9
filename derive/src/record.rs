//! `impl Record`: writing, reading and describing the record, field by field through each
//! field type's `Field` impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Record;
use crate::compare;

pub fn expand(record: &Record) -> TokenStream {
    let krate = &record.krate;
    let ident = record.ident;
    let (impl_generics, ty_generics, where_clause) = record.generics.split_for_impl();
    let type_name = &record.name;
    let module = &record.module;

    let writes = record.fields.iter().map(|field| {
        let write = record.field_fn(field, "write");
        let member = field.member;
        let tag = &field.name;
        quote! {
            #write(&self.#member, __out, #tag).map_err(|__e| #krate::__private::in_field(__e, #tag))?;
        }
    });

    let locals: Vec<_> = (0..record.fields.len())
        .map(|i| format_ident!("__field{}", i))
        .collect();
    let reads = record.fields.iter().zip(&locals).map(|(field, local)| {
        let read = record.field_fn(field, "read");
        let tag = &field.name;
        quote! {
            let #local = #read(__input, #tag).map_err(|__e| #krate::__private::in_field(__e, #tag))?;
        }
    });
    let members: Vec<_> = record.fields.iter().map(|f| f.member).collect();

    // Schema-evolution reads: each writer's field into the reader's field it matches.
    let fill = record
        .fields
        .iter()
        .zip(&locals)
        .enumerate()
        .map(|(i, (field, local))| {
            let read = record.field_fn(field, "read");
            let tag = &field.name;
            quote! {
                #krate::__private::Some(#i) => {
                    #local = #krate::__private::Some(
                        #read(__input, #tag).map_err(|__e| #krate::__private::in_field(__e, #tag))?,
                    );
                }
            }
        });
    let filled = record.fields.iter().zip(&locals).map(|(field, local)| {
        let tag = &field.name;
        let ty = field.ty;
        // Spanned at the type: an unsupported type is reported there, once.
        let empty = quote_spanned!(ty.span()=> __by.empty::<#ty, __I>(__input, #tag));
        quote! {
            let #local = match #local {
                #krate::__private::Some(__value) => __value,
                #krate::__private::None => #empty?,
            };
        }
    });

    let defs = record.fields.iter().map(|field| {
        let field_type = record.field_fn(field, "field_type");
        let tag = &field.name;
        quote!(#krate::schema::FieldDef::new(#tag, #field_type(__schema)))
    });

    let compare_hadoop = compare::hadoop(record);

    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Record for #ident #ty_generics #where_clause {
            #[inline]
            fn type_name() -> &'static str {
                #type_name
            }

            #[inline]
            fn write_to<__O: #krate::RecordOutput + ?#krate::__private::Sized>(
                &self,
                __out: &mut __O,
                __tag: &str,
            ) -> #krate::Result<()> {
                #krate::RecordOutput::start_record(__out, __tag)?;
                #(#writes)*
                #krate::RecordOutput::end_record(__out, __tag)
            }

            #[inline]
            fn read_from<__I: #krate::RecordInput + ?#krate::__private::Sized>(
                __input: &mut __I,
                __tag: &str,
            ) -> #krate::Result<Self> {
                #krate::RecordInput::start_record(__input, __tag)?;
                #(#reads)*
                #krate::RecordInput::end_record(__input, __tag)?;
                #krate::__private::Ok(Self { #(#members: #locals),* })
            }

            const __BY_FIELD: bool = true;

            #[inline]
            fn __read_by_field<__I: #krate::RecordInput + ?#krate::__private::Sized>(
                __input: &mut __I,
                __tag: &str,
                __by: &#krate::__private::ByField<'_>,
            ) -> #krate::Result<Self> {
                #krate::RecordInput::start_record(__input, __tag)?;
                #(let mut #locals = #krate::__private::None;)*
                for (__written, __target) in __by.steps() {
                    match __target {
                        #(#fill)*
                        _ => __by.skip(__input, __written)?,
                    }
                }
                #krate::RecordInput::end_record(__input, __tag)?;
                #(#filled)*
                #krate::__private::Ok(Self { #(#members: #locals),* })
            }

            fn compare_hadoop(&self, __other: &Self) -> #krate::__private::Ordering {
                #compare_hadoop
            }

            fn describe(__schema: &mut #krate::schema::SchemaBuilder) -> #krate::schema::RecordId {
                __schema.record_in::<Self>(#module, #type_name, |__schema| {
                    #krate::__private::Vec::from([#(#defs),*])
                })
            }

            fn compare_raw(
                __a: &[u8],
                __b: &[u8],
            ) -> #krate::Result<#krate::__private::Ordering> {
                #krate::__private::compare_raw::<Self>(__a, __b)
            }
        }
    }
}
