//! Files in HDFS and S3: `--s3-endpoint`, and (feature `storage`) reading and writing
//! `hdfs://` and `s3://` URLs where commands take paths. Without the feature, `rcc` hands a
//! command that names a URL to its companion (`rcc-convert`, `rcc-frame`), as it does
//! Parquet.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;

/// Where the help of commands that take URLs says how stores are configured.
pub const STORAGE_HELP: &str = "\
Files may be URLs: hdfs://NAMENODE:PORT/path or hdfs://NAMESERVICE/path (HDFS, through a
native client: no JVM), s3://BUCKET/key (S3 or an S3-compatible store), files, directories
and globs alike. HDFS settings and name services come from HADOOP_CONF_DIR (core-site.xml,
hdfs-site.xml); S3 credentials, region and endpoint from AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION and AWS_ENDPOINT_URL (or
--s3-endpoint). A store that does not answer fails within 30 s naming the URL; output to a
URL appears whole or not at all.";

/// `--s3-endpoint`.
#[derive(Debug, Clone, Default, Args)]
pub struct StorageArgs {
    /// The S3 endpoint for s3:// URLs (an S3-compatible store, e.g. http://127.0.0.1:9000);
    /// default: AWS_ENDPOINT_URL, else AWS's
    #[arg(long, value_name = "URL")]
    pub s3_endpoint: Option<String>,
}

/// The files of `rcc frame` and `rcc convert`: input and output (paths or URLs), and the
/// options of the stores they may be in.
#[derive(Debug, Clone, Default, Args)]
pub struct Files {
    /// Input file (default or `-`: standard input)
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Output file (default or `-`: standard output)
    #[arg(value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub storage: StorageArgs,
}

impl Files {
    /// Whether the input, the output or `other` is named by URL (`hdfs://`, `s3://`),
    /// which needs the `storage` feature.
    pub fn name_url(&self, other: Option<&Path>) -> bool {
        [self.input.as_deref(), self.output.as_deref(), other]
            .into_iter()
            .flatten()
            .any(|p| url_of(p).is_some())
    }

    /// Refuses to write over the input, which creating the output would empty first.
    pub(crate) fn check_distinct(&self) -> Result<(), String> {
        let real = |p: Option<&Path>| {
            p.filter(|p| *p != Path::new("-") && url_of(p).is_none())
                .and_then(|p| p.canonicalize().ok())
        };
        match (real(self.input.as_deref()), real(self.output.as_deref())) {
            (Some(i), Some(o)) if i == o => Err(format!(
                "the output {} is the input: writing it would destroy the input",
                o.display()
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(feature = "storage")]
impl StorageArgs {
    /// The options of the storage layer.
    pub fn options(&self) -> hadoop_record_storage::StorageOptions {
        hadoop_record_storage::StorageOptions::default().with_s3_endpoint(self.s3_endpoint.clone())
    }
}

/// `path` as a URL of a store (`hdfs://…`, `s3://…`), if it is one.
pub fn url_of(path: &Path) -> Option<&str> {
    path.to_str().filter(|p| is_url(p))
}

/// Whether `arg` is a URL of a store (`hdfs://`, `viewfs://`, `s3://`, `s3a://`, `file://`).
pub fn is_url(arg: &str) -> bool {
    // The storage crate's test, repeated here for the light build, which lacks the crate.
    arg.split_once("://").is_some_and(|(scheme, _)| {
        ["hdfs", "viewfs", "s3", "s3a", "file"].contains(&scheme.to_ascii_lowercase().as_str())
    })
}

/// Opens `path` for reading: `None` or `-` is standard input, a URL is read from its store.
pub(crate) fn open_input(
    path: Option<&Path>,
    storage: &StorageArgs,
) -> Result<Box<dyn Read>, String> {
    match path {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(io::stdin().lock())),
        Some(p) if url_of(p).is_some() => open_url(url_of(p).unwrap_or_default(), storage),
        Some(p) => match File::open(p) {
            Ok(f) => Ok(Box::new(f)),
            Err(e) => Err(format!("cannot read {}: {e}", p.display())),
        },
    }
}

#[cfg(feature = "storage")]
fn open_url(url: &str, storage: &StorageArgs) -> Result<Box<dyn Read>, String> {
    Ok(Box::new(hadoop_record_storage::blocking::open(
        url,
        &storage.options(),
    )?))
}

#[cfg(not(feature = "storage"))]
fn open_url(url: &str, _: &StorageArgs) -> Result<Box<dyn Read>, String> {
    Err(no_storage(url))
}

/// The error of a URL in an `rcc` built without the `storage` feature (which hands such
/// commands to a companion: this is reached only where it cannot).
#[cfg(not(feature = "storage"))]
fn no_storage(url: &str) -> String {
    format!(
        "{url}: this rcc reads and writes local files only; HDFS and S3 need the companion \
         commands (cargo install {})",
        crate::companion::PACKAGE
    )
}

/// An output file being written: it is complete only after [`Output::commit`]. A local
/// file is written in place; a file in HDFS or S3 appears at the commit, whole, and not at
/// all if the output is dropped before it (a failed conversion).
pub(crate) struct Output {
    #[cfg(feature = "storage")]
    commit: Option<hadoop_record_storage::Commit>,
}

impl Output {
    /// Makes the output appear (a URL's); call it after the writer has flushed everything.
    pub(crate) fn commit(self) -> Result<(), String> {
        #[cfg(feature = "storage")]
        if let Some(commit) = self.commit {
            return commit.commit().map_err(|e| e.to_string());
        }
        Ok(())
    }
}

/// Creates `path` for writing (`None` or `-`: standard output), unbuffered, and the
/// [`Output`] that completes it.
pub(crate) fn create_output(
    path: Option<&Path>,
    storage: &StorageArgs,
) -> Result<(Box<dyn Write + Send>, Output), String> {
    let local = Output {
        #[cfg(feature = "storage")]
        commit: None,
    };
    // Standard output unlocked (a lock guard cannot go to another thread); the writers
    // above it buffer, so it is locked once per buffer.
    match path {
        None => Ok((Box::new(io::stdout()), local)),
        Some(p) if p == Path::new("-") => Ok((Box::new(io::stdout()), local)),
        Some(p) if url_of(p).is_some() => create_url(url_of(p).unwrap_or_default(), storage),
        Some(p) => match File::create(p) {
            Ok(f) => Ok((Box::new(f), local)),
            Err(e) => Err(format!("cannot write {}: {e}", p.display())),
        },
    }
}

#[cfg(feature = "storage")]
fn create_url(url: &str, storage: &StorageArgs) -> Result<(Box<dyn Write + Send>, Output), String> {
    let upload = hadoop_record_storage::blocking::create(url, &storage.options())?;
    let (writer, commit) = upload.into_shared();
    let output = Output {
        commit: Some(commit),
    };
    Ok((Box::new(writer), output))
}

#[cfg(not(feature = "storage"))]
fn create_url(url: &str, _: &StorageArgs) -> Result<(Box<dyn Write + Send>, Output), String> {
    Err(no_storage(url))
}
