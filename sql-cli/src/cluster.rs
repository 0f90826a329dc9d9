//! `rcc cluster scheduler` and `rcc cluster executor`: Ballista's scheduler and executor
//! (hadoop-record-cluster) that know record files, with Ballista's option names. The
//! companion command `rcc-cluster`, which `rcc cluster` runs.

mod malloc;

use clap::{Args, Subcommand, ValueEnum};
use hadoop_record_cli::storage::StorageArgs;
use hadoop_record_cli::{companion, Context};
use hadoop_record_cluster::{run_executor, run_scheduler, ExecutorOptions, SchedulerOptions};

const EXAMPLES: &str = "\
Examples (one machine; each command in its own terminal):
  rcc cluster scheduler
  rcc cluster executor --bind-port 50051 --bind-grpc-port 50052
  rcc cluster executor --bind-port 50061 --bind-grpc-port 50062
  rcc sql --cluster df://localhost:50050 --schema web.jr --type web.Hit --in-framing paddle \\
      'SELECT url, count(*) FROM records GROUP BY url' hdfs://namenode:8020/logs/hits.paddle
  rcc sql --cluster df://localhost:50050 --schema web.jr --type web.Hit --in-framing seqfile \\
      --to parquet --partition-by status -o s3://lake/hits/ 'SELECT * FROM records' \\
      hdfs://namenode:8020/jobs/hits/

Executors read the record files themselves, each its byte ranges: hdfs:// and s3:// FILEs
straight from HDFS or S3 (the scheduler lists and sizes them there), so every machine needs
only the store's configuration (HADOOP_CONF_DIR; AWS_* or --s3-endpoint). A local path must
name the same file on every executor's machine and on the scheduler's. They write datasets
(rcc sql -o DIR/) the same way: each its partitions' part files, straight into the store.
Each executor prints one line per task to standard error: the task, its job, stage and
partition, and the file byte ranges it reads; and one line per part file it writes.";

/// Run a Ballista scheduler or executor that knows record files, for `rcc sql --cluster`
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
struct ClusterArgs {
    #[command(subcommand)]
    command: ClusterCommand,
}

#[derive(Debug, Subcommand)]
enum ClusterCommand {
    // (Their descriptions are their arguments' doc comments.)
    Scheduler(SchedulerArgs),
    Executor(ExecutorArgs),
}

/// Run a Ballista scheduler: it plans queries and hands their tasks to executors
#[derive(Debug, Args)]
struct SchedulerArgs {
    /// Local host name or IP address to bind to
    #[arg(long, value_name = "HOST", default_value = "0.0.0.0")]
    bind_host: String,

    /// The port clients and executors connect to
    #[arg(long, value_name = "PORT", default_value_t = 50050)]
    bind_port: u16,

    /// Host name or IP address executors and clients reach this scheduler by
    #[arg(long, value_name = "HOST", default_value = "localhost")]
    external_host: String,

    /// How tasks go to executor slots: round-robin hands them to the executors in turn,
    /// bias fills each executor first
    #[arg(long, value_enum, value_name = "POLICY", default_value = "round-robin")]
    task_distribution: TaskDistribution,

    /// Partitions of a query that does not ask for a number (`rcc sql --partitions`);
    /// default: the task slots of the executors registered when it is planned
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    default_partitions: Option<u32>,

    /// Seconds without a heartbeat after which an executor is dead and its tasks run
    /// elsewhere
    #[arg(long, value_name = "SECONDS", default_value_t = 180)]
    executor_timeout_seconds: u64,

    /// Seconds between checks for dead executors
    #[arg(long, value_name = "SECONDS", default_value_t = 15)]
    expire_dead_executor_interval_seconds: u64,

    /// Attempts before a task counts as failed (and its query with it)
    #[arg(long, value_name = "N", default_value_t = 4)]
    task_max_failures: usize,

    /// Where S3 is (the scheduler lists and sizes s3:// files; HADOOP_CONF_DIR and AWS_*
    /// configure HDFS and S3)
    #[command(flatten)]
    storage: StorageArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TaskDistribution {
    Bias,
    RoundRobin,
}

/// Run a Ballista executor: it registers with the scheduler and runs tasks
#[derive(Debug, Args)]
struct ExecutorArgs {
    /// The scheduler's host name or IP address
    #[arg(long, value_name = "HOST", default_value = "localhost")]
    scheduler_host: String,

    /// The scheduler's port
    #[arg(long, value_name = "PORT", default_value_t = 50050)]
    scheduler_port: u16,

    /// Seconds to keep trying to reach the scheduler at start (0: try once)
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    scheduler_connect_timeout_seconds: u16,

    /// Local host name or IP address to bind to
    #[arg(long, value_name = "HOST", default_value = "0.0.0.0")]
    bind_host: String,

    /// The Arrow Flight port: shuffle data and results are fetched here
    #[arg(long, value_name = "PORT", default_value_t = 50051)]
    bind_port: u16,

    /// The gRPC port: the scheduler hands tasks over here
    #[arg(long, value_name = "PORT", default_value_t = 50052)]
    bind_grpc_port: u16,

    /// Host name or IP address the scheduler, other executors and clients reach this
    /// executor by (default: --bind-host, or the address the scheduler sees)
    #[arg(long, value_name = "HOST")]
    external_host: Option<String>,

    /// Tasks run at once (default: the number of cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    concurrent_tasks: Option<u16>,

    /// Directory for shuffle files (default: a new temporary directory)
    #[arg(long, value_name = "DIR")]
    work_dir: Option<String>,

    /// Seconds between heartbeats to the scheduler
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    executor_heartbeat_interval_seconds: u64,

    /// Where S3 is (executors read s3:// files; HADOOP_CONF_DIR and AWS_* configure HDFS
    /// and S3)
    #[command(flatten)]
    storage: StorageArgs,
}

fn main() -> std::process::ExitCode {
    malloc::tune();
    companion::main("cluster", run)
}

/// Runs `rcc cluster`; true when the process ends without error.
fn run(context: &Context, args: ClusterArgs) -> bool {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Ballista's own binaries give deep plans room the same way.
        .thread_stack_size(32 << 20)
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            context.error(&format!("cannot start the runtime: {e}"));
            return false;
        }
    };
    let result = match args.command {
        ClusterCommand::Scheduler(args) => runtime.block_on(scheduler(args)),
        ClusterCommand::Executor(args) => runtime.block_on(executor(args)),
    };
    match result {
        Ok(()) => true,
        Err(message) => {
            context.error(&message);
            false
        }
    }
}

async fn scheduler(args: SchedulerArgs) -> Result<(), String> {
    let options = SchedulerOptions::default()
        .with_bind_host(args.bind_host)
        .with_bind_port(args.bind_port)
        .with_external_host(args.external_host)
        .with_round_robin(args.task_distribution == TaskDistribution::RoundRobin)
        .with_default_partitions(args.default_partitions.map(|n| n as usize))
        .with_executor_timeout_seconds(args.executor_timeout_seconds)
        .with_expire_dead_executor_interval_seconds(args.expire_dead_executor_interval_seconds)
        .with_task_max_failures(args.task_max_failures)
        .with_storage(args.storage.options());
    run_scheduler(options, |address| {
        eprintln!("rcc cluster scheduler: listening on {address}");
    })
    .await
    .map_err(|e| format!("scheduler: {e}"))
}

async fn executor(args: ExecutorArgs) -> Result<(), String> {
    let defaults = ExecutorOptions::default();
    let options = ExecutorOptions::default()
        .with_scheduler_host(args.scheduler_host)
        .with_scheduler_port(args.scheduler_port)
        .with_bind_host(args.bind_host)
        .with_bind_port(args.bind_port)
        .with_bind_grpc_port(args.bind_grpc_port)
        .with_external_host(args.external_host)
        .with_concurrent_tasks(
            args.concurrent_tasks
                .map_or(defaults.concurrent_tasks(), usize::from),
        )
        .with_work_dir(args.work_dir)
        .with_executor_heartbeat_interval_seconds(args.executor_heartbeat_interval_seconds)
        .with_scheduler_connect_timeout_seconds(args.scheduler_connect_timeout_seconds)
        .with_storage(args.storage.options());
    let grpc = options.bind_grpc_port();
    run_executor(options, |address| {
        eprintln!(
            "rcc cluster executor: listening on {address} (Flight), port {grpc} (gRPC); registered with the scheduler"
        );
    })
    .await
    .map_err(|e| format!("executor: {e}"))
}
