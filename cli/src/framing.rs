//! Framings as the command line names them (`mesos`, `paddle`, `paddle-cpp`, `plasma-text`,
//! `plasma-fixed:N`, `plasma-var`, `seqfile`, `v1`), and the readers and writers `rcc frame` and
//! `rcc convert --in-framing/--out-framing` build from those names and their options.

use std::fmt;
use std::io::{Read, Write};
use std::str::FromStr;

use clap::Args;
use hadoop_record::framing::detect::{contradiction, Peeked};
use hadoop_record::framing::mesos::{MesosOptions, MesosReader, MesosWriter};
use hadoop_record::framing::paddle::{
    Compressor, Layout, PaddleReadOptions, PaddleReader, PaddleWriteOptions, PaddleWriter,
};
use hadoop_record::framing::plasma::{
    Compression, FixedReader, FixedWriter, PlasmaFormat, TextOptions, TextReader, TextWriter,
    VarReadOptions, VarReader, VarWriteOptions, VarWriter,
};
use hadoop_record::framing::seqfile::{
    Codec, Header, PayloadKey, SeqReadOptions, SeqReader, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::v1::{
    FileHeader, TypedRecord, V1ReadOptions, V1Reader, V1WriteOptions, V1Writer,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::Error;

/// The names accepted after `--from`, `--to`, `--in-framing` and `--out-framing`.
pub(crate) const FRAMING_NAMES: &str =
    "mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, seqfile, v1";

/// What `--in-framing auto` (and rcc frame's `--from auto`), the default, finds: for the
/// help texts.
pub const AUTO_HELP: &str = "auto (the default) finds seqfile (SEQ and a version byte), \
paddle and paddle-cpp (the chunk magic 04 03 02 01, the layout the first header reads well \
in), plasma-var (PMRV) and v1 (RecordIO v) from the first bytes of the input; mesos, \
plasma-text and plasma-fixed:N are never guessed (a Mesos length line is also a line of text) \
and must be named";

/// A framing named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Mesos RecordIO.
    Mesos,
    /// PaddlePaddle chunked RecordIO in the Go (`paddle`) or C++ (`paddle-cpp`) layout.
    Paddle(Layout),
    /// One of the Plasma MapReduce formats.
    Plasma(PlasmaFormat),
    /// Hadoop SequenceFile.
    SeqFile,
    /// RecordIO v1.0.
    V1,
}

impl FromStr for Framing {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mesos" => Ok(Framing::Mesos),
            "paddle" => Ok(Framing::Paddle(Layout::Go)),
            "paddle-cpp" => Ok(Framing::Paddle(Layout::Cpp)),
            "v1" => Ok(Framing::V1),
            "seqfile" => Ok(Framing::SeqFile),
            _ if s.starts_with("plasma-") => s.parse().map(Framing::Plasma).map_err(|_| {
                if s.starts_with("plasma-fixed") {
                    format!(
                        "bad framing `{s}`: plasma-fixed needs a record size of at least 1 \
                         byte, as in plasma-fixed:16"
                    )
                } else {
                    unknown_framing(s)
                }
            }),
            _ => Err(unknown_framing(s)),
        }
    }
}

fn unknown_framing(s: &str) -> String {
    format!("unknown framing `{s}` (expected one of {FRAMING_NAMES})")
}

impl fmt::Display for Framing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Framing::Mesos => f.write_str("mesos"),
            Framing::Paddle(Layout::Go) => f.write_str("paddle"),
            Framing::Paddle(Layout::Cpp) => f.write_str("paddle-cpp"),
            Framing::Plasma(p) => p.fmt(f),
            Framing::SeqFile => f.write_str("seqfile"),
            Framing::V1 => f.write_str("v1"),
        }
    }
}

/// Parses a framing name given to `flag`, with a message naming the flag.
pub fn parse_framing(flag: &str, name: &str) -> Result<Framing, String> {
    name.parse().map_err(|e| format!("{flag}: {e}"))
}

/// How the input's framing is given (`--in-framing`, rcc frame's `--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InFraming {
    /// Found from the input's first bytes (`auto`, the default).
    Auto,
    /// Records back to back, whatever they start with (`none`).
    None,
    /// This framing; the input's first bytes must not show another.
    Named(Framing),
}

impl InFraming {
    /// The choice `name` (absent: `auto`) given to `flag`; `none` only where records back
    /// to back are an input (`plain`).
    pub(crate) fn parse(flag: &str, name: Option<&str>, plain: bool) -> Result<Self, String> {
        match name {
            None | Some("auto") => Ok(InFraming::Auto),
            Some("none") if plain => Ok(InFraming::None),
            Some(name) => name.parse().map(InFraming::Named).map_err(|e: String| {
                let others = if plain { "auto, none" } else { "auto" };
                format!(
                    "{flag}: {}",
                    e.replace("(expected one of ", &format!("(expected one of {others}, "))
                )
            }),
        }
    }

    /// Checks the read options that can be checked before the input is opened: all of them
    /// against a named framing, and against `auto` the one that applies to a framing it
    /// never finds (`--lenient`, mesos).
    pub(crate) fn check(
        self,
        flag: &str,
        options: &ReadOptions,
        recover: bool,
    ) -> Result<(), String> {
        match self {
            InFraming::Named(framing) => check_read_options(framing, options, recover),
            InFraming::Auto if options.lenient => Err(format!(
                "--lenient applies to mesos input, which is never found from its first bytes: \
                 give {flag} mesos"
            )),
            InFraming::Auto | InFraming::None => Ok(()),
        }
    }
}

/// The input named `path` (`None` or `-`: standard input) as messages name it.
pub(crate) fn input_name(path: Option<&std::path::Path>) -> String {
    match path {
        None => "standard input".to_owned(),
        Some(p) if p == std::path::Path::new("-") => "standard input".to_owned(),
        Some(p) => p.display().to_string(),
    }
}

/// An input whose first bytes were read ahead to tell its framing.
pub(crate) type PeekedInput = Peeked<Box<dyn Read>>;

/// The input's framing, as `given` says: found from its first bytes (`None`: records back
/// to back, nothing found), or named and checked against them (a named framing the bytes
/// contradict is an error saying what they are and what to give to `flag`). The input comes
/// back with its first bytes to be read again; `name` names it in messages.
pub(crate) fn find_framing(
    input: Box<dyn Read>,
    given: InFraming,
    flag: &str,
    name: &str,
) -> Result<(Option<Framing>, PeekedInput), String> {
    let input = Peeked::new(input).map_err(|e| format!("cannot read {name}: {e}"))?;
    let framing = match given {
        InFraming::Auto => input.detect().map(|found| {
            found
                .name()
                .parse()
                .expect("every framing found has a name rcc takes")
        }),
        InFraming::None => None,
        InFraming::Named(framing) => {
            let named = framing.to_string();
            if let Some(found) = contradiction(&named, input.first_bytes()) {
                return Err(format!("{name}: {}", found.mismatch(&named, flag)));
            }
            Some(framing)
        }
    };
    Ok((framing, input))
}

/// The error for read options given with `auto` when the input showed no framing: what
/// they need.
pub(crate) fn no_framing_found(flag: &str, name: &str, option: &str) -> String {
    format!(
        "{option} applies to framed input, and {name} starts with none of the framings found \
         from their first bytes (seqfile, paddle, paddle-cpp, plasma-var, v1): give {flag} F \
         (mesos, plasma-text, plasma-fixed:N are never guessed)"
    )
}

/// Warns when a SequenceFile's value class is not the record type read, `class` (nor
/// `writer_class`, the type it was written as): its records may not be that type.
pub(crate) fn check_value_class(
    context: &crate::Context,
    name: &str,
    header: &Header,
    class: &str,
    writer_class: Option<&str>,
) {
    if let Some(warning) = header.value_class_warning(class, writer_class) {
        context.warning(&format!("{name} is {warning}"));
    }
}

/// A byte count: digits with an optional binary suffix (`K`, `KiB`, `M`, `MiB`, `G`, `GiB`).
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(split);
    let shift = match suffix {
        "" => 0,
        "K" | "k" | "KiB" => 10,
        "M" | "MiB" => 20,
        "G" | "GiB" => 30,
        _ => {
            return Err(format!(
                "`{text}` is not a size (examples: 4096, 64K, 32M, 1G)"
            ))
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("`{text}` is not a size (examples: 4096, 64K, 32M, 1G)"))
}

/// Options that change how framed input is read.
#[derive(Debug, Clone, Default, Args)]
pub struct ReadOptions {
    /// Mesos input: also accept whitespace, CR and `+` around lengths, as mesos-go and
    /// Mesos' Python decoder do
    #[arg(long)]
    pub lenient: bool,

    /// Largest record accepted (paddle: largest chunk, stored or decompressed; seqfile: also
    /// largest decompressed block buffer); defaults are mesos 4M, paddle 64M, plasma-text
    /// 64M, plasma-var, seqfile and v1 1G
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_record_size: Option<u64>,
}

/// Options that change how framed output is written.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Hash, Args, serde::Serialize, serde::Deserialize,
)]
pub struct WriteOptions {
    /// Chunk compression: none, snappy or gzip for paddle output, none or snappy for
    /// plasma-var (default none)
    #[arg(long, value_name = "C")]
    pub compression: Option<String>,

    /// paddle: most record bytes per chunk (default 32M); plasma-var: bytes per chunk,
    /// header included (default 64K)
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub chunk_size: Option<u64>,

    /// paddle: also close a chunk at N records (paddle-cpp output: 1000 by default, as
    /// Paddle's C++ writer)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub chunk_records: Option<u32>,

    /// v1 output: the record type every record is written as (letters and digits; without
    /// it, v1 input keeps its records' types). seqfile output: the value class the header
    /// names, the Java class of the records, `module.Class` (default: seqfile input's, or
    /// with rcc convert --type)
    #[arg(long, value_name = "TYPE")]
    pub record_type: Option<String>,

    /// seqfile output: none, record (each value compressed) or block (default none)
    #[arg(long, value_name = "C", value_parser = ["none", "record", "block"])]
    pub seqfile_compression: Option<String>,

    /// seqfile output: the codec of record or block compression, deflate (Hadoop's
    /// DefaultCodec), gzip, bzip2, snappy or lz4 (default deflate)
    #[arg(long, value_name = "CODEC", value_parser = ["deflate", "gzip", "bzip2", "snappy", "lz4"])]
    pub seqfile_codec: Option<String>,

    /// seqfile output: the keys, null (NullWritable) or long (the record number from 0 as
    /// LongWritable); default null, or the keys of seqfile input
    #[arg(long, value_name = "K", value_parser = ["null", "long"])]
    pub seqfile_key: Option<String>,

    /// The value class when `--record-type` is not given (rcc convert's `--type`).
    #[arg(skip)]
    pub value_class: Option<String>,

    /// A `Key: value` header line for v1 output (repeatable; v1 input's headers are kept)
    #[arg(long = "header", value_name = "KEY: VALUE")]
    pub headers: Vec<String>,
}

/// Checks that every read option given applies to `framing`.
pub(crate) fn check_read_options(
    framing: Framing,
    options: &ReadOptions,
    recover: bool,
) -> Result<(), String> {
    if options.lenient && framing != Framing::Mesos {
        return Err(format!("--lenient applies to mesos input, not {framing}"));
    }
    if recover
        && !matches!(
            framing,
            Framing::Paddle(_) | Framing::Plasma(PlasmaFormat::Var) | Framing::SeqFile
        )
    {
        return Err(format!(
            "--recover applies to paddle, paddle-cpp, plasma-var and seqfile input, not {framing}"
        ));
    }
    if options.max_record_size.is_some()
        && matches!(framing, Framing::Plasma(PlasmaFormat::Fixed(_)))
    {
        return Err(format!(
            "--max-record-size does not apply to {framing}, whose records all have the same size"
        ));
    }
    Ok(())
}

/// A payload as read, with its v1 record type when the input is v1 and its key when the
/// input is a SequenceFile.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a> {
    pub record_type: Option<&'a str>,
    pub key: Option<&'a [u8]>,
    pub bytes: &'a [u8],
}

enum Source<R: Read> {
    Mesos(MesosReader<R>),
    Paddle(PaddleReader<R>),
    Text(TextReader<R>),
    Fixed(FixedReader<R>),
    Var(VarReader<R>),
    Seq(Box<SeqReader<R>>),
    V1(V1Reader<R>),
    /// The input was damaged before its first record (a v1 header): this error, once.
    Failed(Option<Error>),
}

/// Reads the payloads of any framing: every complete payload, then at most one error.
pub(crate) struct FrameReader<R: Read> {
    source: Source<R>,
    current: Vec<u8>,
    current_type: String,
    records: u64,
}

impl<R: Read> FrameReader<R> {
    /// A reader of `framing` over `input`. For v1 the header is read here; a bad one is
    /// delivered as the reader's only item, so that callers treat it as damaged input.
    pub(crate) fn new(input: R, framing: Framing, options: &ReadOptions, recover: bool) -> Self {
        let max = options.max_record_size;
        let source = match framing {
            Framing::Mesos => {
                let mut o = MesosOptions::default().with_lenient(options.lenient);
                if let Some(max) = max {
                    o = o.with_max_record_size(max);
                }
                Source::Mesos(MesosReader::with_options(input, o))
            }
            Framing::Paddle(layout) => {
                let mut o = PaddleReadOptions::default()
                    .with_layout(layout)
                    .with_recover(recover);
                if let Some(max) = max {
                    o = o.with_max_chunk_bytes(max);
                }
                Source::Paddle(PaddleReader::with_options(input, o))
            }
            Framing::Plasma(PlasmaFormat::Text) => {
                let mut o = TextOptions::default();
                if let Some(max) = max {
                    o = o.with_max_record_size(usize::try_from(max).unwrap_or(usize::MAX));
                }
                Source::Text(TextReader::with_options(input, o))
            }
            Framing::Plasma(PlasmaFormat::Fixed(n)) => match FixedReader::new(input, n) {
                Ok(r) => Source::Fixed(r),
                Err(e) => Source::Failed(Some(e)),
            },
            Framing::Plasma(PlasmaFormat::Var) => {
                let mut o = VarReadOptions::default().with_recover(recover);
                if let Some(max) = max {
                    o = o.with_max_record_size(max);
                }
                Source::Var(VarReader::with_options(input, o))
            }
            Framing::SeqFile => {
                let mut o = SeqReadOptions::default().with_recover(recover);
                if let Some(max) = max {
                    o = o.with_max_record_size(max);
                }
                match SeqReader::with_options(input, o) {
                    Ok(r) => Source::Seq(Box::new(r)),
                    Err(e) => Source::Failed(Some(e)),
                }
            }
            Framing::V1 => {
                let mut o = V1ReadOptions::default();
                if let Some(max) = max {
                    o = o.with_max_record_size(max);
                }
                match V1Reader::with_options(input, o) {
                    Ok(r) => Source::V1(r),
                    Err(e) => Source::Failed(Some(e)),
                }
            }
        };
        FrameReader {
            source,
            current: Vec::new(),
            current_type: String::new(),
            records: 0,
        }
    }

    /// The v1 input's header, if the input is v1 and its header was read.
    pub(crate) fn v1_header(&self) -> Option<&FileHeader> {
        match &self.source {
            Source::V1(r) => Some(r.header()),
            _ => None,
        }
    }

    /// The SequenceFile input's header, if the input is one and its header was read.
    pub(crate) fn seq_header(&self) -> Option<&Header> {
        match &self.source {
            Source::Seq(r) => Some(r.header()),
            _ => None,
        }
    }

    /// Payloads delivered so far.
    pub(crate) fn records(&self) -> u64 {
        self.records
    }

    /// The next payload: `None` at the end of the input or after an error.
    pub(crate) fn next_payload(&mut self) -> Option<Result<Payload<'_>, Error>> {
        let typed = matches!(self.source, Source::V1(_));
        let owned = match &mut self.source {
            Source::Paddle(r) => {
                return match r.next_ref()? {
                    Ok(bytes) => {
                        self.records += 1;
                        Some(Ok(Payload {
                            record_type: None,
                            key: None,
                            bytes,
                        }))
                    }
                    Err(e) => Some(Err(e)),
                };
            }
            Source::Seq(r) => {
                return match r.next_pair()? {
                    Ok(pair) => {
                        self.records += 1;
                        Some(Ok(Payload {
                            record_type: None,
                            key: Some(pair.key),
                            bytes: pair.value,
                        }))
                    }
                    Err(e) => Some(Err(e)),
                };
            }
            Source::V1(r) => match r.next()? {
                Ok(TypedRecord {
                    record_type,
                    payload,
                }) => {
                    self.current_type = record_type;
                    Ok(payload)
                }
                Err(e) => Err(e),
            },
            Source::Mesos(r) => r.next()?,
            Source::Text(r) => r.next()?,
            Source::Fixed(r) => r.next()?,
            Source::Var(r) => r.next()?,
            Source::Failed(e) => Err(e.take()?),
        };
        match owned {
            Ok(bytes) => {
                self.current = bytes;
                self.records += 1;
                let record_type = typed.then_some(self.current_type.as_str());
                Some(Ok(Payload {
                    record_type,
                    key: None,
                    bytes: &self.current,
                }))
            }
            Err(e) => Some(Err(e)),
        }
    }

    /// What a recovering reader skipped, one line each.
    pub(crate) fn skipped(&self) -> Vec<String> {
        match &self.source {
            Source::Paddle(r) => r.skipped().iter().map(ToString::to_string).collect(),
            Source::Seq(r) => r.skipped().iter().map(ToString::to_string).collect(),
            Source::Var(r) => r.skipped().iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        }
    }
}

/// Writes payloads in any framing.
pub enum FrameWriter<'w> {
    /// Every framing but v1 with per-record types.
    Plain(Box<dyn FrameWrite + Send + 'w>),
    /// v1: one type for every record (`--record-type`), or each payload's own type.
    V1 {
        writer: V1Writer<Box<dyn Write + Send + 'w>>,
        record_type: Option<String>,
    },
    /// seqfile keeping the keys of seqfile input.
    SeqKeys(Box<SeqWriter<Box<dyn Write + Send + 'w>>>),
}

impl<'w> FrameWriter<'w> {
    /// A writer of `framing` over `output`. `input_header` is the v1 input's header, kept
    /// when writing v1; `typed_input` says whether payloads carry their own v1 type, which
    /// makes `--record-type` optional; `seq_input` is the SequenceFile input's header, whose
    /// classes, codec, metadata and keys seqfile output keeps unless options say otherwise.
    pub fn new<W: Write + Send + 'w>(
        output: W,
        framing: Framing,
        options: &WriteOptions,
        input_header: Option<&FileHeader>,
        typed_input: bool,
        seq_input: Option<&Header>,
    ) -> Result<Self, String> {
        check_write_options(framing, options, typed_input)?;
        let compression = options.compression.as_deref();
        Ok(match framing {
            Framing::Mesos => FrameWriter::Plain(Box::new(MesosWriter::new(output))),
            Framing::Paddle(layout) => {
                let mut o = match layout {
                    Layout::Go => PaddleWriteOptions::default(),
                    Layout::Cpp => PaddleWriteOptions::cpp(),
                };
                if let Some(c) = compression {
                    o = o.with_compressor(match c {
                        "none" => Compressor::None,
                        "snappy" => Compressor::Snappy,
                        "gzip" => Compressor::Gzip,
                        _ => {
                            return Err(format!(
                                "--compression: unknown compressor `{c}` for {framing} (expected none, snappy or gzip)"
                            ))
                        }
                    });
                }
                if let Some(size) = options.chunk_size {
                    o = o.with_max_chunk_size(size);
                }
                if options.chunk_records.is_some() {
                    o = o.with_max_chunk_records(options.chunk_records);
                }
                FrameWriter::Plain(Box::new(PaddleWriter::with_options(output, o)))
            }
            Framing::Plasma(PlasmaFormat::Text) => {
                FrameWriter::Plain(Box::new(TextWriter::new(output)))
            }
            Framing::Plasma(PlasmaFormat::Fixed(n)) => FrameWriter::Plain(Box::new(
                FixedWriter::new(output, n).map_err(|e| e.to_string())?,
            )),
            Framing::Plasma(PlasmaFormat::Var) => {
                let mut o = VarWriteOptions::default();
                if let Some(c) = compression {
                    o = o.with_compression(
                        c.parse::<Compression>()
                            .map_err(|e| format!("--compression: {e}"))?,
                    );
                }
                if let Some(size) = options.chunk_size {
                    o = o.with_chunk_size(u32::try_from(size).map_err(|_| {
                        format!("--chunk-size: {size} is too large for plasma-var")
                    })?);
                }
                FrameWriter::Plain(Box::new(
                    VarWriter::new(output, o).map_err(|e| format!("--chunk-size: {e}"))?,
                ))
            }
            Framing::SeqFile => seq_writer(output, options, seq_input)?,
            Framing::V1 => {
                let mut user = FileHeader::new();
                for line in &options.headers {
                    let (key, value) = line
                        .split_once(':')
                        .ok_or_else(|| format!("--header: `{line}` is not `Key: value`"))?;
                    user.push(key.trim(), value.trim())
                        .map_err(|e| format!("--header: {e}"))?;
                }
                // The keys given here must be the spec's; keys copied from v1 input are
                // kept as read.
                V1Writer::new(std::io::sink(), user.clone(), V1WriteOptions::default())
                    .map_err(|e| format!("--header: {e}"))?;
                let header = match input_header {
                    Some(input) => {
                        let mut header = input.clone();
                        for (key, value) in user.pairs() {
                            header
                                .push(key.as_str(), value.as_str())
                                .map_err(|e| format!("--header: {e}"))?;
                        }
                        header
                    }
                    None => user,
                };
                if let Some(t) = &options.record_type {
                    hadoop_record::framing::v1::check_record_type(t)
                        .map_err(|e| format!("--record-type: {e}"))?;
                }
                let write_options = V1WriteOptions::default().with_strict_keys(false);
                let output: Box<dyn Write + Send + 'w> = Box::new(output);
                FrameWriter::V1 {
                    writer: V1Writer::new(output, header, write_options)
                        .map_err(|e| format!("cannot write v1: {e}"))?,
                    record_type: options.record_type.clone(),
                }
            }
        })
    }

    /// Frames one payload.
    pub fn write(&mut self, payload: Payload<'_>) -> Result<(), Error> {
        match self {
            FrameWriter::Plain(w) => w.write_payload(payload.bytes),
            FrameWriter::SeqKeys(w) => w.append(payload.key.unwrap_or_default(), payload.bytes),
            FrameWriter::V1 {
                writer,
                record_type,
            } => {
                let t = record_type
                    .as_deref()
                    .or(payload.record_type)
                    .unwrap_or_default();
                writer.write_record(t, payload.bytes)
            }
        }
    }

    /// Writes what is pending and flushes.
    pub fn finish(&mut self) -> Result<(), Error> {
        match self {
            FrameWriter::Plain(w) => w.finish(),
            FrameWriter::SeqKeys(w) => w.finish(),
            FrameWriter::V1 { writer, .. } => writer.finish(),
        }
    }
}

/// The value class of records whose Java class is not known: Hadoop's record base class.
/// Hadoop can read such a file with `nextRaw`, but `hadoop fs -text` needs the real class
/// (`--record-type module.Class`).
const UNKNOWN_VALUE_CLASS: &str = "org.apache.hadoop.record.Record";

/// A SequenceFile writer: classes, codec and metadata from the options, else from seqfile
/// input; the input's keys kept unless `--seqfile-key` says which to write.
fn seq_writer<'w, W: Write + Send + 'w>(
    output: W,
    options: &WriteOptions,
    input: Option<&Header>,
) -> Result<FrameWriter<'w>, String> {
    let value_class = options
        .record_type
        .clone()
        .or_else(|| options.value_class.clone())
        .or_else(|| input.map(|h| h.value_class.clone()))
        .unwrap_or_else(|| UNKNOWN_VALUE_CLASS.to_owned());
    let mut o = SeqWriteOptions::new(value_class);
    if let Some(h) = input {
        o = o.with_compression(h.compression);
        if let Ok(Some(codec)) = h.codec() {
            o = o.with_codec(codec);
        }
        for (k, v) in &h.metadata {
            o = o.with_metadata(k.clone(), v.clone());
        }
    }
    if let Some(c) = &options.seqfile_compression {
        o = o.with_compression(
            c.parse()
                .map_err(|e| format!("--seqfile-compression: {e}"))?,
        );
    }
    if let Some(c) = &options.seqfile_codec {
        o = o.with_codec(
            c.parse::<Codec>()
                .map_err(|e| format!("--seqfile-codec: {e}"))?,
        );
    }
    let output: Box<dyn Write + Send + 'w> = Box::new(output);
    Ok(match (options.seqfile_key.as_deref(), input) {
        (Some("long"), _) => FrameWriter::Plain(Box::new(SeqWriter::new(
            output,
            o.with_payload_key(PayloadKey::RecordNumber),
        ))),
        (None, Some(h)) => FrameWriter::SeqKeys(Box::new(SeqWriter::new(
            output,
            o.with_key_class(h.key_class.clone()),
        ))),
        _ => FrameWriter::Plain(Box::new(SeqWriter::new(output, o))),
    })
}

/// Checks that every write option given applies to `framing`.
fn check_write_options(
    framing: Framing,
    options: &WriteOptions,
    typed_input: bool,
) -> Result<(), String> {
    let chunked = matches!(
        framing,
        Framing::Paddle(_) | Framing::Plasma(PlasmaFormat::Var)
    );
    if options.compression.is_some() && !chunked {
        return Err(format!(
            "--compression applies to paddle, paddle-cpp and plasma-var output, not {framing}"
        ));
    }
    if options.chunk_size.is_some() && !chunked {
        return Err(format!(
            "--chunk-size applies to paddle, paddle-cpp and plasma-var output, not {framing}"
        ));
    }
    if options.chunk_records.is_some() && !matches!(framing, Framing::Paddle(_)) {
        return Err(format!(
            "--chunk-records applies to paddle and paddle-cpp output, not {framing}"
        ));
    }
    if framing != Framing::SeqFile {
        for (given, flag) in [
            (
                options.seqfile_compression.is_some(),
                "--seqfile-compression",
            ),
            (options.seqfile_codec.is_some(), "--seqfile-codec"),
            (options.seqfile_key.is_some(), "--seqfile-key"),
        ] {
            if given {
                return Err(format!("{flag} applies to seqfile output, not {framing}"));
            }
        }
    } else if options.seqfile_codec.is_some()
        && options.seqfile_compression.as_deref().unwrap_or("none") == "none"
    {
        return Err(
            "--seqfile-codec needs --seqfile-compression record or block (the output is not \
             compressed otherwise)"
                .to_owned(),
        );
    }
    if framing == Framing::V1 {
        if options.record_type.is_none() && !typed_input {
            return Err(
                "writing v1 needs --record-type TYPE (the type every record is written as)"
                    .to_owned(),
            );
        }
    } else {
        if options.record_type.is_some() && framing != Framing::SeqFile {
            return Err(format!(
                "--record-type applies to v1 and seqfile output, not {framing}"
            ));
        }
        if !options.headers.is_empty() {
            return Err(format!("--header applies to v1 output, not {framing}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "mesos",
            "paddle",
            "paddle-cpp",
            "plasma-text",
            "plasma-fixed:16",
            "plasma-var",
            "seqfile",
            "v1",
        ] {
            assert_eq!(name.parse::<Framing>().unwrap().to_string(), name);
        }
        for bad in [
            "",
            "Mesos",
            "plasma",
            "plasma-fixed",
            "plasma-fixed:0",
            "plasma-fixed:x",
            "v2",
        ] {
            assert!(bad.parse::<Framing>().is_err(), "{bad}");
        }
        assert!(parse_framing("--from", "paddel")
            .unwrap_err()
            .starts_with("--from: unknown framing `paddel` (expected one of mesos,"));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("32MiB"), Ok(32 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        for bad in ["", "K", "1.5M", "12X", "-1", "99999999999999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
