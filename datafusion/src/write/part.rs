//! One partition of a query's result, written where it runs (a local thread or a cluster's
//! executor) as part files in the dataset's staging directory: one file, or with
//! `partition_by` one per value of those columns, laid out Hive's way (`col=value/part-…`).
//! On a store with pending uploads (S3), each file is instead a multipart upload of its
//! final path, left pending. What it wrote is its answer, for the job commit
//! ([`super::commit`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch, UInt32Array};
use datafusion::arrow::compute::{cast, take_record_batch};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::common::{DataFusionError, Result};
use datafusion::execution::SendableRecordBatchStream;
use futures::StreamExt;
use hadoop_record_storage::{pending_uploads, PendingUploads};
use object_store::path::Path;
use object_store::ObjectStore;

use hadoop_record_cli::record_sink::SharedBytes;

use super::encode::BatchWriter;
use super::spec::{child, written_batch, DatasetSpec, PartFormat, Values, WrittenFile};
use super::stats::FileStats;
use super::upload::{Live, PartUpload, Sent};

static LOG_PARTS: AtomicBool = AtomicBool::new(false);

/// Whether this process says on standard error which part files it writes (a cluster's
/// executors do: `rcc cluster executor`).
pub fn log_parts(on: bool) {
    LOG_PARTS.store(on, Ordering::Relaxed);
}

/// One partition's write: where, and by which columns it is laid out.
pub(crate) struct PartTask {
    pub spec: Arc<DatasetSpec>,
    pub store: Arc<dyn ObjectStore>,
    /// The dataset's directory in the store.
    pub dir: Path,
    pub partition: usize,
    /// The indices of the columns that lay the dataset out.
    pub keys: Vec<usize>,
}

impl PartTask {
    /// Writes `stream` and answers what it wrote ([`written_batch`]). A partition without
    /// rows writes nothing; on an error, what it started is abandoned. With `keys`, at most
    /// [`DatasetSpec::max_open_files`] files are open at once: past it, the one written to
    /// least recently is finished, and a later row of its value starts the value's next
    /// file ([`DatasetSpec::rolled_part_name`]).
    pub async fn write(self, mut stream: SendableRecordBatchStream) -> Result<RecordBatch> {
        // Counted until this partition ends or is cancelled: a failed job waits for it.
        let live = Live::new(&self.spec.query_id);
        let place = Place::new(&self.spec, &self.store, &self.dir, self.partition);
        let mut open = OpenFiles::new(self.spec.max_open_files);
        // How many files each value has started.
        let mut started: HashMap<String, usize> = HashMap::new();
        let mut written = Vec::new();
        while let Some(batch) = stream.next().await {
            let batch = batch?;
            if batch.num_rows() == 0 {
                continue;
            }
            for group in split(&batch, &self.keys)? {
                let dirs = group.dirs;
                if !open.contains(&dirs) {
                    if let Some(oldest) = open.make_room() {
                        written.push(place.finish(oldest).await?);
                    }
                    let count = started.entry(dirs.clone()).or_default();
                    let file = format!(
                        "{dirs}{}",
                        self.spec.rolled_part_name(self.partition, *count)
                    );
                    *count += 1;
                    let schema = group.rows.schema();
                    let part = place.start(file, group.values, &schema, &live).await?;
                    open.insert(dirs.clone(), part);
                }
                if let Some(part) = open.get_mut(&dirs) {
                    part.write(&group.rows).await?;
                }
            }
        }
        for part in open.drain() {
            written.push(place.finish(part).await?);
        }
        written_batch(&written)
    }
}

/// Where a partition's attempt writes its part files: on a store with pending uploads
/// (S3), uploads of their final paths that the job commit completes; on the others, files
/// in the attempt's staging directory that the job commit renames.
struct Place {
    spec: Arc<DatasetSpec>,
    store: Arc<dyn ObjectStore>,
    pending: Option<Arc<dyn PendingUploads>>,
    dir: Path,
    staging: Path,
    partition: usize,
    attempt: String,
}

impl Place {
    /// A new attempt at `partition` of the dataset at `dir` of `store`.
    fn new(
        spec: &Arc<DatasetSpec>,
        store: &Arc<dyn ObjectStore>,
        dir: &Path,
        partition: usize,
    ) -> Self {
        Place {
            attempt: attempt(partition),
            pending: pending_uploads(store),
            store: store.clone(),
            dir: dir.clone(),
            staging: child(dir, &spec.staging()),
            spec: spec.clone(),
            partition,
        }
    }

    /// Starts the upload of the part file `file` (its path in the dataset).
    async fn upload(&self, file: &str, live: &Live) -> Result<PartUpload> {
        match &self.pending {
            Some(pending) => PartUpload::start_pending(pending, child(&self.dir, file), live).await,
            None => {
                let staged = child(&self.staging, &format!("{}/{file}", self.attempt));
                PartUpload::start(&self.store, staged, live).await
            }
        }
    }

    /// Starts the part file `file` of rows of `schema` whose `partition_by` columns have
    /// `values`.
    async fn start(
        &self,
        file: String,
        values: Values,
        schema: &SchemaRef,
        live: &Live,
    ) -> Result<PartFile> {
        let upload = self.upload(&file, live).await?;
        let mut part = PartFile::start(&self.spec.format, schema, upload, file)?;
        part.values = values;
        if self.spec.file_stats {
            part.stats = Some(FileStats::default());
        }
        Ok(part)
    }

    /// Ends `part`, and answers what it wrote.
    async fn finish(&self, part: PartFile) -> Result<WrittenFile> {
        let file = part.file.clone();
        let values = part.values.clone();
        let stats = part.stats.as_ref().map(FileStats::to_json);
        let (rows, sent) = part.finish().await?;
        if LOG_PARTS.load(Ordering::Relaxed) {
            let url = &self.spec.url;
            match &sent.pending {
                Some(_) => eprintln!(
                    "partition {} wrote {url}{file} ({rows} rows; pending until the job commits)",
                    self.partition
                ),
                None => eprintln!(
                    "partition {} wrote {url}{}/{}/{file} ({rows} rows)",
                    self.partition,
                    self.spec.staging(),
                    self.attempt
                ),
            }
        }
        let mut written = self.written(file, rows, sent);
        written.values = values;
        written.stats = stats;
        Ok(written)
    }

    fn written(&self, file: String, rows: u64, sent: Sent) -> WrittenFile {
        WrittenFile {
            partition: self.partition as u32,
            attempt: self.attempt.clone(),
            file,
            rows,
            bytes: sent.bytes,
            upload: sent.pending,
            values: Vec::new(),
            stats: None,
        }
    }
}

/// The part files a partition has open, by their Hive directories, at most `max` of them.
struct OpenFiles {
    max: usize,
    /// Each file, the order it was started in and when it was last written to.
    files: HashMap<String, (PartFile, u64, u64)>,
    clock: u64,
}

impl OpenFiles {
    fn new(max: usize) -> Self {
        OpenFiles {
            max: max.max(1),
            files: HashMap::new(),
            clock: 0,
        }
    }

    fn contains(&self, dirs: &str) -> bool {
        self.files.contains_key(dirs)
    }

    /// With `max` files open, takes out the one written to least recently.
    fn make_room(&mut self) -> Option<PartFile> {
        if self.files.len() < self.max {
            return None;
        }
        let oldest = self
            .files
            .iter()
            .min_by_key(|(_, (_, _, used))| *used)
            .map(|(dirs, _)| dirs.clone())?;
        self.files.remove(&oldest).map(|(part, _, _)| part)
    }

    fn insert(&mut self, dirs: String, part: PartFile) {
        self.clock += 1;
        self.files.insert(dirs, (part, self.clock, self.clock));
    }

    fn get_mut(&mut self, dirs: &str) -> Option<&mut PartFile> {
        self.clock += 1;
        let clock = self.clock;
        self.files.get_mut(dirs).map(|(part, _, used)| {
            *used = clock;
            part
        })
    }

    /// Every file still open, in the order they were started.
    fn drain(&mut self) -> Vec<PartFile> {
        let mut files: Vec<_> = self.files.drain().map(|(_, file)| file).collect();
        files.sort_by_key(|(_, started, _)| *started);
        files.into_iter().map(|(part, _, _)| part).collect()
    }
}

/// Writes `stream` as one file of `format` at `location`, which appears when it ends;
/// answers its rows. Its work is counted under `work` (see [`super::upload::settled`]).
pub(crate) async fn write_file(
    work: &str,
    store: &Arc<dyn ObjectStore>,
    location: Path,
    format: &PartFormat,
    schema: SchemaRef,
    mut stream: SendableRecordBatchStream,
) -> Result<u64> {
    let live = Live::new(work);
    let upload = PartUpload::start(store, location.clone(), &live).await?;
    let mut file = PartFile::start(format, &schema, upload, location.to_string())?;
    // On an error the file is dropped: its upload aborted.
    while let Some(batch) = stream.next().await {
        file.write(&batch?).await?;
    }
    file.finish().await.map(|(rows, _)| rows)
}

/// Writes `bytes` whole as the part file `file` of a job's attempt `attempt` at
/// partition `partition`, as a task would (a pending upload on S3, a staged file
/// elsewhere): the empty part file of a result without rows.
pub(crate) async fn write_bytes(
    spec: &Arc<DatasetSpec>,
    store: &Arc<dyn ObjectStore>,
    dir: &Path,
    file: String,
    bytes: &[u8],
) -> Result<WrittenFile> {
    let live = Live::new(&spec.query_id);
    let place = Place::new(spec, store, dir, 0);
    let mut upload = place.upload(&file, &live).await?;
    upload.write(bytes).await?;
    let sent = upload.finish().await?;
    Ok(place.written(file, 0, sent))
}

/// A name for this attempt at a partition, unique among the attempts of a job (Ballista
/// runs a task again when its executor is lost): the partition, the time and a counter.
fn attempt(partition: usize) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        "attempt-{partition:05}-{nanos:x}-{:x}-{n}",
        std::process::id()
    )
}

/// A part file being written: encoded batch by batch, uploaded as the bytes come
/// ([`PartUpload`]), complete only at [`finish`](PartFile::finish); dropped before, its
/// upload is aborted.
struct PartFile {
    /// The encoder, until the file ends.
    writer: Option<BatchWriter<SharedBytes>>,
    pending: SharedBytes,
    upload: PartUpload,
    /// Its path in the dataset (or, for a single file, where it goes).
    file: String,
    rows: u64,
    /// The values of the `partition_by` columns of its rows.
    values: Values,
    /// Its statistics, when collected.
    stats: Option<FileStats>,
}

impl PartFile {
    fn start(
        format: &PartFormat,
        schema: &SchemaRef,
        upload: PartUpload,
        file: String,
    ) -> Result<Self> {
        let pending = SharedBytes::default();
        let writer = BatchWriter::new(format, pending.clone(), schema.clone())
            .map_err(DataFusionError::Execution)?;
        Ok(PartFile {
            writer: Some(writer),
            pending,
            upload,
            file,
            rows: 0,
            values: Vec::new(),
            stats: None,
        })
    }

    async fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if let Some(writer) = &mut self.writer {
            writer.write(batch).map_err(DataFusionError::Execution)?;
        }
        self.rows += batch.num_rows() as u64;
        if let Some(stats) = &mut self.stats {
            stats.add(batch);
        }
        self.send().await
    }

    /// Hands the encoded bytes to the upload, waiting while too many parts are in flight.
    async fn send(&mut self) -> Result<()> {
        let bytes = self.pending.take();
        self.upload.write(&bytes).await
    }

    /// Ends the file and its upload; answers its rows and what the upload left. On an
    /// error the upload is dropped: aborted.
    async fn finish(mut self) -> Result<(u64, Sent)> {
        if let Some(writer) = self.writer.take() {
            writer.finish().map_err(DataFusionError::Execution)?;
        }
        self.send().await?;
        let sent = self.upload.finish().await?;
        Ok((self.rows, sent))
    }
}

/// A part of a batch: its rows of one value of the `partition_by` columns.
struct Group {
    /// Its Hive directories, `col=value/…/` (empty without keys).
    dirs: String,
    /// The value, column by column, as text (`None`: null).
    values: Values,
    /// Its rows without the key columns.
    rows: RecordBatch,
}

/// `batch` split by the values of the columns `keys`, in the order the values first
/// appear.
fn split(batch: &RecordBatch, keys: &[usize]) -> Result<Vec<Group>> {
    if keys.is_empty() {
        return Ok(vec![Group {
            dirs: String::new(),
            values: Vec::new(),
            rows: batch.clone(),
        }]);
    }
    let schema = batch.schema();
    let texts = keys
        .iter()
        .map(|&k| cast(batch.column(k), &DataType::Utf8))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let mut groups: HashMap<String, (Values, Vec<u32>)> = HashMap::new();
    let mut order = Vec::new();
    for row in 0..batch.num_rows() {
        let mut dirs = String::new();
        for (&k, text) in keys.iter().zip(&texts) {
            let text = text.as_string::<i32>();
            let value = (!text.is_null(row)).then(|| text.value(row));
            dirs.push_str(&format!(
                "{}={}/",
                schema.field(k).name(),
                hive_value(value)
            ));
        }
        let (_, rows) = groups.entry(dirs.clone()).or_insert_with(|| {
            order.push(dirs);
            let values = keys
                .iter()
                .zip(&texts)
                .map(|(&k, text)| {
                    let text = text.as_string::<i32>();
                    let value = (!text.is_null(row)).then(|| text.value(row).to_owned());
                    (schema.field(k).name().clone(), value)
                })
                .collect();
            (values, Vec::new())
        });
        rows.push(row as u32);
    }
    let kept: Vec<usize> = (0..batch.num_columns())
        .filter(|c| !keys.contains(c))
        .collect();
    let data = batch.project(&kept)?;
    order
        .into_iter()
        .map(|dirs| {
            let (values, rows) = groups.remove(&dirs).unwrap_or_default();
            let rows = take_record_batch(&data, &UInt32Array::from(rows))?;
            Ok(Group { dirs, values, rows })
        })
        .collect()
}

/// A value as Hive writes it in a directory name: null and the empty string as
/// `__HIVE_DEFAULT_PARTITION__`, the characters a path or Hive's parser would take apart
/// as `%XX` (Hive's `FileUtils.escapePathName`).
fn hive_value(value: Option<&str>) -> String {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return "__HIVE_DEFAULT_PARTITION__".to_owned();
    };
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c < ' ' || c == '\u{7f}' || "\"#%'*/:=?\\{[]^".contains(c) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hive_values_are_escaped_as_hive_escapes_them() {
        assert_eq!(hive_value(None), "__HIVE_DEFAULT_PARTITION__");
        assert_eq!(hive_value(Some("")), "__HIVE_DEFAULT_PARTITION__");
        assert_eq!(hive_value(Some("a b")), "a b");
        assert_eq!(hive_value(Some("a/b=c%")), "a%2Fb%3Dc%25");
        assert_eq!(hive_value(Some("x\ny")), "x%0Ay");
    }
}
