//! [`ReadSpec`]: a Delta table's version as it is read — its schema, partition columns and
//! files with their partition values, as the log gives them — the whole of what a
//! [`DeltaTableProvider`](crate::DeltaTableProvider) needs. A plan carries it, as JSON, to a
//! Ballista scheduler, which makes the same table of it without reading the log.

use datafusion::common::{exec_datafusion_err, Result};
use deltalake_core::kernel::StructType;
use serde::{Deserialize, Serialize};

/// A version as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ReadSpec {
    /// The table's URL, ending in `/`.
    pub url: String,
    /// The URL of its store (`file:///`, `s3://bucket/`).
    pub store_url: String,
    pub version: u64,
    /// Its columns, partition columns included, as the log writes them.
    pub schema: StructType,
    /// Its partition columns, in the log's order.
    pub partition_columns: Vec<String>,
    pub files: Vec<SpecFile>,
}

/// One file of a version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SpecFile {
    /// Its path in its store, as an object store path writes it (a Hive escape's `%` kept).
    pub path: String,
    /// Its size, as the log gives it.
    pub size: u64,
    /// Its partition values as the log gives them (text; `None` for null), in
    /// `partition_columns`' order.
    pub partition_values: Vec<Option<String>>,
}

impl ReadSpec {
    /// The spec as JSON.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self)
            .map_err(|e| exec_datafusion_err!("the Delta table {}: {e}", self.url))
    }

    /// The spec of [`ReadSpec::to_json`]'s JSON.
    pub fn from_json(json: &[u8]) -> Result<ReadSpec> {
        serde_json::from_slice(json)
            .map_err(|e| exec_datafusion_err!("a Delta table's serialized read: {e}"))
    }
}
