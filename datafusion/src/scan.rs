//! The scan of one file (or byte range of one): the framing's range reader
//! ([`Framing::open_range`]) gives payloads or a stream, a [`BatchDecoder`] turns them into
//! batches of the projected columns, one batch per call of [`Scan::next`].

use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::{DataFusionError, Result};
use hadoop_record::framing::detect::{plain_looks, Looks};
use hadoop_record::framing::split::{Framing, PayloadRead, Split};
use hadoop_record::Format;
use hadoop_record_arrow::decode::{BatchDecoder, BatchReader, DecodeOptions};
use hadoop_record_avro::AvroReader;

use crate::error::{AvroFileError, Place, RecordError};
use crate::input::Input;
use crate::progress::ScanProgress;
use crate::resolved::Resolved;

/// What to scan.
pub(crate) struct Job {
    pub format: Arc<Resolved>,
    /// The file's path, for messages.
    pub file: String,
    /// The byte range; `None`: the whole file.
    pub range: Option<(u64, u64)>,
    /// The record fields to decode, by index.
    pub projection: Vec<usize>,
    pub batch_size: usize,
    /// What a file read as records back to back looks like instead (a Mesos stream, text of
    /// another encoding), for its decoding errors; set when the scan opens.
    pub hint: Option<String>,
}

impl Job {
    fn decode_options(&self) -> DecodeOptions {
        let o = &self.format.options;
        let options = DecodeOptions::default()
            .with_batch_size(self.batch_size)
            .with_projection(Some(self.projection.clone()))
            .with_nullable(o.nullable())
            .with_string_view(o.string_view());
        match o.jute_max_buffer() {
            Some(max) => options.with_jute(
                hadoop_record::archive::jute::JuteOptions::default().with_max_buffer(max),
            ),
            None => options,
        }
    }

    fn error(&self, place: Place, error: hadoop_record::Error) -> DataFusionError {
        let error = match (&self.hint, &place) {
            (Some(hint), Place::Stream | Place::Payload { .. }) => error.with_hint(hint),
            _ => error,
        };
        DataFusionError::External(Box::new(RecordError {
            file: self.file.clone(),
            place,
            error,
        }))
    }

    /// Checks the file's first bytes against the table's framing (see
    /// [`FramingOptions::check_file`](crate::FramingOptions::check_file)), and notes what a
    /// file of records back to back looks like if it looks like something else.
    fn check_first_bytes(&mut self, input: &mut Input) -> Result<()> {
        let first = input.first_bytes().map_err(|e| {
            let framing = self.format.framing.to_string();
            self.error(Place::Framing { framing }, e.into())
        })?;
        let options = &self.format.options;
        if let Err(message) = options.framing().check_file(&first) {
            let error = hadoop_record::Error::new(hadoop_record::ErrorKind::Syntax, message);
            return Err(self.error(Place::File, error));
        }
        if self.format.framing == Framing::None {
            self.hint = match plain_looks(&first, options.encoding().name()) {
                // rcc sql reads no JSON.
                None | Some(Looks::Text("json")) => None,
                Some(looks) => Some(looks.hint("--in-framing")),
            };
        }
        Ok(())
    }
}

/// The scan of one file or byte range as an iterator of batches; it ends after the first
/// error.
pub(crate) struct Scan {
    job: Job,
    state: State,
}

/// Where a scan stands.
enum State {
    /// One record per payload.
    Payloads(Payloads),
    /// Records back to back.
    Stream(BatchReader<Box<dyn Read + Send>>),
    /// An Avro container file's records, resolved to the projected record type.
    Avro(Box<AvroReader<Box<dyn Read + Send>>>),
    /// Over, or failed.
    Done,
}

/// Payloads and the decoder they go through.
struct Payloads {
    payloads: Box<dyn PayloadRead + Send>,
    decoder: BatchDecoder,
    /// Puts back the LF that plasma-text strips from CSV records.
    line_ends: bool,
    scratch: Vec<u8>,
    /// Records decoded so far, for messages.
    in_range: u64,
    /// The payloads have ended.
    ended: bool,
    /// For payloads that are views of a mapped file (nothing is read, so nothing counts the
    /// bytes): the offset up to which the scan's bytes were counted, and where they end.
    mapped: Option<(u64, u64)>,
}

impl Scan {
    /// Opens `input` as `job` says: finds the range's first record.
    pub(crate) fn open(mut job: Job, mut input: Input) -> Result<Scan> {
        if job.format.options.avro() {
            return Scan::open_avro(job, input);
        }
        job.check_first_bytes(&mut input)?;
        let format = &job.format;
        let encoding = format.options.encoding();
        let options = job.decode_options();
        let decoder = BatchDecoder::new(format.schema.clone(), format.id, options.clone())
            .map_err(external)?;
        let (start, end) = job.range.unwrap_or((0, u64::MAX));
        let (framing, buffers) = (&format.framing, &format.buffers);
        let mut mapped = None;
        let split = match input {
            // Paddle payloads can be views of the map: no chunk is copied.
            Input::Mapped(file) if matches!(framing, Framing::Paddle(_)) => {
                let file = file.into_inner();
                mapped = Some((start, end.min(file.len() as u64)));
                framing.open_range_in_memory(encoding, file, start..end, buffers)
            }
            input => {
                let framing = match (framing, &input) {
                    // A remote file's ranges take whole chunks: a chunk a range's end cuts
                    // is fetched once, not by both ranges. Every range of a file is read
                    // from the same store, so all take the same rule.
                    (Framing::Paddle(o), Input::Remote(_)) => {
                        Framing::Paddle(o.with_whole_chunks(true))
                    }
                    _ => *framing,
                };
                let input = Counting::new(input, format.progress.clone());
                framing.open_range_pooled(encoding, input, start..end, buffers)
            }
        }
        .map_err(|e| {
            let framing = format.framing.to_string();
            job.error(Place::Framing { framing }, e)
        })?;
        let state = match split {
            Split::Payloads(payloads) => State::Payloads(Payloads {
                payloads,
                decoder,
                line_ends: matches!(format.framing, Framing::PlasmaText(_))
                    && encoding == Format::Csv,
                scratch: Vec::new(),
                in_range: 0,
                ended: false,
                mapped,
            }),
            Split::Stream(reader) => State::Stream(
                BatchReader::new(reader, encoding, format.schema.clone(), format.id, options)
                    .map_err(external)?,
            ),
        };
        Ok(Scan { job, state })
    }

    /// An Avro container file, whole: its schema resolved to the projected columns, so
    /// the others are skipped as the records are decoded.
    fn open_avro(job: Job, input: Input) -> Result<Scan> {
        let format = &job.format;
        let columns = format.arrow.project(&job.projection)?;
        let input: Box<dyn Read + Send> = Box::new(Counting::new(input, format.progress.clone()));
        let reader = AvroReader::new(input, Arc::new(columns), job.batch_size)
            .map_err(|e| avro_error(&job, e))?;
        Ok(Scan {
            state: State::Avro(Box::new(reader)),
            job,
        })
    }

    /// The next batch; `None` at the end.
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let batch = match &mut self.state {
            State::Done => None,
            State::Avro(reader) => reader
                .next()
                .transpose()
                .map_err(|e| avro_error(&self.job, e))?,
            State::Stream(batches) => batches.next_batch().map_err(|e| match e {
                hadoop_record_arrow::Error::Record(e) => self.job.error(Place::Stream, e),
                e => external(e),
            })?,
            State::Payloads(p) => p.next_batch(&self.job)?,
        };
        if let Some(batch) = &batch {
            self.job.format.progress.add(0, batch.num_rows() as u64);
        }
        Ok(batch)
    }
}

impl Iterator for Scan {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.next_batch();
        if !matches!(next, Ok(Some(_))) {
            self.state = State::Done;
        }
        next.transpose()
    }
}

impl Payloads {
    /// Decodes payloads until a batch is full or they end: a run at a time from readers
    /// that have runs (Paddle's), else one at a time.
    fn next_batch(&mut self, job: &Job) -> Result<Option<RecordBatch>> {
        let encoding = job.format.options.encoding();
        if self.ended {
            return Ok(None);
        }
        let runs = self.payloads.has_runs();
        while !self.decoder.is_full() {
            if runs {
                let before = self.decoder.records_decoded();
                let decoded = match self.payloads.next_run(self.decoder.room()) {
                    None => None,
                    Some(Ok(mut run)) => Some(self.decoder.decode_payloads(&mut run, encoding)),
                    Some(Err(e)) => return Err(framing_error(job, e)),
                };
                let Some(decoded) = decoded else {
                    self.end(job);
                    break;
                };
                self.in_range += self.decoder.records_decoded() - before;
                if let Err(e) = decoded {
                    return Err(self.payload_error(job, e));
                }
                continue;
            }
            let payload = match self.payloads.next_payload() {
                None => {
                    self.end(job);
                    break;
                }
                Some(Ok(payload)) => payload,
                Some(Err(e)) => return Err(framing_error(job, e)),
            };
            let bytes = if self.line_ends {
                self.scratch.clear();
                self.scratch.extend_from_slice(payload);
                self.scratch.push(b'\n');
                &self.scratch[..]
            } else {
                payload
            };
            if let Err(e) = self.decoder.decode_payload(bytes, encoding) {
                return Err(self.payload_error(job, e));
            }
            self.in_range += 1;
        }
        if let Some((counted, end)) = &mut self.mapped {
            let at = if self.ended {
                *end
            } else {
                self.payloads.location().offset
            };
            if at > *counted {
                job.format.progress.add(at - *counted, 0);
                *counted = at;
            }
        }
        self.decoder.flush().map_err(external)
    }
}

impl Payloads {
    /// The payloads have ended: what a recovering reader skipped goes to the progress.
    fn end(&mut self, job: &Job) {
        self.ended = true;
        let skipped = self.payloads.skipped();
        job.format.progress.add_skipped(&job.file, skipped);
    }

    /// The error of the payload last taken (the `in_range`-th of the range).
    fn payload_error(&self, job: &Job, e: hadoop_record::Error) -> DataFusionError {
        let place = Place::Payload {
            framing: job.format.framing.to_string(),
            location: self.payloads.location(),
            range_start: job.range.map_or(0, |r| r.0),
            in_range: self.in_range,
        };
        job.error(place, e)
    }
}

/// An error of the framing (a damaged chunk, say).
fn framing_error(job: &Job, e: hadoop_record::Error) -> DataFusionError {
    let framing = job.format.framing.to_string();
    job.error(Place::Framing { framing }, e)
}

/// An Avro file's error, naming the file (the error names the block and offset).
fn avro_error(job: &Job, e: hadoop_record_avro::Error) -> DataFusionError {
    DataFusionError::External(Box::new(AvroFileError {
        file: job.file.clone(),
        error: e,
    }))
}

/// An error of the columnar decoder that is not a record's (Arrow refusing an array).
fn external(e: hadoop_record_arrow::Error) -> DataFusionError {
    match e {
        hadoop_record_arrow::Error::Arrow(e) => DataFusionError::ArrowError(Box::new(e), None),
        e => DataFusionError::External(Box::new(e)),
    }
}

/// Counts the bytes read into the format's progress, in steps of a megabyte or so.
struct Counting<R> {
    inner: R,
    progress: Arc<ScanProgress>,
    pending: u64,
}

impl<R> Counting<R> {
    fn new(inner: R, progress: Arc<ScanProgress>) -> Self {
        Counting {
            inner,
            progress,
            pending: 0,
        }
    }
}

impl<R> Drop for Counting<R> {
    fn drop(&mut self) {
        self.progress.add(self.pending, 0);
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pending += n as u64;
        if self.pending >= 1 << 20 {
            self.progress.add(std::mem::take(&mut self.pending), 0);
        }
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}
