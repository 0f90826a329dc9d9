//! A dataset's part files: each partition of a query's result written by the thread that
//! runs it, as one part file, or laid out Hive's way (`col=value/part-…`) by
//! `--partition-by` / `COPY … PARTITIONED BY`; then committed (see [`crate::dataset`]).

use std::collections::HashMap;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use datafusion::arrow::array::{Array, AsArray, RecordBatch, UInt32Array};
use datafusion::arrow::compute::{cast, take_record_batch};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::dataframe::DataFrame;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::logical_expr::LogicalPlan;
use futures::{FutureExt, StreamExt};

use crate::dataset::{is_dataset, Dataset};
use crate::sink::Sink;
use crate::{message, OutFormat};

/// How a dataset's part files are written: their format, and the columns that lay them out.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    to: OutFormat,
    extension: &'static str,
    partition_by: Vec<String>,
}

impl Layout {
    /// The layout of a dataset in `dir` (for messages) written as `to`.
    pub(crate) fn new(to: OutFormat, dir: &Path, partition_by: &[String]) -> Result<Self, String> {
        let extension = to.extension().ok_or_else(|| {
            format!(
                "{} is a dataset: give --to parquet, csv or json (--to table prints)",
                dir.display()
            )
        })?;
        Ok(Layout {
            to,
            extension,
            partition_by: partition_by.to_vec(),
        })
    }
}

/// A query, or DataFusion's `COPY (query) TO 'DIR/' [STORED AS …] [PARTITIONED BY (…)]`,
/// which is written as `-o DIR/` writes.
pub(crate) enum Copy {
    Dataset {
        dir: PathBuf,
        layout: Layout,
        input: DataFrame,
    },
    Not(DataFrame),
}

/// Whether `frame` copies a query's result to a dataset (a directory, or partitioned):
/// then the query and how to write it. A `COPY` to a single file is DataFusion's.
pub(crate) fn copy_to_dataset(frame: DataFrame) -> Result<Copy, String> {
    let LogicalPlan::Copy(copy) = frame.logical_plan() else {
        return Ok(Copy::Not(frame));
    };
    let dir = PathBuf::from(&copy.output_url);
    if copy.partition_by.is_empty() && !is_dataset(&dir) {
        return Ok(Copy::Not(frame));
    }
    if copy.output_url.contains("://") {
        return Err(format!(
            "COPY … TO '{}': datasets are written to local directories only (not yet to \
             hdfs:// or s3://)",
            copy.output_url
        ));
    }
    if !copy.options.is_empty() {
        let mut options: Vec<&str> = copy.options.keys().map(String::as_str).collect();
        options.sort_unstable();
        return Err(format!(
            "COPY … TO '{}': options are not supported for datasets ({})",
            copy.output_url,
            options.join(", ")
        ));
    }
    let ext = copy.file_type.get_ext();
    let to = match ext.trim_start_matches('.').to_ascii_lowercase().as_str() {
        "parquet" => OutFormat::Parquet,
        "csv" => OutFormat::Csv,
        "json" => OutFormat::Json,
        other => {
            return Err(format!(
                "COPY … TO '{}': datasets are written as PARQUET, CSV or JSON, not {other}",
                copy.output_url
            ))
        }
    };
    let layout = Layout::new(to, &dir, &copy.partition_by)?;
    let input = copy.input.as_ref().clone();
    let (state, _) = frame.into_parts();
    Ok(Copy::Dataset {
        dir,
        layout,
        input: DataFrame::new(state, input),
    })
}

/// Writes the result of `frame` as a dataset in `dir`: every partition at once, each by its
/// own task, then the commit. Returns the number of rows written.
pub(crate) async fn write_dataset(
    layout: &Layout,
    dir: &Path,
    overwrite: bool,
    frame: DataFrame,
) -> Result<u64, String> {
    let schema: SchemaRef = std::sync::Arc::new(frame.schema().as_arrow().clone());
    let keys = layout
        .partition_by
        .iter()
        .map(|name| {
            schema.index_of(name).map_err(|_| {
                let columns: Vec<&str> =
                    schema.fields().iter().map(|f| f.name().as_str()).collect();
                format!(
                    "cannot partition by {name}: the result has no such column (its columns: {})",
                    columns.join(", ")
                )
            })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    if !keys.is_empty() && keys.len() == schema.fields().len() {
        return Err("cannot partition by every column: the part files would hold none".into());
    }
    let streams = frame
        .execute_stream_partitioned()
        .await
        .map_err(|e| message(&e))?;
    let dataset = Dataset::begin(dir, overwrite)?;
    let writers: Vec<_> = streams
        .into_iter()
        .enumerate()
        .map(|(partition, stream)| {
            let part = Part {
                layout: layout.clone(),
                keys: keys.clone(),
                name: dataset.part_name(partition, layout.extension),
                staging: dataset.staged(""),
            };
            tokio::spawn(part.write(stream, false)).map(|written| match written {
                Ok(written) => written,
                Err(e) => Err(format!("a writer stopped: {e}")),
            })
        })
        .collect();
    let outcome: Result<Vec<Written>, String> = futures::future::join_all(writers)
        .await
        .into_iter()
        .collect();
    let mut written = match outcome {
        Ok(written) => written,
        Err(e) => {
            dataset.abort();
            return Err(e);
        }
    };
    if keys.is_empty() && written.iter().all(|w| w.files.is_empty()) {
        // No rows: one empty part file all the same, so that the dataset has its columns.
        let part = Part {
            layout: layout.clone(),
            keys,
            name: dataset.part_name(0, layout.extension),
            staging: dataset.staged(""),
        };
        let empty = datafusion::physical_plan::stream::RecordBatchStreamAdapter::new(
            schema,
            futures::stream::empty(),
        );
        match part.write(Box::pin(empty), true).await {
            Ok(w) => written.push(w),
            Err(e) => {
                dataset.abort();
                return Err(e);
            }
        }
    }
    let rows = written.iter().map(|w| w.rows).sum();
    let files: Vec<String> = written.into_iter().flat_map(|w| w.files).collect();
    dataset.commit(&files)?;
    Ok(rows)
}

/// What one partition wrote: its files (relative to the dataset) and rows.
#[derive(Debug, Default)]
struct Written {
    files: Vec<String>,
    rows: u64,
}

/// One partition of the result, being written.
struct Part {
    layout: Layout,
    /// The indices of the columns that lay the dataset out.
    keys: Vec<usize>,
    /// Its part file's name, `part-NNNNN-<query id>.<ext>`.
    name: String,
    /// Where the dataset is staged.
    staging: PathBuf,
}

impl Part {
    /// Writes `stream`. A partition without rows writes no file unless `always`.
    async fn write(
        self,
        mut stream: SendableRecordBatchStream,
        always: bool,
    ) -> Result<Written, String> {
        // Part files by their path in the dataset: one, or one per value of the keys.
        let mut sinks: HashMap<String, Sink<BufWriter<std::fs::File>>> = HashMap::new();
        let mut order = Vec::new();
        if always {
            let schema = stream.schema();
            self.open(&mut sinks, &mut order, self.name.clone(), &schema)?;
        }
        let mut rows = 0u64;
        while let Some(batch) = stream.next().await {
            let batch = batch.map_err(|e| message(&e))?;
            if batch.num_rows() == 0 {
                continue;
            }
            rows += batch.num_rows() as u64;
            for (dirs, batch) in split(&batch, &self.keys)? {
                let file = format!("{dirs}{}", self.name);
                if !sinks.contains_key(&file) {
                    self.open(&mut sinks, &mut order, file.clone(), &batch.schema())?;
                }
                if let Some(sink) = sinks.get_mut(&file) {
                    sink.write(batch)?;
                }
            }
        }
        for file in &order {
            if let Some(sink) = sinks.remove(file) {
                sink.finish()?;
            }
        }
        Ok(Written { files: order, rows })
    }

    /// Starts the part file `file` (a path in the dataset) of rows of `schema`.
    fn open(
        &self,
        sinks: &mut HashMap<String, Sink<BufWriter<std::fs::File>>>,
        order: &mut Vec<String>,
        file: String,
        schema: &SchemaRef,
    ) -> Result<(), String> {
        let path = self.staging.join(&file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make the directory {}: {e}", parent.display()))?;
        }
        let out = std::fs::File::create(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let sink = Sink::new(
            self.layout.to,
            BufWriter::with_capacity(64 << 10, out),
            schema.clone(),
        )?;
        sinks.insert(file.clone(), sink);
        order.push(file);
        Ok(())
    }
}

/// `batch` split by the values of the columns `keys`: for each value, its Hive directories
/// (`col=value/…/`, empty without keys) and its rows without those columns, in the order
/// the values first appear.
fn split(batch: &RecordBatch, keys: &[usize]) -> Result<Vec<(String, RecordBatch)>, String> {
    if keys.is_empty() {
        return Ok(vec![(String::new(), batch.clone())]);
    }
    let failed =
        |e: datafusion::arrow::error::ArrowError| format!("cannot lay out the result: {e}");
    let schema = batch.schema();
    let texts = keys
        .iter()
        .map(|&k| cast(batch.column(k), &DataType::Utf8).map_err(failed))
        .collect::<Result<Vec<_>, String>>()?;
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
    let data = batch.project(&kept).map_err(failed)?;
    order
        .into_iter()
        .map(|dirs| {
            let rows = UInt32Array::from(groups.remove(&dirs).unwrap_or_default());
            let part = take_record_batch(&data, &rows).map_err(failed)?;
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
