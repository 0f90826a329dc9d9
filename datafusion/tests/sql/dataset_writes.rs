//! Dataset writes against stores that fail, and with many values to lay them out by.
//!
//! Faults: for every request of a kind (put, complete,
//! rename, delete, list, read) of a whole overwrite job and its commit, the N-th fails —
//! before it is done, or after (done, its answer lost) — on a local disk, on a store with
//! renames (as HDFS) and on one with pending uploads (as S3). Afterwards the dataset is the
//! old one, unchanged, or the new one, whole; a mix only without `_SUCCESS`; and the next
//! job into the target succeeds and leaves no staging or pending upload behind.
//!
//! Bounded writers: a partition laid out by a column with many values keeps at most
//! `max_open_files` part files open, and every row is written once.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use bytes::Bytes;
use datafusion::arrow::array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use hadoop_record_datafusion::write::{
    with_dataset_writes, write_dataset, DatasetSpec, JobOptions, PartFormat,
};
use hadoop_record_storage::{attach_pending_uploads, Gate, MemoryUploads, UploadRequest};
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions,
    UploadPart,
};
use url::Url;

/// The kinds of request a fault is put on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// Writes: a whole object, an upload's start, a part.
    Put,
    /// An upload completed.
    Complete,
    Rename,
    /// A deletion, an upload aborted.
    Delete,
    List,
    /// A read or a head.
    Read,
}

const KINDS: [Kind; 6] = [
    Kind::Put,
    Kind::Complete,
    Kind::Rename,
    Kind::Delete,
    Kind::List,
    Kind::Read,
];

/// When the failing request fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    /// Not done.
    Before,
    /// Done, but its answer lost (a store that stops answering once it has acted).
    After,
}

/// Counts requests by kind, and fails the N-th of one kind when armed.
#[derive(Debug, Default)]
struct Faults {
    /// Uploads open now, and the most ever open at once.
    open: AtomicUsize,
    most_open: AtomicUsize,
    counts: Mutex<HashMap<Kind, usize>>,
    armed: Mutex<Option<(Kind, usize, When)>>,
    fired: AtomicUsize,
}

impl Faults {
    fn arm(&self, fault: Option<(Kind, usize, When)>) {
        self.counts.lock().unwrap().clear();
        *self.armed.lock().unwrap() = fault;
        self.fired.store(0, Ordering::SeqCst);
    }

    fn count(&self, kind: Kind) -> usize {
        self.counts.lock().unwrap().get(&kind).copied().unwrap_or(0)
    }

    /// Counts a request of `kind`: whether it fails, and when.
    fn next(&self, kind: Kind) -> Option<When> {
        let mut counts = self.counts.lock().unwrap();
        let n = counts.entry(kind).or_default();
        *n += 1;
        match *self.armed.lock().unwrap() {
            Some((k, at, when)) if k == kind && at == *n => {
                self.fired.fetch_add(1, Ordering::SeqCst);
                Some(when)
            }
            _ => None,
        }
    }

    /// `call` as a request of `kind`: failed before or after it is done, or done.
    async fn call<T>(
        &self,
        kind: Kind,
        call: impl std::future::Future<Output = object_store::Result<T>>,
    ) -> object_store::Result<T> {
        match self.next(kind) {
            Some(When::Before) => Err(injected(kind, When::Before)),
            Some(When::After) => {
                let _ = call.await;
                Err(injected(kind, When::After))
            }
            None => call.await,
        }
    }
}

fn injected(kind: Kind, when: When) -> object_store::Error {
    object_store::Error::Generic {
        store: "faulty",
        source: format!("injected fault: {kind:?} {when:?}").into(),
    }
}

/// A store whose requests go through [`Faults`].
#[derive(Debug)]
struct Faulty {
    inner: Arc<dyn ObjectStore>,
    faults: Arc<Faults>,
}

impl fmt::Display for Faulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Faulty({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Faulty {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        let put = self.inner.put_opts(location, payload, opts);
        self.faults.call(Kind::Put, put).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        let start = self.inner.put_multipart_opts(location, opts);
        let inner = self.faults.call(Kind::Put, start).await?;
        let open = self.faults.open.fetch_add(1, Ordering::SeqCst) + 1;
        self.faults.most_open.fetch_max(open, Ordering::SeqCst);
        Ok(Box::new(FaultyUpload {
            inner,
            faults: self.faults.clone(),
            closed: false,
        }))
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        let get = self.inner.get_opts(location, options);
        self.faults.call(Kind::Read, get).await
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[Range<u64>],
    ) -> object_store::Result<Vec<Bytes>> {
        let get = self.inner.get_ranges(location, ranges);
        self.faults.call(Kind::Read, get).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        let (inner, faults) = (self.inner.clone(), self.faults.clone());
        locations
            .then(move |location| {
                let (inner, faults) = (inner.clone(), faults.clone());
                async move {
                    let location = location?;
                    let at = location.clone();
                    let delete = async move {
                        let mut done = inner.delete_stream(futures::stream::iter([Ok(at)]).boxed());
                        while let Some(item) = done.next().await {
                            item?;
                        }
                        Ok(())
                    };
                    faults.call(Kind::Delete, delete).await.map(|()| location)
                }
            })
            .boxed()
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        let (inner, faults) = (self.inner.clone(), self.faults.clone());
        let prefix = prefix.cloned();
        futures::stream::once(async move {
            let listed = async { inner.list(prefix.as_ref()).try_collect::<Vec<_>>().await };
            faults.call(Kind::List, listed).await
        })
        .map_ok(|found| futures::stream::iter(found.into_iter().map(Ok)))
        .try_flatten()
        .boxed()
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        let list = self.inner.list_with_delimiter(prefix);
        self.faults.call(Kind::List, list).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        let copy = self.inner.copy_opts(from, to, options);
        self.faults.call(Kind::Put, copy).await
    }

    async fn rename_opts(
        &self,
        from: &Path,
        to: &Path,
        options: RenameOptions,
    ) -> object_store::Result<()> {
        let rename = self.inner.rename_opts(from, to, options);
        self.faults.call(Kind::Rename, rename).await
    }
}

/// An upload of [`Faulty`]'s: its parts are puts, its end a completion.
#[derive(Debug)]
struct FaultyUpload {
    inner: Box<dyn MultipartUpload>,
    faults: Arc<Faults>,
    /// Completed or aborted: no longer open.
    closed: bool,
}

impl FaultyUpload {
    fn close(&mut self) {
        if !std::mem::replace(&mut self.closed, true) {
            self.faults.open.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

#[async_trait]
impl MultipartUpload for FaultyUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let part = self.inner.put_part(data);
        let faults = self.faults.clone();
        Box::pin(async move { faults.call(Kind::Put, part).await })
    }

    async fn complete(&mut self) -> object_store::Result<PutResult> {
        self.close();
        let complete = self.inner.complete();
        self.faults.call(Kind::Complete, complete).await
    }

    async fn abort(&mut self) -> object_store::Result<()> {
        self.close();
        let abort = self.inner.abort();
        self.faults.call(Kind::Delete, abort).await
    }
}

/// [`Faults`] on the requests of the pending uploads (as S3 keeps them) of a store.
#[async_trait]
impl Gate for Faults {
    async fn pass<T: Send>(
        &self,
        request: UploadRequest,
        call: BoxFuture<'_, object_store::Result<T>>,
    ) -> object_store::Result<T> {
        let kind = match request {
            UploadRequest::Create | UploadRequest::PutPart => Kind::Put,
            UploadRequest::Complete => Kind::Complete,
            UploadRequest::Abort => Kind::Delete,
            UploadRequest::List => Kind::List,
        };
        self.call(kind, call).await
    }
}

/// Where a test's dataset lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// A local directory (object_store's local file system: atomic renames).
    Local,
    /// A store with renames and no pending uploads, as HDFS.
    Renames,
    /// A store with pending uploads and no renames of its own, as S3.
    Uploads,
}

/// A store of a flavor, what the write sees (faulty) and what the test reads (not).
struct World {
    faults: Arc<Faults>,
    /// What the write uses: faulty.
    store: Arc<dyn ObjectStore>,
    /// The same objects, read without faults.
    plain: Arc<dyn ObjectStore>,
    uploads: Option<Arc<MemoryUploads<Arc<Faults>>>>,
    /// The store's URL (`file://`, `memory://renames`, `s3://uploads`).
    store_url: String,
    /// The dataset's URL, and its directory in the store.
    url: String,
    dir: Path,
    _temp: Option<tempfile::TempDir>,
}

impl World {
    fn new(flavor: Flavor) -> World {
        let faults = Arc::new(Faults::default());
        match flavor {
            Flavor::Local => {
                let temp = tempfile::tempdir().unwrap();
                let root = temp.path().canonicalize().unwrap().join("out");
                let url = Url::from_directory_path(&root).unwrap().to_string();
                let plain: Arc<dyn ObjectStore> = Arc::new(LocalFileSystem::new());
                let store = Arc::new(Faulty {
                    inner: plain.clone(),
                    faults: faults.clone(),
                });
                World {
                    faults,
                    store,
                    plain,
                    uploads: None,
                    store_url: "file://".into(),
                    dir: Path::from(root.to_str().unwrap().trim_start_matches('/')),
                    url,
                    _temp: Some(temp),
                }
            }
            Flavor::Renames | Flavor::Uploads => {
                let memory = Arc::new(InMemory::new());
                let plain: Arc<dyn ObjectStore> = memory.clone();
                let faulty: Arc<dyn ObjectStore> = Arc::new(Faulty {
                    inner: plain.clone(),
                    faults: faults.clone(),
                });
                let (store_url, uploads) = match flavor {
                    Flavor::Renames => ("memory://renames".to_owned(), None),
                    _ => {
                        let uploads = Arc::new(MemoryUploads::new(memory, faults.clone()));
                        ("s3://uploads".to_owned(), Some(uploads))
                    }
                };
                let store = match &uploads {
                    Some(uploads) => attach_pending_uploads(faulty, uploads.clone()),
                    None => faulty,
                };
                World {
                    faults,
                    store,
                    plain,
                    uploads,
                    url: format!("{store_url}/lake/out/"),
                    store_url,
                    dir: Path::from("lake/out"),
                    _temp: None,
                }
            }
        }
    }

    /// Writes `rows` ((k, n) pairs) as a CSV dataset laid out by `k`, over what is there,
    /// by two tasks.
    async fn write(&self, rows: &[(i64, i64)], query_id: &str) -> Result<u64, String> {
        self.write_by(rows, query_id, 2, 64).await
    }

    /// The same by `tasks` tasks keeping at most `max_open` files open.
    async fn write_by(
        &self,
        rows: &[(i64, i64)],
        query_id: &str,
        tasks: usize,
        max_open: usize,
    ) -> Result<u64, String> {
        let config = SessionConfig::new().with_target_partitions(tasks);
        let state = with_dataset_writes(
            SessionStateBuilder::new()
                .with_config(config)
                .with_default_features(),
        )
        .build();
        let ctx = SessionContext::new_with_state(state);
        ctx.register_object_store(&Url::parse(&self.store_url).unwrap(), self.store.clone());
        let schema = Arc::new(Schema::new(vec![
            Field::new("k", DataType::Utf8, false),
            Field::new("n", DataType::Int64, false),
        ]));
        // A partition per task, each with files of several values of k, in batches of 10.
        let halves: Vec<Vec<RecordBatch>> = rows
            .chunks(rows.len().div_ceil(tasks).max(1))
            .map(|half| {
                half.chunks(10)
                    .map(|batch| {
                        let k = batch.iter().map(|(k, _)| format!("v{k}"));
                        let k = StringArray::from_iter_values(k);
                        let n = Int64Array::from_iter_values(batch.iter().map(|(_, n)| *n));
                        let columns: Vec<ArrayRef> = vec![Arc::new(k), Arc::new(n)];
                        RecordBatch::try_new(schema.clone(), columns).unwrap()
                    })
                    .collect()
            })
            .collect();
        let table = MemTable::try_new(schema, halves).unwrap();
        ctx.register_table("t", Arc::new(table)).unwrap();
        let frame = ctx.sql("SELECT k, n FROM t").await.unwrap();
        let spec = DatasetSpec::new(self.url.clone(), query_id, PartFormat::Csv)
            .with_partition_by(vec!["k".into()])
            .with_max_open_files(max_open);
        write_dataset(frame, spec, JobOptions::default().with_overwrite(true))
            .await
            .map_err(|e| e.to_string())
    }

    /// Every object under the dataset, by its path relative to it.
    async fn objects(&self) -> BTreeMap<String, Bytes> {
        let listed: Vec<ObjectMeta> = self
            .plain
            .list(Some(&self.dir))
            .try_collect()
            .await
            .unwrap();
        let mut objects = BTreeMap::new();
        for meta in listed {
            let bytes = self
                .plain
                .get(&meta.location)
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap();
            let relative = meta.location.as_ref()[self.dir.as_ref().len() + 1..].to_owned();
            objects.insert(relative, bytes);
        }
        objects
    }

    /// What readers see: the visible files, and whether `_SUCCESS` is there.
    async fn dataset(&self) -> (BTreeMap<String, Bytes>, bool) {
        let objects = self.objects().await;
        let success = objects.contains_key("_SUCCESS");
        let visible = objects
            .into_iter()
            .filter(|(path, _)| {
                !path
                    .split('/')
                    .any(|s| s.starts_with('_') || s.starts_with('.'))
            })
            .collect();
        (visible, success)
    }

    /// What the write left behind it: staging, leases, pending uploads.
    async fn leftovers(&self) -> Vec<String> {
        let mut left: Vec<String> = self
            .objects()
            .await
            .into_keys()
            .filter(|path| path.starts_with("_temporary"))
            .collect();
        if let Some(uploads) = &self.uploads {
            left.extend(
                uploads
                    .open()
                    .iter()
                    .map(|u| format!("pending upload of {}", u.location)),
            );
        }
        left
    }
}

/// The rows a dataset of [`World::write`] holds: (k, n), sorted.
fn rows_of(visible: &BTreeMap<String, Bytes>) -> Vec<(i64, i64)> {
    let mut rows = Vec::new();
    for (path, bytes) in visible {
        let k: i64 = path
            .split('/')
            .find_map(|s| s.strip_prefix("k=v"))
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("{path} is not in a k= directory"));
        let text = std::str::from_utf8(bytes).unwrap();
        for line in text.lines().skip(1) {
            rows.push((k, line.parse().unwrap()));
        }
    }
    rows.sort_unstable();
    rows
}

fn rows(seed: i64) -> Vec<(i64, i64)> {
    (0..40).map(|i| (i % 3, seed * 1000 + i)).collect()
}

/// The outcome of one faulted overwrite, checked: old or new whole, never neither; a mix
/// only without `_SUCCESS`; then the next job succeeds and leaves nothing behind.
async fn faulted_overwrite(flavor: Flavor, fault: (Kind, usize, When)) -> bool {
    let world = World::new(flavor);
    let (old_rows, new_rows, next_rows) = (rows(1), rows(2), rows(3));
    // Query ids unique in the process, as real ones are.
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let run = RUN.fetch_add(1, Ordering::SeqCst);
    let [q1, q2, q3] = [1, 2, 3].map(|q| format!("r{run}x{q}"));
    world.write(&old_rows, &q1).await.unwrap();
    let (old, old_success) = world.dataset().await;
    assert!(old_success);
    world.faults.arm(Some(fault));
    let result = world.write(&new_rows, &q2).await;
    let fired = world.faults.fired.load(Ordering::SeqCst) > 0;
    world.faults.arm(None);
    let (now, success) = world.dataset().await;
    let context = format!("{flavor:?} {fault:?}: {result:?}\nnow: {:?}", now.keys());
    let old_whole = now == old;
    let new_files: BTreeMap<String, Bytes> = now
        .iter()
        .filter(|(path, _)| path.contains(&format!("-{q2}")))
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect();
    let new_whole = rows_of(&new_files) == sort(&new_rows);
    match &result {
        Ok(rows) => {
            assert_eq!(*rows, new_rows.len() as u64, "{context}");
            assert!(new_whole && new_files == now && success, "{context}");
        }
        Err(e) if e.contains("cannot finish the commit") => {
            // Stuck half way on S3: the new dataset's files are all there (its _SUCCESS
            // too, if only the answer to its write was lost).
            assert!(new_whole, "{context}");
        }
        Err(_) => {
            assert!(old_whole, "the old dataset changed: {context}");
            assert_eq!(success, old_success, "{context}");
        }
    }
    if success {
        assert!(
            old_whole || (new_whole && new_files == now),
            "a mix with _SUCCESS: {context}"
        );
    }
    // The next job into the target finishes or undoes what was left, then writes.
    world
        .write(&next_rows, &q3)
        .await
        .unwrap_or_else(|e| panic!("the next job failed: {e}\n{context}"));
    let (after, success) = world.dataset().await;
    assert!(success, "{context}");
    assert_eq!(rows_of(&after), sort(&next_rows), "{context}");
    let third = format!("-{q3}");
    assert!(
        after.keys().all(|p| p.contains(&third)),
        "{context}: {:?}",
        after.keys()
    );
    assert_eq!(world.leftovers().await, Vec::<String>::new(), "{context}");
    fired
}

fn sort(rows: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut rows = rows.to_vec();
    rows.sort_unstable();
    rows
}

/// For one flavor: the requests of each kind an overwrite makes, then a fault at each.
async fn every_fault(flavor: Flavor) {
    // Counted on a fault-free overwrite.
    let world = World::new(flavor);
    world
        .write(&rows(1), &format!("{flavor:?}c1"))
        .await
        .unwrap();
    world.faults.arm(None);
    world
        .write(&rows(2), &format!("{flavor:?}c2"))
        .await
        .unwrap();
    let counts: Vec<(Kind, usize)> = KINDS.iter().map(|&k| (k, world.faults.count(k))).collect();
    let mut tried = 0;
    for (kind, count) in counts {
        for n in 1..=count {
            for when in [When::Before, When::After] {
                assert!(
                    faulted_overwrite(flavor, (kind, n, when)).await,
                    "{flavor:?}: the fault {kind:?} {n} {when:?} was never met"
                );
                tried += 1;
            }
        }
    }
    assert!(tried > 20, "{flavor:?}: only {tried} faults");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_of_an_overwrite_on_a_local_disk_keeps_one_whole_dataset() {
    every_fault(Flavor::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_of_an_overwrite_on_a_store_with_renames_keeps_one_whole_dataset() {
    every_fault(Flavor::Renames).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_of_an_overwrite_on_a_store_with_pending_uploads_keeps_one_whole_dataset() {
    every_fault(Flavor::Uploads).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_keeps_at_most_max_open_files_open_and_writes_every_row_once() {
    for flavor in [Flavor::Local, Flavor::Renames, Flavor::Uploads] {
        let world = World::new(flavor);
        // 300 values, each in rows far apart: with 8 files open, each value's file is
        // finished and started again many times.
        let rows: Vec<(i64, i64)> = (0..3000).map(|i| (i % 300, i)).collect();
        let written = world.write_by(&rows, "bounded", 1, 8).await.unwrap();
        assert_eq!(written, 3000, "{flavor:?}");
        let (dataset, success) = world.dataset().await;
        assert!(success);
        assert_eq!(rows_of(&dataset), sort(&rows), "{flavor:?}");
        if flavor != Flavor::Uploads {
            let most = world.faults.most_open.load(Ordering::SeqCst);
            assert!(
                (1..=8).contains(&most),
                "{flavor:?}: {most} files open at once"
            );
        }
        // Every value's files: part-00000-<query>.csv, then -c1, -c2, … in turn.
        let v7: Vec<&str> = dataset
            .keys()
            .filter_map(|p| p.strip_prefix("k=v7/"))
            .collect();
        let mut expected: Vec<String> = (0..v7.len())
            .map(|c| match c {
                0 => "part-00000-bounded.csv".to_owned(),
                c => format!("part-00000-bounded-c{c}.csv"),
            })
            .collect();
        expected.sort();
        assert!(v7.len() > 5, "{flavor:?}: {v7:?}");
        assert_eq!(v7, expected, "{flavor:?}");
        assert_eq!(world.leftovers().await, Vec::<String>::new());
    }
}
