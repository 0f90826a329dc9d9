//! [`PartUpload`]: a part file's bytes on their way into the store, which either completes
//! (or, on S3, waits pending for the job commit) or is aborted — also when its partition is cancelled half way (DataFusion cancels the
//! other partitions of a query that failed): the store's requests that make, complete or
//! abort an upload run in tasks of their own, counted per query, so that a failed job can
//! wait for them ([`settled`]) before it cleans up, and leaves no pending upload behind.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use datafusion::common::{exec_datafusion_err, Result};
use hadoop_record_storage::PendingUploads;
use object_store::multipart::PartId;
use object_store::path::Path;
use object_store::{MultipartId, MultipartUpload, ObjectStore, ObjectStoreExt, WriteMultipart};
use tokio::task::JoinSet;

use super::spec::Uploaded;

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

/// What a finished part file's upload left: its size, and on a store with pending
/// uploads, the upload the job commit completes.
#[derive(Debug)]
pub(crate) struct Sent {
    pub bytes: u64,
    pub pending: Option<Uploaded>,
}

/// A part file's upload. On a store with pending uploads (S3), a multipart upload of the
/// file's final path that [`finish`](PartUpload::finish) leaves pending, for the job
/// commit to complete (no copy); on the others (HDFS, local disks), a hidden temporary
/// file that appears under its name (in the staging directory) at `finish`.
pub(crate) struct PartUpload {
    kind: Kind,
    location: Path,
    bytes: u64,
    live: Live,
}

enum Kind {
    /// Completed at `finish`; `None` once finished or abandoned.
    Whole(Option<WriteMultipart>),
    /// Left pending at `finish`; `None` once finished or abandoned.
    Pending(Option<PendingWrite>),
}

impl PartUpload {
    /// Starts the upload of `location`, completed by [`finish`](PartUpload::finish). The
    /// store makes it in a task of its own: a partition cancelled meanwhile could not
    /// learn the upload's id to abort it, so the task aborts an upload nobody waits for.
    pub(crate) async fn start(
        store: &Arc<dyn ObjectStore>,
        location: Path,
        live: &Live,
    ) -> Result<Self> {
        let (store, at) = (store.clone(), location.clone());
        let make = async move { store.put_multipart(&at).await };
        let abort = |mut unwanted: Box<dyn MultipartUpload>| async move {
            let _ = unwanted.abort().await;
        };
        let upload = start_apart(&location, live, make, abort).await?;
        Ok(PartUpload {
            kind: Kind::Whole(Some(WriteMultipart::new(upload))),
            location,
            bytes: 0,
            live: live.another(),
        })
    }

    /// Starts a pending upload of `location` in `store`, left pending by
    /// [`finish`](PartUpload::finish). Made in a task of its own, as [`start`](Self::start)'s.
    pub(crate) async fn start_pending(
        store: &Arc<dyn PendingUploads>,
        location: Path,
        live: &Live,
    ) -> Result<Self> {
        let (pending, at) = (store.clone(), location.clone());
        let make = async move { pending.create_multipart(&at).await };
        let (pending, at) = (store.clone(), location.clone());
        let abort = |unwanted: MultipartId| async move {
            let _ = pending.abort_multipart(&at, &unwanted).await;
        };
        let id = start_apart(&location, live, make, abort).await?;
        Ok(PartUpload {
            kind: Kind::Pending(Some(PendingWrite {
                store: store.clone(),
                id,
                buffer: BytesMut::new(),
                sent: 0,
                next: 0,
                in_flight: JoinSet::new(),
                done: Vec::new(),
            })),
            location,
            bytes: 0,
            live: live.another(),
        })
    }

    /// Hands `bytes` on, waiting while too many parts are in flight.
    pub(crate) async fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.bytes += bytes.len() as u64;
        match &mut self.kind {
            Kind::Whole(Some(upload)) => {
                upload.wait_for_capacity(PARTS_IN_FLIGHT).await?;
                upload.write(bytes);
            }
            Kind::Pending(Some(pending)) => pending.write(&self.location, bytes).await?,
            _ => {}
        }
        Ok(())
    }

    /// Ends the upload: a whole one is completed (the file appears), a pending one has all
    /// its parts sent. Runs to its end even if the partition is cancelled while it waits.
    pub(crate) async fn finish(mut self) -> Result<Sent> {
        let location = self.location.clone();
        let working = self.live.another();
        let bytes = self.bytes;
        let failed = |e: String| exec_datafusion_err!("cannot complete {location}: {e}");
        match &mut self.kind {
            Kind::Whole(upload) => {
                let Some(upload) = upload.take() else {
                    return Ok(Sent {
                        bytes,
                        pending: None,
                    });
                };
                let completing = tokio::spawn(async move {
                    let done = upload.finish().await;
                    drop(working);
                    done
                });
                match completing.await {
                    Ok(done) => done.map_err(|e| failed(e.to_string()))?,
                    Err(e) => return Err(failed(e.to_string())),
                };
                Ok(Sent {
                    bytes,
                    pending: None,
                })
            }
            Kind::Pending(pending) => {
                let Some(mut write) = pending.take() else {
                    return Ok(Sent {
                        bytes,
                        pending: None,
                    });
                };
                let at = location.clone();
                // Sent by a task of its own: a cancelled partition does not cut it short;
                // on an error the upload is aborted there.
                let sending = tokio::spawn(async move {
                    let sent = write.send_rest(&at).await;
                    if sent.is_err() {
                        write.abandon(&at).await;
                    }
                    drop(working);
                    sent
                });
                let uploaded = match sending.await {
                    Ok(sent) => sent?,
                    Err(e) => return Err(failed(e.to_string())),
                };
                Ok(Sent {
                    bytes,
                    pending: Some(uploaded),
                })
            }
        }
    }
}

/// What `make` makes (an upload, or its id), made in a task of its own, counted in
/// `live`: a partition cancelled meanwhile could not learn the upload's id to abort it, so
/// the task hands an upload nobody waits for to `abort`.
async fn start_apart<T, A>(
    location: &Path,
    live: &Live,
    make: impl Future<Output = object_store::Result<T>> + Send + 'static,
    abort: impl FnOnce(T) -> A + Send + 'static,
) -> Result<T>
where
    T: Send + 'static,
    A: Future<Output = ()> + Send,
{
    let (send, receive) = tokio::sync::oneshot::channel();
    let working = live.another();
    tokio::spawn(async move {
        let made = make.await;
        if let Err(Ok(unwanted)) = send.send(made) {
            abort(unwanted).await;
        }
        drop(working);
    });
    match receive.await {
        Ok(made) => Ok(made?),
        Err(_) => Err(exec_datafusion_err!(
            "the upload of {location} did not start"
        )),
    }
}

/// Dropped before it finished (an error, a cancelled partition): aborted, by a task of its
/// own that [`settled`] waits for.
impl Drop for PartUpload {
    fn drop(&mut self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let working = self.live.another();
        match &mut self.kind {
            Kind::Whole(upload) => {
                if let Some(upload) = upload.take() {
                    runtime.spawn(async move {
                        let _ = upload.abort().await;
                        drop(working);
                    });
                }
            }
            Kind::Pending(pending) => {
                if let Some(mut write) = pending.take() {
                    let at = self.location.clone();
                    runtime.spawn(async move {
                        write.abandon(&at).await;
                        drop(working);
                    });
                }
            }
        }
    }
}

/// The smallest part S3 takes (but for an upload's last part).
const MIN_PART: u64 = 5 << 20;
/// The largest part S3 takes.
const MAX_PART: u64 = 5 << 30;

/// The size of the next part of an upload that has sent `sent` bytes: S3's least, 5 MiB,
/// until 5 GB are sent, then a thousandth of what was sent (in whole MiB, at most
/// S3's greatest part, 5 GiB). Sizes grow with the file, so that any object S3 takes (5 TiB)
/// fits in its 10,000 parts, while a small file's parts stay small (memory: one part
/// buffered, [`PARTS_IN_FLIGHT`] sending).
pub(crate) fn part_size(sent: u64) -> u64 {
    const MIB: u64 = 1 << 20;
    (sent / 1000)
        .div_ceil(MIB)
        .saturating_mul(MIB)
        .clamp(MIN_PART, MAX_PART)
}

/// A pending upload being filled: parts of [`part_size`] sent as the bytes come, at most
/// [`PARTS_IN_FLIGHT`] at once.
struct PendingWrite {
    store: Arc<dyn PendingUploads>,
    id: MultipartId,
    /// Bytes not yet sent.
    buffer: BytesMut,
    /// Bytes handed to parts.
    sent: u64,
    /// The next part's index.
    next: usize,
    in_flight: JoinSet<object_store::Result<(usize, PartId)>>,
    /// The ids of the parts sent, by index.
    done: Vec<Option<PartId>>,
}

impl PendingWrite {
    async fn write(&mut self, location: &Path, bytes: &[u8]) -> Result<()> {
        self.buffer.extend_from_slice(bytes);
        loop {
            let size = part_size(self.sent);
            if (self.buffer.len() as u64) < size {
                return Ok(());
            }
            let part = self.buffer.split_to(size as usize).freeze();
            self.send(location, part).await?;
        }
    }

    /// Sends `part` as the next part, once fewer than [`PARTS_IN_FLIGHT`] are in flight.
    async fn send(&mut self, location: &Path, part: bytes::Bytes) -> Result<()> {
        while self.in_flight.len() >= PARTS_IN_FLIGHT {
            self.settle_one().await?;
        }
        let (store, at, id, index) = (
            self.store.clone(),
            location.clone(),
            self.id.clone(),
            self.next,
        );
        self.sent += part.len() as u64;
        self.next += 1;
        self.in_flight.spawn(async move {
            let part = store.put_part(&at, &id, index, part.into()).await?;
            Ok((index, part))
        });
        Ok(())
    }

    /// Waits for one part in flight.
    async fn settle_one(&mut self) -> Result<()> {
        let Some(joined) = self.in_flight.join_next().await else {
            return Ok(());
        };
        let (index, part) = joined.map_err(|e| exec_datafusion_err!("a part's upload: {e}"))??;
        if self.done.len() <= index {
            self.done.resize(index + 1, None);
        }
        self.done[index] = Some(part);
        Ok(())
    }

    /// Sends what is left as the last part (an empty file: one empty part) and waits for
    /// every part: the upload, ready to complete.
    async fn send_rest(&mut self, location: &Path) -> Result<Uploaded> {
        if !self.buffer.is_empty() || self.next == 0 {
            let rest = self.buffer.split().freeze();
            self.send(location, rest).await?;
        }
        while !self.in_flight.is_empty() {
            self.settle_one().await?;
        }
        let parts = std::mem::take(&mut self.done)
            .into_iter()
            .map(|p| p.map(|p| p.content_id))
            .collect::<Option<Vec<String>>>()
            .ok_or_else(|| exec_datafusion_err!("{location}: a part's upload is missing"))?;
        Ok(Uploaded {
            id: self.id.clone(),
            parts,
        })
    }

    /// Stops the parts in flight and aborts the upload.
    async fn abandon(&mut self, location: &Path) {
        self.in_flight.shutdown().await;
        let _ = self.store.abort_multipart(location, &self.id).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_s3s_least_for_small_files_and_fit_the_largest_object_in_ten_thousand() {
        assert_eq!(part_size(0), MIN_PART);
        assert_eq!(part_size(4 << 30), MIN_PART);
        assert_eq!(part_size(100 << 30), 103 << 20);
        // S3's largest object, 5 TiB, in parts of these sizes.
        let (mut sent, mut parts) = (0u64, 0u32);
        while sent < 5 << 40 {
            let size = part_size(sent);
            assert!((MIN_PART..=MAX_PART).contains(&size));
            sent += size;
            parts += 1;
        }
        assert!(parts <= 10_000, "{parts} parts");
    }
}
