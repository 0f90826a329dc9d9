//! Reading a byte range of a file: strict, the records placed in `[start, end)`, each record
//! at its share of its chunk ([`record_window`]), so that a chunk larger than a range is
//! shared; recovering, the chunks whose header starts in the range.
//!
//! # Why the chain, not the magic number
//!
//! A reader dropped at an arbitrary offset could look for the next magic number and accept
//! the first candidate whose header is sane and whose payload's CRC-32 matches, as the
//! recovering reader does inside damage. That rule is sound against chance (a forged match
//! needs 32 bits of CRC to agree besides the header checks) but not against chunk images
//! stored as data: a record holding a Paddle file, uncompressed, carries valid chunks in its
//! payload, and a reader resynchronising inside that payload would deliver them, and the
//! split before would deliver the record that holds them — bogus records, and the same
//! bytes twice.
//!
//! So a split reader never guesses where chunks start. Strict (the default), it follows
//! the header chain from offset 0 to the first chunk at or after `start`, reading 20 bytes
//! per chunk and no payload ([`PaddleIndex::load`](super::PaddleIndex::load)'s walk),
//! which is exactly where a whole-file reader finds chunks; then it reads the chunks that
//! start before `end`. Recovering, the chain breaks at damage, and which chunks a whole-file
//! recovering reader finds after it depends on every byte of the damaged stretch; so a
//! recovering split runs the recovery finder from offset 0 — the rule it follows is the
//! sequential reader's: magic, header checks and payload CRC, with scanning only inside
//! damage — but opens and delivers only its own chunks. It reads (and checksums) the bytes
//! before `start`; that is the price of recovery's answer not depending on the cut.
//!
//! Either way the splits of a file together deliver each record exactly once, the same
//! records a whole-file reader with the same options delivers.

use std::io::{Cursor, Read, Seek, SeekFrom};

use bytes::Bytes;

use super::header::HEADER_LEN;
use super::index::header_at;
use super::reader::PaddleReader;
use super::scanner::ChunkScanner;
use super::window::record_window;
use super::PaddleReadOptions;
use crate::error::Result;

impl<R: Read + Seek> PaddleReader<R> {
    /// A reader of the split `[start, end)` of a file: the records placed in the range,
    /// record `k` of a chunk of `n` records and `len` bytes being placed at `k * len / n`
    /// bytes into the chunk (each split sharing a chunk reads and checks all of it; with
    /// [`PaddleReadOptions::recover`] or [`PaddleReadOptions::whole_chunks`], whole chunks:
    /// those whose header starts in the range).
    /// Any offsets work; `end` may lie past the end of the file.
    ///
    /// The first chunk is found by following the header chain from offset 0 (20 bytes read
    /// per chunk, no payload), never by looking for a magic number, which a record holding
    /// a Paddle file would also carry. With [`PaddleReadOptions::recover`] the recovery
    /// finder runs from offset 0 as in a whole-file reader (reading the bytes before
    /// `start`), and the split delivers the chunks it finds in the range: the splits of a
    /// file always deliver exactly the records a whole-file reader does.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use hadoop_record::framing::paddle::{PaddleReader, PaddleReadOptions, PaddleWriteOptions, PaddleWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let mut w = PaddleWriter::with_options(Vec::new(), PaddleWriteOptions::default().with_max_chunk_size(4));
    /// for r in [&b"zero"[..], b"one", b"two", b"three"] {
    ///     w.write_payload(r)?;
    /// }
    /// w.finish()?;
    /// let file = w.into_inner()?;
    /// let mut all = Vec::new();
    /// for start in (0..file.len() as u64).step_by(30) {
    ///     let split = PaddleReader::split(Cursor::new(&file), start, start + 30, PaddleReadOptions::default())?;
    ///     all.extend(split.collect::<Result<Vec<_>, _>>()?);
    /// }
    /// assert_eq!(all, [b"zero".to_vec(), b"one".to_vec(), b"two".to_vec(), b"three".to_vec()]);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn split(mut inner: R, start: u64, end: u64, options: PaddleReadOptions) -> Result<Self> {
        let len = inner.seek(SeekFrom::End(0))?;
        if options.recover {
            inner.seek(SeekFrom::Start(0))?;
            let mut scanner = ChunkScanner::at(inner, options, 0);
            scanner.input_ends_at(len);
            scanner.skip_before(start);
            let first = (start == 0).then_some(0);
            return Ok(Self::from_scanner(scanner, first, start..end));
        }
        let (mut offset, mut records) = (0u64, 0u64);
        while offset < start && offset < len {
            let header = header_at(&mut inner, offset, len, &options)?;
            let next = offset + HEADER_LEN as u64 + u64::from(header.compressed_size);
            if next > start && !options.whole_chunks() {
                // The chunk holding `start`: its records from `start` on are this split's.
                records += u64::from(record_window(offset, &header, start, end).start);
                break;
            }
            offset = next;
            records += u64::from(header.num_records);
        }
        inner.seek(SeekFrom::Start(offset))?;
        let mut scanner = ChunkScanner::at(inner, options, offset);
        scanner.input_ends_at(len);
        Ok(Self::from_scanner(scanner, Some(records), start..end))
    }
}

impl PaddleReader<Cursor<Bytes>> {
    /// [`PaddleReader::split`] of a file held in memory (a memory-mapped file, say): the
    /// same records, each a view of `file` rather than a copy of it. Compressed chunks are
    /// still decompressed into a buffer of the reader's own. Reading does not move the
    /// cursor that [`PaddleReader::into_inner`] gives back; [`PaddleReader::offset`] says
    /// where the reader stands.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use hadoop_record::framing::paddle::{PaddleReader, PaddleReadOptions, PaddleWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let mut w = PaddleWriter::new(Vec::new());
    /// w.write_payload(b"hello")?;
    /// w.finish()?;
    /// let file = Bytes::from(w.into_inner()?);
    /// let all = PaddleReader::split_in_memory(file, 0, u64::MAX, PaddleReadOptions::default())?;
    /// assert_eq!(all.collect::<Result<Vec<_>, _>>()?, [b"hello".to_vec()]);
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn split_in_memory(
        file: Bytes,
        start: u64,
        end: u64,
        options: PaddleReadOptions,
    ) -> Result<Self> {
        let mut reader = Self::split(Cursor::new(file), start, end, options)?;
        reader.scanner.in_memory();
        Ok(reader)
    }
}
