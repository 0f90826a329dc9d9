//! [`SessionContextExt::register_records`]: a table of record files in one call.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::common::{plan_datafusion_err, Result};
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::execution::context::SessionContext;
use futures::TryStreamExt;

use crate::binary_strings::register_binary_strings;
use crate::format::RecordFormat;
use crate::options::RecordTableOptions;

/// Registers tables of record files with a [`SessionContext`].
#[async_trait]
pub trait SessionContextExt {
    /// Registers `paths` — files, directories (every file below them) and globs
    /// (`logs/*.paddle`), local or in a registered object store (`s3://…`) — as one table
    /// `name` of the records `options` describe. Returns the table's format, for its schema
    /// and its progress. A path that matches no file is an error. The session gets SQL's
    /// functions on binary strings for the table's `buffer` columns
    /// ([`register_binary_strings`]).
    ///
    /// ```
    /// use datafusion::prelude::SessionContext;
    /// use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// # let ddl = dir.path().join("m.jr");
    /// # std::fs::write(&ddl, "module m { class Hit { ustring url; long n; } }")?;
    /// # std::fs::write(dir.path().join("hits.csv"), "'a,1\n'b,2\n'a,5\n")?;
    /// # let data = dir.path().join("hits.csv");
    /// # let data = data.to_str().unwrap();
    /// let ctx = SessionContext::new();
    /// let options = RecordTableOptions::new(&ddl, "m.Hit").encoding(hadoop_record::Format::Csv);
    /// ctx.register_records("hits", options, &[data]).await?;
    /// let df = ctx.sql("SELECT url, sum(n) AS n FROM hits GROUP BY url ORDER BY url").await?;
    /// let batches = df.collect().await?;
    /// assert_eq!(batches[0].num_rows(), 2);
    /// # Ok(())
    /// # }
    /// ```
    async fn register_records(
        &self,
        name: &str,
        options: RecordTableOptions,
        paths: &[&str],
    ) -> Result<Arc<RecordFormat>>;
}

#[async_trait]
impl SessionContextExt for SessionContext {
    async fn register_records(
        &self,
        name: &str,
        options: RecordTableOptions,
        paths: &[&str],
    ) -> Result<Arc<RecordFormat>> {
        let format = Arc::new(RecordFormat::try_new(options)?);
        let table = record_table(self, format.clone(), paths).await?;
        register_binary_strings(self);
        self.register_table(name, Arc::new(table))?;
        Ok(format)
    }
}

/// The listing table of `paths` in `format`, every path checked to match a file.
pub async fn record_table(
    ctx: &SessionContext,
    format: Arc<RecordFormat>,
    paths: &[&str],
) -> Result<ListingTable> {
    if paths.is_empty() {
        return Err(plan_datafusion_err!("no files given for the record table"));
    }
    let state = ctx.state();
    let mut urls = Vec::with_capacity(paths.len());
    for path in paths {
        let url = ListingTableUrl::parse(path)?;
        let store = state.runtime_env().object_store(url.object_store())?;
        let sizes: Vec<u64> = url
            .list_all_files(&state, store.as_ref(), "")
            .await?
            .map_ok(|meta| meta.size)
            .try_collect()
            .await?;
        if sizes.is_empty() {
            return Err(plan_datafusion_err!(
                "{path}: no such file, or no file matches"
            ));
        }
        format.progress().add_total(sizes.iter().sum());
        urls.push(url);
    }
    let schema = format.arrow_schema();
    let listing = ListingOptions::new(format).with_file_extension("");
    let config = ListingTableConfig::new_with_multi_paths(urls)
        .with_listing_options(listing)
        .with_schema(schema);
    ListingTable::try_new(config)
}
