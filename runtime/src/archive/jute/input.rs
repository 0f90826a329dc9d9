//! ZooKeeper's `BinaryInputArchive`, streaming from any reader.

use std::io::Read;

use crate::archive::sink::reader_methods;

use super::{text, JuteOptions};
use crate::archive::fixed::{byte_input_methods, byte_input_structure, ByteInput};
use crate::archive::source::CAPACITY;
use crate::archive::{Index, RecordInput};
use crate::error::{Error, ErrorKind, Result};

/// Reads records in ZooKeeper's jute encoding from a reader, buffered.
///
/// It reads what ZooKeeper's `BinaryInputArchive` reads and returns what it returns (see
/// [the module](super) for strings, nulls and Java's leniencies), with errors instead of
/// exceptions: a length over the [`JuteOptions`] limit is `Unreasonable length = N`, as in
/// ZooKeeper. Lengths are never trusted: a string or buffer grows only as its bytes arrive.
/// Errors carry the byte offset.
///
/// ```
/// use hadoop_record::archive::jute::JuteInput;
/// use hadoop_record::RecordInput;
/// let mut input = JuteInput::new(&b"\x00\x00\x04\x00\x00\x00\x00\x02hi\xff\xff\xff\xff"[..]);
/// assert_eq!(input.read_int("x").unwrap(), 1024);
/// assert_eq!(input.read_string("s").unwrap(), "hi");
/// assert_eq!(input.read_nullable_string("t").unwrap(), None);
/// assert!(input.at_end().unwrap());
/// ```
#[derive(Debug)]
pub struct JuteInput<R> {
    input: ByteInput<R>,
    limit: i32,
}

impl<R: Read> JuteInput<R> {
    reader_methods!(input.src);

    /// An input reading from `inner` with ZooKeeper's default limits.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, JuteOptions::default())
    }

    /// An input reading from `inner` with the length limit of `options`.
    pub fn with_options(inner: R, options: JuteOptions) -> Self {
        Self::with_capacity(inner, options, CAPACITY)
    }

    /// An input whose buffer starts at `capacity` bytes (at most [`CAPACITY`]).
    pub(crate) fn with_capacity(inner: R, options: JuteOptions, capacity: usize) -> Self {
        JuteInput {
            input: ByteInput::with_capacity(inner, capacity),
            limit: options.limit(),
        }
    }

    byte_input_methods!();

    /// Sets the length limit to that of `options`.
    pub fn set_options(&mut self, options: JuteOptions) {
        self.limit = options.limit();
    }

    fn int(&mut self, what: &str) -> Result<i32> {
        self.input.array(what).map(i32::from_be_bytes)
    }

    /// A string or buffer length: `None` for −1 (null), an error for other negative lengths
    /// and lengths over the limit (Java's `checkLength`).
    fn len(&mut self, what: &str) -> Result<Option<usize>> {
        let start = self.input.src.offset();
        let n = self.int(what)?;
        if n == -1 {
            return Ok(None);
        }
        if n < 0 || n > self.limit {
            return Err(self.input.error_at(
                start,
                ErrorKind::Limit,
                format!(
                    "Unreasonable length = {n} ({what}; the limit is {}, jute.maxbuffer plus its extra size)",
                    self.limit
                ),
            ));
        }
        Ok(Some(n as usize))
    }

    #[cold]
    fn null_where_not_allowed(&self, start: u64, what: &str) -> Error {
        self.input.error_at(
            start,
            ErrorKind::Schema,
            format!(
                "a null {what} (length -1), read into a type that cannot hold null (use an Option)"
            ),
        )
    }

    /// An index over `count` elements; a negative count is none (Java's `BinaryIndex`).
    fn index(&self, count: i32) -> Index {
        self.input.index(u64::try_from(count).unwrap_or(0))
    }
}

impl<R: Read> RecordInput for JuteInput<R> {
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        Ok(self.input.array::<1>("a byte")?[0] as i8)
    }

    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        // Java's DataInput.readBoolean: any non-zero byte is true.
        Ok(self.input.array::<1>("a boolean")?[0] != 0)
    }

    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        self.int("an int")
    }

    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.input.array("a long").map(i64::from_be_bytes)
    }

    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        self.input.array("a float").map(f32::from_be_bytes)
    }

    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        self.input.array("a double").map(f64::from_be_bytes)
    }

    fn read_string(&mut self, tag: &str) -> Result<String> {
        let start = self.input.src.offset();
        self.read_nullable_string(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "ustring"))
    }

    fn read_buffer(&mut self, tag: &str) -> Result<Vec<u8>> {
        let start = self.input.src.offset();
        self.read_nullable_buffer(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "buffer"))
    }

    fn read_nullable_string(&mut self, _tag: &str) -> Result<Option<String>> {
        match self.len("a string length")? {
            None => Ok(None),
            Some(n) => Ok(Some(text::decode(self.input.payload(n, "a string")?))),
        }
    }

    fn read_nullable_buffer(&mut self, _tag: &str) -> Result<Option<Vec<u8>>> {
        match self.len("a buffer length")? {
            None => Ok(None),
            Some(n) => self.input.payload(n, "a buffer").map(Some),
        }
    }

    /// The length, then the bytes stepped over (none for a null): no text check, nothing
    /// allocated.
    fn skip_string(&mut self, _tag: &str) -> Result<()> {
        match self.len("a string length")? {
            Some(n) => self.input.skip_payload(n, "a string"),
            None => Ok(()),
        }
    }

    fn skip_buffer(&mut self, _tag: &str) -> Result<()> {
        match self.len("a buffer length")? {
            Some(n) => self.input.skip_payload(n, "a buffer"),
            None => Ok(()),
        }
    }

    fn start_vector(&mut self, tag: &str) -> Result<Index> {
        let start = self.input.src.offset();
        self.start_nullable_vector(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "vector"))
    }

    fn start_nullable_vector(&mut self, _tag: &str) -> Result<Option<Index>> {
        let count = self.int("a vector count")?;
        if count == -1 {
            return Ok(None);
        }
        self.input.enter()?;
        Ok(Some(self.index(count)))
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        let count = self.int("a map count")?;
        self.input.enter()?;
        Ok(self.index(count))
    }

    byte_input_structure!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Position;

    fn input(bytes: &[u8]) -> JuteInput<&[u8]> {
        JuteInput::new(bytes)
    }

    #[test]
    fn skipping_steps_over_strings_buffers_and_nulls() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&2i32.to_be_bytes());
        bytes.extend_from_slice(&[0xff, 0xfe]);
        bytes.extend_from_slice(&(-1i32).to_be_bytes());
        bytes.extend_from_slice(&7i32.to_be_bytes());
        let mut i = input(&bytes);
        i.skip_string("s").unwrap();
        i.skip_buffer("b").unwrap();
        assert_eq!(i.read_int("i").unwrap(), 7);
        assert!(i.at_end().unwrap());
        let e = input(&bytes[..5]).skip_buffer("b").unwrap_err();
        let same = input(&bytes[..5]).read_buffer("b").unwrap_err();
        assert_eq!(e.to_string(), same.to_string());
    }

    #[test]
    fn fixed_width_big_endian() {
        let mut bytes = vec![0xfb, 0x02];
        bytes.extend_from_slice(&(-300i32).to_be_bytes());
        bytes.extend_from_slice(&5_000_000_000i64.to_be_bytes());
        bytes.extend_from_slice(&0.1f32.to_be_bytes());
        bytes.extend_from_slice(&(-0.1f64).to_be_bytes());
        let mut i = input(&bytes);
        assert_eq!(i.read_byte("b").unwrap(), -5);
        assert!(i.read_bool("z").unwrap());
        assert_eq!(i.read_int("i").unwrap(), -300);
        assert_eq!(i.read_long("l").unwrap(), 5_000_000_000);
        assert_eq!(i.read_float("f").unwrap(), 0.1);
        assert_eq!(i.read_double("d").unwrap(), -0.1);
        assert!(i.at_end().unwrap());
    }

    #[test]
    fn null_lengths_and_java_lenient_counts() {
        let mut i = input(&[0xff; 4]);
        assert_eq!(i.read_nullable_buffer("b").unwrap(), None);
        let e = input(&[0xff; 4]).read_string("s").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Schema, Some(Position::Byte(0)))
        );
        // A vector count of -2 is an empty vector, as Java's BinaryIndex has it.
        let minus_two = (-2i32).to_be_bytes();
        let mut i = input(&minus_two);
        let mut index = i.start_nullable_vector("v").unwrap().unwrap();
        assert!(!i.next_element(&mut index).unwrap());
        let minus_one = (-1i32).to_be_bytes();
        let mut i = input(&minus_one);
        assert_eq!(i.start_nullable_vector("v").unwrap(), None);
    }

    #[test]
    fn lengths_over_the_limit_are_unreasonable() {
        let e = input(&(-2i32).to_be_bytes()).read_string("s").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
        assert!(e.to_string().contains("Unreasonable length = -2"), "{e}");
        let big = (2 * 0xfffff + 1i32).to_be_bytes();
        let e = input(&big).read_buffer("b").unwrap_err();
        assert!(
            e.to_string().contains("Unreasonable length = 2097151"),
            "{e}"
        );
        // Within the limit but past the end: nothing allocated for it.
        let e = input(&(2 * 0xfffffi32).to_be_bytes())
            .read_buffer("b")
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::UnexpectedEof, Some(Position::Byte(4)))
        );
        let mut small =
            JuteInput::with_options(&[0, 0, 4, 1][..], JuteOptions::default().with_max_buffer(0));
        assert_eq!(small.read_buffer("b").unwrap_err().kind(), ErrorKind::Limit);
    }
}
