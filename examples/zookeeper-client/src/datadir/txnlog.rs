//! Transaction logs (`FileTxnLog`): a file header, then entries, then zeros to the end of
//! the preallocated file.
//!
//! An entry is the Adler-32 checksum of its payload (a `long`), the payload as a jute buffer
//! (an `int` length, then a `TxnHeader`, the transaction record of the header's type and,
//! from ZooKeeper 3.6 on, a `TxnDigest`), and the end-of-record byte `B`. A length of 0 is
//! the end of the log: ZooKeeper preallocates the file in 64 MiB steps of zeros.

use hadoop_record::archive::jute::JuteInput;
use hadoop_record::Record;

use super::{adler32, damaged, header, Cursor, TXNLOG_MAGIC};
use crate::error::Result;
use crate::opcode;
use crate::server::persistence::FileHeader;
use crate::txn::{
    CloseSessionTxn, CreateContainerTxn, CreateSessionTxn, CreateTTLTxn, CreateTxn, CreateTxnV0,
    DeleteTxn, ErrorTxn, MultiTxn, SetACLTxn, SetDataTxn, TxnDigest, TxnHeader,
};

/// The end-of-record byte after every entry.
const END_OF_RECORD: u8 = b'B';

/// One transaction of a log.
#[derive(Debug, Clone, PartialEq)]
pub struct TxnEntry {
    /// Byte offset of the entry (its checksum) in the file.
    pub offset: u64,
    /// The stored Adler-32 checksum (it matched).
    pub checksum: i64,
    /// Who, when, which zxid, which operation.
    pub header: TxnHeader,
    /// The transaction itself.
    pub txn: Txn,
    /// The digest of the data tree after the transaction, when the server wrote one.
    pub digest: Option<TxnDigest>,
}

/// A transaction record, by the header's type (as `SerializeUtils.deserializeTxn` reads it).
#[derive(Debug, Clone, PartialEq)]
pub enum Txn {
    /// `createSession`: the session's timeout.
    CreateSession(CreateSessionTxn),
    /// `closeSession`: the paths of the session's ephemeral nodes (`None` in logs written
    /// before ZooKeeper 3.6, where the record is empty).
    CloseSession(Option<CloseSessionTxn>),
    /// `create`, `create2` (a log written before 3.3 holds a `CreateTxnV0`, read as a
    /// `CreateTxn` with `parentCVersion` −1, as ZooKeeper does).
    Create(CreateTxn),
    /// `createTTL`
    CreateTtl(CreateTTLTxn),
    /// `createContainer`
    CreateContainer(CreateContainerTxn),
    /// `delete`, `deleteContainer`
    Delete(DeleteTxn),
    /// `setData`, `reconfig`
    SetData(SetDataTxn),
    /// `setACL`
    SetAcl(SetACLTxn),
    /// `error`: a failed write's error code.
    Error(ErrorTxn),
    /// `multi`: each sub-transaction's type and bytes.
    Multi(MultiTxn),
}

/// Reads a transaction log held in memory: the header first ([`TxnLogReader::new`]), then
/// the entries as an iterator, which ends at the zero tail or the end of the file, or after
/// yielding the first damage (with its offset).
///
/// ```
/// use zookeeper_client::datadir::TxnLogReader;
/// let mut log = b"ZKLG\0\0\0\x02\0\0\0\0\0\0\0\x07".to_vec();
/// log.resize(4096, 0); // the preallocated tail
/// let reader = TxnLogReader::new(&log).unwrap();
/// assert_eq!(reader.header().dbid, 7);
/// assert_eq!(reader.count(), 0);
/// ```
pub struct TxnLogReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    header: FileHeader,
    done: bool,
}

impl<'a> TxnLogReader<'a> {
    /// Reads the file header of the log in `bytes`.
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        let mut cursor = Cursor::new(bytes);
        let header = header(&mut cursor, TXNLOG_MAGIC, "transaction log")?;
        Ok(TxnLogReader {
            bytes,
            pos: cursor.offset() as usize,
            header,
            done: false,
        })
    }

    /// The file header.
    pub fn header(&self) -> &FileHeader {
        &self.header
    }

    /// Where the next entry starts (after the last one: where the zero tail starts).
    pub fn offset(&self) -> u64 {
        self.pos as u64
    }

    fn entry(&mut self) -> Result<Option<TxnEntry>> {
        let offset = self.pos as u64;
        let rest = &self.bytes[self.pos..];
        // The end of the file, or the preallocated zeros after the last entry. (The scan
        // stops at the first non-zero byte: the checksum or length of a real entry.)
        if rest.iter().all(|&b| b == 0) {
            return Ok(None);
        }
        let Some((head, body)) = rest.split_first_chunk::<12>() else {
            return Err(damaged(
                offset,
                format!(
                    "a truncated entry: {} bytes, too few for its checksum and length",
                    rest.len()
                ),
            ));
        };
        let checksum = i64::from_be_bytes(head[..8].try_into().expect("eight bytes"));
        let len = i32::from_be_bytes(head[8..].try_into().expect("four bytes"));
        if len == 0 {
            // ZooKeeper's end of the log, whatever follows.
            return Ok(None);
        }
        let len = usize::try_from(len)
            .map_err(|_| damaged(offset + 8, format!("an entry of negative length {len}")))?;
        if body.len() <= len {
            return Err(damaged(
                offset,
                format!(
                    "a truncated entry: its {len} bytes and end-of-record byte do not fit the {} bytes left",
                    body.len()
                ),
            ));
        }
        let payload = &body[..len];
        let computed = adler32(payload);
        if computed != checksum {
            return Err(damaged(
                offset,
                format!(
                    "checksum mismatch: the entry says {checksum:#x}, its {len} bytes sum to {computed:#x} (Adler-32)"
                ),
            ));
        }
        if body[len] != END_OF_RECORD {
            return Err(damaged(
                offset + 12 + len as u64,
                format!(
                    "the end-of-record byte is {:#04x}, not 'B' (a partial entry)",
                    body[len]
                ),
            ));
        }
        let (header, txn, digest) = decode_payload(payload)
            .map_err(|e| damaged(offset + 12, format!("the entry's payload: {e}")))?;
        self.pos += 12 + len + 1;
        Ok(Some(TxnEntry {
            offset,
            checksum,
            header,
            txn,
            digest,
        }))
    }
}

items_until_error!(TxnLogReader, TxnEntry, entry, done);

/// `TxnHeader`, the transaction of its type, and the digest if one follows.
fn decode_payload(
    payload: &[u8],
) -> std::result::Result<(TxnHeader, Txn, Option<TxnDigest>), hadoop_record::Error> {
    let mut input = JuteInput::new(payload);
    let header = TxnHeader::read_from(&mut input, "hdr")?;
    let body = &payload[input.offset() as usize..];
    let (txn, used) = decode_txn(header.r#type, body)?;
    let rest = &body[used..];
    // As SerializeUtils: a digest when the bytes for one are there.
    let digest = if rest.len() >= 12 {
        Some(TxnDigest::read_from(&mut JuteInput::new(rest), "digest")?)
    } else {
        None
    };
    Ok((header, txn, digest))
}

/// The transaction of type `op` at the start of `bytes`, and how many bytes it took.
pub(crate) fn decode_txn(
    op: i32,
    bytes: &[u8],
) -> std::result::Result<(Txn, usize), hadoop_record::Error> {
    let mut input = JuteInput::new(bytes);
    fn read<T: Record>(input: &mut JuteInput<&[u8]>) -> hadoop_record::Result<T> {
        T::read_from(input, "txn")
    }
    let txn = match op {
        opcode::CREATE_SESSION => Txn::CreateSession(read(&mut input)?),
        opcode::CLOSE_SESSION if bytes.is_empty() => Txn::CloseSession(None),
        opcode::CLOSE_SESSION => Txn::CloseSession(Some(read::<CloseSessionTxn>(&mut input)?)),
        opcode::CREATE | opcode::CREATE2 => match read::<CreateTxn>(&mut input) {
            Ok(txn) => Txn::Create(txn),
            Err(e)
                if op == opcode::CREATE && e.kind() == hadoop_record::ErrorKind::UnexpectedEof =>
            {
                // Perhaps a version 0 create, as ZooKeeper guesses.
                input = JuteInput::new(bytes);
                let v0: CreateTxnV0 = read(&mut input)?;
                Txn::Create(CreateTxn {
                    path: v0.path,
                    data: v0.data,
                    acl: v0.acl,
                    ephemeral: v0.ephemeral,
                    parent_c_version: -1,
                })
            }
            Err(e) => return Err(e),
        },
        opcode::CREATE_TTL => Txn::CreateTtl(read(&mut input)?),
        opcode::CREATE_CONTAINER => Txn::CreateContainer(read(&mut input)?),
        opcode::DELETE | opcode::DELETE_CONTAINER => Txn::Delete(read::<DeleteTxn>(&mut input)?),
        opcode::SET_DATA | opcode::RECONFIG => Txn::SetData(read::<SetDataTxn>(&mut input)?),
        opcode::SET_ACL => Txn::SetAcl(read::<SetACLTxn>(&mut input)?),
        opcode::ERROR => Txn::Error(read::<ErrorTxn>(&mut input)?),
        opcode::MULTI => Txn::Multi(read::<MultiTxn>(&mut input)?),
        other => {
            return Err(hadoop_record::Error::new(
                hadoop_record::ErrorKind::Unsupported,
                format!("Unsupported Txn with type={other}"),
            ))
        }
    };
    Ok((txn, input.offset() as usize))
}
