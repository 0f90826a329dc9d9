//! Files in HDFS and S3: `--s3-endpoint`, and (feature `storage`) reading and writing
//! `hdfs://` and `s3://` URLs where commands take paths. Without the feature, `rcc` hands a
//! command that names a URL to its companion (`rcc-convert`, `rcc-frame`), as it does
//! Parquet.

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
    #[arg(long, value_name = "URL", global = true)]
    pub s3_endpoint: Option<String>,
}

#[cfg(feature = "storage")]
impl StorageArgs {
    /// The options of the storage layer.
    pub fn options(&self) -> hadoop_record_storage::StorageOptions {
        hadoop_record_storage::StorageOptions {
            s3_endpoint: self.s3_endpoint.clone(),
        }
    }
}
