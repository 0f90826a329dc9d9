//! The reader's input: a buffer over any `Read` that knows the file offset of every byte,
//! keeps the unit being parsed (a record or a block) until it is consumed, and grows only
//! with bytes actually read.

use std::io::Read;

use crate::uninterrupted::read_some;

/// Bytes asked of the inner reader at a time.
const CHUNK: usize = 64 << 10;

#[derive(Debug)]
pub(crate) struct Source<R> {
    inner: R,
    buf: Vec<u8>,
    /// Start of the unconsumed bytes in `buf`.
    pos: usize,
    /// Bytes of `buf` holding input.
    len: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
}

impl<R: Read> Source<R> {
    /// A source whose first byte is at file offset `offset`.
    pub(crate) fn new(inner: R, offset: u64) -> Self {
        Source {
            inner,
            buf: Vec::new(),
            pos: 0,
            len: 0,
            base: offset,
            eof: false,
        }
    }

    /// File offset of the next unconsumed byte.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    pub(crate) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Forgets the buffer: the inner reader now stands at file offset `offset`.
    pub(crate) fn reset(&mut self, offset: u64) {
        self.pos = 0;
        self.len = 0;
        self.base = offset;
        self.eof = false;
    }

    /// The unconsumed bytes buffered.
    #[inline]
    pub(crate) fn window(&self) -> &[u8] {
        &self.buf[self.pos..self.len]
    }

    /// Makes at least `n` unconsumed bytes available, or all that remain; returns the
    /// window. The buffer grows by what is read, never by `n` at once.
    #[inline]
    pub(crate) fn fill(&mut self, n: usize) -> std::io::Result<&[u8]> {
        if self.len - self.pos < n && !self.eof {
            self.fill_slow(n)?;
        }
        Ok(self.window())
    }

    #[cold]
    fn fill_slow(&mut self, n: usize) -> std::io::Result<()> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.base += self.pos as u64;
            self.pos = 0;
        }
        while self.len < n && !self.eof {
            let want = (n - self.len).clamp(CHUNK, 16 * CHUNK);
            if self.buf.len() < self.len + want {
                self.buf.resize(self.len + want, 0);
            }
            match read_some(&mut self.inner, &mut self.buf[self.len..])? {
                0 => self.eof = true,
                k => self.len += k,
            }
        }
        Ok(())
    }

    /// Index in the buffer of the next unconsumed byte, for [`Self::slice`].
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Buffered bytes by buffer index: valid until the next `fill`.
    #[inline]
    pub(crate) fn slice(&self, range: std::ops::Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// Consumes `n` buffered bytes.
    #[inline]
    pub(crate) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.len - self.pos);
        self.pos += n;
    }

    /// Consumes bytes up to the first occurrence of `pattern` at or after the current
    /// offset, leaving the source at it; false (everything consumed) if the input ends
    /// first. Linear in the input.
    pub(crate) fn skip_to(&mut self, pattern: &[u8]) -> std::io::Result<bool> {
        let finder = memchr::memmem::Finder::new(pattern);
        loop {
            let window = self.fill(pattern.len().max(CHUNK))?;
            if let Some(at) = finder.find(window) {
                self.consume(at);
                return Ok(true);
            }
            let n = window.len();
            if self.eof {
                self.consume(n);
                return Ok(false);
            }
            // Keep what could be the start of a match.
            self.consume(n.saturating_sub(pattern.len() - 1));
            self.fill(self.window().len() + CHUNK)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_and_consume_track_offsets() {
        let data: Vec<u8> = (0..=255).collect();
        // Three reads' worth, so that filling must read again.
        let pieces = (&data[..4]).chain(&data[4..12]).chain(&data[12..]);
        let mut s = Source::new(pieces, 100);
        let window = s.fill(10).unwrap();
        assert!(window.len() >= 10 && data.starts_with(window));
        s.consume(7);
        assert_eq!(s.offset(), 107);
        assert_eq!(&s.fill(300).unwrap()[..3], &[7, 8, 9]);
        assert_eq!(s.window().len(), 249);
    }

    #[test]
    fn skip_to_finds_patterns_across_reads_and_stops_at_the_end() {
        let mut data = vec![0u8; 200_000];
        data[150_000..150_004].copy_from_slice(b"SYNC");
        let mut s = Source::new(&data[..], 0);
        assert!(s.skip_to(b"SYNC").unwrap());
        assert_eq!(s.offset(), 150_000);
        s.consume(1);
        assert!(!s.skip_to(b"SYNC").unwrap());
        assert_eq!(s.offset(), 200_000);
    }
}
