//! What a dataset write is, as plain data that travels with a plan (to Ballista's scheduler
//! and executors): the target, the query id, the part files' format and layout. Shared by
//! the plan nodes, the part writers and the commit; it imports none of them.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, ListBuilder, RecordBatch, StringArray, StringBuilder, UInt32Array,
    UInt64Array,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef, UInt32Type, UInt64Type};
use datafusion::common::{exec_datafusion_err, plan_datafusion_err, Result};
use hadoop_record_avro::AvroCodec;
use object_store::path::Path;
use serde::{Deserialize, Serialize};

use hadoop_record_cli::parquet_out::ParquetOptions;

use super::records::RecordsOut;

/// The format of a dataset's part files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartFormat {
    /// Parquet files (strings as plain `Utf8`, which every reader takes), compressed and
    /// grouped as the options say (zstd by default, as `rcc convert` writes them).
    Parquet(ParquetOptions),
    /// CSV with a header row.
    Csv,
    /// One JSON object per line.
    Json,
    /// Hadoop records of a DDL type, in an encoding, back to back or framed.
    Records(Box<RecordsOut>),
    /// Avro Object Container Files, their schema derived from the result's columns
    /// ([`hadoop_record_avro::derived_schema`]), blocks compressed with the codec named
    /// (Avro's names: `null`, `deflate`, `snappy`, `zstandard`, `bzip2`, `xz`).
    Avro {
        /// The blocks' codec.
        codec: String,
    },
}

impl PartFormat {
    /// The part files' extension: `parquet`, `csv`, `json`.
    pub fn extension(&self) -> &'static str {
        match self {
            PartFormat::Parquet(_) => "parquet",
            PartFormat::Csv => "csv",
            PartFormat::Json => "json",
            PartFormat::Records(out) => out.extension(),
            PartFormat::Avro { .. } => "avro",
        }
    }

    /// The same, checked against the result's columns `schema`: records must fit their
    /// type (see [`RecordsOut::checked`]), Avro must hold every column's type; the other
    /// formats take any columns.
    pub fn checked(&self, schema: &SchemaRef) -> datafusion::common::Result<PartFormat> {
        Ok(match self {
            PartFormat::Records(out) => PartFormat::Records(Box::new(out.checked(schema)?)),
            PartFormat::Avro { codec } => {
                codec
                    .parse::<AvroCodec>()
                    .map_err(|e| plan_datafusion_err!("--avro-codec: {e}"))?;
                hadoop_record_avro::derived_schema(schema)
                    .map_err(|e| plan_datafusion_err!("{e}"))?;
                self.clone()
            }
            other => other.clone(),
        })
    }
}

/// One dataset write: where, under which query id, as what.
///
/// ```
/// use hadoop_record_datafusion::write::{DatasetSpec, PartFormat};
/// let spec = DatasetSpec::new("s3://lake/hits/", "q1", PartFormat::Parquet(Default::default()));
/// assert_eq!(spec.part_name(3), "part-00003-q1.parquet");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetSpec {
    /// The dataset's directory as a URL ending in `/` (`file:///…/`, `hdfs://nn:8020/…/`,
    /// `s3://bucket/…/`).
    pub url: String,
    /// The query's id, in every part file's name and in the staging directory's.
    pub query_id: String,
    /// The part files' format.
    pub format: PartFormat,
    /// The columns that lay the dataset out, Hive's way (`col=value/`).
    pub partition_by: Vec<String>,
    /// With `partition_by`, the part files a task keeps open at most: past it, the one
    /// written to least recently is finished, and a later row of its value starts a new
    /// file (`part-NNNNN-<query id>-cK.<ext>`).
    #[serde(default = "default_max_open_files")]
    pub max_open_files: usize,
    /// Whether each part file's statistics ([`FileStats`](super::FileStats)) come back with
    /// it, as a table format records them.
    #[serde(default)]
    pub file_stats: bool,
}

/// The default of [`DatasetSpec::max_open_files`].
pub const DEFAULT_MAX_OPEN_FILES: usize = 64;

fn default_max_open_files() -> usize {
    DEFAULT_MAX_OPEN_FILES
}

impl DatasetSpec {
    /// A write of unpartitioned `format` part files into `url` (a directory URL).
    pub fn new(url: impl Into<String>, query_id: impl Into<String>, format: PartFormat) -> Self {
        DatasetSpec {
            url: url.into(),
            query_id: query_id.into(),
            format,
            partition_by: Vec::new(),
            max_open_files: DEFAULT_MAX_OPEN_FILES,
            file_stats: false,
        }
    }

    /// The same, each part file's statistics collected as it is written.
    #[must_use]
    pub fn with_file_stats(mut self, on: bool) -> Self {
        self.file_stats = on;
        self
    }

    /// The same, keeping at most `n` part files open per task (at least 1).
    #[must_use]
    pub fn with_max_open_files(mut self, n: usize) -> Self {
        self.max_open_files = n.max(1);
        self
    }

    /// The same, laid out by the columns `columns`.
    #[must_use]
    pub fn with_partition_by(mut self, columns: Vec<String>) -> Self {
        self.partition_by = columns;
        self
    }

    /// The name of partition `partition`'s part file: `part-NNNNN-<query id>.<ext>`.
    pub fn part_name(&self, partition: usize) -> String {
        format!(
            "part-{partition:05}-{}.{}",
            self.query_id,
            self.format.extension()
        )
    }

    /// The name of the `count`-th part file partition `partition` writes for one value of
    /// the `partition_by` columns: [`part_name`](Self::part_name), then, each time the
    /// file was finished to keep at most [`max_open_files`](Self::max_open_files) open,
    /// `part-NNNNN-<query id>-cK.<ext>` (K = `count`).
    pub fn rolled_part_name(&self, partition: usize, count: usize) -> String {
        if count == 0 {
            return self.part_name(partition);
        }
        format!(
            "part-{partition:05}-{}-c{count}.{}",
            self.query_id,
            self.format.extension()
        )
    }

    /// Where the job's part files wait for the commit, relative to the dataset:
    /// `_temporary/<query id>`.
    pub fn staging(&self) -> String {
        format!("{STAGING}/{}", self.query_id)
    }
}

/// By its serialized form: what a plan node's `Hash` and `PartialOrd` need, which the DDL
/// and framing options inside do not have.
impl std::hash::Hash for DatasetSpec {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        serde_json::to_string(self).unwrap_or_default().hash(state);
    }
}

impl PartialOrd for DatasetSpec {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        let text = |s: &Self| serde_json::to_string(s).unwrap_or_default();
        Some(text(self).cmp(&text(other)))
    }
}

/// The directory of the jobs' staging areas, hidden from a dataset's readers.
pub const STAGING: &str = "_temporary";

/// Whether a part file's path names a file started again for its value
/// ([`DatasetSpec::rolled_part_name`] with a count: `…-c2.csv`).
pub(crate) fn is_rolled(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    let stem = name.split('.').next().unwrap_or_default();
    stem.rsplit_once("-c")
        .is_some_and(|(_, k)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        && query_of_part(name).is_some()
}

/// The query id in the name of a part file of [`DatasetSpec::part_name`]'s or
/// [`DatasetSpec::rolled_part_name`]'s form (`part-00003-<id>.csv`, `part-00003-<id>-c2.csv`).
pub(crate) fn query_of_part(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("part-")?;
    let (number, rest) = rest.split_once('-')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let end = rest.find(['-', '.']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|id| !id.is_empty())
}

/// `dir/name`, for object paths (either may be empty), taken as they are: a part file's
/// Hive directories keep their own `%XX` escapes (`k=a%2Fb`), which object_store's
/// `Path::join` would escape again.
pub(crate) fn child(dir: &Path, name: &str) -> Path {
    let joined = dir
        .as_ref()
        .split('/')
        .chain(name.split('/'))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/");
    Path::parse(&joined).unwrap_or_else(|_| Path::from(joined))
}

/// Whether a dataset's readers skip an entry of this name (Hadoop, pyarrow, DuckDB and
/// Spark skip names that begin with `_` or `.`).
pub(crate) fn hidden(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

/// The values of a file's `partition_by` columns, by column, as text (`None`: null).
pub(crate) type Values = Vec<(String, Option<String>)>;

/// A part file a partition wrote: one row of what [`WriteExec`](super::WriteExec) answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenFile {
    pub partition: u32,
    /// The task attempt that wrote it (`attempt-<partition>-…`), unique in the job.
    pub attempt: String,
    /// Its path in the dataset: `<dirs>part-…`.
    pub file: String,
    pub rows: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// On a store with pending uploads (S3), the upload that makes it at `file` when the
    /// job commits; otherwise (HDFS, local disks) it waits in the staging directory, at
    /// [`staged`](WrittenFile::staged).
    pub upload: Option<Uploaded>,
    /// The values of the `partition_by` columns of its rows.
    pub values: Values,
    /// Its statistics, as JSON ([`FileStats`](super::FileStats)), when the spec asks.
    pub stats: Option<String>,
}

/// A part file's pending upload: its id and its parts' ids (S3's ETags), in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Uploaded {
    pub id: String,
    pub parts: Vec<String>,
}

impl WrittenFile {
    /// Its path relative to the staging directory: `<attempt>/<dirs>part-…`.
    pub fn staged(&self) -> String {
        format!("{}/{}", self.attempt, self.file)
    }
}

/// What writing a partition answers, one row per file written (a [`WrittenFile`]).
pub(crate) fn written_schema() -> SchemaRef {
    let etag = Arc::new(Field::new("item", DataType::Utf8, false));
    Arc::new(Schema::new(vec![
        Field::new("partition", DataType::UInt32, false),
        Field::new("attempt", DataType::Utf8, false),
        Field::new("file", DataType::Utf8, false),
        Field::new("rows", DataType::UInt64, false),
        Field::new("bytes", DataType::UInt64, false),
        Field::new("upload", DataType::Utf8, true),
        Field::new("parts", DataType::List(etag), true),
        Field::new("values", DataType::Utf8, false),
        Field::new("stats", DataType::Utf8, true),
    ]))
}

/// `files` as one batch of [`written_schema`].
pub(crate) fn written_batch(files: &[WrittenFile]) -> Result<RecordBatch> {
    let mut parts = ListBuilder::new(StringBuilder::new()).with_field(Arc::new(Field::new(
        "item",
        DataType::Utf8,
        false,
    )));
    for file in files {
        match &file.upload {
            Some(upload) => {
                for etag in &upload.parts {
                    parts.values().append_value(etag);
                }
                parts.append(true);
            }
            None => parts.append(false),
        }
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from_iter_values(
            files.iter().map(|f| f.partition),
        )),
        Arc::new(StringArray::from_iter_values(
            files.iter().map(|f| &f.attempt),
        )),
        Arc::new(StringArray::from_iter_values(files.iter().map(|f| &f.file))),
        Arc::new(UInt64Array::from_iter_values(files.iter().map(|f| f.rows))),
        Arc::new(UInt64Array::from_iter_values(files.iter().map(|f| f.bytes))),
        Arc::new(StringArray::from_iter(
            files.iter().map(|f| f.upload.as_ref().map(|u| &u.id)),
        )),
        Arc::new(parts.finish()),
        Arc::new(StringArray::from_iter_values(
            files
                .iter()
                .map(|f| serde_json::to_string(&f.values).unwrap_or_default()),
        )),
        Arc::new(StringArray::from_iter(
            files.iter().map(|f| f.stats.as_deref()),
        )),
    ];
    Ok(RecordBatch::try_new(written_schema(), columns)?)
}

/// The files a write's answer names.
pub(crate) fn written_files(batches: &[RecordBatch]) -> Result<Vec<WrittenFile>> {
    let mut files = Vec::new();
    for batch in batches {
        let bad = || exec_datafusion_err!("a dataset write answered {:?}", batch.schema());
        let [partition, attempt, file, rows, bytes, upload, parts, values, stats] = batch.columns()
        else {
            return Err(bad());
        };
        let partition = partition.as_primitive_opt::<UInt32Type>().ok_or_else(bad)?;
        let attempt = attempt.as_string_opt::<i32>().ok_or_else(bad)?;
        let file = file.as_string_opt::<i32>().ok_or_else(bad)?;
        let rows = rows.as_primitive_opt::<UInt64Type>().ok_or_else(bad)?;
        let bytes = bytes.as_primitive_opt::<UInt64Type>().ok_or_else(bad)?;
        let upload = upload.as_string_opt::<i32>().ok_or_else(bad)?;
        let parts = parts.as_list_opt::<i32>().ok_or_else(bad)?;
        let values = values.as_string_opt::<i32>().ok_or_else(bad)?;
        let stats = stats.as_string_opt::<i32>().ok_or_else(bad)?;
        for i in 0..batch.num_rows() {
            let upload = if upload.is_null(i) {
                None
            } else {
                let etags = parts.value(i);
                let etags = etags.as_string_opt::<i32>().ok_or_else(bad)?;
                Some(Uploaded {
                    id: upload.value(i).to_owned(),
                    parts: etags
                        .iter()
                        .map(|e| e.unwrap_or_default().to_owned())
                        .collect(),
                })
            };
            files.push(WrittenFile {
                partition: partition.value(i),
                attempt: attempt.value(i).to_owned(),
                file: file.value(i).to_owned(),
                rows: rows.value(i),
                bytes: bytes.value(i),
                upload,
                values: serde_json::from_str(values.value(i)).map_err(|_| bad())?,
                stats: (!stats.is_null(i)).then(|| stats.value(i).to_owned()),
            });
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_travel_as_a_batch_and_back() {
        let files = vec![
            WrittenFile {
                partition: 3,
                attempt: "attempt-00003-a".into(),
                file: "k=1/part-00003-q.csv".into(),
                rows: 7,
                bytes: 120,
                upload: None,
                values: vec![("k".into(), Some("1".into()))],
                stats: Some("{\"rows\":7,\"columns\":[]}".into()),
            },
            WrittenFile {
                partition: 0,
                attempt: "attempt-00000-b".into(),
                file: "part-00000-q-c1.csv".into(),
                rows: 1,
                bytes: 12 << 20,
                upload: Some(Uploaded {
                    id: "u1".into(),
                    parts: vec!["\"e1\"".into(), "\"e2\"".into()],
                }),
                values: vec![("k".into(), None)],
                stats: None,
            },
        ];
        let batch = written_batch(&files).unwrap();
        assert_eq!(written_files(&[batch]).unwrap(), files);
        assert_eq!(files[0].staged(), "attempt-00003-a/k=1/part-00003-q.csv");
    }

    #[test]
    fn part_names_carry_their_query() {
        let spec = DatasetSpec::new("file:///d/", "18f3a0c2b", PartFormat::Csv);
        assert_eq!(spec.rolled_part_name(4, 0), "part-00004-18f3a0c2b.csv");
        assert_eq!(spec.rolled_part_name(4, 2), "part-00004-18f3a0c2b-c2.csv");
        for count in [0, 2] {
            let name = spec.rolled_part_name(4, count);
            assert_eq!(query_of_part(&name), Some("18f3a0c2b"));
        }
        assert!(is_rolled("k=1/part-00004-18f3a0c2b-c2.csv"));
        assert!(!is_rolled("k=1/part-00004-18f3a0c2b.csv"));
        assert_eq!(query_of_part("part-00000"), None);
        assert_eq!(query_of_part("part-r-00000"), None);
        assert_eq!(query_of_part("data.csv"), None);
    }
}
