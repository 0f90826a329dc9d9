//! DataFusion's `COPY (query) TO 'DIR/' [STORED AS …] [PARTITIONED BY (…)]` run as
//! `-o DIR/` runs: a dataset written part by part where the partitions run, and committed
//! (`hadoop_record_datafusion::write`); `STORED AS DELTA`, a Delta table's new version
//! (`OPTIONS (mode 'append')`). A `COPY` to a single file is DataFusion's own.

use std::path::Path;

use datafusion::dataframe::DataFrame;
use datafusion::logical_expr::LogicalPlan;
use hadoop_record_cli::output_guard::{check_output, OutputKind};
use hadoop_record_cli::parquet_out::ParquetOptions;
use hadoop_record_datafusion::write::PartFormat;
use hadoop_record_delta::{DeltaMode, DELTA_EXT};

use crate::output_kind;

/// A query, or a `COPY` of one to a dataset.
pub(crate) enum Copy {
    Dataset {
        target: String,
        format: PartFormat,
        partition_by: Vec<String>,
        input: DataFrame,
    },
    /// `STORED AS DELTA`: a table's new version.
    Delta {
        target: String,
        mode: Option<DeltaMode>,
        partition_by: Vec<String>,
        input: DataFrame,
    },
    Not(DataFrame),
}

/// Whether `frame` copies a query's result to a dataset (a directory, local or a store's
/// URL ending in `/`, or partitioned): then the query and how to write it. A `COPY` whose
/// target would destroy one of `inputs` (or the working directory, …: [`check_output`]) is
/// refused.
pub(crate) fn copy_to_dataset(frame: DataFrame, inputs: &[&Path]) -> Result<Copy, String> {
    let LogicalPlan::Copy(copy) = frame.logical_plan() else {
        return Ok(Copy::Not(frame));
    };
    let target = copy.output_url.clone();
    let ext = copy.file_type.get_ext();
    let delta = ext.trim_start_matches('.').eq_ignore_ascii_case(DELTA_EXT);
    let kind = match output_kind(&target) {
        OutputKind::File if !copy.partition_by.is_empty() || delta => OutputKind::Dataset,
        kind => kind,
    };
    check_output(Path::new(&target), kind, inputs)?;
    if kind == OutputKind::File {
        return Ok(Copy::Not(frame));
    }
    if delta {
        let mut mode = None;
        for (key, value) in &copy.options {
            match key.strip_prefix("format.").unwrap_or(key) {
                "mode" => {
                    mode = Some(
                        value
                            .parse()
                            .map_err(|e| format!("COPY … TO '{target}': {e}"))?,
                    )
                }
                _ => {
                    return Err(format!(
                        "COPY … TO '{target}' STORED AS DELTA: option `{key}` is not supported \
                         (it takes mode: error, append or overwrite)"
                    ))
                }
            }
        }
        let partition_by = copy.partition_by.clone();
        let input = copy.input.as_ref().clone();
        let (state, _) = frame.into_parts();
        return Ok(Copy::Delta {
            target,
            mode,
            partition_by,
            input: DataFrame::new(state, input),
        });
    }
    let mut format = match ext.trim_start_matches('.').to_ascii_lowercase().as_str() {
        "parquet" => PartFormat::Parquet(ParquetOptions::default()),
        "csv" => PartFormat::Csv,
        "json" => PartFormat::Json,
        other => {
            return Err(format!(
                "COPY … TO '{target}': datasets are written as PARQUET, CSV or JSON, not {other}"
            ))
        }
    };
    let mut options: Vec<(&String, &String)> = copy.options.iter().collect();
    options.sort_unstable();
    for (key, value) in options {
        // DataFusion's names, which its planner prefixes with `format.`.
        let name = key.strip_prefix("format.").unwrap_or(key);
        match (&mut format, name) {
            (PartFormat::Parquet(parquet), "compression") => {
                parquet.parquet_compression = Some(value.to_ascii_lowercase());
                parquet
                    .properties()
                    .map_err(|e| format!("COPY … TO '{target}': {e}"))?;
            }
            (PartFormat::Parquet(parquet), "max_row_group_size") => {
                let rows = value.parse().ok().filter(|&n: &u32| n > 0).ok_or_else(|| {
                    format!(
                        "COPY … TO '{target}': max_row_group_size `{value}` is not a count of rows"
                    )
                })?;
                parquet.row_group_size = Some(rows);
            }
            _ => {
                return Err(format!(
                    "COPY … TO '{target}': option `{key}` is not supported for datasets (Parquet \
                     takes compression and max_row_group_size)"
                ))
            }
        }
    }
    let partition_by = copy.partition_by.clone();
    let input = copy.input.as_ref().clone();
    let (state, _) = frame.into_parts();
    Ok(Copy::Dataset {
        target,
        format,
        partition_by,
        input: DataFrame::new(state, input),
    })
}
