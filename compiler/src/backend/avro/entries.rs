//! Names of the key/value records of DDL maps whose keys are not `ustring` (Avro's map keys
//! are strings, so such a map is an array of these records).
//!
//! The record of a map at field `f` of record `m.R` is `m.R_f_Entry`; a map inside the
//! field's type adds a step per level, `item` (a vector's element), `key` or `value` (a
//! map's): `map<int, map<long, int>> f` gives `m.R_f_Entry` and `m.R_f_value_Entry`. The
//! names come from where the map is, not what it holds, so that changing a key or value
//! type keeps the name (Avro's schema resolution matches records by name). A name already
//! taken, by a DDL record or an earlier entry, gets a number: `m.R_f_Entry2`.

use std::collections::{HashMap, HashSet};

use crate::model::{Model, Primitive, RecordIndex, Type};

/// A step from a type into the type inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Step {
    /// A vector's element.
    Item,
    /// A map's key.
    Key,
    /// A map's value.
    Value,
}

impl Step {
    fn word(self) -> &'static str {
        match self {
            Step::Item => "item",
            Step::Key => "key",
            Step::Value => "value",
        }
    }
}

/// Where a type is: a field of a record and the steps into the field's type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Site {
    pub(super) record: RecordIndex,
    pub(super) field: usize,
    pub(super) steps: Vec<Step>,
}

impl Site {
    /// Field `field` of record `record`, at the field's type.
    pub(super) fn new(record: RecordIndex, field: usize) -> Self {
        Site {
            record,
            field,
            steps: Vec::new(),
        }
    }

    /// `f` at the type one `step` inside this site's.
    pub(super) fn within<T>(&mut self, step: Step, f: impl FnOnce(&mut Site) -> T) -> T {
        self.steps.push(step);
        let out = f(self);
        self.steps.pop();
        out
    }
}

/// The entry record's name (without namespace) of every map with non-`ustring` keys of a
/// model; its namespace is the module of the record whose field holds the map.
#[derive(Debug)]
pub(super) struct EntryNames(HashMap<Site, String>);

impl EntryNames {
    /// Names every such map of `model`, records and fields in model order.
    pub(super) fn assign(model: &Model) -> Self {
        let mut taken: HashSet<String> = model
            .records()
            .iter()
            .map(|r| r.qualified_name().to_owned())
            .collect();
        let mut names = HashMap::new();
        for (i, record) in model.records().iter().enumerate() {
            for (f, field) in record.fields().iter().enumerate() {
                let mut site = Site::new(RecordIndex::new(i), f);
                let mut name = |site: &Site| {
                    let steps: String = site
                        .steps
                        .iter()
                        .map(|s| format!("_{}", s.word()))
                        .collect();
                    let base = format!("{}_{}{steps}_Entry", record.name(), field.name());
                    let name = (1u64..)
                        .map(|n| match n {
                            1 => base.clone(),
                            n => format!("{base}{n}"),
                        })
                        .find(|name| taken.insert(format!("{}.{name}", record.module())))
                        .expect("an unused name among 2^64");
                    names.insert(site.clone(), name);
                };
                walk(field.ty(), &mut site, &mut name);
            }
        }
        EntryNames(names)
    }

    /// The name of the entry record of the map at `site`.
    pub(super) fn get(&self, site: &Site) -> &str {
        self.0
            .get(site)
            .map(String::as_str)
            .expect("every map with non-ustring keys has an entry name")
    }
}

/// Whether a map with keys of type `key` is an Avro map (else an array of entries).
pub(super) fn is_avro_map_key(key: &Type) -> bool {
    *key == Type::Primitive(Primitive::UString)
}

/// Calls `name` at every map of `ty` that needs an entry record, outer maps first.
fn walk(ty: &Type, site: &mut Site, name: &mut impl FnMut(&Site)) {
    match ty {
        Type::Primitive(_) | Type::Record(_) => {}
        Type::Vector(e) => site.within(Step::Item, |site| walk(e, site, name)),
        Type::Map(k, v) => {
            if !is_avro_map_key(k) {
                name(site);
                site.within(Step::Key, |site| walk(k, site, name));
            }
            site.within(Step::Value, |site| walk(v, site, name));
        }
    }
}
