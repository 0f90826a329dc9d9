//! Avro's schema resolution (the specification's "Schema Resolution"), field by field: what
//! becomes of data written with one schema when a reader reads it with another — for
//! `rcc compat`, the Avro side of a DDL change.
//!
//! - Records match when their names (without namespace) are equal, or when one of the
//!   reader's aliases is the writer's full name; enums and fixed the same (fixed of one
//!   size).
//! - Record fields match by name (or one of the reader field's aliases). A writer's field
//!   the reader lacks is skipped; a reader's field the writer lacks takes its default, and
//!   without one the schemas do not resolve.
//! - Types match when they are the same primitive, or when the writer's is promoted: `int`
//!   to `long`, `float` or `double`; `long` to `float` or `double`; `float` to `double`;
//!   `string` to `bytes` and back. Arrays match by their items, maps by their values.
//! - A writer's union resolves when each of its branches does; a reader's union takes the
//!   first branch that matches the writer's type exactly, else the first it promotes to.
//! - An enum whose writer has symbols the reader lacks needs the reader's enum default.
//!
//! Anything else does not resolve.

use std::collections::HashSet;
use std::fmt;

use super::avsc::{AvroType, Avsc, Field, NamedKind};

/// What becomes of one field (or of the whole record, at the empty path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AvroOutcome {
    /// Written and read as the same type.
    Kept,
    /// Written and read as a type Avro promotes it to (`int` to `long`, `string` to `bytes`,
    /// or the same inside an array, map or union).
    Promoted,
    /// Written, and the reader has no such field: skipped.
    Dropped,
    /// Not written: the reader takes its default.
    Defaulted,
    /// Not written, and the reader's field has no default: Avro cannot read the data.
    NoDefault,
    /// Written as a type the reader's cannot be read from: Avro cannot read the data.
    Mismatch,
    /// A record, enum or fixed (the field's, or inside its type) whose name differs from
    /// the writer's, with no alias for it: Avro cannot read the data.
    Renamed,
}

impl AvroOutcome {
    /// The outcome's name in reports: `kept`, `promoted`, `dropped`, `defaulted`,
    /// `no-default`, `mismatch`, `renamed`.
    pub fn name(self) -> &'static str {
        match self {
            AvroOutcome::Kept => "kept",
            AvroOutcome::Promoted => "promoted",
            AvroOutcome::Dropped => "dropped",
            AvroOutcome::Defaulted => "defaulted",
            AvroOutcome::NoDefault => "no-default",
            AvroOutcome::Mismatch => "mismatch",
            AvroOutcome::Renamed => "renamed",
        }
    }

    /// Whether Avro cannot read the data at all (resolution fails).
    pub fn fails(self) -> bool {
        matches!(
            self,
            AvroOutcome::NoDefault | AvroOutcome::Mismatch | AvroOutcome::Renamed
        )
    }

    /// The worse of two outcomes of parts of one type.
    fn and(self, other: AvroOutcome) -> AvroOutcome {
        let rank = |o: AvroOutcome| match o {
            AvroOutcome::Kept => 0,
            AvroOutcome::Promoted => 1,
            AvroOutcome::Renamed => 2,
            _ => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AvroFinding {
    /// The field's path from the top record: `inner.a`; `history[].a` inside an array,
    /// `tags{}.a` inside a map's value; empty for the top record itself.
    pub path: String,
    /// Its Avro type as written (`int`, `array<m.Item>`, `map<long>`), if it was.
    pub written: Option<String>,
    /// Its Avro type as read, if the reader has it.
    pub read: Option<String>,
    pub outcome: AvroOutcome,
}

impl fmt::Display for AvroFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types = match (&self.written, &self.read) {
            (Some(w), Some(r)) if w == r => w.clone(),
            (Some(w), Some(r)) => format!("{w} -> {r}"),
            (Some(t), None) | (None, Some(t)) => t.clone(),
            (None, None) => String::new(),
        };
        let path = if self.path.is_empty() {
            "(the record)"
        } else {
            &self.path
        };
        write!(f, "{path:<24} {types:<32} {}", self.outcome.name())
    }
}

/// What Avro's schema resolution does, field by field, when a reader with schema
/// `reader_avsc` reads data written with `writer_avsc` (both Avro schemas as JSON, any
/// tool's): in the writer's field order, each field followed by those of the records
/// inside it, then the reader's fields the data lacks. A record met again (a recursive
/// one, or one used by many fields) has its fields listed the first time only; a renamed
/// record's are listed too. When the top records themselves do not match, a first finding
/// with the empty path says so.
///
/// ```
/// use hadoop_record_compiler::backend::avro::{resolution, AvroOutcome};
///
/// let old = r#"{"type": "record", "name": "R", "fields": [
///     {"name": "n", "type": "int"}, {"name": "s", "type": "string"}]}"#;
/// let new = r#"{"type": "record", "name": "R", "fields": [
///     {"name": "n", "type": "long"}, {"name": "added", "type": "boolean"}]}"#;
/// let outcomes: Vec<(String, AvroOutcome)> = resolution(old, new)
///     .unwrap()
///     .into_iter()
///     .map(|f| (f.path, f.outcome))
///     .collect();
/// assert_eq!(outcomes, [
///     ("n".to_string(), AvroOutcome::Promoted),
///     ("s".to_string(), AvroOutcome::Dropped),
///     ("added".to_string(), AvroOutcome::NoDefault),
/// ]);
/// ```
///
/// An error (a sentence naming the schema and the place) when either is not an Avro
/// schema.
pub fn resolution(writer_avsc: &str, reader_avsc: &str) -> Result<Vec<AvroFinding>, String> {
    let writer = Avsc::parse(writer_avsc).map_err(|e| format!("the writer's Avro schema: {e}"))?;
    let reader = Avsc::parse(reader_avsc).map_err(|e| format!("the reader's Avro schema: {e}"))?;
    Ok(resolve(&writer, &reader))
}

/// [`resolution`] of two parsed schemas.
pub(super) fn resolve(writer: &Avsc, reader: &Avsc) -> Vec<AvroFinding> {
    let mut resolver = Resolver {
        writer,
        reader,
        visited: HashSet::new(),
    };
    let mut out = Vec::new();
    let outcome = resolver.resolve("", &writer.root, &reader.root, &mut out);
    if outcome != AvroOutcome::Kept {
        out.insert(
            0,
            AvroFinding {
                path: String::new(),
                written: Some(writer.describe(&writer.root)),
                read: Some(reader.describe(&reader.root)),
                outcome,
            },
        );
    }
    out
}

struct Resolver<'a> {
    writer: &'a Avsc,
    reader: &'a Avsc,
    /// The (writer, reader) records whose fields are listed (or being listed).
    visited: HashSet<(usize, usize)>,
}

impl Resolver<'_> {
    /// How the writer's type `w` at `path` resolves to the reader's `r`; the findings of the
    /// records inside go to `out`.
    fn resolve(
        &mut self,
        path: &str,
        w: &AvroType,
        r: &AvroType,
        out: &mut Vec<AvroFinding>,
    ) -> AvroOutcome {
        use AvroType as T;
        match (w, r) {
            (T::Union(branches), _) => branches.iter().fold(AvroOutcome::Kept, |o, b| {
                o.and(self.resolve(path, b, r, out))
            }),
            (_, T::Union(branches)) => self.reader_union(path, w, branches, out),
            (T::Array(w), T::Array(r)) => self.resolve(&format!("{path}[]"), w, r, out),
            (T::Map(w), T::Map(r)) => self.resolve(&format!("{path}{{}}"), w, r, out),
            (T::Named(w), T::Named(r)) => self.named(path, *w, *r, out),
            (T::Int, T::Long | T::Float | T::Double)
            | (T::Long, T::Float | T::Double)
            | (T::Float, T::Double)
            | (T::String, T::Bytes)
            | (T::Bytes, T::String) => AvroOutcome::Promoted,
            // Arrays, maps, unions and named types are matched above: primitives.
            (w, r) if w == r => AvroOutcome::Kept,
            _ => AvroOutcome::Mismatch,
        }
    }

    /// The writer's non-union `w` read as a union: the first branch it matches exactly,
    /// else the first it is promoted to (a branch of a record whose fields do not resolve
    /// matches neither, as Java's `SchemaCompatibility` has it).
    fn reader_union(
        &mut self,
        path: &str,
        w: &AvroType,
        branches: &[AvroType],
        out: &mut Vec<AvroFinding>,
    ) -> AvroOutcome {
        let outcomes: Vec<AvroOutcome> = branches.iter().map(|b| self.trial(path, w, b)).collect();
        let chosen = [AvroOutcome::Kept, AvroOutcome::Promoted]
            .iter()
            .find_map(|want| outcomes.iter().position(|o| o == want));
        match chosen {
            Some(i) => self.resolve(path, w, &branches[i], out),
            None => AvroOutcome::Mismatch,
        }
    }

    /// How `w` resolves to `r`, leaving no trace: a failure inside is a mismatch.
    fn trial(&mut self, path: &str, w: &AvroType, r: &AvroType) -> AvroOutcome {
        let visited = self.visited.clone();
        let mut found = Vec::new();
        let outcome = self.resolve(path, w, r, &mut found);
        self.visited = visited;
        if found.iter().any(|f| f.outcome.fails()) {
            AvroOutcome::Mismatch
        } else {
            outcome
        }
    }

    /// Named types `w` of the writer and `r` of the reader.
    fn named(&mut self, path: &str, w: usize, r: usize, out: &mut Vec<AvroFinding>) -> AvroOutcome {
        let (wn, rn) = (&self.writer.named[w], &self.reader.named[r]);
        let named = if wn.name() == rn.name() || rn.aliases.contains(&wn.full_name) {
            AvroOutcome::Kept
        } else {
            AvroOutcome::Renamed
        };
        let (ws, rs) = (&wn.kind, &rn.kind);
        match (ws, rs) {
            // A renamed record's fields are compared too (as Java's SchemaCompatibility
            // does): what else the change does.
            (NamedKind::Record(wf), NamedKind::Record(rf)) => {
                if self.visited.insert((w, r)) {
                    let prefix = if path.is_empty() {
                        String::new()
                    } else {
                        format!("{path}.")
                    };
                    self.fields(&prefix, wf, rf, out);
                }
                named
            }
            (
                NamedKind::Enum { symbols: ws, .. },
                NamedKind::Enum {
                    symbols: rs,
                    default,
                },
            ) => {
                if default.is_some() || ws.iter().all(|s| rs.contains(s)) {
                    named
                } else {
                    AvroOutcome::Mismatch
                }
            }
            (NamedKind::Fixed(ws), NamedKind::Fixed(rs)) if ws == rs => named,
            _ => AvroOutcome::Mismatch,
        }
    }

    /// The findings of a record's fields, `prefix` before their names.
    fn fields(
        &mut self,
        prefix: &str,
        written: &[Field],
        read: &[Field],
        out: &mut Vec<AvroFinding>,
    ) {
        let mut used = vec![false; read.len()];
        for wf in written {
            let path = format!("{prefix}{}", wf.name);
            let written = Some(self.writer.describe(&wf.ty));
            let target = read
                .iter()
                .position(|rf| rf.name == wf.name)
                .or_else(|| read.iter().position(|rf| rf.aliases.contains(&wf.name)));
            match target {
                Some(j) => {
                    used[j] = true;
                    let mut nested = Vec::new();
                    let outcome = self.resolve(&path, &wf.ty, &read[j].ty, &mut nested);
                    out.push(AvroFinding {
                        path,
                        written,
                        read: Some(self.reader.describe(&read[j].ty)),
                        outcome,
                    });
                    out.extend(nested);
                }
                None => out.push(AvroFinding {
                    path,
                    written,
                    read: None,
                    outcome: AvroOutcome::Dropped,
                }),
            }
        }
        for (rf, _) in read.iter().zip(&used).filter(|(_, used)| !**used) {
            out.push(AvroFinding {
                path: format!("{prefix}{}", rf.name),
                written: None,
                read: Some(self.reader.describe(&rf.ty)),
                outcome: if rf.has_default {
                    AvroOutcome::Defaulted
                } else {
                    AvroOutcome::NoDefault
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avro::schema;
    use crate::test_support::model;

    /// The findings of `old`'s record `m.R` read as `new`'s, from the schemas `rcc -l avro`
    /// writes for the two DDL texts, as `path written->read outcome` lines.
    fn ddl_change(old: &str, new: &str) -> Vec<String> {
        let avsc = |ddl: &str| {
            let model = model(ddl);
            schema(&model, model.find("m.R").unwrap())
        };
        lines(&resolution(&avsc(old), &avsc(new)).unwrap())
    }

    fn lines(findings: &[AvroFinding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| {
                let t = |t: &Option<String>| t.clone().unwrap_or_else(|| "-".into());
                format!(
                    "{} {}->{} {}",
                    f.path,
                    t(&f.written),
                    t(&f.read),
                    f.outcome.name()
                )
            })
            .collect()
    }

    #[test]
    fn fields_added_dropped_and_reordered() {
        assert_eq!(
            ddl_change(
                "module m { class R { int a; ustring gone; long b; } }",
                "module m { class R { long b; int a; boolean added; } }",
            ),
            [
                "a int->int kept",
                "gone string->- dropped",
                "b long->long kept",
                // rcc -l avro gives every field Hadoop's empty value as default.
                "added -->boolean defaulted",
            ]
        );
        // Without a default (another tool's schema), an added field cannot be read.
        let old = r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]}"#;
        let new = r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"},
                      {"name": "b", "type": "int"}]}"#;
        assert_eq!(
            lines(&resolution(old, new).unwrap()),
            ["a int->int kept", "b -->int no-default"]
        );
    }

    #[test]
    fn avros_promotions_and_nothing_else() {
        let promoted = [
            ("int", "long"),
            ("int", "float"),
            ("int", "double"),
            ("long", "float"),
            ("long", "double"),
            ("float", "double"),
            ("ustring", "buffer"),
            ("buffer", "ustring"),
            // A DDL byte is an Avro int (marked): int to int, whatever the marks.
            ("byte", "int"),
            ("int", "byte"),
        ];
        for (from, to) in promoted {
            let [line] = &ddl_change(
                &format!("module m {{ class R {{ {from} x; }} }}"),
                &format!("module m {{ class R {{ {to} x; }} }}"),
            )[..] else {
                panic!("{from} -> {to}")
            };
            let outcome = line.rsplit(' ').next().unwrap();
            let want = if from == "byte" || to == "byte" {
                "kept"
            } else {
                "promoted"
            };
            assert_eq!(outcome, want, "{from} -> {to}: {line}");
        }
        for (from, to) in [
            ("long", "int"),
            ("double", "float"),
            ("double", "long"),
            ("int", "ustring"),
            ("ustring", "int"),
            ("boolean", "int"),
            ("int", "vector<int>"),
            ("map<ustring, int>", "map<int, int>"),
        ] {
            let findings = ddl_change(
                &format!("module m {{ class R {{ {from} x; }} }}"),
                &format!("module m {{ class R {{ {to} x; }} }}"),
            );
            assert!(
                findings[0].ends_with(" mismatch"),
                "{from} -> {to}: {findings:?}"
            );
            assert!(findings[0].starts_with("x "), "{findings:?}");
        }
    }

    #[test]
    fn vectors_by_their_items_and_maps_by_their_values() {
        assert_eq!(
            ddl_change(
                "module m { class R { vector<int> v; map<ustring, float> m;
                                      vector<vector<long>> vv; map<ustring, int> bad; } }",
                "module m { class R { vector<long> v; map<ustring, double> m;
                                      vector<vector<ustring>> vv; map<ustring, boolean> bad; } }",
            ),
            [
                "v array<int>->array<long> promoted",
                "m map<float>->map<double> promoted",
                "vv array<array<long>>->array<array<string>> mismatch",
                "bad map<int>->map<boolean> mismatch",
            ]
        );
        // A DDL map of other keys is an array of entry records: by the entries' fields.
        assert_eq!(
            ddl_change(
                "module m { class R { map<int, int> e; } }",
                "module m { class R { map<long, ustring> e; } }",
            ),
            [
                "e array<m.R_e_Entry>->array<m.R_e_Entry> kept",
                "e[].key int->long promoted",
                "e[].value int->string mismatch",
            ]
        );
    }

    #[test]
    fn nested_records_by_name_and_their_fields_once() {
        let old =
            "module m { class P { int x; } class R { P a; vector<P> b; map<ustring, P> c; } }";
        assert_eq!(
            ddl_change(
                old,
                "module m { class P { long x; int y; } class R { P a; vector<P> b; map<ustring, P> c; } }"
            ),
            [
                "a m.P->m.P kept",
                "a.x int->long promoted",
                "a.y -->int defaulted",
                // P's fields were listed at `a`.
                "b array<m.P>->array<m.P> kept",
                "c map<m.P>->map<m.P> kept",
            ]
        );
        // A record renamed, even with the same fields: Avro matches records by name. Its
        // fields are compared too.
        assert_eq!(
            ddl_change(
                old,
                "module m { class Q { ustring x; } class R { Q a; vector<Q> b; map<ustring, Q> c; } }"
            ),
            [
                "a m.P->m.Q renamed",
                "a.x int->string mismatch",
                "b array<m.P>->array<m.Q> renamed",
                "c map<m.P>->map<m.Q> renamed",
            ]
        );
        // Another namespace, the same name: the names match (the specification compares
        // names without namespace, as Java's SchemaCompatibility does).
        let moved = resolution(
            r#"{"type": "record", "name": "R", "namespace": "a", "fields": []}"#,
            r#"{"type": "record", "name": "R", "namespace": "b", "fields": []}"#,
        )
        .unwrap();
        assert_eq!(moved, []);
    }

    #[test]
    fn a_field_added_without_a_default_cannot_be_read() {
        // In Far's schema, Leaf's `far` has no default (Far is still being defined there,
        // see `Writer::field`): old data without it does not resolve.
        let old = "module m { class R { vector<Leaf> back; } class Leaf { int id; } }";
        let new = "module m { class R { vector<Leaf> back; } class Leaf { int id; R far; } }";
        assert_eq!(
            ddl_change(old, new),
            [
                "back array<m.Leaf>->array<m.Leaf> kept",
                "back[].id int->int kept",
                "back[].far -->m.R no-default",
            ]
        );
    }

    #[test]
    fn a_renamed_top_record_needs_an_alias() {
        let old = r#"{"type": "record", "name": "Person", "namespace": "m", "fields": [
            {"name": "n", "type": "int"}]}"#;
        let new = r#"{"type": "record", "name": "Customer", "namespace": "m", "fields": [
            {"name": "n", "type": "int"}]}"#;
        let findings = resolution(old, new).unwrap();
        assert_eq!(
            lines(&findings),
            [" m.Person->m.Customer renamed", "n int->int kept"]
        );
        assert_eq!(
            findings[0].to_string(),
            format!(
                "{:<24} {:<32} renamed",
                "(the record)", "m.Person -> m.Customer"
            )
        );
        let aliased = new.replace(
            r#""namespace": "m","#,
            r#""namespace": "m", "aliases": ["Person"],"#,
        );
        assert_eq!(
            lines(&resolution(old, &aliased).unwrap()),
            ["n int->int kept"]
        );
        // A field alias matches a writer's field of that name.
        let field_alias = r#"{"type": "record", "name": "Person", "namespace": "m", "fields": [
            {"name": "number", "aliases": ["n"], "type": "long"}]}"#;
        assert_eq!(
            lines(&resolution(old, field_alias).unwrap()),
            ["n int->long promoted"]
        );
    }

    #[test]
    fn recursive_records_end() {
        let ddl = "module m { class R { vector<R> kids; map<ustring, R> named; int n; } }";
        assert_eq!(
            ddl_change(ddl, &ddl.replace("int n", "long n")),
            [
                "kids array<m.R>->array<m.R> kept",
                "named map<m.R>->map<m.R> kept",
                "n int->long promoted",
            ]
        );
    }

    #[test]
    fn unions_enums_and_fixed() {
        let record =
            |fields: &str| format!(r#"{{"type": "record", "name": "R", "fields": [{fields}]}}"#);
        let check = |old: &str, new: &str| lines(&resolution(&record(old), &record(new)).unwrap());
        // Into a union: its first branch that matches exactly, else one promoted to.
        assert_eq!(
            check(
                r#"{"name": "a", "type": "int"}, {"name": "b", "type": "int"}, {"name": "c", "type": "string"}"#,
                r#"{"name": "a", "type": ["null", "long", "int"]}, {"name": "b", "type": ["null", "double"]},
                   {"name": "c", "type": ["null", "int"]}"#
            ),
            [
                "a int->union[null, long, int] kept",
                "b int->union[null, double] promoted",
                "c string->union[null, int] mismatch",
            ]
        );
        // A record branch matches only when its fields resolve.
        let point = |x: &str| {
            format!(
                r#"{{"type": "record", "name": "P", "fields": [{{"name": "x", "type": "{x}"}}]}}"#
            )
        };
        assert_eq!(
            check(
                &format!(r#"{{"name": "p", "type": {}}}"#, point("int")),
                &format!(r#"{{"name": "p", "type": ["null", {}]}}"#, point("string"))
            ),
            ["p P->union[null, P] mismatch"]
        );
        assert_eq!(
            check(
                &format!(r#"{{"name": "p", "type": {}}}"#, point("int")),
                &format!(r#"{{"name": "p", "type": ["null", {}]}}"#, point("long"))
            ),
            ["p P->union[null, P] kept", "p.x int->long promoted"]
        );
        // From a union: each branch must resolve.
        assert_eq!(
            check(
                r#"{"name": "a", "type": ["null", "int"]}, {"name": "b", "type": ["null", "int"]}"#,
                r#"{"name": "a", "type": ["null", "long"]}, {"name": "b", "type": "int"}"#
            ),
            [
                "a union[null, int]->union[null, long] promoted",
                "b union[null, int]->int mismatch",
            ]
        );
        let e = |symbols: &str, default: &str| {
            format!(
                r#"{{"name": "e", "type": {{"type": "enum", "name": "E", "symbols": [{symbols}]{default}}}}}"#
            )
        };
        assert_eq!(
            check(&e(r#""A""#, ""), &e(r#""B", "A""#, "")),
            ["e E->E kept"]
        );
        assert_eq!(
            check(&e(r#""A", "C""#, ""), &e(r#""A""#, "")),
            ["e E->E mismatch"]
        );
        assert_eq!(
            check(&e(r#""A", "C""#, ""), &e(r#""A""#, r#", "default": "A""#)),
            ["e E->E kept"]
        );
        let f = |name: &str, size: u32| {
            format!(
                r#"{{"name": "f", "type": {{"type": "fixed", "name": "{name}", "size": {size}}}}}"#
            )
        };
        assert_eq!(check(&f("F", 4), &f("F", 4)), ["f F->F kept"]);
        assert_eq!(check(&f("F", 4), &f("F", 8)), ["f F->F mismatch"]);
        assert_eq!(check(&f("F", 4), &f("G", 4)), ["f F->G renamed"]);
        assert_eq!(check(&f("F", 4), &f("G", 8)), ["f F->G mismatch"]);
        assert_eq!(
            check(&f("F", 4), &e(r#""A""#, "").replace("\"e\"", "\"f\"")),
            ["f F->E mismatch"]
        );
    }

    #[test]
    fn records_of_models_resolve_at_any_depth() {
        // A chain of 60 records, one inside the other: deeper than serde_json reads text.
        let chain = |last: &str| {
            let mut ddl = format!("module m {{ class C0 {{ {last} x; }}");
            for i in 1..60 {
                ddl += &format!(" class C{i} {{ C{} c; int n; }}", i - 1);
            }
            ddl + " }"
        };
        let (old, new) = (model(&chain("int")), model(&chain("long")));
        let top = |m: &crate::Model| m.find("m.C59").unwrap();
        let old_text = schema(&old, top(&old));
        let e = resolution(&old_text, &old_text).unwrap_err();
        assert!(e.contains("recursion limit"), "{e}");
        let findings = crate::backend::avro::record_resolution(&old, top(&old), &new, top(&new));
        // c and n at each of 59 levels, and C0's x at the bottom, the one change.
        assert_eq!(findings.len(), 59 * 2 + 1);
        let changed: Vec<_> = findings
            .iter()
            .filter(|f| f.outcome != AvroOutcome::Kept)
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].path, format!("{}x", "c.".repeat(59)));
        assert_eq!(changed[0].outcome, AvroOutcome::Promoted);
    }

    #[test]
    fn schemas_that_are_not_avro_are_errors_naming_the_side() {
        let ok = r#"{"type": "record", "name": "R", "fields": []}"#;
        let e = resolution("{", ok).unwrap_err();
        assert!(
            e.starts_with("the writer's Avro schema: it is not JSON"),
            "{e}"
        );
        let e = resolution(
            ok,
            r#"{"type": "record", "name": "R", "fields": [{"name": "a"}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            e,
            "the reader's Avro schema: at `fields[0]`: the field `a` has no `type`"
        );
    }
}
