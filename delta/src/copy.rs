//! `COPY (query) TO 'TABLE/' STORED AS DELTA`: DataFusion plans a `COPY` only to a format it
//! knows, so [`with_delta_copy`] makes `DELTA` one. Running it is the caller's: it finds the
//! `COPY` in the plan and writes its query with [`write_delta`](crate::write_delta).

use std::collections::HashMap;
use std::sync::Arc;

use datafusion::catalog::Session;
use datafusion::common::{not_impl_err, GetExt, Result};
use datafusion::datasource::file_format::parquet::ParquetFormat;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory};
use datafusion::execution::SessionStateBuilder;

/// The name `STORED AS` gives, and a `COPY`'s file type answers.
pub const DELTA_EXT: &str = "delta";

/// `STORED AS DELTA` for the planner; it writes nothing itself.
#[derive(Debug, Default)]
struct DeltaFormatFactory;

impl GetExt for DeltaFormatFactory {
    fn get_ext(&self) -> String {
        DELTA_EXT.to_owned()
    }
}

impl FileFormatFactory for DeltaFormatFactory {
    fn create(&self, _: &dyn Session, _: &HashMap<String, String>) -> Result<Arc<dyn FileFormat>> {
        not_impl_err!(
            "a Delta table is written with write_delta (rcc sql runs COPY … STORED AS DELTA so), \
             not as a file format"
        )
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        // Only the planner asks, for a COPY's file type; the files are Parquet.
        Arc::new(ParquetFormat::default())
    }
}

/// `builder` with `STORED AS DELTA` planned; call it after its default features.
pub fn with_delta_copy(mut builder: SessionStateBuilder) -> SessionStateBuilder {
    builder
        .file_formats()
        .get_or_insert_with(Vec::new)
        .push(Arc::new(DeltaFormatFactory));
    builder
}
