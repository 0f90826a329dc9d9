//! Which paths are URLs of a store rather than local files: shared by the storage arguments
//! and the output guard.

use std::path::Path;

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
