//! Splits: the records of one byte range of a file, as Hadoop's `SequenceFileInputFormat`
//! assigns them to map tasks.
//!
//! Hadoop's rule (`SequenceFileRecordReader` over `SequenceFile.Reader.sync`): a split
//! `[start, end)` starting past the header begins at the first sync entry at or after
//! `start` (none: the split is empty); it reads records until one that follows a sync entry
//! lying at or past `end`. So each record belongs to the split holding the last sync entry
//! before it (the header counting as one at its end), and splits that tile a file
//! partition its records exactly: none lost, none read twice.
//!
//! For a file format (one partition per byte range, as DataFusion's file openers get
//! them): open the file (`File`, or any `Read + Seek` over an object store), call
//! [`SeqReader::split`] with the range, and read pairs or values as from a whole-file
//! reader. Any byte ranges do (HDFS block boundaries, equal slices): a range past the
//! header that holds no sync entry is simply empty. Each split reads the header from
//! offset 0 first (a few hundred bytes), then seeks; after the first sync entry it reads
//! sequentially, past `end` up to the first sync entry at or after it (at most a sync
//! interval, or the block that straddles `end`).

use std::io::{Read, Seek, SeekFrom};

use super::reader::SeqReader;
use super::sync::entry;
use super::{SeqReadOptions, SYNC_SIZE};
use crate::error::{Error, ErrorKind, Result};

impl<R: Read + Seek> SeqReader<R> {
    /// A reader of the records of the split `[start, end)` of a whole file: the header is
    /// read from offset 0, then the reader moves to the first sync entry at or after
    /// `start` (or stays after the header when `start` is within it). Strict or recovering
    /// as `options` say.
    ///
    /// Splits that tile the file (`[0, a)`, `[a, b)`, … `[z, len)`) yield every record
    /// once, as Hadoop's map tasks would read them:
    ///
    /// ```
    /// use std::io::Cursor;
    /// use hadoop_record::framing::seqfile::{SeqReadOptions, SeqReader, SeqWriteOptions, SeqWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let mut w = SeqWriter::new(Vec::new(), SeqWriteOptions::new("m.R"));
    /// for i in 0..1000u32 {
    ///     w.write_payload(&i.to_be_bytes())?;
    /// }
    /// w.finish()?;
    /// let file = w.into_inner()?;
    /// let len = file.len() as u64;
    /// let mut all = Vec::new();
    /// for (start, end) in [(0, len / 3), (len / 3, 2 * len / 3), (2 * len / 3, len)] {
    ///     let split = SeqReader::split(Cursor::new(&file), start, end, SeqReadOptions::default())?;
    ///     for value in split {
    ///         all.push(u32::from_be_bytes(value?.try_into().unwrap()));
    ///     }
    /// }
    /// assert_eq!(all, (0..1000).collect::<Vec<_>>());
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn split(mut inner: R, start: u64, end: u64, options: SeqReadOptions) -> Result<Self> {
        inner.seek(SeekFrom::Start(0))?;
        let mut reader = SeqReader::with_options(inner, options)?;
        reader.end = end;
        if start > reader.header.len {
            let Some(sync) = reader.header.sync else {
                return Err(Error::new(
                    ErrorKind::Unsupported,
                    "a version 1 SequenceFile has no sync markers: it can be read whole only",
                ));
            };
            let file_len = reader.src.get_mut().seek(SeekFrom::End(0))?;
            if start.saturating_add(SYNC_SIZE) >= file_len {
                reader.src.reset(file_len);
            } else {
                reader.src.get_mut().seek(SeekFrom::Start(start))?;
                reader.src.reset(start);
                reader.src.skip_to(&entry(&sync))?;
            }
        }
        reader.done = reader.offset() >= end;
        Ok(reader)
    }
}
