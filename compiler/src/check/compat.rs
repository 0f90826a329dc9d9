//! What Hadoop's own `rcc` would reject in DDL that this one accepts: warnings (errors with
//! [`LoadOptions::hadoop_compat`](crate::LoadOptions::hadoop_compat)), so that a schema
//! that works here cannot break the Java side of the same team unnoticed.
//!
//! Each was checked against Hadoop 2.10.2's `Rcc` (`org.apache.hadoop.record.compiler.generated.Rcc`):
//!
//! - `;` after the `}` of a class or a module (a parse error there);
//! - a byte order mark, and a final `//` comment without a line break (lexical errors);
//! - a record named before Hadoop has read its declaration. Hadoop reads each file named on
//!   its command line on its own, top to bottom, an included file where its `include`
//!   stands, and knows a record from its closing `}` on ("Type m.A not known"). So a
//!   record cannot name itself (not even through a vector), a record declared further
//!   down or in a later `include`, or one from a file that is not included;
//! - a simple name for a record of another module (Hadoop looks only in the current one);
//! - an include found only in an include directory (`-I`): Hadoop's rcc has none.
//!
//! Hadoop's other refusals (empty modules and classes, `};` after an include, unknown
//! types, keywords as names) are errors here as well.
//!
//! Not flagged, as it depends on where Hadoop's rcc is run rather than on the DDL: it looks
//! for the includes of a file named on its command line in the working directory (its
//! `curDir` starts as `.`), and for those of an included file next to that file; this rcc
//! looks next to the including file in both cases. The two agree when Hadoop's rcc runs in
//! the folder of the files it is given.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::declare::Decls;
use super::resolve::{Found, Reference};
use crate::diagnostics::{Diagnostic, Severity};
use crate::load::IncludeTarget;
use crate::model::{Record, RecordIndex};
use crate::source::{FileId, SourceFile};
use crate::syntax::ast;

/// What the checks look at.
pub(super) struct Input<'a> {
    pub files: &'a [SourceFile],
    pub parsed: &'a [(FileId, Arc<ast::File>)],
    pub includes: &'a HashMap<(FileId, usize), IncludeTarget>,
    pub decls: &'a Decls<'a>,
    pub records: &'a [Record],
    /// The records each record's fields name, in source order.
    pub references: &'a [Vec<Reference>],
}

/// Every construct of `input` that Hadoop's rcc rejects, as diagnostics of `severity`.
pub(super) fn check(input: &Input<'_>, severity: Severity) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut add = |d: Diagnostic| {
        out.push(d.note(match severity {
            Severity::Warning => {
                "Hadoop's rcc rejects this; `--hadoop-compat` makes it an error here too"
            }
            Severity::Error => "Hadoop's rcc rejects this (`--hadoop-compat`)",
        }))
    };
    for (file, tree) in input.parsed {
        syntax(*file, tree, severity, &mut add);
    }
    for (&at, target) in input.includes {
        if target.via_include_dir {
            add(include_dir(input, at, target.file, severity));
        }
    }
    for (r, references) in input.references.iter().enumerate() {
        let from = RecordIndex::new(r);
        for reference in references {
            if reference.found == Found::Elsewhere {
                add(other_module(input, from, reference, severity));
            } else if reference.target == from {
                add(Diagnostic::new(
                    severity,
                    format!("record `{}` names itself", input.records[r].name()),
                )
                .primary(
                    reference.file,
                    reference.span,
                    "Hadoop's rcc knows a record only after its closing `}`",
                )
                .help("Hadoop's DDL has no recursive records"));
            }
        }
    }
    for d in order_of_declaration(input, severity) {
        add(d);
    }
    // In reading order (includes come from a hash map).
    out.sort_by(|a, b| {
        let at = |d: &Diagnostic| d.primary_label().map(|l| (l.file(), l.span().start));
        at(a).cmp(&at(b)).then_with(|| a.message().cmp(b.message()))
    });
    out
}

/// `;` after `}`, a byte order mark, a final comment without a line break.
fn syntax(file: FileId, tree: &ast::File, severity: Severity, add: &mut impl FnMut(Diagnostic)) {
    if let Some(span) = tree.bom {
        add(
            Diagnostic::new(severity, "byte order mark at the start of the file")
                .primary(file, span, "a lexical error for Hadoop's rcc")
                .help("save the file as UTF-8 without a byte order mark"),
        );
    }
    if let Some(span) = tree.unterminated_comment {
        add(Diagnostic::new(
            severity,
            "`//` comment at the end of the file without a line break",
        )
        .primary(file, span, "a lexical error for Hadoop's rcc")
        .help("end the file with a line break"));
    }
    let semicolon = |what: &str, name: &str, span| {
        Diagnostic::new(severity, format!("`;` after the `}}` of {what} `{name}`"))
            .primary(file, span, "a parse error for Hadoop's rcc")
            .help(format!("remove the `;`: {what} ends at its `}}`"))
    };
    for item in &tree.items {
        let ast::Item::Module(module) = item else {
            continue;
        };
        for class in &module.classes {
            if let Some(span) = class.semicolon {
                add(semicolon("class", &class.name.text, span));
            }
        }
        if let Some(span) = module.semicolon {
            add(semicolon("module", &module.name.to_string(), span));
        }
    }
}

/// The `n`th include of `file`, which only an include directory resolved, to `target`.
fn include_dir(
    input: &Input<'_>,
    (file, n): (FileId, usize),
    target: FileId,
    severity: Severity,
) -> Diagnostic {
    let include = input
        .parsed
        .iter()
        .find(|(f, _)| *f == file)
        .and_then(|(_, tree)| {
            tree.items
                .iter()
                .filter_map(|i| match i {
                    ast::Item::Include(include) => Some(include),
                    ast::Item::Module(_) => None,
                })
                .nth(n)
        });
    let found = input.files[target.index()].path();
    let mut d = Diagnostic::new(
        severity,
        format!(
            "included file found in an include directory, as `{}`",
            found.display()
        ),
    );
    if let Some(include) = include {
        d = d.primary(
            file,
            include.path_span,
            "Hadoop's rcc has no include directories",
        );
    }
    d.help("give the path relative to the including file")
}

/// A simple name for a record of another module.
fn other_module(
    input: &Input<'_>,
    from: RecordIndex,
    reference: &Reference,
    severity: Severity,
) -> Diagnostic {
    let target = &input.records[reference.target.index()];
    let module = input.records[from.index()].module();
    Diagnostic::new(
        severity,
        format!(
            "`{}` names a record of another module without its module",
            target.name()
        ),
    )
    .primary(
        reference.file,
        reference.span,
        format!(
            "Hadoop's rcc looks for `{module}.{}`, which does not exist",
            target.name()
        ),
    )
    .secondary(
        target.location().file,
        target.location().span,
        format!("`{}` is declared here", target.qualified_name()),
    )
    .help(format!("write `{}`", target.qualified_name()))
}

/// Records named before Hadoop's rcc has read them: each file named on the command line
/// (a root) is read on its own, its includes where they stand, each file once.
fn order_of_declaration(input: &Input<'_>, severity: Severity) -> Vec<Diagnostic> {
    let trees: HashMap<FileId, &ast::File> = input.parsed.iter().map(|(f, t)| (*f, &**t)).collect();
    // (record, reference number) already reported, from an earlier root.
    let mut reported: HashSet<(RecordIndex, usize)> = HashSet::new();
    let mut out = Vec::new();
    for root in input
        .files
        .iter()
        .filter(|f| f.is_root())
        .map(SourceFile::id)
    {
        let mut known: HashSet<RecordIndex> = HashSet::new();
        let mut unknown: Vec<(RecordIndex, usize)> = Vec::new();
        let mut entered: HashSet<FileId> = HashSet::from([root]);
        // (file, next item, next include number)
        let mut stack: Vec<(FileId, usize, usize)> = vec![(root, 0, 0)];
        while let Some((file, next, include)) = stack.last_mut() {
            let file = *file;
            let Some(item) = trees.get(&file).and_then(|t| t.items.get(*next)) else {
                stack.pop();
                continue;
            };
            *next += 1;
            match item {
                ast::Item::Include(_) => {
                    let n = *include;
                    *include += 1;
                    if let Some(target) = input.includes.get(&(file, n)) {
                        if entered.insert(target.file) {
                            stack.push((target.file, 0, 0));
                        }
                    }
                }
                ast::Item::Module(module) => {
                    let name = module.name.to_string();
                    for class in &module.classes {
                        let Some(&r) = input
                            .decls
                            .by_name
                            .get(&format!("{name}.{}", class.name.text))
                        else {
                            continue;
                        };
                        for (k, reference) in input.references[r.index()].iter().enumerate() {
                            // Reported on their own (other_module, names itself).
                            let elsewhere = reference.found == Found::Elsewhere;
                            if !elsewhere
                                && reference.target != r
                                && !known.contains(&reference.target)
                            {
                                unknown.push((r, k));
                            }
                        }
                        known.insert(r);
                    }
                }
            }
        }
        for (r, k) in unknown {
            if !reported.insert((r, k)) {
                continue;
            }
            let reference = &input.references[r.index()][k];
            let target = &input.records[reference.target.index()];
            let (message, here, there, help) = if known.contains(&reference.target) {
                (
                    format!(
                        "record `{}` is named before its declaration",
                        target.qualified_name()
                    ),
                    "Hadoop's rcc does not know it yet here",
                    "declared here, later in Hadoop's reading order",
                    "declare (or include) records before the records that name them: \
                     Hadoop's rcc reads a file top to bottom, an included file where its \
                     `include` stands"
                        .to_owned(),
                )
            } else {
                let root_path = input.files[root.index()].path();
                let declared = input.files[target.location().file.index()].path();
                (
                    format!(
                        "record `{}` is not declared in `{}` or the files it includes",
                        target.qualified_name(),
                        root_path.display()
                    ),
                    "Hadoop's rcc does not know it here",
                    "declared here",
                    format!(
                        "include the file that declares it, `{}`: Hadoop's rcc compiles each \
                         file named on its command line on its own",
                        declared.display()
                    ),
                )
            };
            let d = Diagnostic::new(severity, message)
                .primary(reference.file, reference.span, here)
                .secondary(target.location().file, target.location().span, there)
                .help(help);
            out.push(d);
        }
    }
    out
}
