//! `write`: Arrow data (anything with `__arrow_c_stream__`) to a file of records, in any
//! encoding and framing, byte for byte what `rcc convert` writes for the same records and
//! options: columns encoded by `hadoop-record-arrow`'s `BatchEncoder`, payloads framed by
//! the runtime's writers with `rcc`'s defaults.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use arrow_array::ffi_stream::ArrowArrayStreamReader;
use arrow_array::{Array, RecordBatch, RecordBatchReader, StructArray};
use arrow_schema::ArrowError;
use hadoop_record::archive::FloatText;
use hadoop_record::framing::mesos::MesosWriter;
use hadoop_record::framing::paddle::{Layout, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::plasma::{FixedWriter, TextWriter, VarWriteOptions, VarWriter};
use hadoop_record::framing::seqfile::{PayloadKey, SeqWriteOptions, SeqWriter};
use hadoop_record::framing::split::Framing;
use hadoop_record::framing::v1::{FileHeader, V1WriteOptions, V1Writer};
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::json::write_json;
use hadoop_record::{Format, RecordWriter};
use hadoop_record_arrow::encode::{BatchEncoder, EncodeOptions, Rows};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::capsule::import_stream;
use crate::errors::{from_record, record_error, Facts};
use crate::keyed::KEY;
use crate::options::{self, resolve, Encoding};
use crate::storage;

/// How the output is framed, checked before the file is created.
#[derive(Debug, Clone)]
enum Plan {
    None,
    Mesos,
    Paddle(PaddleWriteOptions),
    PlasmaText,
    PlasmaFixed(usize),
    PlasmaVar(VarWriteOptions),
    V1(String),
    /// The options, and whether the keys are records of the `key` column.
    SeqFile(SeqWriteOptions, bool),
}

/// The framing options of `write`, as `rcc convert --out-framing` takes them.
struct FramingArgs<'a> {
    framing: Option<&'a str>,
    compression: Option<&'a str>,
    chunk_size: Option<u64>,
    chunk_records: Option<u32>,
    record_type: Option<&'a str>,
    seqfile_compression: &'a str,
    seqfile_codec: Option<&'a str>,
    seqfile_key: Option<&'a str>,
    /// The key class of a SequenceFile whose keys are records (the `key` column).
    key_type: Option<&'a str>,
    /// The value class of a SequenceFile: the record type as given.
    type_name: &'a str,
}

impl FramingArgs<'_> {
    fn plan(&self) -> Result<Plan, String> {
        let name = self.framing.unwrap_or("none");
        let framing: Framing = name
            .parse()
            .map_err(|e: hadoop_record::Error| e.message().to_owned())?;
        let refuse = |option: &str, applies: &str| {
            Err(format!("{option}= applies to {applies} output, not {name}"))
        };
        let chunked = matches!(framing, Framing::Paddle(_) | Framing::PlasmaVar(_));
        if self.compression.is_some() && !chunked {
            return refuse("compression", "paddle, paddle-cpp and plasma-var");
        }
        if self.chunk_size.is_some() && !chunked {
            return refuse("chunk_size", "paddle, paddle-cpp and plasma-var");
        }
        if self.chunk_records.is_some() && !matches!(framing, Framing::Paddle(_)) {
            return refuse("chunk_records", "paddle and paddle-cpp");
        }
        let seqfile = matches!(framing, Framing::SeqFile(_));
        if !seqfile {
            if self.seqfile_compression != "none" {
                return refuse("seqfile_compression", "seqfile");
            }
            if self.seqfile_codec.is_some() {
                return refuse("seqfile_codec", "seqfile");
            }
            if self.seqfile_key.is_some() {
                return refuse("seqfile_key", "seqfile");
            }
            if self.key_type.is_some() {
                return refuse("key_type", "seqfile (the only framing with keys)");
            }
        }
        if self.record_type.is_some() && !matches!(framing, Framing::V1(_) | Framing::SeqFile(_)) {
            return refuse("record_type", "v1 and seqfile");
        }
        Ok(match framing {
            Framing::None => Plan::None,
            Framing::Mesos(_) => Plan::Mesos,
            Framing::Paddle(read) => {
                let mut o = match read.layout() {
                    Layout::Cpp => PaddleWriteOptions::cpp(),
                    _ => PaddleWriteOptions::default(),
                };
                if let Some(c) = self.compression {
                    o = o.with_compressor(c.parse().map_err(|e: hadoop_record::Error| {
                        format!("compression: {}", e.message())
                    })?);
                }
                if let Some(size) = self.chunk_size {
                    o = o.with_max_chunk_size(size);
                }
                if self.chunk_records.is_some() {
                    o = o.with_max_chunk_records(self.chunk_records);
                }
                Plan::Paddle(o)
            }
            Framing::PlasmaText(_) => Plan::PlasmaText,
            Framing::PlasmaFixed(n) => Plan::PlasmaFixed(n),
            Framing::PlasmaVar(_) => {
                let mut o = VarWriteOptions::default();
                if let Some(c) = self.compression {
                    o = o.with_compression(c.parse().map_err(|e: hadoop_record::Error| {
                        format!("compression: {}", e.message())
                    })?);
                }
                if let Some(size) = self.chunk_size {
                    o =
                        o.with_chunk_size(u32::try_from(size).map_err(|_| {
                            format!("chunk_size: {size} is too large for plasma-var")
                        })?);
                }
                Plan::PlasmaVar(o)
            }
            Framing::V1(_) => {
                let t = self
                    .record_type
                    .ok_or("writing v1 needs record_type= (the type every record is written as)")?;
                hadoop_record::framing::v1::check_record_type(t)
                    .map_err(|e| format!("record_type: {}", e.message()))?;
                Plan::V1(t.to_owned())
            }
            Framing::SeqFile(_) => {
                let class = self.record_type.unwrap_or(self.type_name);
                let mut o = SeqWriteOptions::new(class).with_compression(
                    self.seqfile_compression
                        .parse()
                        .map_err(|e: hadoop_record::Error| {
                            format!("seqfile_compression: {}", e.message())
                        })?,
                );
                if let Some(codec) = self.seqfile_codec {
                    if self.seqfile_compression == "none" {
                        return Err(
                            "seqfile_codec needs seqfile_compression='record' or 'block' \
                                    (the output is not compressed otherwise)"
                                .into(),
                        );
                    }
                    o = o.with_codec(codec.parse().map_err(|e: hadoop_record::Error| {
                        format!("seqfile_codec: {}", e.message())
                    })?);
                }
                if let Some(class) = self.key_type {
                    if self.seqfile_key.is_some() {
                        return Err(
                            "seqfile_key= and key_type= both say what the keys are: give one"
                                .into(),
                        );
                    }
                    o = o.with_key_class(class);
                }
                match self.seqfile_key {
                    None | Some("null") => {}
                    Some("long") => o = o.with_payload_key(PayloadKey::RecordNumber),
                    Some(other) => {
                        return Err(format!(
                            "unknown seqfile_key `{other}` (expected null or long)"
                        ))
                    }
                }
                Plan::SeqFile(o, self.key_type.is_some())
            }
            _ => return Err(format!("cannot write {name}")),
        })
    }
}

/// The file written: local, or an upload that a commit completes.
type Out = Box<dyn Write + Send>;

/// A `Vec<u8>` that a record writer appends to and the framing takes each record from.
#[derive(Clone, Default)]
struct Payload(Rc<RefCell<Vec<u8>>>);

impl Write for Payload {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Frames payloads: any framing's writer, or v1's with its one record type.
enum Frames {
    Plain(Box<dyn FrameWrite>),
    V1(V1Writer<BufWriter<Out>>, String),
    /// A SequenceFile whose keys are records, encoded by the writer beside it.
    Keyed(
        Box<SeqWriter<BufWriter<Out>>>,
        RecordWriter<Payload>,
        Payload,
    ),
}

/// Where records go.
enum Sink {
    /// Records back to back.
    Stream(RecordWriter<BufWriter<Out>>),
    /// JSON, one record per line.
    JsonLines(BufWriter<Out>, Vec<u8>),
    /// One record per payload; the record writer is `None` for JSON.
    Framed {
        writer: Option<RecordWriter<Payload>>,
        payload: Payload,
        frames: Frames,
        strip_line_end: bool,
    },
}

impl Sink {
    /// The sink of `encoding` in `plan`'s framing, floats in CSV and XML as `float_text`
    /// says.
    fn open(
        file: Out,
        plan: Plan,
        encoding: Encoding,
        float_text: FloatText,
    ) -> hadoop_record::Result<Self> {
        let out = BufWriter::with_capacity(1 << 20, file);
        // plasma-text ends each record with LF itself: a CSV record gives its own up.
        let strip_line_end =
            matches!(plan, Plan::PlasmaText) && encoding == Encoding::Records(Format::Csv);
        let frames = match plan {
            Plan::None => {
                return Ok(match encoding {
                    Encoding::Records(format) => {
                        Sink::Stream(RecordWriter::new(out, format).with_float_text(float_text))
                    }
                    Encoding::Json => Sink::JsonLines(out, Vec::new()),
                })
            }
            Plan::Mesos => Frames::Plain(Box::new(MesosWriter::new(out))),
            Plan::Paddle(o) => Frames::Plain(Box::new(PaddleWriter::with_options(out, o))),
            Plan::PlasmaText => Frames::Plain(Box::new(TextWriter::new(out))),
            Plan::PlasmaFixed(n) => Frames::Plain(Box::new(FixedWriter::new(out, n)?)),
            Plan::PlasmaVar(o) => Frames::Plain(Box::new(VarWriter::new(out, o)?)),
            Plan::SeqFile(o, false) => Frames::Plain(Box::new(SeqWriter::new(out, o))),
            Plan::SeqFile(o, true) => {
                let keys = Payload::default();
                let writer = RecordWriter::new(keys.clone(), Format::Binary);
                Frames::Keyed(Box::new(SeqWriter::new(out, o)), writer, keys)
            }
            Plan::V1(t) => {
                let options = V1WriteOptions::default().with_strict_keys(false);
                Frames::V1(V1Writer::new(out, FileHeader::new(), options)?, t)
            }
        };
        let payload = Payload::default();
        let writer = match encoding {
            Encoding::Records(format) => {
                Some(RecordWriter::new(payload.clone(), format).with_float_text(float_text))
            }
            Encoding::Json => None,
        };
        Ok(Sink::Framed {
            writer,
            payload,
            frames,
            strip_line_end,
        })
    }

    /// Writes row `row` of `rows` as one record (its key that row of `keys`).
    fn write(
        &mut self,
        schema: &Schema,
        id: RecordId,
        rows: &Rows,
        keys: Option<&Rows>,
        row: usize,
    ) -> hadoop_record::Result<()> {
        match self {
            Sink::Stream(writer) => rows.write_to(row, writer),
            Sink::JsonLines(out, line) => {
                line.clear();
                write_json(line, schema, &FieldType::Record(id), &rows.value(row)?)?;
                line.push(b'\n');
                Ok(out.write_all(line)?)
            }
            Sink::Framed {
                writer,
                payload,
                frames,
                strip_line_end,
            } => {
                match writer {
                    Some(writer) => {
                        rows.write_to(row, writer)?;
                        writer.flush()?;
                    }
                    None => {
                        let value = rows.value(row)?;
                        write_json(
                            &mut payload.0.borrow_mut(),
                            schema,
                            &FieldType::Record(id),
                            &value,
                        )?;
                    }
                }
                let bytes = std::mem::take(&mut *payload.0.borrow_mut());
                let framed = match &bytes[..] {
                    [rest @ .., b'\n'] if *strip_line_end => rest,
                    all => all,
                };
                let result = match frames {
                    Frames::Plain(w) => w.write_payload(framed),
                    Frames::V1(w, t) => w.write_record(t, framed),
                    Frames::Keyed(w, key_writer, key) => {
                        let keys = keys.expect("a keyed sink is given keys");
                        keys.write_to(row, key_writer)
                            .map_err(|e| e.in_field("key"))?;
                        key_writer.flush()?;
                        let key = std::mem::take(&mut *key.0.borrow_mut());
                        w.append(&key, framed)
                    }
                };
                // The allocation serves the next record.
                let mut reuse = bytes;
                reuse.clear();
                *payload.0.borrow_mut() = reuse;
                result
            }
        }
    }

    fn finish(&mut self) -> hadoop_record::Result<()> {
        match self {
            Sink::Stream(writer) => writer.flush(),
            Sink::JsonLines(out, _) => Ok(out.flush()?),
            Sink::Framed { frames, .. } => match frames {
                Frames::Plain(w) => w.finish(),
                Frames::V1(w, _) => w.finish(),
                Frames::Keyed(w, ..) => w.finish(),
            },
        }
    }
}

/// Why writing stopped.
enum Failure {
    /// The input stream failed.
    Input(ArrowError),
    /// A batch's columns do not fit the record type (row `n` of the output is the first
    /// of the batch).
    Columns(u64, hadoop_record_arrow::Error),
    /// Record `n` could not be written.
    Record(u64, hadoop_record::Error),
    /// The file could not be written.
    Io(hadoop_record::Error),
}

/// The encoders of the values and the keys, and the value's record type.
#[derive(Clone, Copy)]
struct Encoders<'a> {
    values: &'a BatchEncoder,
    keys: Option<&'a BatchEncoder>,
    schema: &'a Schema,
    id: RecordId,
}

/// Writes the rows of `batches` to `file`; returns the records written.
fn write_rows(
    batches: &mut ArrowArrayStreamReader,
    file: Out,
    plan: Plan,
    (encoding, float_text): (Encoding, FloatText),
    encoders: &Encoders<'_>,
) -> Result<u64, Failure> {
    let Encoders {
        values: encoder,
        keys: key_encoder,
        schema,
        id,
    } = *encoders;
    let mut sink = Sink::open(file, plan, encoding, float_text).map_err(Failure::Io)?;
    let mut written = 0u64;
    let mut failure = None;
    'batches: for batch in batches {
        let prepared = batch.map_err(Failure::Input).and_then(|b| {
            let columns = |e| Failure::Columns(written, e);
            match key_encoder {
                None => Ok((encoder.prepare(&b).map_err(columns)?, None)),
                Some(keys) => {
                    let (key, values) = split_key(&b).map_err(Failure::Input)?;
                    let values = encoder.prepare(&values).map_err(columns)?;
                    Ok((values, Some(keys.prepare(&key).map_err(columns)?)))
                }
            }
        });
        let (rows, keys) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                failure = Some(e);
                break;
            }
        };
        for row in 0..rows.num_rows() {
            if let Err(e) = sink.write(schema, id, &rows, keys.as_ref(), row) {
                failure = Some(Failure::Record(written, e));
                break 'batches;
            }
            written += 1;
        }
    }
    // Finished after a failure too (what is pending flushed), as rcc convert does; the
    // caller commits the file only without one.
    let finished = sink.finish();
    match (failure, finished) {
        (Some(f), _) => Err(f),
        (None, Err(e)) => Err(Failure::Io(e)),
        (None, Ok(())) => Ok(written),
    }
}

/// `batch`'s `key` column as a batch of its own, and the other columns.
fn split_key(batch: &RecordBatch) -> Result<(RecordBatch, RecordBatch), ArrowError> {
    let index = batch.schema().index_of(KEY)?;
    let key = batch
        .column(index)
        .as_any()
        .downcast_ref::<StructArray>()
        .ok_or_else(|| ArrowError::SchemaError(format!("the `{KEY}` column is not a struct")))?;
    let mut values = batch.clone();
    values.remove_column(index);
    Ok((RecordBatch::from(key.clone()), values))
}

/// Writes Arrow data as a file of records; returns the number of records written.
#[pyfunction]
#[pyo3(signature = (
    data, path, schema, r#type, encoding="binary", framing=None, seqfile_compression="none",
    seqfile_codec=None, *, include=None, compression=None, chunk_size=None, chunk_records=None,
    record_type=None, seqfile_key=None, key_type=None, key_schema=None, nullable=false,
    s3_endpoint=None, float_text=None
))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments
pub(crate) fn write(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    path: PathBuf,
    schema: &Bound<'_, PyAny>,
    r#type: &str,
    encoding: &str,
    framing: Option<&str>,
    seqfile_compression: &str,
    seqfile_codec: Option<&str>,
    include: Option<Vec<PathBuf>>,
    compression: Option<&str>,
    chunk_size: Option<u64>,
    chunk_records: Option<u32>,
    record_type: Option<&str>,
    seqfile_key: Option<&str>,
    key_type: Option<&str>,
    key_schema: Option<&Bound<'_, PyAny>>,
    nullable: bool,
    s3_endpoint: Option<String>,
    float_text: Option<&str>,
) -> PyResult<u64> {
    let encoding = Encoding::parse(encoding)?;
    let float_text = options::float_text(float_text, encoding)?;
    let key = match (key_type, key_schema) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(PyValueError::new_err(
                "key_schema= needs key_type= (the keys' record type)",
            ))
        }
        (Some(t), Some(s)) => Some(resolve(s, None, t)?),
        (Some(t), None) => Some(resolve(schema, include.clone(), t)?),
    };
    let (schema, id) = resolve(schema, include, r#type)?;
    let plan = FramingArgs {
        framing,
        compression,
        chunk_size,
        chunk_records,
        record_type,
        seqfile_compression,
        seqfile_codec,
        seqfile_key,
        key_type,
        type_name: r#type,
    }
    .plan()
    .map_err(PyValueError::new_err)?;
    let mut batches = import_stream(data)?;
    let encoder = BatchEncoder::new(
        schema.clone(),
        id,
        EncodeOptions::default().with_nullable(nullable),
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let key_encoder = key
        .map(|(s, id)| BatchEncoder::new(s, id, EncodeOptions::default().with_nullable(nullable)))
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // The columns are checked before the file is created.
    let empty = RecordBatch::new_empty(batches.schema());
    let empty = match &key_encoder {
        None => empty,
        Some(keys) => {
            let (key, values) = split_key(&empty).map_err(|e| {
                PyValueError::new_err(format!(
                    "key_type= writes the `{KEY}` column as the keys: {e}"
                ))
            })?;
            keys.prepare(&key).map_err(|e| {
                PyValueError::new_err(format!(
                    "the `{KEY}` column is not a {}: {e}",
                    key_type.unwrap_or_default()
                ))
            })?;
            values
        }
    };
    encoder.prepare(&empty).map_err(|e| {
        PyValueError::new_err(format!(
            "the columns are not those of {}: {e}",
            schema.record(id).map(|r| r.full_name()).unwrap_or_default()
        ))
    })?;
    let name = path.display().to_string();
    let storage = storage::options(s3_endpoint);
    let cannot = |e| PyOSError::new_err(format!("cannot write {name}: {e}"));
    let (file, commit) = py
        .detach(|| storage::create(&name, &storage))
        .map_err(cannot)?;
    let schema: Arc<Schema> = schema;
    let result = py.detach(|| {
        let encoders = Encoders {
            values: &encoder,
            keys: key_encoder.as_ref(),
            schema: &schema,
            id,
        };
        let written = write_rows(&mut batches, file, plan, (encoding, float_text), &encoders)?;
        commit
            .commit()
            .map(|()| written)
            .map_err(|e| Failure::Io(e.into()))
    });
    result.map_err(|failure| match failure {
        Failure::Input(e) => PyValueError::new_err(format!("the data could not be read: {e}")),
        Failure::Columns(first, e) => {
            let facts = Facts {
                file: Some(name.clone()),
                record: e.as_record().and_then(|r| r.record()).map(|r| first + r),
                path: e.as_record().map(|r| r.path()).unwrap_or_default(),
                ..Facts::default()
            };
            record_error(
                format!("{name}: the batch from record {first} does not fit: {e}"),
                facts,
            )
        }
        Failure::Record(n, e) => {
            let mut facts = Facts::of(&e, Some(&name));
            let message = match facts.record {
                Some(_) => format!("{name}: {e}"),
                None => format!("{name}: record {n}: {e}"),
            };
            facts.record = Some(n);
            record_error(message, facts)
        }
        Failure::Io(e) => from_record(&e, Some(&name)),
    })
}
