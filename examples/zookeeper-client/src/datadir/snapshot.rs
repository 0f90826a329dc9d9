//! Snapshots (`FileSnap`): the data tree as the server saw it at one zxid.
//!
//! After the file header come the sessions (an `int` count, then `long id`, `int timeout`),
//! the ACL cache (an `int` count, then `long index`, `vector<ACL>`), the nodes (a `ustring`
//! path and a `DataNode`: `buffer data`, `long acl` index, `StatPersisted`), depth first from
//! the root, whose path is the empty string, until the path `/`. Then the seal: the Adler-32
//! of every byte before it (a `long`) and the string `/`. ZooKeeper 3.6 and later add two more
//! sealed sections by default: the digest of the tree (`long zxid`, `int digestVersion`,
//! `long digest`) and the last processed zxid (`long`).

use hadoop_record::Record;

use super::{adler32, damaged, header, Cursor, SNAP_MAGIC};
use crate::data::{StatPersisted, ACL};
use crate::error::Result;
use crate::server::persistence::FileHeader;

/// A node of the data tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte offset of its path in the file.
    pub offset: u64,
    /// The path as stored: the root's is the empty string.
    pub path: String,
    /// The data (`None`: created with null data).
    pub data: Option<Vec<u8>>,
    /// Index of its ACL list in the ACL cache.
    pub acl: i64,
    /// Its persisted stat.
    pub stat: StatPersisted,
}

/// One item of a snapshot, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum SnapshotItem {
    /// An open session and its timeout in milliseconds.
    Session {
        /// The session id.
        id: i64,
        /// Its timeout.
        timeout: i32,
    },
    /// An entry of the ACL cache: the index nodes refer to, and the list.
    Acl {
        /// The index.
        index: i64,
        /// The ACLs (`None`: a null list, which ZooKeeper refuses to load).
        acls: Option<Vec<ACL>>,
    },
    /// A node.
    Node(Box<Node>),
    /// A seal whose checksum matched: the Adler-32 of the file before `offset`.
    Seal {
        /// Where the seal starts.
        offset: u64,
        /// The checksum.
        checksum: i64,
    },
    /// The digest of the tree (ZooKeeper 3.6+).
    Digest {
        /// The zxid it was taken at.
        zxid: i64,
        /// Its version.
        version: i32,
        /// The digest.
        digest: i64,
    },
    /// The last processed zxid (ZooKeeper 3.9+).
    LastZxid(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Sessions(i32),
    Acls(i32),
    Nodes,
    Digest,
    DigestSeal,
    LastZxid,
    LastZxidSeal,
    Done,
}

/// `org.apache.zookeeper.server.DataNode` as it serializes itself: a hand-written Java class,
/// not in `zookeeper.jute`, so derived here.
#[derive(Debug, Clone, PartialEq, Record)]
#[record(module = "org.apache.zookeeper.server")]
struct DataNode {
    data: Option<Vec<u8>>,
    acl: i64,
    #[record(name = "statpersisted")]
    stat: StatPersisted,
}

/// Reads a snapshot held in memory: the header first ([`SnapshotReader::new`]), then its
/// items as an iterator that ends at the end of the file, or after yielding the first
/// damage (with its offset).
pub struct SnapshotReader<'a> {
    cursor: Cursor<'a>,
    header: FileHeader,
    state: State,
    failed: bool,
}

/// Bytes of a sealed last-zxid section: a `long`, then the seal (a `long`, and the string
/// `/` in five bytes).
const LAST_ZXID_SECTION: usize = 8 + 13;

impl<'a> SnapshotReader<'a> {
    /// Reads the file header of the snapshot in `bytes` (uncompressed: ZooKeeper's default
    /// `zookeeper.snapshot.compression.method`).
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        let mut cursor = Cursor::new(bytes);
        let header = header(&mut cursor, SNAP_MAGIC, "snapshot")?;
        let mut reader = SnapshotReader {
            cursor,
            header,
            state: State::Done,
            failed: false,
        };
        let count = reader.cursor.int("the session count")?;
        reader.state = State::Sessions(count);
        Ok(reader)
    }

    /// The file header.
    pub fn header(&self) -> &FileHeader {
        &self.header
    }

    fn seal(&mut self) -> Result<SnapshotItem> {
        let offset = self.cursor.offset();
        let computed = adler32(&self.cursor.bytes()[..offset as usize]);
        let checksum = self.cursor.long("the seal's checksum")?;
        let slash_at = self.cursor.offset();
        let slash = self.cursor.string("the seal's path")?;
        if checksum != computed {
            return Err(damaged(
                offset,
                format!(
                    "checksum mismatch: the seal says {checksum:#x}, the {offset} bytes before it sum to {computed:#x} (Adler-32)"
                ),
            ));
        }
        if slash.as_deref() != Some("/") {
            return Err(damaged(
                slash_at,
                format!("the seal ends with {slash:?}, not \"/\""),
            ));
        }
        Ok(SnapshotItem::Seal { offset, checksum })
    }

    fn item(&mut self) -> Result<Option<SnapshotItem>> {
        loop {
            match self.state {
                State::Sessions(n) if n > 0 => {
                    let id = self.cursor.long("a session id")?;
                    let timeout = self.cursor.int("a session timeout")?;
                    self.state = State::Sessions(n - 1);
                    return Ok(Some(SnapshotItem::Session { id, timeout }));
                }
                State::Sessions(_) => {
                    let count = self.cursor.int("the ACL cache size")?;
                    self.state = State::Acls(count);
                }
                State::Acls(n) if n > 0 => {
                    let index = self.cursor.long("an ACL index")?;
                    let acls = self.cursor.field::<Option<Vec<ACL>>>("an ACL list")?;
                    self.state = State::Acls(n - 1);
                    return Ok(Some(SnapshotItem::Acl { index, acls }));
                }
                State::Acls(_) => self.state = State::Nodes,
                State::Nodes => {
                    let offset = self.cursor.offset();
                    let path = self
                        .cursor
                        .string("a node's path")?
                        .ok_or_else(|| damaged(offset, "a null node path"))?;
                    if path == "/" {
                        self.state = State::Digest;
                        return self.seal().map(Some);
                    }
                    let node: DataNode = self.cursor.record("a node")?;
                    return Ok(Some(SnapshotItem::Node(Box::new(Node {
                        offset,
                        path,
                        data: node.data,
                        acl: node.acl,
                        stat: node.stat,
                    }))));
                }
                State::Digest => {
                    let left = self.cursor.remaining().len();
                    if left == 0 {
                        self.state = State::Done;
                    } else if left == LAST_ZXID_SECTION {
                        self.state = State::LastZxid;
                    } else {
                        let zxid = self.cursor.long("the digest's zxid")?;
                        let version = self.cursor.int("the digest's version")?;
                        let digest = self.cursor.long("the digest")?;
                        self.state = State::DigestSeal;
                        return Ok(Some(SnapshotItem::Digest {
                            zxid,
                            version,
                            digest,
                        }));
                    }
                }
                State::DigestSeal => {
                    self.state = State::LastZxid;
                    return self.seal().map(Some);
                }
                State::LastZxid => {
                    if self.cursor.remaining().is_empty() {
                        self.state = State::Done;
                        continue;
                    }
                    let zxid = self.cursor.long("the last processed zxid")?;
                    self.state = State::LastZxidSeal;
                    return Ok(Some(SnapshotItem::LastZxid(zxid)));
                }
                State::LastZxidSeal => {
                    self.state = State::Done;
                    return self.seal().map(Some);
                }
                State::Done => {
                    let left = self.cursor.remaining().len();
                    if left > 0 {
                        return Err(damaged(
                            self.cursor.offset(),
                            format!("{left} bytes after the last seal"),
                        ));
                    }
                    return Ok(None);
                }
            }
        }
    }
}

items_until_error!(SnapshotReader, SnapshotItem, item, failed);
