//! A small synchronous ZooKeeper client: one TCP connection, one request at a time.
//!
//! The wire protocol is jute records in length-prefixed frames (a big-endian `int` byte count,
//! then the bytes). The session starts with a `ConnectRequest` answered by a
//! `ConnectResponse`; after that each request is a `RequestHeader` (a client-chosen `xid` and
//! the operation code) followed by the operation's request record, and each reply is a
//! `ReplyHeader` (the same `xid`, the server's last `zxid`, an error code) followed by the
//! response record when the error code is 0. Pings use xid −2; watch notifications (xid −1)
//! are skipped, as this client sets no watches.
//!
//! ```no_run
//! use zookeeper_client::client::{Client, CreateMode};
//! let mut zk = Client::connect("127.0.0.1:2181", std::time::Duration::from_secs(10))?;
//! zk.create("/greeting", Some(b"hello"), CreateMode::Persistent)?;
//! let (data, stat) = zk.get_data("/greeting")?;
//! assert_eq!(data.as_deref(), Some(&b"hello"[..]));
//! zk.set_data("/greeting", Some(b"hi"), stat.version)?;
//! zk.delete("/greeting", -1)?;
//! zk.close()?;
//! # Ok::<(), zookeeper_client::Error>(())
//! ```

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use hadoop_record::{Format, Record};

use crate::data::{Id, Stat, ACL};
use crate::error::{Code, Error, Result};
use crate::opcode;
use crate::proto::{
    ConnectRequest, ConnectResponse, CreateRequest, CreateResponse, DeleteRequest,
    GetChildrenRequest, GetChildrenResponse, GetDataRequest, GetDataResponse, ReplyHeader,
    RequestHeader, SetDataRequest, SetDataResponse,
};

/// The xid of pings, in requests and replies.
const PING_XID: i32 = -2;
/// The xid of watch notifications.
const NOTIFICATION_XID: i32 = -1;
/// A `ReplyHeader`'s bytes: `int xid`, `long zxid`, `int err`.
const REPLY_HEADER_LEN: usize = 16;
/// The largest frame accepted from a server: ZooKeeper's default `jute.maxbuffer` plus room
/// for the headers.
const MAX_FRAME: usize = hadoop_record::archive::jute::DEFAULT_MAX_BUFFER as usize + 1024;

/// How a node is created (`CreateMode`, the `flags` of a `CreateRequest`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateMode {
    /// Stays until deleted.
    Persistent = 0,
    /// Deleted when the session ends.
    Ephemeral = 1,
    /// Persistent, with a 10-digit counter appended to the name.
    PersistentSequential = 2,
    /// Ephemeral, with a counter appended.
    EphemeralSequential = 3,
}

/// `ZooDefs.Ids.OPEN_ACL_UNSAFE`: everyone may do everything.
pub fn open_acl_unsafe() -> Vec<ACL> {
    vec![ACL {
        perms: 0x1f,
        id: Id {
            scheme: Some("world".into()),
            id: Some("anyone".into()),
        },
    }]
}

/// A connected session.
#[derive(Debug)]
pub struct Client {
    stream: TcpStream,
    session_id: i64,
    timeout_ms: i32,
    next_xid: i32,
    last_zxid: i64,
}

impl Client {
    /// Connects to the server at `addr` and starts a session that expires after `timeout` of
    /// silence (the server may negotiate it).
    pub fn connect(addr: impl ToSocketAddrs, timeout: Duration) -> Result<Client> {
        let addr = addr
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| Error::Protocol("no address to connect to".into()))?;
        let stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        stream.set_nodelay(true)?;
        let timeout_ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
        let mut client = Client {
            stream,
            session_id: 0,
            timeout_ms,
            next_xid: 1,
            last_zxid: 0,
        };
        let request = ConnectRequest {
            protocol_version: 0,
            last_zxid_seen: 0,
            time_out: timeout_ms,
            session_id: 0,
            passwd: Some(vec![0; 16]),
            read_only: false,
        };
        client.send(&[&request])?;
        let response: ConnectResponse = decode(&client.receive()?)?;
        if response.time_out <= 0 {
            // The server closes a session it refuses with a zero timeout.
            return Err(Error::Zk {
                code: Code(-112),
                op: "connect".into(),
            });
        }
        client.session_id = response.session_id;
        client.timeout_ms = response.time_out;
        Ok(client)
    }

    /// The session id the server gave.
    pub fn session_id(&self) -> i64 {
        self.session_id
    }

    /// The session timeout the server agreed to, in milliseconds.
    pub fn session_timeout_ms(&self) -> i32 {
        self.timeout_ms
    }

    /// The zxid of the last reply: the last change the server had seen.
    pub fn last_zxid(&self) -> i64 {
        self.last_zxid
    }

    /// Creates `path` with `data` (`None`: Java's null) and an open ACL; returns the path
    /// created (with the counter of a sequential node).
    pub fn create(&mut self, path: &str, data: Option<&[u8]>, mode: CreateMode) -> Result<String> {
        let request = CreateRequest {
            path: Some(path.into()),
            data: data.map(<[u8]>::to_vec),
            acl: Some(open_acl_unsafe()),
            flags: mode as i32,
        };
        let response: CreateResponse = self.call(opcode::CREATE, &request, "create", path)?;
        response
            .path
            .ok_or_else(|| Error::Protocol("the server created a null path".into()))
    }

    /// The data of `path` (`None` when it was created with null data) and its stat.
    pub fn get_data(&mut self, path: &str) -> Result<(Option<Vec<u8>>, Stat)> {
        let request = GetDataRequest {
            path: Some(path.into()),
            watch: false,
        };
        let response: GetDataResponse = self.call(opcode::GET_DATA, &request, "getData", path)?;
        Ok((response.data, response.stat))
    }

    /// Sets the data of `path` if its version is `version` (−1: any); returns the new stat.
    pub fn set_data(&mut self, path: &str, data: Option<&[u8]>, version: i32) -> Result<Stat> {
        let request = SetDataRequest {
            path: Some(path.into()),
            data: data.map(<[u8]>::to_vec),
            version,
        };
        let response: SetDataResponse = self.call(opcode::SET_DATA, &request, "setData", path)?;
        Ok(response.stat)
    }

    /// The names of the children of `path`, in the server's order.
    pub fn get_children(&mut self, path: &str) -> Result<Vec<String>> {
        let request = GetChildrenRequest {
            path: Some(path.into()),
            watch: false,
        };
        let response: GetChildrenResponse =
            self.call(opcode::GET_CHILDREN, &request, "getChildren", path)?;
        Ok(response
            .children
            .unwrap_or_default()
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect())
    }

    /// Deletes `path` if its version is `version` (−1: any).
    pub fn delete(&mut self, path: &str, version: i32) -> Result<()> {
        let request = DeleteRequest {
            path: Some(path.into()),
            version,
        };
        let header = RequestHeader {
            xid: self.xid(),
            r#type: opcode::DELETE,
        };
        self.send(&[&header, &request])?;
        self.reply(header.xid, "delete", path).map(drop)
    }

    /// Pings the server (what keeps an idle session alive).
    pub fn ping(&mut self) -> Result<()> {
        let header = RequestHeader {
            xid: PING_XID,
            r#type: opcode::PING,
        };
        self.send(&[&header])?;
        self.reply(PING_XID, "ping", "").map(drop)
    }

    /// Ends the session (ephemeral nodes go) and the connection.
    pub fn close(mut self) -> Result<()> {
        let header = RequestHeader {
            xid: self.xid(),
            r#type: opcode::CLOSE_SESSION,
        };
        self.send(&[&header])?;
        self.reply(header.xid, "closeSession", "").map(drop)
    }

    fn xid(&mut self) -> i32 {
        let xid = self.next_xid;
        self.next_xid = self.next_xid.wrapping_add(1).max(1);
        xid
    }

    /// Sends a request and reads its response record.
    fn call<Q: Record, A: Record>(
        &mut self,
        op: i32,
        request: &Q,
        name: &str,
        path: &str,
    ) -> Result<A> {
        let header = RequestHeader {
            xid: self.xid(),
            r#type: op,
        };
        self.send(&[&header, request])?;
        decode(&self.reply(header.xid, name, path)?)
    }

    /// Reads frames until the reply to `xid`; the bytes after its header. A reply with an
    /// error code is [`Error::Zk`].
    fn reply(&mut self, xid: i32, name: &str, path: &str) -> Result<Vec<u8>> {
        loop {
            let mut frame = self.receive()?;
            if frame.len() < REPLY_HEADER_LEN {
                return Err(Error::Protocol(format!(
                    "a reply of {} bytes, shorter than its header",
                    frame.len()
                )));
            }
            let body = frame.split_off(REPLY_HEADER_LEN);
            let header: ReplyHeader = decode(&frame)?;
            if header.xid == NOTIFICATION_XID {
                continue;
            }
            if header.xid != xid {
                return Err(Error::Protocol(format!(
                    "the reply has xid {} where {xid} was expected",
                    header.xid
                )));
            }
            if header.zxid > 0 {
                self.last_zxid = header.zxid;
            }
            if header.err != 0 {
                let op = if path.is_empty() {
                    name.to_string()
                } else {
                    format!("{name} {path}")
                };
                return Err(Error::Zk {
                    code: Code(header.err),
                    op,
                });
            }
            return Ok(body);
        }
    }

    /// Writes the records as one frame.
    fn send(&mut self, records: &[&dyn Framable]) -> Result<()> {
        // Room for the length, filled in once the body is written.
        let mut frame = vec![0; 4];
        for r in records {
            r.append(&mut frame)?;
        }
        let len = i32::try_from(frame.len() - 4)
            .map_err(|_| Error::Protocol("a request over 2 GiB".into()))?;
        frame[..4].copy_from_slice(&len.to_be_bytes());
        self.stream.write_all(&frame)?;
        Ok(())
    }

    /// Reads one frame.
    fn receive(&mut self) -> Result<Vec<u8>> {
        let mut len = [0u8; 4];
        self.stream.read_exact(&mut len)?;
        let len = i32::from_be_bytes(len);
        let len = usize::try_from(len)
            .ok()
            .filter(|&n| n <= MAX_FRAME)
            .ok_or_else(|| Error::Protocol(format!("the server sent a frame of length {len}")))?;
        let mut frame = vec![0; len];
        self.stream.read_exact(&mut frame)?;
        Ok(frame)
    }
}

/// A record that can be put into a frame (object-safe, so a frame can hold records of
/// different types).
trait Framable {
    fn append(&self, out: &mut Vec<u8>) -> Result<()>;
}

impl<T: Record> Framable for T {
    fn append(&self, out: &mut Vec<u8>) -> Result<()> {
        Ok(hadoop_record::to_writer(out, self, Format::Jute)?)
    }
}

/// The one record of type `T` in `bytes`: an empty frame, or bytes after the record, are
/// errors too.
fn decode<T: Record>(bytes: &[u8]) -> Result<T> {
    Ok(hadoop_record::from_slice(bytes, Format::Jute)?)
}
