//! ZooKeeper's data directory: transaction logs (`log.<zxid>`) and snapshots
//! (`snapshot.<zxid>`) as a ZooKeeper 3.9 server writes them, read entry by entry and printed
//! as one JSON object per line.
//!
//! Both files start with a `FileHeader` (`magic`, `version` 2, `dbid`): `ZKLG` for logs,
//! `ZKSN` for snapshots. Damage is reported with its byte offset after everything before it
//! was read: a reader is an iterator that yields the entries it could read and then, once,
//! the error.

/// `Iterator` for a reader whose `$next` method reads the next item (`None` at the end): the
/// items, then the first error once, then nothing (`$stopped` records that it stopped).
macro_rules! items_until_error {
    ($reader:ident, $item:ty, $next:ident, $stopped:ident) => {
        impl Iterator for $reader<'_> {
            type Item = Result<$item>;

            fn next(&mut self) -> Option<Result<$item>> {
                if self.$stopped {
                    return None;
                }
                let item = self.$next().transpose();
                if !matches!(item, Some(Ok(_))) {
                    self.$stopped = true;
                }
                item
            }
        }
    };
}

mod json;
mod snapshot;
mod txnlog;

pub use json::{node_json, txn_entry_json};
pub use snapshot::{Node, SnapshotItem, SnapshotReader};
pub use txnlog::{Txn, TxnEntry, TxnLogReader};

use hadoop_record::archive::jute::JuteInput;
use hadoop_record::field::Field;
use hadoop_record::{Record, RecordInput};

use crate::error::{Error, Result};
use crate::server::persistence::FileHeader;

/// `ZKLG`, the magic number of transaction logs.
pub const TXNLOG_MAGIC: i32 = i32::from_be_bytes(*b"ZKLG");
/// `ZKSN`, the magic number of snapshots.
pub const SNAP_MAGIC: i32 = i32::from_be_bytes(*b"ZKSN");

/// A jute cursor over a whole file in memory, with errors at file offsets.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    input: JuteInput<&'a [u8]>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            bytes,
            input: JuteInput::new(bytes),
        }
    }

    /// The file offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.input.offset()
    }

    /// Bytes not yet read.
    pub(crate) fn remaining(&self) -> &'a [u8] {
        &self.bytes[self.offset() as usize..]
    }

    /// The whole file.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// A field of type `T`; `what` names it in errors.
    pub(crate) fn field<T: Field>(&mut self, what: &str) -> Result<T> {
        let at = self.offset();
        T::read(&mut self.input, "").map_err(|e| damaged(at, format!("{what}: {e}")))
    }

    /// A record of type `T`; `what` names it in errors.
    pub(crate) fn record<T: Record>(&mut self, what: &str) -> Result<T> {
        let at = self.offset();
        T::read_from(&mut self.input, "").map_err(|e| damaged(at, format!("{what}: {e}")))
    }

    pub(crate) fn long(&mut self, what: &str) -> Result<i64> {
        let at = self.offset();
        self.input
            .read_long(what)
            .map_err(|e| damaged(at, format!("{what}: {e}")))
    }

    pub(crate) fn int(&mut self, what: &str) -> Result<i32> {
        let at = self.offset();
        self.input
            .read_int(what)
            .map_err(|e| damaged(at, format!("{what}: {e}")))
    }

    pub(crate) fn string(&mut self, what: &str) -> Result<Option<String>> {
        let at = self.offset();
        self.input
            .read_nullable_string(what)
            .map_err(|e| damaged(at, format!("{what}: {e}")))
    }
}

pub(crate) fn damaged(offset: u64, message: impl Into<String>) -> Error {
    Error::Damaged {
        offset,
        message: message.into(),
    }
}

/// Reads a file header and checks its magic number.
pub(crate) fn header(cursor: &mut Cursor<'_>, magic: i32, what: &str) -> Result<FileHeader> {
    let header: FileHeader = cursor.record("the file header")?;
    if header.magic != magic {
        return Err(damaged(
            0,
            format!(
                "not a ZooKeeper {what}: its magic number is {:#010x}, not {:#010x} ({:?})",
                header.magic,
                magic,
                String::from_utf8_lossy(&magic.to_be_bytes())
            ),
        ));
    }
    Ok(header)
}

/// Adler-32 of `bytes`, as `java.util.zip.Adler32.getValue()` returns it.
pub(crate) fn adler32(bytes: &[u8]) -> i64 {
    let mut a = adler2::Adler32::new();
    a.write_slice(bytes);
    i64::from(a.checksum())
}
