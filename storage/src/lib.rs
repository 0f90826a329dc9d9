//! Where Hadoop keeps record files: HDFS and S3-compatible object stores, read and written
//! through one interface, [`object_store`]'s, the one DataFusion reads through.
//!
//! - [`open_store`]: the store of a URL — `hdfs://NAMENODE:PORT/…` or `hdfs://NAMESERVICE/…`
//!   (and `viewfs://`) through [`hdfs_native`], a Rust client of HDFS's own protocols (no
//!   JVM, no libhdfs), configured from `HADOOP_CONF_DIR` as Hadoop's client is;
//!   `s3://BUCKET/…` (and `s3a://`) through `object_store`'s S3 client, configured from the
//!   `AWS_*` variables (`AWS_ENDPOINT_URL` for S3-compatible stores) or
//!   [`StorageOptions::s3_endpoint`]; `file://` as local files. Every store it gives
//!   answers each call within [`DEADLINE`] or fails naming the URL.
//! - [`Location`]: a URL argument split into its store and the object's path.
//! - [`RangeReader`]: an object as `Read + Seek`, fetched block by block with ranged gets
//!   (a split fetches only its byte range).
//! - [`Upload`]: an object written whole or not at all, as Hadoop's output committers do:
//!   HDFS writes a hidden temporary file and renames it when done, S3 completes a
//!   multipart upload; an upload dropped before [`Upload::commit`] is abandoned.
//! - [`PendingUploads`]: multipart uploads that one process fills and another completes
//!   (a dataset's tasks and its job commit, with no copy); S3's are attached to its store
//!   ([`pending_uploads`]). [`abort_pending_uploads`] aborts those a killed process left
//!   under a prefix of an S3 bucket.
//! - [`blocking`]: the same for code that is not async (`rcc frame`, `rcc convert`).

pub mod blocking;
mod config;
mod guard;
mod location;
mod open;
mod pending;
mod read;
mod uploads;
mod write;

pub use config::StorageOptions;
pub use guard::{Guarded, DEADLINE};
pub use location::{is_url, Location};
pub use open::open_store;
pub use pending::{
    attach_pending_uploads, part_ids, pending_uploads, PendingUpload, PendingUploads,
};
#[doc(hidden)]
pub use pending::{Gate, MemoryUploads, UploadRequest};
pub use read::RangeReader;
pub use uploads::abort_pending_uploads;
pub use write::{Commit, SharedUpload, Upload};

pub use object_store;
