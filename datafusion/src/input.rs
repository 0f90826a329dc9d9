//! A record file as the framings' range readers take it: a local file mapped into memory
//! (or, where it cannot be mapped, the file itself), else byte ranges fetched from the
//! object store block by block (`Read + Seek`).

use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::sync::Arc;

use bytes::Bytes;
use datafusion::common::Result;
use hadoop_record_storage::RangeReader;
use object_store::{GetOptions, GetRange, GetResultPayload, ObjectMeta, ObjectStore};
use tokio::runtime::Handle;

/// An open record file.
pub(crate) enum Input {
    /// A local file, mapped into memory; read as a cursor by readers that copy anyway.
    Mapped(Cursor<Bytes>),
    /// A local file read with read calls: mapping was turned off, or failed (not a regular
    /// file, say).
    Local(std::fs::File),
    /// An object in any other store (HDFS, S3), read in ranges.
    Remote(RangeReader),
}

/// Opens `meta`'s object: a local file stays a file (DataFusion's local store hands it
/// over as such), mapped into memory if `map`; any other object is read through ranged
/// gets.
pub(crate) async fn open(
    store: &Arc<dyn ObjectStore>,
    meta: &ObjectMeta,
    map: bool,
    range: Option<(u64, u64)>,
) -> Result<Input> {
    let remote = || {
        let reader = RangeReader::new(
            store.clone(),
            meta.location.clone(),
            meta.size,
            Handle::current(),
        );
        // A split's reads end soon after its range: nothing beyond it is fetched ahead.
        Input::Remote(match range {
            Some((_, end)) => reader.read_ahead_until(end),
            None => reader,
        })
    };
    if meta.size == 0 {
        return Ok(remote());
    }
    // One byte asked for: a local store opens the file, another store sends one byte.
    let options = GetOptions {
        range: Some(GetRange::Bounded(0..1)),
        ..GetOptions::default()
    };
    match store.get_opts(&meta.location, options).await?.payload {
        GetResultPayload::File(file, _) if map => Ok(mapped(file, range)),
        GetResultPayload::File(file, _) => Ok(Input::Local(file)),
        GetResultPayload::Stream(_) => Ok(remote()),
    }
}

/// `file` mapped into memory, so that readers look at the page cache's bytes instead of
/// copying them (a Paddle scan otherwise copies every chunk into a buffer of its own before
/// decoding it); the file itself where mapping fails. The pages of `range` (the scan's
/// bytes; `None`: all) are mapped at once, ahead of the scan: one system call instead of a
/// page fault for every few pages the scan first touches.
fn mapped(file: std::fs::File, range: Option<(u64, u64)>) -> Input {
    // SAFETY: the map is only ever read, but its bytes are handed out as `&[u8]`, which
    // promises they do not change: a file rewritten in place or truncated by another
    // process while it is scanned breaks that promise (truncation faults with SIGBUS). The
    // scan assumes files under a query stay as they are, as DataFusion does when it plans
    // ranges from their sizes; `RecordTableOptions::memory_map(false)` (`rcc sql --no-mmap`)
    // reads them instead, for files that may change.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => {
            populate(&map, range);
            Input::Mapped(Cursor::new(Bytes::from_owner(map)))
        }
        Err(_) => Input::Local(file),
    }
}

/// Maps the pages of `range` of `map` in, where the system can (Linux 5.14 and later); a
/// hint only: pages it leaves out are faulted in as the scan reaches them.
fn populate(map: &memmap2::Mmap, range: Option<(u64, u64)>) {
    #[cfg(target_os = "linux")]
    {
        let len = map.len() as u64;
        let (start, end) = range.unwrap_or((0, len));
        let (start, end) = (start.min(len), end.min(len));
        // The offset must be page-aligned.
        let start = start & !4095;
        if end > start {
            let advice = memmap2::Advice::PopulateRead;
            let _ = map.advise_range(advice, start as usize, (end - start) as usize);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (map, range);
}

impl Input {
    /// The file's first bytes, as many as tell its framing
    /// ([`DETECT_LEN`](hadoop_record::framing::detect::DETECT_LEN)); the input is left at
    /// its start.
    pub(crate) fn first_bytes(&mut self) -> io::Result<Vec<u8>> {
        use hadoop_record::framing::detect::DETECT_LEN;
        if let Input::Mapped(file) = self {
            let bytes = file.get_ref();
            return Ok(bytes[..bytes.len().min(DETECT_LEN)].to_vec());
        }
        self.seek(SeekFrom::Start(0))?;
        let mut first = Vec::with_capacity(DETECT_LEN);
        self.take(DETECT_LEN as u64).read_to_end(&mut first)?;
        self.seek(SeekFrom::Start(0))?;
        Ok(first)
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Mapped(c) => c.read(buf),
            Input::Local(f) => f.read(buf),
            Input::Remote(r) => r.read(buf),
        }
    }
}

impl Seek for Input {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        match self {
            Input::Mapped(c) => c.seek(pos),
            Input::Local(f) => f.seek(pos),
            Input::Remote(r) => r.seek(pos),
        }
    }
}
