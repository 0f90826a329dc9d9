//! The checked model of a record: the struct's fields in declaration order with their tags,
//! its record type name and module, and the generics of the impls.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{parse_quote, Data, DeriveInput, Fields, GenericParam, Generics, Ident, Type};

use crate::attr;
use crate::ctxt::Ctxt;

/// A struct that is a Hadoop record.
pub struct Record<'a> {
    pub ident: &'a Ident,
    /// The struct's generics with the bounds the impls need.
    pub generics: Generics,
    /// The record type name (the DDL class name).
    pub name: String,
    /// The dotted DDL module; empty when not given.
    pub module: String,
    /// Path of the runtime crate.
    pub krate: syn::Path,
    pub fields: Vec<Field<'a>>,
    /// Whether to implement `Display` (the CSV form).
    pub display: bool,
    /// Which order traits to implement as Hadoop's order.
    pub order: attr::Order,
}

/// A field of the record.
pub struct Field<'a> {
    pub member: &'a Ident,
    pub ty: &'a Type,
    /// The field's tag: its DDL name.
    pub name: String,
}

impl<'a> Record<'a> {
    /// Checks `input`, reporting every problem to `cx`; `None` when the struct cannot be a
    /// record at all.
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::Container::from_ast(cx, &input.attrs);
        let krate = attrs.krate.unwrap_or_else(|| parse_quote!(::hadoop_record));
        let generics = with_bounds(cx, &input.generics, &krate);
        let fields = fields_of(cx, input, attrs.rename_all.as_ref());
        let fields = fields?;
        Some(Record {
            ident: &input.ident,
            generics,
            name: attrs
                .name
                .map_or_else(|| input.ident.unraw().to_string(), |n| n.value),
            module: attrs.module.map(|m| m.value).unwrap_or_default(),
            krate,
            fields,
            display: attrs.display,
            order: attrs.order,
        })
    }

    /// `<Ty as Field>::method` for `field`, spanned at the field's type so that an
    /// unsupported type is reported there (with the runtime's `on_unimplemented` message).
    pub fn field_fn(&self, field: &Field, method: &str) -> TokenStream {
        let krate = &self.krate;
        let ty = field.ty;
        let method = format_ident!("{}", method);
        quote_spanned!(ty.span()=> <#ty as #krate::field::Field>::#method)
    }
}

fn fields_of<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    rename_all: Option<&(attr::RenameRule, syn::LitStr)>,
) -> Option<Vec<Field<'a>>> {
    let named = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named,
            Fields::Unnamed(unnamed) => {
                cx.error_spanned_by(
                    unnamed,
                    "a tuple struct cannot be a Hadoop record: record fields need names; use a struct with named fields",
                );
                return None;
            }
            Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    "a unit struct cannot be a Hadoop record: a record needs at least one field",
                );
                return None;
            }
        },
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                "an enum cannot be a Hadoop record: Hadoop records have no variants; derive `Record` for a struct with named fields",
            );
            return None;
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                "a union cannot be a Hadoop record: derive `Record` for a struct with named fields",
            );
            return None;
        }
    };
    if named.named.is_empty() {
        cx.error_spanned_by(
            named,
            "a Hadoop record needs at least one field (Hadoop's DDL has no empty classes)",
        );
    }
    let mut seen: HashMap<String, &Ident> = HashMap::new();
    let mut fields = Vec::with_capacity(named.named.len());
    for field in &named.named {
        let member = field.ident.as_ref().expect("named field");
        let attrs = attr::Field::from_ast(cx, &field.attrs);
        let (name, span) = match (attrs.name, rename_all) {
            (Some(n), _) => (n.value, n.span),
            (None, Some((rule, literal))) => {
                let name = rule.apply(&member.unraw().to_string());
                if !attr::is_ddl_ident(&name) {
                    cx.error_spanned_by(
                        literal,
                        format!(
                            "`rename_all = {:?}` makes field `{member}` `{name}`, which is not a Hadoop identifier (a letter followed by letters, digits or `_`); give it a `#[record(name = \"...\")]`",
                            literal.value()
                        ),
                    );
                }
                (name, member.span())
            }
            (None, None) => (member.unraw().to_string(), member.span()),
        };
        if let Some(first) = seen.get(&name) {
            cx.syn_error(syn::Error::new(
                span,
                format!("duplicate field name `{name}`, already used by field `{first}`"),
            ));
        } else {
            seen.insert(name.clone(), member);
        }
        fields.push(Field {
            member,
            ty: &field.ty,
            name,
        });
    }
    Some(fields)
}

/// The struct's generics, each type parameter bound by `Field + 'static` (a record's schema
/// is keyed by its `TypeId`). Lifetime parameters are refused: records are read into
/// owned values.
fn with_bounds(cx: &Ctxt, generics: &Generics, krate: &syn::Path) -> Generics {
    let mut generics = generics.clone();
    for param in &mut generics.params {
        match param {
            GenericParam::Type(ty) => {
                ty.bounds.push(parse_quote!(#krate::field::Field));
                ty.bounds.push(parse_quote!('static));
            }
            GenericParam::Lifetime(lt) => cx.error_spanned_by(
                &lt.lifetime,
                "a Hadoop record cannot borrow: records are read into owned values, so lifetime parameters are not supported",
            ),
            GenericParam::Const(_) => {}
        }
    }
    generics
}
