//! [`open_store`]: the object store behind a URL.

use std::sync::Arc;
use std::time::Duration;

use hdfs_native_object_store::HdfsObjectStoreBuilder;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::local::LocalFileSystem;
use object_store::{ClientConfigKey, ObjectStore, RetryConfig};
use url::Url;

use crate::guard::{Guarded, DEADLINE};
use crate::pending::attach_pending_uploads;
use crate::uploads::Bucket;

/// How stores are reached beyond what the environment says.
///
/// ```
/// use hadoop_record_storage::StorageOptions;
/// let options = StorageOptions::default().with_s3_endpoint(Some("http://127.0.0.1:9000".into()));
/// assert_eq!(options.s3_endpoint(), Some("http://127.0.0.1:9000"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StorageOptions {
    s3_endpoint: Option<String>,
}

impl StorageOptions {
    /// The S3 endpoint (`http://127.0.0.1:9000` for an S3-compatible store), over
    /// `AWS_ENDPOINT_URL`; `None` (the default): the environment's.
    pub fn s3_endpoint(&self) -> Option<&str> {
        self.s3_endpoint.as_deref()
    }

    /// Sets the S3 endpoint.
    #[must_use]
    pub fn with_s3_endpoint(mut self, endpoint: Option<String>) -> Self {
        self.s3_endpoint = endpoint;
        self
    }
}

/// The store of `url`'s scheme and authority (`hdfs://nn:8020`, `s3://bucket`), guarded by
/// [`Guarded`]: every call answers within [`DEADLINE`], and errors name the URL.
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

/// `url`'s scheme and authority, as a store is named in messages.
pub(crate) fn store_name(url: &Url) -> String {
    let host = &url[url::Position::BeforeHost..url::Position::AfterPort];
    format!("{}://{host}", url.scheme())
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

/// How [`open_store`] makes the S3 client of `url` (named `name` in messages).
pub(crate) fn s3_builder(
    url: &Url,
    name: &str,
    options: &StorageOptions,
) -> Result<AmazonS3Builder, String> {
    let bucket = url
        .host_str()
        .ok_or_else(|| format!("{name}: the URL names no bucket"))?;
    let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
    let env = |key: &str| std::env::var(key).ok().filter(|v| !v.is_empty());
    let endpoint = options
        .s3_endpoint
        .clone()
        .or_else(|| env("AWS_ENDPOINT_URL_S3"))
        .or_else(|| env("AWS_ENDPOINT_URL"));
    if let Some(endpoint) = endpoint {
        // A local or private S3-compatible store is often plain HTTP.
        let http = endpoint.starts_with("http://");
        // Both keys: object_store prefers `AWS_ENDPOINT_URL_S3`'s over the generic one.
        builder = builder
            .with_config(AmazonS3ConfigKey::S3Endpoint, &endpoint)
            .with_endpoint(endpoint)
            .with_allow_http(http);
    }
    if env("AWS_REGION").is_none() && env("AWS_DEFAULT_REGION").is_none() {
        builder = builder.with_region("us-east-1");
    }
    if env("AWS_ACCESS_KEY_ID").is_none() {
        builder = builder.with_skip_signature(true);
    }
    // Fail within the deadline when the endpoint does not answer, rather than retrying for
    // minutes (object_store's default).
    let retry = RetryConfig {
        max_retries: 2,
        retry_timeout: DEADLINE / 2,
        ..RetryConfig::default()
    };
    let connect = Duration::from_secs(5);
    Ok(builder.with_retry(retry).with_config(
        AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
        format!("{}s", connect.as_secs()),
    ))
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
    fn the_endpoint_option_wins_over_every_variable() {
        // object_store prefers `AWS_ENDPOINT_URL_S3` to the generic endpoint: the option
        // sets both.
        let url = Url::parse("s3://lake/a").unwrap();
        let options = StorageOptions::default().with_s3_endpoint(Some("http://127.0.0.1:1".into()));
        let builder = s3_builder(&url, "s3://lake", &options).unwrap();
        for key in [AmazonS3ConfigKey::S3Endpoint, AmazonS3ConfigKey::Endpoint] {
            let value = builder.get_config_value(&key);
            assert_eq!(value.as_deref(), Some("http://127.0.0.1:1"), "{key:?}");
        }
    }

    #[test]
    fn s3_stores_have_pending_uploads_and_local_ones_do_not() {
        let options = StorageOptions::default().with_s3_endpoint(Some("http://127.0.0.1:1".into()));
        let s3 = open_store(&Url::parse("s3://lake/a/").unwrap(), &options).unwrap();
        assert!(crate::pending_uploads(&s3).is_some());
        let local = open_store(&Url::parse("file:///tmp/").unwrap(), &options).unwrap();
        assert!(crate::pending_uploads(&local).is_none());
    }

    #[test]
    fn stores_are_named_by_scheme_host_and_port() {
        let url = Url::parse("hdfs://127.0.0.1:9000/a/b").unwrap();
        assert_eq!(store_name(&url), "hdfs://127.0.0.1:9000");
        let url = Url::parse("s3://bucket/a").unwrap();
        assert_eq!(store_name(&url), "s3://bucket");
    }
}
