//! The chunk index (built by hopping from header to header, payloads unread) and random
//! access by record number and by range.

use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use super::chunk::{check_header, open_verified, verify_crc};
use super::header::{HEADER_LEN, MAGIC_BYTES};
use super::info::{info, PaddleInfo};
use super::recovery::Damage;
use super::{ChunkHeader, PaddleReadOptions};
use crate::error::{Error, ErrorKind, Position, Result};

/// One chunk in a [`PaddleIndex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkEntry {
    /// Byte offset of the chunk's header.
    pub offset: u64,
    /// The chunk's header.
    pub header: ChunkHeader,
    /// Global number of the chunk's first record.
    pub first_record: u64,
}

/// Where every chunk starts and how many records it holds, read from the headers alone.
///
/// Like Go's `LoadIndex`, but a chunk whose payload runs past the end of the file, or 1 to
/// 19 trailing bytes, is an error here rather than a chunk found later to be short or a
/// phantom empty chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaddleIndex {
    chunks: Vec<ChunkEntry>,
    num_records: u64,
    len: u64,
}

impl PaddleIndex {
    /// Builds the index of the whole stream (from offset 0), checking each header's magic,
    /// compressor, sizes (against `options.max_chunk_bytes` and the file length) and record
    /// count; payloads are not read. Damage is an error here whatever `options.recover`
    /// says (a header chain cannot be followed past it); see [`PaddleIndex::from_info`].
    pub fn load<R: Read + Seek>(reader: &mut R, options: &PaddleReadOptions) -> Result<Self> {
        let len = reader.seek(SeekFrom::End(0))?;
        reader.seek(SeekFrom::Start(0))?;
        let mut index = PaddleIndex {
            len,
            ..PaddleIndex::default()
        };
        let mut offset = 0u64;
        while offset < len {
            let header = header_at(reader, offset, len, options)?;
            index.chunks.push(ChunkEntry {
                offset,
                header,
                first_record: index.num_records,
            });
            index.num_records += u64::from(header.num_records);
            offset += HEADER_LEN as u64 + u64::from(header.compressed_size);
        }
        Ok(index)
    }

    /// The index of the sound chunks of a summary made by [`info`](super::info): what a
    /// recovering reader reads, skipping the damage the summary lists.
    pub fn from_info(info: &PaddleInfo) -> Self {
        PaddleIndex {
            chunks: info
                .chunks
                .iter()
                .map(|c| ChunkEntry {
                    offset: c.offset,
                    header: c.header,
                    first_record: c.first_record,
                })
                .collect(),
            num_records: info.records,
            len: info.bytes,
        }
    }

    /// The chunks, in file order.
    pub fn chunks(&self) -> &[ChunkEntry] {
        &self.chunks
    }

    /// Total number of records the headers claim.
    pub fn num_records(&self) -> u64 {
        self.num_records
    }

    /// Length of the indexed stream in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the stream is empty (no chunks).
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// The chunk holding global record `n`, and `n`'s position within it (binary search
    /// over the chunks' first record numbers).
    pub fn locate(&self, n: u64) -> Option<(usize, u32)> {
        if n >= self.num_records {
            return None;
        }
        // The last chunk whose first record is <= n and that holds records.
        let i = self.chunks.partition_point(|c| c.first_record <= n) - 1;
        let i = (0..=i)
            .rev()
            .find(|&i| self.chunks[i].header.num_records > 0)?;
        let c = &self.chunks[i];
        Some((i, (n - c.first_record) as u32))
    }
}

/// Reads and checks the header of the chunk at `offset` of a stream of `len` bytes: its
/// magic, compressor, sizes (against `options.max_chunk_bytes` and the stream's length)
/// and record count; the payload is not read. Damage is an error at `offset`.
pub(super) fn header_at<R: Read + Seek>(
    reader: &mut R,
    offset: u64,
    len: u64,
    options: &PaddleReadOptions,
) -> Result<ChunkHeader> {
    let fail = |damage: Damage| Err(damage.to_error(offset));
    if len - offset < HEADER_LEN as u64 {
        return fail(Damage::TruncatedHeader { have: len - offset });
    }
    let mut raw = [0u8; HEADER_LEN];
    reader.seek(SeekFrom::Start(offset))?;
    reader
        .read_exact(&mut raw)
        .map_err(|e| Error::from(e).at(Position::Byte(offset)))?;
    let Some(header) = ChunkHeader::parse(&raw, options.layout) else {
        let found = u32::from_le_bytes(raw[..4].try_into().unwrap());
        debug_assert_ne!(raw[..4], MAGIC_BYTES);
        return fail(Damage::BadMagic { found });
    };
    if let Err(damage) = check_header(&header, options.layout, options.max_chunk_bytes) {
        return fail(damage);
    }
    let end = offset + HEADER_LEN as u64 + u64::from(header.compressed_size);
    if end > len {
        return fail(Damage::TruncatedPayload {
            have: len - offset - HEADER_LEN as u64,
            want: header.compressed_size.into(),
        });
    }
    Ok(header)
}

/// Random access to the records of a PaddlePaddle RecordIO file on a `Read + Seek`.
///
/// Built on a [`PaddleIndex`]; reads, verifies and decompresses one chunk at a time and
/// keeps the last one, so nearby lookups are cheap.
///
/// ```
/// use std::io::Cursor;
/// use hadoop_record::framing::paddle::{PaddleFile, PaddleReadOptions, PaddleWriteOptions, PaddleWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = PaddleWriter::with_options(Vec::new(), PaddleWriteOptions::default().with_max_chunk_size(4));
/// for r in [&b"zero"[..], b"one", b"two", b"three"] {
///     w.write_payload(r)?;
/// }
/// w.finish()?;
/// let mut file = PaddleFile::open(Cursor::new(w.into_inner()?), PaddleReadOptions::default())?;
/// assert_eq!(file.index().chunks().len(), 4);
/// assert_eq!(file.get(2)?, b"two");
/// let tail: Vec<_> = file.range(1, 2).collect::<Result<_, _>>()?;
/// assert_eq!(tail, [b"one".to_vec(), b"two".to_vec()]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct PaddleFile<R> {
    inner: R,
    index: PaddleIndex,
    options: PaddleReadOptions,
    /// The chunk whose records are in `spans`.
    loaded: Option<usize>,
    in_scratch: bool,
    stored: Vec<u8>,
    scratch: Vec<u8>,
    spans: Vec<Range<usize>>,
}

impl<R: Read + Seek> PaddleFile<R> {
    /// Indexes `inner`: by hopping headers ([`PaddleIndex::load`]), or, when
    /// `options.recover` is set, by reading the whole file once and indexing its sound
    /// chunks only ([`PaddleIndex::from_info`]), so damaged chunks are left out.
    pub fn open(mut inner: R, options: PaddleReadOptions) -> Result<Self> {
        let index = if options.recover {
            inner.seek(SeekFrom::Start(0))?;
            PaddleIndex::from_info(&info(&mut inner, &options)?)
        } else {
            PaddleIndex::load(&mut inner, &options)?
        };
        Ok(PaddleFile {
            inner,
            index,
            options,
            loaded: None,
            in_scratch: false,
            stored: Vec::new(),
            scratch: Vec::new(),
            spans: Vec::new(),
        })
    }

    /// The index.
    pub fn index(&self) -> &PaddleIndex {
        &self.index
    }

    /// Total number of records.
    pub fn num_records(&self) -> u64 {
        self.index.num_records
    }

    /// Gives back the underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Record number `n` (0-based). An [`ErrorKind::Limit`] error when `n` is past the end;
    /// the chunk's error (checksum, decompression...) when it is damaged.
    pub fn get(&mut self, n: u64) -> Result<Vec<u8>> {
        let (chunk, i) = self.index.locate(n).ok_or_else(|| {
            Error::new(
                ErrorKind::Limit,
                format!(
                    "record {n} is past the end (the file has {} records)",
                    self.index.num_records
                ),
            )
        })?;
        self.load(chunk).map_err(|e| e.in_record(n))?;
        Ok(self.record(i as usize).to_vec())
    }

    /// The records `[start, start + len)`, clamped to the end of the file, in order.
    pub fn range(&mut self, start: u64, len: u64) -> RecordRange<'_, R> {
        let end = start.saturating_add(len).min(self.index.num_records);
        RecordRange {
            file: self,
            next: start,
            end,
        }
    }

    fn record(&self, i: usize) -> &[u8] {
        let raw = if self.in_scratch {
            &self.scratch
        } else {
            &self.stored
        };
        &raw[self.spans[i].clone()]
    }

    fn load(&mut self, chunk: usize) -> Result<()> {
        if self.loaded == Some(chunk) {
            return Ok(());
        }
        self.loaded = None;
        let entry = self.index.chunks[chunk];
        let size = u64::from(entry.header.compressed_size);
        let at = |e: Error| e.at(Position::Byte(entry.offset));
        self.inner
            .seek(SeekFrom::Start(entry.offset + HEADER_LEN as u64))
            .map_err(|e| at(e.into()))?;
        self.stored.clear();
        // The index checked the payload lies within the file and under the size cap.
        let got = (&mut self.inner)
            .take(size)
            .read_to_end(&mut self.stored)
            .map_err(|e| at(e.into()))?;
        if (got as u64) < size {
            let damage = Damage::TruncatedPayload {
                have: got as u64,
                want: size,
            };
            return Err(damage.to_error(entry.offset));
        }
        let compressor = check_header(
            &entry.header,
            self.options.layout,
            self.options.max_chunk_bytes,
        )
        .map_err(|d| d.to_error(entry.offset))?;
        self.in_scratch = verify_crc(&entry.header, &self.stored)
            .and_then(|()| {
                open_verified(
                    &entry.header,
                    compressor,
                    &self.stored,
                    self.options.max_chunk_bytes,
                    &mut self.scratch,
                    Some(&mut self.spans),
                )
            })
            .map_err(|d| d.to_error(entry.offset))?;
        self.loaded = Some(chunk);
        Ok(())
    }
}

/// Iterator over a range of records; see [`PaddleFile::range`]. Stops after an error.
#[derive(Debug)]
pub struct RecordRange<'f, R> {
    file: &'f mut PaddleFile<R>,
    next: u64,
    end: u64,
}

impl<R: Read + Seek> Iterator for RecordRange<'_, R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let n = self.next;
        let result = self.file.get(n);
        self.next = if result.is_ok() { n + 1 } else { self.end };
        Some(result)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}
