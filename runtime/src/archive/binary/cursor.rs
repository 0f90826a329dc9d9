//! A cursor over binary-encoded bytes in memory, for raw comparison and skipping.

use super::vint;
use crate::archive::{Depth, Index, RecordInput};
use crate::error::{Error, ErrorKind, Position, Result};

/// Reads Hadoop binary primitives from a byte slice, tracking the offset for errors.
///
/// Used by raw comparators (`Record::compare_raw`), which work on encoded records without
/// decoding them into values.
#[derive(Debug, Clone)]
pub struct RawInput<'a> {
    data: &'a [u8],
    pos: usize,
    depth: Depth,
}

impl<'a> RawInput<'a> {
    /// A cursor at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        RawInput {
            data,
            pos: 0,
            depth: Depth::default(),
        }
    }

    /// The same cursor with a nesting limit of `max` records, vectors and maps open at once
    /// instead of [`crate::archive::DEFAULT_MAX_DEPTH`] (see [`Depth`]).
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.depth = Depth::new(max);
        self
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes not yet consumed.
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// An error of `kind` at the current offset.
    #[cold]
    pub fn error(&self, kind: ErrorKind, message: &'static str) -> Error {
        Error::new(kind, message).at(Position::Byte(self.pos as u64))
    }

    /// Takes the next `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.data.len() - self.pos < n {
            return Err(self.error(ErrorKind::UnexpectedEof, "input ends inside a value"));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Takes `N` bytes as an array.
    #[inline]
    pub fn take_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// A zero-compressed `long`.
    #[inline]
    pub fn read_vlong(&mut self) -> Result<i64> {
        // One-byte values (-112..=127: lengths, counts, small numbers) are the common case.
        match self.data.get(self.pos) {
            Some(&marker) if marker as i8 >= -112 => {
                self.pos += 1;
                Ok(marker as i8 as i64)
            }
            _ => self.read_long_vlong(),
        }
    }

    /// A zero-compressed `long` with a payload (or the end of input). Always inlined: the
    /// columnar scan of records of numbers spent a sixth of its time in the call.
    #[inline(always)]
    fn read_long_vlong(&mut self) -> Result<i64> {
        // With the marker and eight more bytes in the input, the payload is the top of one
        // big-endian load: no loop over its bytes (random longs take all eight).
        if let Some(window) = self.data.get(self.pos..self.pos + vint::MAX_LEN) {
            let marker = window[0];
            let n = vint::payload_len(marker);
            if n > 0 {
                let word = u64::from_be_bytes(window[1..].try_into().expect("eight bytes"));
                let u = word >> (64 - 8 * n as u32);
                self.pos += 1 + n;
                return Ok(if (marker as i8) < -120 {
                    !u as i64
                } else {
                    u as i64
                });
            }
        }
        let [marker] = self.take_array::<1>()?;
        let n = vint::payload_len(marker);
        let payload = self.take(n)?;
        Ok(vint::decode(marker, payload))
    }

    /// A zero-compressed `int`; values outside 32 bits are an error, as in Java.
    #[inline(always)]
    pub fn read_vint(&mut self) -> Result<i32> {
        let start = self.pos;
        let v = self.read_vlong()?;
        i32::try_from(v).map_err(|_| {
            Error::new(ErrorKind::Overflow, "value too long to fit in integer")
                .at(Position::Byte(start as u64))
        })
    }

    /// A length or count: a non-negative `int` no larger than the bytes that remain
    /// (every element takes at least one byte).
    #[inline]
    pub fn read_len(&mut self) -> Result<usize> {
        let start = self.pos;
        let n = self.read_vint()?;
        let at = Position::Byte(start as u64);
        if n < 0 {
            return Err(Error::new(ErrorKind::Syntax, format!("negative length {n}")).at(at));
        }
        let n = n as usize;
        if n > self.data.len() - self.pos {
            return Err(Error::new(
                ErrorKind::UnexpectedEof,
                format!(
                    "length {n} exceeds the {} bytes that remain",
                    self.data.len() - self.pos
                ),
            )
            .at(at));
        }
        Ok(n)
    }

    /// A `ustring`, borrowed from the input: checked as [`RecordInput::read_string`] checks
    /// it (UTF-8, and neither U+FFFE nor U+FFFF, as Hadoop), without a copy.
    #[inline]
    pub fn read_str(&mut self) -> Result<&'a str> {
        crate::field::raw_str(self)
    }

    /// A `buffer`, borrowed from the input, without a copy.
    #[inline(always)]
    pub fn read_bytes(&mut self) -> Result<&'a [u8]> {
        // Lengths below 128 are one byte (most strings and buffers): no call for them.
        if let Some(&len) = self.data.get(self.pos) {
            let (n, start) = (len as usize, self.pos + 1);
            if len < 0x80 && n <= self.data.len() - start {
                self.pos = start + n;
                return Ok(&self.data[start..start + n]);
            }
        }
        self.read_long_bytes()
    }

    /// [`RawInput::read_bytes`] of a longer (or bad) length.
    #[inline(never)]
    fn read_long_bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.read_len()?;
        self.take(n)
    }

    /// Opens a record, vector or map under the nesting rule ([`Depth`]): an
    /// [`ErrorKind::Limit`] error at the current offset when the limit is reached. The raw
    /// comparators call this for each record, vector and map they enter, as the readers do.
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        let at = Position::Byte(self.pos as u64);
        self.depth.enter().map_err(|e| e.at(at))
    }

    /// Closes what [`RawInput::enter`] opened.
    #[inline]
    pub fn leave(&mut self) {
        self.depth.leave();
    }

    /// Everything consumed: an error naming the trailing bytes otherwise.
    pub fn finish(&self) -> Result<()> {
        if self.pos == self.data.len() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::Syntax,
                format!(
                    "{} trailing bytes after the record",
                    self.data.len() - self.pos
                ),
            )
            .at(Position::Byte(self.pos as u64)))
        }
    }
}

/// Binary decoding straight from memory; also what [`crate::Record::compare_raw`] falls
/// back to for hand-written records.
impl RecordInput for RawInput<'_> {
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        Ok(self.take_array::<1>()?[0] as i8)
    }
    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        Ok(self.take_array::<1>()?[0] != 0)
    }
    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        self.read_vint()
    }
    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.read_vlong()
    }
    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        Ok(f32::from_be_bytes(self.take_array()?))
    }
    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        Ok(f64::from_be_bytes(self.take_array()?))
    }
    fn read_string(&mut self, _tag: &str) -> Result<String> {
        self.read_str().map(str::to_owned)
    }
    fn read_buffer(&mut self, _tag: &str) -> Result<Vec<u8>> {
        self.read_bytes().map(<[u8]>::to_vec)
    }
    fn skip_string(&mut self, _tag: &str) -> Result<()> {
        self.read_bytes().map(drop)
    }
    fn skip_buffer(&mut self, tag: &str) -> Result<()> {
        self.skip_string(tag)
    }
    fn start_record(&mut self, _tag: &str) -> Result<()> {
        self.enter()
    }
    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.leave();
        Ok(())
    }
    fn start_vector(&mut self, _tag: &str) -> Result<Index> {
        self.enter()?;
        let n = self.read_len()?;
        Ok(Index::counted(n as u64, self.data.len() - self.pos))
    }
    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.leave();
        Ok(())
    }
    fn start_map(&mut self, tag: &str) -> Result<Index> {
        self.start_vector(tag)
    }
    fn end_map(&mut self, tag: &str) -> Result<()> {
        self.end_vector(tag)
    }
    fn next_element(&mut self, index: &mut Index) -> Result<bool> {
        Ok(index.take_one())
    }
    fn at_end(&mut self) -> Result<bool> {
        Ok(self.pos == self.data.len())
    }
    fn position(&self) -> Position {
        Position::Byte(self.pos as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_tracks_offsets() {
        let mut c = RawInput::new(&[0x8e, 0x04, 0x00, 0x02, b'h', b'i']);
        assert_eq!(c.read_vint().unwrap(), 1024);
        let n = c.read_len().unwrap();
        assert_eq!(c.take(n).unwrap(), b"hi");
        assert!(c.finish().is_ok());
    }

    #[test]
    fn int_overflow_and_long_lengths_are_errors() {
        let mut c = RawInput::new(&[0x8b, 1, 0, 0, 0, 0]);
        let e = c.read_vint().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Overflow);
        assert_eq!(e.position(), Some(Position::Byte(0)));

        // A 2 GiB length in five bytes: refused before anything else happens.
        let mut c = RawInput::new(&[0x8c, 0x7f, 0xff, 0xff, 0xff]);
        assert_eq!(c.read_len().unwrap_err().kind(), ErrorKind::UnexpectedEof);

        let mut c = RawInput::new(&[0xff]);
        assert_eq!(c.read_len().unwrap_err().kind(), ErrorKind::Syntax);
    }

    #[test]
    fn truncation_is_eof_at_the_offset() {
        let mut c = RawInput::new(&[0x8d, 1, 0]);
        let e = c.read_vlong().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
        assert_eq!(e.position(), Some(Position::Byte(1)));
    }

    #[test]
    fn every_length_reads_alike_mid_input_and_at_its_end() {
        let mut values = vec![0i64, 127, -112, 128, -113, i64::MAX, i64::MIN, -1 << 40];
        for bits in 7..63 {
            values.extend([
                1i64 << bits,
                (1i64 << bits) - 1,
                -(1i64 << bits),
                !(1i64 << bits),
            ]);
        }
        for v in values {
            let mut buf = [0u8; vint::MAX_LEN];
            let n = vint::encode(v, &mut buf);
            // At the end of the input: the byte-by-byte path.
            let mut c = RawInput::new(&buf[..n]);
            assert_eq!(c.read_vlong().unwrap(), v, "{:02x?}", &buf[..n]);
            assert_eq!(c.offset(), n);
            // Followed by more bytes: the one-load path, which must stop at its end.
            let mut padded = buf[..n].to_vec();
            padded.extend_from_slice(&[0x7f; vint::MAX_LEN]);
            let mut c = RawInput::new(&padded);
            assert_eq!(c.read_vlong().unwrap(), v, "{:02x?}", &buf[..n]);
            assert_eq!(c.offset(), n);
            assert_eq!(c.read_vlong().unwrap(), 0x7f);
        }
    }
}
