//! The syntax tree of the module tree and its records: plain structs carrying
//! `#[derive(hadoop_record::Record)]` and its attributes (the derive writes every byte),
//! formatted with prettyplease.

use quote::{quote, ToTokens};
use syn::{Field, FieldMutability, Fields, FieldsNamed, Item, ItemMod, ItemStruct, Visibility};

use super::ast::{doc, ident, list, path, punctuated};
use super::layout::Layout;
use super::names::{is_upper_case_acronym, Kind, RustName};
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
    pub runtime: syn::Path,
    /// `Some("path")` when the runtime is not at `::hadoop_record` (the derive's
    /// `crate` attribute).
    pub runtime_attr: Option<String>,
    /// Absolute DDL paths are shown relative to this ([`super::show_path`]).
    pub source_root: Option<&'a std::path::Path>,
    /// [`super::Options::nullable`]
    pub nullable: bool,
    /// [`super::Options::minimal_derives`]
    pub minimal_derives: bool,
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
    /// items pushed to `files` (parents before children).
    pub fn module_items(
        &self,
        node: usize,
        mode: Mode,
        files: &mut Vec<(usize, Vec<Item>)>,
    ) -> Vec<Item> {
        let mut items: Vec<Item> = self.layout.nodes[node]
            .records
            .iter()
            .map(|&r| Item::Struct(self.record(r)))
            .collect();
        for &child in &self.layout.nodes[node].children {
            let name = self.layout.nodes[child]
                .name
                .as_ref()
                .expect("a child has a name");
            let mut attrs = vec![doc(&self.module_doc(child))];
            // A module named like its parent trips clippy's `module_inception`; at the top,
            // the parent is the user's mount point (`mod links { include_records!("links"); }`),
            // whose name is unknown here.
            if node == Layout::ROOT || self.layout.nodes[node].name.as_ref() == Some(name) {
                attrs.push(list("allow", quote!(clippy::module_inception)));
            }
            attrs.extend(allow_lint(Kind::Module, name));
            // A module named `mod` stays inline: its file would be `mod.rs`, which is the
            // root's own file at the top, and which rustc takes as a directory's module
            // file below it (looking for its children in the wrong place).
            let own_file = mode == Mode::FilePerModule
                && !self.layout.nodes[child].records.is_empty()
                && name.plain() != "mod";
            let (content, semi) = if own_file {
                let slot = files.len();
                files.push((child, Vec::new()));
                files[slot].1 = self.module_items(child, mode, files);
                (None, Some(Default::default()))
            } else {
                let body = self.module_items(child, mode, files);
                (Some((Default::default(), body)), None)
            };
            items.push(Item::Mod(ItemMod {
                attrs,
                vis: Visibility::Public(Default::default()),
                unsafety: None,
                mod_token: Default::default(),
                ident: name.ident(),
                content,
                semi,
            }));
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
    fn record(&self, r: RecordIndex) -> ItemStruct {
        let record = self.model.record(r);
        let names = self.layout.record(r);
        let types = self.type_writer(names.node);

        let mut attrs = vec![doc(&format!(
            " The DDL record `{}`, declared at `{}`.",
            record.qualified_name(),
            super::locate(record.location(), self.source_root)
        ))];
        // Which traits, and when: `Config::minimal_derives`. The order is Hadoop's, from the derive.
        let (std_traits, order) = if self.minimal_derives {
            (quote!(Debug, Clone, PartialEq), None)
        } else if self.ordered.record(r) {
            (
                quote!(Debug, Clone, Default, PartialEq, Eq, Hash),
                Some(quote!(ord)),
            )
        } else {
            (
                quote!(Debug, Clone, Default, PartialEq),
                Some(quote!(partial_ord)),
            )
        };
        attrs.push(list("derive", std_traits));
        let runtime = &self.runtime;
        attrs.push(list("derive", quote!(#runtime::Record)));
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
        record_attr.extend(order);
        attrs.push(list("record", quote!(#(#record_attr),*)));
        attrs.extend(allow_lint(Kind::Type, &names.name));
        // rustc checks field names at the struct, so the struct allows what a field needs.
        if let Some(lint) = names.fields.iter().find_map(|f| Kind::Field.lint(f)) {
            attrs.push(list("allow", ident(lint).into_token_stream()));
        }
        if is_upper_case_acronym(names.name.plain()) {
            attrs.push(list("allow", quote!(clippy::upper_case_acronyms)));
        }
        attrs.extend(self.attributes.for_type(record.qualified_name()).cloned());

        let fields = record
            .fields()
            .iter()
            .zip(&names.fields)
            .map(|(field, name)| {
                let mut attrs = vec![doc(&format!(
                    " `{} {}`",
                    self.model.type_to_string(field.ty()),
                    field.name()
                ))];
                if name.plain() != field.name() {
                    let ddl = field.name();
                    attrs.push(list("record", quote!(name = #ddl)));
                }
                if types.complexity(field.ty()) > TYPE_COMPLEXITY_THRESHOLD {
                    attrs.push(list("allow", quote!(clippy::type_complexity)));
                }
                attrs.extend(
                    self.attributes
                        .for_field(record.qualified_name(), field.name())
                        .cloned(),
                );
                Field {
                    attrs,
                    vis: Visibility::Public(Default::default()),
                    mutability: FieldMutability::None,
                    ident: Some(name.ident()),
                    colon_token: Some(Default::default()),
                    ty: types.rust(field.ty()),
                }
            });
        ItemStruct {
            attrs,
            vis: Visibility::Public(Default::default()),
            struct_token: Default::default(),
            ident: names.name.ident(),
            generics: Default::default(),
            fields: Fields::Named(FieldsNamed {
                brace_token: Default::default(),
                named: punctuated(fields),
            }),
            semi_token: None,
        }
    }

    /// Whether a record of module `node` is named `name` (so the prelude's type of that
    /// name must be written by its full path there).
    /// Writes the types of the fields of records in module `node`.
    pub fn type_writer(&self, node: usize) -> TypeWriter<'_> {
        let mut map_key = self.runtime.clone();
        map_key.segments.push(ident("field").into());
        map_key.segments.push(ident("MapKey").into());
        TypeWriter {
            layout: self.layout,
            ordered: self.ordered,
            node,
            string: TypeWriter::prelude(self.shadowed(node, "String"), "string", "String"),
            vec: TypeWriter::prelude(self.shadowed(node, "Vec"), "vec", "Vec"),
            map: path(true, ["std", "collections", "BTreeMap"].map(ident)),
            map_key,
            option: self
                .nullable
                .then(|| TypeWriter::prelude(self.shadowed(node, "Option"), "option", "Option")),
        }
    }

    fn shadowed(&self, node: usize, name: &str) -> bool {
        self.layout.nodes[node]
            .records
            .iter()
            .any(|&r| self.layout.record(r).name.plain() == name)
    }
}

/// `#[allow(lint)]` when `name`, as a `kind`, keeps a DDL spelling that trips a naming lint.
fn allow_lint(kind: Kind, name: &RustName) -> Option<syn::Attribute> {
    let lint = kind.lint(name)?;
    Some(list("allow", ident(lint).into_token_stream()))
}

/// Formats items as a Rust file, after the `header` comment, with a blank line between
/// items (prettyplease puts none inside modules).
pub(crate) fn format_file(header: &str, items: Vec<Item>) -> String {
    let body = prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    });
    let mut out = String::with_capacity(header.len() + body.len() + body.len() / 8);
    out.push_str(header);
    if !body.is_empty() {
        out.push('\n');
        separate_items(&body, &mut out);
    }
    out
}

/// Copies `code` to `out` with a blank line before each item that follows another item.
///
/// The generated code has only structs, whose fields end in `,`, and modules, so an item
/// ends on a line that is `}` or `pub mod name;`, and the next one starts with its doc
/// comment. Attributes and doc comments are single lines here (DDL names cannot hold a
/// line break), so no line inside an item looks like an item's end.
fn separate_items(code: &str, out: &mut String) {
    let mut previous_ends_item = false;
    for line in code.lines() {
        let trimmed = line.trim_start();
        if previous_ends_item && trimmed.starts_with("///") {
            out.push('\n');
        }
        previous_ends_item =
            trimmed == "}" || (trimmed.starts_with("pub mod ") && trimmed.ends_with(';'));
        out.push_str(line);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::separate_items;

    #[test]
    fn items_get_a_blank_line_between_them_and_fields_do_not() {
        let want = "\
/// A.
pub struct A {
    /// `int x`
    pub x: i32,
    /// `int y`
    pub y: i32,
}

/// M.
pub mod m {
    /// B.
    pub struct B {
        pub b: i32,
    }

    /// C.
    #[derive(Debug)]
    pub struct C {
        pub c: i32,
    }

    /// Below.
    pub mod below;

    /// Other.
    pub mod other;
}

/// N.
pub mod n;
";
        // The same code without its blank lines, as the templates give it.
        let code: String = want
            .lines()
            .filter(|line| !line.is_empty())
            .map(|line| format!("{line}\n"))
            .collect();
        let mut out = String::new();
        separate_items(&code, &mut out);
        assert_eq!(out, want);
    }
}
