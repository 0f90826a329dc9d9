//! ZooKeeper's `BinaryInputArchive`, streaming from any reader.

use std::io::Read;

use super::{text, JuteOptions};
use crate::archive::source::{Source, CAPACITY};
use crate::archive::{Depth, Index, RecordInput};
use crate::error::{Error, ErrorKind, Position, Result};

/// Most elements a vector or map is preallocated for.
const PREALLOCATE_MAX: usize = 4096;

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
    src: Source<R>,
    depth: Depth,
    limit: i32,
}

impl<R: Read> JuteInput<R> {
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
            src: Source::with_capacity(inner, capacity),
            depth: Depth::default(),
            limit: options.limit(),
        }
    }

    /// The same input with a nesting limit of `max` records, vectors and maps open at once
    /// instead of [`crate::archive::DEFAULT_MAX_DEPTH`] (see [`Depth`]).
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.depth = Depth::new(max);
        self
    }

    /// Sets the length limit to that of `options`.
    pub fn set_options(&mut self, options: JuteOptions) {
        self.limit = options.limit();
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.src.offset()
    }

    #[cold]
    fn error_at(&self, offset: u64, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, message.into()).at(Position::Byte(offset))
    }

    /// `N` bytes.
    #[inline(always)]
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        if let Some(bytes) = self.src.available().first_chunk::<N>() {
            let bytes = *bytes;
            self.src.consume(N);
            return Ok(bytes);
        }
        self.array_slow(what)
    }

    #[inline(never)]
    fn array_slow<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        if !self.src.request(N)? {
            return Err(self.error_at(
                self.src.offset(),
                ErrorKind::UnexpectedEof,
                format!("input ends inside {what}"),
            ));
        }
        let mut out = [0; N];
        out.copy_from_slice(&self.src.available()[..N]);
        self.src.consume(N);
        Ok(out)
    }

    fn int(&mut self, what: &str) -> Result<i32> {
        self.array(what).map(i32::from_be_bytes)
    }

    /// A string or buffer length: `None` for −1 (null), an error for other negative lengths
    /// and lengths over the limit (Java's `checkLength`).
    fn len(&mut self, what: &str) -> Result<Option<usize>> {
        let start = self.src.offset();
        let n = self.int(what)?;
        if n == -1 {
            return Ok(None);
        }
        if n < 0 || n > self.limit {
            return Err(self.error_at(
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

    /// `n` payload bytes, the vector growing only as they arrive.
    fn payload(&mut self, n: usize, what: &str) -> Result<Vec<u8>> {
        if let Some(bytes) = self.src.available().get(..n) {
            let out = bytes.to_vec();
            self.src.consume(n);
            return Ok(out);
        }
        let start = self.src.offset();
        let mut out = Vec::new();
        let got = self.src.read_into(n, &mut out)?;
        if got < n {
            return Err(self.error_at(
                start + got as u64,
                ErrorKind::UnexpectedEof,
                format!("input ends inside {what}: {got} of its {n} bytes are there"),
            ));
        }
        Ok(out)
    }

    /// Steps over a string's or buffer's bytes (none for a null one) without keeping them.
    fn skip_payload(&mut self, length: &str, what: &str) -> Result<()> {
        let Some(n) = self.len(length)? else {
            return Ok(());
        };
        if self.src.available().len() >= n {
            self.src.consume(n);
            return Ok(());
        }
        let start = self.src.offset();
        let got = self.src.skip(n)?;
        if got < n {
            return Err(self.error_at(
                start + got as u64,
                ErrorKind::UnexpectedEof,
                format!("input ends inside {what}: {got} of its {n} bytes are there"),
            ));
        }
        Ok(())
    }

    #[cold]
    fn null_where_not_allowed(&self, start: u64, what: &str) -> Error {
        self.error_at(
            start,
            ErrorKind::Schema,
            format!(
                "a null {what} (length -1), read into a type that cannot hold null (use an Option)"
            ),
        )
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        let at = Position::Byte(self.src.offset());
        self.depth.enter().map_err(|e| e.at(at))
    }

    #[inline]
    fn leave(&mut self) {
        self.depth.leave();
    }

    /// An index over `count` elements; a negative count is none (Java's `BinaryIndex`).
    fn index(&self, count: i32) -> Index {
        let count = u64::try_from(count).unwrap_or(0);
        // Every element takes at least one byte: never preallocate for more elements than
        // are buffered, nor for more than a few thousand.
        let hint = self.src.available().len().min(PREALLOCATE_MAX);
        Index::counted(count, hint)
    }
}

impl<R: Read> RecordInput for JuteInput<R> {
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        Ok(self.array::<1>("a byte")?[0] as i8)
    }

    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        // Java's DataInput.readBoolean: any non-zero byte is true.
        Ok(self.array::<1>("a boolean")?[0] != 0)
    }

    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        self.int("an int")
    }

    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.array("a long").map(i64::from_be_bytes)
    }

    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        self.array("a float").map(f32::from_be_bytes)
    }

    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        self.array("a double").map(f64::from_be_bytes)
    }

    fn read_string(&mut self, tag: &str) -> Result<String> {
        let start = self.src.offset();
        self.read_nullable_string(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "ustring"))
    }

    fn read_buffer(&mut self, tag: &str) -> Result<Vec<u8>> {
        let start = self.src.offset();
        self.read_nullable_buffer(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "buffer"))
    }

    fn read_nullable_string(&mut self, _tag: &str) -> Result<Option<String>> {
        match self.len("a string length")? {
            None => Ok(None),
            Some(n) => Ok(Some(text::decode(self.payload(n, "a string")?))),
        }
    }

    fn read_nullable_buffer(&mut self, _tag: &str) -> Result<Option<Vec<u8>>> {
        match self.len("a buffer length")? {
            None => Ok(None),
            Some(n) => self.payload(n, "a buffer").map(Some),
        }
    }

    fn skip_string(&mut self, _tag: &str) -> Result<()> {
        self.skip_payload("a string length", "a string")
    }

    fn skip_buffer(&mut self, _tag: &str) -> Result<()> {
        self.skip_payload("a buffer length", "a buffer")
    }

    fn start_record(&mut self, _tag: &str) -> Result<()> {
        self.enter()
    }

    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.leave();
        Ok(())
    }

    fn start_vector(&mut self, tag: &str) -> Result<Index> {
        let start = self.src.offset();
        self.start_nullable_vector(tag)?
            .ok_or_else(|| self.null_where_not_allowed(start, "vector"))
    }

    fn start_nullable_vector(&mut self, _tag: &str) -> Result<Option<Index>> {
        let count = self.int("a vector count")?;
        if count == -1 {
            return Ok(None);
        }
        self.enter()?;
        Ok(Some(self.index(count)))
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.leave();
        Ok(())
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        let count = self.int("a map count")?;
        self.enter()?;
        Ok(self.index(count))
    }

    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.leave();
        Ok(())
    }

    fn next_element(&mut self, index: &mut Index) -> Result<bool> {
        Ok(index.take_one())
    }

    fn at_end(&mut self) -> Result<bool> {
        Ok(self.src.peek()?.is_none())
    }

    fn position(&self) -> Position {
        Position::Byte(self.src.offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut small = JuteInput::with_options(&[0, 0, 4, 1][..], JuteOptions::max_buffer(0));
        assert_eq!(small.read_buffer("b").unwrap_err().kind(), ErrorKind::Limit);
    }
}
