//! `-o DIR/`: a query's result as a dataset, one part file per output partition, each
//! written by the thread that runs its partition, committed as Hadoop's
//! `FileOutputCommitter` commits a job's output:
//!
//! - part files are written under `DIR/_temporary/<query id>/` (hidden: Hadoop, pyarrow and
//!   DuckDB skip names that begin with `_` or `.`);
//! - the job commit moves them into `DIR` as `part-NNNNN-<query id>.<ext>`, then writes the
//!   empty `_SUCCESS` marker;
//! - a failed job removes what it wrote and leaves no visible file and no `_SUCCESS`.
//!
//! A target that holds visible files is refused unless `--overwrite` is given; then the old
//! contents are removed only at the job commit, once every part file is written.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Whether `-o` names a dataset: it ends in `/`, or is an existing directory.
pub(crate) fn is_dataset(output: &Path) -> bool {
    let raw = output.as_os_str().as_encoded_bytes();
    raw.ends_with(b"/")
        || raw.ends_with(std::path::MAIN_SEPARATOR_STR.as_bytes())
        || output.is_dir()
}

/// Whether a directory entry is hidden from a dataset's readers.
fn hidden(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name.starts_with(b"_") || name.starts_with(b".")
}

/// A dataset being written: its directory and where its part files wait for the commit.
#[derive(Debug)]
pub(crate) struct Dataset {
    dir: PathBuf,
    query_id: String,
    staging: PathBuf,
    overwrite: bool,
    /// Whether the directory was made for this job (then a failed job removes it).
    made: bool,
}

impl Dataset {
    /// Checks the target and makes the staging directory.
    pub(crate) fn begin(dir: &Path, overwrite: bool) -> Result<Dataset, String> {
        let shown = dir.display();
        let made = match fs::metadata(dir) {
            Ok(meta) if !meta.is_dir() => {
                return Err(format!("cannot write the dataset {shown}: it is a file"));
            }
            Ok(_) => {
                let visible = visible_entries(dir)
                    .map_err(|e| format!("cannot write the dataset {shown}: {e}"))?;
                if !visible.is_empty() && !overwrite {
                    return Err(format!(
                        "the dataset {shown} exists and is not empty: give --overwrite to \
                         replace its contents, or another directory"
                    ));
                }
                false
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot make the directory {shown}: {e}"))?;
                true
            }
            Err(e) => return Err(format!("cannot write the dataset {shown}: {e}")),
        };
        let query_id = query_id();
        let staging = dir.join("_temporary").join(&query_id);
        fs::create_dir_all(&staging)
            .map_err(|e| format!("cannot make the directory {}: {e}", staging.display()))?;
        Ok(Dataset {
            dir: dir.to_path_buf(),
            query_id,
            staging,
            overwrite,
            made,
        })
    }

    /// The name of partition `partition`'s part file: `part-NNNNN-<query id>.<ext>`.
    pub(crate) fn part_name(&self, partition: usize, extension: &str) -> String {
        format!("part-{partition:05}-{}.{extension}", self.query_id)
    }

    /// Where a part file (a path in the dataset) is written before the commit.
    pub(crate) fn staged(&self, name: &str) -> PathBuf {
        self.staging.join(name)
    }

    /// The job commit: the old contents go (with `--overwrite`), the part files move into
    /// place, then `_SUCCESS` is written.
    pub(crate) fn commit(self, parts: &[String]) -> Result<(), String> {
        let failed = |what: &Path, e: io::Error| format!("cannot commit {}: {e}", what.display());
        if self.overwrite {
            for old in visible_entries(&self.dir).map_err(|e| failed(&self.dir, e))? {
                let removed = if old.is_dir() {
                    fs::remove_dir_all(&old)
                } else {
                    fs::remove_file(&old)
                };
                removed.map_err(|e| failed(&old, e))?;
            }
            let success = self.dir.join("_SUCCESS");
            if success.exists() {
                fs::remove_file(&success).map_err(|e| failed(&success, e))?;
            }
        }
        for name in parts {
            let (from, to) = (self.staged(name), self.dir.join(name));
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| failed(parent, e))?;
            }
            fs::rename(&from, &to).map_err(|e| failed(&to, e))?;
        }
        self.remove_staging();
        let success = self.dir.join("_SUCCESS");
        fs::write(&success, b"").map_err(|e| failed(&success, e))
    }

    /// A failed job: its part files go, and the directory if it was made for it.
    pub(crate) fn abort(self) {
        self.remove_staging();
        if self.made {
            // Only when empty: nothing of anyone else's is removed.
            let _ = fs::remove_dir(&self.dir);
        }
    }

    fn remove_staging(&self) {
        let _ = fs::remove_dir_all(&self.staging);
        // Other jobs' staging directories stay; an empty `_temporary` goes.
        let _ = fs::remove_dir(self.dir.join("_temporary"));
    }
}

/// The entries of `dir` that a dataset's readers see.
fn visible_entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut visible = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if !hidden(&entry.file_name()) {
            visible.push(entry.path());
        }
    }
    visible.sort();
    Ok(visible)
}

/// A query id unique on this machine and unlikely elsewhere: the time in nanoseconds and
/// the process id, in hex.
fn query_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}{:05x}", std::process::id())
}
