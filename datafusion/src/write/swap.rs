//! [`Swap`]: a job commit's journal and its moves — the new part files into place, the old
//! dataset out of it — done so that, whatever fails or is killed at any point, every file
//! of the old dataset or every file of the new one is readable where it belongs, and
//! `_SUCCESS` is there only over a whole dataset.
//!
//! The journal (`_temporary/<query id>/_commit.json`) is written before anything moves. A
//! commit that fails in this process is undone ([`Swap::back`]) where it still can be; one
//! whose process was killed is finished, or undone, by the next job into the same target
//! ([`Swap::recover`]).
//!
//! The moves, in order:
//! 1. `_SUCCESS` goes (HDFS, local: aside, under `_temporary/<query id>/_old/`; S3:
//!    deleted), so that readers who wait for it see no mix.
//! 2. The new files come into place: renamed from the staging directory (HDFS, local), or
//!    their pending uploads completed (S3); then each is checked (its size).
//! 3. The old files go: renamed aside (HDFS, local), or deleted in batched requests (S3).
//! 4. `_SUCCESS` is written.
//!
//! Until 3 begins, the old dataset is whole; from 3 on, the new one. On HDFS and local
//! disks every step can be undone (the old files are aside, not gone); on S3 the deletions
//! cannot, and a commit that fails during them is finished later instead.

use futures::{StreamExt, TryStreamExt};
use hadoop_record_storage::part_ids;
use serde::{Deserialize, Serialize};

use super::spec::{Uploaded, WrittenFile};
use super::tree::{all, Entries, Tree, CONCURRENCY};

/// Where a job's commit journal is, relative to its staging directory.
pub(crate) const JOURNAL: &str = "_commit.json";

/// Where the old files go aside, relative to the job's staging directory.
const ASIDE: &str = "_old";

/// The marker of a whole dataset.
pub(crate) const SUCCESS: &str = "_SUCCESS";

/// A job commit: what comes into place, what goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Swap {
    /// The job's staging directory, relative to the dataset: `_temporary/<query id>`.
    pub staging: String,
    pub new: Vec<NewFile>,
    /// The old dataset's files that go (relative to the dataset), `_SUCCESS` aside.
    pub old: Vec<String>,
    /// Whether the old dataset had `_SUCCESS` (put back if the commit is undone).
    pub had_success: bool,
}

/// A new part file: where it goes, its size, and where it waits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct NewFile {
    pub file: String,
    pub bytes: u64,
    /// Its pending upload (S3); otherwise it waits at `staged`.
    pub upload: Option<Uploaded>,
    /// Relative to the dataset.
    pub staged: String,
}

/// A commit that failed where it could not be undone: the new dataset is (partly) in
/// place, and the job's journal stays for the next job to finish it.
#[derive(Debug)]
pub(crate) struct Stuck(pub String);

impl Swap {
    /// The swap of a job whose staging directory is `staging` and whose tasks wrote
    /// `files`, replacing `old` (and `_SUCCESS` if `had_success`).
    pub fn new(staging: &str, files: &[WrittenFile], old: Vec<String>, had_success: bool) -> Swap {
        let new = files
            .iter()
            .map(|f| NewFile {
                file: f.file.clone(),
                bytes: f.bytes,
                upload: f.upload.clone(),
                staged: format!("{staging}/{}", f.staged()),
            })
            .collect();
        Swap {
            staging: staging.to_owned(),
            new,
            old,
            had_success,
        }
    }

    fn journal(&self) -> String {
        format!("{}/{JOURNAL}", self.staging)
    }

    fn aside(&self, file: &str) -> String {
        format!("{}/{ASIDE}/{file}", self.staging)
    }

    /// Writes the journal: from here on, the commit is finished or undone, never left.
    pub async fn record(&self, tree: &Tree) -> Result<(), String> {
        let text = serde_json::to_vec(self).map_err(|e| e.to_string())?;
        tree.put(&self.journal(), text).await
    }

    /// Removes the journal: the swap is done, or undone.
    pub async fn forget(&self, tree: &Tree) -> Result<(), String> {
        tree.delete(&self.journal()).await
    }

    /// The journal a job left in its staging directory `staging`, if any.
    pub async fn recorded(tree: &Tree, staging: &str) -> Result<Option<Swap>, String> {
        let Some(text) = tree.read(&format!("{staging}/{JOURNAL}")).await? else {
            return Ok(None);
        };
        serde_json::from_slice(&text)
            .map(Some)
            .map_err(|e| format!("{}{staging}/{JOURNAL}: {e}", tree.url))
    }

    /// Makes the new dataset the dataset (the moves above), skipping what is already done
    /// when `resumed`. An error before the old files go is undone by [`back`](Self::back);
    /// one after, on S3, is [`Stuck`].
    pub async fn forward(&self, tree: &Tree, resumed: bool) -> Result<(), Result<String, Stuck>> {
        let mut placed = vec![false; self.new.len()];
        if resumed {
            placed = self.in_place(tree).await.map_err(Ok)?;
            let old_left = self.old_in_place(tree).await.map_err(Ok)?;
            if placed.iter().all(|p| *p) && old_left.is_empty() {
                return tree
                    .put(SUCCESS, Vec::new())
                    .await
                    .map_err(|e| Err(Stuck(e)));
            }
        }
        self.remove_success(tree).await.map_err(Ok)?;
        self.bring_in(tree, &placed).await.map_err(Ok)?;
        // From here on, the new dataset is the one to keep.
        let old = if resumed {
            self.old_in_place(tree).await.map_err(|e| Err(Stuck(e)))?
        } else {
            self.old.clone()
        };
        self.remove_old(tree, old)
            .await
            .map_err(|e| match tree.pending {
                Some(_) => Err(Stuck(e)),
                None => Ok(e),
            })?;
        tree.put(SUCCESS, Vec::new())
            .await
            .map_err(|e| match tree.pending {
                Some(_) => Err(Stuck(e)),
                None => Ok(e),
            })
    }

    /// Undoes the swap: the old files back in place, the new ones removed (S3: their
    /// uploads aborted), `_SUCCESS` back if the old dataset had it.
    pub async fn back(&self, tree: &Tree) -> Result<(), String> {
        if tree.pending.is_none() {
            let aside: Vec<(String, u64)> =
                tree.files(&format!("{}/{ASIDE}", self.staging)).await?;
            let prefix = format!("{}/{ASIDE}/", self.staging);
            let moves = aside.iter().filter_map(|(path, _)| {
                let file = path.strip_prefix(&prefix)?;
                (file != SUCCESS).then(|| tree.rename(path, file))
            });
            all(moves).await?;
        }
        self.take_out(tree).await?;
        if self.had_success {
            tree.put(SUCCESS, Vec::new()).await?;
        }
        Ok(())
    }

    /// Finishes or undoes the swap of a job that was killed during its commit: finished
    /// when every new file is in place or still waiting (staged, or its upload pending),
    /// undone otherwise. Answers whether it was finished.
    pub async fn recover(&self, tree: &Tree) -> Result<bool, String> {
        let placed = self.in_place(tree).await?;
        let waiting = match &tree.pending {
            Some(pending) => {
                let open = pending
                    .list_pending(&tree.dir)
                    .await
                    .map_err(|e| e.to_string())?;
                self.new
                    .iter()
                    .map(|f| {
                        f.upload.as_ref().is_some_and(|u| {
                            open.iter()
                                .any(|o| o.id == u.id && o.location == tree.at(&f.file))
                        })
                    })
                    .collect::<Vec<bool>>()
            }
            None => {
                let staged = tree.files(&self.staging).await?;
                self.new
                    .iter()
                    .map(|f| {
                        staged
                            .iter()
                            .any(|(s, size)| *s == f.staged && *size == f.bytes)
                    })
                    .collect()
            }
        };
        if placed.iter().zip(&waiting).all(|(p, w)| *p || *w) {
            match self.forward(tree, true).await {
                Ok(()) => Ok(true),
                Err(Ok(e)) | Err(Err(Stuck(e))) => Err(e),
            }
        } else {
            self.back(tree).await.map(|()| false)
        }
    }

    /// Brings every new file not `placed` yet into place (renamed, or its upload completed),
    /// then checks them all.
    pub async fn bring_in(&self, tree: &Tree, placed: &[bool]) -> Result<(), String> {
        let moves = self.new.iter().zip(placed).filter(|(_, done)| !**done);
        all(moves.map(|(file, _)| self.place(tree, file))).await?;
        self.check(tree).await
    }

    /// Removes the new files in place, and aborts the uploads of those still pending (S3).
    pub async fn take_out(&self, tree: &Tree) -> Result<(), String> {
        let placed = self.in_place(tree).await?;
        let new: Vec<String> = self
            .new
            .iter()
            .zip(&placed)
            .filter(|(_, placed)| **placed)
            .map(|(f, _)| f.file.clone())
            .collect();
        tree.delete_all(new).await?;
        if let Some(pending) = &tree.pending {
            for (file, upload) in self
                .new
                .iter()
                .filter_map(|f| Some((f, f.upload.as_ref()?)))
            {
                let _ = pending
                    .abort_multipart(&tree.at(&file.file), &upload.id)
                    .await;
            }
        }
        Ok(())
    }

    /// `_SUCCESS` out of the way: aside (HDFS, local) or deleted (S3).
    async fn remove_success(&self, tree: &Tree) -> Result<(), String> {
        if tree.size(SUCCESS).await?.is_none() {
            return Ok(());
        }
        match tree.pending {
            Some(_) => tree.delete(SUCCESS).await,
            None => {
                let aside = self.aside(SUCCESS);
                tree.delete(&aside).await?;
                tree.rename(SUCCESS, &aside).await
            }
        }
    }

    /// Brings `file` into place: its staged file renamed, or its upload completed.
    async fn place(&self, tree: &Tree, file: &NewFile) -> Result<(), String> {
        match (&tree.pending, &file.upload) {
            (Some(pending), Some(upload)) => {
                let parts = part_ids(upload.parts.iter().cloned());
                pending
                    .complete_multipart(&tree.at(&file.file), &upload.id, parts)
                    .await
                    .map(drop)
                    .map_err(|e| format!("cannot complete {}{}: {e}", tree.url, file.file))
            }
            _ => tree.rename(&file.staged, &file.file).await,
        }
    }

    /// Whether each new file is in place, whole: the directories they go to listed (a
    /// request per thousand files in each), not each file asked for.
    async fn in_place(&self, tree: &Tree) -> Result<Vec<bool>, String> {
        let parent = |file: &str| file.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
        let dirs: std::collections::BTreeSet<String> =
            self.new.iter().map(|f| parent(&f.file)).collect();
        let listed: Vec<Entries> = futures::stream::iter(dirs.iter().map(|dir| tree.entries(dir)))
            .buffered(CONCURRENCY)
            .try_collect()
            .await?;
        let sizes: std::collections::HashMap<String, u64> =
            listed.into_iter().flat_map(|(files, _)| files).collect();
        Ok(self
            .new
            .iter()
            .map(|f| sizes.get(&f.file) == Some(&f.bytes))
            .collect())
    }

    /// Every new file in place, of the size its task wrote.
    async fn check(&self, tree: &Tree) -> Result<(), String> {
        let placed = self.in_place(tree).await?;
        match self.new.iter().zip(&placed).find(|(_, placed)| !**placed) {
            Some((file, _)) => Err(format!(
                "{}{} is not in place with the {} bytes its task wrote",
                tree.url, file.file, file.bytes
            )),
            None => Ok(()),
        }
    }

    /// The old files still in place.
    async fn old_in_place(&self, tree: &Tree) -> Result<Vec<String>, String> {
        let found: Vec<Option<u64>> = futures::stream::iter(self.old.iter().map(|f| tree.size(f)))
            .buffered(CONCURRENCY)
            .try_collect()
            .await?;
        Ok(self
            .old
            .iter()
            .zip(found)
            .filter(|(_, size)| size.is_some())
            .map(|(f, _)| f.clone())
            .collect())
    }

    /// The old files out: aside (HDFS, local), or deleted (S3).
    async fn remove_old(&self, tree: &Tree, old: Vec<String>) -> Result<(), String> {
        match tree.pending {
            Some(_) => tree.delete_all(old).await,
            None => {
                all(old
                    .iter()
                    .map(|f| async move { tree.rename(f, &self.aside(f)).await }))
                .await
            }
        }
    }
}
