//! [`StorageRegistry`]: HDFS and S3 stores opened the first time a URL names them.

use std::sync::Arc;

use datafusion::common::{DataFusionError, Result};
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use hadoop_record_storage::{open_store, StorageOptions};
use object_store::ObjectStore;
use url::Url;

/// The object stores of a session: those registered, plus a store for every `hdfs://`,
/// `viewfs://`, `s3://` and `s3a://` URL a table names, opened by
/// [`hadoop_record_storage::open_store`] on first use and kept. So a table over
/// `hdfs://nn:8020/logs/*.seq` needs no registration beforehand, on the machine that plans
/// the query and on every executor that scans it.
#[derive(Debug)]
pub struct StorageRegistry {
    stores: DefaultObjectStoreRegistry,
    options: StorageOptions,
}

impl StorageRegistry {
    /// A registry (with the local file system) that opens remote stores with `options`.
    pub fn new(options: StorageOptions) -> Self {
        StorageRegistry {
            stores: DefaultObjectStoreRegistry::new(),
            options,
        }
    }
}

impl ObjectStoreRegistry for StorageRegistry {
    fn register_store(
        &self,
        url: &Url,
        store: Arc<dyn ObjectStore>,
    ) -> Option<Arc<dyn ObjectStore>> {
        self.stores.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        self.stores.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        if let Ok(store) = self.stores.get_store(url) {
            return Ok(store);
        }
        match url.scheme() {
            "hdfs" | "viewfs" | "s3" | "s3a" => {
                let store = open_store(url, &self.options).map_err(DataFusionError::Execution)?;
                self.stores.register_store(url, store.clone());
                Ok(store)
            }
            _ => self.stores.get_store(url),
        }
    }
}

/// `builder` with a [`StorageRegistry`] of `options`: a runtime whose sessions read (and
/// write) HDFS and S3 by URL.
pub fn with_storage(builder: RuntimeEnvBuilder, options: StorageOptions) -> RuntimeEnvBuilder {
    builder.with_object_store_registry(Arc::new(StorageRegistry::new(options)))
}
