//! `rcc convert --schema FILE.jr [-I DIR]… --type module.Class --from F --to F [INPUT [OUTPUT]]`:
//! records of a DDL type from one encoding to another (binary, CSV, XML, JSON, ZooKeeper's
//! jute), read and written by the schema-driven codec, optionally inside framings.

use std::borrow::Cow;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hadoop_record::archive::jute::JuteOptions;
use hadoop_record::framing::detect::plain_looks;
use hadoop_record::framing::plasma::PlasmaFormat;
use hadoop_record::framing::seqfile::Header;
use hadoop_record::framing::v1::FileHeader;
use hadoop_record::meta::RecordTypeInfo;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::json::{write_json, JsonReader};
use hadoop_record::{Error, Format, RecordReader, RecordWriter, Value};

use super::float_text::FloatTextOption;
use super::frame::{complete_output, report_end, write_failure, Stop, OUTPUT_BUFFER};
use super::framing::{
    check_read_options, check_value_class, find_framing, input_name, no_framing_found,
    parse_framing, FrameReader, FrameWriter, Framing, InFraming, Payload, PeekedInput, ReadOptions,
    WriteOptions, AUTO_HELP,
};
use super::schema_type::{load_type, Early};
use super::storage::{create_output, open_input, Files, Output, STORAGE_HELP};
use super::Context;

#[cfg(feature = "columnar")]
mod avro_direct;
#[cfg(feature = "columnar")]
mod columnar;
pub mod delta;

const EXAMPLES: &str = "\
Examples:
  rcc convert --schema links.jr --type links.Link --from binary --to csv in.bin out.csv
  rcc convert --schema links.jr --type links.Link --from csv --to json < links.csv
  rcc convert --schema links.jr --type links.Link --from binary --to xml --float-text shortest \\
      in.bin out.xml
  rcc convert --schema links.jr --type links.Link --from json --to binary links.json out.bin
  rcc convert --schema a.jr -I ddl/common --type a.Event --from xml --to binary in.xml
  rcc convert --schema l.jr --type l.Link --from binary --to csv --in-framing paddle in.paddle
  rcc convert --schema l.jr --type l.Link --from xml --to binary \\
      --out-framing v1 --record-type Link in.xml out.rio
  rcc convert --writer-schema old/links.jr --schema links.jr --type links.Link \\
      --from binary --to binary written-by-old.bin readable-by-new.bin
  rcc convert --schema l.jr --type l.Link --from binary --to json --in-framing seqfile part-00000
  rcc convert --schema l.jr --type l.Link --from json --to binary --out-framing seqfile \\
      --seqfile-compression block --seqfile-codec gzip links.json links.seq
  rcc convert --schema l.jr --type l.Link --key-type l.Url --from binary --to json \\
      --in-framing seqfile part-00000
  rcc convert --schema l.jr --type l.Link --from binary --in-framing paddle \\
      --to parquet links.paddle links.parquet
  rcc convert --schema l.jr --type l.Link --from parquet --to binary links.parquet links.bin
  rcc convert --schema l.jr --type l.Link --from csv --to arrow --batch-size 65536 l.csv l.arrow
  rcc convert --schema z.jr --type z.Stat --from jute --nullable --to parquet stats.jute s.parquet
  rcc convert --schema l.jr --type l.Link --in-framing seqfile --to avro part-00000 links.avro
  rcc convert --schema l.jr --type l.Link --from avro --to binary --out-framing seqfile \\
      links.avro part-00000
  rcc convert --schema l.jr --type l.Link --from binary --in-framing paddle --to delta \\
      --partition-by isRelative links.paddle lake/links/
  rcc convert --schema l.jr --type l.Link --from binary --in-framing seqfile --to delta \\
      --mode append hdfs://namenode:8020/jobs/links/part-00000 s3://lake/links/
  rcc convert --schema l.jr --type l.Link --from delta --version 3 --to binary \\
      --out-framing seqfile s3://lake/links/ links.seq

JSON is what --to json writes: one record per line (or any whitespace between records), or
a JSON array of records; longs beyond 2^53 are strings, floats Java's text (JDK 19's), NaN
and the infinities the strings \"NaN\", \"Infinity\", \"-Infinity\", buffers hex, maps
[key, value] pairs. --from json also reads a map with ustring keys as an object, {\"a\": 1, \"b\": 2}, in
any key order (a key given twice is an error).

CSV and XML print floats and doubles as Hadoop's Java writes them on JDK 8 to 18, which
Hadoop clusters run (--float-text legacy, the default); --float-text shortest prints JDK 19
and later's text, which differs for about 5% of values (9.9E-324 for 1.0E-323). Either is
read.

With --writer-schema (or --writer-type), the input was written as an older (or other)
version of the record: each record is read as Hadoop's type filter reads it (fields matched by
name and type; the writer's others dropped, the reader's others empty); `rcc compat` tells what
changes.

Parquet and Arrow (the IPC file format) hold one column per field: byte Int8, boolean Boolean,
int Int32, long Int64, float Float32, double Float64, ustring Utf8, buffer Binary, vector List,
map Map (entries in Hadoop's key order), record Struct, none nullable (with --nullable, jute's
ustring, buffer and vector are). Parquet is written with zstd (--parquet-compression to
change). --from parquet reads files other tools wrote when their columns are these (or
equivalent: large or view strings, dictionaries, wider integers); --from parquet --to binary
gives back the bytes --to parquet read. An rcc built without Parquet and Arrow (the default:
they double its build) runs the companion rcc-convert for these (cargo install
hadoop-record-sql-cli).

--to avro writes an Avro container file under the schema `rcc -l avro` writes for --type
(byte and maps without ustring keys marked so that the DDL types come back; blocks in
--avro-codec, deflate by default as Avro's tools: null, deflate, snappy, zstandard, bzip2,
xz); --from avro reads any Avro writer's file whose schema resolves to --type's by Avro's
rules (fields by name, promotions, defaults), and gives back the bytes --to avro read.

--to delta writes the records as a new version of the Delta Lake table whose directory is
OUTPUT (local, hdfs:// or s3://), as rcc sql --to delta does: its columns those of --to
parquet, its Parquet files written into the directory, then one commit, which readers see
whole or not at all (a failed conversion leaves the table as it was). --mode says what to
do when the table exists (error, append, overwrite), --partition-by how a new table is laid
out. --from delta reads a table's latest version (or --version N, --timestamp TIME), its
columns matched to --type's fields by name as --from parquet's are: a table of one version
that --to delta wrote (not partitioned) gives the records back in their order, byte for
byte with --to binary. Both run in the companion rcc-convert.

With a framing in, every payload holds one record; with --out-framing every record becomes
one payload (CSV records in plasma-text drop their line end, which the framing adds back).
--in-framing {AUTO_HELP}; input that starts with none of these is records back to back, as
--in-framing none reads any input. A framing named that the first bytes contradict is an
error saying what they are.
A SequenceFile's payloads are its values (keys are dropped unless --key-type reads them, or
kept as they are when the output is a SequenceFile too); a SequenceFile written names --type
as its value class, as Hadoop's rcc names the Java class.
On bad input the records converted so far are written, then the error (record number,
position, field path) is printed and the exit status is 1.";

/// Convert records of a DDL type between binary, CSV, XML, JSON and ZooKeeper's jute,
/// optionally inside framings, and to and from Parquet, Arrow, Avro and Delta Lake
#[derive(Debug, Args)]
#[command(after_help = format!("{}\n\n{STORAGE_HELP}", EXAMPLES.replace("{AUTO_HELP}", AUTO_HELP)))]
pub struct ConvertArgs {
    /// The DDL file declaring the record type
    #[arg(long, value_name = "FILE.jr")]
    schema: PathBuf,

    /// Also look for included files in DIR (repeatable; searched in order, after the
    /// including file's directory)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,

    /// The record type, `module.Class`
    #[arg(long = "type", value_name = "module.Class")]
    type_name: String,

    /// The DDL file of the type the input was written as, when it differs from --schema's
    /// (an older version of the record): fields are matched by name and type as Hadoop's
    /// type filter matches them, fields the writer had and --type lacks are dropped, fields
    /// --type has and the writer lacked are empty (see `rcc compat`)
    #[arg(long, value_name = "OLD.jr")]
    writer_schema: Option<PathBuf>,

    /// The record type the input was written as, `module.Class` (default: --type), in
    /// --writer-schema (default: --schema)
    #[arg(long, value_name = "module.Class")]
    writer_type: Option<String>,

    /// Encoding of the input (json: what --to json writes, or a JSON array of records);
    /// binary, Hadoop's own, by default (as rcc sql's)
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "binary")]
    from: ConvertFormat,

    /// Encoding of the output (json: one record per line, which --from json reads back)
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: ConvertFormat,

    /// The input's framing, each payload holding one record: auto (the default: seqfile,
    /// paddle, paddle-cpp, plasma-var or v1 found from the first bytes, else none), none
    /// (records back to back), mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N,
    /// plasma-var, seqfile or v1
    #[arg(long, value_name = "F")]
    in_framing: Option<String>,

    /// Frame the output: each record becomes one payload
    #[arg(long, value_name = "F")]
    out_framing: Option<String>,

    /// paddle, plasma-var and seqfile input framing: skip damaged chunks (seqfile: records
    /// and blocks, up to the next sync entry) and carry on (what was skipped is reported,
    /// and the exit status is still 1)
    #[arg(long)]
    recover: bool,

    /// seqfile input: the record type of the keys, `module.Class`, declared in --key-schema
    /// (default: --schema); each key is read as that record, and with --to json each line
    /// becomes {"key": …, "value": …}
    #[arg(long, value_name = "module.Class")]
    key_type: Option<String>,

    /// The DDL file declaring --key-type, when not --schema
    #[arg(long, value_name = "FILE.jr")]
    key_schema: Option<PathBuf>,

    /// With `--from jute`: the longest string or buffer to accept is N plus N (at least
    /// 1024), as ZooKeeper's `-Djute.maxbuffer=N` sets it (default 1048575)
    #[arg(long, value_name = "N")]
    jute_maxbuffer: Option<i32>,

    #[command(flatten)]
    read: ReadOptions,

    #[command(flatten)]
    write: WriteOptions,

    #[command(flatten)]
    float_text: FloatTextOption,

    #[command(flatten)]
    columnar: ColumnarOptions,

    #[command(flatten)]
    files: Files,

    // Last: their help headings hold for the flags after them.
    #[command(flatten)]
    delta_out: delta::DeltaOut,

    #[command(flatten)]
    delta_in: delta::DeltaIn,
}

/// `--from` and `--to` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConvertFormat {
    Binary,
    Csv,
    Xml,
    /// ZooKeeper's jute binary encoding
    Jute,
    Json,
    /// An Apache Parquet file, one column per field
    Parquet,
    /// An Apache Arrow IPC file, one column per field
    Arrow,
    /// A Delta Lake table's directory: read at its latest version, or --version,
    /// --timestamp; written (OUTPUT) as a new version of the table, or a new table
    Delta,
    /// An Apache Avro container file: read from any Avro writer's, its fields matched to
    /// --type's by name, with Avro's promotions and defaults; written under the schema
    /// `rcc -l avro` writes for --type (--avro-codec)
    Avro,
}

impl ConvertFormat {
    /// The record encoding; `None` for JSON (and the columnar formats).
    fn format(self) -> Option<Format> {
        match self {
            ConvertFormat::Binary => Some(Format::Binary),
            ConvertFormat::Csv => Some(Format::Csv),
            ConvertFormat::Xml => Some(Format::Xml),
            ConvertFormat::Jute => Some(Format::Jute),
            ConvertFormat::Json
            | ConvertFormat::Parquet
            | ConvertFormat::Arrow
            | ConvertFormat::Delta
            | ConvertFormat::Avro => None,
        }
    }

    /// Whether it is Parquet, Arrow or Avro.
    fn is_columnar(self) -> bool {
        matches!(
            self,
            ConvertFormat::Parquet | ConvertFormat::Arrow | ConvertFormat::Avro
        )
    }

    /// Whether floats are written as text that `--float-text` chooses: CSV and XML.
    fn writes_float_text(self) -> bool {
        matches!(self, ConvertFormat::Csv | ConvertFormat::Xml)
    }

    fn name(self) -> &'static str {
        match self {
            ConvertFormat::Json => "json",
            ConvertFormat::Parquet => "parquet",
            ConvertFormat::Arrow => "arrow",
            ConvertFormat::Delta => "delta",
            ConvertFormat::Avro => "avro",
            format => format.format().map_or("json", Format::name),
        }
    }
}

/// Options of the columnar formats.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ColumnarOptions {
    /// With --to or --from parquet or arrow: jute's nullable ustring, buffer and vector (what
    /// `rcc --nullable` generates) are nullable columns, and nulls are written back as jute's
    /// (or CSV's) nulls
    #[arg(long)]
    nullable: bool,

    /// With --to parquet or arrow: records per Arrow record batch (default 8192); with --from:
    /// rows read at a time
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    batch_size: Option<u32>,

    #[command(flatten)]
    pub(crate) parquet: crate::parquet_out::ParquetOptions,

    /// With --to avro: the codec of the file's blocks: null, deflate (the default, as
    /// Avro's own tools), snappy, zstandard, bzip2 or xz
    #[arg(long, value_name = "CODEC")]
    pub(crate) avro_codec: Option<String>,
}

/// Refuses the columnar options without a columnar format.
fn no_columnar_options(args: &ConvertArgs) -> Result<(), Early> {
    let o = &args.columnar;
    let given = [
        (o.nullable, "--nullable"),
        (o.batch_size.is_some(), "--batch-size"),
        (o.parquet.row_group_size.is_some(), "--row-group-size"),
        (
            o.parquet.parquet_compression.is_some(),
            "--parquet-compression",
        ),
        (o.avro_codec.is_some(), "--avro-codec"),
    ];
    match given.iter().find(|(on, _)| *on) {
        Some((_, flag)) => Err(Early::Message(format!(
            "{flag} applies to --to or --from parquet, arrow or avro"
        ))),
        None => Ok(()),
    }
}

impl ConvertArgs {
    /// Whether a file is named by URL (`hdfs://`, `s3://`), which needs the `storage`
    /// feature.
    pub fn names_url(&self) -> bool {
        self.files.name_url(None)
    }

    /// Whether Parquet, Arrow or Avro is read or written (what the `columnar` feature
    /// adds).
    pub fn is_columnar(&self) -> bool {
        self.from.is_columnar() || self.to.is_columnar()
    }

    /// Whether a Delta table is read or written, which only the companion rcc-convert does.
    pub fn is_delta(&self) -> bool {
        self.from == ConvertFormat::Delta || self.to == ConvertFormat::Delta
    }

    /// Refuses an output that would destroy the input or a DDL file (`--schema`,
    /// `--writer-schema`, `--key-schema`): [`Files::check_output`].
    fn check_output(&self) -> Result<(), String> {
        self.files.check_output(&self.ddl_files())
    }

    /// The DDL files named (`--schema`, `--writer-schema`, `--key-schema`).
    fn ddl_files(&self) -> Vec<&std::path::Path> {
        [Some(&self.schema), self.writer_schema.as_ref()]
            .into_iter()
            .chain([self.key_schema.as_ref()])
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }

    /// What no output may destroy: the input and the DDL files.
    #[cfg(feature = "columnar")]
    fn guarded_inputs(&self) -> Vec<&std::path::Path> {
        let mut inputs = self.ddl_files();
        inputs.extend(self.files.input.as_deref());
        inputs
    }
}

/// Runs `rcc convert`; true on success. A conversion that names a Delta table runs the
/// companion rcc-convert in this process's place (which says how to install it when it
/// is not there).
pub fn run(context: &Context, args: ConvertArgs) -> bool {
    if args.is_delta() {
        return super::companion::run_subcommand("convert") == std::process::ExitCode::SUCCESS;
    }
    finish(context, convert(context, args, None))
}

/// Runs `rcc convert` with Delta Lake tables read and written by `tables` (the companion
/// rcc-convert's); true on success.
#[cfg(feature = "columnar")]
pub fn run_with_delta(
    context: &Context,
    args: ConvertArgs,
    tables: &dyn delta::DeltaTables,
) -> bool {
    finish(context, convert(context, args, Some(tables)))
}

/// Prints why a conversion could not start; true when it ran well.
fn finish(context: &Context, converted: Result<bool, Early>) -> bool {
    match converted {
        Ok(ok) => ok,
        Err(Early::Message(message)) => {
            context.error(&message);
            false
        }
        Err(Early::Reported) => false,
    }
}

/// Delta Lake tables, where this build has them (the companion rcc-convert).
#[cfg(feature = "columnar")]
type Tables<'a> = Option<&'a dyn delta::DeltaTables>;
#[cfg(not(feature = "columnar"))]
type Tables<'a> = Option<std::convert::Infallible>;

fn convert(context: &Context, args: ConvertArgs, tables: Tables<'_>) -> Result<bool, Early> {
    let (schema, id) = load_type(context, &args.schema, &args.include_dirs, &args.type_name)?;
    let schema = &schema;
    let writer = match (&args.writer_schema, &args.writer_type) {
        (None, None) => None,
        (file, name) => {
            let file = file.as_ref().unwrap_or(&args.schema);
            let name = name.as_ref().unwrap_or(&args.type_name);
            let (schema, id) = load_type(context, file, &args.include_dirs, name)?;
            Some(Writer::new(schema, id)?)
        }
    };

    let keys = key_type(context, &args)?;
    let keys = keys.as_ref();

    let in_framing = in_framing(&args)?;
    let out_framing = args
        .out_framing
        .as_deref()
        .map(|name| parse_framing("--out-framing", name))
        .transpose()?;
    args.float_text
        .only_for_text(args.to.writes_float_text(), "--to csv or xml")?;
    delta::check_flags(&args)?;
    if args.is_delta() {
        #[cfg(feature = "columnar")]
        if let Some(tables) = tables {
            return delta::convert(context, &args, (schema, id, writer.as_ref()), tables);
        }
        #[cfg(not(feature = "columnar"))]
        let _ = tables;
        return Err(format!(
            "Delta Lake tables are read and written by the companion command rcc-convert: \
             install it (cargo install {}) and run rcc convert",
            super::companion::PACKAGE
        )
        .into());
    }
    #[cfg(feature = "columnar")]
    if let Some(done) = columnar::convert(context, &args, schema, id, writer.as_ref()) {
        return done;
    }
    no_columnar_options(&args)?;
    // v1 to v1 keeps each record's type (and the header) unless --record-type says otherwise;
    // the options are checked as far as they can be before the input shows its framing.
    let maybe_v1 = matches!(in_framing, InFraming::Auto | InFraming::Named(Framing::V1));
    check_write_options(
        &args,
        out_framing,
        maybe_v1 && out_framing == Some(Framing::V1),
    )?;
    args.check_output()?;
    let record = (schema, id, writer.as_ref());
    let mut source = open_source(context, &args, in_framing, record)?;
    let keep_types = source.framing() == Some(Framing::V1) && out_framing == Some(Framing::V1);
    check_write_options(&args, out_framing, keep_types)?;
    check_keys(&args, &source)?;
    let (mut sink, complete) = open_sink(
        &args,
        out_framing,
        source.v1_header(),
        source.seq_header(),
        keep_types,
    )?;

    let mut failure = None;
    let mut records = 0u64;
    loop {
        match source.next(schema, id, writer.as_ref(), keys) {
            Ok(Some(record)) => {
                let carried = record.carried(keys);
                let value = RecordRef::Value(&record.value);
                if let Err(e) = sink.write(schema, id, value, carried, records) {
                    failure = Some(write_failure(&e, records, args.to.name()));
                    break;
                }
                records += 1;
            }
            Ok(None) => break,
            Err(message) => {
                failure = Some(Stop::Failed(message));
                break;
            }
        }
    }
    let skipped = source.skipped();
    Ok(end_records(
        context,
        &args,
        (sink, complete),
        records,
        failure,
        &skipped,
    ))
}

/// Ends a conversion that wrote `records` records to `sink`: finishes it (its failure
/// counts unless one came first), completes the output when nothing failed, and reports
/// what recovery skipped and why it stopped; true when all went well.
fn end_records(
    context: &Context,
    args: &ConvertArgs,
    (mut sink, complete): (Sink, Output),
    records: u64,
    mut failure: Option<Stop>,
    skipped: &[String],
) -> bool {
    if let Err(e) = sink.finish() {
        failure.get_or_insert(write_failure(&e, records, args.to.name()));
    }
    drop(sink);
    complete_output(complete, &mut failure);
    report_end(context, skipped, failure)
}

/// `--in-framing`, its read options checked as far as they can be before the input is
/// opened.
fn in_framing(args: &ConvertArgs) -> Result<InFraming, String> {
    let in_framing = InFraming::parse("--in-framing", args.in_framing.as_deref(), true)?;
    in_framing.check("--in-framing", &args.read, args.recover)?;
    if in_framing == InFraming::None {
        no_framing_options("--in-framing", &read_flags(&args.read, args.recover))?;
    }
    Ok(in_framing)
}

/// `--key-type` needs SequenceFile input: what the input turned out to be.
fn check_keys(args: &ConvertArgs, source: &Source) -> Result<(), String> {
    match (&args.key_type, source.framing()) {
        (None, _) | (Some(_), Some(Framing::SeqFile)) => Ok(()),
        (Some(_), framing) => Err(format!(
            "--key-type applies to SequenceFile input (the only framing with keys), and {} is {}",
            input_name(args.files.input.as_deref()),
            match framing {
                Some(framing) => format!("{framing}"),
                None => "records back to back".to_owned(),
            }
        )),
    }
}

/// The keys' record type, `--key-type` (in `--key-schema`), checked against the other
/// options.
fn key_type(context: &Context, args: &ConvertArgs) -> Result<Option<KeyType>, Early> {
    match (&args.key_type, &args.key_schema) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err("--key-schema needs --key-type (the keys' record type)"
            .to_string()
            .into()),
        (Some(name), file) => {
            if !matches!(args.in_framing.as_deref(), None | Some("auto" | "seqfile")) {
                return Err(
                    "--key-type applies to --in-framing seqfile (the only framing with keys)"
                        .to_string()
                        .into(),
                );
            }
            if args.to != ConvertFormat::Json {
                return Err(
                    "--key-type writes each key beside its value in JSON: it needs --to json"
                        .to_string()
                        .into(),
                );
            }
            let file = file.as_ref().unwrap_or(&args.schema);
            Ok(Some(load_type(context, file, &args.include_dirs, name)?))
        }
    }
}

/// The output framing's options: `--` flags as given, and the record type as a
/// SequenceFile's value class (as Hadoop's rcc names the Java class).
fn write_options(args: &ConvertArgs) -> WriteOptions {
    let mut options = args.write.clone();
    options.value_class = Some(args.type_name.clone());
    options
}

/// Checks the output framing's options (on a sink, so that bad options create no file).
fn check_write_options(
    args: &ConvertArgs,
    out_framing: Option<Framing>,
    keep_types: bool,
) -> Result<(), Early> {
    let options = write_options(args);
    match out_framing {
        Some(f) => drop(FrameWriter::new(
            io::sink(),
            f,
            &options,
            None,
            keep_types,
            None,
        )?),
        None => no_framing_options("--out-framing", &write_flags(&options))?,
    }
    Ok(())
}

/// The records of `record`'s type (in its schema, written as its writer's) in the input, as
/// `--from`, `--in-framing` and the jute options say: a framing `auto` finds is checked
/// against the read options, a SequenceFile's value class against the type.
fn open_source(
    context: &Context,
    args: &ConvertArgs,
    in_framing: InFraming,
    record: (&Schema, RecordId, Option<&Writer>),
) -> Result<Source, Early> {
    let input = open_input(args.files.input.as_deref(), &args.files.storage)?;
    let name = input_name(args.files.input.as_deref());
    let (framing, input) = find_framing(input, in_framing, "--in-framing", &name)?;
    if in_framing == InFraming::Auto {
        match framing {
            Some(framing) => check_read_options(framing, &args.read, args.recover)?,
            None => {
                if let Some(flag) = read_flags(&args.read, args.recover).first() {
                    return Err(no_framing_found("--in-framing", &name, flag).into());
                }
            }
        }
    }
    let from = args.from.format();
    if args.jute_maxbuffer.is_some() && from != Some(Format::Jute) {
        return Err("--jute-maxbuffer applies to --from jute only"
            .to_string()
            .into());
    }
    let jute = args
        .jute_maxbuffer
        .map_or_else(JuteOptions::default, |max| {
            JuteOptions::default().with_max_buffer(max)
        });
    Ok(match framing {
        Some(framing) => {
            let input: Box<dyn Read> = Box::new(input);
            let frames = FrameReader::new(input, framing, &args.read, args.recover);
            if let Some(header) = frames.seq_header() {
                let (schema, id, writer) = record;
                let class = |schema: &Schema, id| schema.record(id).map(|r| r.full_name());
                let writer_class = writer.and_then(|w| class(&w.schema, w.id));
                let class = class(schema, id).unwrap_or_default();
                check_value_class(context, &name, header, &class, writer_class.as_deref());
            }
            Source::Framed {
                frames: Box::new(frames),
                framing,
                format: from,
                jute,
                scratch: Vec::new(),
            }
        }
        None => match from {
            Some(format) => {
                Source::Stream(RecordReader::new(input, format).with_jute_options(jute))
            }
            None => Source::Json(JsonReader::new(Box::new(input))),
        },
    })
}

/// An error reading records back to back, with what the input looks like when that may be
/// why (after records that read as garbage, maybe): a Mesos stream (which is never guessed),
/// or text of another encoding than `format`.
fn plain_error(e: &Error, format: Format, first: &[u8]) -> String {
    match plain_looks(first, format.name()) {
        Some(looks) => format!("{e}: {}", looks.hint("--in-framing")),
        None => e.to_string(),
    }
}

/// Where the records go, as `--to` and `--out-framing` say; `v1_header` and `seq_header`
/// are the input's, kept when the output is the same framing. The [`Output`] completes
/// the file once the sink is finished.
fn open_sink(
    args: &ConvertArgs,
    out_framing: Option<Framing>,
    v1_header: Option<&FileHeader>,
    seq_header: Option<&Header>,
    keep_types: bool,
) -> Result<(Sink, Output), Early> {
    let (output, complete) = create_output(args.files.output.as_deref(), &args.files.storage)?;
    let sink = match out_framing {
        Some(framing) => Sink::Framed {
            frames: FrameWriter::new(
                BufWriter::with_capacity(OUTPUT_BUFFER, output),
                framing,
                &write_options(args),
                v1_header,
                keep_types,
                seq_header,
            )?,
            encoder: match args.to.format() {
                Some(format) => Encoder::Records(
                    RecordWriter::new(Vec::new(), format).with_float_text(args.float_text.get()),
                ),
                None => Encoder::Json(Vec::new()),
            },
            strip_line_end: framing == Framing::Plasma(PlasmaFormat::Text)
                && args.to == ConvertFormat::Csv,
        },
        None => match args.to.format() {
            // The record writer buffers by itself.
            Some(format) => Sink::Stream(
                RecordWriter::new(output, format).with_float_text(args.float_text.get()),
            ),
            None => Sink::Json(BufWriter::with_capacity(OUTPUT_BUFFER, output), Vec::new()),
        },
    };
    Ok((sink, complete))
}

/// The flags of `given` that are on, in order.
fn flags_given(given: &[(bool, &'static str)]) -> Vec<&'static str> {
    given
        .iter()
        .filter_map(|&(on, flag)| on.then_some(flag))
        .collect()
}

fn read_flags(options: &ReadOptions, recover: bool) -> Vec<&'static str> {
    flags_given(&[
        (recover, "--recover"),
        (options.lenient, "--lenient"),
        (options.max_record_size.is_some(), "--max-record-size"),
    ])
}

fn write_flags(options: &WriteOptions) -> Vec<&'static str> {
    flags_given(&[
        (options.compression.is_some(), "--compression"),
        (options.chunk_size.is_some(), "--chunk-size"),
        (options.chunk_records.is_some(), "--chunk-records"),
        (options.record_type.is_some(), "--record-type"),
        (
            options.seqfile_compression.is_some(),
            "--seqfile-compression",
        ),
        (options.seqfile_codec.is_some(), "--seqfile-codec"),
        (options.seqfile_key.is_some(), "--seqfile-key"),
        (!options.headers.is_empty(), "--header"),
    ])
}

fn no_framing_options(framing_flag: &str, given: &[&str]) -> Result<(), String> {
    match given.first() {
        Some(flag) => Err(format!(
            "{flag} applies to framed data: it needs {framing_flag}"
        )),
        None => Ok(()),
    }
}

/// A record, with its v1 record type if it came in a v1 file, and its key if it came in a
/// SequenceFile: the bytes, and the record when --key-type reads them.
struct Typed {
    value: Value,
    record_type: Option<String>,
    key: Option<(Vec<u8>, Option<Value>)>,
}

impl Typed {
    fn plain(value: Value) -> Self {
        Typed {
            value,
            record_type: None,
            key: None,
        }
    }

    /// What the record carries to the output besides its value; `keys` is `--key-type`.
    fn carried<'a>(&'a self, keys: Option<&'a KeyType>) -> Carried<'a> {
        Carried {
            record_type: self.record_type.as_deref(),
            key: self.key.as_ref().map(|(bytes, _)| bytes.as_slice()),
            key_record: keys.zip(self.key.as_ref().and_then(|(_, v)| v.as_ref())),
        }
    }
}

/// What a record carries from its input payload to the output besides its fields.
#[derive(Clone, Copy, Default)]
struct Carried<'a> {
    /// Its v1 record type.
    record_type: Option<&'a str>,
    /// Its SequenceFile key's bytes.
    key: Option<&'a [u8]>,
    /// With `--key-type`: the key as a record, written beside the value (JSON only).
    key_record: Option<(&'a KeyType, &'a Value)>,
}

/// The keys' record type (`--key-type`): its schema and id.
type KeyType = (Schema, RecordId);

/// Where records come from.
enum Source {
    /// A stream of records back to back.
    Stream(RecordReader<PeekedInput>),
    /// JSON records.
    Json(JsonReader<Box<dyn Read>>),
    /// One record per payload.
    Framed {
        frames: Box<FrameReader<Box<dyn Read>>>,
        framing: Framing,
        /// `None` for JSON.
        format: Option<Format>,
        jute: JuteOptions,
        scratch: Vec<u8>,
    },
}

impl Source {
    /// The input's framing; `None`: records back to back.
    fn framing(&self) -> Option<Framing> {
        match self {
            Source::Stream(_) | Source::Json(_) => None,
            Source::Framed { framing, .. } => Some(*framing),
        }
    }

    /// The v1 input framing's header.
    fn v1_header(&self) -> Option<&FileHeader> {
        match self {
            Source::Stream(_) | Source::Json(_) => None,
            Source::Framed { frames, .. } => frames.v1_header(),
        }
    }

    /// The SequenceFile input framing's header.
    fn seq_header(&self) -> Option<&Header> {
        match self {
            Source::Stream(_) | Source::Json(_) => None,
            Source::Framed { frames, .. } => frames.seq_header(),
        }
    }

    /// The next record, with its v1 type when the input framing is v1 and its key when it
    /// is seqfile; `Err` is the message to print. Records written as `writer`'s type are
    /// read into type `id`; keys as `keys`' type, when given.
    fn next(
        &mut self,
        schema: &Schema,
        id: RecordId,
        writer: Option<&Writer>,
        keys: Option<&KeyType>,
    ) -> Result<Option<Typed>, String> {
        match self {
            Source::Stream(reader) => match read_record(reader, schema, id, writer) {
                Ok(value) => Ok(value.map(Typed::plain)),
                Err(e) => Err(plain_error(
                    &e,
                    reader.format(),
                    reader.get_ref().first_bytes(),
                )),
            },
            Source::Json(reader) => match read_json(reader, schema, id, writer) {
                Ok(value) => Ok(value.map(Typed::plain)),
                Err(e) => Err(e.to_string()),
            },
            Source::Framed {
                frames,
                framing,
                format,
                jute,
                scratch,
            } => {
                let n = frames.records();
                let payload = match frames.next_payload() {
                    None => return Ok(None),
                    Some(Err(e)) => return Err(format!("damaged {framing} input: {e}")),
                    Some(Ok(payload)) => payload,
                };
                let record_type = payload.record_type.map(str::to_owned);
                let key = match (payload.key, keys) {
                    (None, _) => None,
                    (Some(k), None) => Some((k.to_vec(), None)),
                    (Some(k), Some((key_schema, key_id))) => {
                        let value = read_key(k, key_schema, *key_id)
                            .map_err(|e| in_payload(n, framing, &e.in_field("key")))?;
                        Some((k.to_vec(), Some(value)))
                    }
                };
                let mut bytes = payload.bytes;
                // plasma-text carries a CSV record without its line end.
                if *framing == Framing::Plasma(PlasmaFormat::Text) && *format == Some(Format::Csv) {
                    scratch.clear();
                    scratch.extend_from_slice(bytes);
                    scratch.push(b'\n');
                    bytes = scratch;
                }
                // A reader per payload: its errors are the stream reader's, word for word, and
                // its buffer is only as large as the payload.
                let (first, end, second) = match format {
                    Some(format) => {
                        let mut reader =
                            RecordReader::from_slice(bytes, *format).with_jute_options(*jute);
                        let first = read_record(&mut reader, schema, id, writer);
                        let end = reader.position();
                        (first, end, read_record(&mut reader, schema, id, writer))
                    }
                    None => {
                        let mut reader = JsonReader::new(bytes);
                        let first = read_json(&mut reader, schema, id, writer);
                        let end = reader.position();
                        (first, end, read_json(&mut reader, schema, id, writer))
                    }
                };
                let value = match first {
                    Ok(Some(value)) => value,
                    Ok(None) => {
                        return Err(format!("record {n}: the {framing} payload is empty"));
                    }
                    Err(e) => return Err(in_payload(n, framing, &e)),
                };
                match second {
                    Ok(None) => Ok(Some(Typed {
                        value,
                        record_type,
                        key,
                    })),
                    _ => Err(format!(
                        "record {n}, {end} of its {framing} payload: more bytes after the record \
                         (a payload holds one record)"
                    )),
                }
            }
        }
    }

    fn skipped(&self) -> Vec<String> {
        match self {
            Source::Stream(_) | Source::Json(_) => Vec::new(),
            Source::Framed { frames, .. } => frames.skipped(),
        }
    }
}

/// The type the input was written as, when it is not the type converted to
/// (`--writer-schema`, `--writer-type`).
struct Writer {
    schema: Schema,
    id: RecordId,
    info: RecordTypeInfo,
}

impl Writer {
    fn new(schema: Schema, id: RecordId) -> Result<Self, Early> {
        let info = RecordTypeInfo::of(&schema, id).map_err(|e| Early::Message(e.to_string()))?;
        Ok(Writer { schema, id, info })
    }

    /// `value`, of the writer's type, as type `id` reads it: through its binary form, which
    /// [`RecordReader::read_value_with`] reads by Hadoop's rules, as it reads every encoding.
    fn project(&self, value: &Value, schema: &Schema, id: RecordId) -> Result<Value, Error> {
        let mut binary = RecordWriter::new(Vec::new(), Format::Binary);
        binary.write_value(&self.schema, self.id, value)?;
        let bytes = binary.into_inner()?;
        let read = RecordReader::from_slice(&bytes, Format::Binary)
            .read_value_with(schema, id, &self.info)?;
        Ok(read.expect("a record was written"))
    }
}

/// The next record of `reader`, written as `writer`'s type when given.
fn read_record<R: Read>(
    reader: &mut RecordReader<R>,
    schema: &Schema,
    id: RecordId,
    writer: Option<&Writer>,
) -> Result<Option<Value>, Error> {
    match writer {
        None => reader.read_value(schema, id),
        Some(writer) => reader.read_value_with(schema, id, &writer.info),
    }
}

/// The next JSON record of `reader`: JSON names fields, so a record of `writer`'s type is
/// read as such, then projected.
fn read_json<R: Read>(
    reader: &mut JsonReader<R>,
    schema: &Schema,
    id: RecordId,
    writer: Option<&Writer>,
) -> Result<Option<Value>, Error> {
    match writer {
        None => reader.read_value(schema, id),
        Some(writer) => reader
            .read_value(&writer.schema, writer.id)?
            .map(|value| writer.project(&value, schema, id))
            .transpose(),
    }
}

/// An error inside payload `n`: its number in the framed stream, the position in the
/// payload, the field path.
fn in_payload(n: u64, framing: &Framing, e: &Error) -> String {
    let mut out = format!("record {n}");
    if let Some(position) = e.position() {
        out.push_str(&format!(", {position} of its {framing} payload"));
    }
    let path = e.path();
    if !path.is_empty() {
        out.push_str(&format!(", in {path}"));
    }
    out.push_str(": ");
    out.push_str(e.message());
    out
}

/// `value` in JSON; with a key, `{"key": …, "value": …}`.
fn json(
    line: &mut Vec<u8>,
    schema: &Schema,
    id: RecordId,
    value: &Value,
    key: Option<(&KeyType, &Value)>,
) -> Result<(), Error> {
    let Some(((key_schema, key_id), key)) = key else {
        return write_json(line, schema, &FieldType::Record(id), value);
    };
    line.extend_from_slice(b"{\"key\":");
    write_json(line, key_schema, &FieldType::Record(*key_id), key)?;
    line.extend_from_slice(b",\"value\":");
    write_json(line, schema, &FieldType::Record(id), value)?;
    line.push(b'}');
    Ok(())
}

/// A SequenceFile key read as one binary record of type `id`: an error if bytes remain.
fn read_key(bytes: &[u8], schema: &Schema, id: RecordId) -> Result<Value, Error> {
    let mut reader = RecordReader::from_slice(bytes, Format::Binary);
    let value = reader
        .read_value(schema, id)?
        .ok_or_else(|| Error::eof("the key is empty"))?;
    match reader.read_value(schema, id) {
        Ok(None) => Ok(value),
        _ => Err(Error::syntax("more bytes after the key record")),
    }
}

/// A record to write: a value, or a row of a record batch.
#[derive(Clone, Copy)]
enum RecordRef<'a> {
    Value(&'a Value),
    #[cfg(feature = "columnar")]
    Row(&'a hadoop_record_arrow::encode::Rows, usize),
    /// The record's Hadoop binary bytes, for a binary writer (`--to binary`).
    #[cfg(feature = "columnar")]
    Binary(&'a [u8]),
}

impl<'a> RecordRef<'a> {
    fn write<W: Write>(
        self,
        schema: &Schema,
        id: RecordId,
        writer: &mut RecordWriter<W>,
    ) -> Result<(), Error> {
        match self {
            RecordRef::Value(value) => writer.write_value(schema, id, value),
            #[cfg(feature = "columnar")]
            RecordRef::Row(rows, row) => rows.write_to(row, writer),
            #[cfg(feature = "columnar")]
            RecordRef::Binary(bytes) => writer.write_binary(bytes),
        }
    }

    /// The record as a value (for JSON).
    fn value(self) -> Result<Cow<'a, Value>, Error> {
        match self {
            RecordRef::Value(value) => Ok(Cow::Borrowed(value)),
            #[cfg(feature = "columnar")]
            RecordRef::Row(rows, row) => rows.value(row).map(Cow::Owned),
            #[cfg(feature = "columnar")]
            RecordRef::Binary(_) => Err(Error::new(
                hadoop_record::ErrorKind::Unsupported,
                "a record's binary bytes are written to --to binary only",
            )),
        }
    }
}

/// Where records go.
enum Sink {
    Stream(RecordWriter<Box<dyn Write + Send>>),
    /// JSON lines; the buffer is reused per record.
    Json(BufWriter<Box<dyn Write + Send>>, Vec<u8>),
    Framed {
        frames: FrameWriter<'static>,
        encoder: Encoder,
        strip_line_end: bool,
    },
}

/// Encodes one record into a payload.
enum Encoder {
    /// A record writer over a buffer emptied after each record.
    Records(RecordWriter<Vec<u8>>),
    Json(Vec<u8>),
}

impl Sink {
    fn write(
        &mut self,
        schema: &Schema,
        id: RecordId,
        record: RecordRef<'_>,
        carried: Carried<'_>,
        n: u64,
    ) -> Result<(), Error> {
        match self {
            Sink::Stream(writer) => record.write(schema, id, writer),
            Sink::Json(out, line) => {
                line.clear();
                let value = record.value()?;
                json(line, schema, id, &value, carried.key_record)?;
                line.push(b'\n');
                out.write_all(line)?;
                Ok(())
            }
            Sink::Framed {
                frames,
                encoder,
                strip_line_end,
            } => {
                let mut write = |bytes: &[u8]| {
                    let bytes = match bytes {
                        [rest @ .., b'\n'] if *strip_line_end => rest,
                        _ => bytes,
                    };
                    frames
                        .write(Payload {
                            record_type: carried.record_type,
                            key: carried.key,
                            bytes,
                        })
                        .map_err(|e| e.in_record(n))
                };
                match encoder {
                    Encoder::Records(writer) => {
                        record.write(schema, id, writer)?;
                        // Flushed, the record's bytes are all in the buffer.
                        writer.flush()?;
                        let bytes = std::mem::take(writer.get_mut());
                        let result = write(&bytes);
                        // Give the allocation back for the next record.
                        let mut reuse = bytes;
                        reuse.clear();
                        *writer.get_mut() = reuse;
                        result
                    }
                    Encoder::Json(line) => {
                        line.clear();
                        let value = record.value()?;
                        json(line, schema, id, &value, carried.key_record)?;
                        write(line)
                    }
                }
            }
        }
    }

    fn finish(&mut self) -> Result<(), Error> {
        match self {
            Sink::Stream(writer) => writer.flush(),
            Sink::Json(out, _) => Ok(out.flush()?),
            Sink::Framed { frames, .. } => frames.finish(),
        }
    }
}
