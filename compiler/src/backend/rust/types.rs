//! DDL types as Rust types, per the derive's mapping: `byte` → `i8`, `boolean` → `bool`,
//! `int` → `i32`, `long` → `i64`, `float` → `f32`, `double` → `f64`, `ustring` →
//! `String`, `buffer` → `Vec<u8>`, `vector<T>` → `Vec<T>`, `map<K, V>` → `BTreeMap<K, V>`
//! (`BTreeMap<MapKey<K>, V>` when `K` has no total order), records by relative path.

use std::collections::VecDeque;

use syn::Type as RustType;

use super::ast::{generic, ident, path, path_type, primitive};
use super::layout::Layout;
use crate::model::{Model, Primitive, RecordIndex, Type};

/// Which records are `Eq`, `Hash` and `Ord`: those with no `float` or `double` anywhere
/// inside, through vectors, maps and other records (none when derives are minimal).
#[derive(Debug)]
pub(crate) struct Ordered(Vec<bool>);

impl Ordered {
    /// Computed over the record graph: a record holding a float directly is unordered, and
    /// so is every record that reaches it. Records may reach themselves (through vectors
    /// and maps), so this propagates along reverse edges from the records holding floats,
    /// visiting each record once. With `minimal` derives no record is ordered.
    pub fn new(model: &Model, minimal: bool) -> Self {
        let n = model.records().len();
        if minimal {
            return Ordered(vec![false; n]);
        }
        let mut users: Vec<Vec<RecordIndex>> = vec![Vec::new(); n];
        let mut ordered = vec![true; n];
        let mut queue = VecDeque::new();
        for (i, record) in model.records().iter().enumerate() {
            let mut floats = false;
            for field in record.fields() {
                walk(field.ty(), &mut |leaf| match leaf {
                    Leaf::Float => floats = true,
                    Leaf::Record(r) => users[r.index()].push(RecordIndex::new(i)),
                });
            }
            if floats {
                ordered[i] = false;
                queue.push_back(i);
            }
        }
        while let Some(r) = queue.pop_front() {
            for user in &users[r] {
                if std::mem::replace(&mut ordered[user.index()], false) {
                    queue.push_back(user.index());
                }
            }
        }
        Ordered(ordered)
    }

    /// Whether record `r` is `Eq`, `Hash` and `Ord`.
    pub fn record(&self, r: RecordIndex) -> bool {
        self.0[r.index()]
    }

    /// Whether values of `ty` have a total order (are `Ord`).
    pub fn ty(&self, ty: &Type) -> bool {
        let mut ordered = true;
        walk(ty, &mut |leaf| match leaf {
            Leaf::Float => ordered = false,
            Leaf::Record(r) => ordered &= self.record(r),
        });
        ordered
    }
}

/// Whether Java may hold a value of `ty` as null: `String`, `byte[]` and `List`.
fn nullable(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Primitive(Primitive::UString | Primitive::Buffer) | Type::Vector(_)
    )
}

enum Leaf {
    Float,
    Record(RecordIndex),
}

/// Calls `f` on every float type and record reference inside `ty`.
fn walk(ty: &Type, f: &mut impl FnMut(Leaf)) {
    match ty {
        Type::Primitive(Primitive::Float | Primitive::Double) => f(Leaf::Float),
        Type::Primitive(_) => {}
        Type::Vector(t) => walk(t, f),
        Type::Map(k, v) => {
            walk(k, f);
            walk(v, f);
        }
        Type::Record(r) => f(Leaf::Record(*r)),
    }
}

/// Writes Rust types for fields of records in one module of the tree.
pub(crate) struct TypeWriter<'a> {
    pub layout: &'a Layout,
    pub ordered: &'a Ordered,
    /// The module the types are written in.
    pub node: usize,
    /// `String` or `::std::string::String` (when a record of the module is named `String`).
    pub string: syn::Path,
    /// `Vec` or `::std::vec::Vec`.
    pub vec: syn::Path,
    /// `::std::collections::BTreeMap`.
    pub map: syn::Path,
    /// `MapKey` by the runtime crate's path.
    pub map_key: syn::Path,
    /// `Option` (or `::std::option::Option`) when strings, buffers and vectors may be null
    /// ([`super::Options::nullable`]).
    pub option: Option<syn::Path>,
}

impl TypeWriter<'_> {
    /// `String` or `::std::string::String`, and the same for `Vec`: the full path when a
    /// record of the module has the prelude name.
    pub fn prelude(shadowed: bool, module: &str, name: &str) -> syn::Path {
        if shadowed {
            path(true, ["std", module, name].map(ident))
        } else {
            syn::Path::from(ident(name))
        }
    }

    /// The Rust type of `ty`.
    pub fn rust(&self, ty: &Type) -> RustType {
        let plain = self.plain(ty);
        match &self.option {
            Some(option) if nullable(ty) => generic(option.clone(), vec![plain]),
            _ => plain,
        }
    }

    /// The Rust type of `ty`, never wrapped in `Option` itself.
    fn plain(&self, ty: &Type) -> RustType {
        match ty {
            Type::Primitive(p) => match p {
                Primitive::Byte => primitive("i8"),
                Primitive::Boolean => primitive("bool"),
                Primitive::Int => primitive("i32"),
                Primitive::Long => primitive("i64"),
                Primitive::Float => primitive("f32"),
                Primitive::Double => primitive("f64"),
                Primitive::UString => path_type(self.string.clone()),
                Primitive::Buffer => generic(self.vec.clone(), vec![primitive("u8")]),
            },
            Type::Vector(t) => generic(self.vec.clone(), vec![self.rust(t)]),
            Type::Map(k, v) => generic(self.map.clone(), vec![self.key(k), self.rust(v)]),
            Type::Record(r) => path_type(self.layout.type_path(self.node, *r)),
        }
    }

    /// A map key: itself when it is `Ord`, else wrapped in `MapKey`, which orders keys as
    /// Java's `TreeMap` does. Never an `Option`: Java's `TreeMap` holds no null key.
    fn key(&self, k: &Type) -> RustType {
        let key = self.plain(k);
        if self.ordered.ty(k) {
            key
        } else {
            generic(self.map_key.clone(), vec![key])
        }
    }

    /// clippy's `type_complexity` score of the Rust type of `ty`: each type path counts
    /// ten times its nesting depth (starting at one). The lint fires above 250.
    pub fn complexity(&self, ty: &Type) -> u32 {
        self.score(ty, 1)
    }

    fn score(&self, ty: &Type, nest: u32) -> u32 {
        if self.option.is_some() && nullable(ty) {
            return 10 * nest + self.plain_score(ty, nest + 1);
        }
        self.plain_score(ty, nest)
    }

    fn plain_score(&self, ty: &Type, nest: u32) -> u32 {
        10 * nest
            + match ty {
                Type::Primitive(Primitive::Buffer) => 10 * (nest + 1),
                Type::Primitive(_) | Type::Record(_) => 0,
                Type::Vector(t) => self.score(t, nest + 1),
                Type::Map(k, v) => {
                    let key = if self.ordered.ty(k) {
                        self.plain_score(k, nest + 1)
                    } else {
                        10 * (nest + 1) + self.plain_score(k, nest + 2)
                    };
                    key + self.score(v, nest + 1)
                }
            }
    }
}
