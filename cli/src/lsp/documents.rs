//! What the server knows: the open documents laid over the disk, one analysis per open
//! document (kept up to date after every change, reusing unchanged files' syntax trees),
//! the workspace's DDL files, and the load options.

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hadoop_record_compiler::backend::Api;
use hadoop_record_compiler::query::{self, Analysis, OverlayFileSystem};
use hadoop_record_compiler::{LoadOptions, ParseCache, RealFileSystem};
use lsp_types::{TextDocumentContentChangeEvent, Url};

use super::position::LineIndex;

/// Most DDL files the workspace scan lists (references, rename and workspace symbols look
/// at them): enough for any real project, and a bound on a scan of a home directory.
const MAX_WORKSPACE_FILES: usize = 10_000;

/// An open document.
#[derive(Debug)]
pub(crate) struct Document {
    /// Its URI, as the client named it.
    pub uri: Url,
    /// The version the client gave its text.
    pub version: i32,
    /// Its analysis, as a root, with what it includes.
    pub analysis: Arc<Analysis>,
    /// The last analysis in which the document itself parsed, for completion while it is
    /// half-typed.
    pub last_parsed: Option<Arc<Analysis>>,
    /// The back ends' names for `analysis`, for hover; built when first needed.
    apis: OnceCell<Api>,
    /// Analysed on opening: the next [`World::refresh`] need not analyse it again.
    fresh: bool,
}

impl Document {
    /// The back ends' names for the document's analysis. Building them names the whole
    /// model, so they are kept until the next change (and the server builds them while it
    /// waits for the client, so that a hover finds them ready).
    pub fn apis(&self) -> &Api {
        self.apis.get_or_init(|| Api::new(self.analysis.model()))
    }
}

/// The server's state, a function of the documents it is fed.
pub(crate) struct World {
    pub fs: OverlayFileSystem<RealFileSystem>,
    pub options: LoadOptions,
    pub cache: ParseCache,
    /// Open documents by key (see [`OverlayFileSystem::key`]).
    pub documents: HashMap<PathBuf, Document>,
    /// Workspace folders, searched for DDL files.
    pub folders: Vec<PathBuf>,
    /// Keys of the files changed since the last [`World::refresh`].
    changed: BTreeSet<PathBuf>,
}

/// A URI as a path: the file's path, or for a document that is not a file (an unsaved
/// buffer) a path naming it that no include can reach.
pub(crate) fn uri_path(uri: &Url) -> PathBuf {
    uri.to_file_path()
        .unwrap_or_else(|()| PathBuf::from(format!("/{}:{}", uri.scheme(), uri.path())))
}

impl World {
    pub fn new(options: LoadOptions, folders: Vec<PathBuf>) -> Self {
        World {
            fs: OverlayFileSystem::new(RealFileSystem),
            options,
            cache: ParseCache::new(),
            documents: HashMap::new(),
            folders,
            changed: BTreeSet::new(),
        }
    }

    /// The key of the document or file at `uri`.
    pub fn key(&self, uri: &Url) -> PathBuf {
        self.fs.key(&uri_path(uri))
    }

    /// The URI of the file at `key`: the client's for an open document.
    pub fn uri(&self, key: &Path) -> Option<Url> {
        match self.documents.get(key) {
            Some(document) => Some(document.uri.clone()),
            None => Url::from_file_path(key).ok(),
        }
    }

    /// Opens (or replaces) the document at `uri`.
    pub fn open(&mut self, uri: Url, version: i32, text: String) {
        let key = self.fs.open(&uri_path(&uri), text);
        let analysis = self.analyze(&key);
        let last_parsed = parsed_itself(&analysis, &key).then(|| analysis.clone());
        self.documents.insert(
            key.clone(),
            Document {
                uri,
                version,
                analysis,
                last_parsed,
                apis: OnceCell::new(),
                fresh: false,
            },
        );
        self.mark_changed(key.clone());
        if let Some(document) = self.documents.get_mut(&key) {
            document.fresh = true;
        }
    }

    /// Notes that the file at `key` changed: every document's analysis may be stale.
    fn mark_changed(&mut self, key: PathBuf) {
        for document in self.documents.values_mut() {
            document.fresh = false;
        }
        self.changed.insert(key);
    }

    /// Applies `changes` to the document at `uri`, in order.
    pub fn change(
        &mut self,
        uri: &Url,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) {
        let key = self.key(uri);
        if let Some(document) = self.documents.get_mut(&key) {
            document.version = version;
        }
        let Some(text) = self.fs.document_mut(&key) else {
            return;
        };
        for change in changes {
            match change.range {
                Some(range) => {
                    let index = LineIndex::new(text);
                    let start = index.offset(range.start);
                    let end = index.offset(range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
                None => *text = change.text,
            }
        }
        self.mark_changed(key);
    }

    /// Closes the document at `uri`: the file on disk counts again.
    pub fn close(&mut self, uri: &Url) {
        let key = self.key(uri);
        self.fs.close(&key);
        self.documents.remove(&key);
        self.mark_changed(key);
    }

    /// Notes that files changed on disk: every document is analysed again.
    pub fn disk_changed(&mut self) {
        let keys: Vec<PathBuf> = self.documents.keys().cloned().collect();
        for key in keys {
            self.mark_changed(key);
        }
    }

    /// The version of the open document at `uri`.
    pub fn version(&self, uri: &Url) -> Option<i32> {
        self.documents.get(&self.key(uri)).map(|d| d.version)
    }

    /// Analyses again every open document that reads a file changed since the last call
    /// (or is one) and returns their keys; `None` when nothing changed.
    pub fn refresh(&mut self) -> Option<Vec<PathBuf>> {
        if self.changed.is_empty() {
            return None;
        }
        let changed = std::mem::take(&mut self.changed);
        let stale: Vec<PathBuf> = self
            .documents
            .iter()
            .filter(|(key, d)| {
                changed.contains(*key) || changed.iter().any(|c| d.analysis.reads(c))
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in &stale {
            if let Some(document) = self.documents.get_mut(key) {
                if std::mem::take(&mut document.fresh) {
                    continue;
                }
            }
            let analysis = self.analyze(key);
            let parsed = parsed_itself(&analysis, key);
            if let Some(document) = self.documents.get_mut(key) {
                if parsed {
                    document.last_parsed = Some(analysis.clone());
                }
                document.analysis = analysis;
                document.apis = OnceCell::new();
            }
        }
        Some(stale)
    }

    fn analyze(&mut self, key: &Path) -> Arc<Analysis> {
        Arc::new(query::analyze(
            &self.fs,
            &[key],
            &self.options,
            &mut self.cache,
        ))
    }

    /// The text of the file at `key`: the open document's, else the file's on disk.
    pub fn text(&self, key: &Path) -> Option<String> {
        match self.fs.document(key) {
            Some(text) => Some(text.to_owned()),
            None => std::fs::read_to_string(key).ok(),
        }
    }

    /// Every DDL file known: the open documents, then the `.jr` files of the workspace
    /// folders (hidden folders, `target` and `node_modules` skipped), each once.
    pub fn known_files(&self) -> Vec<PathBuf> {
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        let mut out = Vec::new();
        for key in self.documents.keys() {
            if seen.insert(key.clone()) {
                out.push(key.clone());
            }
        }
        let mut found = Vec::new();
        for folder in &self.folders {
            scan(folder, &mut found);
        }
        for path in found {
            let key = self.fs.key(&path);
            if seen.insert(key.clone()) {
                out.push(key);
            }
        }
        out
    }
}

/// Whether `analysis` has the syntax tree of its root `key`.
fn parsed_itself(analysis: &Analysis, key: &Path) -> bool {
    analysis
        .file_id(key)
        .is_some_and(|f| analysis.tree(f).is_some())
}

/// Appends the `.jr` files below `dir` to `out`, up to [`MAX_WORKSPACE_FILES`] in all.
fn scan(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
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
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    pending.push(entry.path());
                }
            } else if kind.is_file() && name.ends_with(".jr") {
                if out.len() >= MAX_WORKSPACE_FILES {
                    return;
                }
                out.push(entry.path());
            }
        }
    }
}
