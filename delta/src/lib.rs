//! Delta Lake tables from Hadoop record data, through delta-rs (`deltalake-core`) for the
//! log, the protocol and the conflict checks.
//!
//! - [`write_delta`]: a query's result as a table's new version (`--mode error|append|
//!   overwrite`, Spark's names), its Parquet part files written by whoever runs each
//!   partition (local threads, or a Ballista cluster's executors) straight into the
//!   table's directory, each with the statistics Spark records, then committed once with a
//!   put-if-absent of the next log entry; concurrent writers are ordered by Delta's
//!   conflict rules. Local disks, `hdfs://` and `s3://` alike, through the session's stores.
//! - [`DeltaTableProvider`]: a table at its latest version, a version, or the version of a
//!   time ([`TimeTravel`]), as a DataFusion table (a Parquet scan of the files it names),
//!   which a Ballista cluster's codec carries as JSON ([`DeltaTableProvider::to_json`]).
//! - [`vacuum`]: the files no recent version needs, deleted.
//! - [`with_delta_copy`]: `COPY (query) TO 'TABLE/' STORED AS DELTA` planned.
//! - [`write_delta_batches`], [`read_delta_batches`]: a table written from, and read as, one
//!   stream of record batches in their order (`rcc convert --to delta`, `--from delta`).
//!
//! The data flows `time_travel`, `location` (a table's directory and log store) → `schema`, `stats` →
//! `write`, `spec` → `read`, `vacuum` → `batches`.

mod batches;
mod copy;
mod location;
mod read;
mod schema;
mod spec;
mod stats;
mod time_travel;
mod vacuum;
mod write;

pub use batches::{read_delta_batches, write_delta_batches};
pub use copy::{with_delta_copy, DELTA_EXT};
pub use read::DeltaTableProvider;
pub use time_travel::TimeTravel;
pub use vacuum::{vacuum, Vacuumed, DEFAULT_RETAIN_HOURS};
pub use write::{write_delta, DeltaMode, DeltaWriteOptions, DeltaWritten};
