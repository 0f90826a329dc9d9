//! Query results written as datasets where the data lives — a local directory, HDFS or
//! S3 — one part file per partition, by whoever runs the partition (a local thread, or a
//! Ballista cluster's executor), committed as Hadoop's `FileOutputCommitter` commits a
//! job's output (a dataset appears whole, with `_SUCCESS`, or not at all).
//!
//! The data flows one way through its modules: `spec` (what a write is; shared) → `encode`
//! and `records` (batches as file bytes) → `upload` and `part` (a partition's part files,
//! uploaded as they are written) → `exec` / `node` (the plan nodes that run it, locally or
//! on a cluster) → `tree` (the target's directory in its store), `lease` (a job's claim on
//! it) and `swap` (the commit's moves and journal) → `commit` (the job: check the target,
//! commit one attempt per partition, or clean up).
//!
//! ```
//! use datafusion::execution::SessionStateBuilder;
//! use datafusion::prelude::SessionContext;
//! use hadoop_record_datafusion::write::{
//!     dataset_url, new_query_id, with_dataset_writes, write_dataset, DatasetSpec, JobOptions,
//!     PartFormat,
//! };
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let target = dir.path().join("out/");
//! let state = with_dataset_writes(SessionStateBuilder::new().with_default_features()).build();
//! let ctx = SessionContext::new_with_state(state);
//! let frame = ctx.sql("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(n, s)").await?;
//! let spec = DatasetSpec::new(dataset_url(target.to_str().unwrap())?, new_query_id(), PartFormat::Parquet(Default::default()));
//! let rows = write_dataset(frame, spec, JobOptions::default()).await?;
//! assert_eq!(rows, 2);
//! assert!(target.join("_SUCCESS").exists());
//! # Ok(())
//! # }
//! ```

mod commit;
mod encode;
mod exec;
mod lease;
mod node;
mod part;
mod records;
mod spec;
mod stats;
mod swap;
mod tree;
mod upload;

use std::sync::Arc;

use datafusion::common::{exec_datafusion_err, plan_err, DataFusionError, Result};
use datafusion::dataframe::DataFrame;
use datafusion::logical_expr::{Extension, LogicalPlan};
use hadoop_record_cli::record_sink::SharedBytes;
use hadoop_record_storage::StorageOptions;

pub use encode::BatchWriter;
pub use exec::WriteExec;
pub use node::{with_dataset_writes, WriteNode, WritePlanner};
pub use part::log_parts;
pub use records::RecordsOut;
pub use spec::{DatasetSpec, PartFormat, DEFAULT_MAX_OPEN_FILES, STAGING};
pub use stats::{ColumnStats, FileStats, INDEXED_COLUMNS, STRING_PREFIX};

use commit::{one_attempt_each, Target};
use datafusion::arrow::datatypes::SchemaRef;
use exec::locate;
use object_store::path::Path;
use object_store::ObjectStore;
use spec::{written_files, WrittenFile};

hadoop_record::__options! {
    /// How a dataset job commits.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct JobOptions {
        /// Replace the contents of a target that is not empty, at the job commit (default
        /// false: such a target is refused).
        overwrite / with_overwrite: copy bool = false;
        /// The partitions run elsewhere (a Ballista cluster's executors): a failed job
        /// cleans its staging directory again while their stragglers finish (default
        /// false: they run in this process, which waits for them).
        tasks_elsewhere / with_tasks_elsewhere: copy bool = false;
        /// Unused: a store's pending uploads come with the store
        /// ([`hadoop_record_storage::pending_uploads`]). Kept so that code that sets it
        /// still builds.
        storage / with_storage: ref StorageOptions = StorageOptions::default();
    }
}

/// A query id unique on this machine and unlikely elsewhere: the time in nanoseconds and
/// the process id, in hex.
pub fn new_query_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}{:05x}", std::process::id())
}

/// The URL of a dataset directory named on a command line: a store's URL (`hdfs://…`,
/// `s3://…`) or a local path (as `file:///…`, absolute), ending in `/`.
pub fn dataset_url(target: &str) -> Result<String> {
    let url = if hadoop_record_storage::is_url(target) {
        target.to_owned()
    } else {
        let path =
            std::path::absolute(target).map_err(|e| exec_datafusion_err!("{target}: {e}"))?;
        url::Url::from_directory_path(&path)
            .map_err(|()| exec_datafusion_err!("{target}: not a directory path"))?
            .to_string()
    };
    Ok(if url.ends_with('/') {
        url
    } else {
        format!("{url}/")
    })
}

/// [`error_message`](crate::error_message) of an error of a write to `target` (a dataset
/// or a table, as a command line named it), the URL it became ([`dataset_url`]) put back
/// as it was given: `the dataset out/ exists`, not `file:///home/me/out/`.
pub fn error_naming(e: &datafusion::common::DataFusionError, target: &str) -> String {
    let message = crate::error_message(e);
    match dataset_url(target) {
        Ok(url) if !hadoop_record_storage::is_url(target) => {
            message.replace(&url, &format!("{}/", target.trim_end_matches('/')))
        }
        _ => message,
    }
}

/// Runs `frame` and writes its result as the dataset `spec` describes: the target is
/// checked (a file, or a directory with visible entries without `overwrite`, is refused
/// before the query runs), every partition writes its part files where it runs, then the
/// job commit makes them visible and writes `_SUCCESS`. A failed job leaves nothing
/// visible. Answers the rows written.
///
/// The session must plan [`WriteNode`]s ([`with_dataset_writes`]); on a Ballista cluster,
/// the scheduler's sessions must.
pub async fn write_dataset(frame: DataFrame, spec: DatasetSpec, job: JobOptions) -> Result<u64> {
    let overwrite = job.overwrite;
    let begin = |store, url: String, dir, query: String| async move {
        Target::begin(store, &url, dir, overwrite, &query).await
    };
    let (ran, target, schema, store) = run(frame, spec, &job, begin).await?;
    let (spec, mut files) = ran;
    let dir = target.dir().clone();
    if files.is_empty() && spec.partition_by.is_empty() {
        // No rows: one empty part file all the same, so that the dataset has its columns.
        let spec = Arc::new(spec.clone());
        let bytes = SharedBytes::default();
        let empty = BatchWriter::new(&spec.format, bytes.clone(), schema)
            .and_then(BatchWriter::finish)
            .map(|()| bytes.take())
            .map_err(DataFusionError::Execution);
        let written = match empty {
            Ok(bytes) => part::write_bytes(&spec, &store, &dir, spec.part_name(0), &bytes).await,
            Err(e) => Err(e),
        };
        match written {
            Ok(file) => files.push(file),
            Err(e) => {
                upload::settled(&spec.query_id).await;
                target.abort().await;
                return Err(e);
            }
        }
    }
    // The commit cleans up after itself, or leaves for the next job what only it can finish.
    target
        .commit(&spec, &files)
        .await
        .map_err(DataFusionError::Execution)?;
    let rolled = files.iter().filter(|f| spec::is_rolled(&f.file)).count();
    if rolled > 0 {
        eprintln!(
            "note: {rolled} of the {} part files were started again for a value whose file \
             was finished to keep {} open (--max-open-files): rows ordered by {} would \
             write one file per value and partition",
            files.len(),
            spec.max_open_files,
            spec.partition_by.join(", ")
        );
    }
    Ok(files.iter().map(|f| f.rows).sum())
}

/// A part file of a table write, in place under the table's directory, for its commit.
#[derive(Debug, Clone, PartialEq)]
pub struct TableFile {
    /// Its path relative to the table's directory, as the store names it (Hive's escapes
    /// in its directories: `day=2024-01-01/part-…`).
    pub path: String,
    /// Its size in bytes, and its rows.
    pub size: u64,
    pub rows: u64,
    /// The values of the `partition_by` columns its rows have (`None`: null), as text.
    pub partition_values: Vec<(String, Option<String>)>,
    /// Its statistics, when the spec asked for them ([`DatasetSpec::with_file_stats`]).
    pub stats: Option<FileStats>,
}

/// What makes a table write's part files part of the table: a table format's commit (a
/// Delta Lake log entry), given the files once they are all in place under the table's
/// directory and checked, and before which no reader of the table sees them.
#[async_trait::async_trait]
pub trait TableCommit: Send + Sync {
    /// Commits `files` (and whatever else the format's commit holds). An error leaves the
    /// table as it was: the files are then removed.
    async fn commit(&self, files: &[TableFile]) -> Result<()>;
}

/// Runs `frame` and writes its result as the part files of a table at `spec`'s URL, by
/// whoever runs each partition, as [`write_dataset`] does; once every file is in place
/// (renamed there from the job's staging directory, or its S3 upload completed) and
/// checked, `table` commits them. Nothing is checked of what the directory holds, and
/// other jobs may write into it at the same time: the table format orders their commits.
/// A failed job or commit removes the files this job wrote. Answers the rows written.
pub async fn write_table(
    frame: DataFrame,
    spec: DatasetSpec,
    job: JobOptions,
    table: &dyn TableCommit,
) -> Result<u64> {
    let begin = |store, url: String, dir, query: String| async move {
        Target::begin_table(store, &url, dir, &query).await
    };
    let (ran, target, _, _) = run(frame, spec, &job, begin).await?;
    let (spec, files) = ran;
    target
        .commit_table(&spec, &files, table)
        .await
        .map_err(DataFusionError::Execution)?;
    Ok(files.iter().map(|f| f.rows).sum())
}

/// What a write's tasks wrote: the spec they wrote by, and one attempt's files of each
/// partition.
type Ran = (DatasetSpec, Vec<WrittenFile>);

/// The shared part of a dataset's and a table's write: the columns checked against
/// `spec`, the target begun by `begin` (its store, URL, directory and the query id), the
/// tasks run; on their failure the target is cleaned up. Answers what they wrote, the
/// target, the result's columns and the store.
async fn run<B, F>(
    frame: DataFrame,
    mut spec: DatasetSpec,
    job: &JobOptions,
    begin: B,
) -> Result<(Ran, Target, SchemaRef, Arc<dyn ObjectStore>)>
where
    B: FnOnce(Arc<dyn ObjectStore>, String, Path, String) -> F,
    F: std::future::Future<Output = std::result::Result<Target, String>>,
{
    let (store_url, dir) = locate(&spec.url)?;
    let (state, plan) = frame.into_parts();
    let columns: Vec<&str> = plan
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    for name in &spec.partition_by {
        if !columns.contains(&name.as_str()) {
            return plan_err!(
                "cannot partition by {name}: the result has no such column (its columns: {})",
                columns.join(", ")
            );
        }
    }
    if !spec.partition_by.is_empty() && spec.partition_by.len() >= columns.len() {
        return plan_err!("cannot partition by every column: the part files would hold none");
    }
    let kept: Vec<usize> = (0..columns.len())
        .filter(|&i| !spec.partition_by.iter().any(|k| k == columns[i]))
        .collect();
    let part_columns = Arc::new(plan.schema().as_arrow().project(&kept)?);
    spec.format = spec.format.checked(&part_columns)?;
    let store = state.runtime_env().object_store(&store_url)?;
    let target = begin(store.clone(), spec.url.clone(), dir, spec.query_id.clone())
        .await
        .map_err(DataFusionError::Execution)?;
    let schema = Arc::new(plan.schema().as_arrow().clone());
    let node = WriteNode::new(plan, spec.clone())?;
    let write = LogicalPlan::Extension(Extension {
        node: Arc::new(node),
    });
    let answer = DataFrame::new(state, write).collect().await;
    match answer.and_then(|batches| written_files(&batches)) {
        Ok(files) => Ok(((spec, one_attempt_each(files)), target, schema, store)),
        Err(e) => {
            if job.tasks_elsewhere {
                target.abort_after_stragglers(&spec).await;
            } else {
                upload::settled(&spec.query_id).await;
                target.abort().await;
            }
            Err(e)
        }
    }
}

/// Runs `frame` and writes its result as one file of `format` at `url` (`file:///…`,
/// `hdfs://…`, `s3://…`), which appears whole when the query ends and not at all if it
/// fails (S3: a multipart upload completed at the end; HDFS and local disks: a hidden
/// temporary file renamed). Answers the rows written.
pub async fn write_file(frame: DataFrame, url: &str, format: &PartFormat) -> Result<u64> {
    let (store_url, path) = locate(url)?;
    let store = frame.task_ctx().runtime_env().object_store(&store_url)?;
    let schema = Arc::new(frame.schema().as_arrow().clone());
    let format = format.checked(&schema)?;
    let stream = frame.execute_stream().await?;
    let work = new_query_id();
    let written = part::write_file(&work, &store, path, &format, schema, stream).await;
    if written.is_err() {
        // What was uploaded is aborted before this answers.
        upload::settled(&work).await;
    }
    written
}
