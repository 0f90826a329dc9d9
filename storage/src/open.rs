//! [`open_store`]: the object store behind a URL.

use std::sync::Arc;

use hdfs_native_object_store::HdfsObjectStoreBuilder;
use object_store::local::LocalFileSystem;
use object_store::ObjectStore;
use url::Url;

use crate::config::{store_name, StorageOptions};
use crate::guard::Guarded;
use crate::pending::attach_pending_uploads;
use crate::uploads::Bucket;

/// The store of `url`'s scheme and authority (`hdfs://nn:8020`, `s3://bucket`), guarded by
/// [`Guarded`]: every call answers within [`DEADLINE`](crate::DEADLINE), and errors name
/// the URL.
///
/// - `hdfs://HOST:PORT` is that NameNode; `hdfs://NAME` without a port is a name service
///   (or, with none of that name, a NameNode on the default port) of the configuration in
///   `HADOOP_CONF_DIR` (`core-site.xml`, `hdfs-site.xml`), read by hdfs-native as Hadoop's
///   client reads it; `viewfs://` is a mount table of that configuration.
/// - `s3://BUCKET` and `s3a://BUCKET`: credentials, region and endpoint from the `AWS_*`
///   variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
///   `AWS_REGION`, `AWS_ENDPOINT_URL`, …), the endpoint overridden by
///   `options.s3_endpoint`. Without an access key, requests are unsigned (public buckets):
///   no instance metadata service is asked.
/// - `file://`: the local file system.
pub fn open_store(url: &Url, options: &StorageOptions) -> Result<Arc<dyn ObjectStore>, String> {
    let name = store_name(url);
    let inner: Arc<dyn ObjectStore> = match url.scheme() {
        "hdfs" | "viewfs" => Arc::new(
            HdfsObjectStoreBuilder::new()
                .with_url(&name)
                .build()
                .map_err(|e| format!("{name}: {e}"))?,
        ),
        // Guarded, with its pending uploads attached to the guarded store.
        "s3" | "s3a" => return s3(url, &name, options),
        "file" => Arc::new(LocalFileSystem::new()),
        other => return Err(format!("{name}: no store for URLs of scheme `{other}`")),
    };
    Ok(Arc::new(Guarded::new(inner, name)))
}

/// An S3 bucket's store, with its pending uploads attached ([`crate::pending_uploads`]).
fn s3(url: &Url, name: &str, options: &StorageOptions) -> Result<Arc<dyn ObjectStore>, String> {
    let bucket = Bucket::of(url, options)?.ok_or_else(|| format!("{name}: not an S3 URL"))?;
    let store: Arc<dyn ObjectStore> = Arc::new(Guarded::new(
        Arc::new(bucket.client.clone()),
        name.to_owned(),
    ));
    Ok(attach_pending_uploads(store, Arc::new(bucket)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_schemes_are_refused_by_name() {
        let url = Url::parse("ftp://host/a").unwrap();
        let e = open_store(&url, &StorageOptions::default()).unwrap_err();
        assert_eq!(e, "ftp://host: no store for URLs of scheme `ftp`");
    }

    #[test]
    fn s3_stores_have_pending_uploads_and_local_ones_do_not() {
        let options = StorageOptions::default().with_s3_endpoint(Some("http://127.0.0.1:1".into()));
        let s3 = open_store(&Url::parse("s3://lake/a/").unwrap(), &options).unwrap();
        assert!(crate::pending_uploads(&s3).is_some());
        let local = open_store(&Url::parse("file:///tmp/").unwrap(), &options).unwrap();
        assert!(crate::pending_uploads(&local).is_none());
    }
}
