//! The writer: Hadoop's `SequenceFile.Writer` (uncompressed and record-compressed) and
//! `BlockCompressWriter`, byte for byte.

use std::io::Write;

use super::codec::Engine;
use super::header::Header;
use super::sync::{entry, random_sync};
use super::{Compression, PayloadKey, SeqWriteOptions};
use crate::archive::binary::vint;
use crate::error::{Error, ErrorKind, Result};
use crate::framing::held::{finish_on_drop, Held};
use crate::framing::FrameWrite;

/// Writes a SequenceFile (version 6) to any [`Write`].
///
/// The header is written with the first record, or by [`FrameWrite::finish`] for a file
/// of none. Uncompressed and record-compressed records get a sync entry before them once
/// [`SeqWriteOptions::sync_interval`] bytes have passed since the last one; blocks are
/// closed at [`SeqWriteOptions::block_size`] bytes of keys and values and by
/// [`FrameWrite::finish`], each preceded by a sync entry. With the same records, sync
/// marker and metadata the bytes are those of Hadoop 2.10.2's writer (see the module
/// documentation for the codecs).
///
/// ```
/// use hadoop_record::framing::seqfile::{SeqReader, SeqWriteOptions, SeqWriter};
/// use hadoop_record::framing::FrameWrite;
/// let mut w = SeqWriter::new(Vec::new(), SeqWriteOptions::new("links.Link").with_sync([1; 16]));
/// w.write_payload(b"\x01a")?;
/// w.finish()?;
/// let file = w.into_inner()?;
/// assert_eq!(&file[..4], b"SEQ\x06");
/// let values: Vec<Vec<u8>> = SeqReader::new(&file[..])?.collect::<Result<_, _>>()?;
/// assert_eq!(values, [b"\x01a".to_vec()]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct SeqWriter<W: Write> {
    inner: Held<W>,
    options: SeqWriteOptions,
    header: Header,
    /// Bytes written so far (`out.getPos()`).
    pos: u64,
    /// Where the last sync entry ended (`lastSyncPos`; 0 before any).
    last_sync: u64,
    started: bool,
    records: u64,
    blocks: u64,
    engine: Option<Engine>,
    /// Record mode: the compressed value. Block mode: a compressed buffer.
    scratch: Vec<u8>,
    key: Vec<u8>,
    block: Block,
}

/// The pending block's buffers.
#[derive(Debug, Default)]
struct Block {
    records: u32,
    key_lens: Vec<u8>,
    keys: Vec<u8>,
    val_lens: Vec<u8>,
    vals: Vec<u8>,
}

impl<W: Write> SeqWriter<W> {
    /// A writer with `options`.
    pub fn new(inner: W, options: SeqWriteOptions) -> Self {
        let sync = options.sync.unwrap_or_else(random_sync);
        let header = Header::for_writer(&options, sync);
        let engine = (options.compression != Compression::None).then(|| Engine::new(options.codec));
        SeqWriter {
            inner: Held::new(inner),
            header,
            options,
            pos: 0,
            last_sync: 0,
            started: false,
            records: 0,
            blocks: 0,
            engine,
            scratch: Vec::new(),
            key: Vec::new(),
            block: Block::default(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &SeqWriteOptions {
        &self.options
    }

    /// The header written (its sync marker is the one in use).
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Records accepted so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Blocks written so far (block compression).
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Bytes written so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.inner.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    fn start(&mut self) -> Result<()> {
        if !self.started {
            let header = self.header.encode();
            self.put(&header)?;
            self.started = true;
        }
        Ok(())
    }

    /// A sync entry, unless one ends right here (`Writer.sync()`).
    fn sync(&mut self) -> Result<()> {
        if self.last_sync != self.pos {
            let sync = entry(
                self.header
                    .sync
                    .as_ref()
                    .expect("a writer's header has one"),
            );
            self.put(&sync)?;
            self.last_sync = self.pos;
        }
        Ok(())
    }

    /// Appends a record of raw key and value bytes (what the header's classes write).
    ///
    /// ```
    /// use hadoop_record::framing::seqfile::{writable, SeqReader, SeqWriteOptions, SeqWriter};
    /// use hadoop_record::framing::FrameWrite;
    /// let options = SeqWriteOptions::new(writable::TEXT).with_key_class(writable::INT_WRITABLE);
    /// let mut w = SeqWriter::new(Vec::new(), options);
    /// w.append(&7i32.to_be_bytes(), b"\x02hi")?;
    /// w.finish()?;
    /// let file = w.into_inner()?;
    /// let mut r = SeqReader::new(&file[..])?;
    /// let pair = r.next_pair().unwrap()?;
    /// assert_eq!((pair.key, pair.value), (&[0, 0, 0, 7][..], &b"\x02hi"[..]));
    /// # Ok::<(), hadoop_record::Error>(())
    /// ```
    pub fn append(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        let result = self.append_pair(key, value);
        self.inner.watch(result)
    }

    fn append_pair(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        // A codec this build lacks fails before anything is written.
        if let Some(engine) = &self.engine {
            engine.check()?;
        }
        self.start()?;
        let n = self.records;
        match self.options.compression {
            Compression::Block => self.append_to_block(key, value),
            _ => self.append_record(key, value),
        }
        .map_err(|e| e.in_record(n))?;
        self.records += 1;
        Ok(())
    }

    fn append_record(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let stored: &[u8] = match &mut self.engine {
            Some(engine) => {
                scratch.clear();
                engine
                    .compress(value, &mut scratch)
                    .expect("append checked the codec");
                &scratch
            }
            None => value,
        };
        let result = self.write_record(key, stored);
        self.scratch = scratch;
        result
    }

    /// A record: its length, the key's length, the key, the (stored) value; a sync entry
    /// first when the interval has passed (`checkAndWriteSync`).
    fn write_record(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        let total = key.len() + value.len();
        if total > i32::MAX as usize {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("a record of {total} bytes exceeds the format's 2 GiB"),
            ));
        }
        if self.pos >= self.last_sync.saturating_add(self.options.sync_interval) {
            self.sync()?;
        }
        let mut head = [0u8; 8];
        head[..4].copy_from_slice(&(total as i32).to_be_bytes());
        head[4..].copy_from_slice(&(key.len() as i32).to_be_bytes());
        self.put(&head)?;
        self.put(key)?;
        self.put(value)
    }

    fn append_to_block(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        let b = &mut self.block;
        if b.records == i32::MAX as u32 {
            return Err(Error::new(
                ErrorKind::Limit,
                "a block of 2^31-1 records is full",
            ));
        }
        push_vint(&mut b.key_lens, key.len());
        b.keys.extend_from_slice(key);
        push_vint(&mut b.val_lens, value.len());
        b.vals.extend_from_slice(value);
        b.records += 1;
        if b.keys.len() + b.vals.len() >= self.options.block_size {
            self.flush_block()?;
        }
        Ok(())
    }

    /// Writes the pending block, if it has records (`BlockCompressWriter.sync()`).
    pub fn flush_block(&mut self) -> Result<()> {
        let result = self.write_block();
        self.inner.watch(result)
    }

    fn write_block(&mut self) -> Result<()> {
        if self.block.records == 0 {
            return Ok(());
        }
        let b = &self.block;
        for buffer in [&b.key_lens, &b.keys, &b.val_lens, &b.vals] {
            if buffer.len() > i32::MAX as usize {
                return Err(Error::new(
                    ErrorKind::Limit,
                    format!("a block buffer of {} bytes exceeds 2 GiB", buffer.len()),
                ));
            }
        }
        self.sync()?;
        let mut head = [0u8; vint::MAX_LEN];
        let n = vint::encode(i64::from(self.block.records), &mut head);
        self.put(&head[..n])?;
        let block = std::mem::take(&mut self.block);
        let written = self.write_buffers(&block);
        // Keep the allocations for the next block; after a failure, the records too.
        self.block = block;
        written?;
        for buffer in [
            &mut self.block.key_lens,
            &mut self.block.keys,
            &mut self.block.val_lens,
            &mut self.block.vals,
        ] {
            buffer.clear();
        }
        self.block.records = 0;
        self.blocks += 1;
        Ok(())
    }

    /// Writes a block's four buffers, each compressed after its compressed length.
    fn write_buffers(&mut self, block: &Block) -> Result<()> {
        let mut head = [0u8; vint::MAX_LEN];
        for buffer in [&block.key_lens, &block.keys, &block.val_lens, &block.vals] {
            self.scratch.clear();
            self.engine
                .as_mut()
                .expect("block compression has a codec")
                .compress(buffer, &mut self.scratch)
                .expect("append checked the codec");
            let n = vint::encode(self.scratch.len() as i64, &mut head);
            self.inner.write_all(&head[..n])?;
            self.inner.write_all(&self.scratch)?;
            self.pos += (n + self.scratch.len()) as u64;
        }
        Ok(())
    }
}

fn push_vint(out: &mut Vec<u8>, n: usize) {
    let mut buf = [0u8; vint::MAX_LEN];
    let len = vint::encode(n as i64, &mut buf);
    out.extend_from_slice(&buf[..len]);
}

impl<W: Write> FrameWrite for SeqWriter<W> {
    fn write_payload(&mut self, payload: &[u8]) -> Result<()> {
        self.key.clear();
        if self.options.payload_key == PayloadKey::RecordNumber {
            self.key
                .extend_from_slice(&(self.records as i64).to_be_bytes());
        }
        let key = std::mem::take(&mut self.key);
        let result = self.append(&key, payload);
        self.key = key;
        result
    }

    fn finish(&mut self) -> Result<()> {
        let pending = self.start().and_then(|()| self.flush_block());
        self.inner.flush_after(pending)
    }
}

finish_on_drop!(
    SeqWriter,
    FrameWrite::finish,
    "writing the header and the pending block"
);
