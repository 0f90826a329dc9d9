//! [`RecordFormat`]: DataFusion's [`FileFormat`] for record files, as `CsvFormat` and
//! `JsonFormat` are for theirs.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::Session;
use datafusion::common::{Result, Statistics};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::FileFormat;
use datafusion::datasource::physical_plan::{FileScanConfig, FileSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::physical_plan::ExecutionPlan;
use hadoop_record::schema::{RecordId, Schema};
use object_store::{ObjectMeta, ObjectStore};

use crate::options::RecordTableOptions;
use crate::progress::ScanProgress;
use crate::resolved::Resolved;
use crate::source::RecordSource;

/// Record files of one type, encoding and framing, as a DataFusion file format.
///
/// Its schema is the record type's, by the one Hadoop→Arrow mapping of
/// [`hadoop_record_arrow::mapping`]: nothing is read to infer it. Scans decode records
/// straight into Arrow columns, only the columns a query asks for (the others are skipped
/// by the schema-driven skipper), and split large files into byte ranges along the
/// framing's boundaries ([`Framing::open_range`]).
///
/// [`Framing::open_range`]: hadoop_record::framing::split::Framing::open_range
///
/// ```
/// use hadoop_record_datafusion::{RecordFormat, RecordTableOptions};
/// # let dir = tempfile::tempdir()?;
/// # let ddl = dir.path().join("m.jr");
/// # std::fs::write(&ddl, "module m { class Hit { ustring url; long n; } }")?;
/// let format = RecordFormat::try_new(RecordTableOptions::new(&ddl, "m.Hit").with_framing("paddle"))?;
/// assert_eq!(format.arrow_schema().field(1).name(), "n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RecordFormat {
    inner: Arc<Resolved>,
}

impl fmt::Debug for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.inner.options;
        f.debug_struct("RecordFormat")
            .field("record_type", &o.record_type())
            .field("encoding", &o.encoding())
            .field("framing", &self.inner.framing.to_string())
            .finish_non_exhaustive()
    }
}

impl RecordFormat {
    /// Loads the DDL the options name, finds the record type and checks the framing.
    pub fn try_new(options: RecordTableOptions) -> Result<Self> {
        Ok(RecordFormat {
            inner: Arc::new(Resolved::load(options)?),
        })
    }

    /// The options, with the DDL as text and the record type's full name: everything a
    /// scan needs, serializable.
    pub fn options(&self) -> &RecordTableOptions {
        &self.inner.options
    }

    /// The Arrow schema of the record type (the table's columns).
    pub fn arrow_schema(&self) -> SchemaRef {
        self.inner.arrow.clone()
    }

    /// The runtime schema and the record type.
    pub fn record_type(&self) -> (&Arc<Schema>, RecordId) {
        (&self.inner.schema, self.inner.id)
    }

    /// How far the scans of this format have got (bytes read), e.g. for a progress bar.
    pub fn progress(&self) -> Arc<ScanProgress> {
        self.inner.progress.clone()
    }
}

#[async_trait]
impl FileFormat for RecordFormat {
    /// Record files have no extension of their own: every file listed is read.
    fn get_ext(&self) -> String {
        String::new()
    }

    fn get_ext_with_compression(&self, _compression: &FileCompressionType) -> Result<String> {
        Ok(String::new())
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        None
    }

    /// The record type's schema; no file is read.
    async fn infer_schema(
        &self,
        _state: &dyn Session,
        _store: &Arc<dyn ObjectStore>,
        _objects: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        Ok(self.arrow_schema())
    }

    async fn infer_stats(
        &self,
        _state: &dyn Session,
        _store: &Arc<dyn ObjectStore>,
        table_schema: SchemaRef,
        _object: &ObjectMeta,
    ) -> Result<Statistics> {
        Ok(Statistics::new_unknown(&table_schema))
    }

    async fn create_physical_plan(
        &self,
        _state: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(DataSourceExec::from_data_source(conf))
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        Arc::new(RecordSource::new(self.inner.clone(), table_schema))
    }
}
