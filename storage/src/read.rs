//! [`RangeReader`]: an object as `Read + Seek`, fetched with ranged gets.

use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use tokio::runtime::Handle;

/// How much a reader fetches at a time.
pub const BLOCK: u64 = 8 << 20;

/// An object read block by block with ranged gets: only the blocks that reads reach are
/// fetched, so a reader that seeks to a split and reads it fetches that range (and the
/// rest of the block its last record ends in). It waits on the runtime through `handle`,
/// so it is used from a thread that may block (not a runtime's worker).
#[derive(Debug)]
pub struct RangeReader {
    store: Arc<dyn ObjectStore>,
    location: Path,
    size: u64,
    pos: u64,
    block: Bytes,
    block_start: u64,
    handle: Handle,
}

impl RangeReader {
    /// A reader of `size` bytes at `location` in `store`, from the start.
    pub fn new(store: Arc<dyn ObjectStore>, location: Path, size: u64, handle: Handle) -> Self {
        RangeReader {
            store,
            location,
            size,
            pos: 0,
            block: Bytes::new(),
            block_start: 0,
            handle,
        }
    }

    /// The object's size.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn block_range(&self) -> Range<u64> {
        self.block_start..self.block_start + self.block.len() as u64
    }
}

impl Read for RangeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.size || buf.is_empty() {
            return Ok(0);
        }
        if !self.block_range().contains(&self.pos) {
            let end = (self.pos + BLOCK.max(buf.len() as u64)).min(self.size);
            let fetch = self.store.get_range(&self.location, self.pos..end);
            self.block = self.handle.block_on(fetch).map_err(io::Error::other)?;
            self.block_start = self.pos;
            if self.block.is_empty() {
                return Ok(0);
            }
        }
        let at = (self.pos - self.block_start) as usize;
        let n = buf.len().min(self.block.len() - at);
        buf[..n].copy_from_slice(&self.block[at..at + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for RangeReader {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let to = match pos {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.size.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = to.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the object",
            )
        })?;
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object_store::memory::InMemory;

    #[test]
    fn reads_and_seeks_fetch_the_objects_bytes() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let data: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
        let path = Path::from("a");
        runtime
            .block_on(store.put(&path, data.clone().into()))
            .unwrap();
        let mut reader = RangeReader::new(store, path, data.len() as u64, runtime.handle().clone());
        reader.seek(SeekFrom::Start(99_000)).unwrap();
        let mut tail = Vec::new();
        reader.read_to_end(&mut tail).unwrap();
        assert_eq!(tail, data[99_000..]);
        reader.seek(SeekFrom::End(-100_001)).unwrap_err();
        reader.seek(SeekFrom::Start(10)).unwrap();
        let mut four = [0; 4];
        reader.read_exact(&mut four).unwrap();
        assert_eq!(four, [10, 11, 12, 13]);
    }
}
