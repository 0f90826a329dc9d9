//! Tokens for the module tree and its records: plain structs carrying
//! `#[derive(hadoop_record::Record)]` and its attributes (the derive writes every byte),
//! then formatting with prettyplease.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::layout::Layout;
use super::names::is_upper_case_acronym;
use super::types::{Ordered, TypeWriter};
use super::Attributes;
use crate::model::{Model, RecordIndex};

/// clippy's default `type-complexity-threshold`.
const TYPE_COMPLEXITY_THRESHOLD: u32 = 250;

/// Emits the records of a laid-out model.
pub(crate) struct Emitter<'a> {
    pub model: &'a Model,
    pub layout: &'a Layout,
    pub ordered: &'a Ordered,
    pub attributes: &'a Attributes,
    /// The runtime crate's path, e.g. `::hadoop_record`.
    pub runtime: TokenStream,
    /// `Some("path")` when the runtime is not at `::hadoop_record` (the derive's
    /// `crate` attribute).
    pub runtime_attr: Option<String>,
    /// Absolute DDL paths are shown relative to this ([`super::show_path`]).
    pub source_root: Option<&'a std::path::Path>,
}

/// Whether modules with records get files of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Everything inline, in one file.
    OneFile,
    /// `pub mod x;` for each module with records, whose items go into a file of their own.
    FilePerModule,
}

impl Emitter<'_> {
    /// The items of module `node`: its records, then its child modules. In
    /// [`Mode::FilePerModule`], each child with records is declared `pub mod x;` and its
    /// items pushed to `files`.
    pub fn module_items(
        &self,
        node: usize,
        mode: Mode,
        files: &mut Vec<(usize, TokenStream)>,
    ) -> TokenStream {
        let mut items = TokenStream::new();
        for &r in &self.layout.nodes[node].records {
            items.extend(self.record(r));
        }
        for &child in &self.layout.nodes[node].children {
            let name = self.layout.nodes[child]
                .name
                .as_ref()
                .expect("a child has a name");
            let ident = name.ident();
            let doc = self.module_doc(child);
            let inception = self.layout.nodes[node]
                .name
                .as_ref()
                .is_some_and(|parent| parent == name)
                .then(|| quote!(#[allow(clippy::module_inception)]));
            if mode == Mode::FilePerModule && !self.layout.nodes[child].records.is_empty() {
                // Parents before children in `files`.
                let slot = files.len();
                files.push((child, TokenStream::new()));
                files[slot].1 = self.module_items(child, mode, files);
                items.extend(quote! {
                    #[doc = #doc]
                    #inception
                    pub mod #ident;
                });
            } else {
                let body = self.module_items(child, mode, files);
                items.extend(quote! {
                    #[doc = #doc]
                    #inception
                    pub mod #ident {
                        #body
                    }
                });
            }
        }
        items
    }

    /// ` Records of the DDL module `a.b`.` or, for a module that only leads to others,
    /// ` DDL modules under `a`.`
    fn module_doc(&self, node: usize) -> String {
        match self.layout.nodes[node].module {
            Some(m) => format!(" The DDL module `{}`.", self.model.modules()[m].name()),
            None => {
                // Any module below gives the DDL spelling of this prefix.
                let mut below = node;
                let module = loop {
                    let n = &self.layout.nodes[below];
                    if let Some(m) = n.module {
                        break &self.model.modules()[m];
                    }
                    below = n.children[0];
                };
                let depth = self.layout.nodes[node].depth;
                let prefix: Vec<&str> = module.segments().take(depth).collect();
                format!(" DDL modules under `{}`.", prefix.join("."))
            }
        }
    }

    /// One record as a struct.
    fn record(&self, r: RecordIndex) -> TokenStream {
        let record = self.model.record(r);
        let names = self.layout.record(r);
        let node = names.node;
        let string_shadowed = self.shadowed(node, "String");
        let vec_shadowed = self.shadowed(node, "Vec");
        let types = TypeWriter {
            layout: self.layout,
            ordered: self.ordered,
            node,
            string: if string_shadowed {
                quote!(::std::string::String)
            } else {
                quote!(String)
            },
            vec: if vec_shadowed {
                quote!(::std::vec::Vec)
            } else {
                quote!(Vec)
            },
            runtime: &self.runtime,
        };

        let doc = format!(
            " The DDL record `{}`, declared at `{}`.",
            record.qualified_name(),
            super::locate(record.location(), self.source_root)
        );
        let runtime = &self.runtime;
        let derives = if self.ordered.record(r) {
            quote!(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)
        } else {
            quote!(Debug, Clone, Default, PartialEq)
        };
        let mut record_attr = Vec::new();
        if names.name.plain() != record.name() {
            let name = record.name();
            record_attr.push(quote!(name = #name));
        }
        let module = record.module();
        record_attr.push(quote!(module = #module));
        if let Some(path) = &self.runtime_attr {
            record_attr.push(quote!(crate = #path));
        }
        let acronym = is_upper_case_acronym(names.name.plain())
            .then(|| quote!(#[allow(clippy::upper_case_acronyms)]));
        let user = self.attributes.for_type(record.qualified_name());

        let fields = record
            .fields()
            .iter()
            .zip(&names.fields)
            .map(|(field, name)| {
                let doc = format!(
                    " `{} {}`",
                    self.model.type_to_string(field.ty()),
                    field.name()
                );
                let rename = (name.plain() != field.name()).then(|| {
                    let ddl = field.name();
                    quote!(#[record(name = #ddl)])
                });
                let complex = (types.complexity(field.ty()) > TYPE_COMPLEXITY_THRESHOLD)
                    .then(|| quote!(#[allow(clippy::type_complexity)]));
                let user = self
                    .attributes
                    .for_field(record.qualified_name(), field.name());
                let ident = name.ident();
                let ty = types.rust(field.ty());
                quote! {
                    #[doc = #doc]
                    #rename
                    #complex
                    #(#user)*
                    pub #ident: #ty,
                }
            });
        let ident = names.name.ident();
        quote! {
            #[doc = #doc]
            #[derive(#derives)]
            #[derive(#runtime::Record)]
            #[record(#(#record_attr),*)]
            #acronym
            #(#user)*
            pub struct #ident {
                #(#fields)*
            }
        }
    }

    /// Whether a record of module `node` is named `name` (so the prelude's type of that
    /// name must be written by its full path there).
    fn shadowed(&self, node: usize, name: &str) -> bool {
        self.layout.nodes[node]
            .records
            .iter()
            .any(|&r| self.layout.record(r).name.plain() == name)
    }
}

/// Formats items as a Rust file, after the `header` comment.
pub(crate) fn format_file(header: &str, items: TokenStream) -> String {
    let file: syn::File = syn::parse2(items.into_token_stream()).unwrap_or_else(|e| {
        panic!("rcc generated Rust that does not parse ({e}); please report this")
    });
    let body = prettyplease::unparse(&file);
    let mut out = String::with_capacity(header.len() + body.len() + 1);
    out.push_str(header);
    if !body.is_empty() {
        out.push('\n');
        out.push_str(&body);
    }
    out
}
