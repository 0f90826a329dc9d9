//! [`Upload`]: an object written whole or not at all.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};
use tokio::runtime::Handle;

/// Parts uploading at once; more writes wait for one to finish.
const PARTS_IN_FLIGHT: usize = 4;

/// An object being written, which appears whole when [`commit`](Upload::commit) succeeds
/// and never otherwise: HDFS writes a hidden temporary file beside it (`.NAME.tmp.N`) and
/// renames it into place, S3 completes a multipart upload. Dropped without a commit (an
/// error, a panic), the upload is abandoned: the temporary file deleted, the multipart
/// upload aborted. A process killed outright can leave the hidden temporary file (as
/// Hadoop's committers leave `_temporary`), never a file under the final name.
///
/// Like [`RangeReader`](crate::RangeReader), it waits on the runtime through `handle`.
pub struct Upload {
    writer: Option<WriteMultipart>,
    /// The object's URL, for messages.
    url: String,
    handle: Handle,
}

impl Upload {
    /// Starts writing `location` of `store`, named `url` in errors.
    pub fn start(
        store: &Arc<dyn ObjectStore>,
        location: &Path,
        url: impl Into<String>,
        handle: Handle,
    ) -> io::Result<Self> {
        let url = url.into();
        let upload = handle
            .block_on(store.put_multipart(location))
            .map_err(|e| io::Error::other(format!("cannot write {url}: {e}")))?;
        Ok(Upload {
            writer: Some(WriteMultipart::new(upload)),
            url,
            handle,
        })
    }

    /// Makes the object appear, with every byte written.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("an upload commits once");
        self.handle
            .block_on(writer.finish())
            .map(drop)
            .map_err(|e| io::Error::other(format!("cannot complete {}: {e}", self.url)))
    }

    fn writer(&mut self) -> &mut WriteMultipart {
        self.writer.as_mut().expect("not committed")
    }

    /// The upload as a writer to hand on (to a framing's writer, which keeps it to the end)
    /// and the [`Commit`] that makes the object appear once that writer has flushed.
    pub fn into_shared(self) -> (SharedUpload, Commit) {
        let shared = Arc::new(Mutex::new(Some(self)));
        (SharedUpload(shared.clone()), Commit(shared))
    }
}

/// The writing end of an [`Upload`] split by [`Upload::into_shared`].
#[derive(Debug)]
pub struct SharedUpload(Arc<Mutex<Option<Upload>>>);

impl Write for SharedUpload {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(upload) => upload.write(buf),
            None => Err(io::Error::other("the output was already completed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Completes an [`Upload`] split by [`Upload::into_shared`]; dropped without
/// [`commit`](Commit::commit) (and with the writer gone), the upload is abandoned.
#[derive(Debug)]
pub struct Commit(Arc<Mutex<Option<Upload>>>);

impl Commit {
    /// Makes the object appear, with every byte the writer was given.
    pub fn commit(self) -> io::Result<()> {
        let upload = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        upload.map_or(Ok(()), Upload::commit)
    }
}

impl Write for Upload {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let handle = self.handle.clone();
        handle
            .block_on(self.writer().wait_for_capacity(PARTS_IN_FLIGHT))
            .map_err(io::Error::other)?;
        // Full parts are sent by tasks spawned on the runtime.
        let _entered = handle.enter();
        self.writer().write(buf);
        Ok(buf.len())
    }

    /// Nothing to do: bytes become parts as they fill, and the object appears at the commit.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            // Best effort: what is left of an abandoned upload is never under its name.
            let _ = self.handle.block_on(writer.abort());
        }
    }
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload").field("url", &self.url).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;

    /// A runtime of one worker, its handle, and an empty in-memory store.
    fn memory() -> (tokio::runtime::Runtime, Handle, Arc<dyn ObjectStore>) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let handle = runtime.handle().clone();
        (runtime, handle, Arc::new(InMemory::new()))
    }

    #[test]
    fn an_object_appears_at_the_commit_and_not_before() {
        let (_runtime, handle, store) = memory();
        let path = Path::from("out/a.paddle");
        let mut upload =
            Upload::start(&store, &path, "mem:///out/a.paddle", handle.clone()).unwrap();
        let data: Vec<u8> = (0..=255u8).cycle().take(12 << 20).collect();
        for piece in data.chunks(100_000) {
            upload.write_all(piece).unwrap();
        }
        handle.block_on(store.head(&path)).unwrap_err();
        upload.commit().unwrap();
        let read = handle.block_on(async { store.get(&path).await?.bytes().await });
        assert_eq!(read.unwrap(), data);
    }

    #[test]
    fn an_upload_dropped_before_its_commit_leaves_nothing() {
        let (_runtime, handle, store) = memory();
        let path = Path::from("a");
        let mut upload = Upload::start(&store, &path, "mem:///a", handle.clone()).unwrap();
        upload.write_all(&[1; 6 << 20]).unwrap();
        drop(upload);
        handle.block_on(store.head(&path)).unwrap_err();
    }

    #[test]
    fn a_shared_upload_appears_at_its_commit_or_not_at_all() {
        let (_runtime, handle, store) = memory();
        let (done, dropped) = (Path::from("done"), Path::from("dropped"));
        for (path, commit) in [(&done, true), (&dropped, false)] {
            let upload = Upload::start(&store, path, path.as_ref(), handle.clone()).unwrap();
            let (mut writer, completion) = upload.into_shared();
            writer.write_all(b"records").unwrap();
            drop(writer);
            handle.block_on(store.head(path)).unwrap_err();
            if commit {
                completion.commit().unwrap();
            }
        }
        let read = handle.block_on(async { store.get(&done).await?.bytes().await });
        assert_eq!(read.unwrap().as_ref(), b"records");
        handle.block_on(store.head(&dropped)).unwrap_err();
    }
}
