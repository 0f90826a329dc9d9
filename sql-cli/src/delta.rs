//! `rcc delta vacuum TABLE/`: the upkeep of the Delta Lake tables `rcc sql --to delta`
//! writes (hadoop-record-delta). The companion command `rcc-delta`, which `rcc delta` runs.

mod malloc;

use clap::{Args, Subcommand};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use hadoop_record_cli::storage::{StorageArgs, STORAGE_HELP};
use hadoop_record_cli::{companion, Context};
use hadoop_record_datafusion::{error_message, with_storage};
use hadoop_record_delta::{vacuum, DEFAULT_RETAIN_HOURS};

const EXAMPLES: &str = "\
Examples:
  rcc delta vacuum --dry-run s3://lake/hits/
  rcc delta vacuum --retain-hours 336 hdfs://namenode:8020/lake/hits/
  rcc delta vacuum --retain-hours 0 --no-retention-check lake/scratch/

A table's overwrites (rcc sql --to delta --mode overwrite) leave the old files in place, so
that readers of older versions (--version, --timestamp, Spark's versionAsOf) still find them.
vacuum deletes the files that no version of the last --retain-hours needs, and files no
version names (those a failed writer left), as Delta's VACUUM does; the log is kept.

";

// The help names the default retention.
const _: () = assert!(DEFAULT_RETAIN_HOURS == 168);

/// Maintain Delta Lake tables: delete the files no recent version needs
#[derive(Debug, Args)]
#[command(after_help = format!("{EXAMPLES}{STORAGE_HELP}"))]
struct DeltaArgs {
    #[command(subcommand)]
    command: DeltaCommand,
}

#[derive(Debug, Subcommand)]
enum DeltaCommand {
    Vacuum(VacuumArgs),
}

/// Delete the files of a Delta table that no version of the last --retain-hours needs
#[derive(Debug, Args)]
struct VacuumArgs {
    /// Keep every file that a version of the last H hours needs (default 168: 7 days, the
    /// table's delta.deletedFileRetentionDuration)
    #[arg(long, value_name = "H", default_value_t = DEFAULT_RETAIN_HOURS)]
    retain_hours: u64,

    /// List the files that would be deleted, delete none
    #[arg(long)]
    dry_run: bool,

    /// Allow a retention shorter than the table's: readers of the versions in between lose
    /// their files (Spark's retentionDurationCheck.enabled=false)
    #[arg(long)]
    no_retention_check: bool,

    #[command(flatten)]
    storage: StorageArgs,

    /// The table's directory (local, hdfs:// or s3://)
    #[arg(value_name = "TABLE")]
    table: String,
}

fn main() -> std::process::ExitCode {
    malloc::tune();
    companion::main("delta", run)
}

/// Runs `rcc delta`; true on success.
fn run(context: &Context, args: DeltaArgs) -> bool {
    let DeltaCommand::Vacuum(args) = args.command;
    match vacuum_table(&args) {
        Ok(()) => true,
        Err(message) => {
            context.error(&message);
            false
        }
    }
}

fn vacuum_table(args: &VacuumArgs) -> Result<(), String> {
    let runtime = with_storage(RuntimeEnvBuilder::new(), args.storage.options())
        .build()
        .map_err(|e| e.to_string())?;
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    let done = tokio
        .block_on(vacuum(
            &runtime,
            &args.table,
            args.retain_hours,
            args.dry_run,
            args.no_retention_check,
        ))
        .map_err(|e| error_message(&e))?;
    for file in &done.files {
        println!("{file}");
    }
    let verb = if done.dry_run {
        "would delete"
    } else {
        "deleted"
    };
    eprintln!("{} {verb} {} files", args.table, done.files.len());
    Ok(())
}
