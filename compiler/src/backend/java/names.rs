//! Java names for DDL names: Hadoop's rcc's names wherever they compile, and a documented,
//! deterministic fallback where they would not (`docs/naming.md`). DDL names stay what goes
//! on the wire; only the Java identifiers change.
//!
//! - A package segment, class or field that is a Java keyword or literal (`package`, `true`,
//!   `new`) gets a `_` appended, and so does a class named `var`, `yield`, `record`, `sealed`
//!   or `permits` (which can name packages and fields, but no type). A module whose first
//!   segment is a JDK package root (`java`, `javax`, `jdk`, `sun`) gets it on that segment
//!   (javac refuses packages the JDK owns).
//! - A class named `Comparator` (which would clash with its own nested raw comparator) or
//!   named like the first segment of a package the generated code names in an expression
//!   (`org`, `java`, and the first segment of every module) gets a `_`: such a name would
//!   hide the package. So does a field named like one of those segments. (DDL names cannot
//!   start with `_`, so they never meet the generated code's `_rio_` locals.)
//! - Accessors are Hadoop's: `get`/`set` and the field name with its first letter upper-cased.
//!   When that collides with another field's accessor (`b` and `B` both give `getB`), with
//!   `Object.getClass` or with the static `getTypeInfo`/`setTypeFilter`, the later field's
//!   accessors are `get_`/`set_` and the DDL name, then a `_2`, `_3`… suffix if needed.
//! - A class named like a package (record `link` of module `names` beside a module
//!   `names.link`, which javac refuses as a clash) gets a `_`.
//! - The generated code names `java.lang` types by their full names (`@java.lang.Override`),
//!   so records named `String`, `Override` or `Object` keep their names.
//! - When escaping makes two names equal, more `_` are appended until they differ.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::model::{Model, Record};

/// Java's keywords, its literals and `_`: they name nothing.
const RESERVED: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
    "_",
];

/// Contextual keywords that cannot name a type (they can name packages, fields and methods,
/// so `module org.apache.hadoop.record` stays Hadoop's package).
const RESTRICTED_TYPE_NAMES: &[&str] = &["var", "yield", "record", "sealed", "permits"];

/// First package segments the JDK's modules own.
const JDK_ROOTS: &[&str] = &["java", "javax", "jdk", "sun"];

/// Whether `name` cannot be a Java identifier as it is.
pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// `name`, with `_` appended while it is reserved or in `taken`.
fn escape(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut out = name.to_string();
    while is_reserved(&out) || taken(&out) {
        out.push('_');
    }
    out
}

/// The Java names of one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordNames {
    /// The package, `a.b` (escaped segments).
    pub package: String,
    /// The simple class name.
    pub class: String,
    /// One per field, in declaration order.
    pub fields: Vec<FieldNames>,
}

impl RecordNames {
    /// `package.Class`
    pub fn qualified(&self) -> String {
        qualify(&self.package, &self.class)
    }
}

/// The Java names of one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldNames {
    pub member: String,
    pub getter: String,
    pub setter: String,
}

/// Hadoop's rcc's `toCamelCase`: the first letter upper-cased when it is lower case.
pub(crate) fn hadoop_capitalized(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => name.to_string(),
    }
}

/// The Java package of a DDL module.
pub(crate) fn package(module: &str) -> String {
    module
        .split('.')
        .enumerate()
        .map(|(i, segment)| {
            if i == 0 && JDK_ROOTS.contains(&segment) {
                format!("{segment}_")
            } else {
                escape(segment, &|_| false)
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The Java names of every record of `model`, in [`Model::records`] order.
pub(crate) fn assign(model: &Model) -> Vec<RecordNames> {
    let packages: Vec<String> = model
        .records()
        .iter()
        .map(|r| package(r.module()))
        .collect();
    // The first package segments each class names in expressions (static calls on other
    // records, Hadoop's API under `org`, `java.lang`): a field named like one would hide it.
    let roots: Vec<BTreeSet<String>> = model
        .records()
        .iter()
        .map(|record| {
            let mut roots: BTreeSet<String> = ["org", "java"].map(String::from).into();
            for field in record.fields() {
                field.ty().for_each_record(&mut |r| {
                    roots.insert(
                        packages[r.index()]
                            .split('.')
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                    );
                });
            }
            roots
        })
        .collect();
    // So would a class of the same package named like one.
    let mut package_roots: HashMap<&str, BTreeSet<String>> = HashMap::new();
    for (package, roots) in packages.iter().zip(&roots) {
        package_roots
            .entry(package)
            .or_default()
            .extend(roots.iter().cloned());
    }
    // Every package, and every package above one: a class may not share a package's name.
    let all_packages: HashSet<&str> = packages
        .iter()
        .flat_map(|p| {
            p.match_indices('.')
                .map(|(i, _)| &p[..i])
                .chain([p.as_str()])
        })
        .collect();
    let mut classes: HashMap<&str, HashSet<String>> = HashMap::new();
    model
        .records()
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let package = &packages[i];
            let hidden = &package_roots[package.as_str()];
            let used = classes.entry(package).or_default();
            let class = escape(record.name(), &|n| {
                n == "Comparator"
                    || RESTRICTED_TYPE_NAMES.contains(&n)
                    || hidden.contains(n)
                    || used.contains(n)
                    || all_packages.contains(qualify(package, n).as_str())
            });
            used.insert(class.clone());
            RecordNames {
                package: package.clone(),
                class,
                fields: field_names(record, &roots[i]),
            }
        })
        .collect()
}

/// `name` in `package` (the default package when empty).
fn qualify(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_owned()
    } else {
        format!("{package}.{name}")
    }
}

fn field_names(record: &Record, roots: &BTreeSet<String>) -> Vec<FieldNames> {
    let mut members: HashSet<String> = HashSet::new();
    // `getClass` is Object's (final); `getTypeInfo`/`setTypeFilter` the class's statics.
    let mut accessors: HashSet<String> = ["getClass", "getTypeInfo", "setTypeFilter"]
        .map(String::from)
        .into();
    record
        .fields()
        .iter()
        .map(|field| {
            let member = escape(field.name(), &|n| roots.contains(n) || members.contains(n));
            members.insert(member.clone());
            let capitalized = hadoop_capitalized(field.name());
            let (mut getter, mut setter) =
                (format!("get{capitalized}"), format!("set{capitalized}"));
            let mut n = 1;
            while accessors.contains(&getter) || accessors.contains(&setter) {
                let base = field.name();
                let suffix = if n == 1 {
                    String::new()
                } else {
                    format!("_{n}")
                };
                (getter, setter) = (format!("get_{base}{suffix}"), format!("set_{base}{suffix}"));
                n += 1;
            }
            accessors.insert(getter.clone());
            accessors.insert(setter.clone());
            FieldNames {
                member,
                getter,
                setter,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::model;

    fn names(ddl: &str) -> Vec<RecordNames> {
        assign(&model(ddl))
    }

    #[test]
    fn a_class_named_like_a_package_gets_a_suffix() {
        let n = names(
            "module names { class link { int x; } class Override { int y; } class String { int z; } } \
             module names.link.deeper { class X { int y; } } \
             module other { class names { int x; } }",
        );
        let classes: Vec<String> = n.iter().map(RecordNames::qualified).collect();
        assert_eq!(
            classes,
            [
                "names.link_",
                "names.Override",
                "names.String",
                "names.link.deeper.X",
                "other.names"
            ]
        );
    }

    #[test]
    fn hadoops_names_where_they_compile() {
        let n = names("module a.b { class Link { ustring URL; boolean isRelative; int x_y; } }");
        assert_eq!(n[0].qualified(), "a.b.Link");
        let f: Vec<(&str, &str, &str)> = n[0]
            .fields
            .iter()
            .map(|f| (f.member.as_str(), f.getter.as_str(), f.setter.as_str()))
            .collect();
        assert_eq!(
            f,
            [
                ("URL", "getURL", "setURL"),
                ("isRelative", "getIsRelative", "setIsRelative"),
                ("x_y", "getX_y", "setX_y")
            ]
        );
    }

    #[test]
    fn fallbacks_are_deterministic() {
        let n = names(
            "module java.package { class Comparator { int b; buffer B; int new; int new_; \
             int typeInfo; int java; int links; int getClass; int Class; } class org { int x; } \
             class links { int y; } } module links { class L { int z; } }",
        );
        assert_eq!(n[0].package, "java_.package_");
        assert_eq!(n[0].class, "Comparator_");
        assert_eq!(n[1].class, "org_");
        // A field of `Comparator` names `links.L`? No: `links` is only hidden where referenced.
        assert_eq!(n[2].class, "links");
        let f: Vec<(&str, &str)> = n[0]
            .fields
            .iter()
            .map(|f| (f.member.as_str(), f.getter.as_str()))
            .collect();
        assert_eq!(
            f,
            [
                ("b", "getB"),
                ("B", "get_B"),
                ("new_", "getNew"),
                ("new__", "getNew_"),
                ("typeInfo", "get_typeInfo"),
                ("java_", "getJava"),
                ("links", "getLinks"),
                ("getClass", "getGetClass"),
                ("Class", "get_Class"),
            ]
        );
    }

    #[test]
    fn names_that_would_hide_a_referenced_package_are_escaped() {
        let n = names(
            "module links { class L { int z; } } \
             module app { class links { int y; } class Page { links.L first; int links; } }",
        );
        assert_eq!(n[1].class, "links_");
        assert_eq!(n[2].fields[1].member, "links_");
        assert_eq!(n[2].fields[1].getter, "getLinks");
    }
}
