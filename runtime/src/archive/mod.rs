//! Archives: the three Hadoop encodings and ZooKeeper's jute behind one pair of traits.
//!
//! [`RecordOutput`] and [`RecordInput`] have the shape of Hadoop's Java interfaces of the
//! same names: one method per DDL type, plus start/end of record, vector and map. Record
//! types are generic over them, so every call is statically dispatched.
//!
//! The `tag` passed to each method is the field name (used by XML as `<name>`); it is the
//! empty string exactly for a top-level record, which CSV writes bare and ends with a line
//! feed. Elements of vectors and maps are passed the tag of their container.

pub mod binary;
pub mod csv;
mod depth;
mod fixed;
mod hex;
pub mod jute;
mod sink;
mod source;
pub mod text;
pub mod xml;

pub use depth::{Depth, DEFAULT_MAX_DEPTH};
pub use sink::Sink;
pub use text::FloatText;

use crate::error::{Error, ErrorKind, Position, Result};

/// Where serialized records go: one method per DDL type, as Hadoop's `RecordOutput`.
pub trait RecordOutput {
    /// `byte`
    fn write_byte(&mut self, v: i8, tag: &str) -> Result<()>;
    /// `boolean`
    fn write_bool(&mut self, v: bool, tag: &str) -> Result<()>;
    /// `int`
    fn write_int(&mut self, v: i32, tag: &str) -> Result<()>;
    /// `long`
    fn write_long(&mut self, v: i64, tag: &str) -> Result<()>;
    /// `float`
    fn write_float(&mut self, v: f32, tag: &str) -> Result<()>;
    /// `double`
    fn write_double(&mut self, v: f64, tag: &str) -> Result<()>;
    /// `ustring`
    fn write_string(&mut self, v: &str, tag: &str) -> Result<()>;
    /// `buffer`
    fn write_buffer(&mut self, v: &[u8], tag: &str) -> Result<()>;
    /// Start of a record; `tag` is empty for a top-level record.
    fn start_record(&mut self, tag: &str) -> Result<()>;
    /// End of a record.
    fn end_record(&mut self, tag: &str) -> Result<()>;
    /// Start of a vector of `len` elements.
    fn start_vector(&mut self, len: usize, tag: &str) -> Result<()>;
    /// End of a vector.
    fn end_vector(&mut self, tag: &str) -> Result<()>;
    /// Start of a map of `len` entries; keys and values follow alternately, keys ascending
    /// in Java's order.
    fn start_map(&mut self, len: usize, tag: &str) -> Result<()>;
    /// End of a map.
    fn end_map(&mut self, tag: &str) -> Result<()>;
    /// A null `ustring`, `buffer` or `vector` (Java's `null`, which jute writes as a length
    /// of −1). Hadoop's binary and XML encodings have no null and refuse it (this default);
    /// CSV writes an empty field, as jute's `toString()` does.
    fn write_null(&mut self, ty: NullType, tag: &str) -> Result<()> {
        let _ = tag;
        Err(Error::new(
            ErrorKind::Unsupported,
            format!("a null {ty}: this encoding has no null (jute has)"),
        ))
    }
}

/// Which type a null stands for ([`RecordOutput::write_null`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NullType {
    /// `ustring`
    String,
    /// `buffer`
    Buffer,
    /// `vector`
    Vector,
}

impl std::fmt::Display for NullType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NullType::String => "ustring",
            NullType::Buffer => "buffer",
            NullType::Vector => "vector",
        })
    }
}

/// Where serialized records come from: one method per DDL type, as Hadoop's `RecordInput`.
///
/// Implementations never trust a length: a length or count larger than what the input can
/// hold is an error before anything is allocated, and nesting deeper than the reader's limit
/// is an error rather than a stack overflow (one rule for every reader: see [`Depth`]).
/// Errors carry the input position; the field path is added by the callers as the error
/// travels up.
pub trait RecordInput {
    /// `byte`
    fn read_byte(&mut self, tag: &str) -> Result<i8>;
    /// `boolean`
    fn read_bool(&mut self, tag: &str) -> Result<bool>;
    /// `int`
    fn read_int(&mut self, tag: &str) -> Result<i32>;
    /// `long`
    fn read_long(&mut self, tag: &str) -> Result<i64>;
    /// `float`
    fn read_float(&mut self, tag: &str) -> Result<f32>;
    /// `double`
    fn read_double(&mut self, tag: &str) -> Result<f64>;
    /// `ustring`
    fn read_string(&mut self, tag: &str) -> Result<String>;
    /// `buffer`
    fn read_buffer(&mut self, tag: &str) -> Result<Vec<u8>>;
    /// Start of a record; `tag` is empty for a top-level record.
    fn start_record(&mut self, tag: &str) -> Result<()>;
    /// End of a record.
    fn end_record(&mut self, tag: &str) -> Result<()>;
    /// Start of a vector; pass the returned [`Index`] to [`RecordInput::next_element`].
    fn start_vector(&mut self, tag: &str) -> Result<Index>;
    /// End of a vector.
    fn end_vector(&mut self, tag: &str) -> Result<()>;
    /// Start of a map; each element is a key followed by its value.
    fn start_map(&mut self, tag: &str) -> Result<Index>;
    /// End of a map.
    fn end_map(&mut self, tag: &str) -> Result<()>;
    /// Whether another element of the current vector or map follows (Java's
    /// `Index.done()`/`incr()`); advances `index` when it does.
    fn next_element(&mut self, index: &mut Index) -> Result<bool>;
    /// Skips what may separate top-level records and reports whether the input is
    /// exhausted: `true` at a clean end of input.
    fn at_end(&mut self) -> Result<bool>;
    /// The current position in the input, for error reports.
    fn position(&self) -> Position;
    /// A `ustring` that may be null (jute's length −1); Hadoop's encodings never hold one.
    fn read_nullable_string(&mut self, tag: &str) -> Result<Option<String>> {
        self.read_string(tag).map(Some)
    }
    /// A `buffer` that may be null.
    fn read_nullable_buffer(&mut self, tag: &str) -> Result<Option<Vec<u8>>> {
        self.read_buffer(tag).map(Some)
    }
    /// Start of a vector that may be null: `None` for a null vector, which has no elements
    /// and no [`RecordInput::end_vector`].
    fn start_nullable_vector(&mut self, tag: &str) -> Result<Option<Index>> {
        self.start_vector(tag).map(Some)
    }
    /// Steps over a `ustring` (or jute's null one) as cheaply as the encoding allows, for
    /// readers that do not want its value (projections). Binary encodings read the length
    /// and step over the bytes without checking them as text or allocating; text encodings
    /// read it as [`RecordInput::read_string`] does (this default) and drop it. So a skipped
    /// string may hold what reading it would refuse (invalid UTF-8).
    fn skip_string(&mut self, tag: &str) -> Result<()> {
        self.read_nullable_string(tag).map(drop)
    }
    /// Steps over a `buffer` (or jute's null one), as [`RecordInput::skip_string`] does.
    fn skip_buffer(&mut self, tag: &str) -> Result<()> {
        self.read_nullable_buffer(tag).map(drop)
    }
}

/// Progress through a vector or map being read (Hadoop's `Index`).
///
/// Binary input knows the element count up front; text input finds the end by looking for
/// the closing delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Index {
    remaining: Option<u64>,
    hint: usize,
}

impl Index {
    /// An index over `count` elements. `hint` is a safe preallocation size: never more than
    /// the elements the input can still hold.
    pub fn counted(count: u64, hint: usize) -> Self {
        Index {
            remaining: Some(count),
            hint: hint.min(usize::try_from(count).unwrap_or(usize::MAX)),
        }
    }

    /// An index whose end is marked in the input.
    pub fn delimited() -> Self {
        Index {
            remaining: None,
            hint: 0,
        }
    }

    /// Elements still expected, when the input says so up front.
    pub fn remaining(&self) -> Option<u64> {
        self.remaining
    }

    /// For counted indices: takes one element, returning whether there was one.
    pub fn take_one(&mut self) -> bool {
        match &mut self.remaining {
            Some(0) => false,
            Some(n) => {
                *n -= 1;
                true
            }
            None => true,
        }
    }

    /// How many elements a reader may safely preallocate for.
    pub fn size_hint(&self) -> usize {
        self.hint
    }
}
