//! The client side: a [`SessionContext`] whose queries run on a Ballista cluster.

use std::sync::Arc;
use std::time::Duration;

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use datafusion::common::{plan_datafusion_err, Result};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record_datafusion::with_binary_strings;
use tokio::net::TcpStream;

use hadoop_record_datafusion::with_storage;
use hadoop_record_storage::StorageOptions;

use crate::codec::codecs;
use crate::partitions::with_cluster_options;

/// How long [`remote_context`] waits for the scheduler to accept a connection.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The `HOST:PORT` of a `df://HOST:PORT` URL (the scheme is optional).
pub fn scheduler_address(url: &str) -> Result<String> {
    let rest = url.strip_prefix("df://").unwrap_or(url);
    let rest = rest.trim_end_matches('/');
    match rest.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
            Ok(rest.to_owned())
        }
        _ => Err(plan_datafusion_err!(
            "{url}: not a scheduler address; expected df://HOST:PORT"
        )),
    }
}

/// A context whose queries the Ballista scheduler at `url` (`df://HOST:PORT`) runs, with
/// the record codecs and SQL's binary-string functions
/// ([`with_binary_strings`](hadoop_record_datafusion::with_binary_strings)) installed and
/// `config`'s settings (batch size, and [`ClusterOptions`](crate::ClusterOptions): the
/// partitions, which are otherwise the cluster's task slots) travelling with each query.
/// The scheduler must accept a connection within
/// [`CONNECT_TIMEOUT`]: otherwise the error is "cannot reach the Ballista scheduler at
/// HOST:PORT: cause". Files named by `hdfs://` and `s3://` URLs are listed through stores
/// opened with `storage` (the executors and the scheduler open their own).
pub async fn remote_context(
    url: &str,
    config: SessionConfig,
    storage: StorageOptions,
) -> Result<SessionContext> {
    let address = scheduler_address(url)?;
    check_reachable(&address, CONNECT_TIMEOUT).await?;
    let (logical, physical) = codecs();
    let mut config = with_cluster_options(config)
        .with_ballista_logical_extension_codec(logical)
        .with_ballista_physical_extension_codec(physical);
    // DataFusion 55 moves a struct field's access (`h.origin['zip']`) below a table alias
    // (`FROM records h`) into a column that an aggregate above names unqualified, which
    // the scheduler, decoding the plan, resolves qualified: "No field named
    // sum(__datafusion_extracted_1)". Not moving it keeps such plans decodable.
    config
        .options_mut()
        .optimizer
        .enable_leaf_expression_pushdown = false;
    // The client lists the table's files (to check that each path names some) where the
    // scheduler will: in HDFS or S3 by URL.
    let runtime = with_storage(RuntimeEnvBuilder::new(), storage).build()?;
    let state = SessionStateBuilder::new()
        .with_config(config)
        .with_runtime_env(Arc::new(runtime))
        .with_default_features()
        .build();
    let state = with_binary_strings(state);
    SessionContext::remote_with_state(&format!("df://{address}"), state).await
}

/// Whether something accepts TCP connections at `address`, within `timeout`.
pub async fn check_reachable(address: &str, timeout: Duration) -> Result<()> {
    let cause = match tokio::time::timeout(timeout, TcpStream::connect(address)).await {
        Ok(Ok(_)) => return Ok(()),
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {} s", timeout.as_secs()),
    };
    Err(plan_datafusion_err!(
        "cannot reach the Ballista scheduler at {address}: {cause}"
    ))
}
