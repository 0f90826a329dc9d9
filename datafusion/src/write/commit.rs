//! The job side of a dataset write, as Hadoop's `FileOutputCommitter` commits a job's
//! output: the target is checked before anything runs, the part files wait under
//! `_temporary/<query id>/` (hidden from readers) while the partitions write them, and the
//! job commit moves the files the job's answer names into place, then writes the empty
//! `_SUCCESS`. A failed job leaves nothing visible. Both remove `_temporary/`, and on S3
//! abort the multipart uploads left under it by tasks killed while they wrote, this job's
//! or an earlier one's whose client was killed (as Hadoop's committers clean up a job).
//!
//! The answer names one attempt per partition: the files of an attempt that Ballista ran
//! again (its executor lost) stay in the staging directory and go with it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use futures::StreamExt;
use hadoop_record_storage::{abort_pending_uploads, StorageOptions};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use url::Url;

use super::spec::{child, hidden, DatasetSpec, STAGING};

/// A file a partition wrote (a row of [`written_schema`](super::spec::written_schema)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenFile {
    pub partition: u32,
    /// Relative to the staging directory: `<attempt>/<dirs>part-…`.
    pub staged: String,
    /// Its path in the dataset: `<dirs>part-…`.
    pub file: String,
    pub rows: u64,
}

impl WrittenFile {
    fn attempt(&self) -> &str {
        self.staged.split('/').next().unwrap_or_default()
    }
}

/// The files to commit: of each partition, those of the first attempt the answer names.
pub(crate) fn one_attempt_each(written: Vec<WrittenFile>) -> Vec<WrittenFile> {
    let mut chosen: HashMap<u32, String> = HashMap::new();
    written
        .into_iter()
        .filter(|w| {
            let attempt = chosen
                .entry(w.partition)
                .or_insert_with(|| w.attempt().to_owned());
            attempt == w.attempt()
        })
        .collect()
}

/// A dataset directory being written.
pub(crate) struct Target {
    store: Arc<dyn ObjectStore>,
    /// The directory's URL (for messages), ending in `/`.
    url: String,
    dir: Path,
    /// The directory on this machine, for a local dataset (its empty directories are
    /// removed as files, which object stores do not have).
    local: Option<PathBuf>,
    overwrite: bool,
    /// Whether the directory held nothing at all before the job (a failed job removes it).
    made: bool,
    /// How the store is reached, for the uploads pending under `_temporary/`.
    storage: StorageOptions,
}

impl Target {
    /// Checks that the job may write into `dir` of `store`: refuses a file, and a
    /// directory with visible entries unless `overwrite`.
    pub async fn begin(
        store: Arc<dyn ObjectStore>,
        url: &str,
        dir: Path,
        overwrite: bool,
    ) -> Result<Self, String> {
        let local = url
            .starts_with("file://")
            .then(|| PathBuf::from(format!("/{dir}")));
        if let Some(path) = &local {
            if path.is_file() {
                return Err(format!("cannot write the dataset {url}: it is a file"));
            }
        } else if !dir.as_ref().is_empty() && store.head(&dir).await.is_ok() {
            return Err(format!("cannot write the dataset {url}: it is a file"));
        }
        let (files, dirs) = entries(&store, &dir)
            .await
            .map_err(|e| format!("cannot write the dataset {url}: {e}"))?;
        let visible = files.iter().chain(&dirs).any(|p| !hidden(last(p)));
        if visible && !overwrite {
            return Err(format!(
                "the dataset {url} exists and is not empty: give --overwrite to replace its \
                 contents, or another directory"
            ));
        }
        let made = match &local {
            Some(path) => !path.exists(),
            None => files.is_empty() && dirs.is_empty(),
        };
        Ok(Target {
            store,
            url: url.to_owned(),
            dir,
            local,
            overwrite,
            made,
            storage: StorageOptions::default(),
        })
    }

    /// The same target, its store reached with `storage` (for [`abort_pending_uploads`]).
    pub fn with_storage(mut self, storage: StorageOptions) -> Self {
        self.storage = storage;
        self
    }

    /// The job commit: with `overwrite`, the old contents go; the part files move into
    /// place; `_temporary/` goes; then `_SUCCESS` is written.
    pub async fn commit(&self, spec: &DatasetSpec, files: &[WrittenFile]) -> Result<(), String> {
        let failed = |what: &str, e: String| format!("cannot commit {}{what}: {e}", self.url);
        if self.overwrite {
            let (old, dirs) = entries(&self.store, &self.dir)
                .await
                .map_err(|e| failed("", e))?;
            for path in old.iter().chain(&dirs) {
                let name = last(path);
                if !hidden(name) || name == "_SUCCESS" {
                    self.remove(path).await.map_err(|e| failed(name, e))?;
                }
            }
        }
        let staging = child(&self.dir, &spec.staging());
        for file in files {
            let from = child(&staging, &file.staged);
            let to = child(&self.dir, &file.file);
            self.store
                .rename(&from, &to)
                .await
                .map_err(|e| failed(&file.file, e.to_string()))?;
        }
        self.remove_temporary().await;
        self.store
            .put(&child(&self.dir, "_SUCCESS"), PutPayload::new())
            .await
            .map(drop)
            .map_err(|e| failed("_SUCCESS", e.to_string()))
    }

    /// A failed job: `_temporary/` goes, and the dataset's directory if the job made it.
    pub async fn abort(&self) {
        self.remove_temporary().await;
        self.remove_made_dir().await;
    }

    /// A failed job whose tasks ran on a cluster's executors, some of which may still be
    /// writing (Ballista does not wait for a failed job's other tasks): `_temporary/` is
    /// removed again while files keep appearing in the job's staging directory, until it
    /// has stayed empty for three seconds (at most half a minute).
    pub async fn abort_after_stragglers(&self, spec: &DatasetSpec) {
        self.remove_temporary().await;
        let staging = child(&self.dir, &spec.staging());
        let (mut quiet, mut rounds) = (0, 0);
        while quiet < 3 && rounds < 30 {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            rounds += 1;
            let left = self.store.list(Some(&staging)).next().await.is_some();
            if left {
                quiet = 0;
                self.remove_temporary().await;
            } else {
                quiet += 1;
            }
        }
        self.remove_made_dir().await;
    }

    async fn remove_made_dir(&self) {
        if self.made {
            match &self.local {
                // Only when empty: nothing of anyone else's is removed.
                Some(path) => drop(std::fs::remove_dir(path)),
                None => drop(self.store.delete(&self.dir).await),
            }
        }
    }

    /// Removes `_temporary/`, and on S3 aborts the multipart uploads left under it: as
    /// Hadoop's committers clean up a job (`FileOutputCommitter` deletes all of
    /// `_temporary`, S3A's abort every pending upload under the destination), this job's
    /// leftovers go with those of jobs whose client was killed, which nobody else would
    /// remove (S3 keeps and bills pending uploads forever). Two jobs must not write into one
    /// target at once, as with Hadoop.
    async fn remove_temporary(&self) {
        if let Ok(prefix) = Url::parse(&format!("{}{STAGING}/", self.url)) {
            if let Err(e) = abort_pending_uploads(&prefix, &self.storage).await {
                // The dataset is not harmed: say what may be left, and go on.
                eprintln!("warning: {e}: uploads left under {prefix} may remain");
            }
        }
        let _ = self.remove(&child(&self.dir, STAGING)).await;
    }

    /// Removes the file or directory tree at `path`.
    async fn remove(&self, path: &Path) -> Result<(), String> {
        if let Some(root) = &self.local {
            let relative = path
                .as_ref()
                .strip_prefix(self.dir.as_ref())
                .unwrap_or(path.as_ref())
                .trim_start_matches('/');
            let local = root.join(relative);
            let removed = if local.is_dir() {
                std::fs::remove_dir_all(&local)
            } else {
                std::fs::remove_file(&local)
            };
            return match removed {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.to_string()),
                _ => Ok(()),
            };
        }
        let mut files = Vec::new();
        let mut dirs = vec![path.clone()];
        // Breadth first: each directory before the ones inside it.
        let mut next = 0;
        while next < dirs.len() {
            let (found, inner) = entries(&self.store, &dirs[next]).await?;
            files.extend(found);
            dirs.extend(inner);
            next += 1;
        }
        if files.is_empty() && dirs.len() == 1 {
            // A file, or nothing.
            return match self.store.delete(path).await {
                Err(object_store::Error::NotFound { .. }) | Ok(()) => Ok(()),
                Err(e) => Err(e.to_string()),
            };
        }
        for file in files {
            match self.store.delete(&file).await {
                Err(object_store::Error::NotFound { .. }) | Ok(()) => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        // Directories (HDFS has them), innermost first; object stores have none to remove.
        for dir in dirs.iter().rev() {
            let _ = self.store.delete(dir).await;
        }
        Ok(())
    }
}

/// The files and directories directly in `dir`.
async fn entries(
    store: &Arc<dyn ObjectStore>,
    dir: &Path,
) -> Result<(Vec<Path>, Vec<Path>), String> {
    let listed = store
        .list_with_delimiter(Some(dir))
        .await
        .map_err(|e| e.to_string())?;
    let files = listed.objects.into_iter().map(|o| o.location).collect();
    Ok((files, listed.common_prefixes))
}

/// The last segment of a path.
fn last(path: &Path) -> &str {
    path.as_ref().rsplit('/').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(partition: u32, staged: &str) -> WrittenFile {
        WrittenFile {
            partition,
            staged: staged.into(),
            file: staged.split_once('/').unwrap().1.into(),
            rows: 1,
        }
    }

    #[test]
    fn one_attempt_of_each_partition_is_committed() {
        let written = vec![
            file(0, "a0/x=1/part-0"),
            file(1, "a1/part-1"),
            file(0, "a0/x=2/part-0"),
            file(0, "b0/x=1/part-0"),
        ];
        let chosen = one_attempt_each(written.clone());
        assert_eq!(chosen, written[..3].to_vec());
    }
}
