//! `rcc convert --to delta` and `--from delta`: records as a Delta Lake table's new version,
//! and a table's rows (at any version) back as records. The table's log, protocol and
//! commit are hadoop-record-delta's, which needs the query engine (and this crate, so it
//! cannot be one of its features): the companion rcc-convert (hadoop-record-sql-cli) gives
//! them as [`DeltaTables`], and `rcc` hands it the conversions that name a Delta table.
//! [`DeltaArgs`], how a table is written, are `rcc sql --to delta`'s flags too.

use std::str::FromStr;

use clap::Args;

#[cfg(feature = "columnar")]
pub(super) use tables::convert;
#[cfg(feature = "columnar")]
pub use tables::{DeltaTables, TableRead, TableWrite};

use super::{ConvertArgs, ConvertFormat};
use crate::schema_type::Early;

/// `--mode` and `--allow-unsafe-rename`: how `--to delta` writes a table (`rcc sql` and
/// `rcc convert`).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Delta Lake tables (--to delta)")]
pub struct DeltaArgs {
    /// What to do when the table exists: error (refuse it; the default), append (add a
    /// version with the result's rows), overwrite (a version whose rows are the result's
    /// only; the old files stay for time travel until `rcc delta vacuum`). Spark's names
    #[arg(long, value_name = "MODE", value_parser = modes())]
    pub mode: Option<String>,

    /// Commit through an S3-compatible store without conditional writes (If-None-Match),
    /// where two writers committing at once can lose one's commit: only when no other
    /// writer writes the table (delta-rs's AWS_S3_ALLOW_UNSAFE_RENAME)
    #[arg(long)]
    pub allow_unsafe_rename: bool,
}

/// `--mode`'s values: Spark's names (`errorifexists` is `error`).
fn modes() -> clap::builder::PossibleValuesParser {
    use clap::builder::PossibleValue;
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new("error").alias("errorifexists"),
        PossibleValue::new("append"),
        PossibleValue::new("overwrite"),
    ])
}

impl DeltaArgs {
    /// `--mode` as the table format's mode, whose `FromStr` reads Spark's names.
    pub fn mode<M: FromStr<Err = String>>(&self) -> Result<Option<M>, String> {
        self.mode
            .as_deref()
            .map(|mode| mode.parse().map_err(|e| format!("--mode: {e}")))
            .transpose()
    }
}

/// `rcc convert --to delta`: how the table is written.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Delta Lake tables (--to delta)")]
pub struct DeltaOut {
    #[command(flatten)]
    pub args: DeltaArgs,

    /// The fields that lay a new table out, Hive's way: a directory `field=value/` for each
    /// value (the field is then not in the part files), as Spark's partitionBy; an append
    /// or overwrite keeps the table's
    #[arg(long, value_name = "FIELD,...", value_delimiter = ',')]
    pub partition_by: Vec<String>,
}

impl DeltaOut {
    /// The first flag given, if any.
    fn given(&self) -> Option<&'static str> {
        [
            (self.args.mode.is_some(), "--mode"),
            (!self.partition_by.is_empty(), "--partition-by"),
            (self.args.allow_unsafe_rename, "--allow-unsafe-rename"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// `rcc convert --from delta`: the version read.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Delta Lake tables (--from delta)")]
pub struct DeltaIn {
    /// Read the table as of version N (default: its latest)
    #[arg(long, value_name = "N", conflicts_with = "timestamp")]
    pub version: Option<u64>,

    /// Read the table's version current at TIME (2026-12-07T10:00:00Z, 2026-12-07 10:00:00
    /// in UTC, or a date), as Spark's timestampAsOf
    #[arg(long, value_name = "TIME")]
    pub timestamp: Option<String>,
}

impl DeltaIn {
    /// The first flag given, if any.
    fn given(&self) -> Option<&'static str> {
        [
            (self.version.is_some(), "--version"),
            (self.timestamp.is_some(), "--timestamp"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// Refuses the flags of `--to delta` and `--from delta` without them.
pub(super) fn check_flags(args: &ConvertArgs) -> Result<(), Early> {
    if args.to != ConvertFormat::Delta {
        if let Some(flag) = args.delta_out.given() {
            return Err(format!("{flag} applies to --to delta").into());
        }
    }
    if args.from != ConvertFormat::Delta {
        if let Some(flag) = args.delta_in.given() {
            return Err(format!("{flag} applies to --from delta").into());
        }
    }
    Ok(())
}

/// The conversions themselves, which need Arrow (the `columnar` feature).
#[cfg(feature = "columnar")]
mod tables {
    use std::path::Path;
    use std::sync::Arc;

    use arrow_array::RecordBatch;
    use arrow_schema::SchemaRef;
    use hadoop_record::schema::{RecordId, Schema};
    use hadoop_record_arrow::decode::DEFAULT_BATCH_SIZE;

    use super::super::columnar::{
        batch_decoder, both_columnar, check_container_in, decode_all, encode_all,
    };
    use super::super::{
        in_framing, no_framing_options, open_source, write_flags, ConvertArgs, ConvertFormat,
        Writer,
    };
    use super::{DeltaIn, DeltaOut};
    use crate::frame::{report_end, Stop};
    use crate::output_guard::{check_output, OutputKind};
    use crate::schema_type::Early;
    use crate::storage::StorageArgs;
    use crate::Context;

    /// Delta Lake tables as `rcc convert` writes and reads them: rcc-convert's, through
    /// hadoop-record-delta (the same writer as `rcc sql --to delta`'s).
    pub trait DeltaTables {
        /// Begins a write of rows with the columns `columns` into the table at `table` (a
        /// directory, `hdfs://…/` or `s3://…/`), as `out` says, through the stores
        /// `storage` configures. No reader of the table sees them before
        /// [`TableWrite::commit`].
        fn write(
            &self,
            table: &str,
            out: &DeltaOut,
            storage: &StorageArgs,
            columns: SchemaRef,
        ) -> Result<Box<dyn TableWrite>, String>;

        /// The rows of the table at `table`, at the version `at` says, `batch_size` at a
        /// time: its files one after the other, each from its start.
        fn read(
            &self,
            table: &str,
            at: &DeltaIn,
            storage: &StorageArgs,
            batch_size: usize,
        ) -> Result<TableRead, String>;
    }

    /// A write into a table, under way.
    pub trait TableWrite {
        /// Adds rows. An error is the write's own (the table refused the rows, a store
        /// failed): it has stopped.
        fn write(&mut self, batch: RecordBatch) -> Result<(), String>;

        /// Commits the rows written as the table's new version; answers what to tell the
        /// user (`wrote version 3 of the Delta table …`).
        fn commit(self: Box<Self>) -> Result<String, String>;

        /// Gives the write up because of `why`: nothing is committed, and the files it
        /// wrote are removed before this returns.
        fn abort(self: Box<Self>, why: &str);
    }

    /// A table's rows, being read.
    pub struct TableRead {
        /// Their columns.
        pub columns: SchemaRef,
        /// The rows, a batch at a time.
        pub batches: Box<dyn Iterator<Item = Result<RecordBatch, String>>>,
    }

    /// Runs `--to delta` or `--from delta` through `tables`.
    pub(in super::super) fn convert(
        context: &Context,
        args: &ConvertArgs,
        record: (&Schema, RecordId, Option<&Writer>),
        tables: &dyn DeltaTables,
    ) -> Result<bool, Early> {
        let columns_in = matches!(
            args.from,
            ConvertFormat::Parquet | ConvertFormat::Arrow | ConvertFormat::Delta
        );
        let columns_out = matches!(
            args.to,
            ConvertFormat::Parquet | ConvertFormat::Arrow | ConvertFormat::Delta
        );
        if columns_in && columns_out {
            return Err(both_columnar());
        }
        let conversion = Conversion {
            context,
            args,
            record,
            tables,
        };
        if args.to == ConvertFormat::Delta {
            conversion.write_table()
        } else {
            conversion.read_table()
        }
    }

    /// A conversion to or from a table: what [`convert`] is given.
    #[derive(Clone, Copy)]
    struct Conversion<'a> {
        context: &'a Context,
        args: &'a ConvertArgs,
        record: (&'a Schema, RecordId, Option<&'a Writer>),
        tables: &'a dyn DeltaTables,
    }

    impl Conversion<'_> {
        /// Records in, a Delta table's new version out.
        fn write_table(self) -> Result<bool, Early> {
            let Conversion {
                context,
                args,
                record,
                tables,
            } = self;
            if args.out_framing.is_some() {
                return Err(
                    "--out-framing does not apply to --to delta: the table's files are Parquet"
                        .to_string()
                        .into(),
                );
            }
            no_framing_options("--out-framing", &write_flags(&args.write))?;
            args.columnar.parquet.only_for_parquet(false)?;
            let target = match args.files.output.as_deref() {
                Some(p) if p != Path::new("-") => p,
                _ => {
                    return Err(
                        "--to delta writes a table: give its directory after the input \
                     (rcc convert … --to delta INPUT TABLE/; - reads standard input)"
                            .to_string()
                            .into(),
                    )
                }
            };
            // A table's directory is written as a dataset's: it must hold no input.
            check_output(target, OutputKind::Dataset, &args.guarded_inputs())?;
            let table = path_text(target)?;
            let (schema, id, writer) = record;
            let source = open_source(context, args, in_framing(args)?, record)?;
            let schema = Arc::new(schema.clone());
            let decoder = batch_decoder(args, &schema, id)?;
            let mut write = tables.write(
                table,
                &args.delta_out,
                &args.files.storage,
                decoder.schema(),
            )?;
            let (mut failure, skipped) =
                decode_all(source, (&schema, id, writer), args, decoder, |batch| {
                    write.write(batch)
                });
            match &failure {
                None => match write.commit() {
                    Ok(said) => eprintln!("{said}"),
                    Err(e) => failure = Some(Stop::Failed(e)),
                },
                Some(Stop::Failed(why)) => write.abort(why),
                Some(Stop::Closed) => write.abort("the conversion stopped"),
            }
            Ok(report_end(context, &skipped, failure))
        }

        /// A Delta table (at a version) in, records out.
        fn read_table(self) -> Result<bool, Early> {
            let Conversion {
                context,
                args,
                record: (schema, id, writer),
                tables,
            } = self;
            let out_framing = check_container_in(args, writer, "delta")?;
            let table = match args.files.input.as_deref() {
                Some(p) if p != Path::new("-") => path_text(p)?,
                _ => {
                    return Err(
                        "--from delta reads a table: give its directory as the input \
                     (rcc convert … --from delta TABLE/ [OUTPUT])"
                            .to_string()
                            .into(),
                    )
                }
            };
            args.check_output()?;
            let batch_size = args
                .columnar
                .batch_size
                .map_or(DEFAULT_BATCH_SIZE, |n| n as usize);
            let read = tables.read(table, &args.delta_in, &args.files.storage, batch_size)?;
            let source = (table, "Delta table's", read.columns);
            encode_all(
                context,
                args,
                (schema, id),
                out_framing,
                source,
                read.batches,
            )
        }
    }

    /// A table's path or URL as text.
    fn path_text(path: &Path) -> Result<&str, String> {
        path.to_str()
            .ok_or_else(|| format!("{}: a table's path must be UTF-8", path.display()))
    }
}
