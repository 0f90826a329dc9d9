//! `rcc-convert`: `rcc convert` whole, Parquet, Arrow, `hdfs://` and `s3://` included, for an
//! `rcc` built without them (its `columnar` and `storage` features), which runs this for
//! those conversions; and Delta Lake tables (`--to delta`, `--from delta`), which `rcc`
//! always hands here: they are written and read by hadoop-record-delta, as `rcc sql`'s.

mod malloc;

use std::sync::Arc;
use std::thread::JoinHandle;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::{DataFusionError, Result};
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use datafusion::execution::SendableRecordBatchStream;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use futures::StreamExt;
use hadoop_record_cli::convert::delta::{DeltaIn, DeltaOut, DeltaTables, TableRead, TableWrite};
use hadoop_record_cli::storage::StorageArgs;
use hadoop_record_datafusion::write::error_naming;
use hadoop_record_datafusion::{error_message, with_storage};
use hadoop_record_delta::{
    read_delta_batches, write_delta_batches, DeltaMode, DeltaWriteOptions, DeltaWritten, TimeTravel,
};
use tokio::runtime::Runtime;
use tokio::sync::mpsc;

fn main() -> std::process::ExitCode {
    malloc::tune();
    hadoop_record_cli::companion::main("convert", |context, args| {
        hadoop_record_cli::convert::run_with_delta(context, args, &Delta)
    })
}

/// Delta Lake tables through hadoop-record-delta: written in a task of their own, fed the
/// batches `rcc convert` decodes; read a batch at a time.
struct Delta;

/// The batches a write has been given but not yet written, at most.
const AHEAD: usize = 2;

impl DeltaTables for Delta {
    fn write(
        &self,
        table: &str,
        out: &DeltaOut,
        storage: &StorageArgs,
        columns: SchemaRef,
    ) -> Result<Box<dyn TableWrite>, String> {
        let options = DeltaWriteOptions::default()
            .with_mode(out.args.mode::<DeltaMode>()?.unwrap_or_default())
            .with_partition_by(out.partition_by.clone())
            .with_allow_unsafe_rename(out.args.allow_unsafe_rename);
        let (tokio, engine) = start(storage)?;
        let (batches, received) = mpsc::channel(AHEAD);
        let stream = futures::stream::unfold(received, |mut received| async move {
            received.recv().await.map(|batch| (batch, received))
        });
        let stream: SendableRecordBatchStream =
            Box::pin(RecordBatchStreamAdapter::new(columns, stream));
        let url = table.to_owned();
        // A thread of its own, which runs the write on the runtime, rather than a task:
        // the write's future is not `Send` for every lifetime, which a task needs.
        let runtime = tokio.handle().clone();
        let job = std::thread::spawn(move || {
            runtime.block_on(write_delta_batches(engine, stream, &url, &options))
        });
        Ok(Box::new(DeltaWrite {
            table: table.to_owned(),
            batches: Some(batches),
            job: Some(job),
            _tokio: tokio,
        }))
    }

    fn read(
        &self,
        table: &str,
        at: &DeltaIn,
        storage: &StorageArgs,
        batch_size: usize,
    ) -> Result<TableRead, String> {
        let at = match (at.version, &at.timestamp) {
            (Some(version), _) => TimeTravel::Version(version),
            (None, Some(time)) => {
                TimeTravel::at_time(time).map_err(|e| format!("--timestamp: {e}"))?
            }
            (None, None) => TimeTravel::Latest,
        };
        let (tokio, engine) = start(storage)?;
        let (mut stream, _version) = tokio
            .block_on(read_delta_batches(engine, table, at, batch_size))
            .map_err(|e| error_naming(&e, table))?;
        let columns = stream.schema();
        let batches = std::iter::from_fn(move || {
            tokio
                .block_on(stream.next())
                .map(|batch| batch.map_err(|e| error_message(&e)))
        });
        Ok(TableRead {
            columns,
            batches: Box::new(batches),
        })
    }
}

/// The async runtime a table is written or read on, and the stores of `storage`.
fn start(storage: &StorageArgs) -> Result<(Runtime, Arc<RuntimeEnv>), String> {
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    let engine = with_storage(RuntimeEnvBuilder::new(), storage.options())
        .build()
        .map_err(|e| error_message(&e))?;
    Ok((tokio, Arc::new(engine)))
}

/// A write of batches into a Delta table: a thread that writes what it receives (on
/// `tokio`) and commits at the end of its stream; an error in the stream fails it, which
/// removes the files it wrote.
struct DeltaWrite {
    table: String,
    /// The stream's sender; dropped, the stream ends.
    batches: Option<mpsc::Sender<Result<RecordBatch>>>,
    job: Option<JoinHandle<Result<DeltaWritten>>>,
    /// The runtime the write runs on, kept until it has ended.
    _tokio: Runtime,
}

impl DeltaWrite {
    /// Ends the stream (with an error `why`, which fails the write) and waits for the write.
    fn end(&mut self, why: Option<&str>) -> Result<DeltaWritten, String> {
        if let (Some(batches), Some(why)) = (self.batches.take(), why) {
            // A write that has stopped already needs no telling.
            let _ = batches.blocking_send(Err(DataFusionError::Execution(why.to_owned())));
        }
        self.batches = None;
        let job = self
            .job
            .take()
            .ok_or("the Delta table's write has ended already")?;
        match job.join() {
            Ok(written) => written.map_err(|e| error_naming(&e, &self.table)),
            Err(_) => Err(format!(
                "the write of the Delta table {} failed (its thread panicked)",
                self.table
            )),
        }
    }
}

impl TableWrite for DeltaWrite {
    fn write(&mut self, batch: RecordBatch) -> Result<(), String> {
        let sent = match &self.batches {
            Some(batches) => batches.blocking_send(Ok(batch)).is_ok(),
            None => false,
        };
        if sent {
            return Ok(());
        }
        // The write stopped (the table refused the rows, a store failed): why.
        match self.end(None) {
            Err(e) => Err(e),
            Ok(_) => Err(format!(
                "the write of the Delta table {} ended before its rows",
                self.table
            )),
        }
    }

    fn commit(mut self: Box<Self>) -> Result<String, String> {
        let written = self.end(None)?;
        Ok(written.summary(&self.table))
    }

    fn abort(mut self: Box<Self>, why: &str) {
        let _ = self.end(Some(why));
    }
}

impl Drop for DeltaWrite {
    /// A write neither committed nor given up (a panic) is given up: its files removed.
    fn drop(&mut self) {
        if self.job.is_some() {
            let _ = self.end(Some("the conversion stopped"));
        }
    }
}
