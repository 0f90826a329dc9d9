//! [`Guarded`]: a store whose calls answer within a deadline and whose errors name the URL.
//!
//! Neither hdfs-native nor a TCP connection gives up on a NameNode that accepted the
//! connection and never answers, and object_store names objects by path alone
//! (`logs/a.seq`), not by the store they are in. This wrapper gives every call a deadline
//! and every error its store's URL, for every store alike.

use std::fmt;
use std::future::Future;
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use futures::StreamExt;
use object_store::path::Path;
use object_store::{
    CopyOptions, Error, GetOptions, GetResult, GetResultPayload, ListResult, MultipartUpload,
    ObjectMeta, ObjectStore, PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions,
    Result,
};

/// How long a store may take to answer one call (a listing, a file's first bytes, each
/// later piece of a read) before the call fails.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// How long S3 may take to complete an upload: it answers at once and keeps the
/// connection alive while it assembles the parts, which can take minutes for large objects.
pub(crate) const COMPLETE_DEADLINE: Duration = Duration::from_secs(600);

/// A store whose every call fails after [`DEADLINE`] without an answer, and whose errors
/// name the store's URL.
#[derive(Debug, Clone)]
pub struct Guarded {
    inner: Arc<dyn ObjectStore>,
    /// The store's URL (`hdfs://nn:8020`), for messages.
    name: Arc<str>,
    deadline: Duration,
}

impl Guarded {
    /// `inner`, named `name` (its URL without a path) in errors.
    pub fn new(inner: Arc<dyn ObjectStore>, name: impl Into<Arc<str>>) -> Self {
        Guarded {
            inner,
            name: name.into(),
            deadline: DEADLINE,
        }
    }

    /// The same store with another deadline.
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// `location` as a URL.
    fn url(&self, location: &Path) -> String {
        format!("{}/{location}", self.name)
    }

    /// `call` on `location`, within the deadline, its error naming the URL.
    async fn call<T>(
        &self,
        location: &Path,
        what: &str,
        call: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        let url = self.url(location);
        match tokio::time::timeout(self.deadline, call).await {
            Ok(result) => result.map_err(|e| named(e, &url)),
            Err(_) => Err(late(&url, what, self.deadline)),
        }
    }

    /// `stream` with a deadline for each item and the URL in its errors.
    fn guard_stream<T: Send + 'static>(
        &self,
        stream: BoxStream<'static, Result<T>>,
        location: String,
        what: &'static str,
    ) -> BoxStream<'static, Result<T>> {
        let deadline = self.deadline;
        futures::stream::unfold(Some(stream), move |stream| {
            let location = location.clone();
            async move {
                let mut stream = stream?;
                match tokio::time::timeout(deadline, stream.next()).await {
                    Ok(Some(Ok(item))) => Some((Ok(item), Some(stream))),
                    Ok(Some(Err(e))) => Some((Err(named(e, &location)), Some(stream))),
                    Ok(None) => None,
                    // Nothing after a late item: the stream ends with the error.
                    Err(_) => Some((Err(late(&location, what, deadline)), None)),
                }
            }
        })
        // Ended, it stays ended: object_store's `bytes()` asks an empty object's stream
        // for a second item.
        .fuse()
        .boxed()
    }
}

/// The error of a call that took longer than `deadline`.
pub(crate) fn late(url: &str, what: &str, deadline: Duration) -> Error {
    Error::Generic {
        store: "storage",
        source: format!(
            "{url}: no answer within {} s while {what}: is the NameNode or endpoint up and reachable?",
            deadline.as_secs()
        )
        .into(),
    }
}

/// `e` with `url` in its message (a missing object keeps its kind, for callers that test it).
pub(crate) fn named(e: Error, url: &str) -> Error {
    /// `e` of one of these kinds, the same kind at `url`.
    macro_rules! at_url {
        ($($kind:ident),*) => {
            match e {
                $(Error::$kind { source, .. } => Error::$kind { path: url.to_owned(), source },)*
                e if e.to_string().contains(url) => e,
                e => Error::Generic {
                    store: "storage",
                    source: format!("{url}: {e}").into(),
                },
            }
        };
    }
    at_url!(NotFound, AlreadyExists, Precondition, NotModified)
}

impl fmt::Display for Guarded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.inner)
    }
}

#[async_trait]
impl ObjectStore for Guarded {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        let put = self.inner.put_opts(location, payload, opts);
        self.call(location, "writing", put).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        let start = self.inner.put_multipart_opts(location, opts);
        self.call(location, "starting to write", start).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        let get = self.inner.get_opts(location, options);
        let mut result = self.call(location, "opening for reading", get).await?;
        if let GetResultPayload::Stream(stream) = result.payload {
            let stream = self.guard_stream(stream, self.url(location), "reading");
            result.payload = GetResultPayload::Stream(stream);
        }
        Ok(result)
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        let get = self.inner.get_ranges(location, ranges);
        self.call(location, "reading", get).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        let deleted = self.inner.delete_stream(locations);
        self.guard_stream(deleted, self.name.to_string(), "deleting")
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        let url = self.url(prefix.unwrap_or(&Path::default()));
        self.guard_stream(self.inner.list(prefix), url, "listing")
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, Result<ObjectMeta>> {
        let url = self.url(prefix.unwrap_or(&Path::default()));
        let listed = self.inner.list_with_offset(prefix, offset);
        self.guard_stream(listed, url, "listing")
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        let prefix_or_root = prefix.cloned().unwrap_or_default();
        let list = self.inner.list_with_delimiter(prefix);
        self.call(&prefix_or_root, "listing", list).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        let copy = self.inner.copy_opts(from, to, options);
        self.call(to, "copying", copy).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
        let rename = self.inner.rename_opts(from, to, options);
        self.call(to, "renaming", rename).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;
    use object_store::ObjectStoreExt;

    #[tokio::test]
    async fn a_missing_object_is_named_by_its_url_and_stays_not_found() {
        let store = Guarded::new(Arc::new(InMemory::new()), "hdfs://nn:8020");
        let e = store.head(&Path::from("logs/a.seq")).await.unwrap_err();
        assert!(matches!(e, Error::NotFound { .. }), "{e:?}");
        assert!(e.to_string().contains("hdfs://nn:8020/logs/a.seq"), "{e}");
    }

    /// A store that never answers.
    #[derive(Debug)]
    struct Silent;

    impl fmt::Display for Silent {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Silent")
        }
    }

    #[async_trait]
    impl ObjectStore for Silent {
        async fn put_opts(&self, _: &Path, _: PutPayload, _: PutOptions) -> Result<PutResult> {
            futures::future::pending().await
        }
        async fn put_multipart_opts(
            &self,
            _: &Path,
            _: PutMultipartOptions,
        ) -> Result<Box<dyn MultipartUpload>> {
            futures::future::pending().await
        }
        async fn get_opts(&self, _: &Path, _: GetOptions) -> Result<GetResult> {
            futures::future::pending().await
        }
        fn delete_stream(
            &self,
            _: BoxStream<'static, Result<Path>>,
        ) -> BoxStream<'static, Result<Path>> {
            futures::stream::pending().boxed()
        }
        fn list(&self, _: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
            futures::stream::pending().boxed()
        }
        async fn list_with_delimiter(&self, _: Option<&Path>) -> Result<ListResult> {
            futures::future::pending().await
        }
        async fn copy_opts(&self, _: &Path, _: &Path, _: CopyOptions) -> Result<()> {
            futures::future::pending().await
        }
    }

    #[tokio::test]
    async fn an_empty_object_is_read_whole() {
        let inner = Arc::new(InMemory::new());
        inner
            .put(&Path::from("_SUCCESS"), PutPayload::new())
            .await
            .unwrap();
        let store = Guarded::new(inner, "hdfs://nn:8020");
        let got = store.get(&Path::from("_SUCCESS")).await.unwrap();
        // InMemory answers with bytes; a stream (HDFS's, S3's) is what the guard wraps.
        let streamed = GetResult {
            payload: GetResultPayload::Stream(store.guard_stream(
                futures::stream::empty().boxed(),
                "x".into(),
                "reading",
            )),
            ..got
        };
        assert!(streamed.bytes().await.unwrap().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_silent_store_fails_at_the_deadline_naming_the_url() {
        let store = Guarded::new(Arc::new(Silent), "s3://bucket");
        let e = store.head(&Path::from("k")).await.unwrap_err().to_string();
        assert!(e.contains("s3://bucket/k: no answer within 20 s"), "{e}");
        let listed: Vec<_> = store.list(Some(&Path::from("dir"))).collect().await;
        assert_eq!(listed.len(), 1);
        let e = listed[0].as_ref().unwrap_err().to_string();
        assert!(
            e.contains("s3://bucket/dir: no answer within 20 s while listing"),
            "{e}"
        );
    }
}
