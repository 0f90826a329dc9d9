//! The one error type of the runtime: what went wrong, where in the input, and in which field.

use std::borrow::Cow;
use std::fmt;

pub use crate::excerpt::{excerpt, Excerpt, EXCERPT_CHARS};

/// Most segments of a field path a rendered error shows: a deeper path keeps its first and
/// last few and says how many it leaves out, so that the message stays short however deeply
/// the input nests. [`Error::path`] returns the whole path.
const SHOWN_SEGMENTS: usize = 16;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The underlying reader or writer failed.
    Io,
    /// The input ended inside a record, a value or a frame.
    UnexpectedEof,
    /// The input does not have the expected structure (a wrong byte, token or tag).
    Syntax,
    /// A number does not fit the type it is read into.
    Overflow,
    /// Invalid text: bad UTF-8, an illegal code point, a bad escape.
    Encoding,
    /// A length, count, size or nesting depth exceeds a limit or what the input holds.
    Limit,
    /// A checksum does not match.
    Checksum,
    /// Well-formed input this implementation refuses (an unknown version, a reserved type).
    Unsupported,
    /// A value does not match the schema it is used with.
    Schema,
}

impl ErrorKind {
    fn describe(self) -> &'static str {
        match self {
            ErrorKind::Io => "I/O error",
            ErrorKind::UnexpectedEof => "unexpected end of input",
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Overflow => "number out of range",
            ErrorKind::Encoding => "invalid text",
            ErrorKind::Limit => "limit exceeded",
            ErrorKind::Checksum => "checksum mismatch",
            ErrorKind::Unsupported => "unsupported input",
            ErrorKind::Schema => "schema mismatch",
        }
    }
}

/// Where in the input an error was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Position {
    /// A byte offset from the start of the input (binary data, framings).
    Byte(u64),
    /// A 1-based line and column (text formats; the column counts bytes).
    LineCol {
        /// 1-based line number.
        line: u64,
        /// 1-based column, in bytes.
        col: u64,
    },
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Position::Byte(offset) => write!(f, "byte {offset}"),
            Position::LineCol { line, col } => write!(f, "line {line}:{col}"),
        }
    }
}

/// One step of a field path such as `Outer.c.vrec[3].tag`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Field(Cow<'static, str>),
    Index(u64),
}

/// An error from reading or writing records or frames.
///
/// It carries the [`ErrorKind`], a message, the [`Position`] in the input (when known),
/// the field path (`Outer.c.vrec[3].tag`) and the number of the record within its stream.
/// The path is built as the error travels up through nested fields, so the success path
/// pays nothing for it.
///
/// ```
/// use hadoop_record::{Error, ErrorKind, Position};
/// let e = Error::new(ErrorKind::UnexpectedEof, "input ends inside a string")
///     .at(Position::Byte(17))
///     .in_field("tag")
///     .in_index(3)
///     .in_field("vrec")
///     .in_field("Outer");
/// assert_eq!(e.path(), "Outer.vrec[3].tag");
/// assert_eq!(e.to_string(), "byte 17, in Outer.vrec[3].tag: input ends inside a string");
/// ```
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    message: Cow<'static, str>,
    position: Option<Position>,
    /// Innermost segment first; reversed when displayed.
    path: Vec<Segment>,
    record: Option<u64>,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Error {
    /// A new error of `kind` with a message.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<Cow<'static, str>>) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                position: None,
                path: Vec::new(),
                record: None,
                source: None,
            }),
        }
    }

    /// An [`ErrorKind::UnexpectedEof`] error.
    #[cold]
    pub fn eof(message: impl Into<Cow<'static, str>>) -> Self {
        Error::new(ErrorKind::UnexpectedEof, message)
    }

    /// An [`ErrorKind::Syntax`] error.
    #[cold]
    pub fn syntax(message: impl Into<Cow<'static, str>>) -> Self {
        Error::new(ErrorKind::Syntax, message)
    }

    /// An [`ErrorKind::Unsupported`] error for `name`, which names none of the `choices` of
    /// `what`: `unknown {what} {name} (expected {choices})`, the name as an [`excerpt`].
    #[cold]
    pub(crate) fn unknown_name(what: &str, name: &str, choices: &str) -> Self {
        Error::new(
            ErrorKind::Unsupported,
            format!("unknown {what} {} (expected {choices})", excerpt(name)),
        )
    }

    /// Sets the position unless one is already set (the innermost position wins).
    #[must_use]
    pub fn at(mut self, position: Position) -> Self {
        self.inner.position.get_or_insert(position);
        self
    }

    /// The same error with its byte position (if it has one) `by` bytes further on: for an
    /// error found in a part of the input that starts at byte `by`.
    ///
    /// ```
    /// use hadoop_record::{Error, Position};
    /// let e = Error::eof("input ends inside a value").at(Position::Byte(3)).shifted(100);
    /// assert_eq!(e.position(), Some(Position::Byte(103)));
    /// ```
    #[must_use]
    pub fn shifted(mut self, by: u64) -> Self {
        if let Some(Position::Byte(offset)) = &mut self.inner.position {
            *offset = offset.saturating_add(by);
        }
        self
    }

    /// Prepends a field name to the path.
    #[must_use]
    pub fn in_field(mut self, name: &str) -> Self {
        self.inner
            .path
            .push(Segment::Field(Cow::Owned(name.to_owned())));
        self
    }

    /// Prepends an element index (`[3]`) to the path.
    #[must_use]
    pub fn in_index(mut self, index: u64) -> Self {
        self.inner.path.push(Segment::Index(index));
        self
    }

    /// Sets the 0-based number of the record within its stream, unless already set.
    #[must_use]
    pub fn in_record(mut self, number: u64) -> Self {
        self.inner.record.get_or_insert(number);
        self
    }

    /// Attaches the underlying cause.
    #[must_use]
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.inner.source = Some(Box::new(source));
        self
    }

    /// Prefixes the message with what was being done: `what: message`.
    #[must_use]
    pub(crate) fn context(mut self, what: &str) -> Self {
        let message = match self.inner.message.as_ref() {
            "" => self.inner.kind.describe(),
            message => message,
        };
        self.inner.message = Cow::Owned(format!("{what}: {message}"));
        self
    }

    /// Appends what to do about the error to its message: `message: hint` (`give
    /// --recover to skip damaged chunks and read on`).
    #[must_use]
    pub fn with_hint(mut self, hint: &str) -> Self {
        let message = match self.inner.message.as_ref() {
            "" => self.inner.kind.describe(),
            message => message,
        };
        self.inner.message = Cow::Owned(format!("{message}: {hint}"));
        self
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The message, without position or path.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Where in the input the error was found, when known.
    pub fn position(&self) -> Option<Position> {
        self.inner.position
    }

    /// The 0-based number of the record within its stream, when known.
    pub fn record(&self) -> Option<u64> {
        self.inner.record
    }

    /// The field path, outermost first: `Outer.c.vrec[3].tag`; empty when unknown.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for (i, segment) in self.inner.path.iter().rev().enumerate() {
            let _ = segment.write(&mut out, i == 0, false);
        }
        out
    }

    /// The path as the message shows it: long names as [`excerpt`]s, and of a path of more
    /// than [`SHOWN_SEGMENTS`] segments only the first and last few.
    fn write_path(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.inner.path;
        let keep = SHOWN_SEGMENTS / 2;
        let left_out = if path.len() > SHOWN_SEGMENTS {
            keep..path.len() - keep
        } else {
            0..0
        };
        for (i, segment) in path.iter().rev().enumerate() {
            if left_out.contains(&i) {
                if i == left_out.start {
                    write!(f, " … ({} more) … ", left_out.len())?;
                }
                continue;
            }
            segment.write(f, i == 0 || i == left_out.end, true)?;
        }
        Ok(())
    }
}

impl Segment {
    /// `.name` (`name` first) or `[3]`; names cut to an excerpt when `short`.
    fn write(&self, out: &mut impl fmt::Write, first: bool, short: bool) -> fmt::Result {
        match self {
            Segment::Field(name) => {
                if !first {
                    out.write_char('.')?;
                }
                if short {
                    write!(out, "{}", excerpt(name.as_ref()).unquoted())
                } else {
                    out.write_str(name)
                }
            }
            Segment::Index(i) => write!(out, "[{i}]"),
        }
    }
}

impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            return Error::eof("unexpected end of input").with_source(e);
        }
        Error::new(ErrorKind::Io, e.to_string()).with_source(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote = false;
        let mut sep = |f: &mut fmt::Formatter<'_>| {
            if std::mem::replace(&mut wrote, true) {
                f.write_str(", ")
            } else {
                Ok(())
            }
        };
        if let Some(record) = self.inner.record {
            sep(f)?;
            write!(f, "record {record}")?;
        }
        if let Some(position) = self.inner.position {
            sep(f)?;
            write!(f, "{position}")?;
        }
        if !self.inner.path.is_empty() {
            sep(f)?;
            f.write_str("in ")?;
            self.write_path(f)?;
        }
        if wrote {
            f.write_str(": ")?;
        }
        if self.inner.message.is_empty() {
            f.write_str(self.inner.kind.describe())
        } else {
            f.write_str(&self.inner.message)
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .field("position", &self.inner.position)
            .field("path", &self.path())
            .field("record", &self.inner.record)
            .finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner
            .source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

/// The error of a writer's `into_inner` when writing what it holds fails — a
/// [`RecordWriter`](crate::RecordWriter)'s or a framing writer's (`PaddleWriter`, …): the
/// error and the writer, which still holds what it could not write, as
/// `std::io::IntoInnerError` gives back a `BufWriter`. `?` turns it into the [`Error`] alone.
///
/// ```
/// use std::io::{self, Write};
/// use hadoop_record::{ErrorKind, Format, RecordWriter};
///
/// /// A writer that refuses everything.
/// #[derive(Debug)]
/// struct Full;
/// impl Write for Full {
///     fn write(&mut self, _: &[u8]) -> io::Result<usize> {
///         Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
///     }
///     fn flush(&mut self) -> io::Result<()> { Ok(()) }
/// }
/// #[derive(hadoop_record::Record)]
/// struct N { n: i32 }
///
/// let mut writer = RecordWriter::new(Full, Format::Csv);
/// writer.write(&N { n: 1 })?; // buffered
/// let e = writer.into_inner().unwrap_err();
/// assert_eq!(e.error().kind(), ErrorKind::Io);
/// let writer: RecordWriter<Full> = e.into_inner(); // and try again later
/// # std::mem::forget(writer);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
pub struct IntoInnerError<W> {
    /// Boxed: a framing writer is large, and the error of every `Result` it is in would be.
    writer: Box<W>,
    error: Error,
}

impl<W> IntoInnerError<W> {
    pub(crate) fn new(writer: W, error: Error) -> Self {
        IntoInnerError {
            writer: Box::new(writer),
            error,
        }
    }

    /// Why writing failed.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The writer, which still holds what could not be written.
    pub fn into_inner(self) -> W {
        *self.writer
    }

    /// The error, dropping the writer.
    pub fn into_error(self) -> Error {
        self.error
    }

    /// The error and the writer.
    pub fn into_parts(self) -> (Error, W) {
        (self.error, *self.writer)
    }
}

impl<W> From<IntoInnerError<W>> for Error {
    fn from(e: IntoInnerError<W>) -> Self {
        e.error
    }
}

/// The error alone: the writer need not be `Debug` for `unwrap`.
impl<W> fmt::Debug for IntoInnerError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoInnerError")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<W> fmt::Display for IntoInnerError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl<W> std::error::Error for IntoInnerError<W> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_without_context_is_the_message() {
        assert_eq!(Error::syntax("expected `}`").to_string(), "expected `}`");
        assert_eq!(
            Error::new(ErrorKind::Checksum, "").to_string(),
            "checksum mismatch"
        );
    }

    #[test]
    fn innermost_position_wins_and_path_reads_outermost_first() {
        let e = Error::eof("cut")
            .at(Position::LineCol { line: 2, col: 5 })
            .at(Position::Byte(99))
            .in_field("v")
            .in_index(0)
            .in_field("items")
            .in_record(4);
        assert_eq!(e.position(), Some(Position::LineCol { line: 2, col: 5 }));
        assert_eq!(e.to_string(), "record 4, line 2:5, in items[0].v: cut");
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn deep_paths_and_long_names_are_shortened_in_the_message_only() {
        let mut e = Error::eof("cut").at(Position::Byte(9)).in_field("tag");
        for i in (0..1000).rev() {
            e = e.in_index(i).in_field("kids");
        }
        let e = e.in_field("Node");
        let full: String = (0..1000).map(|i| format!(".kids[{i}]")).collect();
        assert_eq!(e.path(), format!("Node{full}.tag"));
        assert_eq!(
            e.to_string(),
            "byte 9, in Node.kids[0].kids[1].kids[2].kids … (1986 more) … [996].kids[997].kids[998].kids[999].tag: cut"
        );
        let long = "n".repeat(10_000);
        let e = Error::eof("cut").in_field(&long).in_field("R");
        assert_eq!(e.path(), format!("R.{long}"));
        assert_eq!(
            e.to_string(),
            format!("in R.{}… (10000 bytes): cut", "n".repeat(EXCERPT_CHARS))
        );
    }

    #[test]
    fn io_eof_maps_to_unexpected_eof() {
        let io = std::io::Error::from(std::io::ErrorKind::UnexpectedEof);
        assert_eq!(Error::from(io).kind(), ErrorKind::UnexpectedEof);
        let io = std::io::Error::other("disk on fire");
        let e = Error::from(io);
        assert_eq!(e.kind(), ErrorKind::Io);
        assert!(std::error::Error::source(&e).is_some());
    }
}
