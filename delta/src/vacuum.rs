//! [`vacuum`]: a Delta table's files that no version younger than the retention needs,
//! deleted, as Delta's `VACUUM` does (`rcc delta vacuum TARGET --retain-hours H`): the
//! files an overwrite removed from the table (kept until then for time travel), and files
//! in no version at all (left by a writer that was killed).

use datafusion::common::{exec_datafusion_err, plan_err, Result};
use datafusion::execution::runtime_env::RuntimeEnv;
use deltalake_core::operations::vacuum::VacuumMode;

use crate::location::Location;
use crate::time_travel::TimeTravel;

/// The retention below which Delta refuses to vacuum, unless told not to check (7 days,
/// the default `delta.deletedFileRetentionDuration`).
pub const DEFAULT_RETAIN_HOURS: u64 = 168;

/// What a vacuum deleted (or, dry, would delete): paths relative to the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vacuumed {
    pub files: Vec<String>,
    pub dry_run: bool,
}

/// Deletes the files of the Delta table at `url` that no version of the last `retain_hours`
/// hours needs (with `dry_run`, lists them only). A retention below the table's
/// (`delta.deletedFileRetentionDuration`, 7 days by default) is refused unless `unchecked`,
/// as Delta's `retentionDurationCheck`: readers of older versions would lose their files.
pub async fn vacuum(
    runtime: &RuntimeEnv,
    url: &str,
    retain_hours: u64,
    dry_run: bool,
    unchecked: bool,
) -> Result<Vacuumed> {
    let location = Location::open(runtime, url)?;
    let Some(table) = location.load(TimeTravel::Latest).await? else {
        return plan_err!("{}: no Delta table there (no _delta_log/)", location.url);
    };
    let hours = i64::try_from(retain_hours)
        .map_err(|_| exec_datafusion_err!("--retain-hours {retain_hours}: too many hours"))?;
    let (_, metrics) = table
        .vacuum()
        .with_retention_period(chrono::Duration::hours(hours))
        .with_enforce_retention_duration(!unchecked)
        .with_mode(VacuumMode::Full)
        .with_dry_run(dry_run)
        .await
        .map_err(|e| {
            let text = e.to_string();
            if text.contains("retention") && !unchecked {
                exec_datafusion_err!(
                    "the Delta table {}: {text}. A shorter retention deletes files that readers \
                     of recent versions need; give --no-retention-check if none will read them",
                    location.url
                )
            } else {
                location.error(e)
            }
        })?;
    Ok(Vacuumed {
        files: metrics.files_deleted,
        dry_run,
    })
}
