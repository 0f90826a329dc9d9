//! How a query's work spreads over the cluster. As Spark's default parallelism, a query
//! gets as many partitions as the executors registered when it is planned have task slots,
//! unless it asks for a number (`rcc sql --partitions`, [`ClusterOptions`]) or the
//! scheduler's operator set one (`rcc cluster scheduler --default-partitions`). Each
//! partition is a task of its own, so that a stage of fewer partitions than slots still
//! spreads over the executors when the scheduler hands tasks out in turn (its default).

use std::sync::{Arc, OnceLock};

use ballista_core::config::{BallistaConfig, BALLISTA_SCHEDULER_MAX_PARTITIONS_PER_TASK};
use ballista_scheduler::cluster::ClusterState;
use ballista_scheduler::SessionBuilder;
use std::any::Any;

use datafusion::common::config::{ConfigEntry, ConfigExtension, ExtensionOptions};
use datafusion::common::{DataFusionError, Result};
use datafusion::prelude::SessionConfig;

hadoop_record::__options! {
    /// A query's settings for the cluster (`hadoop_record.*`), sent with its session.
    #[derive(Debug, Clone)]
    pub struct ClusterOptions {
        /// Partitions of the query's scans and exchanges; 0 (the default): the scheduler's
        /// choice (its operator's default, else the task slots of the executors
        /// registered).
        partitions / with_partitions: copy usize = 0;
    }
}

impl ConfigExtension for ClusterOptions {
    const PREFIX: &'static str = "hadoop_record";
}

/// By hand rather than with DataFusion's `extensions_options!`: the sessions Ballista
/// sends carry `entries()`, which must name the keys in full (the macro leaves out the
/// prefix, so the scheduler would not know them).
impl ExtensionOptions for ClusterOptions {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn cloned(&self) -> Box<dyn ExtensionOptions> {
        Box::new(self.clone())
    }

    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match key.strip_prefix("hadoop_record.").unwrap_or(key) {
            "partitions" => {
                self.partitions = value.parse().map_err(|_| {
                    DataFusionError::Configuration(format!(
                        "hadoop_record.partitions: `{value}` is not a number of partitions"
                    ))
                })?;
                Ok(())
            }
            other => Err(DataFusionError::Configuration(format!(
                "no setting hadoop_record.{other} (there is hadoop_record.partitions)"
            ))),
        }
    }

    fn entries(&self) -> Vec<ConfigEntry> {
        vec![ConfigEntry {
            key: format!("{}.partitions", Self::PREFIX),
            value: Some(self.partitions.to_string()),
            description: "Partitions of a query on the cluster; 0: the task slots of its \
                          executors (or the scheduler's --default-partitions)",
        }]
    }
}

/// `config` with [`ClusterOptions`], so that its `hadoop_record.*` settings are known.
pub(crate) fn with_cluster_options(config: SessionConfig) -> SessionConfig {
    if config
        .options()
        .extensions
        .get::<ClusterOptions>()
        .is_some()
    {
        config
    } else {
        config.with_option_extension(ClusterOptions::default())
    }
}

/// The executors' state, once the scheduler has it.
pub(crate) type Executors = Arc<OnceLock<Arc<dyn ClusterState>>>;

/// `inner`, with each session's partitions chosen as the module says and one partition per
/// task unless the session sets `ballista.scheduler.max_partitions_per_task`.
pub(crate) fn spreading(
    inner: SessionBuilder,
    default_partitions: Option<usize>,
    executors: Executors,
) -> SessionBuilder {
    Arc::new(move |config: SessionConfig| {
        let slots = || executors.get().map(|state| task_slots(state.as_ref()));
        let partitions = partitions(&config, default_partitions, slots);
        let mut config = config.with_target_partitions(partitions);
        let per_task = config
            .options()
            .extensions
            .get::<BallistaConfig>()
            .map_or(0, BallistaConfig::max_partitions_per_task);
        if per_task == 0 {
            config
                .options_mut()
                .set(BALLISTA_SCHEDULER_MAX_PARTITIONS_PER_TASK, "1")?;
        }
        inner(config)
    })
}

/// The partitions of a query planned with `config`: what it asks for, else the operator's
/// `default_partitions`, else the registered executors' task slots (when there are any),
/// else `config`'s own target.
fn partitions(
    config: &SessionConfig,
    default_partitions: Option<usize>,
    slots: impl FnOnce() -> Option<usize>,
) -> usize {
    let asked = config
        .options()
        .extensions
        .get::<ClusterOptions>()
        .map_or(0, |o| o.partitions);
    [Some(asked), default_partitions]
        .into_iter()
        .flatten()
        .find(|&n| n > 0)
        .or_else(|| slots().filter(|&n| n > 0))
        .unwrap_or_else(|| config.target_partitions())
}

/// The task slots (vcores) of the registered executors. The in-memory cluster state
/// answers from its own maps without waiting, so blocking on it here, inside the
/// scheduler's planning, ends at once.
fn task_slots(state: &dyn ClusterState) -> usize {
    futures::executor::block_on(state.registered_executor_metadata())
        .iter()
        .map(|e| e.specification.vcores as usize)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(n: usize) -> SessionConfig {
        with_cluster_options(SessionConfig::new().with_target_partitions(7))
            .set_usize("hadoop_record.partitions", n)
    }

    #[test]
    fn the_settings_travel_by_their_full_names() {
        let sent = asking(3).options().entries();
        let entry = sent.iter().find(|e| e.key == "hadoop_record.partitions");
        assert_eq!(entry.unwrap().value.as_deref(), Some("3"));
        let received = with_cluster_options(SessionConfig::new()).set_str(
            "hadoop_record.partitions",
            entry.unwrap().value.as_deref().unwrap(),
        );
        let options = received.options().extensions.get::<ClusterOptions>();
        assert_eq!(options.unwrap().partitions, 3);
        let mut config = with_cluster_options(SessionConfig::new());
        let bad = config.options_mut().set("hadoop_record.partitions", "many");
        assert!(bad.unwrap_err().to_string().contains("`many`"));
    }

    #[test]
    fn a_query_s_own_number_comes_first_then_the_operator_s_then_the_slots() {
        assert_eq!(partitions(&asking(3), Some(5), || Some(4)), 3);
        assert_eq!(partitions(&asking(0), Some(5), || Some(4)), 5);
        assert_eq!(partitions(&asking(0), None, || Some(4)), 4);
        // No executor registered yet, or no extension: the session's own target.
        assert_eq!(partitions(&asking(0), None, || Some(0)), 7);
        assert_eq!(partitions(&asking(0), None, || None), 7);
        let plain = SessionConfig::new().with_target_partitions(7);
        assert_eq!(partitions(&plain, None, || Some(4)), 4);
    }

    #[test]
    fn sessions_get_the_partitions_and_one_partition_a_task() {
        let executors: Executors = Arc::default();
        let builder = spreading(
            Arc::new(ballista_core::utils::default_session_builder),
            None,
            executors,
        );
        let config = ballista_core::utils::default_config_producer();
        let config = with_cluster_options(config).set_usize("hadoop_record.partitions", 6);
        let state = builder(config.clone()).unwrap();
        assert_eq!(state.config().target_partitions(), 6);
        let ballista = state.config().options().extensions.get::<BallistaConfig>();
        assert_eq!(ballista.unwrap().max_partitions_per_task(), 1);

        // A session that sets its own slice size keeps it.
        let mut config = config;
        config
            .options_mut()
            .set(BALLISTA_SCHEDULER_MAX_PARTITIONS_PER_TASK, "3")
            .unwrap();
        let state = builder(config).unwrap();
        let ballista = state.config().options().extensions.get::<BallistaConfig>();
        assert_eq!(ballista.unwrap().max_partitions_per_task(), 3);
    }
}
