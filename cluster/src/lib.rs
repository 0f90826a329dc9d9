//! Distributed SQL over Hadoop record files on [Apache Ballista](ballista).
//!
//! The tables of [`hadoop_record_datafusion`] run on a Ballista cluster:
//!
//! - [`RecordLogicalCodec`] / [`RecordPhysicalCodec`]: Ballista's extension codecs that
//!   carry a table of record files to the scheduler ([`RecordTable`]) and its scan (table
//!   options, file byte ranges, projection) to the executors;
//! - [`run_scheduler`] / [`run_executor`]: Ballista's scheduler and executor with those
//!   codecs installed (`rcc cluster scheduler` and `rcc cluster executor`); an executor
//!   tells each task it runs on standard error;
//! - [`remote_context`]: a `SessionContext` whose queries run on the cluster at
//!   `df://HOST:PORT`, and [`register_records`] to give it a table of record files;
//! - [`ClusterOptions`]: a query's partitions; by default as many as the executors have
//!   task slots, one task each, handed to the executors in turn;
//! - [`refuse_wrong_answers`]: an error for a query a Ballista cluster answers wrongly.
//!
//! Executors read the files themselves: every path must name the same file on every
//! machine (a shared file system).

mod client;
mod codec;
mod executor;
mod partitions;
mod refuse;
mod scheduler;
mod table;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::prelude::SessionContext;
use hadoop_record_datafusion::{
    register_binary_strings, table_format, RecordFormat, RecordTableOptions,
};

pub use client::{check_reachable, remote_context, scheduler_address, CONNECT_TIMEOUT};
pub use codec::{codecs, RecordLogicalCodec, RecordPhysicalCodec};
pub use executor::{run_executor, task_line, ExecutorOptions};
pub use partitions::ClusterOptions;
pub use refuse::refuse_wrong_answers;
pub use scheduler::{run_scheduler, SchedulerOptions};
pub use table::RecordTable;

/// Registers `paths` as table `name` of the records `options` describe, as
/// [`SessionContextExt::register_records`](hadoop_record_datafusion::SessionContextExt::register_records)
/// does, but as a [`RecordTable`]: a table a plan can carry to a Ballista scheduler. Its
/// framing is found or checked here ([`table_format`]), and travels to the executors found.
/// The session gets SQL's binary-string functions, as there.
pub async fn register_records(
    ctx: &SessionContext,
    name: &str,
    options: RecordTableOptions,
    paths: &[&str],
) -> Result<Arc<RecordFormat>> {
    let format = Arc::new(table_format(ctx, options, paths).await?);
    let table = RecordTable::try_new(ctx, format.clone(), paths).await?;
    register_binary_strings(ctx);
    ctx.register_table(name, Arc::new(table))?;
    Ok(format)
}
