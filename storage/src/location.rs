//! [`Location`]: a URL argument as a store and a path in it.

use object_store::path::Path;
use url::Url;

/// The schemes of remote stores, and `file`.
const SCHEMES: [&str; 5] = ["hdfs", "viewfs", "s3", "s3a", "file"];

/// True if `arg` is a URL of a store this crate opens (`hdfs://`, `viewfs://`, `s3://`,
/// `s3a://`, `file://`) rather than a local path.
pub fn is_url(arg: &str) -> bool {
    arg.split_once("://")
        .is_some_and(|(scheme, _)| SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// A file named by URL: the store's URL (`hdfs://nn:8020`, `s3://bucket`) and the object's
/// path inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The URL as given.
    pub url: Url,
    /// The object's path in its store (no leading `/`).
    pub path: Path,
}

impl Location {
    /// Parses `arg`, a URL with a path (`hdfs://nn:8020/data/a.seq`).
    pub fn parse(arg: &str) -> Result<Self, String> {
        let url = Url::parse(arg).map_err(|e| format!("{arg}: not a URL: {e}"))?;
        if url.host_str().is_none_or(str::is_empty) && url.scheme() != "file" {
            return Err(format!(
                "{arg}: the URL names no host (name node or bucket)"
            ));
        }
        let path = Path::from_url_path(url.path()).map_err(|e| format!("{arg}: {e}"))?;
        Ok(Location { url, path })
    }

    /// The URL of the store alone: scheme, host and port (`hdfs://nn:8020`).
    pub fn store_url(&self) -> Url {
        let mut url = self.url.clone();
        url.set_path("");
        url.set_query(None);
        url.set_fragment(None);
        url
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.url.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_of_known_stores_only() {
        assert!(is_url("hdfs://nn:8020/a"));
        assert!(is_url("S3://bucket/key"));
        assert!(is_url("s3a://bucket/key"));
        assert!(is_url("viewfs://cluster/a"));
        assert!(!is_url("/tmp/a"));
        assert!(!is_url("data/a.seq"));
        assert!(!is_url("http://example/a"));
        assert!(!is_url("-"));
    }

    #[test]
    fn a_location_splits_store_and_path() {
        let at = Location::parse("hdfs://127.0.0.1:9000/logs/day%201/a.seq").unwrap();
        assert_eq!(at.store_url().as_str(), "hdfs://127.0.0.1:9000");
        assert_eq!(at.path.as_ref(), "logs/day 1/a.seq");
        let at = Location::parse("s3://bucket/k").unwrap();
        assert_eq!(at.store_url().as_str(), "s3://bucket");
        assert_eq!(at.path.as_ref(), "k");
        assert!(Location::parse("hdfs:///a")
            .unwrap_err()
            .contains("names no host"));
    }
}
