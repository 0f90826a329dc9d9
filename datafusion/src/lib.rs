//! SQL over Hadoop record files with [Apache DataFusion](datafusion).
//!
//! Records of any encoding (binary, CSV, XML, jute), plain or inside any framing (Mesos,
//! Paddle, Plasma, RecordIO v1), become a table whose columns are the record type's fields,
//! by the Hadoop→Arrow mapping of [`hadoop_record_arrow::mapping`]:
//!
//! - [`SessionContextExt::register_records`]: files, directories and globs as one table, in
//!   one call;
//! - [`RecordFormat`] / [`RecordSource`] / [`RecordOpener`]: DataFusion's
//!   `FileFormat`/`FileSource`/`FileOpener` for record files, shaped like its CSV and JSON
//!   formats. Only the columns a query uses are decoded (the others are skipped, not
//!   decoded), and a large file is read as several byte ranges, split along the framing's
//!   chunk, block or line boundaries ([`hadoop_record::framing::split`]), by several
//!   partitions at once;
//! - [`RecordTableOptions`]: what a table is (DDL, type, encoding, framing), plain and
//!   serializable, for plans that travel;
//! - [`RecordError`]: a bad record, named by file, record number, byte offset and field path;
//! - [`StorageRegistry`] / [`with_storage`]: files in HDFS (`hdfs://`) and S3 (`s3://`) by
//!   URL, through [`hadoop_record_storage`].
//! - [`register_binary_strings`] / [`with_binary_strings`]: SQL's functions on binary strings
//!   for `buffer` columns (`length`, `substring`, `position` in bytes), which
//!   `register_records` installs.
//! - [`dialect`]: results as JSON lines and CSV in `rcc`'s JSON dialect, which
//!   `rcc convert --from json` reads back into the same records.
//!
//! ```
//! use datafusion::prelude::SessionContext;
//! use hadoop_record_datafusion::{RecordTableOptions, SessionContextExt};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let ddl = dir.path().join("m.jr");
//! # std::fs::write(&ddl, "module m { class Hit { ustring url; long n; } }")?;
//! # std::fs::write(dir.path().join("a.csv"), "'x,1\n'y,2\n")?;
//! # std::fs::write(dir.path().join("b.csv"), "'x,3\n")?;
//! # let files = dir.path().join("*.csv");
//! let ctx = SessionContext::new();
//! let options = RecordTableOptions::new(ddl, "m.Hit").with_encoding(hadoop_record::Format::Csv);
//! ctx.register_records("hits", options, &[files.to_str().unwrap()]).await?;
//! let total = ctx.sql("SELECT sum(n) FROM hits").await?.collect().await?;
//! # use datafusion::arrow::array::AsArray;
//! # use datafusion::arrow::datatypes::Int64Type;
//! assert_eq!(total[0].column(0).as_primitive::<Int64Type>().value(0), 6);
//! # Ok(())
//! # }
//! ```

mod binary_strings;
mod ddl;
pub mod dialect;
mod error;
mod format;
mod input;
mod opener;
mod options;
mod progress;
mod register;
mod resolved;
mod scan;
mod source;
mod storage;
pub mod write;

pub use binary_strings::{binary_string_functions, register_binary_strings, with_binary_strings};
pub use error::{error_message, AvroFileError, Place, RecordError};
pub use format::RecordFormat;
pub use opener::RecordOpener;
pub use options::{DdlFile, DdlSource, FramingOptions, RecordTableOptions};
pub use progress::ScanProgress;
pub use register::{avro_table_options, list_files, record_table, table_format, SessionContextExt};
pub use source::RecordSource;
pub use storage::{with_storage, StorageRegistry};
