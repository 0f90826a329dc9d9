//! The executor: Ballista's, with the record codecs installed and one line on standard
//! error for every task it runs.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ballista_core::error::{BallistaError, Result};
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::{JobId, RuntimeProducer};
use ballista_executor::execution_engine::{
    DefaultExecutionEngine, ExecutionEngine, QueryStageExecutor,
};
use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
use datafusion::common::tree_node::{Transformed, TreeNode, TreeNodeRecursion};
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionConfig;
use hadoop_record_datafusion::write::WriteExec;
use hadoop_record_datafusion::{with_binary_strings, StorageRegistry};
use hadoop_record_storage::StorageOptions;
use tokio::net::TcpStream;

use crate::codec::codecs;

hadoop_record::__options! {
    /// How to run an executor; Ballista's settings by Ballista's names.
    #[derive(Debug, Clone)]
    pub struct ExecutorOptions {
        /// The scheduler's host (default `localhost`).
        scheduler_host / with_scheduler_host: string String = ballista().scheduler_host;
        /// The scheduler's port (default 50050).
        scheduler_port / with_scheduler_port: copy u16 = ballista().scheduler_port;
        /// The address to listen on (default `0.0.0.0`).
        bind_host / with_bind_host: string String = "0.0.0.0".into();
        /// The Arrow Flight port, where shuffle data and results are fetched (default 50051).
        bind_port / with_bind_port: copy u16 = ballista().port;
        /// The gRPC port, where the scheduler hands over tasks (default 50052).
        bind_grpc_port / with_bind_grpc_port: copy u16 = ballista().grpc_port;
        /// The host name the scheduler and other executors reach this one by; default: the
        /// bind host, unless that is `0.0.0.0` (then the address the scheduler sees).
        external_host / with_external_host: ref Option<String> = None;
        /// Tasks run at once (default: the number of cores).
        concurrent_tasks / with_concurrent_tasks: copy usize = ballista().vcores;
        /// Where shuffle files go (default: a fresh temporary directory).
        work_dir / with_work_dir: ref Option<String> = None;
        /// Seconds between heartbeats to the scheduler (default 60).
        executor_heartbeat_interval_seconds / with_executor_heartbeat_interval_seconds:
            copy u64 = ballista().executor_heartbeat_interval_seconds;
        /// How long to keep trying to reach the scheduler at start (default 0: one try).
        scheduler_connect_timeout_seconds / with_scheduler_connect_timeout_seconds:
            copy u16 = ballista().scheduler_connect_timeout_seconds;
        /// How HDFS and S3 are reached (the scan's files are read from there by URL).
        storage / with_storage: ref StorageOptions = StorageOptions::default();
    }
}

/// Ballista's own defaults, which [`ExecutorOptions`] starts from.
fn ballista() -> ExecutorProcessConfig {
    ExecutorProcessConfig::default()
}

/// Starts an executor, registers it with the scheduler, calls `ready` with its Flight
/// address once it serves, then runs tasks until the process ends (or the scheduler stops
/// it). A scheduler that cannot be reached is an error naming it.
pub async fn run_executor(options: ExecutorOptions, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let (logical, physical) = codecs();
    // Each part file a task writes is named on standard error, beside its task's line.
    hadoop_record_datafusion::write::log_parts(true);
    let external_host = options.external_host.clone().or_else(|| {
        (options.bind_host != "0.0.0.0" && options.bind_host != "::")
            .then(|| options.bind_host.clone())
    });
    let config = ExecutorProcessConfig {
        scheduler_host: options.scheduler_host.clone(),
        scheduler_port: options.scheduler_port,
        bind_host: options.bind_host.clone(),
        port: options.bind_port,
        grpc_port: options.bind_grpc_port,
        external_host,
        vcores: options.concurrent_tasks,
        work_dir: options.work_dir.clone(),
        executor_heartbeat_interval_seconds: options.executor_heartbeat_interval_seconds,
        scheduler_connect_timeout_seconds: options.scheduler_connect_timeout_seconds,
        override_logical_codec: Some(logical),
        override_physical_codec: Some(physical),
        // Ballista's default registry lacks DataFusion's nested functions (`cardinality`,
        // `array_*`, `map_*`): take every function a default session has, with SQL's
        // binary-string functions, as the client and the scheduler.
        override_function_registry: Some(Arc::new(BallistaFunctionRegistry::from(
            &with_binary_strings(SessionStateBuilder::new().with_default_features().build()),
        ))),
        override_runtime_producer: Some(storage_runtime(&options)),
        override_execution_engine: Some(Arc::new(LoggingEngine {
            inner: DefaultExecutionEngine::new(),
        })),
        ..ExecutorProcessConfig::default()
    };
    let scheduler = format!("{}:{}", options.scheduler_host, options.scheduler_port);
    let host = connect_host(&options.bind_host);
    let flight = format!("{host}:{}", options.bind_port);
    let grpc = format!("{host}:{}", options.bind_grpc_port);
    let process = tokio::spawn(start_executor_process(Arc::new(config)));
    // Both services start once the executor is registered with the scheduler; tasks come
    // through gRPC, results leave through Flight.
    loop {
        if process.is_finished() {
            break;
        }
        if let (Ok(stream), Ok(_)) = (
            TcpStream::connect(&flight).await,
            TcpStream::connect(&grpc).await,
        ) {
            ready(stream.peer_addr()?);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    match process.await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(BallistaError::GrpcConnectionError(e))) => Err(BallistaError::General(format!(
            "cannot reach the Ballista scheduler at {scheduler}: {e}"
        ))),
        Ok(Err(e)) => Err(e),
        Err(e) => Err(BallistaError::General(format!("executor stopped: {e}"))),
    }
}

/// The address to reach a listener bound to `host` by, from this machine.
/// The executor's runtime: Ballista's (spill files in the work directory), whose sessions
/// open HDFS and S3 stores by URL, one store per name node or bucket for all of them.
fn storage_runtime(options: &ExecutorOptions) -> RuntimeProducer {
    let registry = Arc::new(StorageRegistry::new(options.storage.clone()));
    let work_dir = options.work_dir.clone();
    Arc::new(move |_| {
        let mut builder = RuntimeEnvBuilder::new().with_object_store_registry(registry.clone());
        if let Some(dir) = &work_dir {
            builder = builder.with_temp_file_path(dir);
        }
        Ok(Arc::new(builder.build()?))
    })
}

fn connect_host(host: &str) -> &str {
    match host {
        "0.0.0.0" => "127.0.0.1",
        "::" => "::1",
        host => host,
    }
}

/// Ballista's execution engine, telling each task on standard error.
struct LoggingEngine {
    inner: DefaultExecutionEngine,
}

impl ExecutionEngine for LoggingEngine {
    fn create_query_stage_exec(
        &self,
        job_id: JobId,
        stage_id: usize,
        task_id: usize,
        global_output_partition_ids: Vec<usize>,
        plan: Arc<dyn ExecutionPlan>,
        work_dir: &str,
        config: &SessionConfig,
    ) -> datafusion::common::Result<Arc<dyn QueryStageExecutor>> {
        eprintln!(
            "{}",
            task_line(
                &job_id,
                stage_id,
                task_id,
                &global_output_partition_ids,
                &plan
            )
        );
        // The scheduler cuts a stage's plan down to the task's partitions, numbered from 0:
        // a dataset write names its part files by the stage's own numbers.
        let ids = global_output_partition_ids.clone();
        let plan = plan
            .transform(|node| match node.downcast_ref::<WriteExec>() {
                Some(write) => Ok(Transformed::yes(
                    Arc::new(write.with_partition_ids(ids.clone())) as Arc<dyn ExecutionPlan>,
                )),
                None => Ok(Transformed::no(node)),
            })?
            .data;
        self.inner.create_query_stage_exec(
            job_id,
            stage_id,
            task_id,
            global_output_partition_ids,
            plan,
            work_dir,
            config,
        )
    }
}

/// `task T: job J, stage S, input partitions [FILE START..END, …] […], output partitions
/// P,…`: one bracket per input partition of the task (the scheduler has already cut the
/// plan down to the task's slice of the stage), with the byte ranges of the files it reads;
/// `input partitions shuffle` for a stage that reads other stages' output.
pub fn task_line(
    job_id: &JobId,
    stage_id: usize,
    task_id: usize,
    output_partitions: &[usize],
    plan: &Arc<dyn ExecutionPlan>,
) -> String {
    let mut groups = Vec::new();
    let _ = plan.apply(|node| {
        let scan = node
            .downcast_ref::<DataSourceExec>()
            .and_then(|exec| exec.data_source().downcast_ref::<FileScanConfig>());
        for group in scan.iter().flat_map(|scan| scan.file_groups.iter()) {
            let ranges = group
                .iter()
                .map(|file| {
                    let (start, end) = match &file.range {
                        Some(range) => (range.start as u64, range.end as u64),
                        None => (0, file.object_meta.size),
                    };
                    format!("/{} {start}..{end}", file.object_meta.location)
                })
                .collect::<Vec<_>>();
            groups.push(format!("[{}]", ranges.join(", ")));
        }
        Ok(TreeNodeRecursion::Continue)
    });
    let input = if groups.is_empty() {
        "shuffle".to_owned()
    } else {
        groups.join(" ")
    };
    let output = output_partitions
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "task {task_id}: job {job_id}, stage {stage_id}, input partitions {input}, output partitions {output}"
    )
}
