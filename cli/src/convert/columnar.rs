//! `rcc convert --to parquet|arrow|avro` and `--from parquet|arrow|avro`: records of any
//! encoding, plain or framed, to an Apache Parquet, Arrow IPC or Avro container file and
//! back, through `hadoop-record-arrow` (one column per field, as its mapping says; Avro by
//! `hadoop-record-avro`, under the schema `rcc -l avro` writes).

use std::fs::File;
use std::io::{self, BufWriter, Cursor, Read, Seek, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_ipc::reader::FileReader;
use arrow_ipc::writer::FileWriter;
use arrow_schema::{ArrowError, SchemaRef};
use hadoop_record::archive::jute::JuteOptions;
use hadoop_record::framing::plasma::PlasmaFormat;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::Format;
use hadoop_record_arrow::decode::{BatchDecoder, BatchReader, DecodeOptions, DEFAULT_BATCH_SIZE};
use hadoop_record_arrow::encode::{BatchEncoder, EncodeOptions};
use hadoop_record_avro::{AvroCodec, AvroReader, AvroWriter};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::file::properties::WriterProperties;

use super::{
    check_write_options, complete_output, end_records, in_payload, no_framing_options, open_sink,
    open_source, report_end, write_failure, write_flags, Carried, ConvertArgs, ConvertFormat,
    RecordRef, Source, Stop, Writer, OUTPUT_BUFFER,
};
use crate::framing::Framing;
use crate::parquet_out::ParquetFile;
use crate::schema_type::Early;
use crate::storage::{create_output, Output, StorageArgs};
use crate::Context;

/// Parquet, Arrow or Avro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Columnar {
    Parquet,
    Arrow,
    Avro,
}

impl Columnar {
    fn name(self) -> &'static str {
        match self {
            Columnar::Parquet => "Parquet",
            Columnar::Arrow => "Arrow IPC",
            Columnar::Avro => "Avro",
        }
    }

    /// The `--to`/`--from` word.
    fn flag(self) -> &'static str {
        match self {
            Columnar::Parquet => "parquet",
            Columnar::Arrow => "arrow",
            Columnar::Avro => "avro",
        }
    }
}

/// Runs the conversion when `--from` or `--to` is columnar; `None` otherwise.
pub(super) fn convert(
    context: &Context,
    args: &ConvertArgs,
    schema: &Schema,
    id: RecordId,
    writer: Option<&Writer>,
) -> Option<Result<bool, Early>> {
    let columnar = |format| match format {
        ConvertFormat::Parquet => Some(Columnar::Parquet),
        ConvertFormat::Arrow => Some(Columnar::Arrow),
        ConvertFormat::Avro => Some(Columnar::Avro),
        _ => None,
    };
    match (columnar(args.from), columnar(args.to)) {
        (None, None) => None,
        (Some(_), Some(_)) => Some(Err(both_columnar())),
        (None, Some(to)) => Some(to_columnar(context, args, schema, id, writer, to)),
        (Some(from), None) => Some(from_columnar(context, args, schema, id, writer, from)),
    }
}

/// The error of a conversion from columns to columns (Parquet, Arrow, a Delta table).
pub(super) fn both_columnar() -> Early {
    Early::Message(
        "--from and --to are both columnar: convert through records (--to binary), or use a \
         columnar tool"
            .into(),
    )
}

/// Records in, a Parquet or Arrow file out.
fn to_columnar(
    context: &Context,
    args: &ConvertArgs,
    schema: &Schema,
    id: RecordId,
    writer: Option<&Writer>,
    to: Columnar,
) -> Result<bool, Early> {
    if args.out_framing.is_some() {
        return Err(Early::Message(format!(
            "--out-framing does not apply to --to {}: the file is a container of its own",
            to.flag()
        )));
    }
    no_framing_options("--out-framing", &write_flags(&args.write))?;
    args.columnar
        .parquet
        .only_for_parquet(to == Columnar::Parquet)
        .map_err(Early::Message)?;
    let properties = args
        .columnar
        .parquet
        .properties()
        .map_err(|e| Early::Message(format!("--parquet-compression: {e}")))?;
    let avro = match to {
        Columnar::Avro => Some(avro_out(context, args, schema, id)?),
        _ if args.columnar.avro_codec.is_some() => {
            return Err(Early::Message("--avro-codec applies to --to avro".into()))
        }
        _ => None,
    };
    local_only(args.files.output.as_deref(), "written")?;
    args.check_output()?;
    let in_framing = super::in_framing(args)?;
    let source = open_source(context, args, in_framing, (schema, id, writer))?;
    let source = match &avro {
        Some((avsc, codec)) => {
            let record = (schema, id, writer);
            match super::avro_direct::to_avro(context, args, record, source, (avsc, *codec)) {
                Ok(done) => return done,
                Err(source) => *source,
            }
        }
        None => source,
    };
    let schema = Arc::new(schema.clone());
    let decoder = batch_decoder(args, &schema, id)?;
    let format = match (to, avro) {
        (Columnar::Avro, Some(avro)) => FileFormat::Avro(avro),
        (Columnar::Arrow, _) => FileFormat::Arrow,
        _ => FileFormat::Parquet(Box::new(properties)),
    };
    let (mut out, complete) =
        ColumnarWriter::create(args.files.output.as_deref(), format, decoder.schema())?;
    let (mut failure, skipped) = decode_all(source, (&schema, id, writer), args, decoder, |b| {
        out.write(&b)
            .map_err(|e| format!("cannot write {}: {e}", to.name()))
    });
    if let Err(e) = out.finish() {
        failure.get_or_insert(Stop::Failed(format!("cannot write {}: {e}", to.name())));
    }
    complete_output(complete, &mut failure);
    Ok(report_end(context, &skipped, failure))
}

/// What `--to avro` writes: the schema `rcc -l avro` writes for the record type (from
/// its DDL, comments as docs), and the blocks' codec (`--avro-codec`, default deflate).
fn avro_out(
    context: &Context,
    args: &ConvertArgs,
    schema: &Schema,
    id: RecordId,
) -> Result<(String, AvroCodec), Early> {
    let codec = match &args.columnar.avro_codec {
        Some(name) => name
            .parse::<AvroCodec>()
            .map_err(|e| Early::Message(format!("--avro-codec: {e}")))?,
        None => AvroCodec::default(),
    };
    let model = crate::schema_type::load_model(context, &args.schema, &args.include_dirs)?;
    let name = schema.record(id).map(|r| r.full_name()).unwrap_or_default();
    let index = model
        .find(&name)
        .ok_or_else(|| Early::Message(format!("no record {name} in {}", args.schema.display())))?;
    Ok((
        hadoop_record_compiler::backend::avro::schema(&model, index),
        codec,
    ))
}

/// The decoder of records of type `id` into Arrow batches, as `--batch-size`, `--nullable`
/// and `--jute-maxbuffer` say: the Hadoop→Arrow mapping of `--to parquet`.
pub(super) fn batch_decoder(
    args: &ConvertArgs,
    schema: &Arc<Schema>,
    id: RecordId,
) -> Result<BatchDecoder, Early> {
    let options = DecodeOptions::default()
        .with_batch_size(
            args.columnar
                .batch_size
                .map_or(DEFAULT_BATCH_SIZE, |n| n as usize),
        )
        .with_nullable(args.columnar.nullable)
        .with_jute(
            args.jute_maxbuffer
                .map_or_else(JuteOptions::default, |max| {
                    JuteOptions::default().with_max_buffer(max)
                }),
        );
    BatchDecoder::new(schema.clone(), id, options).map_err(|e| Early::Message(e.to_string()))
}

/// Reads every record of `source` (of `record`'s type, written as its writer's) into
/// batches of `decoder`, handed to `out` in order, until the end or a failure (reading,
/// or `out`'s message); answers the failure and what recovery skipped.
pub(super) fn decode_all(
    source: Source,
    record: (&Arc<Schema>, RecordId, Option<&Writer>),
    args: &ConvertArgs,
    decoder: BatchDecoder,
    mut out: impl FnMut(RecordBatch) -> Result<(), String>,
) -> (Option<Stop>, Vec<String>) {
    let (schema, id, writer) = record;
    // Records already read into values (JSON, another writer's type) are decoded from them.
    let by_value = writer.is_some() || args.from == ConvertFormat::Json;
    let mut failure = None;
    let mut skipped = Vec::new();
    let mut feed = |batch: Option<RecordBatch>, failure: &mut Option<Stop>| {
        if let Some(batch) = batch {
            if let Err(message) = out(batch) {
                failure.get_or_insert(Stop::Failed(message));
            }
        }
    };
    match source {
        Source::Stream(reader) if !by_value => {
            let mut batches = BatchReader::from_parts(reader, decoder);
            loop {
                match batches.next_batch() {
                    Ok(Some(batch)) => feed(Some(batch), &mut failure),
                    Ok(None) => break,
                    Err(e) => {
                        failure = Some(Stop::Failed(e.to_string()));
                        break;
                    }
                }
                if failure.is_some() {
                    break;
                }
            }
        }
        Source::Framed {
            mut frames,
            framing,
            format: Some(format),
            mut scratch,
            ..
        } if !by_value => {
            let mut decoder = decoder;
            while failure.is_none() {
                let n = frames.records();
                let payload = match frames.next_payload() {
                    None => break,
                    Some(Err(e)) => {
                        failure = Some(Stop::Failed(format!("damaged {framing} input: {e}")));
                        break;
                    }
                    Some(Ok(payload)) => payload,
                };
                let mut bytes = payload.bytes;
                // plasma-text carries a CSV record without its line end.
                if framing == Framing::Plasma(PlasmaFormat::Text) && format == Format::Csv {
                    scratch.clear();
                    scratch.extend_from_slice(bytes);
                    scratch.push(b'\n');
                    bytes = &scratch;
                }
                if let Err(e) = decoder.decode_payload(bytes, format) {
                    failure = Some(Stop::Failed(in_payload(n, &framing, &e)));
                    break;
                }
                if decoder.is_full() {
                    feed(flush(&mut decoder, &mut failure), &mut failure);
                }
            }
            feed(flush(&mut decoder, &mut failure), &mut failure);
            skipped = frames.skipped();
        }
        mut source => {
            let mut decoder = decoder;
            while failure.is_none() {
                match source.next(schema, id, writer, None) {
                    Ok(Some(record)) => {
                        if let Err(e) = decoder.decode_value(&record.value) {
                            failure = Some(Stop::Failed(e.to_string()));
                        } else if decoder.is_full() {
                            feed(flush(&mut decoder, &mut failure), &mut failure);
                        }
                    }
                    Ok(None) => break,
                    Err(message) => failure = Some(Stop::Failed(message)),
                }
            }
            feed(flush(&mut decoder, &mut failure), &mut failure);
            skipped = source.skipped();
        }
    }
    (failure, skipped)
}

/// The decoder's rows as a batch; a failure is recorded.
fn flush(decoder: &mut BatchDecoder, failure: &mut Option<Stop>) -> Option<RecordBatch> {
    match decoder.flush() {
        Ok(batch) => batch,
        Err(e) => {
            failure.get_or_insert(Stop::Failed(e.to_string()));
            None
        }
    }
}

/// A Parquet or Arrow file in, records out.
fn from_columnar(
    context: &Context,
    args: &ConvertArgs,
    schema: &Schema,
    id: RecordId,
    writer: Option<&Writer>,
    from: Columnar,
) -> Result<bool, Early> {
    let out_framing = check_container_in(args, writer, from.flag())?;
    if args.columnar.avro_codec.is_some() {
        return Err(Early::Message("--avro-codec applies to --to avro".into()));
    }
    local_only(args.files.input.as_deref(), "read")?;
    args.check_output()?;
    if from == Columnar::Avro {
        if let Some(done) = super::avro_direct::from_avro(context, args, (schema, id), out_framing)
        {
            return done;
        }
    }
    let batch_size = args
        .columnar
        .batch_size
        .map_or(DEFAULT_BATCH_SIZE, |n| n as usize);
    let input = args.files.input.as_deref();
    // Avro is read into the record type's own columns (the file's schema resolved to it).
    let record_columns = match from {
        Columnar::Avro => Some(batch_decoder(args, &Arc::new(schema.clone()), id)?.schema()),
        _ => None,
    };
    let reader = ColumnarReader::open(input, from, batch_size, record_columns)?;
    let file = input.map_or("standard input".into(), |p| p.display().to_string());
    let columns = reader.schema();
    let source = (file.as_str(), from.name(), columns);
    let batches = reader;
    encode_all(context, args, (schema, id), out_framing, source, batches)
}

/// Checks the options of a conversion from a file or table of columns (`--from parquet`,
/// `arrow`, `delta`, named `from`): no input framing, no writer's type, the output
/// framing's options; answers the output framing.
pub(super) fn check_container_in(
    args: &ConvertArgs,
    writer: Option<&Writer>,
    from: &str,
) -> Result<Option<Framing>, Early> {
    if args.in_framing.is_some() {
        return Err(Early::Message(format!(
            "--in-framing does not apply to --from {from}: it is a container of its own"
        )));
    }
    if args.key_type.is_some() {
        return Err(Early::Message(format!(
            "--key-type applies to SequenceFile input, not to --from {from}"
        )));
    }
    if writer.is_some() || args.jute_maxbuffer.is_some() {
        return Err(Early::Message(format!(
            "--writer-schema, --writer-type and --jute-maxbuffer apply to record input, not \
             to --from {from}"
        )));
    }
    args.columnar
        .parquet
        .only_for_parquet(false)
        .map_err(Early::Message)?;
    let out_framing = args
        .out_framing
        .as_deref()
        .map(|name| super::parse_framing("--out-framing", name))
        .transpose()?;
    check_write_options(args, out_framing, false)?;
    Ok(out_framing)
}

/// Writes the rows of `batches` as records of `record`'s type, as `--to` and
/// `--out-framing` say. `source` names where the batches come from (a file's name, what
/// it is) and their columns, which are checked against the type, by name, before the
/// output is made. On a failure the records so far are written (a file is not committed),
/// then the error; true when all went well.
pub(super) fn encode_all(
    context: &Context,
    args: &ConvertArgs,
    record: (&Schema, RecordId),
    out_framing: Option<Framing>,
    source: (&str, &str, SchemaRef),
    batches: impl Iterator<Item = Result<RecordBatch, String>>,
) -> Result<bool, Early> {
    let ((schema, id), (file, what, columns)) = (record, source);
    let schema = Arc::new(schema.clone());
    let encoder = BatchEncoder::new(
        schema.clone(),
        id,
        EncodeOptions::default().with_nullable(args.columnar.nullable),
    )
    .map_err(|e| Early::Message(e.to_string()))?;
    // The encoder checked the id.
    let type_name = schema.record(id).map(|r| r.full_name()).unwrap_or_default();
    // The columns are checked before anything is written.
    encoder
        .prepare(&RecordBatch::new_empty(columns))
        .map_err(|e| {
            Early::Message(format!(
                "{file}: the {what} columns are not those of {type_name}: {e}"
            ))
        })?;
    let (mut sink, complete) = open_sink(args, out_framing, None, None, false)?;
    let mut failure = None;
    let mut records = 0u64;
    'batches: for batch in batches {
        let rows = match batch.and_then(|b| encoder.prepare(&b).map_err(|e| e.to_string())) {
            Ok(rows) => rows,
            Err(e) => {
                failure = Some(Stop::Failed(format!("{file}: {e}")));
                break;
            }
        };
        for row in 0..rows.num_rows() {
            let record = RecordRef::Row(&rows, row);
            if let Err(e) = sink.write(&schema, id, record, Carried::default(), records) {
                failure = Some(write_failure(&e, records, args.to.name()));
                break 'batches;
            }
            records += 1;
        }
    }
    Ok(end_records(
        context,
        args,
        (sink, complete),
        records,
        failure,
        &[],
    ))
}

/// A sink that may go to another thread (Parquet's writer wants one).
type Buffered = BufWriter<Box<dyn Write + Send>>;

/// What a columnar file is written as.
enum FileFormat {
    Parquet(Box<WriterProperties>),
    Arrow,
    /// The Avro schema (`rcc -l avro`'s) and the blocks' codec.
    Avro((String, AvroCodec)),
}

/// A Parquet, Arrow IPC or Avro file being written.
enum ColumnarWriter {
    Parquet(Box<ParquetFile<Buffered>>),
    Arrow(Box<FileWriter<Buffered>>),
    Avro(Box<AvroWriter<Buffered>>),
}

impl ColumnarWriter {
    /// The writer of `path` (local, or standard output) in `format`, and the [`Output`]
    /// that makes the file appear once it is finished.
    fn create(
        path: Option<&Path>,
        format: FileFormat,
        schema: SchemaRef,
    ) -> Result<(Self, Output), Early> {
        let (out, complete) = create_output(path, &StorageArgs::default())?;
        let out = BufWriter::with_capacity(OUTPUT_BUFFER, out);
        let failed = |what: &str, e: &dyn std::fmt::Display| format!("cannot write {what}: {e}");
        let writer = match format {
            FileFormat::Parquet(properties) => {
                ColumnarWriter::Parquet(Box::new(ParquetFile::new(out, &schema, *properties)))
            }
            FileFormat::Arrow => ColumnarWriter::Arrow(Box::new(
                FileWriter::try_new(out, &schema).map_err(|e| failed("Arrow IPC", &e))?,
            )),
            FileFormat::Avro((avsc, codec)) => ColumnarWriter::Avro(Box::new(
                AvroWriter::new(out, &avsc, schema, codec).map_err(|e| failed("Avro", &e))?,
            )),
        };
        Ok((writer, complete))
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        match self {
            ColumnarWriter::Parquet(w) => w.write(batch),
            ColumnarWriter::Arrow(w) => w.write(batch).map_err(|e| e.to_string()),
            ColumnarWriter::Avro(w) => w.write(batch).map_err(|e| e.to_string()),
        }
    }

    /// Ends the file (its footer), also after a failure: on standard output the rows so far
    /// stay readable (a file is not committed then).
    fn finish(self) -> Result<(), String> {
        match self {
            ColumnarWriter::Parquet(w) => w
                .finish()
                .and_then(|mut out| out.flush().map_err(|e| e.to_string())),
            ColumnarWriter::Arrow(mut w) => {
                w.finish().map_err(|e| e.to_string())?;
                w.into_inner()
                    .map_err(|e| e.to_string())
                    .and_then(|mut out| out.flush().map_err(|e| e.to_string()))
            }
            ColumnarWriter::Avro(w) => w
                .finish()
                .map_err(|e| e.to_string())
                .and_then(|mut out| out.flush().map_err(|e| e.to_string())),
        }
    }
}

/// Something an Arrow IPC file can be read from.
trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// The batches of a Parquet, Arrow IPC or Avro file.
enum ColumnarReader {
    Parquet(ParquetRecordBatchReader),
    Arrow(FileReader<Box<dyn ReadSeek>>),
    Avro(Box<AvroReader<Box<dyn Read>>>),
}

impl ColumnarReader {
    /// Opens `path` (`None` or `-`: standard input, read whole for Parquet and Arrow,
    /// which begin at the end of the file); Avro into `record_columns`, the record type's.
    fn open(
        path: Option<&Path>,
        from: Columnar,
        batch_size: usize,
        record_columns: Option<SchemaRef>,
    ) -> Result<Self, Early> {
        guarded(|| {
            Self::open_unguarded(path, from, batch_size, record_columns).map_err(|e| match e {
                Early::Message(m) => m,
                Early::Reported => String::new(),
            })
        })
        .map_err(Early::Message)
    }

    fn open_unguarded(
        path: Option<&Path>,
        from: Columnar,
        batch_size: usize,
        record_columns: Option<SchemaRef>,
    ) -> Result<Self, Early> {
        let name = path.map_or("standard input".into(), |p| p.display().to_string());
        let bad = |e: &dyn std::fmt::Display| {
            format!("{name} is not a readable {} file: {e}", from.name())
        };
        let file = match path {
            Some(p) if p != Path::new("-") => {
                Some(File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?)
            }
            _ => None,
        };
        let whole = || {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map(|_| bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))
        };
        Ok(match from {
            Columnar::Parquet => {
                let builder = match file {
                    Some(f) => ParquetRecordBatchReaderBuilder::try_new(f),
                    None => {
                        let bytes = bytes::Bytes::from(whole()?);
                        return ParquetRecordBatchReaderBuilder::try_new(bytes)
                            .and_then(|b| b.with_batch_size(batch_size).build())
                            .map(ColumnarReader::Parquet)
                            .map_err(|e| Early::Message(bad(&e)));
                    }
                };
                ColumnarReader::Parquet(
                    builder
                        .and_then(|b| b.with_batch_size(batch_size).build())
                        .map_err(|e| bad(&e))?,
                )
            }
            Columnar::Arrow => {
                let input: Box<dyn ReadSeek> = match file {
                    Some(f) => Box::new(f),
                    None => Box::new(Cursor::new(whole()?)),
                };
                ColumnarReader::Arrow(
                    hadoop_record_arrow::ipc::open_file(input).map_err(|e| bad(&e))?,
                )
            }
            Columnar::Avro => {
                let input: Box<dyn Read> = match file {
                    Some(f) => Box::new(f),
                    None => Box::new(io::stdin()),
                };
                let columns = record_columns.expect("Avro is read into the record's columns");
                let reader = AvroReader::new(input, columns, batch_size)
                    .map_err(|e| format!("{name}: {e}"))?;
                ColumnarReader::Avro(Box::new(reader))
            }
        })
    }

    fn schema(&self) -> SchemaRef {
        match self {
            ColumnarReader::Parquet(r) => r.schema(),
            ColumnarReader::Arrow(r) => r.schema(),
            ColumnarReader::Avro(r) => r.schema(),
        }
    }
}

impl Iterator for ColumnarReader {
    /// A batch, or what went wrong, for people.
    type Item = Result<RecordBatch, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let arrow = |next: Option<Result<RecordBatch, ArrowError>>| {
            next.map(|b| b.map_err(|e| hadoop_record_arrow::Error::from(e).to_string()))
        };
        let next = guarded(|| {
            Ok(match self {
                ColumnarReader::Parquet(r) => arrow(r.next()),
                ColumnarReader::Arrow(r) => arrow(r.next()),
                // Our own reader: its errors name the block and offset, and it does not
                // panic on damaged input.
                ColumnarReader::Avro(r) => r.next().map(|b| b.map_err(|e| e.to_string())),
            })
        });
        next.unwrap_or_else(|e| Some(Err(e)))
    }
}

/// Runs `f`, a call into arrow-rs's Parquet or IPC reader, with a panic (their reaction to
/// some damaged files, e.g. an unknown type in an IPC schema) turned into an error instead
/// of a crash.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(hook);
    result.unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("the file is damaged (its reader gave up: {why})"))
    })
}

/// Refuses a Parquet, Arrow or Avro file named by URL: those are read and written as
/// local files (`rcc sql --to parquet` reads records from HDFS or S3).
fn local_only(path: Option<&std::path::Path>, how: &str) -> Result<(), Early> {
    match path.and_then(crate::storage::url_of) {
        Some(url) => Err(Early::Message(format!(
            "{url}: Parquet, Arrow and Avro files are {how} as local files only; copy them to \
             or from HDFS or S3 with the store's own tools"
        ))),
        None => Ok(()),
    }
}
