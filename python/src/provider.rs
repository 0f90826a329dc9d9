//! The table a `Dataset` hands to the `datafusion` Python package: the listing table of its
//! files, planned and scanned with the dataset's own object stores.
//!
//! Across DataFusion's FFI the caller's session and task contexts arrive with a default
//! runtime, which knows the local file system only; files named by `hdfs://` or `s3://`
//! URLs need the stores of the dataset's runtime (`hadoop_record_datafusion::with_storage`).
//! So the scan is planned with a session of that runtime and the caller's settings, and
//! each partition runs with the caller's task context on that runtime.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{Constraints, DataFusionError, Result, Statistics};
use datafusion::config::ConfigOptions;
use datafusion::datasource::TableType;
use datafusion::execution::runtime_env::RuntimeEnv;
use datafusion::execution::session_state::SessionStateBuilder;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::{DisplayAs, DisplayFormatType, ExecutionPlan, PlanProperties};
use tokio::runtime::Handle;

/// A table scanned with the object stores of `runtime`, whoever calls it; its scans are
/// planned on the tokio runtime of `tasks` (the stores' I/O needs this library's tokio,
/// which the caller's executor is not).
#[derive(Debug)]
pub(crate) struct WithStores {
    table: Arc<dyn TableProvider>,
    runtime: Arc<RuntimeEnv>,
    tasks: Handle,
}

impl WithStores {
    pub(crate) fn new(
        table: Arc<dyn TableProvider>,
        runtime: Arc<RuntimeEnv>,
        tasks: Handle,
    ) -> Self {
        WithStores {
            table,
            runtime,
            tasks,
        }
    }
}

#[async_trait]
impl TableProvider for WithStores {
    fn schema(&self) -> SchemaRef {
        self.table.schema()
    }

    fn constraints(&self) -> Option<&Constraints> {
        self.table.constraints()
    }

    fn table_type(&self) -> TableType {
        self.table.table_type()
    }

    async fn scan(
        &self,
        session: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let state = SessionStateBuilder::new()
            .with_config(session.config().clone())
            .with_runtime_env(self.runtime.clone())
            .with_default_features()
            .build();
        let (table, projection, filters) =
            (self.table.clone(), projection.cloned(), filters.to_vec());
        let plan = self
            .tasks
            .spawn(async move {
                table
                    .scan(&state, projection.as_ref(), &filters, limit)
                    .await
            })
            .await
            .map_err(|e| DataFusionError::ExecutionJoin(Box::new(e)))??;
        Ok(RunsWith::wrap(plan, self.runtime.clone()))
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        self.table.supports_filters_pushdown(filters)
    }

    fn statistics(&self) -> Option<Statistics> {
        self.table.statistics()
    }
}

/// A scan whose partitions run on `runtime` (the caller's task context otherwise). A leaf
/// to the plan around it, as the scan it wraps.
#[derive(Debug)]
struct RunsWith {
    scan: Arc<dyn ExecutionPlan>,
    runtime: Arc<RuntimeEnv>,
}

impl RunsWith {
    fn wrap(scan: Arc<dyn ExecutionPlan>, runtime: Arc<RuntimeEnv>) -> Arc<dyn ExecutionPlan> {
        Arc::new(RunsWith { scan, runtime })
    }
}

impl DisplayAs for RunsWith {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        self.scan.fmt_as(t, f)
    }
}

impl ExecutionPlan for RunsWith {
    fn name(&self) -> &str {
        self.scan.name()
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        self.scan.properties()
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        self.scan.apply_expressions(f)
    }

    fn with_new_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn repartitioned(
        &self,
        target_partitions: usize,
        config: &ConfigOptions,
    ) -> Result<Option<Arc<dyn ExecutionPlan>>> {
        let scan = self.scan.repartitioned(target_partitions, config)?;
        Ok(scan.map(|scan| RunsWith::wrap(scan, self.runtime.clone())))
    }

    fn with_fetch(&self, limit: Option<usize>) -> Option<Arc<dyn ExecutionPlan>> {
        let scan = self.scan.with_fetch(limit)?;
        Some(RunsWith::wrap(scan, self.runtime.clone()))
    }

    fn fetch(&self) -> Option<usize> {
        self.scan.fetch()
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let context = TaskContext::new(
            context.task_id(),
            context.session_id(),
            context.session_config().clone(),
            context.scalar_functions().clone(),
            context.higher_order_functions().clone(),
            context.aggregate_functions().clone(),
            context.window_functions().clone(),
            self.runtime.clone(),
        );
        self.scan.execute(partition, Arc::new(context))
    }
}
