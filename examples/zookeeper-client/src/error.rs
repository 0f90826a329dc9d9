//! Errors: ZooKeeper's error codes (`KeeperException.Code`), and what can go wrong on the way.

use std::fmt;

/// A ZooKeeper error code, as a server puts it in `ReplyHeader.err`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Code(pub i32);

/// The codes of `KeeperException.Code` (ZooKeeper 3.9): value and Java name.
const NAMES: &[(i32, &str)] = &[
    (0, "OK"),
    (-1, "SYSTEMERROR"),
    (-2, "RUNTIMEINCONSISTENCY"),
    (-3, "DATAINCONSISTENCY"),
    (-4, "CONNECTIONLOSS"),
    (-5, "MARSHALLINGERROR"),
    (-6, "UNIMPLEMENTED"),
    (-7, "OPERATIONTIMEOUT"),
    (-8, "BADARGUMENTS"),
    (-12, "UNKNOWNSESSION"),
    (-13, "NEWCONFIGNOQUORUM"),
    (-14, "RECONFIGINPROGRESS"),
    (-100, "APIERROR"),
    (-101, "NONODE"),
    (-102, "NOAUTH"),
    (-103, "BADVERSION"),
    (-108, "NOCHILDRENFOREPHEMERALS"),
    (-110, "NODEEXISTS"),
    (-111, "NOTEMPTY"),
    (-112, "SESSIONEXPIRED"),
    (-113, "INVALIDCALLBACK"),
    (-114, "INVALIDACL"),
    (-115, "AUTHFAILED"),
    (-118, "SESSIONMOVED"),
    (-119, "NOTREADONLY"),
    (-120, "EPHEMERALONLOCALSESSION"),
    (-121, "NOWATCHER"),
    (-122, "REQUESTTIMEOUT"),
    (-123, "RECONFIGDISABLED"),
    (-124, "SESSIONCLOSEDREQUIRESASLAUTH"),
    (-125, "QUOTAEXCEEDED"),
    (-127, "THROTTLEDOP"),
];

impl Code {
    /// `Code.OK`
    pub const OK: Code = Code(0);
    /// `Code.NONODE`: the node does not exist.
    pub const NO_NODE: Code = Code(-101);
    /// `Code.BADVERSION`: the version given does not match the node's.
    pub const BAD_VERSION: Code = Code(-103);
    /// `Code.NODEEXISTS`: the node already exists.
    pub const NODE_EXISTS: Code = Code(-110);
    /// `Code.NOTEMPTY`: the node has children.
    pub const NOT_EMPTY: Code = Code(-111);

    /// The Java name (`NONODE`), or `None` for a code ZooKeeper 3.9 does not define.
    pub fn name(self) -> Option<&'static str> {
        NAMES.iter().find(|(v, _)| *v == self.0).map(|(_, n)| *n)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "unknown error code {}", self.0),
        }
    }
}

/// What a client call or a data-directory read can fail with.
#[derive(Debug)]
pub enum Error {
    /// The server answered with an error code.
    Zk {
        /// The code.
        code: Code,
        /// The operation and path, e.g. `create /a`.
        op: String,
    },
    /// The connection failed or closed.
    Io(std::io::Error),
    /// Bytes that are not what ZooKeeper sends or writes (with where).
    Protocol(String),
    /// A record did not decode or encode.
    Record(hadoop_record::Error),
    /// A transaction log or snapshot is damaged at this byte offset of its file.
    Damaged {
        /// Where the damage starts.
        offset: u64,
        /// What is wrong.
        message: String,
    },
}

impl Error {
    /// The ZooKeeper error code, when the server sent one.
    pub fn code(&self) -> Option<Code> {
        match self {
            Error::Zk { code, .. } => Some(*code),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Zk { code, op } => write!(f, "{op}: {code}"),
            Error::Io(e) => write!(f, "I/O error: {e}"),
            Error::Protocol(m) => f.write_str(m),
            Error::Record(e) => e.fmt(f),
            Error::Damaged { offset, message } => write!(f, "byte {offset}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<hadoop_record::Error> for Error {
    fn from(e: hadoop_record::Error) -> Self {
        Error::Record(e)
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_print_with_their_java_names() {
        assert_eq!(Code::NO_NODE.to_string(), "NONODE (-101)");
        assert_eq!(Code(-9999).to_string(), "unknown error code -9999");
        let e = Error::Zk {
            code: Code::NODE_EXISTS,
            op: "create /a".into(),
        };
        assert_eq!(e.to_string(), "create /a: NODEEXISTS (-110)");
    }
}
