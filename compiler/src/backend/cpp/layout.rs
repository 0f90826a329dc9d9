//! Where generated C++ goes: for every DDL file `x.jr`, a header `x.jr.hh` and a source
//! `x.jr.cc` (Hadoop's naming). A header includes the headers of the files its file
//! includes and of the files declaring the records it refers to, then defines its records'
//! classes, each after the records it holds by value.
//!
//! Records of different files may refer to each other in a cycle (the checker resolves a
//! qualified name anywhere in the compilation). C++ headers cannot include each other in a
//! cycle, so the files of such a cycle share one set of class definitions: the header of
//! the cycle's first file (in load order) holds them all, and the other files' headers
//! include it.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use crate::diagnostics::Diagnostic;
use crate::model::{Model, RecordIndex, Type};
use crate::source::FileId;

/// The file name of the runtime's source, which `rcc` writes next to the generated files.
pub(crate) const RUNTIME_SOURCE: &str = "hadoop_record.cc";

/// What one DDL file's header holds.
#[derive(Debug)]
pub(crate) enum Header {
    /// The class definitions of its group of files.
    Definitions {
        /// Headers to include (files outside the group), in load order.
        includes: Vec<FileId>,
        /// The group's records, each after those it holds by value.
        classes: Vec<RecordIndex>,
    },
    /// Only an include of the header holding its group's definitions.
    Shared { definitions: FileId },
}

/// The generated files of one DDL file.
#[derive(Debug)]
pub(crate) struct FileOut {
    pub file: FileId,
    /// The DDL file's name, e.g. `links.jr`: the generated files are `links.jr.hh` and
    /// `links.jr.cc`.
    pub name: String,
    pub header: Header,
    /// The file's own records, in declaration order: their member functions go into the
    /// source.
    pub records: Vec<RecordIndex>,
}

/// Plans the files of every DDL file of `model`, or reports DDL files whose generated files
/// would have the same name.
pub(crate) fn plan(model: &Model) -> Result<Vec<FileOut>, Vec<Diagnostic>> {
    let files = model.files();
    let names = file_names(model)?;
    let deps: Vec<BTreeSet<FileId>> = files.iter().map(|f| dependencies(model, f.id())).collect();
    let groups = strongly_connected(&deps);
    let mut group_of = vec![0; files.len()];
    for (g, members) in groups.iter().enumerate() {
        for &f in members {
            group_of[f.index()] = g;
        }
    }
    Ok(files
        .iter()
        .map(|f| {
            let group = &groups[group_of[f.id().index()]];
            let leader = group[0];
            let header = if leader == f.id() {
                let includes: BTreeSet<FileId> = group
                    .iter()
                    .flat_map(|m| deps[m.index()].iter().copied())
                    .filter(|d| group_of[d.index()] != group_of[f.id().index()])
                    .collect();
                Header::Definitions {
                    includes: includes.into_iter().collect(),
                    classes: class_order(model, group),
                }
            } else {
                Header::Shared {
                    definitions: leader,
                }
            };
            FileOut {
                file: f.id(),
                name: names[f.id().index()].clone(),
                header,
                records: records_of(model, &[f.id()]),
            }
        })
        .collect())
}

/// The name of every file, checked to make usable, distinct file names.
fn file_names(model: &Model) -> Result<Vec<String>, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let mut seen: HashMap<String, FileId> = HashMap::new();
    let names = model
        .files()
        .iter()
        .map(|f| {
            let name = f
                .path()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.is_empty()
                || name.chars().any(|c| c.is_control() || c == '"' || c == '\\')
                || format!("{name}.cc") == RUNTIME_SOURCE
            {
                problems.push(Diagnostic::error(format!(
                    "the C++ back end cannot name files after `{}`",
                    f.path().display()
                )).note(format!(
                    "it writes `{name}.hh` and `{name}.cc`, and includes the header by that name"
                )).help("rename the DDL file: a plain name such as `links.jr` works"));
            } else if let Some(&other) = seen.get(&name) {
                problems.push(
                    Diagnostic::error(format!(
                        "`{}` and `{}` would both generate `{name}.hh` and `{name}.cc`",
                        model.file(other).path().display(),
                        f.path().display()
                    ))
                    .help("C++ files are named after the DDL file alone (Hadoop's naming): rename one of them"),
                );
            } else {
                seen.insert(name.clone(), f.id());
            }
            name
        })
        .collect();
    if problems.is_empty() {
        Ok(names)
    } else {
        Err(problems)
    }
}

/// The files `file` needs before its classes: those it includes and those declaring records
/// its records refer to.
fn dependencies(model: &Model, file: FileId) -> BTreeSet<FileId> {
    let mut deps: BTreeSet<FileId> = model.file(file).includes().iter().copied().collect();
    for record in model.records().iter().filter(|r| r.file() == file) {
        for field in record.fields() {
            field.ty().for_each_record(&mut |r| {
                deps.insert(model.record(r).file());
            });
        }
    }
    deps.remove(&file);
    deps
}

/// The strongly connected components of the dependency graph (Tarjan's algorithm), each
/// sorted by load order, in load order of their first file.
fn strongly_connected(deps: &[BTreeSet<FileId>]) -> Vec<Vec<FileId>> {
    struct Tarjan<'a> {
        deps: &'a [BTreeSet<FileId>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        groups: Vec<Vec<FileId>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for w in self.deps[v].iter().map(|f| f.index()) {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    group.push(FileId::new(w));
                    if w == v {
                        break;
                    }
                }
                group.sort();
                self.groups.push(group);
            }
        }
    }
    let n = deps.len();
    let mut t = Tarjan {
        deps,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        groups: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.groups.sort_by_key(|g| g[0]);
    t.groups
}

/// The records declared in `files`, in model order.
fn records_of(model: &Model, files: &[FileId]) -> Vec<RecordIndex> {
    model
        .records()
        .iter()
        .enumerate()
        .filter(|(_, r)| files.contains(&r.file()))
        .map(|(i, _)| RecordIndex::new(i))
        .collect()
}

/// The records of `files`, each after the records of `files` it holds by value (a field
/// whose type is the record itself), otherwise in model order. Such containment has no
/// cycles (the checker refuses them).
fn class_order(model: &Model, files: &[FileId]) -> Vec<RecordIndex> {
    let records = records_of(model, files);
    let position: HashMap<RecordIndex, usize> =
        records.iter().enumerate().map(|(i, &r)| (r, i)).collect();
    let mut waiting_on = vec![0usize; records.len()];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); records.len()];
    for (i, &r) in records.iter().enumerate() {
        let held: BTreeSet<usize> = model
            .record(r)
            .fields()
            .iter()
            .filter_map(|f| match f.ty() {
                Type::Record(q) => position.get(q).copied(),
                _ => None,
            })
            .filter(|&q| q != i)
            .collect();
        waiting_on[i] = held.len();
        for q in held {
            users[q].push(i);
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> = (0..records.len())
        .filter(|&i| waiting_on[i] == 0)
        .map(Reverse)
        .collect();
    let mut order = Vec::with_capacity(records.len());
    while let Some(Reverse(i)) = ready.pop() {
        order.push(records[i]);
        for &u in &users[i] {
            waiting_on[u] -= 1;
            if waiting_on[u] == 0 {
                ready.push(Reverse(u));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::model_of;

    fn names(model: &Model, records: &[RecordIndex]) -> Vec<String> {
        records
            .iter()
            .map(|&r| model.record(r).name().to_owned())
            .collect()
    }

    #[test]
    fn classes_follow_what_they_hold() {
        let m = model_of(
            &[(
                "a.jr",
                "module m { class A { B b; vector<C> cs; } class B { C c; } class C { int x; } }",
            )],
            &["a.jr"],
        );
        let out = plan(&m).unwrap();
        let Header::Definitions { classes, includes } = &out[0].header else {
            panic!("{out:?}")
        };
        assert_eq!(names(&m, classes), ["C", "B", "A"]);
        assert!(includes.is_empty());
        assert_eq!(out[0].name, "a.jr");
    }

    #[test]
    fn includes_and_references_become_header_includes() {
        let m = model_of(
            &[
                (
                    "dir/top.jr",
                    "include \"low.jr\"\nmodule t { class T { l.L l; o.O o; } }",
                ),
                ("dir/low.jr", "module l { class L { int x; } }"),
                ("other.jr", "module o { class O { int y; } }"),
            ],
            &["dir/top.jr", "other.jr"],
        );
        let out = plan(&m).unwrap();
        let top = out.iter().find(|f| f.name == "top.jr").unwrap();
        let Header::Definitions { includes, .. } = &top.header else {
            panic!()
        };
        let included: Vec<&str> = includes
            .iter()
            .map(|&f| out[f.index()].name.as_str())
            .collect();
        assert_eq!(included, ["low.jr", "other.jr"]);
    }

    #[test]
    fn files_referring_to_each_other_share_definitions() {
        let m = model_of(
            &[
                (
                    "a.jr",
                    "module a { class A { c.C x; } class A2 { int y; } }",
                ),
                (
                    "c.jr",
                    "module c { class C { int z; } class C2 { a.A2 q; } }",
                ),
            ],
            &["a.jr", "c.jr"],
        );
        let out = plan(&m).unwrap();
        let Header::Definitions { classes, includes } = &out[0].header else {
            panic!()
        };
        assert!(includes.is_empty());
        assert_eq!(names(&m, classes), ["A2", "C", "A", "C2"]);
        assert!(
            matches!(out[1].header, Header::Shared { definitions } if definitions == out[0].file)
        );
        assert_eq!(names(&m, &out[1].records), ["C", "C2"]);
    }

    #[test]
    fn same_file_names_are_refused() {
        let m = model_of(
            &[
                ("x/a.jr", "module a { class A { int x; } }"),
                ("y/a.jr", "module b { class B { int x; } }"),
            ],
            &["x/a.jr", "y/a.jr"],
        );
        let problems = plan(&m).unwrap_err();
        assert_eq!(problems.len(), 1);
    }
}
