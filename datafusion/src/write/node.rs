//! [`WriteNode`]: a dataset write as a logical plan node, which travels inside the plan to
//! wherever it is planned (a Ballista scheduler), and [`with_dataset_writes`]: the planner
//! that turns it into a [`WriteExec`].

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::common::{internal_err, DFSchema, DFSchemaRef, Result};
use datafusion::execution::context::QueryPlanner;
use datafusion::execution::SessionStateBuilder;
use datafusion::logical_expr::physical_planning_context::PhysicalPlanningContext;
use datafusion::logical_expr::{
    Expr, LogicalPlan, UserDefinedLogicalNode, UserDefinedLogicalNodeCore,
};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_planner::{DefaultPhysicalPlanner, ExtensionPlanner, PhysicalPlanner};

use super::exec::WriteExec;
use super::spec::{written_schema, DatasetSpec};

/// Writes its input as the dataset `spec` describes; its rows are the files written
/// ([`WriteExec`]'s answer).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WriteNode {
    input: LogicalPlan,
    spec: DatasetSpec,
    schema: DFSchemaRef,
}

impl WriteNode {
    /// Writes `input` as `spec` says.
    pub fn new(input: LogicalPlan, spec: DatasetSpec) -> Result<Self> {
        let schema = Arc::new(DFSchema::try_from(written_schema())?);
        Ok(WriteNode {
            input,
            spec,
            schema,
        })
    }

    /// What it writes.
    pub fn spec(&self) -> &DatasetSpec {
        &self.spec
    }
}

impl PartialOrd for WriteNode {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        match self.input.partial_cmp(&other.input) {
            Some(Ordering::Equal) => self.spec.partial_cmp(&other.spec),
            order => order,
        }
    }
}

impl UserDefinedLogicalNodeCore for WriteNode {
    fn name(&self) -> &str {
        "WriteDataset"
    }

    fn inputs(&self) -> Vec<&LogicalPlan> {
        vec![&self.input]
    }

    fn schema(&self) -> &DFSchemaRef {
        &self.schema
    }

    fn expressions(&self) -> Vec<Expr> {
        Vec::new()
    }

    fn fmt_for_explain(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "WriteDataset: url={}, format={}",
            self.spec.url,
            self.spec.format.extension()
        )
    }

    fn with_exprs_and_inputs(
        &self,
        _exprs: Vec<Expr>,
        mut inputs: Vec<LogicalPlan>,
    ) -> Result<Self> {
        if inputs.len() != 1 {
            return internal_err!("WriteDataset has one input, not {}", inputs.len());
        }
        WriteNode::new(inputs.swap_remove(0), self.spec.clone())
    }

    /// Every column of the input is written.
    fn necessary_children_exprs(&self, _output_columns: &[usize]) -> Option<Vec<Vec<usize>>> {
        Some(vec![(0..self.input.schema().fields().len()).collect()])
    }
}

/// Plans a [`WriteNode`] as a [`WriteExec`].
#[derive(Debug, Default)]
pub struct WritePlanner;

#[async_trait]
impl ExtensionPlanner for WritePlanner {
    async fn plan_extension(
        &self,
        _planner: &dyn PhysicalPlanner,
        node: &dyn UserDefinedLogicalNode,
        _logical_inputs: &[&LogicalPlan],
        physical_inputs: &[Arc<dyn ExecutionPlan>],
        _session: &dyn Session,
        _planning_ctx: &PhysicalPlanningContext,
    ) -> Result<Option<Arc<dyn ExecutionPlan>>> {
        let Some(write) = node.as_any().downcast_ref::<WriteNode>() else {
            return Ok(None);
        };
        let [input] = physical_inputs else {
            return internal_err!("WriteDataset has one input, not {}", physical_inputs.len());
        };
        Ok(Some(Arc::new(WriteExec::new(
            input.clone(),
            write.spec.clone(),
        ))))
    }
}

/// DataFusion's query planner, with [`WritePlanner`].
#[derive(Debug)]
struct WritingQueryPlanner;

#[async_trait]
impl QueryPlanner for WritingQueryPlanner {
    async fn create_physical_plan(
        &self,
        logical_plan: &LogicalPlan,
        session: &dyn Session,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        DefaultPhysicalPlanner::with_extension_planners(vec![Arc::new(WritePlanner)])
            .create_physical_plan(logical_plan, session)
            .await
    }
}

/// `builder` with a query planner that plans [`WriteNode`]s: what a session that runs
/// dataset writes needs (a local one, or a Ballista scheduler's).
pub fn with_dataset_writes(builder: SessionStateBuilder) -> SessionStateBuilder {
    builder.with_query_planner(Arc::new(WritingQueryPlanner))
}
