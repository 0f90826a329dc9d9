//! S3's pending uploads ([`PendingUploads`]): the multipart uploads of a bucket, made,
//! filled, completed and aborted through object_store's S3 client, each call within a
//! deadline, and listed — what object_store cannot do: the listing (S3's
//! `ListMultipartUploads`) is made here, signed by object_store's own [`AwsAuthorizer`]
//! with the credentials of the client [`open_store`](crate::open_store) makes, and sent to
//! the same endpoint. [`abort_pending_uploads`] aborts those a killed process left behind:
//! S3 keeps their parts, and bills them, until someone aborts them.

use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use object_store::aws::{AmazonS3, AmazonS3ConfigKey, AwsAuthorizer};
use object_store::client::{HttpConnector, HttpRequest, HttpRequestBody, ReqwestConnector};
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{ClientOptions, MultipartId, PutPayload, PutResult};
use serde::Deserialize;
use url::Url;

use crate::config::{s3_builder, store_name, StorageOptions};
use crate::guard::{COMPLETE_DEADLINE, DEADLINE};
use crate::pending::{PendingUpload, PendingUploads};

/// The slowest transfer a part's upload may make beyond [`DEADLINE`], in bytes a second.
const SLOWEST: u64 = 1 << 20;

/// Pages of a listing read at most: a server that keeps answering "more" is not followed
/// forever (S3 gives 1,000 uploads a page).
const MAX_PAGES: usize = 1_000;

/// Aborts every multipart upload in progress under `prefix` (`s3://BUCKET/dir/`), reaching
/// the bucket as [`open_store`](crate::open_store) does with `options`. Answers how many it
/// aborted; other stores (`hdfs://`, `file://`) have no such uploads: 0.
///
/// A dataset job calls this when it commits or fails, for the uploads of its tasks that
/// were killed while they wrote.
///
/// ```no_run
/// # async fn demo() -> Result<(), String> {
/// use hadoop_record_storage::{abort_pending_uploads, StorageOptions};
/// let prefix = url::Url::parse("s3://lake/clicks/_temporary/").unwrap();
/// let aborted = abort_pending_uploads(&prefix, &StorageOptions::default()).await?;
/// println!("{aborted} abandoned uploads aborted");
/// # Ok(()) }
/// ```
pub async fn abort_pending_uploads(
    prefix: &Url,
    options: &StorageOptions,
) -> Result<usize, String> {
    let bucket = match Bucket::of(prefix, options)? {
        Some(bucket) => bucket,
        None => return Ok(0),
    };
    let pending = bucket.pending(&key_prefix(prefix)?).await?;
    for upload in &pending {
        let key = Path::parse(&upload.key).map_err(|e| format!("{}: {e}", bucket.name))?;
        bucket
            .abort_multipart(&key, &upload.upload_id)
            .await
            .map_err(|e| format!("cannot abort the upload of {}/{key}: {e}", bucket.name))?;
    }
    Ok(pending.len())
}

/// The keys under `url`'s path begin with this: the path as object_store names objects (its
/// `%XX` escapes decoded, as every URL of a store is read), ending in `/`.
fn key_prefix(url: &Url) -> Result<String, String> {
    let dir = Path::from_url_path(url.path()).map_err(|e| format!("{url}: {e}"))?;
    Ok(match dir.as_ref() {
        "" => String::new(),
        dir => format!("{dir}/"),
    })
}

/// An S3 bucket as `open_store` reaches it, with its pending uploads.
#[derive(Debug)]
pub(crate) struct Bucket {
    /// `s3://BUCKET`, for messages.
    name: String,
    pub(crate) client: AmazonS3,
    /// The bucket's URL as object_store addresses it (path or virtual-hosted style).
    endpoint: String,
    region: String,
    signed: bool,
    /// An S3 Express bucket, whose uploads this listing cannot ask for.
    express: bool,
}

impl Bucket {
    /// The bucket of an `s3://` or `s3a://` URL; `None` for other stores.
    pub(crate) fn of(url: &Url, options: &StorageOptions) -> Result<Option<Bucket>, String> {
        if !matches!(url.scheme(), "s3" | "s3a") {
            return Ok(None);
        }
        let name = store_name(url);
        let builder = s3_builder(url, &name, options)?;
        let client = builder
            .clone()
            .build()
            .map_err(|e| format!("{name}: {e}"))?;
        let value = |key| builder.get_config_value(&key).filter(|v| !v.is_empty());
        let bucket = value(AmazonS3ConfigKey::Bucket).unwrap_or_default();
        let region = value(AmazonS3ConfigKey::Region).unwrap_or_else(|| "us-east-1".into());
        let virtual_hosted =
            value(AmazonS3ConfigKey::VirtualHostedStyleRequest).is_some_and(|v| v == "true");
        let express = value(AmazonS3ConfigKey::S3Express).is_some_and(|v| v == "true");
        // As object_store's builder addresses the bucket.
        let endpoint = value(AmazonS3ConfigKey::S3Endpoint).or(value(AmazonS3ConfigKey::Endpoint));
        let endpoint = match (endpoint, virtual_hosted) {
            (Some(endpoint), true) => endpoint,
            (Some(endpoint), false) => format!("{}/{bucket}", endpoint.trim_end_matches('/')),
            (None, true) => format!("https://{bucket}.s3.{region}.amazonaws.com"),
            (None, false) => format!("https://s3.{region}.amazonaws.com/{bucket}"),
        };
        let signed = value(AmazonS3ConfigKey::SkipSignature).is_none_or(|v| v != "true");
        Ok(Some(Bucket {
            name,
            client,
            endpoint,
            region,
            signed,
            express,
        }))
    }

    fn no_answer(&self) -> String {
        format!("{}: no answer within {} s", self.name, DEADLINE.as_secs())
    }

    /// `call` on `location`, within `deadline`, its error naming the object's URL.
    async fn call<T>(
        &self,
        location: &Path,
        what: &str,
        deadline: Duration,
        call: impl Future<Output = object_store::Result<T>>,
    ) -> object_store::Result<T> {
        let url = format!("{}/{location}", self.name);
        match tokio::time::timeout(deadline, call).await {
            Ok(result) => result.map_err(|e| crate::guard::named(e, &url)),
            Err(_) => Err(crate::guard::late(&url, what, deadline)),
        }
    }

    /// The uploads in progress under `prefix`, every page of the listing.
    async fn pending(&self, prefix: &str) -> Result<Vec<Pending>, String> {
        if self.express {
            return Err(format!(
                "{}: listing the uploads of an S3 Express bucket is not supported",
                self.name
            ));
        }
        let allow_http = self.endpoint.starts_with("http://");
        let http = ReqwestConnector::default()
            .connect(
                &ClientOptions::new()
                    .with_allow_http(allow_http)
                    .with_connect_timeout(Duration::from_secs(5))
                    .with_timeout(DEADLINE),
            )
            .map_err(|e| format!("{}: {e}", self.name))?;
        let credential = if self.signed {
            let provider = self.client.credentials();
            Some(
                provider
                    .get_credential()
                    .await
                    .map_err(|e| format!("{}: {e}", self.name))?,
            )
        } else {
            None
        };
        let mut pending = Vec::new();
        let mut marker: Option<(String, String)> = None;
        for _ in 0..MAX_PAGES {
            let mut url = Url::parse(&format!("{}/", self.endpoint.trim_end_matches('/')))
                .map_err(|e| format!("{}: {e}", self.name))?;
            {
                let mut query = url.query_pairs_mut();
                query
                    .append_pair("uploads", "")
                    .append_pair("prefix", prefix);
                if let Some((key, id)) = &marker {
                    query
                        .append_pair("key-marker", key)
                        .append_pair("upload-id-marker", id);
                }
            }
            let mut request: HttpRequest = http::Request::get(url.as_str())
                .body(HttpRequestBody::empty())
                .map_err(|e| format!("{}: {e}", self.name))?;
            if let Some(credential) = &credential {
                AwsAuthorizer::new(credential, "s3", &self.region).authorize(&mut request, None);
            }
            let listed = async {
                let response = http.execute(request).await.map_err(|e| e.to_string())?;
                let status = response.status();
                let body = response
                    .into_body()
                    .bytes()
                    .await
                    .map_err(|e| e.to_string())?;
                if !status.is_success() {
                    let text = String::from_utf8_lossy(&body);
                    return Err(format!("{status}: {}", text.trim()));
                }
                Ok(body)
            };
            let body = tokio::time::timeout(DEADLINE, listed)
                .await
                .map_err(|_| self.no_answer())?
                .map_err(|e| format!("cannot list the uploads of {}: {e}", self.name))?;
            let page = Listing::parse(&body)
                .map_err(|e| format!("cannot list the uploads of {}: {e}", self.name))?;
            pending.extend(page.uploads);
            let next = page
                .next_key_marker
                .zip(page.next_upload_id_marker)
                .filter(|_| page.is_truncated);
            // A page that does not move the markers on would be asked again forever.
            if next.is_none() || next == marker {
                return Ok(pending);
            }
            marker = next;
        }
        Err(format!(
            "cannot list the uploads of {}: more than {MAX_PAGES} pages",
            self.name
        ))
    }
}

#[async_trait]
impl MultipartStore for Bucket {
    async fn create_multipart(&self, path: &Path) -> object_store::Result<MultipartId> {
        let made = self.client.create_multipart(path);
        self.call(path, "starting an upload", DEADLINE, made).await
    }

    async fn put_part(
        &self,
        path: &Path,
        id: &MultipartId,
        part_idx: usize,
        data: PutPayload,
    ) -> object_store::Result<PartId> {
        let deadline = DEADLINE + Duration::from_secs(data.content_length() as u64 / SLOWEST);
        let put = self.client.put_part(path, id, part_idx, data);
        self.call(path, "uploading a part", deadline, put).await
    }

    async fn complete_multipart(
        &self,
        path: &Path,
        id: &MultipartId,
        parts: Vec<PartId>,
    ) -> object_store::Result<PutResult> {
        let complete = self.client.complete_multipart(path, id, parts);
        let what = "completing an upload";
        self.call(path, what, COMPLETE_DEADLINE, complete).await
    }

    async fn abort_multipart(&self, path: &Path, id: &MultipartId) -> object_store::Result<()> {
        let abort = self.client.abort_multipart(path, id);
        self.call(path, "aborting an upload", DEADLINE, abort).await
    }
}

#[async_trait]
impl PendingUploads for Bucket {
    async fn list_pending(&self, prefix: &Path) -> object_store::Result<Vec<PendingUpload>> {
        let generic = |e: String| object_store::Error::Generic {
            store: "S3",
            source: e.into(),
        };
        let prefix = match prefix.as_ref() {
            "" => String::new(),
            dir => format!("{dir}/"),
        };
        let listed = self.pending(&prefix).await.map_err(generic)?;
        listed
            .into_iter()
            .map(|upload| {
                let location =
                    Path::parse(&upload.key).map_err(|e| generic(format!("{}: {e}", self.name)))?;
                Ok(PendingUpload {
                    location,
                    id: upload.upload_id,
                })
            })
            .collect()
    }
}

/// A page of S3's `ListMultipartUploadsResult` (the elements used here).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Listing {
    #[serde(default)]
    is_truncated: bool,
    #[serde(default)]
    next_key_marker: Option<String>,
    #[serde(default)]
    next_upload_id_marker: Option<String>,
    #[serde(default, rename = "Upload")]
    uploads: Vec<Pending>,
}

/// An upload in progress.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Pending {
    key: String,
    upload_id: String,
}

impl Listing {
    fn parse(xml: &[u8]) -> Result<Listing, String> {
        let text = std::str::from_utf8(xml).map_err(|e| format!("the answer is not UTF-8: {e}"))?;
        quick_xml::de::from_str(text).map_err(|e| format!("an answer S3 does not give: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_are_read_as_s3_writes_them() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Bucket>lake</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>
  <NextKeyMarker>d/_temporary/q/b</NextKeyMarker><NextUploadIdMarker>2</NextUploadIdMarker>
  <Prefix>d/</Prefix><MaxUploads>2</MaxUploads><IsTruncated>true</IsTruncated>
  <Upload><Key>d/_temporary/q/a</Key><UploadId>1</UploadId>
    <Initiator><ID>x</ID></Initiator><StorageClass>STANDARD</StorageClass></Upload>
  <Upload><Key>d/_temporary/q/b &amp; c</Key><UploadId>2</UploadId></Upload>
  <CommonPrefixes><Prefix>d/x/</Prefix></CommonPrefixes>
</ListMultipartUploadsResult>"#;
        let page = Listing::parse(xml).unwrap();
        assert!(page.is_truncated);
        assert_eq!(page.next_key_marker.as_deref(), Some("d/_temporary/q/b"));
        assert_eq!(page.next_upload_id_marker.as_deref(), Some("2"));
        let keys: Vec<_> = page
            .uploads
            .iter()
            .map(|u| (&*u.key, &*u.upload_id))
            .collect();
        assert_eq!(
            keys,
            [("d/_temporary/q/a", "1"), ("d/_temporary/q/b & c", "2")]
        );

        let empty = b"<ListMultipartUploadsResult><IsTruncated>false</IsTruncated>\
                      </ListMultipartUploadsResult>";
        let page = Listing::parse(empty).unwrap();
        assert!(!page.is_truncated && page.uploads.is_empty());

        let error = Listing::parse(b"<Error><Code>AccessDenied</Code>").unwrap_err();
        assert!(error.starts_with("an answer S3 does not give"), "{error}");
        assert!(Listing::parse(&[0xff, 0xfe]).is_err());
    }

    #[test]
    fn prefixes_are_keys_as_object_store_names_them() {
        let prefix = |url: &str| key_prefix(&Url::parse(url).unwrap()).unwrap();
        assert_eq!(
            prefix("s3://lake/my dir/_temporary/q/"),
            "my dir/_temporary/q/"
        );
        assert_eq!(prefix("s3://lake/a%3Db/_temporary/q"), "a=b/_temporary/q/");
        assert_eq!(prefix("s3://lake/"), "");
    }

    #[tokio::test]
    async fn other_stores_have_no_pending_uploads() {
        let options = StorageOptions::default();
        for url in ["hdfs://nn:8020/d/", "file:///tmp/d/"] {
            let url = Url::parse(url).unwrap();
            assert_eq!(abort_pending_uploads(&url, &options).await, Ok(0));
        }
    }

    #[tokio::test]
    async fn a_bucket_that_does_not_answer_is_named() {
        // A port that refuses connections: the listing fails naming the bucket.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let options =
            StorageOptions::default().with_s3_endpoint(Some(format!("http://127.0.0.1:{port}")));
        let url = Url::parse("s3://lake/d/").unwrap();
        let error = abort_pending_uploads(&url, &options).await.unwrap_err();
        assert!(error.contains("s3://lake"), "{error}");
    }
}
