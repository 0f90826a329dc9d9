//! [`JsonReader`]: records as JSON text, one after another or in one array, read one at a
//! time from any [`Read`].

use std::io::{self, BufRead, BufReader, Read};

use serde::de::DeserializeSeed;

use super::read::{Trail, ValueSeed};
use crate::archive::{Depth, DEFAULT_MAX_DEPTH};
use crate::error::{Error, ErrorKind, Position, Result};
use crate::schema::{FieldType, RecordId, Schema};
use crate::stream::{count_read, read_after_failure};
use crate::value::Value;

/// Reads records of a schema type from JSON text: what [`to_json`](super::to_json) writes,
/// one record per line (any whitespace between records will do), or a JSON array of
/// records. Records are read one at a time, also from an array, so the input may be larger
/// than memory.
///
/// Errors carry the record number, the line and column (in bytes) and the field path:
/// `record 2, line 3:17, in Page.links[0].url: invalid type: integer `5`, expected ustring`.
///
/// ```
/// use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
/// use hadoop_record::value::json::JsonReader;
/// use hadoop_record::Value;
///
/// let mut schema = Schema::new();
/// let id = schema.add(RecordType {
///     module: "m".into(),
///     name: "P".into(),
///     fields: vec![FieldDef::new("x", FieldType::Int), FieldDef::new("l", FieldType::Long)],
/// })?;
/// let text = "{\"x\": 1, \"l\": \"9223372036854775807\"}\n{\"x\": 2, \"l\": 3}\n";
/// let mut reader = JsonReader::new(text.as_bytes());
/// assert_eq!(
///     reader.read_value(&schema, id)?,
///     Some(Value::Record(vec![Value::Int(1), Value::Long(i64::MAX)]))
/// );
/// assert!(reader.read_value(&schema, id)?.is_some());
/// assert_eq!(reader.read_value(&schema, id)?, None);
///
/// let mut array = JsonReader::new(&b"[{\"x\": 1, \"l\": 2},\n {\"x\": \"a\", \"l\": 2}]"[..]);
/// assert!(array.read_value(&schema, id)?.is_some());
/// let e = array.read_value(&schema, id).unwrap_err();
/// assert_eq!(e.to_string(), "record 1, line 2:10, in P.x: invalid type: string `a`, expected int");
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonReader<R> {
    input: Tracked<BufReader<R>>,
    layout: Layout,
    records: u64,
    failed: Option<ErrorKind>,
    max_depth: usize,
}

/// How the records are laid out, once the first one has been looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Unknown,
    /// Values one after another.
    Stream,
    /// Inside `[ … ]`; the next record is the first.
    ArrayStart,
    /// Inside `[ … ]`, after a record.
    ArrayRest,
    /// After the array's `]`.
    ArrayEnd,
}

impl<R: Read> JsonReader<R> {
    /// A reader of JSON records from `reader` (buffered here).
    pub fn new(reader: R) -> Self {
        JsonReader {
            input: Tracked {
                inner: BufReader::new(reader),
                line: 1,
                col: 1,
                break_col: 0,
            },
            layout: Layout::Unknown,
            records: 0,
            max_depth: DEFAULT_MAX_DEPTH,
            failed: None,
        }
    }

    /// Sets the nesting limit: records, vectors and maps open at once (default
    /// [`DEFAULT_MAX_DEPTH`], the rule of every reader, see [`Depth`]).
    #[must_use]
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.max_depth = max;
        self
    }

    /// How many records have been read.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Where the next record starts (or where reading failed), as line and column.
    pub fn position(&self) -> Position {
        self.input.position()
    }

    /// Reads the next record of type `id` of `schema`: `None` at a clean end of input.
    /// After an error, every call fails. A record the schema lacks is an
    /// [`ErrorKind::Schema`](crate::ErrorKind::Schema) error (which does not fail the reader).
    pub fn read_value(&mut self, schema: &Schema, id: RecordId) -> Result<Option<Value>> {
        if let Some(kind) = self.failed {
            return Err(read_after_failure(kind, self.records, self.position()));
        }
        schema.checked_record(id)?;
        let result = self.next(schema, id);
        count_read(&mut self.records, &mut self.failed, result)
    }

    fn next(&mut self, schema: &Schema, id: RecordId) -> Result<Option<Value>> {
        let next = self.input.skip_whitespace()?;
        match (self.layout, next) {
            (Layout::Unknown, Some(b'[')) => {
                self.input.consume_byte();
                self.layout = Layout::ArrayStart;
                return self.next(schema, id);
            }
            (Layout::Unknown, Some(_)) => self.layout = Layout::Stream,
            (Layout::ArrayStart | Layout::ArrayRest, Some(b']')) => {
                self.input.consume_byte();
                self.layout = Layout::ArrayEnd;
                return self.next(schema, id);
            }
            (Layout::ArrayRest, Some(b',')) => {
                self.input.consume_byte();
                if self.input.skip_whitespace()? == Some(b']') {
                    return Err(self.syntax("a `,` must be followed by another record"));
                }
            }
            (Layout::ArrayRest, Some(_)) => {
                return Err(self.syntax("expected `,` or `]` after a record in the array"))
            }
            (Layout::ArrayStart | Layout::ArrayRest, None) => {
                return Err(
                    Error::eof("the input ends inside the array; expected `]`").at(self.position())
                )
            }
            (Layout::ArrayEnd, Some(_)) => {
                return Err(self.syntax("more input after the array of records"))
            }
            (_, None) => return Ok(None),
            (Layout::Stream | Layout::ArrayStart, Some(_)) => {}
        }
        if self.layout == Layout::ArrayStart {
            self.layout = Layout::ArrayRest;
        }
        let start = self.input.position();
        let ty = FieldType::Record(id);
        let mut trail = Trail::new(Depth::new(self.max_depth));
        let seed = ValueSeed {
            schema,
            ty: &ty,
            trail: &mut trail,
        };
        // A deserializer per record, so that the next one can start after it: it reads
        // a byte at a time and, as a record is an object, none past its closing `}`.
        let mut de = serde_json::Deserializer::from_reader(&mut self.input);
        // The schema-driven seed bounds nesting by the readers' rule (`Trail`'s depth) and
        // never lets serde_json recurse on its own, so serde_json's fixed 128 levels, which
        // would refuse records the other readers take, are not needed.
        de.disable_recursion_limit();
        match seed.deserialize(&mut de) {
            Ok(value) => Ok(Some(value)),
            Err(e) => {
                let position = match (e.line(), e.column()) {
                    (0, _) => None,
                    // serde_json's column 0 is just past a line break: the break is the place.
                    (_, 0) => Some(self.input.last_line_break()),
                    (line, column) => Some(offset(start, line, column)),
                };
                // The path starts at the record, as the other readers' do.
                Err(trail
                    .error(&e, position)
                    .in_field(&schema.record_at(id).name))
            }
        }
    }

    fn syntax(&self, message: &'static str) -> Error {
        Error::syntax(message).at(self.position())
    }
}

/// The position `line`:`column` of a text that starts at `start`.
fn offset(start: Position, line: usize, column: usize) -> Position {
    let Position::LineCol {
        line: start_line,
        col: start_col,
    } = start
    else {
        return start;
    };
    if line <= 1 {
        Position::LineCol {
            line: start_line,
            col: start_col + column.saturating_sub(1) as u64,
        }
    } else {
        Position::LineCol {
            line: start_line + line as u64 - 1,
            col: column as u64,
        }
    }
}

/// A buffered reader that counts lines and columns (in bytes) of what it hands out.
#[derive(Debug)]
struct Tracked<R> {
    inner: R,
    line: u64,
    col: u64,
    /// The column of the last line break.
    break_col: u64,
}

impl<R: BufRead> Tracked<R> {
    fn position(&self) -> Position {
        Position::LineCol {
            line: self.line,
            col: self.col,
        }
    }

    /// Where the last line break handed out was.
    fn last_line_break(&self) -> Position {
        Position::LineCol {
            line: self.line.saturating_sub(1).max(1),
            col: self.break_col.max(1),
        }
    }

    /// Consumes the byte [`Tracked::skip_whitespace`] returned (never a line break).
    fn consume_byte(&mut self) {
        self.col += 1;
        self.inner.consume(1);
    }

    /// Skips JSON whitespace; the next byte, or `None` at the end of the input.
    fn skip_whitespace(&mut self) -> io::Result<Option<u8>> {
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(None);
            }
            let blank = buf
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
            let n = blank.unwrap_or(buf.len());
            let next = blank.map(|i| buf[i]);
            advance(
                (&mut self.line, &mut self.col, &mut self.break_col),
                &buf[..n],
            );
            self.inner.consume(n);
            if next.is_some() {
                return Ok(next);
            }
        }
    }
}

impl<R: BufRead> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        advance(
            (&mut self.line, &mut self.col, &mut self.break_col),
            &buf[..n],
        );
        Ok(n)
    }
}

/// Moves line and column past `bytes`, as serde_json counts them (lines end at LF), and
/// notes the column of the last line break.
fn advance((line, col, break_col): (&mut u64, &mut u64, &mut u64), bytes: &[u8]) {
    for &b in bytes {
        if b == b'\n' {
            *break_col = *col;
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    }
}
