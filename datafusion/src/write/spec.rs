//! What a dataset write is, as plain data that travels with a plan (to Ballista's scheduler
//! and executors): the target, the query id, the part files' format and layout. Shared by
//! the plan nodes, the part writers and the commit; it imports none of them.

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
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
}

impl PartFormat {
    /// The part files' extension: `parquet`, `csv`, `json`.
    pub fn extension(&self) -> &'static str {
        match self {
            PartFormat::Parquet(_) => "parquet",
            PartFormat::Csv => "csv",
            PartFormat::Json => "json",
            PartFormat::Records(out) => out.extension(),
        }
    }

    /// The same, checked against the result's columns `schema`: records must fit their
    /// type (see [`RecordsOut::checked`]); the other formats take any columns.
    pub fn checked(&self, schema: &SchemaRef) -> datafusion::common::Result<PartFormat> {
        Ok(match self {
            PartFormat::Records(out) => PartFormat::Records(Box::new(out.checked(schema)?)),
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
}

impl DatasetSpec {
    /// A write of unpartitioned `format` part files into `url` (a directory URL).
    pub fn new(url: impl Into<String>, query_id: impl Into<String>, format: PartFormat) -> Self {
        DatasetSpec {
            url: url.into(),
            query_id: query_id.into(),
            format,
            partition_by: Vec::new(),
        }
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

/// What writing a partition answers, one row per file written: the partition, the file
/// relative to the staging directory (`<attempt>/<dirs>part-…`), its path in the dataset
/// (`<dirs>part-…`) and its rows.
pub(crate) fn written_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("partition", DataType::UInt32, false),
        Field::new("staged", DataType::Utf8, false),
        Field::new("file", DataType::Utf8, false),
        Field::new("rows", DataType::UInt64, false),
    ]))
}
