//! [`Location`]: a Delta table's directory as delta-rs reaches it — through the store the
//! session already has for its URL (HDFS, S3 and local disks alike, with the storage
//! layer's deadlines and named errors), not a second client of delta-rs's own.

use std::sync::Arc;

use datafusion::common::{exec_datafusion_err, DataFusionError, Result};
use datafusion::execution::object_store::ObjectStoreUrl;
use datafusion::execution::runtime_env::RuntimeEnv;
use deltalake_core::logstore::{default_logstore, LogStoreRef, StorageConfig};
use deltalake_core::{DeltaTable, DeltaTableError};
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{ObjectStore, ObjectStoreExt};
use url::Url;

use crate::time_travel::TimeTravel;

/// A Delta table's directory and its log store.
#[derive(Debug, Clone)]
pub(crate) struct Location {
    /// The table's URL, ending in `/` (`s3://lake/hits/`).
    pub url: String,
    /// The store of the URL and the directory's path in it.
    pub store: Arc<dyn ObjectStore>,
    pub store_url: ObjectStoreUrl,
    pub dir: Path,
    pub log_store: LogStoreRef,
}

impl Location {
    /// The table at `url` (`file:///…/`, `hdfs://…/`, `s3://…/`), through `runtime`'s stores.
    pub fn open(runtime: &RuntimeEnv, url: &str) -> Result<Location> {
        let url = hadoop_record_datafusion::write::dataset_url(url)?;
        let parsed = Url::parse(&url).map_err(|e| exec_datafusion_err!("{url}: {e}"))?;
        let store_url = ObjectStoreUrl::parse(&parsed[..url::Position::BeforePath])?;
        let store = runtime.object_store(&store_url)?;
        let dir =
            Path::from_url_path(parsed.path()).map_err(|e| exec_datafusion_err!("{url}: {e}"))?;
        let prefixed: Arc<dyn ObjectStore> = Arc::new(PrefixStore::new(store.clone(), dir.clone()));
        let log_store =
            default_logstore(prefixed, store.clone(), &parsed, &StorageConfig::default());
        Ok(Location {
            url,
            store,
            store_url,
            dir,
            log_store,
        })
    }

    /// The table as of `at`; `None` if there is no table there (no `_delta_log/`).
    pub async fn load(&self, at: TimeTravel) -> Result<Option<DeltaTable>> {
        // A file there (`-o out.bin`) would be a store's error about a directory in a file.
        if self.store.head(&self.dir).await.is_ok() {
            return Err(exec_datafusion_err!(
                "{} is a file, not a Delta table's directory: name the table's directory",
                self.url.trim_end_matches('/')
            ));
        }
        let exists = self
            .log_store
            .is_delta_table_location()
            .await
            .map_err(|e| self.error(e))?;
        if !exists {
            return match at {
                TimeTravel::Latest => Ok(None),
                _ => Err(exec_datafusion_err!(
                    "{}: no Delta table there (no _delta_log/)",
                    self.url
                )),
            };
        }
        let mut table = DeltaTable::new(self.log_store.clone());
        let loaded = match at {
            TimeTravel::Latest => table.load().await,
            TimeTravel::Version(version) => table.load_version(version).await,
            TimeTravel::Timestamp(time) => table.load_with_datetime(time).await,
        };
        if let (Ok(()), TimeTravel::Timestamp(time)) = (&loaded, at) {
            // delta-rs gives the first version for a time before it; Spark refuses.
            let first = table.version().unwrap_or_default();
            let made = table
                .snapshot()
                .ok()
                .and_then(|s| s.version_timestamp(first))
                .and_then(chrono::DateTime::<chrono::Utc>::from_timestamp_millis);
            if let Some(made) = made.filter(|made| *made > time) {
                return Err(exec_datafusion_err!(
                    "{}: {time} is before the table's version {first} ({made}), the earliest \
                     there is",
                    self.url
                ));
            }
        }
        match loaded {
            Ok(()) => Ok(Some(table)),
            Err(DeltaTableError::NotATable(_)) if at == TimeTravel::Latest => Ok(None),
            Err(DeltaTableError::NotATable(_)) => Err(exec_datafusion_err!(
                "{}: no Delta table there (no _delta_log/)",
                self.url
            )),
            Err(e) => match at {
                TimeTravel::Version(version) => {
                    let latest = self.log_store.get_latest_version(0).await;
                    match latest {
                        Ok(latest) if version > latest => Err(exec_datafusion_err!(
                            "{}: there is no version {version}: the latest is {latest}",
                            self.url
                        )),
                        _ => Err(self.error(e)),
                    }
                }
                _ => Err(self.error(e)),
            },
        }
    }

    /// A delta-rs error, naming the table.
    pub fn error(&self, e: DeltaTableError) -> DataFusionError {
        exec_datafusion_err!("the Delta table {}: {e}", self.url)
    }
}
