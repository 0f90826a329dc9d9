//! Where everything goes in Rust: the module tree mirroring the dotted DDL module names,
//! the Rust name of every module, record and field, and the relative paths between
//! modules. Two DDL names that become the same Rust name are a DDL error with both spans.

use std::collections::hash_map::{Entry, HashMap};

use super::ast::{ident, path};
use super::names::{camel, snake, RustName};
use crate::diagnostics::Diagnostic;
use crate::model::{Model, RecordIndex};
use crate::source::Location;

/// A module of the Rust tree; [`Layout::ROOT`] is the tree's root (the file or the
/// `mod.rs` the user mounts).
#[derive(Debug)]
pub(crate) struct Node {
    /// The segment naming it in its parent (empty at the root).
    pub name: Option<RustName>,
    pub parent: Option<usize>,
    /// Depth below the root (the root is 0).
    pub depth: usize,
    /// The DDL module it holds, if any (else it only leads to deeper modules).
    pub module: Option<usize>,
    /// Its records, in declaration order.
    pub records: Vec<RecordIndex>,
    /// Child modules, in order of first appearance.
    pub children: Vec<usize>,
}

/// The Rust names of a record and its fields.
#[derive(Debug)]
pub(crate) struct RecordNames {
    /// The module holding it.
    pub node: usize,
    pub name: RustName,
    /// In field order.
    pub fields: Vec<RustName>,
}

/// The Rust shape of a model.
#[derive(Debug)]
pub(crate) struct Layout {
    pub nodes: Vec<Node>,
    /// Indexed by [`RecordIndex`].
    pub records: Vec<RecordNames>,
}

impl Layout {
    pub const ROOT: usize = 0;

    /// Lays `model` out, or reports every pair of names that collide in Rust.
    pub fn new(model: &Model) -> Result<Layout, Vec<Diagnostic>> {
        let mut problems = Vec::new();
        let mut nodes = vec![Node {
            name: None,
            parent: None,
            depth: 0,
            module: None,
            records: Vec::new(),
            children: Vec::new(),
        }];
        // (parent, segment) → node
        let mut by_segment: HashMap<(usize, RustName), usize> = HashMap::new();
        let mut records: Vec<Option<RecordNames>> = std::iter::repeat_with(|| None)
            .take(model.records().len())
            .collect();

        for (m, module) in model.modules().iter().enumerate() {
            let mut node = Layout::ROOT;
            for segment in module.segments() {
                let name = snake(segment);
                node = match by_segment.entry((node, name.clone())) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        let id = nodes.len();
                        let depth = nodes[node].depth + 1;
                        nodes[node].children.push(id);
                        nodes.push(Node {
                            name: Some(name),
                            parent: Some(node),
                            depth,
                            module: None,
                            records: Vec::new(),
                            children: Vec::new(),
                        });
                        *e.insert(id)
                    }
                };
            }
            if let Some(other) = nodes[node].module {
                let first = &model.modules()[other];
                problems.push(collision(
                    format!(
                        "modules `{}` and `{}` both become the Rust module `{}`",
                        first.name(),
                        module.name(),
                        rust_path(&nodes, node)
                    ),
                    module.location(),
                    first.location(),
                    "module",
                ));
                continue;
            }
            nodes[node].module = Some(m);
            nodes[node].records = module.records().to_vec();

            let mut types: HashMap<String, RecordIndex> = HashMap::new();
            for &r in module.records() {
                let record = model.record(r);
                let name = camel(record.name());
                if let Some(&other) = types.get(name.plain()) {
                    problems.push(collision(
                        format!(
                            "records `{}` and `{}` both become the Rust type `{}`",
                            model.record(other).name(),
                            record.name(),
                            name.source()
                        ),
                        record.location(),
                        model.record(other).location(),
                        "record",
                    ));
                } else {
                    types.insert(name.plain().to_owned(), r);
                }
                let mut seen: HashMap<String, usize> = HashMap::new();
                let fields = record
                    .fields()
                    .iter()
                    .enumerate()
                    .map(|(i, field)| {
                        let name = snake(field.name());
                        if let Some(&other) = seen.get(name.plain()) {
                            let other = &record.fields()[other];
                            problems.push(collision(
                                format!(
                                    "fields `{}` and `{}` of `{}` both become the Rust field `{}`",
                                    other.name(),
                                    field.name(),
                                    record.name(),
                                    name.source()
                                ),
                                field.location(),
                                other.location(),
                                "field",
                            ));
                        } else {
                            seen.insert(name.plain().to_owned(), i);
                        }
                        name
                    })
                    .collect();
                records[r.index()] = Some(RecordNames { node, name, fields });
            }
        }
        // Module segments are snake_case and type names UpperCamelCase, and every DDL name
        // starts with a letter, so a module and a type of one Rust module never collide.
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Layout {
            nodes,
            records: records
                .into_iter()
                .map(|r| r.expect("every record is in a module"))
                .collect(),
        })
    }

    /// The Rust names of record `r`.
    pub fn record(&self, r: RecordIndex) -> &RecordNames {
        &self.records[r.index()]
    }

    /// The segments from the root to `node`.
    pub fn segments(&self, node: usize) -> Vec<&RustName> {
        let mut out = Vec::with_capacity(self.nodes[node].depth);
        let mut at = node;
        while let Some(name) = &self.nodes[at].name {
            out.push(name);
            at = self.nodes[at].parent.expect("a named node has a parent");
        }
        out.reverse();
        out
    }

    /// The path from module `from` to record `to`, relative so that the tree can be mounted
    /// anywhere: `Inner` in the same module, `super::super::common::Point` elsewhere,
    /// `self::b::Rec` below.
    pub fn type_path(&self, from: usize, to: RecordIndex) -> syn::Path {
        let target = self.record(to);
        let name = target.name.ident();
        if target.node == from {
            return syn::Path::from(name);
        }
        // The nearest common ancestor: walk the deeper side up until both meet.
        let (mut a, mut b) = (from, target.node);
        let mut down = Vec::new();
        while self.nodes[a].depth > self.nodes[b].depth {
            a = self.nodes[a].parent.expect("not the root");
        }
        while self.nodes[b].depth > self.nodes[a].depth {
            down.push(b);
            b = self.nodes[b].parent.expect("not the root");
        }
        while a != b {
            a = self.nodes[a].parent.expect("not the root");
            down.push(b);
            b = self.nodes[b].parent.expect("not the root");
        }
        let ups = self.nodes[from].depth - self.nodes[a].depth;
        let start = if ups == 0 {
            vec![ident("self")]
        } else {
            vec![ident("super"); ups]
        };
        let below = down.iter().rev().map(|&node| {
            self.nodes[node]
                .name
                .as_ref()
                .expect("below the root")
                .ident()
        });
        path(false, start.into_iter().chain(below).chain([name]))
    }
}

/// `a::b` for showing in messages.
fn rust_path(nodes: &[Node], node: usize) -> String {
    let mut parts = Vec::new();
    let mut at = node;
    while let Some(name) = &nodes[at].name {
        parts.push(name.source());
        at = nodes[at].parent.unwrap_or(Layout::ROOT);
    }
    parts.reverse();
    parts.join("::")
}

fn collision(message: String, here: &Location, first: &Location, what: &str) -> Diagnostic {
    Diagnostic::error(message)
        .primary(here.file, here.span, format!("this {what}…"))
        .secondary(
            first.file,
            first.span,
            format!("…has the same Rust name as this {what}"),
        )
        .help(format!(
            "rename one of them in the DDL: in Rust, {what} names are {}",
            if what == "record" {
                "UpperCamelCase"
            } else {
                "snake_case"
            }
        ))
}
