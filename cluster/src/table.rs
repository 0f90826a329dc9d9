//! [`RecordTable`]: a table of record files that a logical plan can carry to the scheduler.
//!
//! DataFusion serializes a `ListingTable` only for its own file formats; any other table
//! goes to the logical extension codec. So a table of record files travels as this
//! provider: its options (DDL as text, type, encoding, framing) and its paths, rebuilt on
//! the other side into the same listing table.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{ScanArgs, ScanResult, Session, TableProvider};
use datafusion::common::{Constraints, Result, Statistics};
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::datasource::TableType;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionContext;
use hadoop_record_datafusion::{record_table, RecordFormat, RecordTableOptions};
use serde::{Deserialize, Serialize};

/// A table of record files that serializes: a listing table of [`RecordFormat`] with what
/// rebuilds it elsewhere.
#[derive(Debug)]
pub struct RecordTable {
    format: Arc<RecordFormat>,
    paths: Vec<TablePath>,
    listing: ListingTable,
}

/// What a [`RecordTable`] travels as.
#[derive(Serialize, Deserialize)]
pub(crate) struct TableSpec {
    pub options: RecordTableOptions,
    /// The table's URLs, absolute (`file:///…`), globs kept.
    pub paths: Vec<TablePath>,
}

/// One path of a table: a URL and the glob its files must match, if any.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TablePath {
    url: String,
    glob: Option<String>,
}

impl TablePath {
    fn of(url: &ListingTableUrl) -> Self {
        TablePath {
            url: url.as_str().to_owned(),
            glob: url.get_glob().as_ref().map(|g| g.as_str().to_owned()),
        }
    }

    fn to_url(&self) -> Result<ListingTableUrl> {
        let url = ListingTableUrl::parse(&self.url)?;
        match &self.glob {
            Some(glob) => url.with_glob(glob),
            None => Ok(url),
        }
    }
}

impl RecordTable {
    /// The table of `paths` (files, directories, globs; each must match a file) in
    /// `format`, as [`record_table`] makes it.
    pub async fn try_new(
        ctx: &SessionContext,
        format: Arc<RecordFormat>,
        paths: &[&str],
    ) -> Result<Self> {
        let listing = record_table(ctx, format.clone(), paths).await?;
        let paths = listing.table_paths().iter().map(TablePath::of).collect();
        Ok(RecordTable {
            format,
            paths,
            listing,
        })
    }

    /// The table a [`TableSpec`] describes, without listing its files (that happens when
    /// it is scanned, where the plan runs).
    pub(crate) fn from_spec(spec: TableSpec) -> Result<Self> {
        let format = Arc::new(RecordFormat::try_new(spec.options)?);
        let urls = spec
            .paths
            .iter()
            .map(TablePath::to_url)
            .collect::<Result<Vec<_>>>()?;
        let listing = ListingOptions::new(format.clone()).with_file_extension("");
        let config = ListingTableConfig::new_with_multi_paths(urls)
            .with_listing_options(listing)
            .with_schema(format.arrow_schema());
        Ok(RecordTable {
            format,
            paths: spec.paths,
            listing: ListingTable::try_new(config)?,
        })
    }

    pub(crate) fn spec(&self) -> TableSpec {
        TableSpec {
            options: self.format.options().clone(),
            paths: self.paths.clone(),
        }
    }

    /// The table's format (its schema and scan progress).
    pub fn format(&self) -> &Arc<RecordFormat> {
        &self.format
    }
}

#[async_trait]
impl TableProvider for RecordTable {
    fn schema(&self) -> SchemaRef {
        self.listing.schema()
    }

    fn constraints(&self) -> Option<&Constraints> {
        self.listing.constraints()
    }

    fn table_type(&self) -> TableType {
        self.listing.table_type()
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.listing.scan(state, projection, filters, limit).await
    }

    async fn scan_with_args<'a>(
        &self,
        state: &dyn Session,
        args: ScanArgs<'a>,
    ) -> Result<ScanResult> {
        self.listing.scan_with_args(state, args).await
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        self.listing.supports_filters_pushdown(filters)
    }

    fn statistics(&self) -> Option<Statistics> {
        self.listing.statistics()
    }
}
