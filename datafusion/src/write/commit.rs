//! The job side of a dataset write, as Hadoop's `FileOutputCommitter` and S3A's committers
//! commit a job's output:
//!
//! - [`Target::begin`] checks the target before anything runs: a file, a directory that
//!   holds more than a dataset, or one with visible entries without `overwrite`, is
//!   refused; so is a target another live job is writing (its lease). Jobs that died
//!   there are cleaned up: a commit they were killed in is finished or undone first.
//!   Then the job takes its lease.
//! - The tasks write their part files: staged under `_temporary/<query id>/` (HDFS, local
//!   disks), or as uploads of their final paths left pending (S3).
//! - [`Target::commit`] checks them, then swaps them in ([`Swap`]): the old dataset is
//!   whole until every new file is in place and checked, then the new one, then
//!   `_SUCCESS`. A failed commit leaves the old dataset as it was.
//! - The job's own staging, lease and pending uploads go at the end, whatever happened;
//!   nobody else's.
//!
//! The answer names one attempt per partition: the files of an attempt that Ballista ran
//! again (its executor lost) stay in the staging directory, or pending, and go with it.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use object_store::path::Path;
use object_store::ObjectStore;

use super::lease::{Held, Lease, LEASE_EXTENSION};
use super::spec::{hidden, query_of_part, DatasetSpec, WrittenFile, STAGING};
use super::swap::{Stuck, Swap, SUCCESS};
use super::tree::Tree;

/// The files to commit: of each partition, those of the first attempt the answer names.
pub(crate) fn one_attempt_each(written: Vec<WrittenFile>) -> Vec<WrittenFile> {
    let mut chosen: HashMap<u32, String> = HashMap::new();
    written
        .into_iter()
        .filter(|w| {
            let attempt = chosen
                .entry(w.partition)
                .or_insert_with(|| w.attempt.clone());
            *attempt == w.attempt
        })
        .collect()
}

/// A dataset directory being written by a job.
pub(crate) struct Target {
    tree: Tree,
    overwrite: bool,
    /// Whether the directory held nothing at all before the job (a failed job removes it).
    made: bool,
    query_id: String,
    /// The job's lease, held (refreshed) until the job ends.
    lease: Held,
    /// What it says.
    leased: Lease,
}

impl Target {
    /// Checks that the job `query_id` may write into `dir` of `store` (named `url`), cleans
    /// up after jobs that died there, and takes the job's lease.
    pub async fn begin(
        store: Arc<dyn ObjectStore>,
        url: &str,
        dir: Path,
        overwrite: bool,
        query_id: &str,
    ) -> Result<Self, String> {
        if overwrite && dir.as_ref().is_empty() {
            return Err(format!(
                "refusing to replace {url}: it is the root of its store; write the dataset \
                 into a directory of its own"
            ));
        }
        let tree = Tree::open(store, url, dir, "dataset").await?;
        let cannot = |e: String| format!("cannot write the dataset {url}: {e}");
        clean_up_after_dead_jobs(&tree, query_id, true).await?;
        let (files, dirs) = tree.entries("").await.map_err(cannot)?;
        let visible: Vec<&str> = files
            .iter()
            .map(|(f, _)| f.as_str())
            .chain(dirs.iter().map(String::as_str))
            .filter(|p| !hidden(last(p)))
            .collect();
        if !visible.is_empty() && !overwrite {
            return Err(
                match not_a_dataset(&tree, &files, &dirs).await.map_err(cannot)? {
                    Some(found) => format!(
                    "the directory {url} is not empty and holds more than a dataset ({found}): \
                     write the dataset into another directory"
                ),
                    None => format!(
                        "the dataset {url} exists and is not empty: give --overwrite to replace \
                     its contents, or another directory"
                    ),
                },
            );
        }
        if overwrite {
            if let Some(found) = not_a_dataset(&tree, &files, &dirs).await.map_err(cannot)? {
                return Err(format!(
                    "refusing to replace {url}: it holds more than a dataset ({found}); \
                     --overwrite replaces only part files, col=value directories, _SUCCESS \
                     and hidden entries: write into another directory, or remove them first"
                ));
            }
        }
        let made = match &tree.local {
            Some(path) => !path.exists(),
            None => files.is_empty() && dirs.is_empty(),
        };
        let target = Target::leased(tree, overwrite, made, query_id)
            .await
            .map_err(cannot)?;
        // Two jobs that began at once both see the other's lease: the later one gives way.
        if let Some(first) = target.earlier_live_job().await {
            target.abort().await;
            return Err(another_job(url, &first));
        }
        Ok(target)
    }

    /// Begins a table write by job `query_id` into `dir` of `store` (named `url`): a file
    /// is refused; jobs that died there are cleaned up; other live jobs are left to write
    /// (the table format orders the commits); the job takes its lease.
    pub async fn begin_table(
        store: Arc<dyn ObjectStore>,
        url: &str,
        dir: Path,
        query_id: &str,
    ) -> Result<Self, String> {
        let tree = Tree::open(store, url, dir, "table").await?;
        clean_up_after_dead_jobs(&tree, query_id, false).await?;
        let made = match &tree.local {
            Some(path) => !path.exists(),
            None => tree
                .entries("")
                .await
                .is_ok_and(|(f, d)| f.is_empty() && d.is_empty()),
        };
        Target::leased(tree, false, made, query_id)
            .await
            .map_err(|e| format!("cannot write the table {url}: {e}"))
    }

    /// The target of job `query_id` in `tree`, its lease taken.
    async fn leased(
        tree: Tree,
        overwrite: bool,
        made: bool,
        query_id: &str,
    ) -> Result<Self, String> {
        let lease_at = tree.at(&lease_file(query_id));
        let leased = Lease::new(query_id);
        let lease = Held::take(tree.store.clone(), lease_at, leased.clone())
            .await
            .map_err(|e| e.to_string())?;
        Ok(Target {
            tree,
            overwrite,
            made,
            query_id: query_id.to_owned(),
            lease,
            leased,
        })
    }

    /// The target's directory in its store.
    pub fn dir(&self) -> &Path {
        &self.tree.dir
    }

    /// A table write's commit: the part files `files` checked and brought into place,
    /// then `table` commits them. If anything fails, the files are removed: the table is
    /// as it was. The job's staging and lease go in every case.
    pub async fn commit_table(
        &self,
        spec: &DatasetSpec,
        files: &[WrittenFile],
        table: &dyn super::TableCommit,
    ) -> Result<(), String> {
        let url = &self.tree.url;
        let staging = spec.staging();
        let swap = Swap::new(&staging, files, Vec::new(), false);
        let placed = async {
            self.lease.check()?;
            self.check_staged(&staging, files).await?;
            swap.bring_in(&self.tree, &vec![false; files.len()]).await
        }
        .await;
        let committed = match placed {
            Ok(()) => {
                let in_place: Vec<super::TableFile> = files.iter().map(table_file).collect();
                table.commit(&in_place).await.map_err(|e| e.to_string())
            }
            Err(e) => Err(format!("cannot commit the table {url}: {e}")),
        };
        if committed.is_err() {
            if let Err(e) = swap.take_out(&self.tree).await {
                eprintln!(
                    "warning: {e}: part files of query {} may remain in {url}, in no commit of \
                     the table (a vacuum removes them)",
                    self.query_id
                );
            }
        }
        self.clean_up().await;
        if committed.is_err() {
            self.remove_made_dir().await;
        }
        committed
    }

    /// The live lease of a job that began before this one, if any.
    async fn earlier_live_job(&self) -> Option<Lease> {
        let ours = (self.leased.started_ms, self.query_id.clone());
        let others = leases(&self.tree, &self.query_id).await.ok()?;
        others
            .into_iter()
            .filter_map(|(_, lease)| lease)
            .filter(|l| l.live() && (l.started_ms, l.query_id.clone()) < ours)
            .min_by_key(|l| l.started_ms)
    }

    /// The job commit: the part files `files` checked, then swapped in for the old dataset
    /// (with `overwrite`) and `_SUCCESS` written. On an error the old dataset is left as it
    /// was, or, where that cannot be (S3, once old objects were deleted), the error says
    /// so and the next job into the target finishes the commit. The job's staging goes in
    /// every case but the last; its lease goes in every case.
    pub async fn commit(&self, spec: &DatasetSpec, files: &[WrittenFile]) -> Result<(), String> {
        let url = &self.tree.url;
        let staging = spec.staging();
        let prepared = async {
            self.lease.check()?;
            self.check_staged(&staging, files).await?;
            let (old, had_success) = match self.overwrite {
                true => self.old_files().await?,
                false => (Vec::new(), false),
            };
            let swap = Swap::new(&staging, files, old, had_success);
            swap.record(&self.tree).await?;
            Ok::<Swap, String>(swap)
        }
        .await;
        let swap = match prepared {
            Ok(swap) => swap,
            Err(e) => {
                self.abort().await;
                return Err(format!("cannot commit {url}: {e}; nothing was changed"));
            }
        };
        let started = std::time::Instant::now();
        match swap.forward(&self.tree, false).await {
            Ok(()) => {
                log::info!(
                    "committed {url}: {} part files in place, {} old files replaced, in {:.3} s",
                    swap.new.len(),
                    swap.old.len(),
                    started.elapsed().as_secs_f64()
                );
                if let Err(e) = swap.forget(&self.tree).await {
                    eprintln!("warning: {e}: the next job into {url} removes it");
                }
                self.remove_emptied_dirs(&swap.old).await;
                self.clean_up().await;
                Ok(())
            }
            Err(Ok(e)) => match swap.back(&self.tree).await {
                Ok(()) => {
                    let _ = swap.forget(&self.tree).await;
                    self.clean_up().await;
                    Err(format!(
                        "cannot commit {url}: {e}; the old contents are as they were"
                    ))
                }
                Err(undo) => {
                    self.release().await;
                    Err(format!(
                        "cannot commit {url}: {e}; undoing the commit failed too ({undo}): \
                         the next job into {url} finishes or undoes it"
                    ))
                }
            },
            Err(Err(Stuck(e))) => {
                self.release().await;
                Err(format!(
                    "cannot finish the commit of {url}: {e}. Every new part file is in place, \
                     but old files may remain and _SUCCESS is not written: the next job \
                     into {url} finishes the commit"
                ))
            }
        }
    }

    /// A failed job: its staging, its pending uploads and its lease go, and the dataset's
    /// directory if the job made it.
    pub async fn abort(&self) {
        self.clean_up().await;
        self.remove_made_dir().await;
    }

    /// A failed job whose tasks ran on a cluster's executors, some of which may still be
    /// writing (Ballista does not wait for a failed job's other tasks): its staging and
    /// pending uploads are removed again while files keep appearing there, until nothing
    /// has appeared for three seconds (at most half a minute).
    pub async fn abort_after_stragglers(&self, spec: &DatasetSpec) {
        self.clean_up().await;
        let (mut quiet, mut rounds) = (0, 0);
        while quiet < 3 && rounds < 30 {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            rounds += 1;
            let staged = self.tree.files(&spec.staging()).await.unwrap_or_default();
            let pending = self.pending_of(&self.query_id).await.unwrap_or_default();
            if staged.is_empty() && pending.is_empty() {
                quiet += 1;
            } else {
                quiet = 0;
                self.clean_up().await;
            }
        }
        self.remove_made_dir().await;
    }

    /// Every staged part file there, of the size its task wrote (HDFS, local disks).
    async fn check_staged(&self, staging: &str, files: &[WrittenFile]) -> Result<(), String> {
        if self.tree.pending.is_some() {
            return Ok(());
        }
        let staged: HashMap<String, u64> = self.tree.files(staging).await?.into_iter().collect();
        for file in files.iter().filter(|f| f.upload.is_none()) {
            let at = format!("{staging}/{}", file.staged());
            if staged.get(&at) != Some(&file.bytes) {
                return Err(format!(
                    "the part file {} is not in {}{staging}/ with the {} bytes its task wrote",
                    file.file, self.tree.url, file.bytes
                ));
            }
        }
        Ok(())
    }

    /// The old dataset's files that an overwrite replaces: the visible files, everything in
    /// the visible (Hive) directories, and whether it has `_SUCCESS`. Hidden entries at the
    /// top stay.
    async fn old_files(&self) -> Result<(Vec<String>, bool), String> {
        let (files, dirs) = self.tree.entries("").await?;
        let had_success = files.iter().any(|(f, _)| f == SUCCESS);
        let mut old: Vec<String> = files
            .into_iter()
            .map(|(f, _)| f)
            .filter(|f| !hidden(f))
            .collect();
        for dir in dirs.iter().filter(|d| !hidden(d)) {
            old.extend(self.tree.files(dir).await?.into_iter().map(|(f, _)| f));
        }
        Ok((old, had_success))
    }

    /// The job's uploads still pending (S3): their paths and ids.
    async fn pending_of(&self, query_id: &str) -> Result<Vec<(Path, String)>, String> {
        pending_of(&self.tree, query_id).await
    }

    /// The directories of the old files, emptied by the swap, removed (where the store has
    /// directories), innermost first.
    async fn remove_emptied_dirs(&self, old: &[String]) {
        let mut dirs = BTreeSet::new();
        for file in old {
            let mut at = file.as_str();
            while let Some((parent, _)) = at.rsplit_once('/') {
                dirs.insert(parent.to_owned());
                at = parent;
            }
        }
        let mut dirs: Vec<String> = dirs.into_iter().collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
        for dir in dirs {
            self.tree.remove_dir(&dir).await;
        }
    }

    /// The job's staging, pending uploads and lease removed; `_temporary/` too if nothing
    /// else is left in it.
    async fn clean_up(&self) {
        self.lease.stop();
        if let Err(e) = remove_job(&self.tree, &self.query_id).await {
            // The dataset is not harmed: say what may be left, and go on.
            eprintln!(
                "warning: {e}: {}{STAGING}/{} may remain (the next job into {} removes it)",
                self.tree.url, self.query_id, self.tree.url
            );
        }
        self.tree.remove_dir(STAGING).await;
    }

    /// The lease gone, the staging kept: for the next job to finish or undo the commit.
    async fn release(&self) {
        self.lease.stop();
        let _ = self.tree.delete(&lease_file(&self.query_id)).await;
    }

    async fn remove_made_dir(&self) {
        if self.made {
            // Only when empty: nothing of anyone else's is removed.
            self.tree.remove_dir("").await;
        }
    }
}

/// A written file as a table's commit takes it.
fn table_file(file: &WrittenFile) -> super::TableFile {
    super::TableFile {
        path: file.file.clone(),
        size: file.bytes,
        rows: file.rows,
        partition_values: file.values.clone(),
        stats: file.stats.as_deref().and_then(super::FileStats::from_json),
    }
}

/// Where job `query_id`'s lease is, relative to the dataset.
fn lease_file(query_id: &str) -> String {
    format!("{STAGING}/{query_id}{LEASE_EXTENSION}")
}

/// The refusal of a target another live job is writing.
fn another_job(url: &str, lease: &Lease) -> String {
    let wait = if lease.on_this_machine() {
        "wait for it to end, or stop it".to_owned()
    } else {
        format!(
            "wait for it to end (if it was stopped, its lease expires {})",
            lease.expires_in()
        )
    };
    format!("another job is writing {url}: {}; {wait}", lease.describe())
}

/// The jobs with a lease or a staging directory in the target but `ours`, with their
/// leases (`None`: none, or unreadable: the job died before it wrote its lease, or is of
/// an older `rcc`).
async fn leases(tree: &Tree, ours: &str) -> Result<Vec<(String, Option<Lease>)>, String> {
    let (files, dirs) = tree.entries(STAGING).await?;
    let mut jobs: BTreeSet<String> = BTreeSet::new();
    for (file, _) in &files {
        if let Some(query) = last(file).strip_suffix(LEASE_EXTENSION) {
            jobs.insert(query.to_owned());
        }
    }
    jobs.extend(dirs.iter().map(|d| last(d).to_owned()));
    if tree.pending.is_some() {
        for (path, _) in pending_of(tree, "").await? {
            if let Some(query) = query_of_upload(&tree.relative(&path)) {
                jobs.insert(query.to_owned());
            }
        }
    }
    jobs.remove(ours);
    let mut found = Vec::new();
    for job in jobs {
        let lease = tree
            .read(&lease_file(&job))
            .await?
            .and_then(|bytes| Lease::parse(&bytes));
        found.push((job, lease));
    }
    Ok(found)
}

/// Refuses a target another live job is writing (with `refuse_live`; else leaves its
/// staging alone); finishes or undoes the commit of a job killed during it, and removes
/// what dead jobs left (staging, lease, pending uploads).
async fn clean_up_after_dead_jobs(
    tree: &Tree,
    ours: &str,
    refuse_live: bool,
) -> Result<(), String> {
    let url = &tree.url;
    let mut jobs = leases(tree, ours)
        .await
        .map_err(|e| format!("cannot write the dataset {url}: {e}"))?;
    if let Some(live) = jobs
        .iter()
        .filter_map(|(_, lease)| lease.as_ref())
        .find(|lease| lease.live())
    {
        if refuse_live {
            return Err(another_job(url, live));
        }
    }
    jobs.retain(|(_, lease)| lease.as_ref().is_none_or(|l| !l.live()));
    for (job, _) in jobs {
        let staging = format!("{STAGING}/{job}");
        let recorded = Swap::recorded(tree, &staging).await;
        let finished = match recorded {
            Ok(Some(swap)) => swap.recover(tree).await.map(Some),
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        match finished {
            Ok(Some(true)) => eprintln!(
                "note: finished the commit of query {job} into {url}, whose process stopped \
                 during it"
            ),
            Ok(Some(false)) => eprintln!(
                "note: undid the commit of query {job} into {url}, whose process stopped \
                 during it"
            ),
            Ok(None) => {}
            Err(e) => {
                return Err(format!(
                    "cannot write the dataset {url}: query {job}, whose process stopped during \
                     its commit, left it half done, and finishing it failed: {e}"
                ))
            }
        }
        remove_job(tree, &job)
            .await
            .map_err(|e| format!("cannot write the dataset {url}: {e}"))?;
    }
    Ok(())
}

/// Removes job `query_id`'s staging directory, its pending uploads and its lease.
async fn remove_job(tree: &Tree, query_id: &str) -> Result<(), String> {
    tree.remove_tree(&format!("{STAGING}/{query_id}")).await?;
    if let Some(pending) = &tree.pending {
        for (path, id) in pending_of(tree, query_id).await? {
            pending
                .abort_multipart(&path, &id)
                .await
                .map_err(|e| format!("cannot abort the upload of {}{}: {e}", tree.url, path))?;
        }
    }
    tree.delete(&lease_file(query_id)).await
}

/// The uploads pending in the target (S3) of job `query_id` (every job's when empty):
/// those of its part files, and those under its staging directory.
async fn pending_of(tree: &Tree, query_id: &str) -> Result<Vec<(Path, String)>, String> {
    let Some(pending) = &tree.pending else {
        return Ok(Vec::new());
    };
    let open = pending
        .list_pending(&tree.dir)
        .await
        .map_err(|e| format!("cannot list the uploads pending in {}: {e}", tree.url))?;
    Ok(open
        .into_iter()
        .filter(|u| {
            let relative = tree.relative(&u.location);
            let query = query_of_upload(&relative);
            query.is_some() && (query_id.is_empty() || query == Some(query_id))
        })
        .map(|u| (u.location, u.id))
        .collect())
}

/// The job of an upload at `relative` (to the dataset): under `_temporary/<query id>/`, or
/// of a part file named after its query.
fn query_of_upload(relative: &str) -> Option<&str> {
    if let Some(rest) = relative.strip_prefix(&format!("{STAGING}/")) {
        return rest
            .split('/')
            .next()
            .filter(|q| !q.is_empty() && rest.contains('/'));
    }
    query_of_part(last(relative))
}

/// The first few entries (at most three) that make the target more than a dataset: a
/// visible file that is not a data file, a visible directory that is not `col=value`
/// (or holds such things), a `_delta_log`. `None`: a dataset.
async fn not_a_dataset(
    tree: &Tree,
    files: &[(String, u64)],
    dirs: &[String],
) -> Result<Option<String>, String> {
    let mut found: Vec<String> = Vec::new();
    for (file, _) in files {
        if !hidden(file) && !is_data_file(file) {
            found.push(file.clone());
        }
    }
    for dir in dirs {
        let name = last(dir);
        if name == "_delta_log" {
            found.push(format!("{dir}/ (a Delta table's log)"));
        } else if hidden(name) {
            continue;
        } else if !is_hive_dir(name) {
            found.push(format!("{dir}/"));
        } else if found.len() < 3 {
            for (file, _) in tree.files(dir).await? {
                let segments: Vec<&str> = file.split('/').collect();
                let (name, parents) = segments.split_last().unwrap_or((&"", &[]));
                let bad_dir = parents.iter().find(|d| !hidden(d) && !is_hive_dir(d));
                if bad_dir.is_some() || !(hidden(name) || is_data_file(name)) {
                    found.push(file.clone());
                    if found.len() >= 3 {
                        break;
                    }
                }
            }
        }
        if found.len() >= 3 {
            break;
        }
    }
    found.truncate(3);
    Ok((!found.is_empty()).then(|| found.join(", ")))
}

/// Whether a file's name is that of a data file: a part file (`part-…`, Hadoop's, Spark's
/// and ours; `part_…`), Hive's (`000000_0`), or a file of a data format by its extension
/// (DuckDB's `data_0.parquet`, pyarrow's `<uuid>-0.parquet`, records' framings),
/// compressed or not.
fn is_data_file(path: &str) -> bool {
    const DATA: &[&str] = &[
        "parquet", "csv", "tsv", "json", "jsonl", "ndjson", "avro", "orc", "arrow", "feather",
        "ipc", "seq", "paddle", "mesos", "v1", "plasma", "xml", "jute", "bin", "recordio",
    ];
    const COMPRESSED: &[&str] = &["gz", "bz2", "zst", "zstd", "lz4", "snappy", "deflate", "xz"];
    let name = last(path);
    if name.starts_with("part-") || name.starts_with("part_") {
        return true;
    }
    let hive = name.split('_').all(|piece| {
        !piece.is_empty() && (piece == "copy" || piece.bytes().all(|b| b.is_ascii_digit()))
    });
    if hive && name.contains('_') {
        return true;
    }
    let mut pieces = name.rsplit('.');
    let mut extension = pieces.next().unwrap_or_default();
    if COMPRESSED.contains(&extension) {
        extension = pieces.next().unwrap_or_default();
    }
    name.contains('.') && DATA.contains(&extension.to_ascii_lowercase().as_str())
}

/// Whether a directory's name is a Hive partition's, `col=value`.
fn is_hive_dir(name: &str) -> bool {
    name.split_once('=').is_some_and(|(col, _)| !col.is_empty())
}

/// The last segment of a path.
fn last(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;
    use object_store::{ObjectStoreExt, PutPayload};

    async fn put(store: &Arc<dyn ObjectStore>, path: &str, bytes: &[u8]) {
        let payload = PutPayload::from(bytes.to_vec());
        store.put(&Path::from(path), payload).await.unwrap();
    }

    async fn paths(store: &Arc<dyn ObjectStore>) -> Vec<String> {
        use futures::TryStreamExt;
        let mut found: Vec<String> = store
            .list(None)
            .map_ok(|m| m.location.to_string())
            .try_collect()
            .await
            .unwrap();
        found.sort();
        found
    }

    async fn begin(
        store: &Arc<dyn ObjectStore>,
        overwrite: bool,
        q: &str,
    ) -> Result<Target, String> {
        Target::begin(store.clone(), "memory:///d/", Path::from("d"), overwrite, q).await
    }

    #[tokio::test]
    async fn a_target_another_live_job_writes_is_refused_and_a_dead_jobs_staging_is_cleaned() {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let first = begin(&store, false, "first").await.unwrap();
        put(
            &store,
            "d/_temporary/first/attempt-0/part-00000-first.csv",
            b"a\n",
        )
        .await;
        let refused = begin(&store, false, "second").await.err().unwrap();
        assert!(
            refused.starts_with("another job is writing memory:///d/: query first (process "),
            "{refused}"
        );
        assert!(
            refused.ends_with("wait for it to end, or stop it"),
            "{refused}"
        );
        // The first job's process is gone (its lease no longer held), its staging left.
        drop(first);
        let second = begin(&store, false, "second").await.unwrap();
        assert_eq!(paths(&store).await, ["d/_temporary/second.lease"]);
        second.abort().await;
        assert_eq!(paths(&store).await, Vec::<String>::new());
    }

    #[tokio::test]
    async fn a_lease_from_another_machine_is_waited_for_until_it_expires() {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let elsewhere = Lease {
            machine: "elsewhere/1".into(),
            host: "elsewhere".into(),
            ..Lease::new("remote")
        };
        put(&store, "d/_temporary/remote.lease", &elsewhere.to_bytes()).await;
        let refused = begin(&store, false, "local").await.err().unwrap();
        assert!(refused.contains("query remote (process "), "{refused}");
        assert!(
            refused.contains("on elsewhere, started 0 s ago"),
            "{refused}"
        );
        assert!(refused.contains("its lease expires in 60 s"), "{refused}");
        let expired = Lease {
            expires_ms: 1,
            ..elsewhere
        };
        put(&store, "d/_temporary/remote.lease", &expired.to_bytes()).await;
        let target = begin(&store, false, "local").await.unwrap();
        assert_eq!(paths(&store).await, ["d/_temporary/local.lease"]);
        target.abort().await;
    }

    #[tokio::test]
    async fn overwrite_replaces_only_a_dataset() {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        put(&store, "d/part-00000-x.csv", b"n\n1\n").await;
        put(&store, "d/k=1/part-00000-x.csv", b"n\n1\n").await;
        put(&store, "d/_SUCCESS", b"").await;
        put(&store, "d/.part-00000-x.csv.crc", b"crc").await;
        let refused = begin(&store, false, "q").await.err().unwrap();
        assert!(refused.contains("give --overwrite"), "{refused}");
        begin(&store, true, "q").await.unwrap().abort().await;
        for (extra, named) in [
            ("d/web.jr", "web.jr"),
            ("d/src/main.rs", "src/"),
            ("d/k=1/notes.md", "k=1/notes.md"),
            (
                "d/_delta_log/00000.json",
                "_delta_log/ (a Delta table's log)",
            ),
        ] {
            put(&store, extra, b"x").await;
            let before = paths(&store).await;
            for overwrite in [false, true] {
                let refused = begin(&store, overwrite, "q").await.err().unwrap();
                assert!(refused.contains(named), "{refused}");
                assert!(!refused.contains("give --overwrite"), "{refused}");
                assert_eq!(paths(&store).await, before, "nothing touched");
            }
            store.delete(&Path::from(extra)).await.unwrap();
        }
        let root = Target::begin(store.clone(), "memory:///", Path::default(), true, "q").await;
        let refused = root.err().unwrap();
        assert!(refused.contains("it is the root of its store"), "{refused}");
    }

    fn file(partition: u32, attempt: &str, name: &str) -> WrittenFile {
        WrittenFile {
            partition,
            attempt: attempt.into(),
            file: name.into(),
            rows: 1,
            bytes: 1,
            upload: None,
            values: Vec::new(),
            stats: None,
        }
    }

    #[test]
    fn one_attempt_of_each_partition_is_committed() {
        let written = vec![
            file(0, "a0", "x=1/part-0"),
            file(1, "a1", "part-1"),
            file(0, "a0", "x=2/part-0"),
            file(0, "b0", "x=1/part-0"),
        ];
        let chosen = one_attempt_each(written.clone());
        assert_eq!(chosen, written[..3].to_vec());
    }

    #[test]
    fn data_files_and_hive_directories_are_told_from_other_things() {
        for name in [
            "part-00000",
            "part-r-00001",
            "part-00003-18f.snappy.parquet",
            "part-00000-q-c2.csv",
            "data_0.parquet",
            "0f3a-0.parquet",
            "000000_0",
            "000001_0_copy_1",
            "events.csv.gz",
            "k=1/part-1.seq",
        ] {
            assert!(is_data_file(name), "{name}");
        }
        for name in [
            "web.jr",
            "README.md",
            "notes.txt",
            "Cargo.toml",
            "a_b",
            "parquet",
        ] {
            assert!(!is_data_file(name), "{name}");
        }
        assert!(is_hive_dir("day=2024-01-01"));
        assert!(is_hive_dir("k=__HIVE_DEFAULT_PARTITION__"));
        assert!(!is_hive_dir("src"));
        assert!(!is_hive_dir("=x"));
    }

    #[test]
    fn uploads_are_told_by_their_query() {
        assert_eq!(query_of_upload("part-00001-q7.csv"), Some("q7"));
        assert_eq!(query_of_upload("k=1/part-00001-q7-c1.csv"), Some("q7"));
        assert_eq!(
            query_of_upload("_temporary/q6/attempt-0/part-0.csv"),
            Some("q6")
        );
        assert_eq!(query_of_upload("_temporary/q6.lease"), None);
        assert_eq!(query_of_upload("notes/today.csv"), None);
    }
}
