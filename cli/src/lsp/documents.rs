//! What the server knows: the open documents laid over the disk, one analysis per open
//! document (kept up to date after every change, reusing unchanged files' syntax trees),
//! the workspace folders, and the load options.

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hadoop_record_compiler::backend::Api;
use hadoop_record_compiler::query::{self, Analysis, OverlayFileSystem};
use hadoop_record_compiler::{LoadOptions, ParseCache, RealFileSystem};
use lsp_types::{FileChangeType, FileEvent, TextDocumentContentChangeEvent, Url};

use super::position::LineIndex;

/// Names files by URI: an open document by the URI the client opened it under, any other
/// file by its path.
pub(crate) trait Uris {
    /// The URI the client opened the document at `key` under, if it is open.
    fn open_uri(&self, key: &Path) -> Option<&Url>;

    /// The URI of the file at `key`.
    fn uri(&self, key: &Path) -> Option<Url> {
        match self.open_uri(key) {
            Some(uri) => Some(uri.clone()),
            None => Url::from_file_path(key).ok(),
        }
    }
}

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

    /// Notes that the files of `events` changed on disk (the client watches them): the
    /// documents that read a changed file are analysed again, and every document when a
    /// file was created or deleted (it may be an include that was missing, or one whose
    /// path no longer resolves to the path it was read under). An open document's own file
    /// is not read: the client's text counts.
    pub fn files_changed(&mut self, events: &[FileEvent]) {
        for event in events {
            let key = self.key(&event.uri);
            if self.fs.document(&key).is_some() {
                continue;
            }
            if event.typ != FileChangeType::CHANGED {
                let keys: Vec<PathBuf> = self.documents.keys().cloned().collect();
                for key in keys {
                    self.mark_changed(key);
                }
            }
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
}

impl Uris for World {
    fn open_uri(&self, key: &Path) -> Option<&Url> {
        self.documents.get(key).map(|d| &d.uri)
    }
}

/// Whether `analysis` has the syntax tree of its root `key`.
fn parsed_itself(analysis: &Analysis, key: &Path) -> bool {
    analysis
        .file_id(key)
        .is_some_and(|f| analysis.tree(f).is_some())
}
