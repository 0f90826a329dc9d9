//! What a table of record files is: the record type (its DDL), the encoding, the framing
//! and how to read it. A plain struct that serializes (serde), so that a scan can travel in
//! a plan to another process with everything it needs; see [`RecordTableOptions`].

use std::path::PathBuf;

use hadoop_record::framing::detect::{contradiction, detect};
use hadoop_record::framing::split::{Framing, ReadSettings};
use hadoop_record::{ErrorKind, Format};
use serde::{Deserialize, Serialize};

/// A table of record files: which record type, encoded how, framed how.
///
/// ```
/// use hadoop_record::Format;
/// use hadoop_record_datafusion::RecordTableOptions;
/// let options = RecordTableOptions::new("ddl/links.jr", "links.Link")
///     .with_include_dir("ddl/common")
///     .with_encoding(Format::Csv)
///     .with_framing("paddle")
///     .with_batch_size(Some(4096));
/// assert_eq!(options.framing().name(), "paddle");
/// // Plain data: it serializes, e.g. into a distributed plan.
/// let json = serde_json::to_string(&options).unwrap();
/// assert_eq!(serde_json::from_str::<RecordTableOptions>(&json).unwrap(), options);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordTableOptions {
    /// The DDL that declares the record type.
    schema: DdlSource,
    /// The record type: `module.Class`, or a class name declared once.
    record_type: String,
    /// The records' encoding (default binary).
    #[serde(with = "format_name")]
    encoding: Format,
    /// The files' framing (default none: records back to back; `auto` finds it).
    framing: FramingOptions,
    /// Rows per batch; `None`: the session's batch size.
    batch_size: Option<usize>,
    /// jute's nullable types (`rcc --nullable`): `ustring`, `buffer` and `vector` columns
    /// are nullable.
    nullable: bool,
    /// jute input: the longest string or buffer accepted (ZooKeeper's `jute.maxbuffer`).
    jute_max_buffer: Option<i32>,
    /// Local files are mapped into memory rather than read (default): a Paddle scan then
    /// decodes the page cache's bytes in place instead of copying each chunk first. The one
    /// risk a map adds: a file that another process truncates while it is scanned stops the
    /// process (SIGBUS) where reads would report a truncated file. The mapped pages count in
    /// the process's resident size; they are the page cache's, not copies.
    #[serde(default = "yes")]
    memory_map: bool,
    /// `ustring` fields are `Utf8View` columns (default), as DataFusion reads Parquet's
    /// strings: grouping, joining and comparing on them runs faster than on `Utf8`; `false`
    /// gives `Utf8` columns, for consumers that do not take views.
    #[serde(default = "yes")]
    string_view: bool,
    /// The files are Avro container files (any Avro writer's) read as the record type by
    /// Avro's schema resolution, not records in the encoding; no framing.
    #[serde(default)]
    avro: bool,
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

hadoop_record::__options! {
    /// A framing by the name `rcc` gives it, and how to read it.
    ///
    /// `auto` (or empty, the default) is found from the first bytes of a table's first
    /// file (the first that is not empty, in name order) when the table's format is made
    /// ([`table_format`](crate::table_format), which
    /// [`register_records`](crate::SessionContextExt::register_records) calls): SequenceFiles,
    /// Paddle files of either layout, plasma-var and RecordIO v1 files are recognised,
    /// anything else is records back to back (`none`). Every file of the table is then
    /// checked to start as that one does, as every file is checked against a framing named.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    pub struct FramingOptions {
        /// `auto` (or empty, the default), `none` (records back to back, whatever they
        /// start with), `mesos`, `paddle`, `paddle-cpp`, `plasma-text`, `plasma-fixed:N`,
        /// `plasma-var`, `v1` or `seqfile`.
        name / with_name: string String = String::new();
        /// paddle, paddle-cpp, plasma-var, seqfile: skip damaged chunks and carry on.
        recover / with_recover: copy bool = false;
        /// mesos: also accept whitespace, CR and `+` around lengths.
        lenient / with_lenient: copy bool = false;
        /// The largest record (paddle: chunk) accepted; `None`: the framing's default.
        max_record_size / with_max_record_size: copy Option<u64> = None;
        /// The file `auto` found the framing in ([`FramingOptions::found`]): the table's
        /// other files are checked to be in the same framing, and a file that is not is an
        /// error naming both.
        @ #[serde(default)]
        found_in / with_found_in: ref Option<String> = None;
    }
}

impl FramingOptions {
    /// The framing named `name`, with default settings.
    pub fn named(name: impl Into<String>) -> Self {
        FramingOptions::default().with_name(name)
    }

    /// Whether the framing is found from the files' first bytes (`auto`, or no name).
    pub fn is_auto(&self) -> bool {
        matches!(self.name.as_str(), "" | "auto")
    }

    /// The runtime framing these options describe; an error for `auto`, which
    /// [`FramingOptions::found`] turns into a framing first.
    pub fn to_framing(&self) -> hadoop_record::Result<Framing> {
        if self.is_auto() {
            return Err(hadoop_record::Error::new(
                ErrorKind::Unsupported,
                "the framing `auto` is found from the files' first bytes when the table is made \
                 (table_format, register_records)",
            ));
        }
        self.name.parse::<Framing>()?.configure(
            &ReadSettings::default()
                .with_recover(self.recover)
                .with_lenient(self.lenient)
                .with_max_record_size(self.max_record_size),
        )
    }

    /// Checks what can be checked before any file is read: a named framing and its
    /// settings; with `auto`, that leniency (Mesos', which `auto` never finds) is not asked
    /// for.
    ///
    /// ```
    /// use hadoop_record_datafusion::FramingOptions;
    /// assert!(FramingOptions::default().with_recover(true).check().is_ok());
    /// let e = FramingOptions::default().with_lenient(true).check().unwrap_err();
    /// assert_eq!(e.to_string(), "leniency applies to mesos input, which is never found from \
    ///     the first bytes: give --in-framing mesos");
    /// assert!(FramingOptions::named("paddle").with_lenient(true).check().is_err());
    /// ```
    pub fn check(&self) -> hadoop_record::Result<()> {
        if !self.is_auto() {
            return self.to_framing().map(drop);
        }
        if self.lenient {
            return Err(hadoop_record::Error::new(
                ErrorKind::Unsupported,
                "leniency applies to mesos input, which is never found from the first bytes: \
                 give --in-framing mesos",
            ));
        }
        Ok(())
    }

    /// `auto` resolved from `first`, the first bytes of `file`: the framing they show
    /// (`none` when they show none), noted as found in `file`. The settings are checked
    /// against it. Options that are not `auto` come back as they are.
    ///
    /// ```
    /// use hadoop_record_datafusion::FramingOptions;
    /// let found = FramingOptions::default().found(b"SEQ\x06\x05a.Key", "a.seq")?;
    /// assert_eq!((found.name(), found.found_in().as_deref()), ("seqfile", Some("a.seq")));
    /// let e = FramingOptions::default().with_recover(true).found(b"1,2\n", "a.csv").unwrap_err();
    /// assert_eq!(e.to_string(), "a.csv starts with none of the framings found from their \
    ///     first bytes (seqfile, paddle, paddle-cpp, plasma-var, v1): recovery applies to \
    ///     paddle, paddle-cpp, plasma-var and seqfile input, not none");
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn found(self, first: &[u8], file: &str) -> hadoop_record::Result<FramingOptions> {
        if !self.is_auto() {
            return Ok(self);
        }
        let found = detect(first);
        let options = self
            .with_name(found.map_or("none", |f| f.name()))
            .with_found_in(Some(file.to_owned()));
        match (options.to_framing(), found) {
            (Ok(_), _) => Ok(options),
            (Err(e), Some(found)) => Err(hadoop_record::Error::new(
                e.kind(),
                format!("{file} is {found}: {}", e.message()),
            )),
            (Err(e), None) => Err(hadoop_record::Error::new(
                e.kind(),
                format!(
                    "{file} starts with none of the framings found from their first bytes \
                     (seqfile, paddle, paddle-cpp, plasma-var, v1): {}",
                    e.message()
                ),
            )),
        }
    }

    /// Checks `first`, the first bytes of a file, against the framing (resolved: not
    /// `auto`): a framing named must not be contradicted by them; one `auto` found in
    /// another file must be the one they show (a table's files share one framing). Empty
    /// files and `none` named are never contradicted. The error says what the file is and
    /// what to do.
    ///
    /// ```
    /// use hadoop_record_datafusion::FramingOptions;
    /// let seq = b"SEQ\x06\x05a.Key";
    /// let e = FramingOptions::named("paddle").check_file(seq).unwrap_err();
    /// assert_eq!(e, "this is a SequenceFile (SEQ, version 6), not paddle: give --in-framing \
    ///     seqfile (or leave --in-framing out)");
    /// let found = FramingOptions::default().found(b"1,2\n", "a.csv")?;
    /// assert!(found.check_file(b"3,4\n").is_ok());
    /// assert_eq!(found.check_file(seq).unwrap_err(), "this is a SequenceFile (SEQ, version \
    ///     6), but the table's framing, found in a.csv, is none (records back to back): the \
    ///     files of a table share one framing (query the others as a table of their own)");
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn check_file(&self, first: &[u8]) -> Result<(), String> {
        if first.is_empty() {
            return Ok(());
        }
        let Some(found_in) = &self.found_in else {
            return match contradiction(&self.name, first) {
                Some(found) => Err(found.mismatch(&self.name, "--in-framing")),
                None => Ok(()),
            };
        };
        let found = detect(first);
        if found.map_or("none", |f| f.name()) == self.name {
            return Ok(());
        }
        let what = match found {
            Some(found) => format!("this is {found}"),
            None => "this starts with none of the framings found from their first bytes".into(),
        };
        let table = match self.name.as_str() {
            "none" => "none (records back to back)",
            name => name,
        };
        Err(format!(
            "{what}, but the table's framing, found in {found_in}, is {table}: the files of a \
             table share one framing (query the others as a table of their own)"
        ))
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
            avro: false,
        }
    }

    /// Records of type `record_type` declared in DDL held as text (`source`, root first).
    pub fn from_ddl(source: DdlSource, record_type: impl Into<String>) -> Self {
        RecordTableOptions {
            schema: source,
            ..Self::new("", record_type)
        }
    }

    /// The DDL that declares the record type.
    pub fn schema(&self) -> &DdlSource {
        &self.schema
    }

    /// The record type: `module.Class`, or a class name declared once.
    pub fn record_type(&self) -> &str {
        &self.record_type
    }

    /// The records' encoding (default binary).
    pub fn encoding(&self) -> Format {
        self.encoding
    }

    /// The files' framing (default none: records back to back).
    pub fn framing(&self) -> &FramingOptions {
        &self.framing
    }

    /// Rows per batch; `None` (the default): the session's batch size.
    pub fn batch_size(&self) -> Option<usize> {
        self.batch_size
    }

    /// Whether jute's nullable types map to nullable columns (default no).
    pub fn nullable(&self) -> bool {
        self.nullable
    }

    /// jute input: the longest string or buffer accepted (ZooKeeper's `jute.maxbuffer`).
    pub fn jute_max_buffer(&self) -> Option<i32> {
        self.jute_max_buffer
    }

    /// Whether local files are mapped into memory (the default) or read.
    pub fn memory_map(&self) -> bool {
        self.memory_map
    }

    /// Whether `ustring` fields are `Utf8View` columns (the default) or `Utf8`.
    pub fn string_view(&self) -> bool {
        self.string_view
    }

    /// Whether the files are Avro container files rather than records (default no).
    pub fn avro(&self) -> bool {
        self.avro
    }

    /// Reads the files as Avro container files (`rcc sql --from avro`): each file's records
    /// resolved to the record type by Avro's rules (fields by name, promotions, defaults), as
    /// `rcc convert --from avro` reads them; a file is read whole by one task.
    #[must_use]
    pub fn with_avro(mut self, avro: bool) -> Self {
        self.avro = avro;
        self
    }

    /// Also looks for included DDL files in `dir`.
    #[must_use]
    pub fn with_include_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        let (DdlSource::Files { include_dirs, .. } | DdlSource::Text { include_dirs, .. }) =
            &mut self.schema;
        include_dirs.push(dir.into());
        self
    }

    /// Sets the DDL (e.g. to the text of the files it named: [`DdlSource::from_model`]).
    #[must_use]
    pub fn with_schema(mut self, schema: DdlSource) -> Self {
        self.schema = schema;
        self
    }

    /// Sets the record type.
    #[must_use]
    pub fn with_record_type(mut self, record_type: impl Into<String>) -> Self {
        self.record_type = record_type.into();
        self
    }

    /// Sets the encoding.
    #[must_use]
    pub fn with_encoding(mut self, encoding: Format) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets the framing by name (`paddle`, `v1`, …) with default read settings.
    #[must_use]
    pub fn with_framing(mut self, name: impl Into<String>) -> Self {
        self.framing = FramingOptions::named(name);
        self
    }

    /// Sets the framing and its read settings.
    #[must_use]
    pub fn with_framing_options(mut self, framing: FramingOptions) -> Self {
        self.framing = framing;
        self
    }

    /// Sets the rows per batch (`None`: the session's).
    #[must_use]
    pub fn with_batch_size(mut self, rows: Option<usize>) -> Self {
        self.batch_size = rows;
        self
    }

    /// jute's nullable types map to nullable columns.
    #[must_use]
    pub fn with_nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }

    /// Sets the longest string or buffer jute input may hold.
    #[must_use]
    pub fn with_jute_max_buffer(mut self, max: Option<i32>) -> Self {
        self.jute_max_buffer = max;
        self
    }

    /// Whether local files are mapped into memory (the default) or read.
    #[must_use]
    pub fn with_memory_map(mut self, map: bool) -> Self {
        self.memory_map = map;
        self
    }

    /// Whether `ustring` fields are `Utf8View` columns (the default) or `Utf8`.
    #[must_use]
    pub fn with_string_view(mut self, views: bool) -> Self {
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
