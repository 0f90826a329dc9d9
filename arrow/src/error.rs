//! The crate's error: a record that does not decode or encode (with its record number,
//! position and field path, as the runtime reports them), or Arrow refusing an array.

use std::fmt;

use arrow_schema::ArrowError;

/// What went wrong converting between records and Arrow.
#[derive(Debug)]
pub enum Error {
    /// A record, or a column against the schema: [`hadoop_record::Error`] carries the record
    /// number, the position in the input and the field path (`Outer.tags[3]`).
    Record(hadoop_record::Error),
    /// Arrow refused to build or read an array.
    Arrow(ArrowError),
}

impl Error {
    /// The record error, when it is one.
    pub fn as_record(&self) -> Option<&hadoop_record::Error> {
        match self {
            Error::Record(e) => Some(e),
            Error::Arrow(_) => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Record(e) => e.fmt(f),
            Error::Arrow(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Record(e) => e.source(),
            Error::Arrow(e) => Some(e),
        }
    }
}

impl From<hadoop_record::Error> for Error {
    fn from(e: hadoop_record::Error) -> Self {
        Error::Record(e)
    }
}

impl From<ArrowError> for Error {
    fn from(e: ArrowError) -> Self {
        match e {
            // Our own errors, back from a trip through Arrow's iterator types.
            ArrowError::ExternalError(inner) => match inner.downcast::<hadoop_record::Error>() {
                Ok(e) => Error::Record(*e),
                Err(inner) => Error::Arrow(ArrowError::ExternalError(inner)),
            },
            e => Error::Arrow(e),
        }
    }
}

/// Arrow's iterators ([`arrow_array::RecordBatchReader`]) carry [`ArrowError`]: a record
/// error travels as [`ArrowError::ExternalError`], from which [`Error::from`] takes it back.
impl From<Error> for ArrowError {
    fn from(e: Error) -> Self {
        match e {
            Error::Record(e) => ArrowError::ExternalError(Box::new(e)),
            Error::Arrow(e) => e,
        }
    }
}
