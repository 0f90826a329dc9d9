//! Files in HDFS and S3: `--s3-endpoint`, and (feature `storage`) reading and writing
//! `hdfs://` and `s3://` URLs where commands take paths. Without the feature, `rcc` hands a
//! command that names a URL to its companion (`rcc-convert`, `rcc-frame`), as it does
//! Parquet.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use hadoop_record_compiler::atomic_file::AtomicFile;

use crate::output_guard::{check_output, OutputKind};
pub use crate::store_url::{is_url, url_of};

/// Where the help of commands that take URLs says how stores are configured.
pub const STORAGE_HELP: &str = "\
Files may be URLs: hdfs://NAMENODE:PORT/path or hdfs://NAMESERVICE/path (HDFS, through a
native client: no JVM) or s3://BUCKET/key (S3 or an S3-compatible store). HDFS settings and
name services come from HADOOP_CONF_DIR (core-site.xml, hdfs-site.xml); S3 credentials,
region and endpoint from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
AWS_REGION and AWS_ENDPOINT_URL (or --s3-endpoint). A store that does not answer fails
within 30 s naming the URL; output to a URL appears whole or not at all.";

/// `--s3-endpoint`.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Stores (hdfs://, s3://)")]
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

    /// Refuses an output that would destroy an input: one that is, or contains, the input,
    /// a DDL file of `ddl`, the working or home directory, `/` or a bucket's root
    /// ([`check_output`]).
    pub(crate) fn check_output(&self, ddl: &[&Path]) -> Result<(), String> {
        let Some(output) = self.output.as_deref() else {
            return Ok(());
        };
        let inputs: Vec<&Path> = self
            .input
            .as_deref()
            .into_iter()
            .chain(ddl.iter().copied())
            .collect();
        check_output(output, OutputKind::File, &inputs)
    }
}

#[cfg(feature = "storage")]
impl StorageArgs {
    /// The options of the storage layer.
    pub fn options(&self) -> hadoop_record_storage::StorageOptions {
        hadoop_record_storage::StorageOptions::default().with_s3_endpoint(self.s3_endpoint.clone())
    }
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

/// An output file being written: it is complete only after [`Output::commit`], and not
/// there at all if the output is dropped before (a failed command). A local file is
/// written to a hidden temporary beside it, renamed over the old file at the commit
/// ([`AtomicFile`]: the old file's permissions kept); a file in HDFS or S3 appears at the
/// commit, whole. Standard output is written as it goes.
pub struct Output(Completion);

enum Completion {
    Stdout,
    Local(AtomicFile, PathBuf),
    #[cfg(feature = "storage")]
    Remote(hadoop_record_storage::Commit),
}

impl Output {
    /// Makes the output appear; call it once the writer has flushed everything.
    pub fn commit(self) -> Result<(), String> {
        match self.0 {
            Completion::Stdout => Ok(()),
            Completion::Local(file, path) => file
                .commit()
                .map_err(|e| format!("cannot write {}: {e}", path.display())),
            #[cfg(feature = "storage")]
            Completion::Remote(commit) => commit.commit().map_err(|e| e.to_string()),
        }
    }
}

/// Creates `path` for writing (`None` or `-`: standard output), unbuffered, and the
/// [`Output`] that completes it.
pub fn create_output(
    path: Option<&Path>,
    storage: &StorageArgs,
) -> Result<(Box<dyn Write + Send>, Output), String> {
    // Standard output unlocked (a lock guard cannot go to another thread); the writers
    // above it buffer, so it is locked once per buffer.
    let stdout = || -> (Box<dyn Write + Send>, Output) {
        (Box::new(io::stdout()), Output(Completion::Stdout))
    };
    match path {
        None => Ok(stdout()),
        Some(p) if p == Path::new("-") => Ok(stdout()),
        Some(p) if url_of(p).is_some() => create_url(url_of(p).unwrap_or_default(), storage),
        Some(p) => {
            let cannot = |e: io::Error| format!("cannot write {}: {e}", p.display());
            let file = AtomicFile::create(p).map_err(cannot)?;
            let writer = file.file().try_clone().map_err(cannot)?;
            Ok((
                Box::new(writer),
                Output(Completion::Local(file, p.to_owned())),
            ))
        }
    }
}

#[cfg(feature = "storage")]
fn create_url(url: &str, storage: &StorageArgs) -> Result<(Box<dyn Write + Send>, Output), String> {
    let upload = hadoop_record_storage::blocking::create(url, &storage.options())?;
    let (writer, commit) = upload.into_shared();
    Ok((Box::new(writer), Output(Completion::Remote(commit))))
}

#[cfg(not(feature = "storage"))]
fn create_url(url: &str, _: &StorageArgs) -> Result<(Box<dyn Write + Send>, Output), String> {
    Err(no_storage(url))
}
