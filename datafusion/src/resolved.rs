//! [`Resolved`]: a record format's options, loaded. What the format, its sources, openers
//! and scans share; it imports none of them, so data flows one way: format → source →
//! opener → scan, each reading this.

use std::sync::Arc;

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::{plan_datafusion_err, Result};
use hadoop_record::framing::split::Framing;
use hadoop_record::framing::BufferPool;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record_arrow::mapping::{arrow_schema, MappingOptions};

use crate::ddl::load_type;
use crate::options::RecordTableOptions;
use crate::progress::ScanProgress;

/// The options of a format, loaded: what its sources and openers share.
pub(crate) struct Resolved {
    /// The options, with the DDL as text.
    pub options: RecordTableOptions,
    pub schema: Arc<Schema>,
    pub id: RecordId,
    pub framing: Framing,
    pub arrow: SchemaRef,
    pub progress: Arc<ScanProgress>,
    /// Chunk buffers the table's scans hand on to one another (see [`BufferPool`]): at
    /// most one per core is kept, for as long as the table is registered.
    pub buffers: BufferPool,
}

impl Resolved {
    /// Loads the DDL the options name, finds the record type, checks the framing and maps
    /// the type to Arrow.
    pub(crate) fn load(options: RecordTableOptions) -> Result<Self> {
        let loaded = load_type(options.schema(), options.record_type())?;
        let framing = options
            .framing()
            .to_framing()
            .map_err(|e| plan_datafusion_err!("{e}"))?;
        let mapping = MappingOptions::default()
            .with_nullable(options.nullable())
            .with_string_view(options.string_view());
        let arrow = arrow_schema(&loaded.schema, loaded.id, mapping)
            .map_err(|e| plan_datafusion_err!("{e}"))?;
        let record_type = loaded
            .schema
            .record(loaded.id)
            .map(|r| r.full_name())
            .unwrap_or_default();
        let options = options
            .with_schema(loaded.source)
            .with_record_type(record_type);
        Ok(Resolved {
            options,
            schema: loaded.schema,
            id: loaded.id,
            framing,
            arrow: Arc::new(arrow),
            progress: Arc::new(ScanProgress::default()),
            buffers: BufferPool::new(std::thread::available_parallelism().map_or(1, usize::from)),
        })
    }
}
