//! The chunk writer: records are gathered into chunks, each compressed as a whole and
//! written after its 20-byte header, exactly as PaddlePaddle's Go writer does.

use std::io::Write;

use super::chunk::push_record;
use super::compress::ChunkCompressor;
use super::header::HEADER_LEN;
use super::{ChunkHeader, PaddleWriteOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;

/// Writes a PaddlePaddle RecordIO file to any [`Write`].
///
/// A chunk is written when adding a record would push the chunk's record bytes (length
/// prefixes not counted) past [`PaddleWriteOptions::max_chunk_size`], when it reaches
/// [`PaddleWriteOptions::max_chunk_records`], and at [`FrameWrite::finish`]. A record larger
/// than the limit gets a chunk of its own; a writer given no records writes nothing. With
/// the Go layout and the same records and settings the bytes are the Go writer's, for every
/// compressor.
///
/// ```
/// use hadoop_record::framing::paddle::{PaddleWriteOptions, PaddleWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = PaddleWriter::with_options(Vec::new(), PaddleWriteOptions::default().with_max_chunk_size(0));
/// for r in [&b""[..], b"b", b"cc"] {
///     w.write_payload(r)?;
/// }
/// w.finish()?;
/// assert_eq!(w.chunks(), 3); // with a limit of 0, each non-empty record starts a chunk
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct PaddleWriter<W: Write> {
    inner: Held<W>,
    builder: ChunkBuilder,
    chunks: u64,
    records: u64,
}

/// Gathers records into chunks by the Go writer's rules and compresses each chunk: the
/// core of [`PaddleWriter`] and of the tokio codec's encoder.
#[derive(Debug)]
pub(crate) struct ChunkBuilder {
    options: PaddleWriteOptions,
    /// The pending chunk's raw payload (length-prefixed records).
    raw: Vec<u8>,
    /// Sum of the pending records' lengths (what the chunk-size limit counts).
    record_bytes: u64,
    num_records: u32,
    compressed: Vec<u8>,
    compressor: ChunkCompressor,
}

impl ChunkBuilder {
    pub(crate) fn new(options: PaddleWriteOptions) -> Self {
        ChunkBuilder {
            options,
            raw: Vec::new(),
            record_bytes: 0,
            num_records: 0,
            compressed: Vec::new(),
            compressor: ChunkCompressor::default(),
        }
    }

    pub(crate) fn options(&self) -> &PaddleWriteOptions {
        &self.options
    }

    /// Adds a record, first closing the pending chunk if the record would push it past
    /// the size limit, and closing it after if it reaches the record-count limit. `emit`
    /// gets each closed chunk: its header bytes and stored payload.
    pub(crate) fn push(
        &mut self,
        payload: &[u8],
        mut emit: impl FnMut(&[u8; HEADER_LEN], &[u8]) -> Result<()>,
    ) -> Result<()> {
        let compressor = self.options.compressor();
        if !compressor.is_available() {
            return Err(compressor.unavailable());
        }
        let len = payload.len() as u64;
        // A chunk's payload length is a u32: the record and its prefix must fit in one.
        if len > u64::from(u32::MAX) - 4 {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("record of {len} bytes exceeds the 4 GiB chunk payload limit"),
            ));
        }
        if self.record_bytes + len > self.options.max_chunk_size
            || self.raw.len() as u64 + 4 + len > u64::from(u32::MAX)
            || self.num_records == u32::MAX
        {
            self.flush(&mut emit)?;
        }
        push_record(&mut self.raw, payload);
        self.record_bytes += len;
        self.num_records += 1;
        if self
            .options
            .max_chunk_records
            .is_some_and(|max| self.num_records >= max)
        {
            self.flush(&mut emit)?;
        }
        Ok(())
    }

    /// Closes the pending chunk, if it has records; returns whether it did.
    pub(crate) fn flush(
        &mut self,
        mut emit: impl FnMut(&[u8; HEADER_LEN], &[u8]) -> Result<()>,
    ) -> Result<bool> {
        if self.num_records == 0 {
            return Ok(false);
        }
        let stored: &[u8] = if self.options.compressor == super::Compressor::None {
            &self.raw
        } else {
            self.compressed.clear();
            self.compressor
                .compress(self.options.compressor(), &self.raw, &mut self.compressed)?;
            &self.compressed
        };
        let compressed_size = u32::try_from(stored.len()).map_err(|_| {
            Error::new(
                ErrorKind::Limit,
                format!("compressed chunk of {} bytes exceeds 4 GiB", stored.len()),
            )
        })?;
        let header = ChunkHeader {
            checksum: crc32fast::hash(stored),
            compressor: self.options.compressor.id(),
            compressed_size,
            num_records: self.num_records,
        };
        emit(&header.to_bytes(self.options.layout), stored)?;
        self.raw.clear();
        self.record_bytes = 0;
        self.num_records = 0;
        Ok(true)
    }
}

impl<W: Write> PaddleWriter<W> {
    /// A writer with the default options (Go layout, no compression, 32 MiB chunks).
    pub fn new(inner: W) -> Self {
        Self::with_options(inner, PaddleWriteOptions::default())
    }

    /// A writer with the given options.
    pub fn with_options(inner: W, options: PaddleWriteOptions) -> Self {
        PaddleWriter {
            inner: Held::new(inner),
            builder: ChunkBuilder::new(options),
            chunks: 0,
            records: 0,
        }
    }

    /// The options in use.
    pub fn options(&self) -> &PaddleWriteOptions {
        self.builder.options()
    }

    /// Chunks written so far.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }

    /// Records accepted so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// Writes the pending chunk, if it has records.
    pub fn flush_chunk(&mut self) -> Result<()> {
        let (inner, chunks) = (&mut *self.inner, &mut self.chunks);
        let result = self.builder.flush(|header, stored| {
            write_chunk(inner, header, stored)?;
            *chunks += 1;
            Ok(())
        });
        self.inner.watch(result.map(drop))
    }
}

fn write_chunk(inner: &mut impl Write, header: &[u8; HEADER_LEN], stored: &[u8]) -> Result<()> {
    inner.write_all(header)?;
    inner.write_all(stored)?;
    Ok(())
}

impl<W: Write> FrameWrite for PaddleWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        let (inner, chunks) = (&mut *self.inner, &mut self.chunks);
        let result = self
            .builder
            .push(payload, |header, stored| {
                write_chunk(inner, header, stored)?;
                *chunks += 1;
                Ok(())
            })
            .map_err(|e| e.in_record(self.records));
        self.records += u64::from(result.is_ok());
        self.inner.watch(result)
    }

    fn finish(&mut self) -> Result<()> {
        let pending = self.flush_chunk();
        self.inner.flush_after(pending)
    }
}

finish_on_drop!(
    PaddleWriter,
    FrameWrite::finish,
    "writing the pending chunk"
);
