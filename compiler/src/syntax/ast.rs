//! The syntax tree of one DDL file, with a [`Span`] on every node and every comment of the
//! file ([`File::comments`]), each declaration knowing the comments that belong to it
//! ([`AttachedComments`]). [`Display`] prints it as canonical DDL without comments (what
//! Hadoop's `rcc` accepts: no `};`), so that parse → print → parse gives the same tree;
//! [`crate::format`] (where the `Display` of files, modules and classes is) prints it with
//! its comments.
//!
//! [`Display`]: std::fmt::Display

use std::fmt;
use std::ops::Range;

use crate::source::Span;

/// One DDL file: its includes and modules in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Includes and modules in source order.
    pub items: Vec<Item>,
    /// The byte order mark that starts the file, if any (Hadoop's rcc rejects one).
    pub bom: Option<Span>,
    /// The `//` comment that ends the file without a line break, if it holds more than
    /// the `//` (Hadoop's rcc rejects it).
    pub unterminated_comment: Option<Span>,
    /// Every comment of the file, in source order.
    pub comments: Vec<Comment>,
}

/// Whether a comment is `// …` or `/* … */`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `// …` up to the end of the line (the line break is not part of it).
    Line,
    /// `/* … */`, possibly over several lines.
    Block,
}

/// A comment as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// `//` or `/* */`.
    pub kind: CommentKind,
    /// The comment's text, markers included: `// a note`, `/* a note */`.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

impl Comment {
    /// The text without its markers: `//` (and any further `/`) and one space after them;
    /// `/*` and `*/` (and any further `*`), and on each further line of a block comment the
    /// indentation and a leading `*` with one space after it. Blank first and last lines of
    /// a block comment are dropped, and every line loses its trailing whitespace.
    ///
    /// ```
    /// use hadoop_record_compiler::syntax::parse;
    /// let file = parse("/** A link.\n *  Indented. */\nmodule m { class A { int x; } } // end").unwrap();
    /// assert_eq!(file.comments[0].body(), "A link.\n Indented.");
    /// assert_eq!(file.comments[1].body(), "end");
    /// ```
    pub fn body(&self) -> String {
        match self.kind {
            CommentKind::Line => {
                let text = self.text.trim_start_matches('/');
                text.strip_prefix(' ').unwrap_or(text).trim_end().to_owned()
            }
            CommentKind::Block => {
                let inner = self.text.strip_prefix("/*").unwrap_or(&self.text);
                let inner = inner.strip_suffix("*/").unwrap_or(inner);
                let inner = inner.trim_start_matches('*').trim_end_matches('*');
                let mut lines: Vec<&str> = inner
                    .split('\n')
                    .enumerate()
                    .map(|(i, line)| {
                        let line = if i == 0 {
                            line
                        } else {
                            let rest = line.trim_start();
                            rest.strip_prefix('*').unwrap_or(rest)
                        };
                        line.strip_prefix(' ').unwrap_or(line).trim_end()
                    })
                    .collect();
                while lines.first().is_some_and(|l| l.is_empty()) {
                    lines.remove(0);
                }
                while lines.last().is_some_and(|l| l.is_empty()) {
                    lines.pop();
                }
                lines.join("\n")
            }
        }
    }
}

/// The comments that belong to a declaration, as positions in [`File::comments`]:
///
/// - *leading*: the comments directly before it, the first of them on a line of its own
///   (not after code), with no blank line among them or between them and the declaration;
/// - *trailing*: the comments after it on the same line — after the `;` of a field, the
///   `{` of a class or module, the path of an include.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttachedComments {
    /// Positions of the leading comments in [`File::comments`].
    pub leading: Range<usize>,
    /// Positions of the trailing comments in [`File::comments`].
    pub trailing: Range<usize>,
}

impl AttachedComments {
    /// The leading comments, then the trailing ones, out of `file`'s.
    pub fn iter<'f>(&self, file: &'f File) -> impl Iterator<Item = &'f Comment> {
        let all = &file.comments;
        all[self.leading.clone()]
            .iter()
            .chain(&all[self.trailing.clone()])
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.leading.is_empty() && self.trailing.is_empty()
    }
}

/// A top-level declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `include "path"`
    Include(Include),
    /// `module name { … }`
    Module(Module),
}

/// `include "path"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// The path between the quotes.
    pub path: String,
    /// The quoted path.
    pub path_span: Span,
    /// The whole declaration.
    pub span: Span,
    /// Its comments.
    pub comments: AttachedComments,
}

/// `module a.b { classes }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// The dotted module name.
    pub name: QualifiedName,
    /// The classes in source order.
    pub classes: Vec<Class>,
    /// The whole declaration.
    pub span: Span,
    /// The `;` after the closing `}`, if any (the classic documentation writes one;
    /// Hadoop's rcc rejects it).
    pub semicolon: Option<Span>,
    /// The `{` and the `}`.
    pub braces: Braces,
    /// Its comments.
    pub comments: AttachedComments,
}

/// Where the braces of a module or class are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Braces {
    /// The `{`.
    pub open: Span,
    /// The `}`.
    pub close: Span,
}

/// `class Name { fields }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The class name.
    pub name: Ident,
    /// The fields in source order.
    pub fields: Vec<Field>,
    /// The whole declaration.
    pub span: Span,
    /// The `;` after the closing `}`, if any (as for [`Module::semicolon`]).
    pub semicolon: Option<Span>,
    /// The `{` and the `}`.
    pub braces: Braces,
    /// Its comments.
    pub comments: AttachedComments,
}

/// `type name;`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's type.
    pub ty: TypeExpr,
    /// The field's name.
    pub name: Ident,
    /// The whole declaration, up to and including the `;`.
    pub span: Span,
    /// Its comments.
    pub comments: AttachedComments,
}

/// A name as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name's text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// A dotted name such as `org.apache.hadoop.record` or `links.Link`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualifiedName {
    /// The segments, at least one.
    pub segments: Vec<Ident>,
    /// From the first segment to the last.
    pub span: Span,
}

impl QualifiedName {
    /// Whether the name has more than one segment (and is then taken as fully qualified).
    pub fn is_qualified(&self) -> bool {
        self.segments.len() > 1
    }

    /// The last segment.
    pub fn last(&self) -> &Ident {
        self.segments
            .last()
            .expect("a name has at least one segment")
    }
}

/// A primitive type of the DDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// `byte`
    Byte,
    /// `boolean`
    Boolean,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `ustring`
    UString,
    /// `buffer`
    Buffer,
}

impl Primitive {
    /// All primitives, in the order the DDL documentation lists them.
    pub const ALL: [Primitive; 8] = [
        Primitive::Byte,
        Primitive::Boolean,
        Primitive::Int,
        Primitive::Long,
        Primitive::Float,
        Primitive::Double,
        Primitive::UString,
        Primitive::Buffer,
    ];

    /// The keyword, e.g. `ustring`.
    pub fn keyword(self) -> &'static str {
        match self {
            Primitive::Byte => "byte",
            Primitive::Boolean => "boolean",
            Primitive::Int => "int",
            Primitive::Long => "long",
            Primitive::Float => "float",
            Primitive::Double => "double",
            Primitive::UString => "ustring",
            Primitive::Buffer => "buffer",
        }
    }

    /// The primitive spelled `keyword`, if any.
    pub fn from_keyword(keyword: &str) -> Option<Primitive> {
        Primitive::ALL.into_iter().find(|p| p.keyword() == keyword)
    }
}

/// A type as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeExpr {
    /// `int`, `ustring`, …
    Primitive {
        /// Which one.
        kind: Primitive,
        /// The keyword.
        span: Span,
    },
    /// `vector<T>`
    Vector {
        /// The element type.
        element: Box<TypeExpr>,
        /// From `vector` to `>`.
        span: Span,
    },
    /// `map<K, V>`
    Map {
        /// The key type.
        key: Box<TypeExpr>,
        /// The value type.
        value: Box<TypeExpr>,
        /// From `map` to `>`.
        span: Span,
    },
    /// A record, by simple or qualified name.
    Record(QualifiedName),
}

impl TypeExpr {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Primitive { span, .. }
            | TypeExpr::Vector { span, .. }
            | TypeExpr::Map { span, .. } => *span,
            TypeExpr::Record(name) => name.span,
        }
    }
}

/// The DDL keywords; none of them may name a module, class or field.
pub const KEYWORDS: [&str; 13] = [
    "include", "module", "class", "vector", "map", "byte", "boolean", "int", "long", "float",
    "double", "ustring", "buffer",
];

/// Whether `name` is a DDL keyword.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

// ---------------------------------------------------------------------------------------
// Spans erased, for comparing trees by shape

impl File {
    /// The same tree with every span set to `0..0`, and without what canonical DDL does
    /// not print (byte order mark, unterminated final comment, `;` after `}`, comments),
    /// to compare trees by content only.
    pub fn without_spans(mut self) -> File {
        self.bom = None;
        self.unterminated_comment = None;
        self.comments.clear();
        for item in &mut self.items {
            match item {
                Item::Include(i) => {
                    i.span = Span::default();
                    i.path_span = Span::default();
                    i.comments = AttachedComments::default();
                }
                Item::Module(m) => {
                    m.span = Span::default();
                    m.semicolon = None;
                    m.braces = Braces::default();
                    m.comments = AttachedComments::default();
                    erase_name(&mut m.name);
                    for class in &mut m.classes {
                        class.span = Span::default();
                        class.semicolon = None;
                        class.braces = Braces::default();
                        class.comments = AttachedComments::default();
                        class.name.span = Span::default();
                        for field in &mut class.fields {
                            field.span = Span::default();
                            field.comments = AttachedComments::default();
                            field.name.span = Span::default();
                            erase_type(&mut field.ty);
                        }
                    }
                }
            }
        }
        self
    }
}

fn erase_name(name: &mut QualifiedName) {
    name.span = Span::default();
    for s in &mut name.segments {
        s.span = Span::default();
    }
}

fn erase_type(ty: &mut TypeExpr) {
    match ty {
        TypeExpr::Primitive { span, .. } => *span = Span::default(),
        TypeExpr::Vector { element, span } => {
            *span = Span::default();
            erase_type(element);
        }
        TypeExpr::Map { key, value, span } => {
            *span = Span::default();
            erase_type(key);
            erase_type(value);
        }
        TypeExpr::Record(name) => erase_name(name),
    }
}

// ---------------------------------------------------------------------------------------
// Canonical DDL

impl fmt::Display for Include {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "include \"{}\"", self.path)
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {};", self.ty, self.name)
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Display for QualifiedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(&segment.text)?;
        }
        Ok(())
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

impl fmt::Display for TypeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeExpr::Primitive { kind, .. } => write!(f, "{kind}"),
            TypeExpr::Vector { element, .. } => write!(f, "vector<{element}>"),
            TypeExpr::Map { key, value, .. } => write!(f, "map<{key}, {value}>"),
            TypeExpr::Record(name) => write!(f, "{name}"),
        }
    }
}
