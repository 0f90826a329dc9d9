//! Documents being edited, laid over a file system: a language server's view of the files.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use crate::load::{normalize, FileSystem};

/// A [`FileSystem`] whose files at some paths hold given texts (the documents open in an
/// editor, saved or not) and elsewhere are `base`'s. A document needs no file on disk.
#[derive(Debug, Clone, Default)]
pub struct OverlayFileSystem<F> {
    base: F,
    documents: HashMap<PathBuf, String>,
}

impl<F: FileSystem> OverlayFileSystem<F> {
    /// `base` with no documents over it.
    pub fn new(base: F) -> Self {
        OverlayFileSystem {
            base,
            documents: HashMap::new(),
        }
    }

    /// The path a document at `path` is kept under: the file's canonical path when it
    /// exists in `base`, else `path` with `.` and `..` resolved.
    pub fn key(&self, path: &Path) -> PathBuf {
        self.base
            .canonicalize(path)
            .unwrap_or_else(|_| normalize(path))
    }

    /// Lays `text` over the file at `path`; returns the key it is kept under.
    pub fn open(&mut self, path: &Path, text: String) -> PathBuf {
        let key = self.key(path);
        self.documents.insert(key.clone(), text);
        key
    }

    /// Removes the document kept under `key`: the file is `base`'s again.
    pub fn close(&mut self, key: &Path) -> Option<String> {
        self.documents.remove(key)
    }

    /// The document kept under `key`.
    pub fn document(&self, key: &Path) -> Option<&str> {
        self.documents.get(key).map(String::as_str)
    }

    /// The document kept under `key`, to edit in place.
    pub fn document_mut(&mut self, key: &Path) -> Option<&mut String> {
        self.documents.get_mut(key)
    }

    /// The keys of every document.
    pub fn documents(&self) -> impl Iterator<Item = &Path> {
        self.documents.keys().map(PathBuf::as_path)
    }

    /// The file system underneath.
    pub fn base(&self) -> &F {
        &self.base
    }
}

impl<F: FileSystem> FileSystem for OverlayFileSystem<F> {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.documents.get(path) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => self.base.read(path),
        }
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        match self.base.canonicalize(path) {
            Ok(canonical) => Ok(canonical),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let path = normalize(path);
                if self.documents.contains_key(&path) {
                    Ok(path)
                } else {
                    Err(e)
                }
            }
            Err(e) => Err(e),
        }
    }
}
