//! Pending uploads: multipart uploads begun and filled by one process (a task, where it
//! runs) and completed or aborted by another (the job's commit), as S3A's committers commit
//! a job's output without copying it. Shared by the stores that have them and the dataset
//! writes that use them; it imports neither.
//!
//! DataFusion hands stores out as `Arc<dyn ObjectStore>`, a trait object that cannot be
//! asked for more (object_store's traits have no `as_any`): a store's pending uploads are
//! attached to it here, with [`attach_pending_uploads`], and found again from the store by
//! [`pending_uploads`].

use std::sync::{Arc, Mutex, PoisonError, Weak};

use async_trait::async_trait;
use futures::future::BoxFuture;
use object_store::memory::InMemory;
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{MultipartId, ObjectStore, PutPayload, PutResult, Result};

/// A multipart upload in progress: where it goes, and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingUpload {
    /// The object the upload makes when it is completed.
    pub location: Path,
    /// The upload's id.
    pub id: MultipartId,
}

/// A store whose multipart uploads can stay pending until someone completes them: their
/// parts invisible to readers, the object appearing whole at the completion
/// ([`MultipartStore::complete_multipart`]), in one request whatever its size. Adds the
/// listing of the uploads in progress (S3's `ListMultipartUploads`), which finds those of a
/// process that was killed.
#[async_trait]
pub trait PendingUploads: MultipartStore + std::fmt::Debug {
    /// The uploads in progress whose object's path begins with `prefix` (a directory:
    /// `dir` finds `dir/…`).
    async fn list_pending(&self, prefix: &Path) -> Result<Vec<PendingUpload>>;
}

/// The stores with pending uploads attached, and their uploads.
type Attached = Vec<(Weak<dyn ObjectStore>, Arc<dyn PendingUploads>)>;

static ATTACHED: Mutex<Attached> = Mutex::new(Vec::new());

/// Attaches `pending` (the same store's pending uploads) to `store`, for
/// [`pending_uploads`] to find; answers `store`. Held only as long as the store lives.
pub fn attach_pending_uploads(
    store: Arc<dyn ObjectStore>,
    pending: Arc<dyn PendingUploads>,
) -> Arc<dyn ObjectStore> {
    let mut attached = ATTACHED.lock().unwrap_or_else(PoisonError::into_inner);
    attached.retain(|(weak, _)| weak.strong_count() > 0);
    attached.push((Arc::downgrade(&store), pending));
    store
}

/// The pending uploads of `store` (S3's; `None` for stores without them, which write a
/// file and rename it instead).
pub fn pending_uploads(store: &Arc<dyn ObjectStore>) -> Option<Arc<dyn PendingUploads>> {
    let attached = ATTACHED.lock().unwrap_or_else(PoisonError::into_inner);
    attached.iter().find_map(|(weak, pending)| {
        let live = weak.upgrade()?;
        Arc::ptr_eq(&live, store).then(|| pending.clone())
    })
}

/// The parts of an upload, for [`MultipartStore::complete_multipart`]: their ids (S3's
/// ETags) in order.
pub fn part_ids(etags: impl IntoIterator<Item = String>) -> Vec<PartId> {
    etags
        .into_iter()
        .map(|content_id| PartId { content_id })
        .collect()
}

/// The requests of [`MemoryUploads`], for its [`Gate`] to tell apart.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UploadRequest {
    Create,
    PutPart,
    Complete,
    Abort,
    List,
}

/// What each request of a [`MemoryUploads`] goes through: `()` lets it be; a test's may fail
/// it, before it is done or after.
#[doc(hidden)]
#[async_trait]
pub trait Gate: Send + Sync + std::fmt::Debug + 'static {
    /// `call`, a request of `request`'s kind, done or failed.
    async fn pass<T: Send>(
        &self,
        request: UploadRequest,
        call: BoxFuture<'_, Result<T>>,
    ) -> Result<T>;
}

#[async_trait]
impl Gate for () {
    async fn pass<T: Send>(&self, _: UploadRequest, call: BoxFuture<'_, Result<T>>) -> Result<T> {
        call.await
    }
}

#[async_trait]
impl<G: Gate> Gate for Arc<G> {
    async fn pass<T: Send>(
        &self,
        request: UploadRequest,
        call: BoxFuture<'_, Result<T>>,
    ) -> Result<T> {
        self.as_ref().pass(request, call).await
    }
}

/// Pending uploads of an in-memory store, listed as S3 lists them, each request through a
/// [`Gate`]: a stand-in for S3's in the tests of what uses pending uploads (here and in the
/// dataset writes'), not for use otherwise.
#[doc(hidden)]
#[derive(Debug)]
pub struct MemoryUploads<G = ()> {
    store: Arc<InMemory>,
    open: Mutex<Vec<PendingUpload>>,
    gate: G,
}

impl<G: Gate> MemoryUploads<G> {
    /// The pending uploads of `store`, their requests through `gate`.
    pub fn new(store: Arc<InMemory>, gate: G) -> Self {
        MemoryUploads {
            store,
            open: Mutex::new(Vec::new()),
            gate,
        }
    }

    /// The uploads in progress, found without the gate.
    pub fn open(&self) -> Vec<PendingUpload> {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn opened(&self) -> std::sync::MutexGuard<'_, Vec<PendingUpload>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait]
impl<G: Gate> MultipartStore for MemoryUploads<G> {
    async fn create_multipart(&self, path: &Path) -> Result<MultipartId> {
        let made = async {
            let id = self.store.create_multipart(path).await?;
            self.opened().push(PendingUpload {
                location: path.clone(),
                id: id.clone(),
            });
            Ok(id)
        };
        self.gate.pass(UploadRequest::Create, Box::pin(made)).await
    }

    async fn put_part(
        &self,
        path: &Path,
        id: &MultipartId,
        part_idx: usize,
        data: PutPayload,
    ) -> Result<PartId> {
        let put = self.store.put_part(path, id, part_idx, data);
        self.gate.pass(UploadRequest::PutPart, put).await
    }

    /// Completes an upload in progress; one completed or aborted is not found, as S3's.
    async fn complete_multipart(
        &self,
        path: &Path,
        id: &MultipartId,
        parts: Vec<PartId>,
    ) -> Result<PutResult> {
        let complete = async {
            if !self.opened().iter().any(|u| &u.id == id) {
                return Err(object_store::Error::NotFound {
                    path: path.to_string(),
                    source: "no such upload".into(),
                });
            }
            let done = self.store.complete_multipart(path, id, parts).await?;
            self.opened().retain(|u| &u.id != id);
            Ok(done)
        };
        self.gate
            .pass(UploadRequest::Complete, Box::pin(complete))
            .await
    }

    async fn abort_multipart(&self, path: &Path, id: &MultipartId) -> Result<()> {
        let abort = async {
            self.opened().retain(|u| &u.id != id);
            self.store.abort_multipart(path, id).await
        };
        self.gate.pass(UploadRequest::Abort, Box::pin(abort)).await
    }
}

#[async_trait]
impl<G: Gate> PendingUploads for MemoryUploads<G> {
    async fn list_pending(&self, prefix: &Path) -> Result<Vec<PendingUpload>> {
        let listed = async {
            Ok(self
                .opened()
                .iter()
                .filter(|u| u.location.prefix_matches(prefix))
                .cloned()
                .collect())
        };
        self.gate.pass(UploadRequest::List, Box::pin(listed)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn pending_uploads_are_found_from_their_store_while_it_lives() {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let other: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let listed = Arc::new(MemoryUploads::new(Arc::new(InMemory::new()), ()));
        let store = attach_pending_uploads(store, listed.clone());
        let found = pending_uploads(&store).expect("attached");
        assert!(pending_uploads(&other).is_none());

        let at = Path::from("d/part-0");
        let id = found.create_multipart(&at).await.unwrap();
        let part = found.put_part(&at, &id, 0, "abc".into()).await.unwrap();
        let pending = found.list_pending(&Path::from("d")).await.unwrap();
        assert_eq!(
            pending,
            [PendingUpload {
                location: at.clone(),
                id: id.clone()
            }]
        );
        assert!(found
            .list_pending(&Path::from("e"))
            .await
            .unwrap()
            .is_empty());
        found
            .complete_multipart(&at, &id, vec![part])
            .await
            .unwrap();
        assert!(found
            .list_pending(&Path::from("d"))
            .await
            .unwrap()
            .is_empty());

        // Gone with its store: a new store at the same address is not taken for it.
        drop(found);
        drop(store);
        let again: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        assert!(pending_uploads(&again).is_none());
    }

    #[test]
    fn part_ids_keep_their_order() {
        let ids = part_ids(["\"a\"".to_owned(), "\"b\"".to_owned()]);
        let ids: Vec<_> = ids.into_iter().map(|p| p.content_id).collect();
        assert_eq!(ids, ["\"a\"", "\"b\""]);
    }
}
