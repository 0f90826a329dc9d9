//! How Parquet files are written, the same for `rcc convert --to parquet` and `rcc sql --to
//! parquet`, a single file or a dataset's part files:
//!
//! - [`ParquetOptions`]: `--parquet-compression` and `--row-group-size`, plain data that
//!   travels with a plan to a cluster's executors (and is parsed without Parquet);
//! - with feature `columnar`, [`ParquetFile`]: the writer they make, whose dictionaries the
//!   first batch decides (`dictionary`).

#[cfg(feature = "columnar")]
mod dictionary;
#[cfg(feature = "columnar")]
mod file;
mod options;

#[cfg(feature = "columnar")]
pub use file::ParquetFile;
pub use options::ParquetOptions;
