//! Files named by URL for code that is not async: `rcc frame` and `rcc convert` read and
//! write through these, on a runtime of their own.

use std::sync::{Arc, OnceLock};

use object_store::{ObjectStore, ObjectStoreExt};
use tokio::runtime::{Handle, Runtime};

use crate::{open_store, Location, RangeReader, StorageOptions, Upload};

/// The runtime that blocking reads and writes wait on (two threads: network I/O only).
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("storage-io")
            .enable_all()
            .build()
            .expect("a tokio runtime for storage I/O")
    })
}

fn handle() -> Handle {
    runtime().handle().clone()
}

fn store(at: &Location, options: &StorageOptions) -> Result<Arc<dyn ObjectStore>, String> {
    let _entered = runtime().enter();
    open_store(&at.store_url(), options)
}

/// Opens the file at `url` for reading (`Read + Seek`, fetched in ranges as it is read).
/// A missing file, or a store that does not answer, is an error naming the URL.
pub fn open(url: &str, options: &StorageOptions) -> Result<RangeReader, String> {
    let at = Location::parse(url)?;
    let store = store(&at, options)?;
    let meta = handle()
        .block_on(store.head(&at.path))
        .map_err(|e| format!("cannot read {url}: {e}"))?;
    Ok(RangeReader::new(store, at.path, meta.size, handle()))
}

/// Starts writing the file at `url`: it appears whole when the [`Upload`] commits.
pub fn create(url: &str, options: &StorageOptions) -> Result<Upload, String> {
    let at = Location::parse(url)?;
    let store = store(&at, options)?;
    Upload::start(&store, &at.path, url, handle()).map_err(|e| e.to_string())
}
