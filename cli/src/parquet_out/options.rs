//! [`ParquetOptions`]: the Parquet writer's flags, parsed with or without Parquet itself.

use serde::{Deserialize, Serialize};

/// The Parquet writer's options from the command line.
///
/// Plain data: `rcc` parses the flags without Parquet (feature `columnar`) and hands them
/// on to the companion that writes the file.
///
/// ```
/// use hadoop_record_cli::parquet_out::ParquetOptions;
/// let options = ParquetOptions { row_group_size: Some(1000), ..Default::default() };
/// assert!(options.only_for_parquet(true).is_ok());
/// assert!(options.only_for_parquet(false).unwrap_err().contains("apply to --to parquet"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::Args)]
pub struct ParquetOptions {
    /// With --to parquet: most rows per row group (default 1048576)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub row_group_size: Option<u32>,

    /// With --to parquet: column compression, none, snappy, gzip, lz4 or zstd, or with a
    /// level gzip(N) or zstd(N) (default zstd, level 1: about snappy's speed, smaller files)
    #[arg(long, value_name = "C")]
    pub parquet_compression: Option<String>,
}

impl ParquetOptions {
    /// Refuses the options for output that is not Parquet (`parquet` false) when any is
    /// given.
    pub fn only_for_parquet(&self, parquet: bool) -> Result<(), String> {
        let given = self.row_group_size.is_some() || self.parquet_compression.is_some();
        if given && !parquet {
            return Err("--row-group-size and --parquet-compression apply to --to parquet".into());
        }
        Ok(())
    }
}
