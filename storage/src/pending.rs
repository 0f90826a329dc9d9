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
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{MultipartId, ObjectStore, Result};

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

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;
    use object_store::PutPayload;
    use object_store::PutResult;

    /// In-memory uploads that list themselves.
    #[derive(Debug, Default)]
    struct Listed {
        store: InMemory,
        open: Mutex<Vec<PendingUpload>>,
    }

    #[async_trait]
    impl MultipartStore for Listed {
        async fn create_multipart(&self, path: &Path) -> Result<MultipartId> {
            let id = self.store.create_multipart(path).await?;
            self.open.lock().unwrap().push(PendingUpload {
                location: path.clone(),
                id: id.clone(),
            });
            Ok(id)
        }
        async fn put_part(
            &self,
            path: &Path,
            id: &MultipartId,
            part_idx: usize,
            data: PutPayload,
        ) -> Result<PartId> {
            self.store.put_part(path, id, part_idx, data).await
        }
        async fn complete_multipart(
            &self,
            path: &Path,
            id: &MultipartId,
            parts: Vec<PartId>,
        ) -> Result<PutResult> {
            self.open.lock().unwrap().retain(|u| &u.id != id);
            self.store.complete_multipart(path, id, parts).await
        }
        async fn abort_multipart(&self, path: &Path, id: &MultipartId) -> Result<()> {
            self.open.lock().unwrap().retain(|u| &u.id != id);
            self.store.abort_multipart(path, id).await
        }
    }

    #[async_trait]
    impl PendingUploads for Listed {
        async fn list_pending(&self, prefix: &Path) -> Result<Vec<PendingUpload>> {
            let open = self.open.lock().unwrap();
            Ok(open
                .iter()
                .filter(|u| u.location.prefix_matches(prefix))
                .cloned()
                .collect())
        }
    }

    #[tokio::test]
    async fn pending_uploads_are_found_from_their_store_while_it_lives() {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let other: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let listed = Arc::new(Listed::default());
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
