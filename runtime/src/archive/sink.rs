//! The buffered byte sink every archive output writes through.

use std::io::Write;

use crate::error::Result;

/// Bytes are gathered in memory and handed to the writer in large pieces, so that encoding
/// a field is a push onto a `Vec` rather than a call into the writer.
#[derive(Debug)]
pub struct Sink<W: Write> {
    buf: Vec<u8>,
    inner: W,
    written: u64,
}

/// Buffered bytes above which [`Sink::end_of_record`] hands them to the writer.
const FLUSH_AT: usize = 32 * 1024;
/// Payloads at least this long bypass the buffer (one copy instead of two).
const DIRECT_AT: usize = 2 * 1024;

impl<W: Write> Sink<W> {
    /// A sink writing to `inner`.
    pub fn new(inner: W) -> Self {
        Sink {
            // Grows to about FLUSH_AT on a stream; stays small for one short record
            // (`Display` writes through a sink too).
            buf: Vec::new(),
            inner,
            written: 0,
        }
    }

    /// The buffer to append encoded bytes to.
    #[inline]
    pub fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Appends `data`, bypassing the buffer for large payloads.
    #[inline]
    pub fn write_bytes(&mut self, data: &[u8]) -> Result<()> {
        if data.len() >= DIRECT_AT {
            self.drain()?;
            self.inner.write_all(data)?;
            self.written += data.len() as u64;
        } else {
            self.buf.extend_from_slice(data);
        }
        Ok(())
    }

    /// Called after each top-level record: hands the buffer over once it is large.
    #[inline]
    pub fn end_of_record(&mut self) -> Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.drain()?;
        }
        Ok(())
    }

    /// Bytes written so far, buffered or not.
    pub fn position(&self) -> u64 {
        self.written + self.buf.len() as u64
    }

    fn drain(&mut self) -> Result<()> {
        if !self.buf.is_empty() {
            self.inner.write_all(&self.buf)?;
            self.written += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes everything buffered and flushes the writer.
    pub fn flush(&mut self) -> Result<()> {
        self.drain()?;
        self.inner.flush()?;
        Ok(())
    }

    /// The writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer, mutably. Writing to it directly puts bytes before those still buffered.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Flushes and returns the writer.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.into_writer())
    }

    /// The writer, dropping whatever is buffered: for after a successful [`Sink::flush`].
    pub(crate) fn into_writer(self) -> W {
        self.inner
    }
}

/// The methods every output has around its [`Sink`] (a field named `sink`): `flush`,
/// `get_ref`, `into_inner`, and the crate's `sink_mut`. One definition for the four outputs,
/// used inside each one's `impl<W: Write>` block.
macro_rules! sink_methods {
    () => {
        /// The buffered sink (for rolling back a record that failed to encode).
        pub(crate) fn sink_mut(&mut self) -> &mut $crate::archive::Sink<W> {
            &mut self.sink
        }

        /// Writes everything buffered and flushes the writer.
        pub fn flush(&mut self) -> $crate::error::Result<()> {
            self.sink.flush()
        }

        /// The writer. Bytes may still be buffered: see `flush`.
        pub fn get_ref(&self) -> &W {
            self.sink.get_ref()
        }

        /// The writer, mutably. Writing to it directly puts bytes before those still
        /// buffered: `flush` first.
        pub fn get_mut(&mut self) -> &mut W {
            self.sink.get_mut()
        }

        /// Flushes and returns the writer.
        pub fn into_inner(self) -> $crate::error::Result<W> {
            self.sink.into_inner()
        }

        /// The writer, dropping whatever is buffered: for after a successful `flush`.
        pub(crate) fn into_writer(self) -> W {
            self.sink.into_writer()
        }
    };
}
pub(crate) use sink_methods;

/// `get_ref`, `get_mut` and `into_inner` of an archive input, whose buffered source is the
/// field `$source` (a `Source` or the XML lexer). Used inside each input's `impl` block.
macro_rules! reader_methods {
    ($($source:ident).+) => {
        /// The reader.
        pub fn get_ref(&self) -> &R {
            self.$($source).+.get_ref()
        }

        /// The reader, mutably. Reading from it directly skips the bytes this input has
        /// buffered.
        pub fn get_mut(&mut self) -> &mut R {
            self.$($source).+.get_mut()
        }

        /// The reader. Bytes this input has read ahead and not consumed are lost.
        pub fn into_inner(self) -> R {
            self.$($source).+.into_inner()
        }
    };
}
pub(crate) use reader_methods;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_writes_are_buffered_and_large_ones_keep_their_order() {
        let mut sink = Sink::new(Vec::new());
        sink.buf().extend_from_slice(b"ab");
        sink.end_of_record().unwrap();
        assert!(sink.get_ref().is_empty());
        let big = vec![7u8; DIRECT_AT];
        sink.write_bytes(&big).unwrap();
        sink.write_bytes(b"z").unwrap();
        assert_eq!(sink.position(), 3 + DIRECT_AT as u64);
        let out = sink.into_inner().unwrap();
        assert_eq!(&out[..2], b"ab");
        assert_eq!(&out[2..2 + DIRECT_AT], &big[..]);
        assert_eq!(out.last(), Some(&b'z'));
    }
}
