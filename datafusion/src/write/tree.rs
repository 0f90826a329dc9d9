//! [`Tree`]: a dataset's directory in its store, named by paths relative to it (`k=1/part-…`),
//! with what a job commit does there: list, move, remove. Files move with the store's
//! atomic rename (HDFS, local disks); directories, which object stores do not have, are
//! removed where the store has them.

use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use hadoop_record_storage::{pending_uploads, PendingUploads};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use super::spec::child;

/// Requests of a commit in flight at once (renames, completions, checks).
pub(crate) const CONCURRENCY: usize = 32;

/// Runs `steps`, [`CONCURRENCY`] at once, each to its end (none is cut short when another
/// fails: a move half done is worse than one not begun); the first error, if any.
pub(crate) async fn all<F>(steps: impl IntoIterator<Item = F>) -> Result<(), String>
where
    F: std::future::Future<Output = Result<(), String>>,
{
    let done: Vec<Result<(), String>> = futures::stream::iter(steps)
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    done.into_iter().collect()
}

/// The files (with their sizes) and the directories directly in a directory.
pub(crate) type Entries = (Vec<(String, u64)>, Vec<String>);

/// A dataset's directory in its store.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    pub store: Arc<dyn ObjectStore>,
    /// The store's pending uploads (S3), with which part files are committed.
    pub pending: Option<Arc<dyn PendingUploads>>,
    /// The directory's URL (for messages), ending in `/`.
    pub url: String,
    pub dir: Path,
    /// The directory on this machine, for a local dataset (whose empty directories are
    /// removed as files are, which object stores do not have).
    pub local: Option<PathBuf>,
}

impl Tree {
    /// The directory `dir` of `store` (named `url`) that a job writes `what` (a dataset, a
    /// table) into; a file there is refused.
    pub async fn open(
        store: Arc<dyn ObjectStore>,
        url: &str,
        dir: Path,
        what: &str,
    ) -> Result<Tree, String> {
        let local = url
            .starts_with("file://")
            .then(|| PathBuf::from(format!("/{dir}")));
        let is_file = match &local {
            Some(path) => path.is_file(),
            None => !dir.as_ref().is_empty() && store.head(&dir).await.is_ok(),
        };
        if is_file {
            return Err(format!("cannot write the {what} {url}: it is a file"));
        }
        Ok(Tree {
            pending: pending_uploads(&store),
            store,
            url: url.to_owned(),
            dir,
            local,
        })
    }

    /// The path of `relative` in the store.
    pub fn at(&self, relative: &str) -> Path {
        child(&self.dir, relative)
    }

    /// `path` relative to the directory.
    pub fn relative(&self, path: &Path) -> String {
        path.as_ref()
            .strip_prefix(self.dir.as_ref())
            .unwrap_or(path.as_ref())
            .trim_start_matches('/')
            .to_owned()
    }

    /// Every file under `relative` (the whole tree when empty), with its size.
    pub async fn files(&self, relative: &str) -> Result<Vec<(String, u64)>, String> {
        let prefix = self.at(relative);
        self.store
            .list(Some(&prefix))
            .map_ok(|meta| (self.relative(&meta.location), meta.size))
            .try_collect()
            .await
            .map_err(|e| e.to_string())
    }

    /// The files (with their sizes) and directories directly in `relative`.
    pub async fn entries(&self, relative: &str) -> Result<Entries, String> {
        let listed = self
            .store
            .list_with_delimiter(Some(&self.at(relative)))
            .await
            .map_err(|e| e.to_string())?;
        let files = listed
            .objects
            .iter()
            .map(|o| (self.relative(&o.location), o.size))
            .collect();
        let dirs = listed
            .common_prefixes
            .iter()
            .map(|p| self.relative(p))
            .collect();
        Ok((files, dirs))
    }

    /// The size of the file `relative`; `None` if there is none.
    pub async fn size(&self, relative: &str) -> Result<Option<u64>, String> {
        match self.store.head(&self.at(relative)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The bytes of the file `relative`; `None` if there is none.
    pub async fn read(&self, relative: &str) -> Result<Option<Bytes>, String> {
        let got = match self.store.get(&self.at(relative)).await {
            Ok(got) => got,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        got.bytes().await.map(Some).map_err(|e| e.to_string())
    }

    /// Writes the file `relative` whole.
    pub async fn put(&self, relative: &str, bytes: impl Into<PutPayload>) -> Result<(), String> {
        self.store
            .put(&self.at(relative), bytes.into())
            .await
            .map(drop)
            .map_err(|e| format!("cannot write {}{relative}: {e}", self.url))
    }

    /// Moves the file `from` to `to`, which must not exist (the store's atomic rename). A
    /// move that was cut short half way where the store moves in two steps (a local disk
    /// links, then unlinks) is finished: `to` already there, of `from`'s size, is the same
    /// file, and `from` goes.
    pub async fn rename(&self, from: &str, to: &str) -> Result<(), String> {
        let moved = self
            .store
            .rename_if_not_exists(&self.at(from), &self.at(to))
            .await;
        match moved {
            Ok(()) => Ok(()),
            Err(object_store::Error::AlreadyExists { .. })
                if self.size(from).await? == self.size(to).await? =>
            {
                self.delete(from).await
            }
            Err(e) => Err(format!("cannot move {}{from} to {to}: {e}", self.url)),
        }
    }

    /// Deletes the file `relative`; one that is not there is no error.
    pub async fn delete(&self, relative: &str) -> Result<(), String> {
        match self.store.delete(&self.at(relative)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(format!("cannot delete {}{relative}: {e}", self.url)),
        }
    }

    /// Deletes the files `relative`, in batched requests where the store has them (S3
    /// deletes a thousand objects a request).
    pub async fn delete_all(&self, relative: Vec<String>) -> Result<(), String> {
        let paths: Vec<object_store::Result<Path>> =
            relative.iter().map(|r| Ok(self.at(r))).collect();
        let mut deleted = self
            .store
            .delete_stream(futures::stream::iter(paths).boxed());
        while let Some(done) = deleted.next().await {
            match done {
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(format!("cannot delete in {}: {e}", self.url)),
            }
        }
        Ok(())
    }

    /// Removes the directory `relative` and everything under it.
    pub async fn remove_tree(&self, relative: &str) -> Result<(), String> {
        if let Some(root) = &self.local {
            return match std::fs::remove_dir_all(root.join(relative)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(format!("cannot remove {}{relative}: {e}", self.url))
                }
                _ => Ok(()),
            };
        }
        // Breadth first: each directory before the ones inside it.
        let (mut files, mut dirs) = (Vec::new(), vec![relative.to_owned()]);
        let mut next = 0;
        while next < dirs.len() {
            let (found, inner) = self.entries(&dirs[next]).await?;
            files.extend(found.into_iter().map(|(f, _)| f));
            dirs.extend(inner);
            next += 1;
        }
        self.delete_all(files).await?;
        // Directories (HDFS has them), innermost first; object stores have none.
        for dir in dirs.iter().rev() {
            self.remove_dir(dir).await;
        }
        Ok(())
    }

    /// Removes the directory `relative` if it is empty (where the store has directories).
    pub async fn remove_dir(&self, relative: &str) {
        match &self.local {
            Some(root) => drop(std::fs::remove_dir(root.join(relative))),
            // HDFS refuses to delete a directory that is not empty; object stores have
            // no such object.
            None if self.pending.is_none() => drop(self.store.delete(&self.at(relative)).await),
            None => {}
        }
    }
}
