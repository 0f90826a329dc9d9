//! The crate's error: where a file is damaged (block and byte offset), a schema that does not
//! fit, I/O, or Arrow refusing an array.

use std::fmt;

use arrow_schema::ArrowError;

/// Where in a container file something was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The file's header (magic, metadata, sync marker), at this byte offset.
    Header {
        /// Byte offset in the file.
        offset: u64,
    },
    /// Data block `block` (numbered from 0) starting at byte `offset` of the file.
    Block {
        /// The block's number, from 0.
        block: u64,
        /// Byte offset of the block's start (its record count) in the file.
        offset: u64,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Header { offset } => write!(f, "in the header at byte {offset}"),
            Place::Block { block, offset } => write!(f, "in block {block} (at byte {offset})"),
        }
    }
}

/// What went wrong writing or reading an Avro container file.
#[derive(Debug)]
pub enum Error {
    /// The file is not a sound Avro container file: truncated, damaged or hostile. Says
    /// where, and what.
    Damaged {
        /// The header or the block, with its byte offset.
        place: Place,
        /// What is wrong there.
        message: String,
    },
    /// The Avro schema and the record type do not fit (a field missing, a type Avro cannot
    /// resolve to the DDL's, an unsupported type), or a value the DDL type cannot hold.
    Schema(String),
    /// A Hadoop binary record given to [`AvroRecordWriter`](crate::AvroRecordWriter) is
    /// not sound (truncated, damaged, not of the type): the error reading it, with its
    /// position in the bytes given.
    Record(hadoop_record::Error),
    /// Reading or writing failed.
    Io(std::io::Error),
    /// arrow-avro or Arrow refused to encode, decode or build an array.
    Arrow(ArrowError),
}

impl Error {
    pub(crate) fn damaged(place: Place, message: impl Into<String>) -> Self {
        Error::Damaged {
            place,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Damaged { place, message } => {
                write!(f, "damaged Avro container file, {place}: {message}")
            }
            Error::Schema(m) => f.write_str(m),
            Error::Record(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
            Error::Arrow(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Record(e) => Some(e),
            Error::Io(e) => Some(e),
            Error::Arrow(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<ArrowError> for Error {
    fn from(e: ArrowError) -> Self {
        Error::Arrow(e)
    }
}

impl From<arrow_avro::errors::AvroError> for Error {
    fn from(e: arrow_avro::errors::AvroError) -> Self {
        Error::Arrow(e.into())
    }
}

/// For Arrow's iterator types ([`arrow_array::RecordBatchReader`]): an error of this crate
/// travels as [`ArrowError::ExternalError`].
impl From<Error> for ArrowError {
    fn from(e: Error) -> Self {
        match e {
            Error::Arrow(e) => e,
            e => ArrowError::ExternalError(Box::new(e)),
        }
    }
}

/// The crate's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;
