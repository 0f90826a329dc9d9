//! The buffered byte source every streaming archive input reads through.
//!
//! Decoders look at [`Source::available`] and decode straight from it when enough bytes are
//! there (the fast path), and call [`Source::fill`] only when they run short. The buffer has a
//! fixed size except while a single text token longer than it is being read; it grows then only
//! as the bytes actually arrive, never from a length the input claims.

use std::io::{ErrorKind as IoErrorKind, Read};

use crate::error::{Error, Position, Result};
use crate::uninterrupted::read_more;

/// Bytes read from the reader at a time.
pub(crate) const CAPACITY: usize = 64 * 1024;

/// A reader with a refillable buffer and the stream offset of every buffered byte.
#[derive(Debug)]
pub(crate) struct Source<R> {
    inner: R,
    /// `buf[pos..end]` holds bytes read but not consumed.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
}

impl<R: Read> Source<R> {
    #[cfg(test)]
    pub(crate) fn new(inner: R) -> Self {
        Self::with_capacity(inner, CAPACITY)
    }

    /// A source whose buffer starts at `capacity` bytes (at least 1, at most [`CAPACITY`]):
    /// smaller for input known to be small, such as one record in memory.
    pub(crate) fn with_capacity(inner: R, capacity: usize) -> Self {
        Source {
            inner,
            buf: vec![0; capacity.clamp(1, CAPACITY)],
            pos: 0,
            end: 0,
            base: 0,
            eof: false,
        }
    }

    /// The reader.
    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The reader, mutably: reading from it directly skips what is buffered here.
    pub(crate) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The reader; bytes buffered and not yet consumed are lost.
    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    /// The bytes read and not yet consumed.
    #[inline(always)]
    pub(crate) fn available(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Marks `n` available bytes as consumed.
    #[inline(always)]
    pub(crate) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.pos);
        self.pos += n;
    }

    /// The stream offset of the next unconsumed byte.
    #[inline]
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next byte without consuming it; `None` at the end of input.
    #[inline]
    pub(crate) fn peek(&mut self) -> Result<Option<u8>> {
        if self.pos < self.end {
            return Ok(Some(self.buf[self.pos]));
        }
        self.fill()?;
        Ok(self.available().first().copied())
    }

    /// Reads more bytes after those available, moving them to the front of the buffer first.
    /// Returns whether any arrived (`false`: end of input). When the buffer is full of
    /// unconsumed bytes it grows: callers ask for more only when they need more.
    pub(crate) fn fill(&mut self) -> Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.end == self.buf.len() {
            // Doubling: a token longer than the buffer costs amortised linear time, and the
            // buffer is never more than twice the bytes that actually arrived.
            self.buf.resize(self.buf.len() * 2, 0);
        }
        read_more(&mut self.inner, &mut self.buf, &mut self.end, &mut self.eof)
            .map_err(|e| Error::from(e).at(Position::Byte(self.base + self.end as u64)))
    }

    /// Makes at least `n` bytes available when the input holds them (`n` at most 64 KiB; a
    /// smaller buffer grows to it); returns whether it does.
    #[inline]
    pub(crate) fn request(&mut self, n: usize) -> Result<bool> {
        debug_assert!(n <= CAPACITY);
        while self.end - self.pos < n {
            if !self.fill()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Steps over `n` bytes without keeping them: whatever is buffered, then the reader's
    /// bytes through the buffer, which never grows for it. Returns how many bytes were
    /// skipped: fewer than `n` means the input ended.
    pub(crate) fn skip(&mut self, n: usize) -> Result<usize> {
        let mut left = n;
        loop {
            let here = left.min(self.end - self.pos);
            self.pos += here;
            left -= here;
            if left == 0 || !self.fill()? {
                return Ok(n - left);
            }
        }
    }

    /// Appends exactly `n` bytes to `out`, taking them from the buffer and then straight from
    /// the reader. `out` grows only as bytes arrive. Returns how many bytes were appended: fewer
    /// than `n` means the input ended.
    pub(crate) fn read_into(&mut self, n: usize, out: &mut Vec<u8>) -> Result<usize> {
        let here = n.min(self.end - self.pos);
        out.extend_from_slice(&self.buf[self.pos..self.pos + here]);
        self.pos += here;
        if here == n {
            return Ok(n);
        }
        // The buffer is empty: large payloads bypass it (one copy instead of two).
        self.base += self.end as u64;
        self.pos = 0;
        self.end = 0;
        if self.eof {
            return Ok(here);
        }
        let want = (n - here) as u64;
        let start = out.len();
        let got = loop {
            match (&mut self.inner).take(want).read_to_end(out) {
                Ok(got) => break got,
                Err(e) if e.kind() == IoErrorKind::Interrupted => {}
                Err(e) => {
                    let at = Position::Byte(self.base + (out.len() - start) as u64);
                    return Err(Error::from(e).at(at));
                }
            }
        };
        self.base += got as u64;
        if (got as u64) < want {
            self.eof = true;
        }
        Ok(here + got)
    }
}

#[cfg(test)]
mod tests {
    use fixture_harness::Trickle;

    use super::*;

    #[test]
    fn request_refills_and_offsets_follow() {
        let mut s = Source::new(Trickle::new(b"abcdef", 1));
        assert!(s.request(3).unwrap());
        assert_eq!(s.available(), b"abc");
        s.consume(2);
        assert_eq!(s.offset(), 2);
        assert_eq!(s.peek().unwrap(), Some(b'c'));
        assert!(s.request(4).unwrap());
        assert_eq!(s.available(), b"cdef");
        assert!(!s.request(5).unwrap());
        s.consume(4);
        assert_eq!(s.peek().unwrap(), None);
        assert_eq!(s.offset(), 6);
    }

    #[test]
    fn skip_steps_over_buffered_and_unbuffered_bytes_and_stops_at_the_end() {
        let data: Vec<u8> = (0..=255).collect();
        let mut src = Source::with_capacity(Trickle::new(&data, 1), 4);
        assert_eq!(src.skip(10).unwrap(), 10);
        assert_eq!(src.offset(), 10);
        assert_eq!(src.peek().unwrap(), Some(10));
        assert_eq!(src.skip(200).unwrap(), 200);
        assert_eq!(src.peek().unwrap(), Some(210));
        assert!(
            src.buf.len() <= 4,
            "the buffer does not grow for skipped bytes"
        );
        assert_eq!(src.skip(100).unwrap(), 46);
        assert_eq!(src.offset(), 256);
    }

    #[test]
    fn read_into_takes_from_buffer_then_reader_and_stops_at_the_end() {
        let data: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        let mut s = Source::new(&data[..]);
        assert!(s.request(10).unwrap());
        s.consume(10);
        let mut out = Vec::new();
        assert_eq!(s.read_into(150_000, &mut out).unwrap(), 150_000);
        assert_eq!(out, data[10..150_010]);
        assert_eq!(s.offset(), 150_010);
        out.clear();
        assert_eq!(s.read_into(100_000, &mut out).unwrap(), 49_990);
        assert_eq!(out, data[150_010..]);
        assert_eq!(s.peek().unwrap(), None);
    }

    #[test]
    fn the_buffer_grows_only_for_bytes_that_arrive() {
        let data = vec![b'x'; 3 * CAPACITY];
        let mut s = Source::new(&data[..]);
        while s.fill().unwrap() {}
        assert_eq!(s.available().len(), data.len());
        assert!(s.buf.len() <= 2 * data.len());
    }
}
