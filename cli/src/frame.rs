//! `rcc frame --from F --to F [OPTIONS] [INPUT [OUTPUT]]`: converts between framings with
//! payloads unchanged; `rcc frame info --from F FILE`: what a framed file holds.

use std::io::{self, BufWriter, Read};
use std::path::PathBuf;

use clap::{Args, Subcommand};
use hadoop_record::framing::detect::{looks_like, Looks};
use hadoop_record::framing::mesos::{self, MesosOptions};
use hadoop_record::framing::paddle::{self, PaddleReadOptions};
use hadoop_record::framing::plasma::{self, PlasmaFormat, TextOptions, VarReadOptions};
use hadoop_record::framing::seqfile::{self, SeqReadOptions};
use hadoop_record::framing::v1::{self, V1ReadOptions};

use super::framing::{
    check_read_options, find_framing, input_name, parse_framing, FrameReader, FrameWriter, Framing,
    InFraming, ReadOptions, WriteOptions, AUTO_HELP,
};
use super::storage::{create_output, open_input, Files, Output, StorageArgs, STORAGE_HELP};
use super::Context;

const EXAMPLES: &str = "\
Framings: mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, seqfile, v1
--from {AUTO_HELP}. A framing named that the first bytes contradict is an error saying what
they are.

Examples:
  rcc frame --to mesos part-00000 values.recordio    (a SequenceFile, found as such)
  rcc frame --from mesos --to paddle events.recordio events.paddle
  rcc frame --from paddle --to v1 --record-type Event in.paddle out.rio
  rcc frame --from v1 --to paddle --compression snappy --chunk-size 1M in.rio out.paddle
  cat in.recordio | rcc frame --from mesos --to plasma-var > out.pvar
  rcc frame --from paddle --to mesos --recover damaged.paddle saved.recordio
  rcc frame --from seqfile --to mesos part-00000 links.recordio
  rcc frame --from mesos --to seqfile --record-type links.Link \\
      --seqfile-compression block --seqfile-codec snappy --seqfile-key long in.recordio out.seq
  rcc frame --from seqfile --to seqfile --seqfile-compression none part-00000 plain.seq
  rcc frame info data.paddle
  rcc frame info --from seqfile part-00000
  rcc frame --from seqfile --to paddle hdfs://namenode:8020/logs/part-00000 s3://bucket/logs.paddle

SequenceFile input gives its values as payloads (its keys are kept only when the output is
a SequenceFile too, with the input's classes and metadata). SequenceFile output names the
value class given by --record-type (the Java class of the records, module.Class) and writes
NullWritable keys, or the record number as LongWritable with --seqfile-key long.

On damaged input every complete record is written, then the error is printed and the
exit status is 1.";

const INFO_EXAMPLES: &str = "\
--from {AUTO_HELP}.

Examples:
  rcc frame info data.paddle
  rcc frame info --from paddle data.paddle
  rcc frame info --from plasma-fixed:16 records.bin
  rcc frame info --from seqfile part-00000    (header, codec, blocks, sync entries)

Exit status 1 when the file is damaged (the report says where and what recovery skips).";

/// Convert between record framings (SequenceFile, Mesos, Paddle, Plasma, RecordIO v1) with
/// payloads unchanged, or summarise a framed file (`rcc frame info`)
#[derive(Debug, Args)]
#[command(
    after_help = format!("{}\n\n{STORAGE_HELP}", EXAMPLES.replace("{AUTO_HELP}", AUTO_HELP)),
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct FrameArgs {
    #[command(subcommand)]
    command: Option<FrameCommand>,

    /// Framing of the input: auto (the default: seqfile, paddle, paddle-cpp, plasma-var or
    /// v1 found from its first bytes), mesos, paddle, paddle-cpp, plasma-text,
    /// plasma-fixed:N, plasma-var, seqfile or v1
    #[arg(long, value_name = "F")]
    from: Option<String>,

    /// Framing of the output
    #[arg(long, value_name = "F", required = true)]
    to: Option<String>,

    /// paddle, plasma-var and seqfile input: skip damaged chunks (seqfile: records and
    /// blocks, up to the next sync entry) and carry on (what was skipped is reported, and
    /// the exit status is still 1)
    #[arg(long)]
    recover: bool,

    #[command(flatten)]
    read: ReadOptions,

    #[command(flatten)]
    write: WriteOptions,

    #[command(flatten)]
    files: Files,
}

impl FrameArgs {
    /// Whether a file is named by URL (`hdfs://`, `s3://`), which needs the `storage`
    /// feature.
    pub fn names_url(&self) -> bool {
        let info = self
            .command
            .as_ref()
            .map(|FrameCommand::Info(info)| info.file.as_path());
        self.files.name_url(info)
    }
}

#[derive(Debug, Subcommand)]
enum FrameCommand {
    // (Its description is `InfoArgs`'s.)
    #[command(after_help = INFO_EXAMPLES.replace("{AUTO_HELP}", AUTO_HELP))]
    Info(InfoArgs),
}

/// Summarise a framed file: chunks, records, headers, checksums, what recovery skips
#[derive(Debug, Args)]
struct InfoArgs {
    /// Framing of the file: auto (the default: found from its first bytes) or a framing's
    /// name
    #[arg(long, value_name = "F")]
    from: Option<String>,

    #[command(flatten)]
    read: ReadOptions,

    /// The file (`-`: standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,

    #[command(flatten)]
    storage: StorageArgs,
}

/// Runs `rcc frame`; true on success.
pub fn run(context: &Context, args: FrameArgs) -> bool {
    if let Some(FrameCommand::Info(info)) = args.command {
        return run_info(context, info);
    }
    match convert(context, args) {
        Ok(ok) => ok,
        Err(message) => {
            context.error(&message);
            false
        }
    }
}

/// Output buffer size.
pub(crate) const OUTPUT_BUFFER: usize = 64 << 10;

/// The conversion; `Err` for problems found before any record was read.
fn convert(context: &Context, args: FrameArgs) -> Result<bool, String> {
    let given = InFraming::parse("--from", args.from.as_deref(), false)?;
    given.check("--from", &args.read, args.recover)?;
    let to = parse_framing("--to", args.to.as_deref().unwrap_or_default())?;
    // Check the output options on a sink first, so that bad options create no file (as far
    // as they can be checked before the input shows its framing).
    let maybe_v1 = matches!(given, InFraming::Auto | InFraming::Named(Framing::V1));
    FrameWriter::new(io::sink(), to, &args.write, None, maybe_v1, None)?;
    args.files.check_output(&[])?;
    let input = open_input(args.files.input.as_deref(), &args.files.storage)?;
    let name = input_name(args.files.input.as_deref());
    let (from, input) = framed(input, given, &name, &args.read, args.recover)?;
    let typed_input = from == Framing::V1;
    FrameWriter::new(io::sink(), to, &args.write, None, typed_input, None)?;

    if to == Framing::SeqFile && from != Framing::SeqFile && args.write.record_type.is_none() {
        context.warning(
            "the SequenceFile names org.apache.hadoop.record.Record as its value class; \
             name the records' Java class with --record-type module.Class",
        );
    }
    let mut reader = FrameReader::new(input, from, &args.read, args.recover);
    let (output, complete) = create_output(args.files.output.as_deref(), &args.files.storage)?;
    let output = BufWriter::with_capacity(OUTPUT_BUFFER, output);
    let mut writer = FrameWriter::new(
        output,
        to,
        &args.write,
        reader.v1_header(),
        typed_input,
        reader.seq_header(),
    )?;

    let mut failure = None;
    while let Some(next) = reader.next_payload() {
        match next {
            Ok(payload) => {
                if let Err(e) = writer.write(payload) {
                    failure = Some(write_failure(&e, reader.records() - 1, &to.to_string()));
                    break;
                }
            }
            Err(e) => {
                failure = Some(Stop::Failed(format!("damaged {from} input: {e}")));
                break;
            }
        }
    }
    if let Err(e) = writer.finish() {
        failure.get_or_insert(write_failure(&e, reader.records(), &to.to_string()));
    }
    drop(writer);
    complete_output(complete, &mut failure);
    Ok(report_end(context, &reader.skipped(), failure))
}

/// The framing of `input` (named `name` in messages) as `given` says: found from its first
/// bytes (an error when none is: rcc frame reads payloads, not records back to back) and
/// checked against the read options, or named and checked against the first bytes. The
/// input comes back to be read from its start.
fn framed(
    input: Box<dyn Read>,
    given: InFraming,
    name: &str,
    options: &ReadOptions,
    recover: bool,
) -> Result<(Framing, Box<dyn Read>), String> {
    let (framing, input) = find_framing(input, given, "--from", name)?;
    let Some(framing) = framing else {
        let hint = match looks_like(input.first_bytes()) {
            Some(Looks::Mesos) => Looks::Mesos.hint("--from"),
            _ => "give --from F (mesos, plasma-text, plasma-fixed:N are never guessed)".into(),
        };
        return Err(format!(
            "cannot tell the framing of {name} from its first bytes (seqfile, paddle, \
             paddle-cpp, plasma-var and v1 are found so): {hint}"
        ));
    };
    if given == InFraming::Auto {
        check_read_options(framing, options, recover)?;
    }
    Ok((framing, Box::new(input)))
}

/// Completes `output` (written and flushed) if nothing failed, else abandons it: a file in
/// HDFS or S3 appears only when the whole conversion succeeded.
pub(crate) fn complete_output(output: Output, failure: &mut Option<Stop>) {
    if failure.is_none() {
        if let Err(e) = output.commit() {
            *failure = Some(Stop::Failed(e));
        }
    }
}

/// Why a conversion stopped before the end of its input.
pub enum Stop {
    /// An error, as printed.
    Failed(String),
    /// Whoever read the output went away (`| head`): not an error.
    Closed,
}

/// The [`Stop`] for an error writing record `n` as `what`.
pub(crate) fn write_failure(e: &hadoop_record::Error, n: u64, what: &str) -> Stop {
    let broken_pipe = std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<io::Error>())
        .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe);
    if broken_pipe {
        Stop::Closed
    } else if e.record().is_some() {
        // The message names the record already.
        Stop::Failed(format!("cannot write as {what}: {e}"))
    } else {
        Stop::Failed(format!("cannot write record {n} as {what}: {e}"))
    }
}

/// Prints what recovery skipped and why the conversion stopped; true when all went well.
pub fn report_end(context: &Context, skipped: &[String], stop: Option<Stop>) -> bool {
    for s in skipped {
        context.warning(&format!("recovery: {s}"));
    }
    match stop {
        Some(Stop::Failed(message)) => {
            context.error(&message);
            false
        }
        Some(Stop::Closed) | None => skipped.is_empty(),
    }
}

fn run_info(context: &Context, args: InfoArgs) -> bool {
    match info(&args) {
        Ok(None) => true,
        Ok(Some(damage)) => {
            context.error(&format!("{} is damaged: {damage}", args.file.display()));
            false
        }
        Err(message) => {
            context.error(&message);
            false
        }
    }
}

/// Prints the report; the file's first damage, if any.
fn info(args: &InfoArgs) -> Result<Option<String>, String> {
    let given = InFraming::parse("--from", args.from.as_deref(), false)?;
    given.check("--from", &args.read, false)?;
    let input = open_input(Some(&args.file), &args.storage)?;
    let name = input_name(Some(&args.file));
    let (from, input) = framed(input, given, &name, &args.read, false)?;
    let (report, damage) = describe(input, from, &args.read)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    print!("{report}");
    Ok(damage)
}

/// The report on a framed file, and its first damage if any.
type Described = Result<(String, Option<String>), hadoop_record::Error>;

fn describe(input: Box<dyn Read>, from: Framing, options: &ReadOptions) -> Described {
    let max = options.max_record_size;
    Ok(match from {
        Framing::Mesos => {
            let mut o = MesosOptions::default().with_lenient(options.lenient);
            if let Some(max) = max {
                o = o.with_max_record_size(max);
            }
            let info = mesos::info(input, o)?;
            (info.to_string(), info.damage.map(|e| e.to_string()))
        }
        Framing::Paddle(layout) => {
            let mut o = PaddleReadOptions::default().with_layout(layout);
            if let Some(max) = max {
                o = o.with_max_chunk_bytes(max);
            }
            let info = paddle::info(input, &o)?;
            (
                info.to_string(),
                info.skipped.first().map(|s| s.to_string()),
            )
        }
        Framing::Plasma(PlasmaFormat::Text) => {
            let mut o = TextOptions::default();
            if let Some(max) = max {
                o = o.with_max_record_size(usize::try_from(max).unwrap_or(usize::MAX));
            }
            let info = plasma::text_info(input, o);
            (info.to_string(), info.error.map(|e| e.to_string()))
        }
        Framing::Plasma(PlasmaFormat::Fixed(n)) => {
            let info = plasma::fixed_info(input, n);
            (info.to_string(), info.error.map(|e| e.to_string()))
        }
        Framing::Plasma(PlasmaFormat::Var) => {
            let mut o = VarReadOptions::default();
            if let Some(max) = max {
                o = o.with_max_record_size(max);
            }
            let info = plasma::var_info(input, o);
            let damage = match (&info.error, info.skipped.first()) {
                (Some(e), _) => Some(e.to_string()),
                (None, Some(s)) => Some(format!(
                    "recovery skips {} bytes at byte {}: {}",
                    s.len, s.offset, s.reason
                )),
                (None, None) => None,
            };
            (info.to_string(), damage)
        }
        Framing::SeqFile => {
            let mut o = SeqReadOptions::default();
            if let Some(max) = max {
                o = o.with_max_record_size(max);
            }
            let info = seqfile::info(input, &o)?;
            let damage = match (&info.error, info.skipped.first()) {
                (Some(e), _) => Some(e.to_string()),
                (None, Some(s)) => Some(format!("recovery {s}")),
                (None, None) => None,
            };
            (info.to_string(), damage)
        }
        Framing::V1 => {
            let mut o = V1ReadOptions::default();
            if let Some(max) = max {
                o = o.with_max_record_size(max);
            }
            let info = v1::info(input, o);
            (info.to_string(), info.error.map(|e| e.to_string()))
        }
    })
}
