//! The scheduler: Ballista's, with the record codecs and SQL's binary-string functions
//! installed, and queries spread over the executors ([`crate::partitions`]).

use std::net::SocketAddr;
use std::sync::Arc;

use ballista_core::error::{BallistaError, Result};
use ballista_core::utils::{default_config_producer, default_session_builder};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::{SchedulerConfig, TaskDistributionPolicy};
use ballista_scheduler::scheduler_process::{create_scheduler, start_grpc_service_with_listener};
use ballista_scheduler::scheduler_server::SessionBuilder;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion_proto::protobuf::{LogicalPlanNode, PhysicalPlanNode};
use hadoop_record_datafusion::write::with_dataset_writes;
use hadoop_record_datafusion::{with_binary_strings, StorageRegistry};
use hadoop_record_storage::StorageOptions;
use tokio::net::TcpListener;

use crate::codec::codecs;
use crate::partitions::{spreading, with_cluster_options, Executors};

hadoop_record::__options! {
    /// How to run a scheduler; Ballista's settings by Ballista's names.
    #[derive(Debug, Clone)]
    pub struct SchedulerOptions {
        /// The address to listen on (default `0.0.0.0`).
        bind_host / with_bind_host: string String = "0.0.0.0".into();
        /// The port to listen on (default 50050).
        bind_port / with_bind_port: copy u16 = ballista().bind_port;
        /// The host name executors and clients reach this scheduler by (default
        /// `localhost`).
        external_host / with_external_host: string String = ballista().external_host;
        /// Hand tasks to the executors in turn (`true`, the default), or fill each
        /// executor's slots first (`false`, Ballista's `bias`).
        round_robin / with_round_robin: copy bool = true;
        /// Partitions of a query that does not ask for a number; `None` (the default): the
        /// task slots of the executors registered when it is planned.
        default_partitions / with_default_partitions: copy Option<usize> = None;
        /// Seconds without a heartbeat after which an executor counts as dead (default 180).
        executor_timeout_seconds / with_executor_timeout_seconds:
            copy u64 = ballista().executor_timeout_seconds;
        /// How often dead executors are looked for, in seconds (default 15).
        expire_dead_executor_interval_seconds / with_expire_dead_executor_interval_seconds:
            copy u64 = ballista().expire_dead_executor_interval_seconds;
        /// How often a task may fail before its job fails (default 4).
        task_max_failures / with_task_max_failures: copy usize = ballista().task_max_failures;
        /// How HDFS and S3 are reached (the scheduler lists and sizes the files there).
        storage / with_storage: ref StorageOptions = StorageOptions::default();
    }
}

/// Ballista's own defaults, which [`SchedulerOptions`] starts from.
fn ballista() -> SchedulerConfig {
    SchedulerConfig::default()
}

/// Binds the scheduler's port, calls `ready` with the address bound, then serves until the
/// process ends. An address in use or a bad host is an error naming the address.
pub async fn run_scheduler(
    options: SchedulerOptions,
    ready: impl FnOnce(SocketAddr),
) -> Result<()> {
    let address = format!("{}:{}", options.bind_host, options.bind_port);
    let listener = TcpListener::bind(&address)
        .await
        .map_err(|e| BallistaError::General(format!("cannot listen on {address}: {e}")))?;
    let bound = listener.local_addr()?;
    let (logical, physical) = codecs();
    let policy = if options.round_robin {
        TaskDistributionPolicy::RoundRobin
    } else {
        TaskDistributionPolicy::Bias
    };
    let mut config = SchedulerConfig::default()
        .with_hostname(options.external_host)
        .with_port(bound.port())
        .with_task_distribution(policy);
    config.bind_host = options.bind_host;
    config.executor_timeout_seconds = options.executor_timeout_seconds;
    config.expire_dead_executor_interval_seconds = options.expire_dead_executor_interval_seconds;
    config.task_max_failures = options.task_max_failures;
    config.override_logical_codec = Some(logical);
    config.override_physical_codec = Some(physical);
    let executors = Executors::default();
    // Plans name their functions: the scheduler's sessions read them with the client's
    // binary-string functions, and list and size files in HDFS and S3.
    let sessions = spreading(
        storage_sessions(options.storage),
        options.default_partitions,
        executors.clone(),
    );
    config.override_session_builder = Some(sessions);
    config.override_config_producer =
        Some(Arc::new(|| with_cluster_options(default_config_producer())));
    config.validate()?;
    let config = Arc::new(config);
    let cluster = BallistaCluster::new_from_config(&config).await?;
    let _ = executors.set(cluster.cluster_state());
    let scheduler = create_scheduler::<LogicalPlanNode, PhysicalPlanNode>(cluster, config).await?;
    ready(bound);
    start_grpc_service_with_listener(listener, scheduler).await
}

/// Ballista's sessions with SQL's binary-string functions and the planning of dataset
/// writes, whose runtime opens HDFS and S3 stores by URL (one store per name node or bucket
/// for all sessions): planning lists and sizes the files there.
fn storage_sessions(storage: StorageOptions) -> SessionBuilder {
    let registry = Arc::new(StorageRegistry::new(storage));
    Arc::new(move |config| {
        let runtime = RuntimeEnvBuilder::new()
            .with_object_store_registry(registry.clone())
            .build()?;
        let state = default_session_builder(config)?;
        let builder =
            SessionStateBuilder::new_from_existing(state).with_runtime_env(Arc::new(runtime));
        Ok(with_binary_strings(with_dataset_writes(builder).build()))
    })
}
