//! [`DeltaTableProvider`]: a Delta table at a version, read as DataFusion reads Parquet —
//! its snapshot's files, each with the partition values its log gives — so that a query
//! joins it with record files. On a Ballista cluster the table travels to the scheduler as
//! its [`ReadSpec`] ([`DeltaTableProvider::to_json`], [`DeltaTableProvider::from_json`]),
//! and its scan to the executors as any Parquet scan (DataFusion's own protobuf).

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::{Field, FieldRef, Schema, SchemaRef};
use datafusion::catalog::Session;
use datafusion::common::{exec_datafusion_err, plan_err, Result, ScalarValue};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileGroup, FileScanConfigBuilder, ParquetSource};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::datasource::{TableProvider, TableType};
use datafusion::execution::object_store::ObjectStoreUrl;
use datafusion::execution::runtime_env::RuntimeEnv;
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::ExecutionPlan;
use object_store::path::Path;
use object_store::ObjectMeta;

use crate::location::Location;
use crate::schema::arrow_schema;
use crate::spec::{ReadSpec, SpecFile};
use crate::time_travel::TimeTravel;

/// The reader features this reader reads: a table that needs another (deletion vectors,
/// column mapping, …) is refused, naming it, rather than read wrong.
const READS: &[&str] = &["timestampNtz"];

/// A Delta table's version as a DataFusion table.
#[derive(Debug)]
pub struct DeltaTableProvider {
    /// What it was made of.
    spec: ReadSpec,
    /// The data columns, then the partition columns.
    schema: SchemaRef,
    /// The data columns (what the files hold).
    file_schema: SchemaRef,
    partition_columns: Vec<FieldRef>,
    store_url: ObjectStoreUrl,
    /// The files, each with its partition values (in `partition_columns`' order).
    files: Vec<PartitionedFile>,
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
        // Column mapping reads each column by a physical name the log gives (reader
        // version 2 has no reader features to say so): read by name, its columns would be
        // nulls.
        if let Some(mode) = snapshot
            .metadata()
            .configuration()
            .get("delta.columnMapping.mode")
            .filter(|m| !m.eq_ignore_ascii_case("none"))
        {
            return plan_err!(
                "the Delta table {} needs the reader feature columnMapping (mode {mode}), \
                 which rcc does not read: read it with Spark or the deltalake Python package",
                location.url
            );
        }
        let partition_columns = snapshot.metadata().partition_columns().to_vec();
        let mut files = Vec::new();
        for file in snapshot.log_data() {
            // A shallow clone's files lie elsewhere, named by absolute URLs.
            if file.path().contains("://") {
                return plan_err!(
                    "the Delta table {} names a file outside its directory ({}), as a \
                     shallow clone does, which rcc does not read: read it with Spark",
                    location.url,
                    file.path()
                );
            }
            let mut values = file.partition_values_map();
            let path: Path = location
                .dir
                .parts()
                .chain(file.object_store_path().parts())
                .collect();
            files.push(SpecFile {
                path: path.to_string(),
                size: file.size() as u64,
                partition_values: partition_columns
                    .iter()
                    .map(|c| values.remove(c).flatten())
                    .collect(),
            });
        }
        DeltaTableProvider::from_spec(ReadSpec {
            url: location.url,
            store_url: location.store_url.as_str().to_owned(),
            version: snapshot.version(),
            schema: snapshot.schema().as_ref().clone(),
            partition_columns,
            files,
        })
    }

    /// The table a [`ReadSpec`] describes.
    fn from_spec(spec: ReadSpec) -> Result<Self> {
        let all = arrow_schema(&spec.schema)?;
        let partitions = &spec.partition_columns;
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
        let files = spec
            .files
            .iter()
            .map(|file| {
                if file.partition_values.len() != partition_columns.len() {
                    return Err(exec_datafusion_err!(
                        "the Delta table {}: {} has {} partition values for {} partition \
                         columns",
                        spec.url,
                        file.path,
                        file.partition_values.len(),
                        partition_columns.len()
                    ));
                }
                let partition_values = partition_columns
                    .iter()
                    .zip(&file.partition_values)
                    .map(|(field, value)| match value {
                        Some(text) => ScalarValue::try_from_string(text.clone(), field.data_type()),
                        None => ScalarValue::try_from(field.data_type()),
                    })
                    .collect::<Result<Vec<_>>>()?;
                // The path as it is (`Path::from` or `PartitionedFile::new` would escape a
                // Hive escape's `%` again).
                let location = Path::parse(&file.path)
                    .map_err(|e| exec_datafusion_err!("the Delta table {}: {e}", spec.url))?;
                let meta = ObjectMeta {
                    location,
                    last_modified: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
                    size: file.size,
                    e_tag: None,
                    version: None,
                };
                Ok(PartitionedFile::new_from_meta(meta).with_partition_values(partition_values))
            })
            .collect::<Result<Vec<_>>>()?;
        let file_schema = Arc::new(Schema::new(data));
        let mut fields: Vec<FieldRef> = file_schema.fields().iter().cloned().collect();
        fields.extend(partition_columns.iter().cloned());
        Ok(DeltaTableProvider {
            schema: Arc::new(Schema::new(fields)),
            file_schema,
            partition_columns,
            store_url: ObjectStoreUrl::parse(&spec.store_url)?,
            files,
            spec,
        })
    }

    /// The table as JSON: its version's schema and files, as the log gives them, which
    /// [`DeltaTableProvider::from_json`] makes the same table of (on a Ballista scheduler,
    /// without reading the log).
    pub fn to_json(&self) -> Result<Vec<u8>> {
        self.spec.to_json()
    }

    /// The table [`DeltaTableProvider::to_json`] wrote.
    pub fn from_json(json: &[u8]) -> Result<Self> {
        DeltaTableProvider::from_spec(ReadSpec::from_json(json)?)
    }

    /// The version read.
    pub fn version(&self) -> u64 {
        self.spec.version
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

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::datatypes::DataType;

    /// A version of two files partitioned by `k` (a Hive escape in one's path, which is
    /// not where its value comes from; a null in the other's value), as JSON.
    fn spec_json(k_value: &str) -> String {
        let schema = r#"{"type":"struct","fields":[
            {"name":"id","type":"long","nullable":true,"metadata":{}},
            {"name":"k","type":"integer","nullable":true,"metadata":{}},
            {"name":"s","type":"string","nullable":true,"metadata":{}}]}"#;
        format!(
            r#"{{"url":"file:///lake/t/","store_url":"file:///","version":3,
                "schema":{schema},"partition_columns":["k"],
                "files":[{{"path":"lake/t/k=7%2F/part-0.parquet","size":12,
                           "partition_values":[{k_value}]}},
                         {{"path":"lake/t/k=__HIVE_DEFAULT_PARTITION__/part-1.parquet",
                           "size":34,"partition_values":[null]}}]}}"#
        )
    }

    #[test]
    fn a_version_travels_as_json_and_reads_the_same() {
        let table = DeltaTableProvider::from_json(spec_json("\"7\"").as_bytes()).unwrap();
        assert_eq!(table.version(), 3);
        let schema = table.schema();
        let columns: Vec<(&str, &DataType)> = schema
            .fields()
            .iter()
            .map(|f| (f.name().as_str(), f.data_type()))
            .collect();
        assert_eq!(
            columns,
            [
                ("id", &DataType::Int64),
                ("s", &DataType::Utf8),
                ("k", &DataType::Int32)
            ]
        );
        // The paths as they are (the `%` of a Hive escape not escaped again), the
        // partition values typed from the log's text.
        assert_eq!(
            table.files().collect::<Vec<_>>(),
            [
                "lake/t/k=7%2F/part-0.parquet",
                "lake/t/k=__HIVE_DEFAULT_PARTITION__/part-1.parquet"
            ]
        );
        let values: Vec<&[ScalarValue]> = table
            .files
            .iter()
            .map(|f| f.partition_values.as_slice())
            .collect();
        assert_eq!(
            values,
            [[ScalarValue::Int32(Some(7))], [ScalarValue::Int32(None)]]
        );
        assert_eq!(
            table
                .files
                .iter()
                .map(|f| f.object_meta.size)
                .collect::<Vec<_>>(),
            [12, 34]
        );
        // Again from its own JSON: the same.
        let again = DeltaTableProvider::from_json(&table.to_json().unwrap()).unwrap();
        assert_eq!(again.spec, table.spec);
        assert_eq!(again.to_json().unwrap(), table.to_json().unwrap());
    }

    #[test]
    fn a_damaged_read_is_an_error() {
        let e = DeltaTableProvider::from_json(b"{\"url\":").unwrap_err();
        assert!(
            e.to_string().contains("a Delta table's serialized read"),
            "{e}"
        );
        // A partition value that is not of its column's type; one too many.
        let e = DeltaTableProvider::from_json(spec_json("\"seven\"").as_bytes()).unwrap_err();
        assert!(e.to_string().contains("seven"), "{e}");
        let e = DeltaTableProvider::from_json(spec_json("\"7\", \"8\"").as_bytes()).unwrap_err();
        assert!(
            e.to_string()
                .contains("k=7%2F/part-0.parquet has 2 partition values for 1 partition"),
            "{e}"
        );
    }

    /// A table whose log is `actions` (one JSON action a line), in a fresh directory.
    fn table_of(actions: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("_delta_log")).unwrap();
        std::fs::write(
            dir.path().join("_delta_log/00000000000000000000.json"),
            actions.join("\n") + "\n",
        )
        .unwrap();
        dir
    }

    /// The error of opening the table in `dir`.
    async fn refusal(dir: &tempfile::TempDir) -> String {
        let url = format!("{}/", dir.path().display());
        DeltaTableProvider::open(&RuntimeEnv::default(), &url, TimeTravel::Latest)
            .await
            .unwrap_err()
            .to_string()
    }

    const METADATA: &str = r#"{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{CM}}]}","partitionColumns":[],"configuration":{CONF},"createdTime":0}}"#;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn what_would_be_read_wrong_is_refused_naming_why() {
        // Column mapping by name, which reader version 2 has without reader features.
        let mapped = METADATA
            .replace(
                "{CM}",
                r#"{\"delta.columnMapping.id\":1,\"delta.columnMapping.physicalName\":\"col-1\"}"#,
            )
            .replace(
                "{CONF}",
                r#"{"delta.columnMapping.mode":"name","delta.columnMapping.maxColumnId":"1"}"#,
            );
        let dir = table_of(&[
            r#"{"protocol":{"minReaderVersion":2,"minWriterVersion":5}}"#,
            &mapped,
        ]);
        let e = refusal(&dir).await;
        assert!(
            e.contains("needs the reader feature columnMapping (mode name)"),
            "{e}"
        );
        // A file outside the table (a shallow clone's).
        let plain = METADATA.replace("{CM}", "{}").replace("{CONF}", "{}");
        let dir = table_of(&[
            r#"{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}"#,
            &plain,
            r#"{"add":{"path":"file:///elsewhere/part-0.parquet","partitionValues":{},"size":10,"modificationTime":0,"dataChange":true}}"#,
        ]);
        let e = refusal(&dir).await;
        assert!(
            e.contains("names a file outside its directory (file:///elsewhere/part-0.parquet)"),
            "{e}"
        );
    }
}
