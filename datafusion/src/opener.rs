//! [`RecordOpener`]: turns a file, or a byte range of one, into a stream of batches.
//!
//! A local file is decoded where the query pulls its batches, as DataFusion's own CSV and
//! JSON openers read local files: one thread per partition, which uses a batch right after
//! making it, while it is in that core's cache (a decoding thread handing batches to the
//! query's thread switched threads for every batch; BENCHMARKS.md, "Where batches are
//! decoded").
//!
//! Any other store is read through blocking waits on the runtime (`hadoop_record_storage::RangeReader`), so
//! such a file is scanned on a blocking thread ([`SpawnedTask::spawn_blocking`], aborted
//! with the stream) that hands batches over a channel of two: the decoder stays at most two
//! batches ahead of the query.

use std::sync::Arc;

use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::runtime::SpawnedTask;
use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileOpenFuture, FileOpener};
use futures::StreamExt;
use object_store::ObjectStore;
use tokio::sync::mpsc;

use crate::input::{self, Input};
use crate::resolved::Resolved;
use crate::scan::{Job, Scan};

/// Batches in flight between a file's decoder and the query.
const CHANNEL: usize = 2;

/// Opens files of a [`RecordFormat`](crate::RecordFormat) for a scan.
pub struct RecordOpener {
    format: Arc<Resolved>,
    store: Arc<dyn ObjectStore>,
    /// The store's URL (`file:///`, `s3://bucket/`), to name files in messages.
    store_url: String,
    projection: Vec<usize>,
    batch_size: usize,
}

impl RecordOpener {
    pub(crate) fn new(
        format: Arc<Resolved>,
        store: Arc<dyn ObjectStore>,
        store_url: String,
        projection: Vec<usize>,
        batch_size: usize,
    ) -> Self {
        RecordOpener {
            format,
            store,
            store_url,
            projection,
            batch_size,
        }
    }
}

impl FileOpener for RecordOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let range = match &file.range {
            None => None,
            Some(r) => {
                let bound = |v: i64| {
                    u64::try_from(v).map_err(|_| {
                        DataFusionError::Internal(format!(
                            "negative file range {}..{}",
                            r.start, r.end
                        ))
                    })
                };
                Some((bound(r.start)?, bound(r.end)?))
            }
        };
        let job = Job {
            format: self.format.clone(),
            file: file_name(&self.store_url, &file.object_meta.location),
            range,
            projection: self.projection.clone(),
            batch_size: self.batch_size,
            hint: None,
        };
        let store = self.store.clone();
        let map = self.format.options.memory_map();
        Ok(Box::pin(async move {
            let input = input::open(&store, &file.object_meta, map, range).await?;
            if !matches!(input, Input::Remote(_)) {
                return Ok(futures::stream::iter(Scan::open(job, input)?).boxed());
            }
            let (tx, rx) = mpsc::channel::<Result<RecordBatch>>(CHANNEL);
            let task = SpawnedTask::spawn_blocking(move || {
                let batches = match Scan::open(job, input) {
                    Ok(scan) => scan,
                    Err(e) => {
                        let _ = tx.blocking_send(Err(e));
                        return;
                    }
                };
                for batch in batches {
                    if tx.blocking_send(batch).is_err() {
                        break;
                    }
                }
            });
            let stream = futures::stream::unfold((rx, Some(task)), |(mut rx, task)| async move {
                match rx.recv().await {
                    Some(item) => Some((item, (rx, task))),
                    None => {
                        // The scan is over: a panic in it is the query's panic.
                        if let Some(task) = task {
                            if let Err(e) = task.join_unwind().await {
                                let e = DataFusionError::ExecutionJoin(Box::new(e));
                                return Some((Err(e), (rx, None)));
                            }
                        }
                        None
                    }
                }
            });
            Ok(stream.boxed())
        }))
    }
}

/// A file as its user names it: a local file by its absolute path, any other by its URL.
pub(crate) fn file_name(store_url: &str, location: &object_store::path::Path) -> String {
    match store_url.strip_prefix("file://") {
        Some(root) => format!("{}{location}", if root.is_empty() { "/" } else { root }),
        None => format!("{}/{location}", store_url.trim_end_matches('/')),
    }
}
