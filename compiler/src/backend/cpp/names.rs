//! DDL names as C++ names: one namespace per module segment, the DDL spelling wherever C++
//! allows it, and a deterministic change where it does not. The DDL name stays on the wire.
//!
//! The rules, applied in this order (documented in `docs/cpp.md`):
//!
//! 1. A run of two or more underscores (reserved in C++) becomes `_<n>_`: `a__b` → `a_2_b`.
//! 2. A C++ keyword or alternative token (`class`, `and`, `co_await`, …), a macro of the
//!    standard headers (`errno`, `EOF`, `INT32_MAX`, …: `reserved/macros.txt`) and, for a
//!    top-level namespace, `hadoop`, `std` and every name the standard headers declare in the
//!    global namespace (`time`, `log`, `index`, …: `reserved/globals.txt`) get a trailing `_`.
//! 3. A name already taken in its scope gets `_2`, `_3`, … (just `2`, `3`, … after a
//!    trailing `_`). Scopes are filled in a fixed order: namespaces before classes, in model
//!    order; in a class, the generated API (`serialize`, `type`, …) and the class name, then
//!    the accessors (`getF`, `setF`) in field order, then the data members in field order.
//!    The generated API's member names and `HadoopArchive` (the generated code's template
//!    parameter) are taken in every namespace too, since a class cannot be named like one of
//!    its members.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::model::{Model, Primitive, Type};

/// C++ keywords and alternative tokens, C++20's included (so that generated code keeps
/// compiling with a newer standard).
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
];

/// Macros of the C++17 standard headers (g++ 12, glibc 2.36), one per line, sorted.
const MACROS: &str = include_str!("reserved/macros.txt");
/// Names the C++17 standard headers declare in the global namespace, one per line, sorted.
const GLOBALS: &str = include_str!("reserved/globals.txt");

/// Top-level namespaces the generated code and its runtime rely on.
const RUNTIME_NAMESPACES: &[&str] = &["hadoop", "std"];

/// The template parameter of the generated `hadoopSerialize`/`hadoopDeserialize`: no class
/// or member may have this name.
pub(crate) const ARCHIVE_PARAMETER: &str = "HadoopArchive";

/// Members every generated class has, and the class's own name, are taken first.
const CLASS_API: &[&str] = &[
    ARCHIVE_PARAMETER,
    "serialize",
    "deserialize",
    "type",
    "signature",
    "validate",
    "compareTo",
    "hadoopSerialize",
    "hadoopDeserialize",
];

/// The lines of a list, as a set built once.
fn set(
    cell: &'static OnceLock<HashSet<&'static str>>,
    list: &'static str,
) -> &'static HashSet<&'static str> {
    cell.get_or_init(|| list.lines().collect())
}

/// Whether `name` is a macro of the standard headers.
fn is_macro(name: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    set(&SET, MACROS).contains(name)
}

/// Whether `name` cannot be a namespace in the global namespace.
fn is_global(name: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    RUNTIME_NAMESPACES.contains(&name) || set(&SET, GLOBALS).contains(name)
}

/// Rule 1: runs of two or more underscores become `_<n>_`.
fn without_double_underscores(ddl: &str) -> String {
    let mut out = String::with_capacity(ddl.len());
    let mut run = 0;
    let flush = |out: &mut String, run: usize| match run {
        0 => {}
        1 => out.push('_'),
        n => {
            out.push('_');
            out.push_str(&n.to_string());
            out.push('_');
        }
    };
    for c in ddl.chars() {
        if c == '_' {
            run += 1;
        } else {
            flush(&mut out, run);
            run = 0;
            out.push(c);
        }
    }
    flush(&mut out, run);
    out
}

/// Rules 1 and 2 for a name in a namespace or class (`top_level`: a namespace in the global
/// namespace).
pub(crate) fn escape(ddl: &str, top_level: bool) -> String {
    let name = without_double_underscores(ddl);
    if KEYWORDS.contains(&name.as_str()) || is_macro(&name) || (top_level && is_global(&name)) {
        name + "_"
    } else {
        name
    }
}

/// Names taken in one C++ scope; rule 3 for the next.
#[derive(Debug, Default)]
struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// Takes `name`, or the first free `name_2`, `name_3`, … (rule 3).
    fn claim(&mut self, name: String) -> String {
        if self.taken.insert(name.clone()) {
            return name;
        }
        let sep = if name.ends_with('_') { "" } else { "_" };
        (2u32..)
            .map(|n| format!("{name}{sep}{n}"))
            .find(|candidate| !is_macro(candidate) && self.taken.insert(candidate.clone()))
            .expect("an unused suffix")
    }
}

/// The C++ names of one field.
#[derive(Debug, Clone)]
pub(crate) struct FieldNames {
    /// The data member.
    pub member: String,
    /// `getF`.
    pub getter: String,
    /// `setF`, for primitive fields.
    pub setter: Option<String>,
}

/// The C++ names of one record.
#[derive(Debug, Clone)]
pub(crate) struct RecordNames {
    /// The namespace segments (`a`, `b` for module `a.b`).
    pub namespace: Vec<String>,
    pub class: String,
    pub fields: Vec<FieldNames>,
}

impl RecordNames {
    /// `a::b`.
    pub fn namespace_path(&self) -> String {
        self.namespace.join("::")
    }

    /// `::a::b::Class`.
    pub fn qualified(&self) -> String {
        format!("::{}::{}", self.namespace_path(), self.class)
    }
}

/// The C++ names of every record of a model, indexed like [`Model::records`].
pub(crate) fn assign(model: &Model) -> Vec<RecordNames> {
    // Namespaces: one node per distinct DDL path, named in its parent's scope.
    let mut scopes: Vec<Scope> = vec![Scope::default()];
    let mut nodes: HashMap<(usize, String), (usize, String)> = HashMap::new();
    let mut module_paths: Vec<(usize, Vec<String>)> = Vec::new();
    for module in model.modules() {
        let mut node = 0;
        let mut path = Vec::new();
        for segment in module.segments() {
            let key = (node, segment.to_owned());
            let (child, name) = match nodes.get(&key) {
                Some(found) => found.clone(),
                None => {
                    let name = scopes[node].claim(escape(segment, node == 0));
                    let child = scopes.len();
                    // A class cannot be named like one of its members.
                    let mut scope = Scope::default();
                    for api in CLASS_API {
                        scope.claim((*api).to_owned());
                    }
                    scopes.push(scope);
                    nodes.insert(key, (child, name.clone()));
                    (child, name)
                }
            };
            path.push(name);
            node = child;
        }
        module_paths.push((node, path));
    }
    let module_of: HashMap<&str, usize> = model
        .modules()
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name(), i))
        .collect();
    model
        .records()
        .iter()
        .map(|record| {
            let (node, namespace) = &module_paths[module_of[record.module()]];
            let class = scopes[*node].claim(escape(record.name(), false));
            let mut members = Scope::default();
            members.claim(class.clone());
            for api in CLASS_API {
                members.claim((*api).to_owned());
            }
            let accessors: Vec<(String, Option<String>)> = record
                .fields()
                .iter()
                .map(|f| {
                    let cap = capitalised(&without_double_underscores(f.name()));
                    let getter = members.claim(format!("get{cap}"));
                    let setter = is_primitive(f.ty()).then(|| members.claim(format!("set{cap}")));
                    (getter, setter)
                })
                .collect();
            let fields = record
                .fields()
                .iter()
                .zip(accessors)
                .map(|(f, (getter, setter))| FieldNames {
                    member: members.claim(escape(f.name(), false)),
                    getter,
                    setter,
                })
                .collect();
            RecordNames {
                namespace: namespace.clone(),
                class,
                fields,
            }
        })
        .collect()
}

/// Whether a field of this type has a setter (Hadoop's C++ mapping: the primitives other
/// than ustring and buffer).
pub(crate) fn is_primitive(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Primitive(
            Primitive::Byte
                | Primitive::Boolean
                | Primitive::Int
                | Primitive::Long
                | Primitive::Float
                | Primitive::Double
        )
    )
}

/// `url` → `Url`, `URL` → `URL`: the first letter upper-cased, as Hadoop's accessors.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::model;

    #[test]
    fn the_reserved_lists_hold_what_they_should() {
        for m in ["errno", "EOF", "INT32_MAX", "stdin", "assert", "NULL"] {
            assert!(is_macro(m), "{m}");
        }
        for g in [
            "time", "log", "index", "printf", "FILE", "main", "hadoop", "std",
        ] {
            assert!(is_global(g), "{g}");
        }
        for plain in ["links", "Link", "url", "oracle", "x"] {
            assert!(!is_macro(plain) && !is_global(plain), "{plain}");
        }
    }

    #[test]
    fn escapes_are_deterministic() {
        assert_eq!(escape("a__b", false), "a_2_b");
        assert_eq!(escape("x___", false), "x_3_");
        assert_eq!(escape("class", false), "class_");
        assert_eq!(escape("and", false), "and_");
        assert_eq!(escape("errno", false), "errno_");
        assert_eq!(escape("time", false), "time");
        assert_eq!(escape("time", true), "time_");
        assert_eq!(escape("hadoop", true), "hadoop_");
        assert_eq!(escape("hadoop", false), "hadoop");
        assert_eq!(escape("URL", false), "URL");
    }

    #[test]
    fn scopes_resolve_every_collision() {
        let n = assign(&model(
            "module a { class b { int type; int getX; int x; int b; int delete; int delete_; } }
             module a.b { class c { int v; } }
             module struct { class std { ustring s; } }",
        ));
        let b = &n[0];
        assert_eq!(b.namespace, ["a"]);
        // The class gives way to the namespace a::b.
        assert_eq!(b.class, "b_2");
        let members: Vec<&str> = b.fields.iter().map(|f| f.member.as_str()).collect();
        // `type` is an API member, `getX` the getter of `x`, `delete` a keyword.
        assert_eq!(
            members,
            ["type_2", "getX_2", "x", "b", "delete_", "delete_2"]
        );
        let getters: Vec<&str> = b.fields.iter().map(|f| f.getter.as_str()).collect();
        assert_eq!(
            getters,
            [
                "getType",
                "getGetX",
                "getX",
                "getB",
                "getDelete",
                "getDelete_"
            ]
        );
        assert_eq!(n[1].qualified(), "::a::b::c");
        assert_eq!(n[2].qualified(), "::struct_::std");
        assert_eq!(n[2].fields[0].setter, None);
        assert_eq!(n[1].fields[0].setter.as_deref(), Some("setV"));
    }
}
