//! What Hadoop's binary input and ZooKeeper's jute input share: a buffered [`Source`], the
//! nesting count, and the reads of a byte-oriented encoding (fixed-width values, payloads
//! whose length came first), with errors at byte offsets.

use std::io::Read;

use crate::archive::source::Source;
use crate::archive::{Depth, Index};
use crate::error::{Error, ErrorKind, Position, Result};

/// Most elements a vector or map is preallocated for.
const PREALLOCATE_MAX: usize = 4096;

/// A byte-oriented input: the part of `BinaryInput` and `JuteInput` that is one logic.
#[derive(Debug)]
pub(crate) struct ByteInput<R> {
    pub(crate) src: Source<R>,
    depth: Depth,
}

impl<R: Read> ByteInput<R> {
    /// An input whose buffer starts at `capacity` bytes.
    pub(crate) fn with_capacity(inner: R, capacity: usize) -> Self {
        ByteInput {
            src: Source::with_capacity(inner, capacity),
            depth: Depth::default(),
        }
    }

    /// Sets the nesting limit (see [`Depth`]).
    pub(crate) fn set_max_depth(&mut self, max: usize) {
        self.depth = Depth::new(max);
    }

    /// Bytes consumed so far.
    #[inline]
    pub(crate) fn offset(&self) -> u64 {
        self.src.offset()
    }

    #[cold]
    pub(crate) fn error_at(
        &self,
        offset: u64,
        kind: ErrorKind,
        message: impl Into<String>,
    ) -> Error {
        Error::new(kind, message.into()).at(Position::Byte(offset))
    }

    /// The input ended inside `what`.
    #[cold]
    pub(crate) fn eof(&self, what: &str) -> Error {
        self.error_at(
            self.src.offset(),
            ErrorKind::UnexpectedEof,
            format!("input ends inside {what}"),
        )
    }

    /// `N` bytes.
    #[inline(always)]
    pub(crate) fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
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
            return Err(self.eof(what));
        }
        let mut out = [0; N];
        out.copy_from_slice(&self.src.available()[..N]);
        self.src.consume(N);
        Ok(out)
    }

    /// `n` payload bytes. When they are not all buffered, the vector grows only as they
    /// arrive.
    #[inline(always)]
    pub(crate) fn payload(&mut self, n: usize, what: &str) -> Result<Vec<u8>> {
        if let Some(bytes) = self.src.available().get(..n) {
            let out = bytes.to_vec();
            self.src.consume(n);
            return Ok(out);
        }
        self.payload_slow(n, what)
    }

    #[inline(never)]
    fn payload_slow(&mut self, n: usize, what: &str) -> Result<Vec<u8>> {
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

    /// Steps over `n` payload bytes without keeping them (a skipped string or buffer).
    #[inline]
    pub(crate) fn skip_payload(&mut self, n: usize, what: &str) -> Result<()> {
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

    /// Opens a record, vector or map: an error past the nesting limit.
    #[inline]
    pub(crate) fn enter(&mut self) -> Result<()> {
        let at = Position::Byte(self.src.offset());
        self.depth.enter().map_err(|e| e.at(at))
    }

    /// Closes a record, vector or map.
    #[inline]
    pub(crate) fn leave(&mut self) {
        self.depth.leave();
    }

    /// An index over `count` elements. Every element takes at least one byte: never
    /// preallocate for more elements than are buffered, nor for more than a few thousand (an
    /// element may be a large struct that the input describes in a few bytes); vectors grow
    /// from there as elements actually decode.
    pub(crate) fn index(&self, count: u64) -> Index {
        let hint = self.src.available().len().min(PREALLOCATE_MAX);
        Index::counted(count, hint)
    }

    /// Whether the input is exhausted.
    #[inline]
    pub(crate) fn at_end(&mut self) -> Result<bool> {
        Ok(self.src.peek()?.is_none())
    }

    /// Where the input is.
    pub(crate) fn position(&self) -> Position {
        Position::Byte(self.src.offset())
    }
}

/// The methods `BinaryInput` and `JuteInput` share around their [`ByteInput`] (a field named
/// `input`): the nesting limit and the offset, used inside each one's `impl<R: Read>` block.
macro_rules! byte_input_methods {
    () => {
        /// The same input with a nesting limit of `max` records, vectors and maps open at
        /// once instead of [`crate::archive::DEFAULT_MAX_DEPTH`] (see
        /// [`crate::archive::Depth`]).
        pub fn with_max_depth(mut self, max: usize) -> Self {
            self.input.set_max_depth(max);
            self
        }

        /// Bytes consumed so far.
        pub fn offset(&self) -> u64 {
            self.input.offset()
        }
    };
}
pub(crate) use byte_input_methods;

/// The [`RecordInput`](crate::archive::RecordInput) methods that are one logic for every
/// encoding read through a [`ByteInput`] (a field named `input`): records, vectors and maps
/// closing (their openings differ in how counts and nulls are read), counted elements, the
/// end of input and the position. Used inside each one's `impl RecordInput` block.
macro_rules! byte_input_structure {
    () => {
        #[inline]
        fn start_record(&mut self, _tag: &str) -> $crate::error::Result<()> {
            self.input.enter()
        }

        #[inline]
        fn end_record(&mut self, _tag: &str) -> $crate::error::Result<()> {
            self.input.leave();
            Ok(())
        }

        fn end_vector(&mut self, _tag: &str) -> $crate::error::Result<()> {
            self.input.leave();
            Ok(())
        }

        fn end_map(&mut self, _tag: &str) -> $crate::error::Result<()> {
            self.input.leave();
            Ok(())
        }

        #[inline]
        fn next_element(
            &mut self,
            index: &mut $crate::archive::Index,
        ) -> $crate::error::Result<bool> {
            Ok(index.take_one())
        }

        #[inline]
        fn at_end(&mut self) -> $crate::error::Result<bool> {
            self.input.at_end()
        }

        fn position(&self) -> $crate::error::Position {
            self.input.position()
        }
    };
}
pub(crate) use byte_input_structure;
