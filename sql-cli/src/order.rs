//! Results in the input's order when the query gives them no order of its own: what
//! `--to records` needs to filter a file, and what people expect of `SELECT *`.
//!
//! DataFusion reads a table as several partitions, each a run of the input (its files in
//! name order, large files in byte ranges: the partitions follow each other in the input),
//! and merges them as their batches come. Worse, the scans of a query share their files at
//! run time (`enable_file_stream_work_stealing`), so that a partition may read a file that
//! another was given. Where the rows of such partitions flow up unchanged (filters,
//! projections, limits; nothing that aggregates, joins, repartitions by hash or sorts) into
//! the one stream of the result, or into a merge of partitions (`CoalescePartitionsExec`:
//! `LIMIT`, a window over the whole input), [`InputOrder`] instead
//!
//! - makes each scan read its own partitions, in runs of at most [`RANGE_BYTES`] where the
//!   framing can be split, one file each otherwise;
//! - drops the round-robin repartitions that spread them over more threads;
//! - joins the partitions in their order ([`InputOrderExec`]), running the next
//!   `target_partitions` at once: the rows of those ahead of the one being written are
//!   held until their turn, up to [`AHEAD_BYTES`] each (a run that decodes to more, a
//!   large file that cannot be split, then waits).

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::config::ConfigOptions;
use datafusion::common::runtime::SpawnedTask;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{internal_err, DataFusionError, Result};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileGroup, FileScanConfig};
use datafusion::datasource::source::{DataSource, DataSourceExec};
use datafusion::execution::{RecordBatchStream, SendableRecordBatchStream, TaskContext};
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::execution_plan::EvaluationType;
use datafusion::physical_plan::repartition::RepartitionExec;
use datafusion::physical_plan::{
    ChildrenPropertiesMode, DisplayAs, DisplayFormatType, Distribution, ExecutionPlan,
    ExecutionPlanProperties, Partitioning, PlanProperties, ReplaceChildrenOptions,
};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::task::AtomicWaker;
use futures::{Stream, StreamExt};

/// The most bytes of input a partition reads when the result keeps the input's order (and
/// the framing can be split): the partitions ahead of the one being written are held until
/// their turn, so that their size bounds the memory it takes.
pub(crate) const RANGE_BYTES: u64 = 8 << 20;

/// The most bytes of rows (Arrow's memory) a partition running ahead of the one being
/// written holds before it waits for its turn: more than a run of [`RANGE_BYTES`] of
/// records usually decodes to.
pub(crate) const AHEAD_BYTES: usize = 64 << 20;

/// The physical optimizer rule (see the [module](self) documentation); it runs after
/// DataFusion's own.
#[derive(Debug, Default)]
pub(crate) struct InputOrder;

impl PhysicalOptimizerRule for InputOrder {
    fn optimize(
        &self,
        plan: Arc<dyn ExecutionPlan>,
        config: &ConfigOptions,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let window = config.execution.target_partitions.max(1);
        let plan = plan
            .transform_up(|node| {
                let Some(merge) = node.downcast_ref::<CoalescePartitionsExec>() else {
                    return Ok(Transformed::no(node));
                };
                Ok(match in_order(merge.input())? {
                    Some(input) => {
                        Transformed::yes(
                            Arc::new(InputOrderExec::new(input, window, merge.fetch())) as _,
                        )
                    }
                    None => Transformed::no(node),
                })
            })?
            .data;
        // The result's partitions, which the output would merge as they come.
        if plan.output_partitioning().partition_count() > 1 {
            if let Some(input) = in_order(&plan)? {
                return Ok(if input.output_partitioning().partition_count() > 1 {
                    Arc::new(InputOrderExec::new(input, window, None))
                } else {
                    input
                });
            }
        }
        Ok(plan)
    }

    fn name(&self) -> &str {
        "input_order"
    }

    fn schema_check(&self) -> bool {
        true
    }
}

/// `plan` with its scans reading in order and without round-robin repartitions, when its
/// partitions are runs of the input in their order (see the module documentation);
/// `None` when rows cross partitions or change order on the way.
fn in_order(plan: &Arc<dyn ExecutionPlan>) -> Result<Option<Arc<dyn ExecutionPlan>>> {
    if let Some(scan) = plan.downcast_ref::<DataSourceExec>() {
        return ordered_scan(scan).map(Some);
    }
    if let Some(repartition) = plan.downcast_ref::<RepartitionExec>() {
        return match repartition.partitioning() {
            Partitioning::RoundRobinBatch(_) => in_order(repartition.input()),
            _ => Ok(None),
        };
    }
    let children = plan.children();
    let [child] = children.as_slice() else {
        // Another source (its partitions as they are), or a join or union.
        return Ok(children.is_empty().then(|| plan.clone()));
    };
    let keeps_rows = plan.maintains_input_order().first() == Some(&true)
        && plan.output_partitioning().partition_count()
            == child.output_partitioning().partition_count()
        && matches!(
            plan.input_distribution_requirements().child_distribution(0),
            None | Some(Distribution::UnspecifiedDistribution)
        );
    if !keeps_rows {
        return Ok(None);
    }
    match in_order(child)? {
        Some(child) => plan
            .clone()
            .replace_children(vec![child], recompute())
            .map(Some),
        None => Ok(None),
    }
}

/// Children replaced, the plan's properties computed again.
fn recompute() -> ReplaceChildrenOptions {
    ReplaceChildrenOptions::new(ChildrenPropertiesMode::Recompute)
}

/// `scan` reading each partition itself (no file taken by another), in runs of at most
/// [`RANGE_BYTES`] where its files can be split, one file each otherwise.
fn ordered_scan(scan: &DataSourceExec) -> Result<Arc<dyn ExecutionPlan>> {
    let Some(config) = scan.data_source().downcast_ref::<FileScanConfig>() else {
        return Ok(scan
            .with_preserve_order(true)
            .unwrap_or_else(|| Arc::new(scan.clone())));
    };
    let mut ordered = config.clone();
    ordered.preserve_order = true;
    // The planner's groups are runs of the files in name order, one after the other.
    let files: Vec<PartitionedFile> = config
        .file_groups
        .iter()
        .flat_map(|group| group.iter().cloned())
        .collect();
    let bytes: u64 = files.iter().map(PartitionedFile::effective_size).sum();
    let runs = usize::try_from(bytes.div_ceil(RANGE_BYTES)).unwrap_or(usize::MAX);
    if runs > config.file_groups.len() {
        ordered.file_groups = vec![FileGroup::new(files.clone())];
        if let Some(split) = DataSource::repartitioned(&ordered, runs, 0, None)? {
            return Ok(Arc::new(DataSourceExec::new(split)));
        }
        // Files that cannot be split: one each.
        ordered.file_groups = files
            .into_iter()
            .map(|file| FileGroup::new(vec![file]))
            .collect();
    }
    Ok(DataSourceExec::from_data_source(ordered))
}

/// Joins the partitions of its input in their order into one: all of partition 0, then
/// all of partition 1, and so on, with `window` partitions running at once (those ahead
/// of the one being written holding up to [`AHEAD_BYTES`] of rows until their turn), and
/// stops after `fetch` rows.
#[derive(Debug)]
pub(crate) struct InputOrderExec {
    input: Arc<dyn ExecutionPlan>,
    window: usize,
    fetch: Option<usize>,
    properties: Arc<PlanProperties>,
}

impl InputOrderExec {
    fn new(input: Arc<dyn ExecutionPlan>, window: usize, fetch: Option<usize>) -> Self {
        // One partition in no order the plan knows of (each partition's order, if any,
        // does not hold across them).
        let mut equivalences = input.equivalence_properties().clone();
        equivalences.clear_orderings();
        equivalences.clear_per_partition_constants();
        let properties = PlanProperties::new(
            equivalences,
            Partitioning::UnknownPartitioning(1),
            input.pipeline_behavior(),
            input.boundedness(),
        )
        .with_evaluation_type(EvaluationType::Eager);
        InputOrderExec {
            input,
            window,
            fetch,
            properties: Arc::new(properties),
        }
    }

    /// The same join of partitions, over `input`.
    fn with_input(&self, input: Arc<dyn ExecutionPlan>) -> Self {
        InputOrderExec::new(input, self.window, self.fetch)
    }
}

impl DisplayAs for InputOrderExec {
    fn fmt_as(&self, _: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "InputOrderExec: window={}", self.window)?;
        if let Some(fetch) = self.fetch {
            write!(f, ", fetch={fetch}")?;
        }
        Ok(())
    }
}

impl ExecutionPlan for InputOrderExec {
    hadoop_record_datafusion::one_input_plan!("InputOrderExec");

    fn fetch(&self) -> Option<usize> {
        self.fetch
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        if partition != 0 {
            return internal_err!("InputOrderExec has one partition, not {partition}");
        }
        let (failures, failed) = unbounded();
        let mut stream = InOrder {
            input: self.input.clone(),
            context,
            schema: self.input.schema(),
            next: 0,
            partitions: self.input.output_partitioning().partition_count(),
            window: self.window,
            running: VecDeque::new(),
            failures,
            failed,
            left: self.fetch,
        };
        stream.start();
        Ok(Box::pin(stream))
    }
}

/// The stream of [`InputOrderExec`].
struct InOrder {
    input: Arc<dyn ExecutionPlan>,
    context: Arc<TaskContext>,
    schema: SchemaRef,
    /// The next partition to start.
    next: usize,
    partitions: usize,
    window: usize,
    /// The partitions started and not yet written out, in order.
    running: VecDeque<Running>,
    /// Where the tasks report an error, which ends the stream at once.
    failures: UnboundedSender<DataFusionError>,
    failed: UnboundedReceiver<DataFusionError>,
    /// The rows still to give (`fetch`); `None`: all.
    left: Option<usize>,
}

impl InOrder {
    /// Starts partitions until `window` run.
    fn start(&mut self) {
        while self.running.len() < self.window && self.next < self.partitions {
            let (batches, received) = unbounded();
            let held = Arc::new(Held::default());
            let task = SpawnedTask::spawn(run(
                self.input.clone(),
                self.next,
                self.context.clone(),
                Sent {
                    batches,
                    held: held.clone(),
                },
                self.failures.clone(),
            ));
            self.running.push_back(Running {
                batches: received,
                held,
                _task: task,
            });
            self.next += 1;
        }
    }

    /// Ends the stream: its tasks stop.
    fn stop(&mut self) {
        self.running.clear();
        self.next = self.partitions;
    }
}

/// A partition started: its batches, what they hold, and the task that runs it (stopped
/// when dropped).
struct Running {
    batches: UnboundedReceiver<RecordBatch>,
    held: Arc<Held>,
    _task: SpawnedTask<()>,
}

/// The rows a running partition has sent and the stream has not yet taken.
#[derive(Default)]
struct Held {
    bytes: AtomicUsize,
    /// Woken when the stream takes a batch.
    taken: AtomicWaker,
}

/// Where a partition's task sends its batches.
struct Sent {
    batches: UnboundedSender<RecordBatch>,
    held: Arc<Held>,
}

impl Sent {
    /// Sends `batch`, then waits while the partition holds more than [`AHEAD_BYTES`];
    /// false when the stream is gone.
    async fn send(&self, batch: RecordBatch) -> bool {
        let size = batch.get_array_memory_size();
        self.held.bytes.fetch_add(size, Ordering::AcqRel);
        if self.batches.unbounded_send(batch).is_err() {
            return false;
        }
        futures::future::poll_fn(|cx| {
            self.held.taken.register(cx.waker());
            if self.held.bytes.load(Ordering::Acquire) <= AHEAD_BYTES {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
        true
    }
}

/// Runs partition `partition` of `input`, sending its batches, or its error to `failures`.
async fn run(
    input: Arc<dyn ExecutionPlan>,
    partition: usize,
    context: Arc<TaskContext>,
    batches: Sent,
    failures: UnboundedSender<DataFusionError>,
) {
    let mut stream = match input.execute(partition, context) {
        Ok(stream) => stream,
        Err(e) => {
            let _ = failures.unbounded_send(e);
            return;
        }
    };
    while let Some(batch) = stream.next().await {
        match batch {
            Ok(batch) => {
                if !batches.send(batch).await {
                    // The stream was dropped: nothing wants the rest.
                    return;
                }
            }
            Err(e) => {
                let _ = failures.unbounded_send(e);
                return;
            }
        }
    }
}

impl Stream for InOrder {
    type Item = Result<RecordBatch>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if this.left == Some(0) {
                this.stop();
                return Poll::Ready(None);
            }
            // A task that failed sent its error before its batches ended: seen here first.
            if let Poll::Ready(Some(e)) = this.failed.poll_next_unpin(cx) {
                this.stop();
                return Poll::Ready(Some(Err(e)));
            }
            let Some(front) = this.running.front_mut() else {
                return Poll::Ready(None);
            };
            match front.batches.poll_next_unpin(cx) {
                Poll::Ready(Some(mut batch)) => {
                    let size = batch.get_array_memory_size();
                    front.held.bytes.fetch_sub(size, Ordering::AcqRel);
                    front.held.taken.wake();
                    if let Some(left) = &mut this.left {
                        if batch.num_rows() > *left {
                            batch = batch.slice(0, *left);
                        }
                        *left -= batch.num_rows();
                    }
                    return Poll::Ready(Some(Ok(batch)));
                }
                Poll::Ready(None) => {
                    this.running.pop_front();
                    this.start();
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl RecordBatchStream for InOrder {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}
