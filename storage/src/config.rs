//! How stores are reached: [`StorageOptions`], the names stores go by in messages, and the
//! S3 client's settings. Shared by [`open_store`](crate::open_store) and the pending-upload
//! listing, which reaches a bucket as the store does.

use std::time::Duration;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::{ClientConfigKey, RetryConfig};
use url::Url;

use crate::guard::{COMPLETE_DEADLINE, DEADLINE};

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

/// `url`'s scheme and authority, as a store is named in messages.
pub(crate) fn store_name(url: &Url) -> String {
    let host = &url[url::Position::BeforeHost..url::Position::AfterPort];
    format!("{}://{host}", url.scheme())
}

/// How [`open_store`](crate::open_store) makes the S3 client of `url` (named `name` in messages).
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
    // Every call carries its own deadline (the guard's, or an upload's, which grows with
    // its bytes); the client's own 30 s would cut S3 completing a large upload, which may
    // take minutes, so it only bounds the slowest of them.
    let request = COMPLETE_DEADLINE;
    Ok(builder
        .with_retry(retry)
        .with_config(
            AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
            format!("{}s", connect.as_secs()),
        )
        .with_config(
            AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
            format!("{}s", request.as_secs()),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn stores_are_named_by_scheme_host_and_port() {
        let url = Url::parse("hdfs://127.0.0.1:9000/a/b").unwrap();
        assert_eq!(store_name(&url), "hdfs://127.0.0.1:9000");
        let url = Url::parse("s3://bucket/a").unwrap();
        assert_eq!(store_name(&url), "s3://bucket");
    }
}
