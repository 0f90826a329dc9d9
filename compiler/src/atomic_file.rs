//! Files replaced whole: written to a hidden temporary beside the target
//! (`.NAME.XXXXXX.tmp`) and renamed over it only once complete, so that a failure, a full
//! disk or a kill midway leaves the old file as it was. Generated code
//! ([`crate::backend::write_if_changed`]: `rcc`, build scripts), `rcc fmt` and the local
//! output files of the `rcc` commands are written this way.
//!
//! It lives in the compiler because the compiler is the crate both build scripts and the
//! command line use (the command line depends on it, never the other way).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file being written in place of `path`: it appears under its name only at
/// [`AtomicFile::commit`]; dropped before, the temporary is deleted and the old file is
/// left as it was.
///
/// The new file keeps the permissions of the file it replaces (a new file gets the default
/// mode, `0666` less the umask). A symbolic link is followed: the file it names is
/// replaced, the link kept. A target that is not a regular file (`/dev/null`, a FIFO) has
/// nothing to rename over and is written in place.
///
/// ```
/// use std::io::Write;
/// use hadoop_record_compiler::atomic_file::AtomicFile;
/// # let dir = tempfile::tempdir()?;
/// let path = dir.path().join("links.rs");
/// std::fs::write(&path, "old")?;
/// let mut file = AtomicFile::create(&path)?;
/// file.write_all(b"new")?;
/// assert_eq!(std::fs::read(&path)?, b"old");
/// file.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"new");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    /// The temporary, renamed to `target` at the commit.
    Temporary {
        file: tempfile::NamedTempFile,
        target: PathBuf,
    },
    /// A device or a FIFO, written as it is.
    InPlace(File),
}

impl AtomicFile {
    /// Starts writing the file that will replace `path`. Fails, naming the directory, when
    /// no file can be created in it; fails when `path` is a directory, or a file this
    /// process may not write.
    pub fn create(path: &Path) -> io::Result<Self> {
        // The file a symbolic link names, so that the link stays a link.
        let target = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
            }
            _ => path.to_owned(),
        };
        let existing = match fs::metadata(&target) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    format!("{} is a directory", target.display()),
                ))
            }
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new().write(true).open(&target)?;
                return Ok(AtomicFile {
                    inner: Inner::InPlace(file),
                });
            }
            Ok(m) => {
                // A file the user may not write stays an error, as writing it in place was.
                OpenOptions::new().write(true).open(&target)?;
                Some(m.permissions())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map_or_else(Default::default, |n| n.to_string_lossy());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // Never more open than the file it replaces, even while it is written; a new file
        // as `File::create` makes one (tempfile's own default is 0600).
        #[cfg(unix)]
        builder.permissions(
            existing.unwrap_or_else(|| std::os::unix::fs::PermissionsExt::from_mode(0o666)),
        );
        #[cfg(not(unix))]
        let _ = existing;
        let file = builder.tempfile_in(dir).map_err(|e| {
            let shown = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
            io::Error::new(
                e.kind(),
                format!(
                    "cannot create a file in the directory {}: {e}",
                    shown.display()
                ),
            )
        })?;
        Ok(AtomicFile {
            inner: Inner::Temporary { file, target },
        })
    }

    /// The file being written (`&File` is a writer; `try_clone` gives one to own).
    pub fn file(&self) -> &File {
        match &self.inner {
            Inner::Temporary { file, .. } => file.as_file(),
            Inner::InPlace(file) => file,
        }
    }

    /// Makes the file appear under its name, whole: its bytes are synced to disk, it is
    /// given the permissions of the file it replaces, then renamed over it. Anything
    /// buffered above [`AtomicFile::file`] must be flushed first.
    pub fn commit(self) -> io::Result<()> {
        let (file, target) = match self.inner {
            Inner::Temporary { file, target } => (file, target),
            Inner::InPlace(file) => return file.sync_all().or_else(ignore_unsupported),
        };
        file.as_file().sync_all()?;
        match fs::metadata(&target) {
            // Exactly the old mode: unlike the mode a file is created with, this one is not
            // cut by the umask.
            Ok(m) => file.as_file().set_permissions(m.permissions())?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        file.persist(&target).map(drop).map_err(|e| {
            io::Error::new(
                e.error.kind(),
                format!(
                    "cannot rename the finished file to {}: {}",
                    target.display(),
                    e.error
                ),
            )
        })
    }
}

/// Devices and FIFOs may not sync: nothing is lost by that.
fn ignore_unsupported(e: io::Error) -> io::Result<()> {
    match e.kind() {
        io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported => Ok(()),
        _ => Err(e),
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// Replaces the file `path` with `contents`, whole ([`AtomicFile`]): on any error the old
/// file is left as it was.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use fixture_harness::process::listing;

    use super::*;

    #[test]
    fn the_old_file_stays_until_the_commit_and_after_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.jr");
        fs::write(&path, "old text").unwrap();

        // Dropped before the commit (a failure midway): the old file, no temporary.
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"half").unwrap();
        assert_eq!(
            listing(dir.path()).len(),
            2,
            "the hidden temporary beside it"
        );
        let temporary = listing(dir.path())
            .into_iter()
            .find(|n| n != "links.jr")
            .unwrap();
        assert!(
            temporary.starts_with(".links.jr.") && temporary.ends_with(".tmp"),
            "{temporary}"
        );
        assert_eq!(fs::read(&path).unwrap(), b"old text");
        drop(file);
        assert_eq!(fs::read(&path).unwrap(), b"old text");
        assert_eq!(listing(dir.path()), ["links.jr"]);

        // Committed: the new bytes, nothing else.
        write_atomic(&path, b"new text").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new text");
        assert_eq!(listing(dir.path()), ["links.jr"]);

        // A new file.
        write_atomic(&dir.path().join("new.rs"), b"x").unwrap();
        assert_eq!(fs::read(dir.path().join("new.rs")).unwrap(), b"x");
        assert_eq!(listing(dir.path()), ["links.jr", "new.rs"]);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_and_new_files_get_the_default_mode() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jr");
        for kept in [0o640, 0o666, 0o600, 0o755] {
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(kept)).unwrap();
            write_atomic(&path, b"new").unwrap();
            assert_eq!(mode(&path), kept, "{kept:o}");
            assert_eq!(fs::read(&path).unwrap(), b"new");
        }
        // A new file: what `File::create` gives (0666 less the umask), not tempfile's 0600.
        let created = dir.path().join("by-create");
        File::create(&created).unwrap();
        let new = dir.path().join("new.rs");
        write_atomic(&new, b"x").unwrap();
        assert_eq!(mode(&new), mode(&created));

        // A symbolic link: the file it names is replaced, the link kept.
        let link = dir.path().join("link.jr");
        symlink("a.jr", &link).unwrap();
        write_atomic(&link, b"through the link").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"through the link");

        // A device is written in place.
        write_atomic(Path::new("/dev/null"), b"gone").unwrap();
    }

    #[test]
    fn errors_name_what_cannot_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing/a.rs");
        let e = write_atomic(&missing, b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(
            e.to_string().starts_with(&format!(
                "cannot create a file in the directory {}: ",
                dir.path().join("missing").display()
            )),
            "{e}"
        );
        let e = write_atomic(dir.path(), b"x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{} is a directory", dir.path().display())
        );
        assert_eq!(listing(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"x").unwrap();
        // Something else took the name meanwhile: a directory, which no rename replaces.
        fs::create_dir(&path).unwrap();
        fs::write(path.join("kept"), b"kept").unwrap();
        let e = file.commit().unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "cannot rename the finished file to {}: ",
                path.display()
            )),
            "{e}"
        );
        assert_eq!(listing(dir.path()), ["out"]);
        assert_eq!(fs::read(path.join("kept")).unwrap(), b"kept");
    }
}
