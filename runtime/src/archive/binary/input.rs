//! Hadoop's `BinaryRecordInput`, streaming from any reader.

use std::io::Read;

use crate::archive::sink::reader_methods;

use super::output::find_nonchar;
use super::vint;
use crate::archive::fixed::{byte_input_methods, byte_input_structure, ByteInput};
use crate::archive::source::CAPACITY;
use crate::archive::{Index, RecordInput};
use crate::error::{Error, ErrorKind, Position, Result};

/// Reads records in Hadoop's binary encoding from a reader, buffered.
///
/// Strict about structure, lenient where Java is: non-minimal integers and any non-zero
/// boolean byte are accepted; an `int` that does not fit 32 bits, a negative length, invalid
/// UTF-8 (or U+FFFE/U+FFFF, which Java refuses) are errors. Overlong UTF-8 forms such as
/// `c0 80`, which Java's reader decodes and Java's writer never produces, are errors too. Lengths are never trusted: a
/// string or buffer grows only as its bytes arrive, and vectors preallocate no more elements
/// than there are bytes buffered. Errors carry the byte offset.
///
/// [`crate::RecordReader`] wraps this for whole records.
///
/// ```
/// use hadoop_record::archive::binary::BinaryInput;
/// use hadoop_record::RecordInput;
/// let mut input = BinaryInput::new(&b"\x8e\x04\x00\x02hi"[..]);
/// assert_eq!(input.read_int("x").unwrap(), 1024);
/// assert_eq!(input.read_string("s").unwrap(), "hi");
/// assert!(input.at_end().unwrap());
/// ```
#[derive(Debug)]
pub struct BinaryInput<R> {
    input: ByteInput<R>,
}

impl<R: Read> BinaryInput<R> {
    reader_methods!(input.src);

    /// An input reading from `inner`.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(inner, CAPACITY)
    }

    /// An input whose buffer starts at `capacity` bytes (at most [`CAPACITY`]).
    pub(crate) fn with_capacity(inner: R, capacity: usize) -> Self {
        BinaryInput {
            input: ByteInput::with_capacity(inner, capacity),
        }
    }

    byte_input_methods!();

    /// One byte.
    #[inline(always)]
    fn byte(&mut self, what: &str) -> Result<u8> {
        if let Some(&b) = self.input.src.available().first() {
            self.input.src.consume(1);
            return Ok(b);
        }
        self.byte_slow(what)
    }

    #[inline(never)]
    fn byte_slow(&mut self, what: &str) -> Result<u8> {
        if !self.input.src.request(1)? {
            return Err(self.input.eof(what));
        }
        let b = self.input.src.available()[0];
        self.input.src.consume(1);
        Ok(b)
    }

    /// A zero-compressed long. With nine bytes buffered it decodes straight from them.
    #[inline(always)]
    fn vlong(&mut self, what: &str) -> Result<i64> {
        if let Some(bytes) = self
            .input
            .src
            .available()
            .first_chunk::<{ vint::MAX_LEN }>()
        {
            let (v, n) = decode9(bytes);
            self.input.src.consume(n);
            return Ok(v);
        }
        self.vlong_slow(what)
    }

    #[inline(never)]
    fn vlong_slow(&mut self, what: &str) -> Result<i64> {
        let start = self.input.src.offset();
        let marker = self.byte(what)?;
        let n = vint::payload_len(marker);
        if !self.input.src.request(n)? {
            return Err(self.input.error_at(
                start,
                ErrorKind::UnexpectedEof,
                format!("input ends inside {what}"),
            ));
        }
        let v = vint::decode(marker, &self.input.src.available()[..n]);
        self.input.src.consume(n);
        Ok(v)
    }

    /// A zero-compressed int: Java's `value too long to fit in integer` otherwise.
    #[inline(always)]
    fn vint(&mut self, what: &str) -> Result<i32> {
        let start = self.input.src.offset();
        let v = self.vlong(what)?;
        match i32::try_from(v) {
            Ok(v) => Ok(v),
            Err(_) => Err(self.input.error_at(
                start,
                ErrorKind::Overflow,
                format!("value {v} too long to fit in integer"),
            )),
        }
    }

    /// A length or count: a non-negative int.
    #[inline(always)]
    fn len(&mut self, what: &str) -> Result<usize> {
        let start = self.input.src.offset();
        let n = self.vint(what)?;
        if n < 0 {
            return Err(self.input.error_at(
                start,
                ErrorKind::Syntax,
                format!("negative length {n} of {what}"),
            ));
        }
        Ok(n as usize)
    }

    fn counted(&mut self, what: &str) -> Result<Index> {
        self.input.enter()?;
        let n = self.len(what)?;
        Ok(self.input.index(n as u64))
    }
}

/// Decodes a vint from the first of nine bytes: (value, bytes used).
#[inline(always)]
fn decode9(bytes: &[u8; vint::MAX_LEN]) -> (i64, usize) {
    let marker = bytes[0] as i8;
    if marker >= -112 {
        return (marker as i64, 1);
    }
    let negative = marker < -120;
    let n = if negative {
        (-120 - marker as i32) as u32
    } else {
        (-112 - marker as i32) as u32
    };
    let mut payload = [0u8; 8];
    payload.copy_from_slice(&bytes[1..]);
    // `n` is 1..=8: keep the first n bytes of the eight that follow.
    let u = u64::from_be_bytes(payload) >> (64 - 8 * n);
    let v = if negative { !u as i64 } else { u as i64 };
    (v, n as usize + 1)
}

/// Validates a decoded string as Hadoop's reader does; `start` is its stream offset.
#[inline]
fn check_text(bytes: Vec<u8>, start: u64) -> Result<String> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8. (The word-at-a-time ASCII check costs about a seventh
        // of a full UTF-8 validation, which showed in profiles of string-heavy records.)
        return Ok(unsafe { String::from_utf8_unchecked(bytes) });
    }
    check_text_slow(bytes, start)
}

#[inline(never)]
fn check_text_slow(bytes: Vec<u8>, start: u64) -> Result<String> {
    if let Some((at, c)) = find_nonchar(&bytes) {
        return Err(Error::new(
            ErrorKind::Encoding,
            format!("illegal code point U+{c:X} in string (Hadoop refuses U+FFFE and U+FFFF)"),
        )
        .at(Position::Byte(start + at as u64)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::new(ErrorKind::Encoding, "invalid UTF-8 in string")
            .at(Position::Byte(start + at as u64))
    })
}

impl<R: Read> RecordInput for BinaryInput<R> {
    #[inline]
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        Ok(self.byte("a byte")? as i8)
    }

    #[inline]
    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        // Java: any non-zero byte is true.
        Ok(self.byte("a boolean")? != 0)
    }

    #[inline]
    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        self.vint("an int")
    }

    #[inline]
    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.vlong("a long")
    }

    #[inline]
    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        Ok(f32::from_be_bytes(self.input.array("a float")?))
    }

    #[inline]
    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        Ok(f64::from_be_bytes(self.input.array("a double")?))
    }

    #[inline]
    fn read_string(&mut self, _tag: &str) -> Result<String> {
        let n = self.len("a string length")?;
        let start = self.input.src.offset();
        let bytes = self.input.payload(n, "a string")?;
        check_text(bytes, start)
    }

    #[inline]
    fn read_buffer(&mut self, _tag: &str) -> Result<Vec<u8>> {
        let n = self.len("a buffer length")?;
        self.input.payload(n, "a buffer")
    }

    /// The length, then the bytes stepped over: no text check, nothing allocated.
    #[inline]
    fn skip_string(&mut self, _tag: &str) -> Result<()> {
        let n = self.len("a string length")?;
        self.input.skip_payload(n, "a string")
    }

    #[inline]
    fn skip_buffer(&mut self, _tag: &str) -> Result<()> {
        let n = self.len("a buffer length")?;
        self.input.skip_payload(n, "a buffer")
    }

    fn start_vector(&mut self, _tag: &str) -> Result<Index> {
        self.counted("a vector length")
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        self.counted("a map size")
    }

    byte_input_structure!();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(bytes: &[u8]) -> BinaryInput<&[u8]> {
        BinaryInput::new(bytes)
    }

    #[test]
    fn fast_and_slow_vint_paths_agree() {
        let cases: &[(&[u8], i64)] = &[
            (&[0x8e, 0x04, 0x00], 1024),
            (&[0x86, 0x04, 0x00], -1025),
            (&[0x90], -112),
            (&[0x87, 0x70], -113),
            (&[0x8f, 0x05], 5),
            (
                &[0x88, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                i64::MAX,
            ),
            (
                &[0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                i64::MIN,
            ),
        ];
        for &(bytes, v) in cases {
            // Alone (slow path: fewer than nine bytes) and followed by padding (fast path).
            assert_eq!(input(bytes).read_long("l").unwrap(), v, "{bytes:02x?}");
            let mut padded = bytes.to_vec();
            padded.extend_from_slice(&[0; 9]);
            let mut i = input(&padded);
            assert_eq!(i.read_long("l").unwrap(), v, "{bytes:02x?}");
            assert_eq!(i.offset(), bytes.len() as u64);
        }
    }

    #[test]
    fn int_overflow_negative_length_and_truncation() {
        let e = input(&[0x8b, 1, 0, 0, 0, 0]).read_int("i").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Overflow, Some(Position::Byte(0)))
        );
        let e = input(&[0x01, 0xff]).read_string("s").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Encoding, Some(Position::Byte(1)))
        );
        let e = input(&[0xff]).read_buffer("b").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Syntax, Some(Position::Byte(0)))
        );
        // A 2 GiB buffer claimed in five bytes: an end-of-input error, nothing allocated for it.
        let e = input(&[0x8c, 0x7f, 0xff, 0xff, 0xff])
            .read_buffer("b")
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::UnexpectedEof, Some(Position::Byte(5)))
        );
        let e = input(&[0x8d, 0x01]).read_long("l").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn skipping_steps_over_strings_and_buffers_unchecked() {
        // Invalid UTF-8 is stepped over; the next value reads as usual.
        let mut i = input(&[0x02, 0xff, 0xfe, 0x01, b'x', 0x05]);
        i.skip_string("s").unwrap();
        i.skip_buffer("b").unwrap();
        assert_eq!(i.read_int("i").unwrap(), 5);
        assert!(i.at_end().unwrap());
        // Cut short: the error the reader gives, at the same offset.
        let e = input(&[0x03, b'a']).skip_string("s").unwrap_err();
        let same = input(&[0x03, b'a']).read_string("s").unwrap_err();
        assert_eq!(e.to_string(), same.to_string());
        // A 2 GiB buffer claimed in five bytes: an end-of-input error, nothing allocated.
        let e = input(&[0x8c, 0x7f, 0xff, 0xff, 0xff])
            .skip_buffer("b")
            .unwrap_err();
        assert_eq!(e.position(), Some(Position::Byte(5)));
    }

    #[test]
    fn any_nonzero_boolean_byte_is_true() {
        let mut i = input(&[0, 1, 2, 0xff]);
        let got: Vec<bool> = (0..4).map(|_| i.read_bool("z").unwrap()).collect();
        assert_eq!(got, [false, true, true, true]);
        assert!(i.at_end().unwrap());
    }

    #[test]
    fn strings_are_checked_like_java() {
        assert_eq!(
            input(b"\x06h\xc3\xa9llo").read_string("s").unwrap(),
            "h\u{e9}llo"
        );
        // A surrogate code point, and U+FFFF.
        for bad in [&[0x03, 0xed, 0xa0, 0x80][..], &[0x03, 0xef, 0xbf, 0xbf]] {
            let e = input(bad).read_string("s").unwrap_err();
            assert_eq!(
                (e.kind(), e.position()),
                (ErrorKind::Encoding, Some(Position::Byte(1)))
            );
        }
    }
}
