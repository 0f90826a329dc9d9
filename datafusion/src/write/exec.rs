//! [`WriteExec`]: the physical plan node that writes each partition of its input as part
//! files of a dataset, where the partition runs, and answers what it wrote.

use std::fmt;
use std::sync::Arc;

use datafusion::common::{internal_datafusion_err, plan_datafusion_err, Result};
use datafusion::execution::object_store::ObjectStoreUrl;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_expr::EquivalenceProperties;
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, ExecutionPlanProperties, PlanProperties,
};
use object_store::path::Path;
use url::Url;

use super::part::PartTask;
use super::spec::{written_schema, DatasetSpec};

/// Writes partition `i` of its input as the part files `part-i-<query id>.<ext>` (one, or
/// one per value of the `partition_by` columns) under the dataset's staging directory, and
/// answers one row per file written: partition, staged path, path in the dataset, rows
/// (see [`write_dataset`](super::write_dataset), which commits them).
#[derive(Debug)]
pub struct WriteExec {
    input: Arc<dyn ExecutionPlan>,
    spec: Arc<DatasetSpec>,
    /// The numbers of its partitions in the whole stage, where a cluster's task runs a
    /// slice of them (numbered from 0 in the task); `None`: their own.
    partition_ids: Option<Vec<usize>>,
    properties: Arc<PlanProperties>,
}

impl WriteExec {
    /// Writes `input` as `spec` says.
    pub fn new(input: Arc<dyn ExecutionPlan>, spec: DatasetSpec) -> Self {
        let partitions = input.output_partitioning().partition_count();
        let properties = PlanProperties::new(
            EquivalenceProperties::new(written_schema()),
            datafusion::physical_plan::Partitioning::UnknownPartitioning(partitions),
            EmissionType::Final,
            Boundedness::Bounded,
        );
        WriteExec {
            input,
            spec: Arc::new(spec),
            partition_ids: None,
            properties: Arc::new(properties),
        }
    }

    /// The same, running the partitions numbered `ids` of the whole plan as its partitions
    /// 0, 1, …: a Ballista task's slice of a stage (the part files keep the stage's
    /// numbers, so that a task run again writes the same names).
    pub fn with_partition_ids(&self, ids: Vec<usize>) -> Self {
        WriteExec {
            input: self.input.clone(),
            spec: self.spec.clone(),
            partition_ids: Some(ids),
            properties: self.properties.clone(),
        }
    }

    /// What it writes.
    pub fn spec(&self) -> &DatasetSpec {
        &self.spec
    }

    /// What it writes from.
    pub fn input(&self) -> &Arc<dyn ExecutionPlan> {
        &self.input
    }

    /// The same write of partitions numbered as this one's, from `input`.
    fn with_input(&self, input: Arc<dyn ExecutionPlan>) -> Self {
        let mut write = WriteExec::new(input, self.spec.as_ref().clone());
        write.partition_ids = self.partition_ids.clone();
        write
    }
}

impl DisplayAs for WriteExec {
    fn fmt_as(&self, _: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "WriteExec: url={}, format={}, query_id={}",
            self.spec.url,
            self.spec.format.extension(),
            self.spec.query_id
        )?;
        if !self.spec.partition_by.is_empty() {
            write!(f, ", partition_by=[{}]", self.spec.partition_by.join(", "))?;
        }
        Ok(())
    }
}

impl ExecutionPlan for WriteExec {
    crate::one_input_plan!("WriteExec");

    fn maintains_input_order(&self) -> Vec<bool> {
        vec![false]
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let (store_url, dir) = locate(&self.spec.url)?;
        let store = context.runtime_env().object_store(&store_url)?;
        let schema = self.input.schema();
        let keys = self
            .spec
            .partition_by
            .iter()
            .map(|name| Ok(schema.index_of(name)?))
            .collect::<Result<Vec<usize>>>()?;
        let numbered = match &self.partition_ids {
            None => partition,
            Some(ids) => *ids.get(partition).ok_or_else(|| {
                internal_datafusion_err!("WriteExec: no partition {partition} of {ids:?}")
            })?,
        };
        let task = PartTask {
            spec: self.spec.clone(),
            store,
            dir,
            partition: numbered,
            keys,
        };
        let input = self.input.execute(partition, context)?;
        let written = futures::stream::once(task.write(input));
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            written_schema(),
            written,
        )))
    }
}

/// A dataset URL's store (`hdfs://nn:8020`, `s3://bucket`, `file://`) and the directory's
/// path in it.
pub(crate) fn locate(url: &str) -> Result<(ObjectStoreUrl, Path)> {
    let parsed = Url::parse(url).map_err(|e| plan_datafusion_err!("{url}: not a URL: {e}"))?;
    let store = &parsed[..url::Position::BeforePath];
    let store = ObjectStoreUrl::parse(store)?;
    let dir = Path::from_url_path(parsed.path()).map_err(|e| plan_datafusion_err!("{url}: {e}"))?;
    Ok((store, dir))
}

/// The [`ExecutionPlan`] methods of a node named `$name` over one input, its fields `input`
/// and `properties`: its children replaced by `self.with_input(child)` (the same node over
/// `child`), its properties then computed again; no expressions; and its input's
/// partitions taken as they are (no repartitioning to spread a single sorted partition:
/// its order would be lost). [`WriteExec`] and `rcc sql`'s node that keeps the input's
/// order are such nodes; a crate using it depends on `datafusion` itself.
#[macro_export]
macro_rules! one_input_plan {
    ($name:literal) => {
        fn name(&self) -> &'static str {
            $name
        }

        fn properties(&self) -> &::std::sync::Arc<::datafusion::physical_plan::PlanProperties> {
            &self.properties
        }

        fn children(
            &self,
        ) -> ::std::vec::Vec<&::std::sync::Arc<dyn ::datafusion::physical_plan::ExecutionPlan>> {
            ::std::vec![&self.input]
        }

        fn benefits_from_input_partitioning(&self) -> ::std::vec::Vec<bool> {
            ::std::vec![false]
        }

        fn apply_expressions(
            &self,
            _f: &mut dyn FnMut(
                &::std::sync::Arc<dyn ::datafusion::physical_expr::PhysicalExpr>,
            ) -> ::datafusion::common::Result<
                ::datafusion::common::tree_node::TreeNodeRecursion,
            >,
        ) -> ::datafusion::common::Result<::datafusion::common::tree_node::TreeNodeRecursion> {
            Ok(::datafusion::common::tree_node::TreeNodeRecursion::Continue)
        }

        fn replace_children(
            self: ::std::sync::Arc<Self>,
            mut children: ::std::vec::Vec<
                ::std::sync::Arc<dyn ::datafusion::physical_plan::ExecutionPlan>,
            >,
            _: ::datafusion::physical_plan::ReplaceChildrenOptions,
        ) -> ::datafusion::common::Result<
            ::std::sync::Arc<dyn ::datafusion::physical_plan::ExecutionPlan>,
        > {
            if children.len() != 1 {
                return ::datafusion::common::internal_err!(
                    "{} has one input, not {}",
                    $name,
                    children.len()
                );
            }
            Ok(::std::sync::Arc::new(
                self.with_input(children.swap_remove(0)),
            ))
        }

        fn with_new_children(
            self: ::std::sync::Arc<Self>,
            children: ::std::vec::Vec<
                ::std::sync::Arc<dyn ::datafusion::physical_plan::ExecutionPlan>,
            >,
        ) -> ::datafusion::common::Result<
            ::std::sync::Arc<dyn ::datafusion::physical_plan::ExecutionPlan>,
        > {
            self.replace_children(
                children,
                ::datafusion::physical_plan::ReplaceChildrenOptions::new(
                    ::datafusion::physical_plan::ChildrenPropertiesMode::Recompute,
                ),
            )
        }
    };
}
