//! [`RecordSink`]: records written as `rcc convert` writes them — in an encoding, back to
//! back or in a framing — for writers outside `rcc convert` (`rcc sql --to records`, whose
//! part files must hold the bytes `rcc convert` writes for the same records).

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use hadoop_record::archive::FloatText;
use hadoop_record::framing::plasma::PlasmaFormat;
use hadoop_record::{Error, Format, RecordWriter};

use crate::framing::{parse_framing, FrameWriter, Framing, Payload, WriteOptions};

/// What one record is written through.
pub type RecordOut = RecordWriter<Box<dyn Write + Send>>;

/// Records of one encoding into `W`, back to back or framed.
pub struct RecordSink {
    inner: Inner,
}

enum Inner {
    /// Back to back: the record writer over the output.
    Stream(RecordOut),
    /// Framed: each record encoded into a buffer, then framed as one payload.
    Framed {
        frames: FrameWriter<'static>,
        writer: RecordOut,
        buffer: SharedBytes,
        /// The last record's bytes, its allocation reused for the next.
        record: Vec<u8>,
        /// Plasma text lines end where the framing says: CSV's own line end goes.
        strip_line_end: bool,
    },
}

/// Bytes written through one handle and taken through another (a clone), across threads:
/// what a writer that keeps its output (a record or Parquet writer) has produced since the
/// last [`take`](SharedBytes::take).
#[derive(Clone, Default)]
pub struct SharedBytes(Arc<Mutex<Vec<u8>>>);

impl SharedBytes {
    /// The bytes written since the last take.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Swaps the bytes written with `spare` (emptied first), keeping both allocations.
    fn swap(&self, spare: &mut Vec<u8>) {
        spare.clear();
        std::mem::swap(
            &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner),
            spare,
        );
    }
}

impl Write for SharedBytes {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl RecordSink {
    /// Records of `format` into `output`, framed by `framing` (a name `--out-framing`
    /// takes) with `options` (`--seqfile-*`, `--compression`, …), or back to back; floats
    /// in CSV and XML as `float_text` says (`--float-text`).
    pub fn new<W: Write + Send + 'static>(
        output: W,
        format: Format,
        float_text: FloatText,
        framing: Option<&str>,
        options: &WriteOptions,
    ) -> Result<Self, String> {
        let writer =
            |out: Box<dyn Write + Send>| RecordWriter::new(out, format).with_float_text(float_text);
        let Some(name) = framing else {
            return Ok(RecordSink {
                inner: Inner::Stream(writer(Box::new(output))),
            });
        };
        let framing = parse_framing("--out-framing", name)?;
        let output = std::io::BufWriter::with_capacity(64 << 10, output);
        let frames = FrameWriter::new(output, framing, options, None, false, None)?;
        let buffer = SharedBytes::default();
        Ok(RecordSink {
            inner: Inner::Framed {
                frames,
                writer: writer(Box::new(buffer.clone())),
                buffer,
                record: Vec::new(),
                strip_line_end: framing == Framing::Plasma(PlasmaFormat::Text)
                    && format == Format::Csv,
            },
        })
    }

    /// Writes one record, which `write` writes through the writer it is given.
    pub fn write(
        &mut self,
        write: impl FnOnce(&mut RecordOut) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match &mut self.inner {
            Inner::Stream(writer) => write(writer),
            Inner::Framed {
                frames,
                writer,
                buffer,
                record,
                strip_line_end,
            } => {
                write(writer)?;
                writer.flush()?;
                buffer.swap(record);
                let payload = match record.as_slice() {
                    [rest @ .., b'\n'] if *strip_line_end => rest,
                    all => all,
                };
                frames.write(Payload {
                    record_type: None,
                    key: None,
                    bytes: payload,
                })
            }
        }
    }

    /// Writes what is pending (a framing's last chunk) and flushes.
    pub fn finish(&mut self) -> Result<(), Error> {
        match &mut self.inner {
            Inner::Stream(writer) => writer.flush(),
            Inner::Framed { frames, .. } => frames.finish(),
        }
    }
}
