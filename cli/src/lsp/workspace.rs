//! The workspace as a walk sees it (find references, rename, workspace symbols): a copy of
//! the open documents over the disk, taken on the main loop and read on a worker thread.
//! A walk lists the `.jr` files of the workspace folders nearest first, skipping hidden
//! directories, `target` and `node_modules`; it visits at most [`MAX_DIRECTORIES`]
//! directories and lists at most [`MAX_FILES`] files, so that a server started in a home
//! directory still ends its walks.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use hadoop_record_compiler::query::{self, Analysis, OverlayFileSystem};
use hadoop_record_compiler::{LoadOptions, ParseCache, RealFileSystem};
use lsp_server::ResponseError;
use lsp_types::Url;

use super::documents::{Uris, World};
use super::jobs::Cancel;

/// Most directories a walk visits, over all workspace folders: more than a project has,
/// and a bound on a walk of a home directory.
pub(crate) const MAX_DIRECTORIES: usize = 10_000;

/// Most DDL files a walk lists.
pub(crate) const MAX_FILES: usize = 10_000;

/// An open document, as the walk sees it.
struct Open {
    uri: Url,
    version: i32,
    analysis: Arc<Analysis>,
}

/// What a walk reads: the open documents (texts, URIs, versions, analyses) as they were
/// when the request came, over the disk; the load options; the workspace folders.
pub(crate) struct Workspace {
    pub fs: OverlayFileSystem<RealFileSystem>,
    pub options: LoadOptions,
    folders: Vec<PathBuf>,
    open: BTreeMap<PathBuf, Open>,
    /// Parses of the files walks read, shared by the walks (not by the main loop, which
    /// never waits for a walk).
    cache: Arc<Mutex<ParseCache>>,
}

impl Workspace {
    /// A copy of what `world` knows, with the parse cache the walks share.
    pub fn new(world: &World, cache: Arc<Mutex<ParseCache>>) -> Self {
        Workspace {
            fs: world.fs.clone(),
            options: world.options.clone(),
            folders: world.folders.clone(),
            open: world
                .documents
                .iter()
                .map(|(key, d)| {
                    let open = Open {
                        uri: d.uri.clone(),
                        version: d.version,
                        analysis: d.analysis.clone(),
                    };
                    (key.clone(), open)
                })
                .collect(),
            cache,
        }
    }

    /// The parse cache of the walks; waits while another walk reads files.
    pub fn cache(&self) -> MutexGuard<'_, ParseCache> {
        // A walk that panicked left whole entries (each is one insert).
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version of the open document at `key`; `None` for a file that is not open.
    pub fn version(&self, key: &Path) -> Option<i32> {
        self.open.get(key).map(|o| o.version)
    }

    /// The text of the file at `key`: the open document's, else the file's on disk.
    pub fn text(&self, key: &Path) -> Option<String> {
        match self.fs.document(key) {
            Some(text) => Some(text.to_owned()),
            None => std::fs::read_to_string(key).ok(),
        }
    }

    /// Every DDL file known: the open documents, then the `.jr` files of the workspace
    /// folders, each once.
    pub fn known_files(&self, cancel: &Cancel) -> Result<Vec<PathBuf>, ResponseError> {
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        let mut out: Vec<PathBuf> = Vec::new();
        for key in self.open.keys() {
            if seen.insert(key.clone()) {
                out.push(key.clone());
            }
        }
        let mut found = Vec::new();
        let mut budget = MAX_DIRECTORIES;
        for folder in &self.folders {
            if !scan(folder, &mut budget, &mut found, cancel)? {
                bounded(folder);
                break;
            }
        }
        for path in found {
            let key = self.fs.key(&path);
            if seen.insert(key.clone()) {
                out.push(key);
            }
        }
        Ok(out)
    }

    /// An analysis of every DDL file known (open documents first), each as a root: what a
    /// question about the whole workspace looks at.
    pub fn analyses(&self, cancel: &Cancel) -> Result<Vec<Arc<Analysis>>, ResponseError> {
        let files = self.known_files(cancel)?;
        let mut cache = self.cache();
        let mut out = Vec::with_capacity(files.len());
        for key in files {
            cancel.check()?;
            out.push(match self.open.get(&key) {
                Some(open) => open.analysis.clone(),
                None => Arc::new(query::analyze(&self.fs, &[&key], &self.options, &mut cache)),
            });
        }
        Ok(out)
    }
}

impl Uris for Workspace {
    fn open_uri(&self, key: &Path) -> Option<&Url> {
        self.open.get(key).map(|o| &o.uri)
    }
}

/// Appends the `.jr` files below `folder` to `out`, nearest first (a directory's entries
/// in name order), while `budget` directories remain to visit and `out` holds fewer than
/// [`MAX_FILES`]. False when a bound stopped it.
fn scan(
    folder: &Path,
    budget: &mut usize,
    out: &mut Vec<PathBuf>,
    cancel: &Cancel,
) -> Result<bool, ResponseError> {
    let mut pending = VecDeque::from([folder.to_owned()]);
    let mut complete = true;
    while let Some(dir) = pending.pop_front() {
        cancel.check()?;
        if *budget == 0 {
            return Ok(false);
        }
        *budget -= 1;
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if name.starts_with('.') || name == "target" || name == "node_modules" {
                    continue;
                }
                // No more is queued than can be visited.
                if pending.len() < *budget {
                    pending.push_back(entry.path());
                } else {
                    complete = false;
                }
            } else if kind.is_file() && name.ends_with(".jr") {
                if out.len() >= MAX_FILES {
                    return Ok(false);
                }
                out.push(entry.path());
            }
        }
    }
    Ok(complete)
}

/// Says once, on standard error (the editor's log), that a walk stopped at a bound.
fn bounded(folder: &Path) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "rcc lsp: stopped looking for .jr files under `{}` after {MAX_DIRECTORIES} \
             directories or {MAX_FILES} files: references, rename and workspace symbols see \
             only those found; open the project's own folder in the editor instead",
            folder.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_visits_at_most_its_budget_of_directories_nearest_first() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for path in [
            "a.jr",
            "d1/b.jr",
            "d1/deep/c.jr",
            "d2/d.jr",
            "d3/e.jr",
            ".git/x.jr",
            "target/x.jr",
            "node_modules/x.jr",
            "d2/notes.txt",
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "module m { }\n").unwrap();
        }
        let walk = |mut budget: usize| {
            let mut found = Vec::new();
            let complete = scan(root, &mut budget, &mut found, &Cancel::default()).unwrap();
            let found: Vec<String> = found
                .iter()
                .map(|p| p.strip_prefix(root).unwrap().display().to_string())
                .collect();
            (found, complete)
        };
        // Every directory but the skipped ones: 5.
        assert_eq!(
            walk(5),
            (
                ["a.jr", "d1/b.jr", "d2/d.jr", "d3/e.jr", "d1/deep/c.jr"]
                    .map(String::from)
                    .to_vec(),
                true
            )
        );
        // Three: the root and the first two of its folders; it says it stopped.
        assert_eq!(
            walk(3),
            (
                ["a.jr", "d1/b.jr", "d2/d.jr"].map(String::from).to_vec(),
                false
            )
        );
    }
}
