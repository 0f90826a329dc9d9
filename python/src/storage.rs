//! Files where the data lives: local paths, and `hdfs://`, `viewfs://`, `s3://` and
//! `s3a://` URLs through `hadoop-record-storage` (HDFS by hdfs-native, S3 by object_store,
//! configured by `HADOOP_CONF_DIR` and the `AWS_*` variables, as `rcc` is).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record_compiler::atomic_file::AtomicFile;
use hadoop_record_datafusion::{
    list_files, table_format, with_storage, RecordFormat, RecordTableOptions,
};
use hadoop_record_storage::{blocking, is_url, SharedUpload, StorageOptions};

/// The storage options of the `s3_endpoint=` argument (over `AWS_ENDPOINT_URL`).
pub(crate) fn options(s3_endpoint: Option<String>) -> StorageOptions {
    StorageOptions::default().with_s3_endpoint(s3_endpoint)
}

/// A session whose tables may name files by URL.
pub(crate) fn session(
    config: SessionConfig,
    storage: StorageOptions,
) -> datafusion::common::Result<SessionContext> {
    let runtime = with_storage(RuntimeEnvBuilder::new(), storage).build_arc()?;
    Ok(SessionContext::new_with_config_rt(config, runtime))
}

/// The paths a read names, and how to reach those that are URLs.
pub(crate) struct Inputs {
    /// Paths, directories, globs and URLs, checked ([`crate::options::paths`]).
    pub paths: Vec<String>,
    pub storage: StorageOptions,
}

impl Inputs {
    /// The files, as URLs, in the order a table reads them
    /// ([`hadoop_record_datafusion::list_files`]).
    pub(crate) fn list(&self) -> datafusion::common::Result<Vec<String>> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let ctx = session(SessionConfig::new(), self.storage.clone())?;
        let paths: Vec<&str> = self.paths.iter().map(String::as_str).collect();
        runtime.block_on(list_files(&ctx, &paths))
    }
}

impl Inputs {
    /// The format of a table of these files of the records `options` describe
    /// ([`hadoop_record_datafusion::table_format`]): a framing `auto` found from the first
    /// bytes of the first file, one named checked against them.
    pub(crate) fn format(
        &self,
        options: RecordTableOptions,
    ) -> datafusion::common::Result<RecordFormat> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let ctx = session(SessionConfig::new(), self.storage.clone())?;
        let paths: Vec<&str> = self.paths.iter().map(String::as_str).collect();
        runtime.block_on(table_format(&ctx, options, &paths))
    }
}

/// A listed file ([`hadoop_record_datafusion::list_files`]'s URL) as it is named in
/// messages: a local file by its path, a remote one by its URL.
pub(crate) fn display_name(url: &str) -> &str {
    url.strip_prefix("file://").unwrap_or(url)
}

/// Opens a listed file for reading; errors name it.
pub(crate) fn open(url: &str, storage: &StorageOptions) -> io::Result<Box<dyn Read + Send>> {
    match url.strip_prefix("file://") {
        Some(path) => Ok(Box::new(File::open(path)?)),
        None => Ok(Box::new(
            blocking::open(url, storage).map_err(io::Error::other)?,
        )),
    }
}

/// Makes a written file appear: a URL's upload completed, a local file's hidden temporary
/// renamed over the old file ([`AtomicFile`]).
pub(crate) enum Commit {
    Remote(hadoop_record_storage::Commit),
    Local(AtomicFile),
}

impl Commit {
    /// Makes the file appear, whole; call it once its bytes are flushed. Dropped before,
    /// nothing appears and an old local file stays as it was.
    pub(crate) fn commit(self) -> io::Result<()> {
        match self {
            Commit::Remote(commit) => commit.commit(),
            Commit::Local(file) => file.commit(),
        }
    }
}

/// Creates `path` (a local path or a URL) for writing: the writer of its bytes, and the
/// [`Commit`] that makes the file appear, whole, once they are flushed.
pub(crate) fn create(
    path: &str,
    storage: &StorageOptions,
) -> io::Result<(Box<dyn Write + Send>, Commit)> {
    if is_url(path) && !path.starts_with("file://") {
        let upload = blocking::create(path, storage).map_err(io::Error::other)?;
        let (writer, commit): (SharedUpload, _) = upload.into_shared();
        return Ok((Box::new(writer), Commit::Remote(commit)));
    }
    let local = path.strip_prefix("file://").unwrap_or(path);
    let file = AtomicFile::create(Path::new(local))?;
    let writer = file.file().try_clone()?;
    Ok((Box::new(writer), Commit::Local(file)))
}
