//! [`write_delta`]: a query's result as a Delta table's new version, written by whoever
//! runs each partition (hadoop-record-datafusion's dataset writer: local threads or a
//! Ballista cluster's executors, straight into the table's directory, Hive-style partition
//! directories), then committed once by this process: one log entry, put if absent, which
//! delta-rs retries on a newer version when another writer committed meanwhile (two
//! appends both land) and refuses when Delta's conflict rules say the commits conflict.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::{exec_datafusion_err, plan_err, DataFusionError, Result};
use datafusion::dataframe::DataFrame;
use deltalake_core::kernel::transaction::{CommitBuilder, TableReference};
use deltalake_core::kernel::{new_metadata, Action, Add, Protocol, Remove, StructType};
use deltalake_core::protocol::{DeltaOperation, SaveMode};
use deltalake_core::DeltaTable;
use hadoop_record_datafusion::write::{
    new_query_id, write_table, DatasetSpec, JobOptions, PartFormat, TableCommit, TableFile,
    DEFAULT_MAX_OPEN_FILES,
};
use object_store::path::Path;
use object_store::{ObjectStoreExt, PutMode, PutOptions};

use crate::location::Location;
use crate::schema::{check_fits, delta_schema};
use crate::stats::delta_stats;
use crate::time_travel::TimeTravel;

/// What a write does when the table exists (Spark's `mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeltaMode {
    /// Refuse an existing table (`error`, Spark's `errorifexists`; the default).
    #[default]
    Error,
    /// Add a version with the result's rows (`append`).
    Append,
    /// Add a version whose rows are the result's only: the old files are removed from the
    /// table (they stay in the store for time travel until a vacuum) (`overwrite`).
    Overwrite,
}

impl std::str::FromStr for DeltaMode {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "error" | "errorifexists" => Ok(DeltaMode::Error),
            "append" => Ok(DeltaMode::Append),
            "overwrite" => Ok(DeltaMode::Overwrite),
            other => Err(format!("`{other}` is no mode: error, append or overwrite")),
        }
    }
}

hadoop_record::__options! {
    /// How [`write_delta`] writes.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DeltaWriteOptions {
        /// What to do when the table exists (default: refuse it).
        mode / with_mode: copy DeltaMode = DeltaMode::Error;
        /// The result's columns that lay the table out (Hive-style directories); for a new
        /// table, its partition columns; for an existing one, they must be its own.
        partition_by / with_partition_by: ref Vec<String> = Vec::new();
        /// With `partition_by`, the part files a task keeps open at most.
        max_open_files / with_max_open_files: copy usize = DEFAULT_MAX_OPEN_FILES;
        /// Commit through a store that cannot put a file only if it is absent (an S3 store
        /// without conditional puts), where two writers committing at once can overwrite
        /// each other's log entry (delta-rs's `AWS_S3_ALLOW_UNSAFE_RENAME`; default false:
        /// such a store is refused).
        allow_unsafe_rename / with_allow_unsafe_rename: copy bool = false;
        /// How the job's tasks run and commit ([`JobOptions`]).
        job / with_job: ref JobOptions = JobOptions::default();
    }
}

/// What a Delta write committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeltaWritten {
    /// The table's version the write made.
    pub version: u64,
    /// The rows written.
    pub rows: u64,
}

impl DeltaWritten {
    /// What a command says of the write into `table` (as its user named it):
    /// `wrote version 3 of the Delta table lake/hits/: 1200 rows`.
    pub fn summary(&self, table: &str) -> String {
        format!(
            "wrote version {} of the Delta table {table}: {} rows",
            self.version, self.rows
        )
    }
}

/// Runs `frame` and writes its result into the Delta table at `url` (a local directory,
/// `hdfs://…/`, `s3://…/`) as `options` say: a new table (its schema the result's
/// columns, its partition columns `partition_by`), or a new version of an existing one
/// (`append`, `overwrite`, partitioned as the table is when `partition_by` is empty; a
/// result that does not fit the table is refused before anything is written, naming the
/// column and both types). The part files are Parquet, with the
/// statistics Spark's writer records; none is visible to the table's readers until the
/// commit, and a failed job or commit removes those it wrote.
///
/// The session must plan dataset writes
/// ([`with_dataset_writes`](hadoop_record_datafusion::write::with_dataset_writes)).
pub async fn write_delta(
    frame: DataFrame,
    url: &str,
    options: &DeltaWriteOptions,
) -> Result<DeltaWritten> {
    let location = Location::open(&frame.task_ctx().runtime_env(), url)?;
    let url = location.url.clone();
    let existing = location.load(TimeTravel::Latest).await?;
    let result_schema: SchemaRef = Arc::new(frame.schema().as_arrow().clone());
    let schema = delta_schema(&result_schema)?;
    let mut partition_by = options.partition_by().clone();
    match (&existing, options.mode()) {
        (Some(table), DeltaMode::Error) => {
            return plan_err!(
                "the Delta table {url} exists (version {}): give --mode append to add the \
                 result's rows, or --mode overwrite to replace them",
                table.version().unwrap_or_default()
            );
        }
        (Some(table), _) => {
            let snapshot = table.snapshot().map_err(|e| location.error(e))?;
            let have = snapshot.schema();
            check_fits(&url, &have, &schema)?;
            let columns = snapshot.metadata().partition_columns().to_vec();
            if partition_by.is_empty() {
                // As Spark: an append or overwrite keeps the table's partitioning.
                partition_by = columns.clone();
            }
            if columns != partition_by {
                return plan_err!(
                    "the Delta table {url} is partitioned by ({}), not ({}): give \
                     --partition-by {}",
                    columns.join(", "),
                    partition_by.join(", "),
                    if columns.is_empty() {
                        "nothing (leave it out)".to_owned()
                    } else {
                        columns.join(",")
                    }
                );
            }
        }
        (None, _) => refuse_what_is_not_a_table(&location).await?,
    }
    if !options.allow_unsafe_rename() {
        check_put_if_absent(&location).await?;
    }
    let format = PartFormat::Parquet(Default::default());
    let spec = DatasetSpec::new(url.clone(), new_query_id(), format)
        .with_partition_by(partition_by.clone())
        .with_max_open_files(options.max_open_files())
        .with_file_stats(true);
    let commit = DeltaCommit {
        location: location.clone(),
        table: existing,
        schema,
        partition_by,
        mode: options.mode(),
        version: Mutex::new(None),
    };
    let rows = write_table(frame, spec, options.job().clone(), &commit).await?;
    let version = commit
        .version
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .ok_or_else(|| exec_datafusion_err!("the Delta table {url}: nothing was committed"))?;
    Ok(DeltaWritten { version, rows })
}

/// Refuses to make a table in a directory that holds something else than a Delta table's
/// files (a dataset, a `.jr`, …): its files would sit in the table's directory, in no
/// version of it.
async fn refuse_what_is_not_a_table(location: &Location) -> Result<()> {
    let listed = location
        .store
        .list_with_delimiter(Some(&location.dir))
        .await
        .map_err(|e| exec_datafusion_err!("cannot write the Delta table {}: {e}", location.url))?;
    let visible: Vec<String> = listed
        .objects
        .iter()
        .map(|o| o.location.clone())
        .chain(listed.common_prefixes.iter().cloned())
        .filter_map(|p| p.filename().map(str::to_owned))
        .filter(|name| !name.starts_with(['_', '.']))
        .take(3)
        .collect();
    if visible.is_empty() {
        return Ok(());
    }
    plan_err!(
        "{} is not a Delta table (no _delta_log/) and is not empty ({}): write the table into a \
         new directory",
        location.url,
        visible.join(", ")
    )
}

/// Refuses a store that does not honour a put-if-absent (an S3-compatible store without
/// conditional puts): two writers committing version N at once could both succeed, one
/// erasing the other's commit. Tried with a probe under `_delta_log/`, written twice.
async fn check_put_if_absent(location: &Location) -> Result<()> {
    if !location.url.starts_with("s3") {
        // HDFS creates a file only if absent; local disks link, which fails on one there.
        return Ok(());
    }
    let probe = Path::parse(format!(
        "{}/_delta_log/.rcc-put-if-absent-{}",
        location.dir,
        new_query_id()
    ))
    .map_err(|e| exec_datafusion_err!("{e}"))?;
    let create = || PutOptions {
        mode: PutMode::Create,
        ..PutOptions::default()
    };
    let store = &location.store;
    let first = store.put_opts(&probe, "probe".into(), create()).await;
    let second = match &first {
        Ok(_) => Some(store.put_opts(&probe, "probe".into(), create()).await),
        Err(_) => None,
    };
    let _ = store.delete(&probe).await;
    let refused = |why: String| {
        exec_datafusion_err!(
            "the Delta table {}: {why}; commits need a put that fails when the file exists \
             (S3's conditional writes, If-None-Match), or two writers can lose each other's \
             commit. Give --allow-unsafe-rename (delta-rs's AWS_S3_ALLOW_UNSAFE_RENAME) if \
             only one writer ever writes this table",
            location.url
        )
    };
    match (first, second) {
        (Ok(_), Some(Err(object_store::Error::AlreadyExists { .. })))
        | (Ok(_), Some(Err(object_store::Error::Precondition { .. }))) => Ok(()),
        (Ok(_), Some(Ok(_))) => Err(refused(
            "the store wrote a file that was already there where a put-if-absent was asked".into(),
        )),
        (Ok(_), Some(Err(e))) | (Err(e), _) => {
            if matches!(e, object_store::Error::NotImplemented { .. }) {
                Err(refused("the store has no put-if-absent".into()))
            } else {
                Err(exec_datafusion_err!(
                    "cannot write the Delta table {}: {e}",
                    location.url
                ))
            }
        }
        (Ok(_), None) => Ok(()),
    }
}

/// The commit of a Delta write: one log entry with the new part files (`add`), for an
/// overwrite the old ones' `remove`, for a new table its protocol and metadata.
struct DeltaCommit {
    location: Location,
    /// The table as the write found it (`None`: a new table).
    table: Option<DeltaTable>,
    schema: StructType,
    partition_by: Vec<String>,
    mode: DeltaMode,
    /// The version committed.
    version: Mutex<Option<u64>>,
}

#[async_trait]
impl TableCommit for DeltaCommit {
    async fn commit(&self, files: &[TableFile]) -> Result<()> {
        let url = &self.location.url;
        let now = chrono::Utc::now().timestamp_millis();
        let mut actions = Vec::new();
        let snapshot = match &self.table {
            Some(table) => Some(table.snapshot().map_err(|e| self.location.error(e))?),
            None => None,
        };
        if snapshot.is_none() {
            let protocol: Protocol = serde_json::from_value(serde_json::json!({
                "minReaderVersion": 1,
                "minWriterVersion": 2,
            }))
            .map_err(|e| exec_datafusion_err!("{e}"))?;
            let metadata = new_metadata(
                &self.schema,
                self.partition_by.iter(),
                std::iter::empty::<(String, String)>(),
            )
            .map_err(|e| exec_datafusion_err!("the Delta table {url}: {e}"))?;
            actions.push(Action::Protocol(protocol));
            actions.push(Action::Metadata(metadata));
        }
        if let (Some(table), DeltaMode::Overwrite) = (&self.table, self.mode) {
            for old in table
                .snapshot()
                .map_err(|e| self.location.error(e))?
                .log_data()
            {
                actions.push(Action::Remove(Remove {
                    path: old.path().to_string(),
                    deletion_timestamp: Some(now),
                    data_change: true,
                    extended_file_metadata: Some(true),
                    partition_values: Some(old.partition_values_map()),
                    size: Some(old.size()),
                    tags: None,
                    deletion_vector: None,
                    base_row_id: None,
                    default_row_commit_version: None,
                }));
            }
        }
        for file in files {
            let stats = file.stats.as_ref().map(|s| delta_stats(s).to_string());
            actions.push(Action::Add(Add {
                // As the store names it: delta-rs escapes it as a URI's path in the
                // log (`k=a%2Fb/` as `k=a%252Fb/`, as Spark writes it).
                path: file.path.clone(),
                partition_values: file
                    .partition_values
                    .iter()
                    .cloned()
                    .collect::<HashMap<_, _>>(),
                size: file.size as i64,
                modification_time: now,
                data_change: true,
                stats,
                tags: None,
                deletion_vector: None,
                base_row_id: None,
                default_row_commit_version: None,
                clustering_provider: None,
            }));
        }
        let operation = DeltaOperation::Write {
            mode: match self.mode {
                DeltaMode::Error => SaveMode::ErrorIfExists,
                DeltaMode::Append => SaveMode::Append,
                DeltaMode::Overwrite => SaveMode::Overwrite,
            },
            partition_by: (!self.partition_by.is_empty()).then(|| self.partition_by.clone()),
            predicate: None,
        };
        let read = snapshot.map(|s| s as &dyn TableReference);
        let committed = CommitBuilder::default()
            .with_actions(actions)
            .build(read, self.location.log_store.clone(), operation)
            .await
            .map_err(|e| conflict(url, self.mode, e))?;
        *self.version.lock().unwrap_or_else(PoisonError::into_inner) = Some(committed.version());
        Ok(())
    }
}

/// A commit refused (another writer's commit conflicts with it, or made the table first),
/// said as what happened and what to do.
fn conflict(url: &str, mode: DeltaMode, e: deltalake_core::DeltaTableError) -> DataFusionError {
    let text = e.to_string();
    let lost = text.contains("onflict") || text.contains("already exists");
    if lost {
        let made = if mode == DeltaMode::Error {
            " (another writer made the table first: --mode append adds to it)"
        } else {
            ""
        };
        exec_datafusion_err!(
            "the Delta table {url} was changed by another writer while this job wrote it, and \
             Delta's conflict rules refuse this commit after it{made}: {text}. The table is as \
             the other writer left it; this job's files were removed: run it again"
        )
    } else {
        exec_datafusion_err!("cannot commit the Delta table {url}: {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_are_sparks_names() {
        assert_eq!("error".parse(), Ok(DeltaMode::Error));
        assert_eq!("errorifexists".parse(), Ok(DeltaMode::Error));
        assert_eq!("append".parse(), Ok(DeltaMode::Append));
        assert_eq!("overwrite".parse(), Ok(DeltaMode::Overwrite));
        assert!("ignore"
            .parse::<DeltaMode>()
            .unwrap_err()
            .contains("error, append"));
    }
}
