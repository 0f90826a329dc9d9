//! `rcc convert --to avro` from Hadoop binary records, and `--from avro --to binary` of a
//! file under the record type's own schema: straight between the two encodings, value by
//! value (`hadoop_record_avro::Transcoder`), without the Arrow batches of the columnar way,
//! which stays the way of everything else (other encodings, a writer's type, schema
//! resolution, maps). Both ways write the same bytes.

use std::fs::File;
use std::io::{BufWriter, Cursor, Read};
use std::path::Path;
use std::sync::Arc;

use hadoop_record::archive::binary::RawInput;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{ErrorKind, Format, RecordReader, RecordWriter};
use hadoop_record_arrow::decode::BatchDecoder;
use hadoop_record_avro::{AvroCodec, AvroRecordReader, AvroRecordWriter, Transcoder};

use super::columnar::batch_decoder;
use super::{
    complete_output, end_records, in_payload, open_sink, report_end, write_failure, Carried,
    ConvertArgs, ConvertFormat, RecordRef, Source, Stop, Writer, OUTPUT_BUFFER,
};
use crate::framing::{FrameReader, Framing, PeekedInput};
use crate::schema_type::Early;
use crate::storage::{create_output, StorageArgs};
use crate::Context;

/// Bytes of a plain input read at a time.
const CHUNK: usize = 1 << 20;
/// A record that needs more than this much of a plain input (a long one, or a damaged
/// length) is read by the streaming reader, which holds no more than the record's values.
const MOST_BUFFERED: usize = 64 << 20;

/// Writes the records of `source` to the `--to avro` file under `avsc`, directly, when they
/// are Hadoop binary of the record type itself (plain or framed) and the type has a
/// [`Transcoder`]; gives `source` back otherwise, untouched.
pub(super) fn to_avro(
    context: &Context,
    args: &ConvertArgs,
    record: (&Schema, RecordId, Option<&Writer>),
    source: Source,
    avro: (&str, AvroCodec),
) -> Result<Result<bool, Early>, Box<Source>> {
    let (schema, id, writer) = record;
    if writer.is_some() || args.from != ConvertFormat::Binary {
        return Err(Box::new(source));
    }
    let Ok(transcoder) = Transcoder::new(avro.0, schema, id) else {
        return Err(Box::new(source));
    };
    let records = match source {
        Source::Stream(reader)
            if reader.format() == Format::Binary && reader.records_read() == 0 =>
        {
            Records::Plain(reader.into_inner())
        }
        Source::Framed {
            frames,
            framing,
            format: Some(Format::Binary),
            ..
        } => Records::Framed(frames, framing),
        source => return Err(Box::new(source)),
    };
    // What the columnar way decodes with: made as it makes it (its options checked), for
    // the error of a payload that is not one record.
    let decoder = match batch_decoder(args, &Arc::new(schema.clone()), id) {
        Ok(decoder) => decoder,
        Err(e) => return Ok(Err(e)),
    };
    let record = (schema, id);
    Ok(write_avro(
        context,
        args,
        record,
        records,
        (&transcoder, avro.1),
        decoder,
    ))
}

/// Hadoop binary records the direct way takes.
enum Records {
    /// Back to back (nothing of them read yet).
    Plain(PeekedInput),
    /// One a payload.
    Framed(Box<FrameReader<Box<dyn Read>>>, Framing),
}

fn write_avro(
    context: &Context,
    args: &ConvertArgs,
    record: (&Schema, RecordId),
    records: Records,
    (transcoder, codec): (&Transcoder, AvroCodec),
    decoder: BatchDecoder,
) -> Result<bool, Early> {
    let (out, complete) = create_output(args.files.output.as_deref(), &StorageArgs::default())?;
    let out = BufWriter::with_capacity(OUTPUT_BUFFER, out);
    let mut writer = AvroRecordWriter::new(out, transcoder, codec)
        .map_err(|e| Early::Message(format!("cannot write Avro: {e}")))?;
    let mut skipped = Vec::new();
    let mut failure = match records {
        Records::Plain(input) => plain(input, &mut writer, record).err(),
        Records::Framed(mut frames, framing) => {
            let failed = framed(&mut frames, framing, &mut writer, decoder).err();
            skipped = frames.skipped();
            failed
        }
    }
    .map(Stop::Failed);
    // Ends the file also after a failure: on standard output the records so far stay
    // readable (a file is not committed then).
    if let Err(e) = writer.finish() {
        failure.get_or_insert(Stop::Failed(format!("cannot write Avro: {e}")));
    }
    complete_output(complete, &mut failure);
    Ok(report_end(context, &skipped, failure))
}

/// Records back to back: read a chunk at a time and transcoded from memory. A record cut by
/// the chunk's end is read again once the next chunk is in; one that cannot be (damaged, or
/// longer than [`MOST_BUFFERED`]) and the rest go through [`streamed`], whose errors are the
/// record reader's.
fn plain<W: std::io::Write>(
    mut input: impl Read,
    writer: &mut AvroRecordWriter<W>,
    record: (&Schema, RecordId),
) -> Result<(), String> {
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK);
    let (mut base, mut records, mut eof) = (0u64, 0u64, false);
    loop {
        let mut input_at = RawInput::new(&buf);
        let mut done = 0;
        let mut stuck = None;
        while !input_at.remaining().is_empty() {
            match writer.write_record(&mut input_at) {
                Ok(()) => {
                    done = input_at.offset();
                    records += 1;
                }
                Err(hadoop_record_avro::Error::Record(e)) => {
                    stuck = Some(e.kind());
                    break;
                }
                Err(e) => return Err(format!("cannot write Avro: {e}")),
            }
        }
        buf.drain(..done);
        base += done as u64;
        let more = stuck.is_none_or(|kind| kind == ErrorKind::UnexpectedEof);
        if stuck.is_some() && (!more || eof || buf.len() >= MOST_BUFFERED) {
            let rest = Cursor::new(std::mem::take(&mut buf)).chain(input);
            return streamed(rest, writer, record, base, records);
        }
        if eof {
            return Ok(());
        }
        let want = CHUNK.max(buf.len());
        let read = (&mut input)
            .take(want as u64)
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read the input: {e}"))?;
        eof = read == 0;
    }
}

/// The rest of a plain input, starting at byte `base` with record `records`, read by the
/// record reader one value at a time: its errors, placed in the whole input.
fn streamed<W: std::io::Write>(
    rest: impl Read,
    writer: &mut AvroRecordWriter<W>,
    (schema, id): (&Schema, RecordId),
    base: u64,
    records: u64,
) -> Result<(), String> {
    let mut reader = RecordReader::new(rest, Format::Binary).numbered_from(records);
    let mut bytes = Vec::new();
    loop {
        let value = match reader.read_value(schema, id) {
            Ok(Some(value)) => value,
            Ok(None) => return Ok(()),
            Err(e) => return Err(e.shifted(base).to_string()),
        };
        bytes.clear();
        let mut encoder = RecordWriter::new(&mut bytes, Format::Binary);
        encoder
            .write_value(schema, id, &value)
            .and_then(|()| encoder.flush())
            .map_err(|e| e.to_string())?;
        drop(encoder);
        writer
            .write_record(&mut RawInput::new(&bytes))
            .map_err(|e| format!("cannot write Avro: {e}"))?;
    }
}

/// One record per payload.
fn framed<W: std::io::Write>(
    frames: &mut FrameReader<Box<dyn Read>>,
    framing: Framing,
    writer: &mut AvroRecordWriter<W>,
    mut decoder: BatchDecoder,
) -> Result<(), String> {
    loop {
        let n = frames.records();
        let payload = match frames.next_payload() {
            None => return Ok(()),
            Some(Err(e)) => return Err(format!("damaged {framing} input: {e}")),
            Some(Ok(payload)) => payload,
        };
        match writer.write_payload(payload.bytes) {
            Ok(()) => continue,
            Err(hadoop_record_avro::Error::Record(_)) => {}
            Err(e) => return Err(format!("cannot write Avro: {e}")),
        }
        // Not one sound record: the error the columnar way gives for it.
        return Err(
            match decoder.decode_payload(payload.bytes, Format::Binary) {
                Err(e) => in_payload(n, &framing, &e),
                Ok(()) => format!("record {n}: not one record of the type"),
            },
        );
    }
}

/// Reads the `--from avro` file as Hadoop binary records for `--to binary`, directly, when
/// its schema is the record type's own; `None` otherwise (standard input too, which cannot
/// be read twice), for the columnar way, which reports what is wrong with the file.
pub(super) fn from_avro(
    context: &Context,
    args: &ConvertArgs,
    record: (&Schema, RecordId),
    out_framing: Option<Framing>,
) -> Option<Result<bool, Early>> {
    if args.to != ConvertFormat::Binary {
        return None;
    }
    let path = args
        .files
        .input
        .as_deref()
        .filter(|p| *p != Path::new("-"))?;
    let reader = match AvroRecordReader::new(File::open(path).ok()?, record.0, record.1) {
        Ok(reader) => reader,
        Err(hadoop_record_avro::Error::Schema(_)) => return None,
        Err(e) => return Some(Err(Early::Message(format!("{}: {e}", path.display())))),
    };
    let name = path.display().to_string();
    Some(read_avro(
        context,
        args,
        record,
        out_framing,
        (&name, reader),
    ))
}

fn read_avro(
    context: &Context,
    args: &ConvertArgs,
    (schema, id): (&Schema, RecordId),
    out_framing: Option<Framing>,
    (name, mut reader): (&str, AvroRecordReader<File>),
) -> Result<bool, Early> {
    let (mut sink, complete) = open_sink(args, out_framing, None, None, false)?;
    let mut failure = None;
    let mut records = 0u64;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match reader.read_record(&mut bytes) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                failure = Some(Stop::Failed(format!("{name}: {e}")));
                break;
            }
        }
        let record = RecordRef::Binary(&bytes);
        if let Err(e) = sink.write(schema, id, record, Carried::default(), records) {
            failure = Some(write_failure(&e, records, args.to.name()));
            break;
        }
        records += 1;
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
