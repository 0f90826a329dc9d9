//! Where everything goes in Rust: the module tree mirroring the dotted DDL module names,
//! the Rust name of every module, record and field, and the relative paths between
//! modules. Names that would collide in Rust get the fallbacks of [`assign`].

use std::collections::hash_map::{Entry, HashMap};

use super::ast::{ident, path};
use super::names::{assign, Kind, RustName};
use crate::model::{Model, RecordIndex};

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

    /// Lays `model` out. Every DDL name gets a Rust name of its own: one Rust module per
    /// distinct DDL module prefix, and within each Rust namespace (a module's child modules
    /// and records, a record's fields) names told apart by [`assign`].
    pub fn new(model: &Model) -> Layout {
        let mut nodes = vec![Node {
            name: None,
            parent: None,
            depth: 0,
            module: None,
            records: Vec::new(),
            children: Vec::new(),
        }];
        // The DDL segment of each node, and (parent, DDL segment) → node.
        let mut segments: Vec<&str> = vec![""];
        let mut by_segment: HashMap<(usize, &str), usize> = HashMap::new();
        for (m, module) in model.modules().iter().enumerate() {
            let mut node = Layout::ROOT;
            for segment in module.segments() {
                node = match by_segment.entry((node, segment)) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        let id = nodes.len();
                        let depth = nodes[node].depth + 1;
                        nodes[node].children.push(id);
                        nodes.push(Node {
                            name: None,
                            parent: Some(node),
                            depth,
                            module: None,
                            records: Vec::new(),
                            children: Vec::new(),
                        });
                        segments.push(segment);
                        *e.insert(id)
                    }
                };
            }
            // The model holds each DDL module once, so each node gets at most one.
            nodes[node].module = Some(m);
            nodes[node].records = module.records().to_vec();
        }

        let mut records: Vec<Option<RecordNames>> = std::iter::repeat_with(|| None)
            .take(model.records().len())
            .collect();
        for node in 0..nodes.len() {
            // Child modules first: their names are file names, best kept stable.
            let children = nodes[node].children.clone();
            let own = nodes[node].records.clone();
            let names: Vec<(Kind, &str)> = children
                .iter()
                .map(|&c| (Kind::Module, segments[c]))
                .chain(own.iter().map(|&r| (Kind::Type, model.record(r).name())))
                .collect();
            let mut assigned = assign(&names).into_iter();
            for &child in &children {
                nodes[child].name = assigned.next();
            }
            for (&r, name) in own.iter().zip(assigned) {
                let fields: Vec<(Kind, &str)> = model
                    .record(r)
                    .fields()
                    .iter()
                    .map(|f| (Kind::Field, f.name()))
                    .collect();
                records[r.index()] = Some(RecordNames {
                    node,
                    name,
                    fields: assign(&fields),
                });
            }
        }
        Layout {
            nodes,
            records: records
                .into_iter()
                .map(|r| r.expect("every record is in a module"))
                .collect(),
        }
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
