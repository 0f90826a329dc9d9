//! What a table of record files is: the record type (its DDL), the encoding, the framing
//! and how to read it. A plain struct that serializes (serde), so that a scan can travel in
//! a plan to another process with everything it needs; see [`RecordTableOptions`].

use std::path::PathBuf;

use hadoop_record::framing::split::{Framing, ReadSettings};
use hadoop_record::Format;
use serde::{Deserialize, Serialize};

/// A table of record files: which record type, encoded how, framed how.
///
/// ```
/// use hadoop_record::Format;
/// use hadoop_record_datafusion::RecordTableOptions;
/// let options = RecordTableOptions::new("ddl/links.jr", "links.Link")
///     .include_dir("ddl/common")
///     .encoding(Format::Csv)
///     .framing("paddle")
///     .batch_size(4096);
/// assert_eq!(options.framing.name, "paddle");
/// // Plain data: it serializes, e.g. into a distributed plan.
/// let json = serde_json::to_string(&options).unwrap();
/// assert_eq!(serde_json::from_str::<RecordTableOptions>(&json).unwrap(), options);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordTableOptions {
    /// The DDL that declares the record type.
    pub schema: DdlSource,
    /// The record type: `module.Class`, or a class name declared once.
    pub record_type: String,
    /// The records' encoding (default binary).
    #[serde(with = "format_name")]
    pub encoding: Format,
    /// The files' framing (default none: records back to back).
    pub framing: FramingOptions,
    /// Rows per batch; `None`: the session's batch size.
    pub batch_size: Option<usize>,
    /// jute's nullable types (`rcc --nullable`): `ustring`, `buffer` and `vector` columns
    /// are nullable.
    pub nullable: bool,
    /// jute input: the longest string or buffer accepted (ZooKeeper's `jute.maxbuffer`).
    pub jute_max_buffer: Option<i32>,
    /// Local files are mapped into memory rather than read (default): a Paddle scan then
    /// decodes the page cache's bytes in place instead of copying each chunk first. The one
    /// risk a map adds: a file that another process truncates while it is scanned stops the
    /// process (SIGBUS) where reads would report a truncated file. The mapped pages count in
    /// the process's resident size; they are the page cache's, not copies.
    #[serde(default = "yes")]
    pub memory_map: bool,
    /// `ustring` fields are `Utf8View` columns (default), as DataFusion reads Parquet's
    /// strings: grouping, joining and comparing on them runs faster than on `Utf8`; `false`
    /// gives `Utf8` columns, for consumers that do not take views.
    #[serde(default = "yes")]
    pub string_view: bool,
}

fn yes() -> bool {
    true
}

/// Where the DDL comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DdlSource {
    /// Files on disk, read when the table is made.
    Files {
        /// The DDL files (the record type is looked up in them and what they include).
        paths: Vec<PathBuf>,
        /// Directories searched for includes not found next to the including file.
        include_dirs: Vec<PathBuf>,
    },
    /// The DDL text itself, self-contained: what a table made from files carries once
    /// loaded, so that a plan needs no file but the data.
    Text {
        /// Every file read, the roots marked, by the path includes resolve to.
        files: Vec<DdlFile>,
        /// The include directories, as the paths in `files` spell them.
        include_dirs: Vec<PathBuf>,
    },
}

impl DdlSource {
    /// The text of every file of a loaded `model`, by canonical path; `include_dirs` as
    /// they were given to the load.
    pub fn from_model(model: &hadoop_record_compiler::Model, include_dirs: &[PathBuf]) -> Self {
        let files = model
            .files()
            .iter()
            .map(|f| DdlFile {
                path: f.canonical_path().to_path_buf(),
                root: f.is_root(),
                text: f.text().to_owned(),
            })
            .collect();
        let include_dirs = include_dirs
            .iter()
            .map(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()))
            .collect();
        DdlSource::Text {
            files,
            include_dirs,
        }
    }
}

/// One DDL file's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DdlFile {
    /// Its path (canonical when it came from disk).
    pub path: PathBuf,
    /// Whether it was named, rather than included.
    pub root: bool,
    /// Its text.
    pub text: String,
}

/// A framing by the name `rcc` gives it, and how to read it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FramingOptions {
    /// `none` (or empty), `mesos`, `paddle`, `paddle-cpp`, `plasma-text`, `plasma-fixed:N`,
    /// `plasma-var` or `v1`.
    pub name: String,
    /// paddle, paddle-cpp, plasma-var: skip damaged chunks and carry on.
    pub recover: bool,
    /// mesos: also accept whitespace, CR and `+` around lengths.
    pub lenient: bool,
    /// The largest record (paddle: chunk) accepted; `None`: the framing's default.
    pub max_record_size: Option<u64>,
}

impl FramingOptions {
    /// The framing named `name`, with default settings.
    pub fn named(name: impl Into<String>) -> Self {
        FramingOptions {
            name: name.into(),
            ..FramingOptions::default()
        }
    }

    /// The runtime framing these options describe.
    pub fn to_framing(&self) -> hadoop_record::Result<Framing> {
        let name = if self.name.is_empty() {
            "none"
        } else {
            &self.name
        };
        name.parse::<Framing>()?.configure(
            &ReadSettings::default()
                .with_recover(self.recover)
                .with_lenient(self.lenient)
                .with_max_record_size(self.max_record_size),
        )
    }
}

impl RecordTableOptions {
    /// Records of type `record_type` declared in the DDL file `schema` (or a file it
    /// includes), binary, unframed.
    pub fn new(schema: impl Into<PathBuf>, record_type: impl Into<String>) -> Self {
        RecordTableOptions {
            schema: DdlSource::Files {
                paths: vec![schema.into()],
                include_dirs: Vec::new(),
            },
            record_type: record_type.into(),
            encoding: Format::Binary,
            framing: FramingOptions::named("none"),
            batch_size: None,
            nullable: false,
            jute_max_buffer: None,
            memory_map: true,
            string_view: true,
        }
    }

    /// Records of type `record_type` declared in DDL held as text (`source`, root first).
    pub fn with_ddl(source: DdlSource, record_type: impl Into<String>) -> Self {
        RecordTableOptions {
            schema: source,
            ..Self::new("", record_type)
        }
    }

    /// Also looks for included DDL files in `dir`.
    #[must_use]
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        let (DdlSource::Files { include_dirs, .. } | DdlSource::Text { include_dirs, .. }) =
            &mut self.schema;
        include_dirs.push(dir.into());
        self
    }

    /// Sets the encoding.
    #[must_use]
    pub fn encoding(mut self, encoding: Format) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets the framing by name (`paddle`, `v1`, …) with default read settings.
    #[must_use]
    pub fn framing(mut self, name: impl Into<String>) -> Self {
        self.framing = FramingOptions::named(name);
        self
    }

    /// Sets the framing and its read settings.
    #[must_use]
    pub fn framing_options(mut self, framing: FramingOptions) -> Self {
        self.framing = framing;
        self
    }

    /// Sets the rows per batch.
    #[must_use]
    pub fn batch_size(mut self, rows: usize) -> Self {
        self.batch_size = Some(rows);
        self
    }

    /// jute's nullable types map to nullable columns.
    #[must_use]
    pub fn nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }

    /// Whether local files are mapped into memory (the default) or read.
    #[must_use]
    pub fn memory_map(mut self, map: bool) -> Self {
        self.memory_map = map;
        self
    }

    /// Whether `ustring` fields are `Utf8View` columns (the default) or `Utf8`.
    #[must_use]
    pub fn string_view(mut self, views: bool) -> Self {
        self.string_view = views;
        self
    }
}

/// `Format` as its name (`binary`, `csv`, `xml`, `jute`).
mod format_name {
    use hadoop_record::Format;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(format: &Format, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(format.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Format, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
