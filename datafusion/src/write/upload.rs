//! [`PartUpload`]: a part file's bytes on their way into the store, which either completes
//! or is aborted — also when its partition is cancelled half way (DataFusion cancels the
//! other partitions of a query that failed): the store's requests that make, complete or
//! abort an upload run in tasks of their own, counted per query, so that a failed job can
//! wait for them ([`settled`]) before it cleans up, and leaves no pending upload behind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use datafusion::common::{exec_datafusion_err, Result};
use object_store::path::Path;
use object_store::{MultipartUpload, ObjectStore, ObjectStoreExt, WriteMultipart};

/// Part uploads in flight per file; more writes wait for one to finish.
const PARTS_IN_FLIGHT: usize = 4;

/// How long a failed job waits for its uploads to settle.
const SETTLE: Duration = Duration::from_secs(60);

/// Work in progress on a query's part files in this process, by query id.
static LIVE: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

/// One piece of work on a query's part files, counted while it lives.
pub(crate) struct Live(Arc<str>);

impl Live {
    pub(crate) fn new(query_id: &str) -> Live {
        Live::count(query_id.into())
    }

    fn count(query_id: Arc<str>) -> Live {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        *live
            .get_or_insert_with(HashMap::new)
            .entry(query_id.to_string())
            .or_default() += 1;
        Live(query_id)
    }

    fn another(&self) -> Live {
        Live::count(self.0.clone())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(counts) = live.as_mut() {
            if let Some(n) = counts.get_mut(&*self.0) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&*self.0);
                }
            }
        }
    }
}

/// Waits until no work on `query_id`'s part files is left in this process (partitions
/// cancelled, uploads aborted or completed), for at most a minute.
pub(crate) async fn settled(query_id: &str) {
    let deadline = Instant::now() + SETTLE;
    loop {
        let busy = LIVE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|counts| counts.contains_key(query_id));
        if !busy || Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A part file's upload: a multipart upload on S3, a hidden temporary file on HDFS and
/// local disks, which appears under its name at [`finish`](PartUpload::finish) only.
pub(crate) struct PartUpload {
    upload: Option<WriteMultipart>,
    location: Path,
    live: Live,
}

impl PartUpload {
    /// Starts the upload of `location`. The store makes it in a task of its own: a
    /// partition cancelled meanwhile could not learn the upload's id to abort it, so the
    /// task aborts an upload nobody waits for.
    pub(crate) async fn start(
        store: &Arc<dyn ObjectStore>,
        location: Path,
        live: &Live,
    ) -> Result<Self> {
        let (send, receive) = tokio::sync::oneshot::channel();
        let (store, at, working) = (store.clone(), location.clone(), live.another());
        tokio::spawn(async move {
            let made = store.put_multipart(&at).await;
            if let Err(Ok(mut unwanted)) = send.send(made) {
                let _ = unwanted.abort().await;
            }
            drop(working);
        });
        let upload: Box<dyn MultipartUpload> = match receive.await {
            Ok(made) => made?,
            Err(_) => {
                return Err(exec_datafusion_err!(
                    "the upload of {location} did not start"
                ))
            }
        };
        Ok(PartUpload {
            upload: Some(WriteMultipart::new(upload)),
            location,
            live: live.another(),
        })
    }

    /// Hands `bytes` on, waiting while too many parts are in flight.
    pub(crate) async fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(upload) = self.upload.as_mut().filter(|_| !bytes.is_empty()) {
            upload.wait_for_capacity(PARTS_IN_FLIGHT).await?;
            upload.write(bytes);
        }
        Ok(())
    }

    /// Completes the upload: the file appears. The completion runs to its end even if the
    /// partition is cancelled while it waits.
    pub(crate) async fn finish(mut self) -> Result<()> {
        let Some(upload) = self.upload.take() else {
            return Ok(());
        };
        let working = self.live.another();
        let completing = tokio::spawn(async move {
            let done = upload.finish().await;
            drop(working);
            done
        });
        let location = &self.location;
        match completing.await {
            Ok(done) => done
                .map(drop)
                .map_err(|e| exec_datafusion_err!("cannot complete {location}: {e}")),
            Err(e) => Err(exec_datafusion_err!("cannot complete {location}: {e}")),
        }
    }
}

/// Dropped before it finished (an error, a cancelled partition): aborted, by a task of its
/// own that [`settled`] waits for.
impl Drop for PartUpload {
    fn drop(&mut self) {
        let Some(upload) = self.upload.take() else {
            return;
        };
        let working = self.live.another();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = upload.abort().await;
                drop(working);
            });
        }
    }
}
