//! One partition of a query's result, written where it runs (a local thread or a cluster's
//! executor) as part files in the dataset's staging directory: one file, or with
//! `partition_by` one per value of those columns, laid out Hive's way (`col=value/part-…`).
//! What it wrote is its answer, for the job commit ([`super::commit`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, RecordBatch, StringArray, UInt32Array, UInt64Array,
};
use datafusion::arrow::compute::{cast, take_record_batch};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::common::{DataFusionError, Result};
use datafusion::execution::SendableRecordBatchStream;
use futures::StreamExt;
use object_store::path::Path;
use object_store::ObjectStore;

use hadoop_record_cli::record_sink::SharedBytes;

use super::encode::BatchWriter;
use super::spec::{child, written_schema, DatasetSpec, PartFormat};
use super::upload::{Live, PartUpload};

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
    /// The staging directory in the store.
    pub staging: Path,
    pub partition: usize,
    /// The indices of the columns that lay the dataset out.
    pub keys: Vec<usize>,
}

impl PartTask {
    /// Writes `stream` and answers what it wrote ([`written_schema`]). A partition without
    /// rows writes nothing; on an error, what it started is abandoned.
    pub async fn write(self, mut stream: SendableRecordBatchStream) -> Result<RecordBatch> {
        // Counted until this partition ends or is cancelled: a failed job waits for it.
        let live = Live::new(&self.spec.query_id);
        let attempt = attempt(self.partition);
        let name = self.spec.part_name(self.partition);
        let mut files: HashMap<String, PartFile> = HashMap::new();
        let mut order: Vec<String> = Vec::new();
        let outcome: Result<()> = async {
            while let Some(batch) = stream.next().await {
                let batch = batch?;
                if batch.num_rows() == 0 {
                    continue;
                }
                for (dirs, batch) in split(&batch, &self.keys)? {
                    let file = format!("{dirs}{name}");
                    if !files.contains_key(&file) {
                        let staged = format!("{attempt}/{file}");
                        let location = child(&self.staging, &staged);
                        let format = &self.spec.format;
                        let schema = batch.schema();
                        let part =
                            PartFile::start(&self.store, location, staged, format, &schema, &live)
                                .await?;
                        files.insert(file.clone(), part);
                        order.push(file.clone());
                    }
                    if let Some(part) = files.get_mut(&file) {
                        part.write(&batch).await?;
                    }
                }
            }
            Ok(())
        }
        .await;
        // On an error, the files started are dropped: their uploads aborted.
        outcome?;
        let (mut staged, mut rows) = (Vec::new(), Vec::new());
        for file in &order {
            let Some(part) = files.remove(file) else {
                continue;
            };
            staged.push(part.staged.clone());
            let written = part.finish().await?;
            if LOG_PARTS.load(Ordering::Relaxed) {
                eprintln!(
                    "partition {} wrote {}{}/{} ({written} rows)",
                    self.partition,
                    self.spec.url,
                    self.spec.staging(),
                    staged.last().map_or("", String::as_str)
                );
            }
            rows.push(written);
        }
        let n = order.len();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(UInt32Array::from(vec![self.partition as u32; n])),
            Arc::new(StringArray::from(staged)),
            Arc::new(StringArray::from(order)),
            Arc::new(UInt64Array::from(rows)),
        ];
        Ok(RecordBatch::try_new(written_schema(), columns)?)
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
    let staged = location.to_string();
    let live = Live::new(work);
    let mut file = PartFile::start(store, location, staged, format, &schema, &live).await?;
    // On an error the file is dropped: its upload aborted.
    while let Some(batch) = stream.next().await {
        file.write(&batch?).await?;
    }
    file.finish().await
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
    /// Its path relative to the staging directory.
    staged: String,
    rows: u64,
}

impl PartFile {
    async fn start(
        store: &Arc<dyn ObjectStore>,
        location: Path,
        staged: String,
        format: &PartFormat,
        schema: &SchemaRef,
        live: &Live,
    ) -> Result<Self> {
        let pending = SharedBytes::default();
        let writer = BatchWriter::new(format, pending.clone(), schema.clone())
            .map_err(DataFusionError::Execution)?;
        let upload = PartUpload::start(store, location, live).await?;
        Ok(PartFile {
            writer: Some(writer),
            pending,
            upload,
            staged,
            rows: 0,
        })
    }

    async fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if let Some(writer) = &mut self.writer {
            writer.write(batch).map_err(DataFusionError::Execution)?;
        }
        self.rows += batch.num_rows() as u64;
        self.send().await
    }

    /// Hands the encoded bytes to the upload, waiting while too many parts are in flight.
    async fn send(&mut self) -> Result<()> {
        let bytes = self.pending.take();
        self.upload.write(&bytes).await
    }

    /// Ends the file and completes its upload; answers its rows. On an error the upload is
    /// dropped: aborted.
    async fn finish(mut self) -> Result<u64> {
        if let Some(writer) = self.writer.take() {
            writer.finish().map_err(DataFusionError::Execution)?;
        }
        self.send().await?;
        self.upload.finish().await?;
        Ok(self.rows)
    }
}

/// `batch` split by the values of the columns `keys`: for each value, its Hive directories
/// (`col=value/…/`, empty without keys) and its rows without those columns, in the order
/// the values first appear.
fn split(batch: &RecordBatch, keys: &[usize]) -> Result<Vec<(String, RecordBatch)>> {
    if keys.is_empty() {
        return Ok(vec![(String::new(), batch.clone())]);
    }
    let schema = batch.schema();
    let texts = keys
        .iter()
        .map(|&k| cast(batch.column(k), &DataType::Utf8))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let mut groups: HashMap<String, Vec<u32>> = HashMap::new();
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
        let rows = groups.entry(dirs.clone()).or_insert_with(|| {
            order.push(dirs);
            Vec::new()
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
            let rows = UInt32Array::from(groups.remove(&dirs).unwrap_or_default());
            let part = take_record_batch(&data, &rows)?;
            Ok((dirs, part))
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
