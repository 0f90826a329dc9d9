//! [`DeltaTableProvider`]: a Delta table at a version, read as DataFusion reads Parquet —
//! its snapshot's files, each with its partition values — so that a query joins it with
//! record files, and a Ballista cluster's executors scan it as any Parquet scan.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::{Field, FieldRef, Schema, SchemaRef};
use datafusion::catalog::Session;
use datafusion::common::{plan_err, Result, ScalarValue};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileGroup, FileScanConfigBuilder, ParquetSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::datasource::{TableProvider, TableType};
use datafusion::execution::object_store::ObjectStoreUrl;
use datafusion::execution::runtime_env::RuntimeEnv;
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::ExecutionPlan;
use object_store::ObjectMeta;

use crate::location::Location;
use crate::schema::arrow_schema;
use crate::time_travel::TimeTravel;

/// The reader features this reader reads: a table that needs another (deletion vectors,
/// column mapping, …) is refused, naming it, rather than read wrong.
const READS: &[&str] = &["timestampNtz"];

/// A Delta table's version as a DataFusion table.
#[derive(Debug)]
pub struct DeltaTableProvider {
    /// The data columns, then the partition columns.
    schema: SchemaRef,
    /// The data columns (what the files hold).
    file_schema: SchemaRef,
    partition_columns: Vec<FieldRef>,
    store_url: ObjectStoreUrl,
    /// The files, each with its partition values (in `partition_columns`' order).
    files: Vec<PartitionedFile>,
    version: u64,
}

impl DeltaTableProvider {
    /// The table at `url` as of `at`, through `runtime`'s stores.
    pub async fn open(runtime: &RuntimeEnv, url: &str, at: TimeTravel) -> Result<Self> {
        let location = Location::open(runtime, url)?;
        let Some(table) = location.load(at).await? else {
            return plan_err!(
                "{}: no Delta table there (no _delta_log/): is it the table's directory?",
                location.url
            );
        };
        let snapshot = table.snapshot().map_err(|e| location.error(e))?;
        let protocol = snapshot.protocol();
        if let Some(features) = protocol.reader_features() {
            let unknown: Vec<String> = features
                .iter()
                .map(|f| f.to_string())
                .filter(|f| !READS.contains(&f.as_str()))
                .collect();
            if !unknown.is_empty() {
                return plan_err!(
                    "the Delta table {} needs reader features rcc does not read ({}): read it \
                     with Spark or the deltalake Python package",
                    location.url,
                    unknown.join(", ")
                );
            }
        }
        let all = arrow_schema(&snapshot.schema())?;
        let partitions = snapshot.metadata().partition_columns().to_vec();
        let data: Vec<FieldRef> = all
            .fields()
            .iter()
            .filter(|f| !partitions.contains(f.name()))
            .cloned()
            .collect();
        let partition_columns: Vec<FieldRef> = partitions
            .iter()
            .map(|name| {
                all.field_with_name(name)
                    .map(|f| Arc::new(Field::new(name, f.data_type().clone(), true)))
            })
            .collect::<std::result::Result<_, _>>()?;
        let mut files = Vec::new();
        for file in snapshot.log_data() {
            let values = file.partition_values_map();
            let partition_values = partition_columns
                .iter()
                .map(|field| match values.get(field.name()).cloned().flatten() {
                    Some(text) => ScalarValue::try_from_string(text, field.data_type()),
                    None => ScalarValue::try_from(field.data_type()),
                })
                .collect::<Result<Vec<_>>>()?;
            let path: object_store::path::Path = location
                .dir
                .parts()
                .chain(file.object_store_path().parts())
                .collect();
            // The path as it is (`PartitionedFile::new` would escape a Hive escape's `%`
            // again).
            let meta = ObjectMeta {
                location: path,
                last_modified: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
                size: file.size() as u64,
                e_tag: None,
                version: None,
            };
            files
                .push(PartitionedFile::new_from_meta(meta).with_partition_values(partition_values));
        }
        let file_schema = Arc::new(Schema::new(data));
        let mut fields: Vec<FieldRef> = file_schema.fields().iter().cloned().collect();
        fields.extend(partition_columns.iter().cloned());
        Ok(DeltaTableProvider {
            schema: Arc::new(Schema::new(fields)),
            file_schema,
            partition_columns,
            store_url: location.store_url,
            files,
            version: snapshot.version(),
        })
    }

    /// The version read.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The files read (paths in their store).
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.object_meta.location.as_ref())
    }
}

#[async_trait]
impl TableProvider for DeltaTableProvider {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let table_schema = TableSchema::builder(self.file_schema.clone())
            .with_table_partition_cols(self.partition_columns.clone())
            .build();
        let source = Arc::new(ParquetSource::new(table_schema));
        // The files, spread over the session's partitions in turn.
        let partitions = state.config().target_partitions().max(1);
        let mut groups: Vec<Vec<PartitionedFile>> = vec![Vec::new(); partitions];
        for (i, file) in self.files.iter().enumerate() {
            groups[i % partitions].push(file.clone());
        }
        groups.retain(|g| !g.is_empty());
        let config = FileScanConfigBuilder::new(self.store_url.clone(), source)
            .with_file_groups(groups.into_iter().map(FileGroup::new).collect())
            .with_projection_indices(projection.cloned())?
            .with_limit(limit)
            .build();
        Ok(DataSourceExec::from_data_source(config))
    }
}
