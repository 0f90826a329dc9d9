//! Back ends: code generated from a checked [`crate::Model`]. [`rust`] is the primary one.
//!
//! Every back end produces [`OutputFile`]s; [`write_if_changed`] writes them so that an
//! unchanged file keeps its modification time (and Cargo does not rebuild for nothing).

pub mod rust;

use std::io;
use std::path::{Path, PathBuf};

/// A generated file: where it goes (relative to the output directory) and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Relative to the output directory, e.g. `a/b.rs`.
    pub path: PathBuf,
    /// The file's text.
    pub contents: String,
}

/// Writes `contents` to `path` unless the file already holds exactly that, creating parent
/// directories as needed. Returns whether the file was written.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> io::Result<bool> {
    match std::fs::read(path) {
        Ok(existing) if existing == contents => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, contents)?;
    Ok(true)
}
