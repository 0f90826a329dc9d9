//! The checked model: what every back end, the derive's tests and the schema-driven codec
//! start from. Modules hold records, records hold fields with resolved types; every
//! record and field keeps its DDL spelling, source [`Location`] and [`Comment`]s.
//!
//! ```
//! use hadoop_record_compiler::{load_with, LoadOptions, MemoryFileSystem, Primitive, Type};
//!
//! let mut fs = MemoryFileSystem::new();
//! fs.insert("links.jr", "module links { class Link { ustring URL; vector<Link> more; } }");
//! let model = load_with(&fs, &["links.jr"], &LoadOptions::default()).unwrap();
//! let link = model.get("links.Link").unwrap();
//! assert_eq!(link.fields()[0].ty(), &Type::Primitive(Primitive::UString));
//! assert_eq!(model.type_to_string(link.fields()[1].ty()), "vector<links.Link>");
//! assert_eq!(link.location().to_string(), "links.jr:1:22");
//! ```

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use hadoop_record::schema::{FieldDef, FieldType, RecordId, Schema};
use hadoop_record::Signature;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{FileId, Location, SourceFile};
use crate::syntax::ast;
pub use crate::syntax::ast::{CommentKind, Primitive};

/// A record's position in [`Model::records`]. [`Model::to_schema`] gives records the same
/// positions in the runtime [`Schema`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordIndex(u32);

impl RecordIndex {
    pub(crate) fn new(index: usize) -> Self {
        RecordIndex(u32::try_from(index).expect("fewer than 2^32 records"))
    }

    /// Position in [`Model::records`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A resolved field type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `byte`, `boolean`, `int`, `long`, `float`, `double`, `ustring` or `buffer`.
    Primitive(Primitive),
    /// `vector<T>`
    Vector(Box<Type>),
    /// `map<K, V>`
    Map(Box<Type>, Box<Type>),
    /// A record of the same model.
    Record(RecordIndex),
}

impl Type {
    /// Calls `f` with every record this type refers to, at any depth (vector elements, map
    /// keys and values), in order.
    pub fn for_each_record(&self, f: &mut impl FnMut(RecordIndex)) {
        match self {
            Type::Primitive(_) => {}
            Type::Vector(t) => t.for_each_record(f),
            Type::Map(k, v) => {
                k.for_each_record(f);
                v.for_each_record(f);
            }
            Type::Record(r) => f(*r),
        }
    }
}

/// A comment that belongs to a module, record or field: one directly before it (*leading*),
/// or after it on the same line (*trailing*); see [`ast::AttachedComments`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    syntax: ast::Comment,
    location: Location,
    trailing: bool,
}

impl Comment {
    /// The comments `attached` of `all` (a file's comments), leading ones first.
    pub(crate) fn attached(
        source: &SourceFile,
        all: &[ast::Comment],
        attached: &ast::AttachedComments,
    ) -> Vec<Comment> {
        let comment = |trailing| {
            move |c: &ast::Comment| Comment {
                syntax: c.clone(),
                location: source.location(c.span),
                trailing,
            }
        };
        all[attached.leading.clone()]
            .iter()
            .map(comment(false))
            .chain(all[attached.trailing.clone()].iter().map(comment(true)))
            .collect()
    }

    /// `//` or `/* */`.
    pub fn kind(&self) -> CommentKind {
        self.syntax.kind
    }

    /// The text as written, markers included.
    pub fn text(&self) -> &str {
        &self.syntax.text
    }

    /// The text without its markers ([`ast::Comment::body`]).
    pub fn body(&self) -> String {
        self.syntax.body()
    }

    /// Where it is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Whether it follows the declaration on the same line rather than coming before it.
    pub fn is_trailing(&self) -> bool {
        self.trailing
    }
}

/// The bodies of `comments`, one per line: the text a documentation comment shows.
fn doc(comments: &[Comment]) -> String {
    comments
        .iter()
        .map(Comment::body)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A field of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) location: Location,
    pub(crate) type_location: Location,
    pub(crate) comments: Vec<Comment>,
}

impl Field {
    /// The name as spelled in the DDL.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The resolved type.
    pub fn ty(&self) -> &Type {
        &self.ty
    }

    /// Where the field's name is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Where the field's type is written.
    pub fn type_location(&self) -> &Location {
        &self.type_location
    }

    /// Its comments, leading ones first.
    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    /// Its comments' bodies, one per line (empty without comments).
    pub fn doc(&self) -> String {
        doc(&self.comments)
    }
}

/// A record type (a DDL `class`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub(crate) name: String,
    pub(crate) module: String,
    pub(crate) qualified_name: String,
    pub(crate) fields: Vec<Field>,
    pub(crate) location: Location,
    pub(crate) in_root_file: bool,
    pub(crate) comments: Vec<Comment>,
}

impl Record {
    /// The class name as spelled in the DDL, e.g. `Link`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The dotted module name, e.g. `org.apache.hadoop.record`.
    pub fn module(&self) -> &str {
        &self.module
    }

    /// `module.Name`.
    pub fn qualified_name(&self) -> &str {
        &self.qualified_name
    }

    /// Fields in declaration order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// Where the class name is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The file that declares the record.
    pub fn file(&self) -> FileId {
        self.location.file
    }

    /// Whether the declaring file was named by the caller rather than only included.
    /// Hadoop's `rcc` generates code for these records only.
    pub fn in_root_file(&self) -> bool {
        self.in_root_file
    }

    /// The comments of its `class` declaration, leading ones first.
    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    /// Its comments' bodies, one per line (empty without comments).
    pub fn doc(&self) -> String {
        doc(&self.comments)
    }
}

/// A module: its records from every file that declares it, in load order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub(crate) name: String,
    pub(crate) records: Vec<RecordIndex>,
    pub(crate) location: Location,
    pub(crate) comments: Vec<Comment>,
}

impl Module {
    /// The dotted name as spelled in the DDL.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name's segments: `a.b.c` gives `a`, `b`, `c`.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.name.split('.')
    }

    /// Its records, in declaration order.
    pub fn records(&self) -> &[RecordIndex] {
        &self.records
    }

    /// Where the module's name is first declared.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The comments of every `module` block that declares it, in load order.
    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    /// Its comments' bodies, one per line (empty without comments).
    pub fn doc(&self) -> String {
        doc(&self.comments)
    }
}

/// A checked set of DDL files. Build one with [`crate::load`].
///
/// Records come in include order — those of an included file before those of the file
/// that includes it — then in declaration order; modules come in the order of their first
/// record. [`Model::files`] lists files in the order they were first reached.
#[derive(Debug, Clone)]
pub struct Model {
    pub(crate) files: Vec<SourceFile>,
    pub(crate) modules: Vec<Module>,
    pub(crate) records: Vec<Record>,
    pub(crate) by_name: HashMap<String, RecordIndex>,
    /// What Hadoop's own rcc would reject (see [`Model::warnings`]).
    pub(crate) warnings: Vec<Diagnostic>,
}

impl Model {
    /// Warnings about constructs Hadoop's own `rcc` rejects (`};`, records named before
    /// their declaration, a simple name for another module's record, ...), rendered as
    /// `rcc check` prints them. Empty when the DDL is portable to Hadoop; with
    /// [`crate::LoadOptions::hadoop_compat`] they are errors instead and the load fails.
    pub fn warnings(&self) -> Diagnostics {
        Diagnostics::new(self.files.clone(), self.warnings.clone())
    }

    /// Every file read, root and included.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The file `id`.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    /// Paths of every file read, e.g. for a build script's `cargo:rerun-if-changed`.
    pub fn files_read(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(SourceFile::path)
    }

    /// All modules.
    pub fn modules(&self) -> &[Module] {
        &self.modules
    }

    /// The module named `name` (dotted).
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// All records.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The record at `index`.
    pub fn record(&self, index: RecordIndex) -> &Record {
        &self.records[index.index()]
    }

    /// The index of the record named `module.Name`.
    pub fn find(&self, qualified_name: &str) -> Option<RecordIndex> {
        self.by_name.get(qualified_name).copied()
    }

    /// The record named `module.Name`.
    pub fn get(&self, qualified_name: &str) -> Option<&Record> {
        self.find(qualified_name).map(|i| self.record(i))
    }

    /// `ty` as canonical DDL, records fully qualified: `map<ustring, links.Link>`.
    pub fn type_to_string(&self, ty: &Type) -> String {
        TypeDisplay { model: self, ty }.to_string()
    }

    /// The runtime [`Schema`] of every record, with ids in [`Model::records`] order.
    pub fn to_schema(&self) -> ModelSchema {
        let mut schema = Schema::new();
        let ids: Vec<RecordId> = self
            .records
            .iter()
            .map(|r| schema.declare(r.module.clone(), r.name.clone()))
            .collect();
        for (record, &id) in self.records.iter().zip(&ids) {
            let fields = record
                .fields
                .iter()
                .map(|f| FieldDef::new(f.name.clone(), field_type(&f.ty, &ids)))
                .collect();
            // Every record was declared above: the ids are all the schema's.
            schema
                .define(id, fields)
                .expect("the fields refer to declared records");
        }
        let by_name = self
            .by_name
            .iter()
            .map(|(name, index)| (name.clone(), ids[index.index()]))
            .collect();
        ModelSchema {
            schema,
            ids,
            by_name,
        }
    }
}

fn field_type(ty: &Type, ids: &[RecordId]) -> FieldType {
    match ty {
        Type::Primitive(p) => match p {
            Primitive::Byte => FieldType::Byte,
            Primitive::Boolean => FieldType::Bool,
            Primitive::Int => FieldType::Int,
            Primitive::Long => FieldType::Long,
            Primitive::Float => FieldType::Float,
            Primitive::Double => FieldType::Double,
            Primitive::UString => FieldType::String,
            Primitive::Buffer => FieldType::Buffer,
        },
        Type::Vector(t) => FieldType::Vector(Box::new(field_type(t, ids))),
        Type::Map(k, v) => {
            FieldType::Map(Box::new(field_type(k, ids)), Box::new(field_type(v, ids)))
        }
        Type::Record(r) => FieldType::Record(ids[r.index()]),
    }
}

/// A [`Model`] as a runtime [`Schema`], with the way back from model records and names to
/// schema ids.
#[derive(Debug, Clone)]
pub struct ModelSchema {
    schema: Schema,
    ids: Vec<RecordId>,
    by_name: HashMap<String, RecordId>,
}

impl ModelSchema {
    /// The schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The schema, owned.
    pub fn into_schema(self) -> Schema {
        self.schema
    }

    /// The schema id of the model's record `index`.
    pub fn id(&self, index: RecordIndex) -> RecordId {
        self.ids[index.index()]
    }

    /// The schema id of the record named `module.Name`.
    pub fn find(&self, qualified_name: &str) -> Option<RecordId> {
        self.by_name.get(qualified_name).copied()
    }

    /// Hadoop's type signature of the record named `module.Name`.
    pub fn signature(&self, qualified_name: &str) -> Option<Signature> {
        self.find(qualified_name)
            .and_then(|id| self.schema.signature(id).ok())
    }
}

struct TypeDisplay<'a> {
    model: &'a Model,
    ty: &'a Type,
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nested = |ty| TypeDisplay {
            model: self.model,
            ty,
        };
        match self.ty {
            Type::Primitive(p) => f.write_str(p.keyword()),
            Type::Vector(t) => write!(f, "vector<{}>", nested(t)),
            Type::Map(k, v) => write!(f, "map<{}, {}>", nested(k), nested(v)),
            Type::Record(r) => f.write_str(self.model.record(*r).qualified_name()),
        }
    }
}
