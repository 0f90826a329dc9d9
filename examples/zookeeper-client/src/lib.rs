//! ZooKeeper on hadoop-record: its protocol types generated from `zookeeper.jute` (ZooKeeper
//! 3.9.5) by `hadoop_record_compiler` in `build.rs`, a small synchronous [`client`], and
//! readers of ZooKeeper's data directory ([`datadir`]: transaction logs and snapshots).
//!
//! Every record reads and writes ZooKeeper's bytes through [`hadoop_record::Format::Jute`].
//! Java's null is `None`: `ustring`, `buffer` and `vector` fields are `Option`s at every
//! depth (`rcc --nullable`), so whatever a ZooKeeper server writes reads and writes back
//! byte for byte.
//!
//! ```
//! use hadoop_record::{from_slice, to_vec, Format};
//! use zookeeper_client::proto::{GetDataRequest, RequestHeader};
//!
//! let header = RequestHeader { xid: 1, r#type: 4 };
//! let request = GetDataRequest { path: Some("/a".into()), watch: false };
//! assert_eq!(to_vec(&header, Format::Jute)?, b"\0\0\0\x01\0\0\0\x04");
//! let bytes = to_vec(&request, Format::Jute)?;
//! assert_eq!(bytes, b"\0\0\0\x02/a\0");
//! assert_eq!(from_slice::<GetDataRequest>(&bytes, Format::Jute)?, request);
//! # Ok::<(), hadoop_record::Error>(())
//! ```

pub mod client;
pub mod datadir;
pub mod error;
pub mod opcode;

/// Every record of `zookeeper.jute`, in its module tree (`org::apache::zookeeper::…`).
pub mod generated {
    hadoop_record::include_records!("zookeeper");
}

pub use error::{Code, Error, Result};
pub use generated::org::apache::zookeeper::{data, proto, server, txn};
