//! [`RecordSource`]: how a scan of record files is opened ([`FileSource`]), with the
//! projection pushed into the decoder and files split where the framing allows it.

use std::fmt;
use std::sync::Arc;

use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::Result;
use datafusion::datasource::physical_plan::{FileOpener, FileScanConfig, FileSource};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::{DisplayFormatType, PhysicalExpr};
use object_store::ObjectStore;

use crate::opener::RecordOpener;
use crate::resolved::Resolved;

/// The [`FileSource`] of [`RecordFormat`](crate::RecordFormat): opens each file (or byte
/// range of one) with a [`RecordOpener`].
#[derive(Clone)]
pub struct RecordSource {
    format: Arc<Resolved>,
    table_schema: TableSchema,
    projection: SplitProjection,
    batch_size: Option<usize>,
    metrics: ExecutionPlanMetricsSet,
}

impl RecordSource {
    pub(crate) fn new(format: Arc<Resolved>, table_schema: TableSchema) -> Self {
        RecordSource {
            format,
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            batch_size: None,
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }

    /// The record fields the scan decodes, by index in the record (the others are
    /// skipped).
    pub fn decoded_fields(&self) -> &[usize] {
        &self.projection.file_indices
    }

    /// What the scanned table is (DDL as text, type, encoding, framing): with the scan's
    /// file groups and projection, all a plan that travels needs to rebuild this source.
    pub fn options(&self) -> &crate::RecordTableOptions {
        &self.format.options
    }
}

impl FileSource for RecordSource {
    fn create_file_opener(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        _partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        let batch_size = self
            .format
            .options
            .batch_size()
            .or(self.batch_size)
            .unwrap_or(hadoop_record_arrow::decode::DEFAULT_BATCH_SIZE);
        let opener = Arc::new(RecordOpener::new(
            self.format.clone(),
            object_store,
            base_config.object_store_url.as_str().to_owned(),
            self.projection.file_indices.clone(),
            batch_size,
        ));
        ProjectionOpener::try_new(
            self.projection.clone(),
            opener,
            self.table_schema.file_schema(),
        )
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        let mut source = self.clone();
        source.batch_size = Some(batch_size);
        Arc::new(source)
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let mut source = self.clone();
        let merged = self.projection.source.try_merge(projection)?;
        source.projection = SplitProjection::new(self.table_schema.file_schema(), &merged);
        Ok(Some(Arc::new(source)))
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        "hadoop-record"
    }

    /// Byte ranges along the framing's boundaries; unsplittable framings (Mesos, plain
    /// binary, XML and jute streams) are read whole.
    fn supports_repartitioning(&self) -> bool {
        // Avro files are read whole.
        !self.format.options.avro()
            && self
                .format
                .framing
                .is_splittable(self.format.options.encoding())
    }

    fn fmt_extra(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        let o = &self.format.options;
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose if o.avro() => {
                write!(f, ", record_type={}, format=avro", o.record_type())
            }
            DisplayFormatType::Default | DisplayFormatType::Verbose => write!(
                f,
                ", record_type={}, encoding={}, framing={}",
                o.record_type(),
                o.encoding(),
                self.format.framing
            ),
            DisplayFormatType::TreeRender => Ok(()),
        }
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        datafusion::physical_plan::apply_expression_roots(self.projection.source.iter(), f)
    }
}
