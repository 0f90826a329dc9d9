//! The scan of one file (or byte range of one), on a blocking thread: the framing's range
//! reader ([`Framing::open_range`]) gives payloads or a stream, a [`BatchDecoder`] turns
//! them into batches of the projected columns.

use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::{DataFusionError, Result};
use hadoop_record::framing::split::{Framing, PayloadRead, Split};
use hadoop_record::Format;
use hadoop_record_arrow::decode::{BatchDecoder, BatchReader, DecodeOptions};

use crate::error::{Place, RecordError};
use crate::format::Resolved;

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
}

impl Job {
    fn decode_options(&self) -> DecodeOptions {
        let o = &self.format.options;
        let mut options = DecodeOptions {
            batch_size: self.batch_size,
            projection: Some(self.projection.clone()),
            nullable: o.nullable,
            ..DecodeOptions::default()
        };
        if let Some(max) = o.jute_max_buffer {
            options.jute = hadoop_record::archive::jute::JuteOptions::max_buffer(max);
        }
        options
    }

    fn error(&self, place: Place, error: hadoop_record::Error) -> DataFusionError {
        DataFusionError::External(Box::new(RecordError {
            file: self.file.clone(),
            place,
            error,
        }))
    }
}

/// Scans `input` as `job` says, handing each batch to `emit`, which returns false when
/// nobody wants more.
pub(crate) fn scan<R: Read + Seek + Send>(
    job: &Job,
    input: R,
    emit: &mut dyn FnMut(RecordBatch) -> bool,
) -> Result<()> {
    let format = &job.format;
    let encoding = format.options.encoding;
    let options = job.decode_options();
    let decoder =
        BatchDecoder::new(format.schema.clone(), format.id, options.clone()).map_err(external)?;
    let mut input = Counting::new(input, format);
    let (start, end) = job.range.unwrap_or((0, u64::MAX));
    let framing_name = format.framing.to_string();
    let split = format
        .framing
        .open_range_pooled(encoding, &mut input, start..end, &format.buffers)
        .map_err(|e| {
            job.error(
                Place::Framing {
                    framing: framing_name.clone(),
                },
                e,
            )
        })?;
    match split {
        Split::Payloads(payloads) => {
            let line_ends =
                matches!(format.framing, Framing::PlasmaText(_)) && encoding == Format::Csv;
            scan_payloads(job, payloads, decoder, line_ends, emit)
        }
        Split::Stream(reader) => {
            let mut batches =
                BatchReader::new(reader, encoding, format.schema.clone(), format.id, options)
                    .map_err(external)?;
            while let Some(batch) = batches.next_batch().map_err(|e| match e {
                hadoop_record_arrow::Error::Record(e) => job.error(Place::Stream, e),
                e => external(e),
            })? {
                format.progress.add(0, batch.num_rows() as u64);
                if !emit(batch) {
                    break;
                }
            }
            Ok(())
        }
    }
}

/// Decodes one record per payload; `line_ends` puts back the LF that plasma-text strips
/// from CSV records.
fn scan_payloads(
    job: &Job,
    mut payloads: Box<dyn PayloadRead + Send + '_>,
    mut decoder: BatchDecoder,
    line_ends: bool,
    emit: &mut dyn FnMut(RecordBatch) -> bool,
) -> Result<()> {
    let format = &job.format;
    let encoding = format.options.encoding;
    let framing = format.framing.to_string();
    let range_start = job.range.map_or(0, |r| r.0);
    let mut scratch = Vec::new();
    let mut in_range = 0u64;
    loop {
        let payload = match payloads.next_payload() {
            None => {
                format.progress.add_skipped(&job.file, payloads.skipped());
                break;
            }
            Some(Ok(payload)) => payload,
            Some(Err(e)) => {
                return Err(job.error(
                    Place::Framing {
                        framing: framing.clone(),
                    },
                    e,
                ))
            }
        };
        let bytes = if line_ends {
            scratch.clear();
            scratch.extend_from_slice(payload);
            scratch.push(b'\n');
            &scratch[..]
        } else {
            payload
        };
        if let Err(e) = decoder.decode_payload(bytes, encoding) {
            let place = Place::Payload {
                framing: framing.clone(),
                location: payloads.location(),
                range_start,
                in_range,
            };
            return Err(job.error(place, e));
        }
        in_range += 1;
        if decoder.is_full() {
            let batch = decoder
                .flush()
                .map_err(external)?
                .expect("a full decoder has rows");
            format.progress.add(0, batch.num_rows() as u64);
            if !emit(batch) {
                return Ok(());
            }
        }
    }
    if let Some(batch) = decoder.flush().map_err(external)? {
        format.progress.add(0, batch.num_rows() as u64);
        emit(batch);
    }
    Ok(())
}

/// An error of the columnar decoder that is not a record's (Arrow refusing an array).
fn external(e: hadoop_record_arrow::Error) -> DataFusionError {
    match e {
        hadoop_record_arrow::Error::Arrow(e) => DataFusionError::ArrowError(Box::new(e), None),
        e => DataFusionError::External(Box::new(e)),
    }
}

/// Counts the bytes read into the format's progress, in steps of a megabyte or so.
struct Counting<'a, R> {
    inner: R,
    progress: &'a crate::progress::ScanProgress,
    pending: u64,
}

impl<'a, R> Counting<'a, R> {
    fn new(inner: R, format: &'a Resolved) -> Self {
        Counting {
            inner,
            progress: &format.progress,
            pending: 0,
        }
    }
}

impl<R> Drop for Counting<'_, R> {
    fn drop(&mut self) {
        self.progress.add(self.pending, 0);
    }
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pending += n as u64;
        if self.pending >= 1 << 20 {
            self.progress.add(std::mem::take(&mut self.pending), 0);
        }
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<'_, R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}
