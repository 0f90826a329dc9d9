//! A buffered byte source that tracks its offset: what the chunk scanner reads headers
//! (and, when recovering, whole chunks) from. A source over bytes already in memory
//! ([`Source::in_memory`]) hands out views of them instead of copies.

use std::io::{Cursor, Read};

use bytes::Bytes;

use crate::error::{Error, Position, Result};
use crate::uninterrupted::read_some;

const BLOCK: usize = 64 * 1024;
/// The most [`Source::read_into`] reads at once: small enough to be checked while it is
/// still in a core's cache, large enough that system calls do not count.
const PIECE: usize = 256 * 1024;

#[derive(Debug)]
pub(crate) struct Source<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    /// Stream offset of `buf[pos]`.
    offset: u64,
    eof: bool,
    /// Stream offset where the input ends, when known (a file's or an object's length):
    /// a payload's buffer is then sized once, for the bytes that can still arrive, instead
    /// of growing by doubling as they do.
    end: Option<u64>,
    /// The whole input, when it is in memory: then `offset` indexes it, and nothing is read
    /// from `inner` or copied into `buf`.
    memory: Option<Bytes>,
}

impl Source<Cursor<Bytes>> {
    /// From here on, hands out views of the cursor's bytes, a whole input held in memory (a
    /// memory-mapped file), instead of copies; `offset` indexes them. Only before anything
    /// was read through the source.
    pub(crate) fn in_memory(&mut self) {
        debug_assert!(self.buf.is_empty());
        self.memory = Some(self.inner.get_ref().clone());
    }
}

impl<R: Read> Source<R> {
    /// A source whose first byte is at stream offset `offset` (0 for a whole stream; the
    /// offset `inner` was positioned at for a split).
    pub(crate) fn at(inner: R, offset: u64) -> Self {
        Source {
            inner,
            buf: Vec::new(),
            pos: 0,
            offset,
            eof: false,
            end: None,
            memory: None,
        }
    }

    /// Tells the source that its input ends at stream offset `end` (a length taken from
    /// the input itself when it was opened, not from a header): payloads are read up to
    /// there at most.
    pub(crate) fn ends_at(&mut self, end: u64) {
        self.end = Some(end);
    }

    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    /// Whether payloads are views of an input in memory ([`Source::in_memory`]).
    pub(crate) fn is_in_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Stream offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    fn io_error(&self, e: std::io::Error) -> Error {
        Error::from(e).at(Position::Byte(self.offset))
    }

    /// Makes at least `want` bytes available unless the input ends first; returns them.
    pub(crate) fn fill(&mut self, want: usize) -> Result<&[u8]> {
        Ok(self.window(want)?.0)
    }

    /// [`Self::fill`], and whether the input has ended (then the bytes returned are all
    /// that is left).
    pub(crate) fn window(&mut self, want: usize) -> Result<(&[u8], bool)> {
        self.load(want)?;
        let available = match &self.memory {
            Some(memory) => memory.get(self.offset as usize..).unwrap_or_default(),
            None => &self.buf[self.pos..],
        };
        Ok((available, self.eof))
    }

    /// Reads until at least `want` bytes are buffered or the input ends; an input in
    /// memory is all there already.
    fn load(&mut self, want: usize) -> Result<()> {
        if self.memory.is_some() {
            self.eof = true;
            return Ok(());
        }
        while self.buf.len() - self.pos < want && !self.eof {
            if self.pos > 0 {
                self.buf.drain(..self.pos);
                self.pos = 0;
            }
            let len = self.buf.len();
            // Grow by at most what is already buffered (or a block): a large `want` taken
            // from a header costs memory only as its bytes arrive.
            let step = (want - len).max(BLOCK).min(len.max(BLOCK));
            self.buf.resize(len + step, 0);
            let n = match read_some(&mut self.inner, &mut self.buf[len..]) {
                Ok(n) => n,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(self.io_error(e));
                }
            };
            self.buf.truncate(len + n);
            self.eof = n == 0;
        }
        Ok(())
    }

    pub(crate) fn consume(&mut self, n: usize) {
        if self.memory.is_none() {
            debug_assert!(n <= self.buf.len() - self.pos);
            self.pos += n;
        }
        self.offset += n as u64;
    }

    /// Appends up to `n` bytes to `out`, fewer only at end of input; returns how many.
    /// `out` grows only with bytes actually read, or once by the bytes the input still
    /// holds when its end is known ([`Source::ends_at`]). The bytes arrive in pieces of
    /// at most [`PIECE`]: after each, `arrived` gets all of `out` and the number of bytes
    /// just appended, to look at them while they are in cache.
    pub(crate) fn read_into(
        &mut self,
        n: u64,
        out: &mut PayloadBuf,
        mut arrived: impl FnMut(&[u8], usize),
    ) -> Result<u64> {
        if let Some(memory) = &self.memory {
            let at = (self.offset as usize).min(memory.len());
            let n = (memory.len() - at).min(n.min(usize::MAX as u64) as usize);
            let view = memory.slice(at..at + n);
            let mut seen = 0;
            while seen < n {
                let k = (n - seen).min(PIECE);
                seen += k;
                arrived(&view[..seen], k);
            }
            out.set_view(view);
            self.consume(n);
            return Ok(n as u64);
        }
        let n = match self.end {
            // The bytes a header asks for, as far as the input holds them, in one allocation
            // of what exists: not a copy at every doubling (for a chunk of 32 MiB read from
            // HDFS, that was twice its pages faulted in and a copy of 32 MiB).
            Some(end) => {
                let n = end.saturating_sub(self.offset).min(n);
                out.reserve(n.min(usize::MAX as u64) as usize);
                n
            }
            None => n,
        };
        let buffered = (self.buf.len() - self.pos).min(n.min(usize::MAX as u64) as usize);
        out.extend_from_slice(&self.buf[self.pos..self.pos + buffered]);
        self.consume(buffered);
        if buffered > 0 {
            arrived(out.as_slice(), buffered);
        }
        let mut got = buffered as u64;
        while got < n && !self.eof {
            // At most double what is held (or a block): a large `n` taken from a header
            // costs memory only as its bytes arrive.
            let step = (n - got).min(out.len().clamp(BLOCK, PIECE) as u64) as usize;
            let k = match read_some(&mut self.inner, out.spare(step)) {
                Ok(k) => k,
                Err(e) => return Err(self.io_error(e)),
            };
            out.advance(k);
            if k > 0 {
                arrived(out.as_slice(), k);
            }
            got += k as u64;
            self.offset += k as u64;
            self.eof = k == 0;
        }
        Ok(got)
    }
}

/// A byte buffer that stays initialised up to the most it has held, so that refilling it
/// zeroes nothing: `Read::read_to_end` zeroes the spare capacity it reads into on every call
/// through a reader that is not std's own (a chunk's worth of `memset` per chunk). Or a
/// view of an input in memory, which it holds instead of its own bytes until cleared.
#[derive(Debug, Default)]
pub(crate) struct PayloadBuf {
    bytes: Vec<u8>,
    len: usize,
    view: Option<Bytes>,
}

impl PayloadBuf {
    /// An empty buffer that refills `bytes` (a previous buffer's, from
    /// [`PayloadBuf::into_vec`]) before it grows.
    pub(crate) fn from_vec(bytes: Vec<u8>) -> Self {
        PayloadBuf {
            bytes,
            len: 0,
            view: None,
        }
    }

    /// The memory, initialised as far as its length, for another buffer to reuse.
    pub(crate) fn into_vec(self) -> Vec<u8> {
        self.bytes
    }

    /// Whether the buffer has never held memory.
    pub(crate) fn is_unused(&self) -> bool {
        self.bytes.capacity() == 0
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        match &self.view {
            Some(view) => view,
            None => &self.bytes[..self.len],
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.view = None;
    }

    /// Holds `view` (until cleared) instead of its own bytes.
    fn set_view(&mut self, view: Bytes) {
        self.len = 0;
        self.view = Some(view);
    }

    /// Appends `data` to the held bytes; a buffer holding a view must be cleared first.
    pub(crate) fn extend_from_slice(&mut self, data: &[u8]) {
        debug_assert!(self.view.is_none());
        self.spare(data.len()).copy_from_slice(data);
        self.len += data.len();
    }

    /// Room for `n` more bytes than are held, in one allocation if it must grow.
    fn reserve(&mut self, n: usize) {
        let need = self.len.saturating_add(n);
        if need > self.bytes.capacity() {
            self.bytes.reserve_exact(need - self.bytes.len());
        }
    }

    /// `n` writable bytes after the held ones; [`PayloadBuf::advance`] keeps what was
    /// written.
    fn spare(&mut self, n: usize) -> &mut [u8] {
        let end = self.len + n;
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        &mut self.bytes[self.len..end]
    }

    fn advance(&mut self, n: usize) {
        self.len += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `n` bytes of `input` into a fresh buffer, the input's end told or not.
    fn read(input: &[u8], n: u64, told: bool) -> (PayloadBuf, u64) {
        let mut src = Source::at(input, 0);
        if told {
            src.ends_at(input.len() as u64);
        }
        let mut out = PayloadBuf::default();
        let got = src.read_into(n, &mut out, |_, _| {}).unwrap();
        (out, got)
    }

    #[test]
    fn a_payload_of_an_input_of_known_length_is_allocated_once() {
        let input: Vec<u8> = (0..=255u8).cycle().take(1_100_000).collect();
        let n = 1_000_000;
        let (told, got) = read(&input, n, true);
        assert_eq!((got, told.as_slice()), (n, &input[..n as usize]));
        assert_eq!(told.bytes.capacity(), n as usize, "sized once, exactly");
        // Not told, it grows by doubling as the bytes arrive: the same bytes, more memory.
        let (grown, _) = read(&input, n, false);
        assert_eq!(grown.as_slice(), told.as_slice());
        assert!(grown.bytes.capacity() > n as usize);
    }

    #[test]
    fn a_header_asking_for_more_than_the_input_holds_allocates_what_it_holds() {
        let input = vec![7u8; 5000];
        let (out, got) = read(&input, 1 << 40, true);
        assert_eq!(got, 5000);
        assert_eq!(out.bytes.capacity(), 5000);
    }
}
