//! [`RangeReader`]: an object as `Read + Seek`, fetched with ranged gets.

use std::collections::VecDeque;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use futures::TryStreamExt;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore};
use tokio::runtime::Handle;
use tokio::task::JoinHandle;

/// How much a reader fetches at a time while it reads on sequentially.
pub const BLOCK: u64 = 8 << 20;

/// How much a read fetches where a reader has just arrived (its first read, or one after a
/// seek elsewhere): enough for a header or a record, which is all a reader that hops
/// through a file wants (a Paddle split walking the chunk headers before its range). A
/// read that goes on from there fetches a [`BLOCK`] and the one after it.
pub const PROBE: u64 = 64 << 10;

/// An object read block by block with ranged gets: only the blocks that reads reach are
/// fetched, so a reader that seeks to a split and reads it fetches that range (and the
/// rest of the block its last record ends in). A read where the reader has just arrived
/// fetches only 64 KiB; reads that go on from there fetch blocks of 8 MiB, and while a
/// block is read, the next one is fetched (up to
/// [`read_ahead_until`](RangeReader::read_ahead_until)), so that the transfer overlaps the
/// decoding. A block is kept as the pieces the store sent (an HDFS
/// packet, an HTTP body chunk), not copied into one buffer: reads copy each byte once,
/// into the caller's buffer. It waits on the runtime through `handle`, so it is used from
/// a thread that may block (not a runtime's worker).
#[derive(Debug)]
pub struct RangeReader {
    store: Arc<dyn ObjectStore>,
    location: Path,
    size: u64,
    pos: u64,
    /// The rest of the current block, from `block_start` on.
    block: VecDeque<Bytes>,
    block_start: u64,
    block_end: u64,
    /// The fetch of the block that starts at `block_end`.
    next: Option<(u64, JoinHandle<object_store::Result<Vec<Bytes>>>)>,
    /// No block starting at or after this is fetched ahead of a read.
    ahead_end: u64,
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
            block: VecDeque::new(),
            block_start: 0,
            block_end: 0,
            next: None,
            ahead_end: size,
            handle,
        }
    }

    /// Fetches ahead only blocks that start before `end` (a split's end: what lies beyond
    /// it is fetched only if a read reaches it).
    pub fn read_ahead_until(mut self, end: u64) -> Self {
        self.ahead_end = end.min(self.size);
        self
    }

    /// The pieces of the bytes `start..start + len` (a block), from the fetch ahead when it
    /// is that block's.
    fn fetch(&mut self, start: u64, len: u64) -> io::Result<Vec<Bytes>> {
        let end = (start + len).min(self.size);
        if let Some((at, pending)) = self.next.take() {
            if at != start || len > BLOCK {
                pending.abort();
            } else if let Ok(Ok(fetched)) = self.handle.block_on(pending) {
                return Ok(fetched);
            }
            // A fetch ahead that failed (its DataNode lost while it ran, say) is made again
            // now, as the read would have made it: HDFS then picks a live replica.
        }
        let fetch = pieces(self.store.clone(), self.location.clone(), start..end);
        self.handle.block_on(fetch).map_err(io::Error::other)
    }

    /// Starts fetching the block after the current one, if a sequential read will want it.
    fn fetch_ahead(&mut self) {
        let start = self.block_end;
        if self.next.is_some() || start >= self.ahead_end || self.block.is_empty() {
            return;
        }
        let end = (start + BLOCK).min(self.size);
        let fetch = pieces(self.store.clone(), self.location.clone(), start..end);
        self.next = Some((start, self.handle.spawn(fetch)));
    }

    /// The object's size.
    pub fn size(&self) -> u64 {
        self.size
    }
}

/// The bytes `range` of `location`, as the pieces the store sends them in.
async fn pieces(
    store: Arc<dyn ObjectStore>,
    location: Path,
    range: Range<u64>,
) -> object_store::Result<Vec<Bytes>> {
    let options = GetOptions {
        range: Some(GetRange::Bounded(range)),
        ..GetOptions::default()
    };
    let stream = store.get_opts(&location, options).await?.into_stream();
    stream.try_collect().await
}

impl Read for RangeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.size || buf.is_empty() {
            return Ok(0);
        }
        if !(self.block_start..self.block_end).contains(&self.pos) {
            // A read where the last fetch ended (there was one) goes on sequentially.
            let sequential = self.block_end > 0 && self.pos == self.block_end;
            let len = if sequential { BLOCK } else { PROBE };
            let pieces = self.fetch(self.pos, len.max(buf.len() as u64))?;
            self.block = pieces.into_iter().filter(|p| !p.is_empty()).collect();
            self.block_start = self.pos;
            self.block_end = self.pos + self.block.iter().map(|p| p.len() as u64).sum::<u64>();
            if self.block.is_empty() {
                return Ok(0);
            }
            if sequential {
                self.fetch_ahead();
            }
        }
        // Pieces wholly before the position are done with.
        while let Some(piece) = self.block.front() {
            let end = self.block_start + piece.len() as u64;
            if end > self.pos {
                break;
            }
            self.block_start = end;
            self.block.pop_front();
        }
        let piece = &self.block[0];
        let at = (self.pos - self.block_start) as usize;
        let n = buf.len().min(piece.len() - at);
        buf[..n].copy_from_slice(&piece[at..at + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl Drop for RangeReader {
    fn drop(&mut self) {
        if let Some((_, pending)) = self.next.take() {
            pending.abort();
        }
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
    use object_store::ObjectStoreExt;

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

    #[test]
    fn reads_cross_the_pieces_a_store_sends() {
        // The local store sends a ranged get as pieces of 8 KiB, as HDFS sends packets.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let file = std::env::temp_dir().join(format!("range-reader-{}", std::process::id()));
        let len = BLOCK as usize + 100_000;
        let data: Vec<u8> = (0..=250u8).cycle().take(len).collect();
        std::fs::write(&file, &data).unwrap();
        let store: Arc<dyn ObjectStore> = Arc::new(object_store::local::LocalFileSystem::new());
        let path = Path::from_filesystem_path(&file).unwrap();
        let mut reader = RangeReader::new(store, path, len as u64, runtime.handle().clone());
        let mut all = Vec::new();
        for piece in data.chunks(10_007) {
            let mut got = vec![0; piece.len()];
            reader.read_exact(&mut got).unwrap();
            all.extend_from_slice(&got);
        }
        assert!(all == data, "every byte once, in order");
        // Back to where pieces were dropped, and across the end of the first block.
        for at in [5, BLOCK as usize - 3] {
            reader.seek(SeekFrom::Start(at as u64)).unwrap();
            let mut got = [0; 20_000];
            reader.read_exact(&mut got).unwrap();
            assert!(got[..] == data[at..at + got.len()], "at {at}");
        }
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn a_sequential_read_fetches_ahead_but_not_past_its_split() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let len = 3 * BLOCK as usize + 1000;
        let data: Vec<u8> = (0..=250u8).cycle().take(len).collect();
        let path = Path::from("big");
        runtime
            .block_on(store.put(&path, data.clone().into()))
            .unwrap();
        let handle = runtime.handle().clone();
        let reader = RangeReader::new(store.clone(), path.clone(), len as u64, handle.clone());
        let mut all = Vec::new();
        reader.take(len as u64).read_to_end(&mut all).unwrap();
        assert!(all == data, "every byte once, in order");

        // A split of a block and a half: read to its end, the block after the one its end
        // lies in (which starts after the split) is not fetched ahead.
        let mut split =
            RangeReader::new(store, path, len as u64, handle).read_ahead_until(BLOCK + BLOCK / 2);
        let mut part = vec![0; (BLOCK + BLOCK / 2) as usize + 10];
        for piece in part.chunks_mut(1 << 16) {
            split.read_exact(piece).unwrap();
        }
        assert_eq!(part, data[..part.len()]);
        assert!(split.next.is_none(), "nothing fetched ahead past the split");
        split.seek(SeekFrom::Start(10)).unwrap();
        split.read_exact(&mut part[..4]).unwrap();
        assert_eq!(part[..4], data[10..14]);
    }

    /// An in-memory store that adds up the bytes its ranged gets ask for.
    #[derive(Debug, Default)]
    struct Counting {
        inner: InMemory,
        asked: std::sync::atomic::AtomicU64,
    }

    impl std::fmt::Display for Counting {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("Counting")
        }
    }

    #[async_trait::async_trait]
    impl ObjectStore for Counting {
        async fn put_opts(
            &self,
            location: &Path,
            payload: object_store::PutPayload,
            opts: object_store::PutOptions,
        ) -> object_store::Result<object_store::PutResult> {
            self.inner.put_opts(location, payload, opts).await
        }
        async fn put_multipart_opts(
            &self,
            location: &Path,
            opts: object_store::PutMultipartOptions,
        ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
            self.inner.put_multipart_opts(location, opts).await
        }
        async fn get_opts(
            &self,
            location: &Path,
            options: GetOptions,
        ) -> object_store::Result<object_store::GetResult> {
            if let Some(GetRange::Bounded(range)) = &options.range {
                let asked = range.end - range.start;
                self.asked
                    .fetch_add(asked, std::sync::atomic::Ordering::Relaxed);
            }
            self.inner.get_opts(location, options).await
        }
        fn delete_stream(
            &self,
            locations: futures::stream::BoxStream<'static, object_store::Result<Path>>,
        ) -> futures::stream::BoxStream<'static, object_store::Result<Path>> {
            self.inner.delete_stream(locations)
        }
        fn list(
            &self,
            prefix: Option<&Path>,
        ) -> futures::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
        {
            self.inner.list(prefix)
        }
        async fn list_with_delimiter(
            &self,
            prefix: Option<&Path>,
        ) -> object_store::Result<object_store::ListResult> {
            self.inner.list_with_delimiter(prefix).await
        }
        async fn copy_opts(
            &self,
            from: &Path,
            to: &Path,
            options: object_store::CopyOptions,
        ) -> object_store::Result<()> {
            self.inner.copy_opts(from, to, options).await
        }
    }

    #[test]
    fn hops_through_an_object_fetch_small_pieces_and_reads_that_go_on_fetch_blocks() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let counting = Arc::new(Counting::default());
        let store: Arc<dyn ObjectStore> = counting.clone();
        let len = 12 * BLOCK as usize;
        let data: Vec<u8> = (0..=250u8).cycle().take(len).collect();
        let path = Path::from("chunks");
        runtime
            .block_on(store.put(&path, data.clone().into()))
            .unwrap();
        let asked = || counting.asked.load(std::sync::atomic::Ordering::Relaxed);
        let mut reader = RangeReader::new(store, path, len as u64, runtime.handle().clone());
        // A Paddle split's walk over the chunk headers before its range: 28 bytes every 4 MiB.
        let hops = len as u64 / (4 << 20);
        for i in 0..hops {
            let mut header = [0; 28];
            reader.seek(SeekFrom::Start(i * (4 << 20))).unwrap();
            reader.read_exact(&mut header).unwrap();
            assert_eq!(header[..], data[(i * (4 << 20)) as usize..][..28]);
        }
        assert!(reader.next.is_none(), "nothing fetched ahead of a hop");
        assert_eq!(asked(), hops * PROBE, "a probe per hop");

        // Then the split itself, read on from where it starts in pieces: all its bytes, a
        // first piece and a block fetched ahead at most.
        let (start, split, piece) = (5 * BLOCK + 100, 4 * BLOCK, 256 << 10);
        let before = asked();
        reader.seek(SeekFrom::Start(start)).unwrap();
        let mut got = vec![0; split as usize];
        for piece in got.chunks_mut(piece as usize) {
            reader.read_exact(piece).unwrap();
        }
        assert!(got[..] == data[start as usize..][..split as usize]);
        let fetched = asked() - before;
        assert!(
            (split..=split + piece + BLOCK).contains(&fetched),
            "{fetched} bytes asked for a split of {split}"
        );
    }
}
