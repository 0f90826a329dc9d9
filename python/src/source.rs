//! Where a reader's batches come from ([`Source`]: a query, a JSON file, a keyed
//! SequenceFile) and why one could not be read ([`ReadError`]).

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use datafusion::common::DataFusionError;
use pyo3::prelude::*;

use crate::errors::{from_datafusion, message};

/// Where batches come from.
pub(crate) trait Source: Send {
    /// The next batch; `None` at the end.
    fn next_batch(&mut self) -> Result<Option<RecordBatch>, ReadError>;
}

/// Why a batch could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// A scan's error (a bad record inside names its file, record, offset, field path).
    Scan(DataFusionError),
}

impl ReadError {
    pub(crate) fn into_py(self) -> PyErr {
        let ReadError::Scan(e) = self;
        from_datafusion(e)
    }

    pub(crate) fn into_arrow(self) -> ArrowError {
        let ReadError::Scan(e) = self;
        ArrowError::ExternalError(message(&e).into())
    }
}
