//! A Delta table written from, and read as, one stream of record batches in order, for
//! tools that move records rather than run queries (`rcc convert --to delta`, `--from
//! delta`): [`write_delta_batches`] and [`read_delta_batches`]. One partition each way, so
//! that the rows keep their order: a table of one version (not partitioned) reads back in
//! the order it was written.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::streaming::StreamingTable;
use datafusion::common::Result;
use datafusion::execution::runtime_env::RuntimeEnv;
use datafusion::execution::{SendableRecordBatchStream, SessionStateBuilder, TaskContext};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::streaming::PartitionStream;
use datafusion::prelude::{SessionConfig, SessionContext};
use hadoop_record_datafusion::write::with_dataset_writes;

use crate::read::DeltaTableProvider;
use crate::time_travel::TimeTravel;
use crate::write::{write_delta, DeltaWriteOptions, DeltaWritten};

/// Writes `batches`, in their order, into the Delta table at `url` (a local directory,
/// `hdfs://…/`, `s3://…/`) as [`write_delta`] writes a query's result, through `runtime`'s
/// stores: one part file (one per partition value with `partition_by`), written by this
/// process, then one commit. An error in the stream fails the write: nothing is committed
/// and the files written are removed.
pub async fn write_delta_batches(
    runtime: Arc<RuntimeEnv>,
    batches: SendableRecordBatchStream,
    url: &str,
    options: &DeltaWriteOptions,
) -> Result<DeltaWritten> {
    let state = SessionStateBuilder::new()
        .with_config(one_partition())
        .with_default_features()
        .with_runtime_env(runtime);
    let ctx = SessionContext::new_with_state(with_dataset_writes(state).build());
    let schema = batches.schema();
    let stream = OnceStream {
        schema: schema.clone(),
        batches: Mutex::new(Some(batches)),
    };
    let table = StreamingTable::try_new(schema, vec![Arc::new(stream)])?;
    let frame = ctx.read_table(Arc::new(table))?;
    write_delta(frame, url, options).await
}

/// The rows of the Delta table at `url` as of `at`, `batch_size` at a time, through
/// `runtime`'s stores, and the version read: its files one after the other, in the order
/// its log gives them, each from its start.
pub async fn read_delta_batches(
    runtime: Arc<RuntimeEnv>,
    url: &str,
    at: TimeTravel,
    batch_size: usize,
) -> Result<(SendableRecordBatchStream, u64)> {
    let table = DeltaTableProvider::open(&runtime, url, at).await?;
    let version = table.version();
    let state = SessionStateBuilder::new()
        .with_config(one_partition().with_batch_size(batch_size.max(1)))
        .with_default_features()
        .with_runtime_env(runtime)
        .build();
    let ctx = SessionContext::new_with_state(state);
    let batches = ctx.read_table(Arc::new(table))?.execute_stream().await?;
    Ok((batches, version))
}

/// A session that runs everything in one partition: the rows in their order.
fn one_partition() -> SessionConfig {
    SessionConfig::new().with_target_partitions(1)
}

/// A stream as the one partition of a table: it can be run once.
struct OnceStream {
    schema: SchemaRef,
    batches: Mutex<Option<SendableRecordBatchStream>>,
}

impl fmt::Debug for OnceStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnceStream")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl PartitionStream for OnceStream {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn execute(&self, _: Arc<TaskContext>) -> SendableRecordBatchStream {
        let taken = self
            .batches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        taken.unwrap_or_else(|| {
            let gone = datafusion::common::exec_datafusion_err!("the batches were read already");
            Box::pin(RecordBatchStreamAdapter::new(
                self.schema.clone(),
                futures::stream::once(async move { Err(gone) }),
            ))
        })
    }
}
