//! Errors as Python sees them: `hadoop_record.RecordError` (a `ValueError`) for a record or
//! frame that cannot be read or written, with the facts `rcc` prints as attributes; the
//! usual built-in exceptions for everything else.

use datafusion::common::DataFusionError;
use hadoop_record::Position;
use hadoop_record_datafusion::{Place, RecordError as ScanError};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    hadoop_record,
    RecordError,
    PyValueError,
    "A record or frame that could not be read or written: damaged or hostile input, or a value \
     the record type cannot hold.\n\n\
     The message names what `rcc` names; the attributes hold the same facts: `file` (None for \
     bytes in memory), `record` (its 0-based number, when known), `offset` (the byte offset of \
     the record, or of the frame or chunk holding it, when known) and `path` (the field path \
     inside the record, empty when the error is not in a field)."
);

/// Where a record error happened.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    pub file: Option<String>,
    pub record: Option<u64>,
    pub offset: Option<u64>,
    pub path: String,
}

impl Facts {
    /// The facts a runtime error carries about itself, in `file`.
    pub(crate) fn of(error: &hadoop_record::Error, file: Option<&str>) -> Self {
        Facts {
            file: file.map(str::to_owned),
            record: error.record(),
            offset: byte(error.position()),
            path: error.path(),
        }
    }
}

fn byte(position: Option<Position>) -> Option<u64> {
    match position {
        Some(Position::Byte(b)) => Some(b),
        _ => None,
    }
}

/// A `RecordError` with `message` and `facts` as its attributes.
pub(crate) fn record_error(message: String, facts: Facts) -> PyErr {
    Python::attach(|py| {
        let error = RecordError::new_err(message);
        let value = error.value(py);
        let set = || -> PyResult<()> {
            value.setattr("file", facts.file)?;
            value.setattr("record", facts.record)?;
            value.setattr("offset", facts.offset)?;
            value.setattr("path", facts.path)?;
            Ok(())
        };
        match set() {
            Ok(()) => error,
            Err(e) => e,
        }
    })
}

/// A runtime error about a record of `file` (`None`: bytes in memory).
pub(crate) fn from_record(error: &hadoop_record::Error, file: Option<&str>) -> PyErr {
    let message = match file {
        Some(file) => format!("{file}: {error}"),
        None => error.to_string(),
    };
    record_error(message, Facts::of(error, file))
}

/// A scan's error: a bad record (found anywhere in the error's chain) as a `RecordError`
/// worded as `rcc sql` words it; a file system error as `OSError`; a query that does not
/// plan as `ValueError`; anything else as `RuntimeError`.
pub(crate) fn from_datafusion(error: DataFusionError) -> PyErr {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    while let Some(s) = source {
        if let Some(scan) = s.downcast_ref::<ScanError>() {
            return from_scan(scan);
        }
        if let Some(arrow) = s.downcast_ref::<hadoop_record_arrow::Error>() {
            if let Some(record) = arrow.as_record() {
                return from_record(record, None);
            }
        }
        source = s.source();
    }
    match error.find_root() {
        DataFusionError::IoError(e) => PyOSError::new_err(e.to_string()),
        DataFusionError::ObjectStore(e) => PyOSError::new_err(e.to_string()),
        DataFusionError::Plan(message) => PyValueError::new_err(message.clone()),
        DataFusionError::Configuration(message) => PyValueError::new_err(message.clone()),
        DataFusionError::SchemaError(..) | DataFusionError::SQL(..) => {
            PyValueError::new_err(error.to_string())
        }
        _ => PyRuntimeError::new_err(error.to_string()),
    }
}

fn from_scan(scan: &ScanError) -> PyErr {
    let offset = match &scan.place {
        Place::Payload { location, .. } => Some(location.offset),
        _ => byte(scan.error.position()),
    };
    let facts = Facts {
        file: Some(scan.file.clone()),
        record: scan.record(),
        offset,
        path: scan.path(),
    };
    record_error(scan.to_string(), facts)
}

/// A scan's error as one line: a bad record as `rcc sql` words it, anything else as
/// DataFusion does.
pub(crate) fn message(error: &DataFusionError) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(s) = source {
        if let Some(scan) = s.downcast_ref::<ScanError>() {
            return scan.to_string();
        }
        source = s.source();
    }
    error.to_string()
}
