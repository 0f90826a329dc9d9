//! `rcc sql --schema S.jr --type m.Class [--from ENC] [--in-framing F] QUERY FILE...`: SQL
//! over record files with DataFusion (hadoop-record-datafusion), printed as a table, CSV,
//! JSON lines or Parquet. The companion command `rcc-sql`, which `rcc sql` runs.

use std::io::{self, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use datafusion::arrow::array::{ArrayRef, RecordBatch};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::execution::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use futures::StreamExt;
use hadoop_record::Format;
use hadoop_record_arrow::mapping::TYPE_KEY;
use hadoop_record_avro::AvroCodec;
use hadoop_record_cluster::ClusterOptions;
use hadoop_record_datafusion::{
    avro_table_options, error_message, with_storage, DdlSource, FramingOptions, RecordTableOptions,
    ScanProgress, SessionContextExt,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use hadoop_record_cli::convert::delta::DeltaArgs;
use hadoop_record_cli::float_text::FloatTextOption;
use hadoop_record_cli::frame::{report_end, Stop};
use hadoop_record_cli::framing::{ReadOptions, WriteOptions, AUTO_HELP};
use hadoop_record_cli::output_guard::{check_output, OutputKind};
use hadoop_record_cli::parquet_out::ParquetOptions;
use hadoop_record_cli::schema_type::{find_type, load_model, Early};
use hadoop_record_cli::storage::{create_output, StorageArgs, STORAGE_HELP};
use hadoop_record_cli::{companion, Context};

mod copy;
mod inputs;
mod malloc;
mod order;
mod sink;

use copy::Copy;
use hadoop_record_datafusion::write::{
    dataset_url, error_naming, new_query_id, with_dataset_writes, write_dataset, write_file,
    DatasetSpec, JobOptions, PartFormat, RecordsOut, DEFAULT_MAX_OPEN_FILES,
};
use hadoop_record_delta::{
    with_delta_copy, write_delta, DeltaMode, DeltaTableProvider, DeltaWriteOptions,
};
use inputs::{Input, Source};
use sink::Sink;

const EXAMPLES: &str = "\
Examples:
  rcc sql --schema web.jr --type web.Hit --in-framing paddle \\
      'SELECT url, count(*) AS n FROM records GROUP BY url ORDER BY n DESC LIMIT 10' hits.paddle
  rcc sql --schema web.jr --type web.Hit --from csv --to csv \\
      'SELECT * FROM records WHERE bytes > 1000' 'logs/*.csv' > big.csv
  rcc sql --schema web.jr --type web.Hit --in-framing v1 --table hits --to parquet -o hits.parquet \\
      'SELECT * FROM hits' logs/
  rcc sql --schema web.jr --type web.Hit --from xml --to json \\
      'SELECT origin.city FROM records' a.xml
  rcc sql --schema web.jr --type web.Hit --in-framing paddle --to parquet -o hits/ \\
      --parquet-compression snappy 'SELECT * FROM records WHERE ok' logs/
  rcc sql --schema web.jr --type web.Hit --in-framing seqfile \\
      'SELECT url, count(*) AS n FROM records GROUP BY url' 'hdfs://namenode:8020/logs/*.seq'
  AWS_ENDPOINT_URL=http://127.0.0.1:9000 rcc sql --schema web.jr --type web.Hit \\
      --in-framing paddle 'SELECT count(*) FROM records' s3://logs/2024/
  rcc sql --cluster df://localhost:50050 --schema web.jr --type web.Hit --in-framing paddle \\
      'SELECT url, count(*) AS n FROM records GROUP BY url' hdfs://namenode:8020/logs/
  rcc sql --cluster df://localhost:50050 --schema web.jr --type web.Hit --in-framing seqfile \\
      --to parquet --partition-by status -o s3://lake/hits/ 'SELECT * FROM records' \\
      hdfs://namenode:8020/jobs/hits/
  rcc sql --schema web.jr --type web.Hit --in-framing seqfile --to records --out-framing seqfile \\
      --seqfile-compression block -o hdfs://namenode:8020/clean/ \\
      'SELECT * FROM records WHERE bytes > 0' hdfs://namenode:8020/jobs/hits/
  rcc sql --schema web.jr --type web.Hit --to records --out-schema geo.jr --out-type geo.Place \\
      --out-encoding csv 'SELECT origin.city AS city, origin.zip AS zip FROM records' hits.bin
  rcc sql --schema web.jr --type web.Hit --in-framing seqfile --to delta --mode append \\
      --partition-by ok -o s3://lake/hits/ 'SELECT * FROM records' hdfs://namenode:8020/jobs/hits/
  rcc sql --from delta --version 3 'SELECT url, count(*) AS n FROM records GROUP BY url' \\
      s3://lake/hits/
  rcc sql --schema web.jr --type web.Hit --in-framing seqfile --to avro -o s3://lake/avro/ \\
      'SELECT * FROM records' hdfs://namenode:8020/jobs/hits/
  rcc sql --schema web.jr --type web.Hit --from avro --to records --out-framing seqfile \\
      -o back.seq 'SELECT * FROM records' 's3://lake/avro/*.avro'
  rcc sql --schema web.jr --type web.Hit --in-framing paddle --table hits \\
      'SELECT u.name, count(*) AS n FROM hits JOIN users u ON hits.id = u.id GROUP BY u.name' \\
      hits.paddle --table users --from delta lake/users/

FILEs are files, directories (the files in them) and globs (quote them), all of one record
type, encoding and framing: together one table (`records`, or --table). --table, --from,
--version and --timestamp apply to the FILEs after them (given only after every FILE, to all):
a query joins several tables, record files and Delta tables (--from delta TABLE/, its columns
the table's; --version N or --timestamp TIME for an older version). --in-framing
{AUTO_HELP}; the first file that is not empty (in name order) decides, and every other file
must start as it does (a file in another framing is an error naming both). A framing named
that a file's first bytes contradict is an error saying what they are. Its columns are the
record's fields: vectors are lists, maps are maps (`counts['key']`), nested records are
structs (`origin['city']`). Large files in a splittable framing (paddle, plasma-*, v1,
seqfile, plain CSV) are read by several threads at once, in ranges that follow the
framing's boundaries (an HDFS file's ranges each fetched alone); with --cluster, by the
executors of a Ballista cluster (`rcc cluster`), which read hdfs:// and s3:// files
straight from the store (local paths must then be the same on every executor).

--to table (the default) prints a table; csv writes a header row, a nested record's fields
as columns of their own (origin.city), vectors and maps as JSON cells; json one object per
line, as rcc convert --to json writes records (NaN as \"NaN\", longs past 2^53 as strings,
buffers as hex, maps as [key, value] pairs), which rcc convert --from json reads back;
parquet needs -o (or a pipe) and is zstd-compressed unless --parquet-compression (COPY:
OPTIONS (compression 'snappy')). A bad record stops the query with its file, record number,
byte offset and field path; exit status 1.

Rows printed or written to one file come in the input's order (its files by name, each from
its start) unless the query orders them itself (ORDER BY, GROUP BY, DISTINCT, joins), and
LIMIT without ORDER BY takes the first ones; not with --cluster, nor across a dataset's part
files. The partitions read ahead of the one being written hold their rows until their turn,
up to 64 MiB each (past it, a large file that cannot be split waits).

-o DIR/ (a local directory, hdfs://…/DIR/ or s3://…/DIR/; or COPY (query) TO 'DIR/' [STORED
AS …] [PARTITIONED BY (…)]) writes a dataset: part-NNNNN-<query id>.<ext>, one per partition
of the result, written straight into the store by whoever runs the partition (the local
threads, or with --cluster the executors): under DIR/_temporary/ (HDFS, local disks), or as
S3 multipart uploads left pending. The job commit then moves them into place (a rename each;
on S3 an upload completed, no copy), checks them, and only then removes the old contents
(--overwrite) and writes an empty _SUCCESS, as Hadoop's committers do: a failed query or
commit leaves the old contents as they were. A DIR that is not empty needs --overwrite; one
that holds more than a dataset (a .jr, a src/, a _delta_log/), or that another job is
writing, is refused. -o FILE (local or a URL) writes one file, which appears whole once the
query has succeeded (a local one through a hidden .FILE.*.tmp beside it): a failed query
leaves the old file as it was. An output that is or holds a FILE or a DDL file, the working
or home directory, / or a bucket's root is refused before the query runs.

--to records writes each row as a record of --out-type (default --type; --out-schema for
another DDL file), columns matched to fields by name, in --out-encoding, back to back or in
--out-framing with rcc convert's framing options: the bytes rcc convert writes (CSV and XML
floats as JDK 8 to 18 prints them unless --float-text shortest). A result that does not fit
the type is refused before anything is written.

";

/// Query record files with SQL (DataFusion): files, directories and globs as one table, the
/// result as a table, CSV, JSON lines, Parquet or records; as one file or a dataset written
/// where the data lives (local, HDFS, S3)
#[derive(Debug, Args)]
#[command(after_help = format!("{}{STORAGE_HELP}", EXAMPLES.replace("{AUTO_HELP}", AUTO_HELP)))]
struct SqlArgs {
    #[command(flatten)]
    record: RecordType,

    /// How the FILEs after it are read: their records' encoding (binary, csv, xml, jute),
    /// avro: Avro container files (read as --type's records, or without --schema as the
    /// record of the first file's Avro schema), or delta: a Delta Lake table's directory,
    /// its columns the table's [default: binary]
    #[arg(long, value_enum, value_name = "FORMAT")]
    from: Vec<Source>,

    /// The files' framing: auto (the default: seqfile, paddle, paddle-cpp, plasma-var or
    /// v1 found from the first file's first bytes, else none), none (records back to back),
    /// mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, v1 or seqfile
    /// (its values)
    #[arg(long, value_name = "F")]
    in_framing: Option<String>,

    /// paddle, plasma-var and seqfile input: skip damaged chunks (seqfile: up to the next
    /// sync entry) and carry on (what was skipped is reported, and the exit status is 1)
    #[arg(long)]
    recover: bool,

    #[command(flatten)]
    read: ReadOptions,

    /// jute's nullable types (`rcc --nullable`): ustring, buffer and vector columns may be
    /// null
    #[arg(long)]
    nullable: bool,

    /// Read local files with read calls instead of mapping them into memory: slower, but a
    /// file that another process truncates meanwhile is reported as truncated instead of
    /// stopping rcc (SIGBUS)
    #[arg(long)]
    no_mmap: bool,

    /// The name in the query of the FILEs after it, until the next --table (several
    /// tables: `--table hits a.bin --table users --from delta users/`) [default: records]
    #[arg(long, value_name = "NAME")]
    table: Vec<String>,

    /// --from delta: read the table as of version N (for the table after it)
    #[arg(long, value_name = "N")]
    version: Vec<u64>,

    /// --from delta: read the table's version current at TIME (2026-12-07T10:00:00Z,
    /// `2026-12-07 10:00:00` in UTC, or 2026-12-07)
    #[arg(long, value_name = "TIME")]
    timestamp: Vec<String>,

    /// What to print the result as
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "table")]
    to: OutFormat,

    /// Write the result to FILE instead of standard output; DIR/ (or an existing directory;
    /// local, hdfs:// or s3://): as a dataset, one part file per partition of the result,
    /// written where the partition runs, then `_SUCCESS` (--to parquet, csv, json, avro
    /// or records)
    #[arg(short = 'o', long = "output", value_name = "FILE|DIR/")]
    output: Option<PathBuf>,

    /// Replace the contents of a dataset directory that is not empty (at the commit, once
    /// every part file is written); never a directory holding the inputs, the working or
    /// home directory
    #[arg(long)]
    overwrite: bool,

    /// A dataset's columns to lay it out by, Hive's way: a directory `col=value/` for each
    /// value (the column is then not in the part files), as pyarrow, DuckDB, Spark and Hive
    /// read partitioned datasets
    #[arg(long, value_name = "COL,...", value_delimiter = ',')]
    partition_by: Vec<String>,

    /// With --partition-by, the part files each task keeps open at most; past it the least
    /// recently written is finished and a later row of its value starts a new part file
    /// (part-NNNNN-<query id>-cK.<ext>) [default: 64]
    // The help names files as the other help does; rustdoc would read `<ext>` as HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_open_files: Option<u32>,

    /// Threads (and file ranges) working at once (default: the number of cores; with
    /// --cluster, the task slots of the cluster's executors)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    partitions: Option<u16>,

    /// Run the query on the Ballista cluster whose scheduler is at df://HOST:PORT (`rcc
    /// cluster`); executors read hdfs:// and s3:// FILEs from there, local ones under the
    /// same paths
    #[arg(long, value_name = "df://HOST:PORT")]
    cluster: Option<String>,

    // The positionals come before the flattened groups, whose help headings would
    // otherwise take them in.
    /// The SQL query
    #[arg(value_name = "QUERY")]
    query: String,

    /// Record files, directories and globs
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,

    #[command(flatten)]
    parquet: ParquetOptions,

    /// With --to avro: the codec of the files' blocks: null, deflate (the default, as
    /// Avro's own tools), snappy, zstandard, bzip2 or xz
    #[arg(long, value_name = "CODEC", help_heading = "Avro output (--to avro)")]
    avro_codec: Option<String>,

    #[command(flatten)]
    delta: DeltaArgs,

    #[command(flatten)]
    records: RecordsOutArgs,

    #[command(flatten)]
    storage: StorageArgs,
}

/// The record type of the record FILEs (not needed when every FILE is --from delta).
#[derive(Debug, Args)]
struct RecordType {
    /// The DDL file declaring the record type
    #[arg(long, value_name = "FILE.jr")]
    schema: Option<PathBuf>,

    /// Also look for included files in DIR (repeatable; searched in order, after the
    /// including file's directory)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// The record type, `module.Class`
    #[arg(long = "type", value_name = "module.Class")]
    type_name: Option<String>,
}

impl RecordType {
    /// `--schema` and `--type`, which `what` needs.
    fn given(&self, what: &str) -> Result<(&Path, &str), String> {
        match (&self.schema, &self.type_name) {
            (Some(schema), Some(name)) => Ok((schema, name)),
            _ => Err(format!(
                "{what} needs --schema FILE.jr and --type module.Class: the record type \
                 (a Delta table, --from delta, brings its own columns)"
            )),
        }
    }
}

// The default `--max-open-files`'s help names.
const _: () = assert!(DEFAULT_MAX_OPEN_FILES == 64);
// The rows a partition reads ahead, which the help names.
const _: () = assert!(order::AHEAD_BYTES == 64 << 20);

/// `--to records`: the records written, as `rcc convert` writes them.
#[derive(Debug, Args)]
#[command(next_help_heading = "Records out (--to records)")]
struct RecordsOutArgs {
    /// The record type each result row is written as, its columns matched to the fields
    /// by name (default: --type)
    #[arg(long, value_name = "module.Class")]
    out_type: Option<String>,

    /// The DDL file declaring --out-type (default: --schema)
    #[arg(long, value_name = "FILE.jr")]
    out_schema: Option<PathBuf>,

    /// The records' encoding
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "binary")]
    out_encoding: Encoding,

    /// The framing of the records written (mesos, paddle, paddle-cpp, plasma-text,
    /// plasma-fixed:N, plasma-var, v1, seqfile: its values); default: back to back
    #[arg(long, value_name = "F")]
    out_framing: Option<String>,

    #[command(flatten)]
    write: WriteOptions,

    #[command(flatten)]
    float_text: FloatTextOption,
}

impl RecordsOutArgs {
    /// The `--out-*` and framing flags given, for a message when `--to` is not records.
    fn given(&self) -> Option<&'static str> {
        [
            (self.out_type.is_some(), "--out-type"),
            (self.out_schema.is_some(), "--out-schema"),
            (self.out_encoding != Encoding::Binary, "--out-encoding"),
            (self.out_framing.is_some(), "--out-framing"),
            (
                self.float_text != FloatTextOption::default(),
                "--float-text",
            ),
            (
                self.write != WriteOptions::default(),
                "the framing's write options",
            ),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// `--from` values: the record encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Encoding {
    Binary,
    Csv,
    Xml,
    /// ZooKeeper's jute binary encoding
    Jute,
}

impl Encoding {
    fn format(self) -> Format {
        match self {
            Encoding::Binary => Format::Binary,
            Encoding::Csv => Format::Csv,
            Encoding::Xml => Format::Xml,
            Encoding::Jute => Format::Jute,
        }
    }
}

/// `--to` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutFormat {
    /// A table for people
    Table,
    /// CSV with a header row; nested records as dotted columns, vectors and maps as JSON
    Csv,
    /// One JSON object per line, as `rcc convert --to json` writes records
    Json,
    /// A Parquet file
    Parquet,
    /// Hadoop records of --out-type, in --out-encoding, back to back or in --out-framing
    Records,
    /// A Delta Lake table (-o TARGET/; --mode, --partition-by)
    Delta,
    /// An Avro container file (-o FILE or DIR/; --avro-codec), its schema derived from the
    /// result's columns
    Avro,
}

/// The format of the files `--to` writes (`None`: a table), with `--to records`'s type
/// loaded from `--out-schema` or the input's DDL.
fn part_format(
    context: &Context,
    args: &SqlArgs,
    model: Option<&hadoop_record_compiler::Model>,
) -> Result<Option<PartFormat>, Early> {
    let out = &args.records;
    Ok(match args.to {
        OutFormat::Table => None,
        OutFormat::Csv => Some(PartFormat::Csv),
        OutFormat::Json => Some(PartFormat::Json),
        OutFormat::Parquet | OutFormat::Delta => Some(PartFormat::Parquet(args.parquet.clone())),
        OutFormat::Avro => Some(PartFormat::Avro {
            codec: args.avro_codec.clone().unwrap_or_else(|| "deflate".into()),
        }),
        OutFormat::Records => {
            let record = &args.record;
            let (file, loaded);
            let model = match (&out.out_schema, model, &record.schema) {
                (Some(path), _, _) => {
                    loaded = load_model(context, path, &record.include_dirs)?;
                    file = path.clone();
                    &loaded
                }
                (None, Some(model), Some(path)) => {
                    file = path.clone();
                    model
                }
                _ => return Err("--to records needs --out-schema FILE.jr (or --schema)".into()),
            };
            let schema = model.to_schema().into_schema();
            let name = out
                .out_type
                .as_deref()
                .or(record.type_name.as_deref())
                .ok_or("--to records needs --out-type module.Class (or --type)")?;
            let id = find_type(&schema, name, &file)?;
            let full_name = schema.record(id).map(|r| r.full_name()).unwrap_or_default();
            let text = matches!(out.out_encoding, Encoding::Csv | Encoding::Xml);
            out.float_text
                .only_for_text(text, "--to records --out-encoding csv or xml")?;
            let mut write = out.write.clone();
            // A SequenceFile names the records' Java class, which `rcc -l java` generates
            // as `module.Class`.
            write.value_class = Some(full_name.clone());
            let options = RecordTableOptions::from_ddl(
                DdlSource::from_model(model, &record.include_dirs),
                full_name,
            )
            .with_encoding(out.out_encoding.format())
            .with_nullable(args.nullable);
            Some(PartFormat::Records(Box::new(
                RecordsOut::new(options, out.out_framing.clone(), write)
                    .with_float_text(out.float_text.get()),
            )))
        }
    })
}

/// Whether `-o` (or `COPY … TO`) names a dataset: it ends in `/`, or is an existing local
/// directory.
fn is_dataset(output: &str) -> bool {
    output.ends_with('/')
        || output.ends_with(std::path::MAIN_SEPARATOR)
        || (!hadoop_record_storage::is_url(output) && std::path::Path::new(output).is_dir())
}

fn main() -> std::process::ExitCode {
    malloc::tune();
    companion::main_with_matches("sql", run)
}

/// Runs `rcc sql`; true on success.
fn run(context: &Context, args: SqlArgs, matches: &clap::ArgMatches) -> bool {
    match inputs::inputs(&args.files, matches)
        .map_err(Early::Message)
        .and_then(|inputs| sql(context, args, inputs))
    {
        Ok((skipped, failure)) => report_end(context, &skipped, failure.map(Stop::Failed)),
        Err(Early::Message(message)) => {
            context.error(&message);
            false
        }
        Err(Early::Reported) => false,
    }
}

/// What a query that ran gives: what recovering readers skipped, and the error that
/// stopped it, if any.
type Ran = (Vec<String>, Option<String>);

fn sql(context: &Context, args: SqlArgs, tables: Vec<Input>) -> Result<Ran, Early> {
    let binary = args.to == OutFormat::Parquet
        || (args.to == OutFormat::Records
            && (args.records.out_encoding != Encoding::Csv || args.records.out_framing.is_some()));
    if binary && args.output.is_none() && io::stdout().is_terminal() {
        return Err(format!(
            "--to {} writes a binary file: give -o FILE (or pipe the output)",
            if args.to == OutFormat::Parquet {
                "parquet"
            } else {
                "records"
            }
        )
        .into());
    }
    if args.to != OutFormat::Records {
        if let Some(flag) = args.records.given() {
            return Err(format!("{flag} applies to --to records").into());
        }
    }
    if args.to == OutFormat::Parquet {
        args.parquet
            .properties()
            .map_err(|e| format!("--parquet-compression: {e}"))?;
    } else {
        args.parquet.only_for_parquet(false)?;
    }
    match (&args.avro_codec, args.to) {
        (Some(codec), OutFormat::Avro) => {
            codec
                .parse::<AvroCodec>()
                .map_err(|e| format!("--avro-codec: {e}"))?;
        }
        (Some(_), _) => return Err("--avro-codec applies to --to avro".into()),
        (None, _) => {}
    }
    if args.recover && args.cluster.is_some() {
        // Executors skip damage where they read; what they skipped does not come back with
        // the answers, and answers that silently miss records are worse than none.
        return Err(
            "--recover does not work with --cluster: the executors could not report what \
             they skipped (recover locally: rcc sql --recover without --cluster)"
                .to_string()
                .into(),
        );
    }
    let record = &args.record;
    let first_records = tables.iter().find(|t| t.source != Source::Delta);
    let framed = tables
        .iter()
        .any(|t| !matches!(t.source, Source::Delta | Source::Avro));
    if !framed && (args.in_framing.is_some() || args.recover) {
        return Err(
            "--in-framing and --recover read record files, not --from delta or avro".into(),
        );
    }
    // Avro files bring their schema, as Delta tables do.
    let first_framed = tables
        .iter()
        .find(|t| !matches!(t.source, Source::Delta | Source::Avro));
    let model = match (&record.schema, first_framed) {
        (Some(schema), _) => Some(load_model(context, schema, &record.include_dirs)?),
        (None, Some(t)) => {
            return Err(record
                .given(&format!("`{}` ({})", t.table, t.files[0]))
                .err()
                .unwrap_or_default()
                .into())
        }
        (None, None) => None,
    };
    let inputs = inputs(&args, model.as_ref());
    if let Some(output) = &args.output {
        check_output(output, output_kind(&output.to_string_lossy()), &inputs)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the query engine: {e}"))?;
    let out = part_format(context, &args, model.as_ref())?;
    let Some(model) = model.as_ref().filter(|_| first_records.is_some()) else {
        return runtime.block_on(query(context, &args, &inputs, &tables, None, out));
    };
    let (schema_file, type_name) = record.given("record files")?;
    let schema = model.to_schema().into_schema();
    let id = find_type(&schema, type_name, schema_file)?;
    let framing = FramingOptions::default()
        .with_name(args.in_framing.clone().unwrap_or_default())
        .with_recover(args.recover)
        .with_lenient(args.read.lenient)
        .with_max_record_size(args.read.max_record_size);
    framing
        .check()
        .map_err(|e| format!("--in-framing: {}", e.message()))?;
    let options = RecordTableOptions::from_ddl(
        DdlSource::from_model(model, &record.include_dirs),
        schema.record(id).map(|r| r.full_name()).unwrap_or_default(),
    )
    .with_framing_options(framing)
    .with_nullable(args.nullable)
    .with_memory_map(!args.no_mmap);
    runtime.block_on(query(context, &args, &inputs, &tables, Some(options), out))
}

/// What the query reads, which its output must not destroy: the FILEs, the DDL files and
/// what they include.
fn inputs<'a>(
    args: &'a SqlArgs,
    model: Option<&'a hadoop_record_compiler::Model>,
) -> Vec<&'a Path> {
    args.files
        .iter()
        .map(Path::new)
        .chain(args.record.schema.as_deref())
        .chain(args.records.out_schema.as_deref())
        .chain(model.into_iter().flat_map(|m| m.files_read()))
        .collect()
}

/// How `output` (`-o`, `COPY … TO`) is written: a dataset or one file.
fn output_kind(output: &str) -> OutputKind {
    if is_dataset(output) {
        OutputKind::Dataset
    } else {
        OutputKind::File
    }
}

/// Registers the tables and runs the query; `records` is how record files are read (their
/// encoding aside), when some are.
async fn query(
    context: &Context,
    args: &SqlArgs,
    inputs: &[&Path],
    tables: &[Input],
    records: Option<RecordTableOptions>,
    out: Option<PartFormat>,
) -> Result<Ran, Early> {
    let mut config = SessionConfig::new();
    if let Some(n) = args.partitions {
        config = config
            .with_target_partitions(n.into())
            .with_option_extension(ClusterOptions::default().with_partitions(n.into()));
    }
    // The same tables and query; on a cluster, tables a plan can carry.
    let ctx = match &args.cluster {
        None => {
            let runtime = with_storage(RuntimeEnvBuilder::new(), args.storage.options())
                .build()
                .map_err(|e| error_message(&e))?;
            // Results in the input's order where the query gives them none (order.rs).
            let state = SessionStateBuilder::new()
                .with_config(config)
                .with_default_features()
                .with_runtime_env(Arc::new(runtime))
                .with_physical_optimizer_rule(Arc::new(order::InputOrder));
            SessionContext::new_with_state(with_delta_copy(with_dataset_writes(state)).build())
        }
        Some(url) => hadoop_record_cluster::remote_context(url, config, args.storage.options())
            .await
            .map_err(|e| error_message(&e))?,
    };
    let mut formats = Vec::new();
    let mut schemas = Vec::new();
    for table in tables {
        let files: Vec<&str> = table.files.iter().map(String::as_str).collect();
        let options = match (table.source, &records) {
            (Source::Delta, _) => None,
            (Source::Avro, Some(options)) => {
                Some(options.clone().with_avro(true).with_framing("none"))
            }
            // No DDL: the record type of the first file's Avro schema.
            (Source::Avro, None) => Some(
                avro_table_options(&ctx, &files)
                    .await
                    .map_err(|e| error_message(&e))?
                    .with_nullable(args.nullable)
                    .with_memory_map(!args.no_mmap),
            ),
            (source, Some(options)) => Some(
                options
                    .clone()
                    .with_encoding(source.format().unwrap_or(Format::Binary)),
            ),
            (_, None) => return Err("record files need --schema and --type".into()),
        };
        let schema = match options {
            Some(options) => {
                let format = match &args.cluster {
                    None => ctx.register_records(&table.table, options, &files).await,
                    Some(_) => {
                        hadoop_record_cluster::register_records(&ctx, &table.table, options, &files)
                            .await
                    }
                };
                let format = format.map_err(|e| error_message(&e))?;
                // What the files may not be as read (a SequenceFile of another value class).
                for warning in format.progress().warnings() {
                    context.warning(&warning);
                }
                let schema = format.arrow_schema();
                formats.push(format);
                schema
            }
            _ => {
                let delta = DeltaTableProvider::open(&ctx.runtime_env(), &table.files[0], table.at)
                    .await
                    .map_err(|e| error_message(&e))?;
                let schema = datafusion::catalog::TableProvider::schema(&delta);
                // On a cluster, the plan carries the version's files to the scheduler
                // (hadoop-record-cluster's codec), and the executors read them.
                ctx.register_table(table.table.as_str(), Arc::new(delta))
                    .map_err(|e| error_message(&e))?;
                schema
            }
        };
        schemas.push((table.table.as_str(), schema));
    }
    let frame = match ctx.sql(&args.query).await {
        Ok(frame) => frame,
        Err(e) => {
            let mut text = error_message(&e);
            for (table, schema) in &schemas {
                text.push('\n');
                text.push_str(&columns(table, schema));
            }
            return Err(text.into());
        }
    };
    if args.cluster.is_some() {
        let plan = frame
            .clone()
            .into_optimized_plan()
            .map_err(|e| error_message(&e))?;
        hadoop_record_cluster::refuse_wrong_answers(&plan)?;
    }
    // Executors read a cluster's files: no progress to show here.
    let progress = formats
        .first()
        .filter(|_| args.cluster.is_none())
        .map(|format| Progress::start(format.progress()));
    let result = write_result(args, inputs, out, frame).await;
    if let Some(progress) = progress {
        progress.finish();
    }
    let skipped = formats
        .iter()
        .flat_map(|f| f.progress().skipped())
        .collect();
    Ok((skipped, result.err()))
}

/// Runs the query and writes its result as `--to` says.
async fn write_result(
    args: &SqlArgs,
    inputs: &[&Path],
    out: Option<PartFormat>,
    frame: datafusion::dataframe::DataFrame,
) -> Result<(), String> {
    let frame = match copy::copy_to_dataset(frame, inputs)? {
        Copy::Dataset {
            target,
            format,
            partition_by,
            input,
        } => {
            if args.output.is_some() {
                return Err("COPY … TO writes where it says: no -o with it".into());
            }
            if !args.partition_by.is_empty() {
                return Err("COPY … TO says PARTITIONED BY (…) itself: no --partition-by".into());
            }
            let rows = dataset(args, &target, format, partition_by, input).await?;
            // What DataFusion's COPY answers: the rows written.
            let count = datafusion::arrow::array::UInt64Array::from(vec![rows]);
            let batch = RecordBatch::try_from_iter([("count", Arc::new(count) as ArrayRef)])
                .map_err(|e| e.to_string())?;
            // Printed as --to says; records print as a table.
            let shown = out.filter(|f| !matches!(f, PartFormat::Records(_)));
            let mut sink = Sink::new(shown.as_ref(), BufWriter::new(io::stdout()), batch.schema())?;
            sink.write(batch)?;
            return sink.finish();
        }
        Copy::Delta {
            target,
            mode,
            partition_by,
            input,
        } => {
            if args.output.is_some() || !args.partition_by.is_empty() || args.delta.mode.is_some() {
                return Err(
                    "COPY … TO … STORED AS DELTA says where, PARTITIONED BY (…) and \
                            OPTIONS (mode '…') itself: no -o, --partition-by or --mode with it"
                        .into(),
                );
            }
            return delta(args, &target, partition_by, mode, input).await;
        }
        Copy::Not(frame) => frame,
    };
    let output = args
        .output
        .as_ref()
        .map(|o| o.to_string_lossy().into_owned());
    if args.to == OutFormat::Delta {
        let target = output.ok_or("--to delta writes a table: give -o TARGET/")?;
        return delta(args, &target, args.partition_by.clone(), None, frame).await;
    }
    if args.delta.mode.is_some() || args.delta.allow_unsafe_rename {
        return Err("--mode and --allow-unsafe-rename are for --to delta".into());
    }
    if !output.as_deref().is_some_and(is_dataset) {
        if args.overwrite {
            return Err("--overwrite is for a dataset: -o DIR/ or COPY … TO 'DIR/'".into());
        }
        if !args.partition_by.is_empty() {
            return Err("--partition-by is for a dataset: -o DIR/".into());
        }
        if args.max_open_files.is_some() {
            return Err("--max-open-files is for a dataset: -o DIR/ or COPY … TO 'DIR/'".into());
        }
    }
    match output {
        Some(target) if is_dataset(&target) => {
            let format = out.ok_or_else(|| {
                format!(
                    "{target} is a dataset: give --to parquet, csv, json, avro or records (--to \
                     table prints)"
                )
            })?;
            let partition_by = args.partition_by.clone();
            dataset(args, &target, format, partition_by, frame)
                .await
                .map(drop)
        }
        Some(target) if hadoop_record_storage::is_url(&target) => {
            let format = out.ok_or_else(|| {
                format!("-o {target}: give --to parquet, csv, json, avro or records (--to table prints)")
            })?;
            write_file(frame, &target, &format)
                .await
                .map(drop)
                .map_err(|e| error_message(&e))
        }
        output => {
            let schema: SchemaRef = Arc::new(frame.schema().as_arrow().clone());
            // Records that do not fit their type: an error before the file is made.
            let format = out
                .map(|f| f.checked(&schema))
                .transpose()
                .map_err(|e| error_message(&e))?;
            // A local file appears at the commit, whole; dropped before it (a failed
            // query), the old file stays as it was.
            let (out, complete) = create_output(output.as_deref().map(Path::new), &args.storage)?;
            let output = BufWriter::with_capacity(64 << 10, out);
            // Columns the format cannot hold: an error before the query runs.
            let mut sink = Sink::new(format.as_ref(), output, schema)?;
            let mut stream = frame
                .execute_stream()
                .await
                .map_err(|e| error_message(&e))?;
            while let Some(batch) = stream.next().await {
                let batch = batch.map_err(|e| error_message(&e))?;
                sink.write(batch)?;
            }
            sink.finish()?;
            complete.commit()
        }
    }
}

/// Writes the result of `frame` into the Delta table at `target` (`mode` over --mode),
/// where the query runs, and says the version it made.
async fn delta(
    args: &SqlArgs,
    target: &str,
    partition_by: Vec<String>,
    mode: Option<DeltaMode>,
    frame: datafusion::dataframe::DataFrame,
) -> Result<(), String> {
    let job = JobOptions::default().with_tasks_elsewhere(args.cluster.is_some());
    let mode = match mode {
        Some(mode) => mode,
        None => args.delta.mode::<DeltaMode>()?.unwrap_or_default(),
    };
    let options = DeltaWriteOptions::default()
        .with_mode(mode)
        .with_partition_by(partition_by)
        .with_max_open_files(
            args.max_open_files
                .map_or(DEFAULT_MAX_OPEN_FILES, |n| n as usize),
        )
        .with_allow_unsafe_rename(args.delta.allow_unsafe_rename)
        .with_job(job);
    let written = write_delta(frame, target, &options)
        .await
        .map_err(|e| error_naming(&e, target))?;
    eprintln!("{}", written.summary(target));
    Ok(())
}

/// Writes the result of `frame` as a dataset at `target` (a local directory or a store's
/// URL): where the query runs, by the local threads or the cluster's executors.
async fn dataset(
    args: &SqlArgs,
    target: &str,
    format: PartFormat,
    partition_by: Vec<String>,
    frame: datafusion::dataframe::DataFrame,
) -> Result<u64, String> {
    let url = dataset_url(target).map_err(|e| error_message(&e))?;
    let max_open_files = args
        .max_open_files
        .map_or(DEFAULT_MAX_OPEN_FILES, |n| n as usize);
    let spec = DatasetSpec::new(url, new_query_id(), format)
        .with_partition_by(partition_by)
        .with_max_open_files(max_open_files);
    let job = JobOptions::default()
        .with_overwrite(args.overwrite)
        .with_tasks_elsewhere(args.cluster.is_some())
        .with_storage(args.storage.options());
    write_dataset(frame, spec, job)
        .await
        .map_err(|e| error_naming(&e, target))
}

/// The table's columns, one per line: `name: hadoop type (Arrow type)`.
fn columns(table: &str, schema: &SchemaRef) -> String {
    let mut out = format!("the columns of `{table}` are:");
    for field in schema.fields() {
        let hadoop = field.metadata().get(TYPE_KEY).map_or("", String::as_str);
        out.push_str(&format!(
            "\n  {}: {hadoop} ({})",
            field.name(),
            arrow_type(field.data_type())
        ));
    }
    out
}

/// An Arrow type without its fields' metadata: `List(Utf8)`, `Map(Utf8, Int64)`,
/// `Struct(city Utf8, zip Int32)`.
fn arrow_type(ty: &DataType) -> String {
    match ty {
        DataType::List(item) => format!("List({})", arrow_type(item.data_type())),
        DataType::Map(entries, _) => match entries.data_type() {
            DataType::Struct(kv) if kv.len() == 2 => format!(
                "Map({}, {})",
                arrow_type(kv[0].data_type()),
                arrow_type(kv[1].data_type())
            ),
            other => format!("Map({})", arrow_type(other)),
        },
        DataType::Struct(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|f| format!("{} {}", f.name(), arrow_type(f.data_type())))
                .collect();
            format!("Struct({})", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// A progress bar on standard error while a scan runs, when standard error is a terminal;
/// it shows up only when the scan lasts.
struct Progress {
    bar: Option<ProgressBar>,
    ticker: Option<tokio::task::JoinHandle<()>>,
}

impl Progress {
    fn start(progress: Arc<ScanProgress>) -> Self {
        if !io::stderr().is_terminal() {
            return Progress {
                bar: None,
                ticker: None,
            };
        }
        let bar = ProgressBar::with_draw_target(
            Some(progress.total_bytes()),
            ProgressDrawTarget::hidden(),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} scanning {bytes}/{total_bytes} [{wide_bar}] {msg} ({eta})",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        let shown = bar.clone();
        let ticker = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(500)).await;
            shown.set_draw_target(ProgressDrawTarget::stderr());
            loop {
                shown.set_position(progress.bytes().min(progress.total_bytes()));
                shown.set_message(format!("{} records", progress.records()));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Progress {
            bar: Some(bar),
            ticker: Some(ticker),
        }
    }

    fn finish(self) {
        if let Some(ticker) = self.ticker {
            ticker.abort();
        }
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
