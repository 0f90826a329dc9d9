//! Hadoop's `CsvRecordInput`, streaming from any reader, stricter where Java is accidentally
//! lenient.

use std::io::Read;

use crate::archive::sink::reader_methods;

use crate::archive::hex::decode_pairs;
use crate::archive::source::{Source, CAPACITY};
use crate::archive::text::parse_double;
use crate::archive::{Depth, Index, RecordInput};
use crate::error::{excerpt, Error, ErrorKind, Position, Result};

/// Reads records in Hadoop's CSV encoding from a reader, buffered.
///
/// It reads everything Java's `CsvRecordOutput` writes (JDK 17's and modern float text alike)
/// and mirrors the writer's layout exactly: a comma between items and nowhere else, `s{`,
/// `v{`, `m{` and `}` where Java puts them, and a line end after each top-level record — LF
/// or CR as in Java, and also CRLF (Java's reader breaks on it). Where Java's reader is
/// lenient by accident this one gives a clear error instead, for input Java never writes:
///
/// * booleans other than `T` and `F` (Java reads anything else as false);
/// * integers outside the field's type (Java parses a long and wraps it into an `int` or
///   `byte`);
/// * a buffer with an odd number of hex digits (Java drops the last one) or a sign in it;
/// * a field that runs into the end of input (Java loops forever there);
/// * stray commas (Java skips some of them).
///
/// Hex digits of either case are accepted, as Java accepts them. Strings accept only Java's
/// six upper-case escapes, as Java does. Floats are read with `Double.parseDouble`'s grammar
/// and rounded to `float`, as Java does. Errors carry the line and column (1-based, in bytes).
///
/// ```
/// use hadoop_record::archive::csv::CsvInput;
/// use hadoop_record::RecordInput;
/// let mut input = CsvInput::new(&b"'a%2Cb,#01AB,T\r\n"[..]);
/// input.start_record("").unwrap();
/// assert_eq!(input.read_string("s").unwrap(), "a,b");
/// assert_eq!(input.read_buffer("b").unwrap(), [0x01, 0xab]);
/// assert!(input.read_bool("z").unwrap());
/// input.end_record("").unwrap();
/// assert!(input.at_end().unwrap());
/// ```
#[derive(Debug)]
pub struct CsvInput<R> {
    src: Source<R>,
    /// Mirrors the writer's `isFirst`: no comma before the next item.
    first: bool,
    depth: Depth,
    /// 1-based line number of the next byte, and the stream offset where that line starts.
    line: u64,
    line_start: u64,
}

/// Bytes that end a field (Java's `readField`: `,` `}` LF CR), as a table: one load per byte
/// when scanning.
static ENDS_FIELD: [bool; 256] = {
    let mut t = [false; 256];
    t[b',' as usize] = true;
    t[b'}' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

#[inline(always)]
fn ends_field(b: u8) -> bool {
    ENDS_FIELD[b as usize]
}

/// The fast path for integers: `-`? and 1 to 18 digits, followed by a field end, all in
/// `text`. Returns the value and its length; `None` sends the caller to the general path
/// (longer numbers, errors, a field not wholly buffered).
#[inline(always)]
fn scan_long(text: &[u8]) -> Option<(i64, usize)> {
    let negative = text.first() == Some(&b'-');
    let start = usize::from(negative);
    let mut v: i64 = 0;
    let mut i = start;
    while let Some(&b) = text.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if i - start == 18 {
            return None;
        }
        v = v * 10 + d as i64;
        i += 1;
    }
    if i == start || !ends_field(*text.get(i)?) {
        return None;
    }
    Some((if negative { -v } else { v }, i))
}

/// A byte (or the end of input) as a message shows it.
fn describe(b: Option<u8>) -> String {
    match b {
        None => "the end of input".into(),
        Some(b'\n') => "a line feed".into(),
        Some(b'\r') => "a carriage return".into(),
        Some(b) if b.is_ascii_graphic() || b == b' ' => format!("`{}`", b as char),
        Some(b) => format!("byte 0x{b:02x}"),
    }
}

impl<R: Read> CsvInput<R> {
    reader_methods!(src);

    /// An input reading from `inner`.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(inner, CAPACITY)
    }

    /// An input whose buffer starts at `capacity` bytes (at most [`CAPACITY`]).
    pub(crate) fn with_capacity(inner: R, capacity: usize) -> Self {
        CsvInput {
            src: Source::with_capacity(inner, capacity),
            first: true,
            depth: Depth::default(),
            line: 1,
            line_start: 0,
        }
    }

    /// The same input with a nesting limit of `max` records, vectors and maps open at once
    /// instead of [`crate::archive::DEFAULT_MAX_DEPTH`] (see [`Depth`]).
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.depth = Depth::new(max);
        self
    }

    fn position_at(&self, offset: u64) -> Position {
        Position::LineCol {
            line: self.line,
            col: offset - self.line_start + 1,
        }
    }

    #[cold]
    fn error(&self, offset: u64, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, message.into()).at(self.position_at(offset))
    }

    /// An error about the next byte, which is not `expected`.
    #[cold]
    fn unexpected(&mut self, expected: &str) -> Error {
        let at = self.src.offset();
        match self.src.peek() {
            Err(e) => e,
            Ok(None) => self.error(
                at,
                ErrorKind::UnexpectedEof,
                format!("input ends where {expected} was expected"),
            ),
            Ok(Some(b)) => self.error(
                at,
                ErrorKind::Syntax,
                format!("expected {expected}, found {}", describe(Some(b))),
            ),
        }
    }

    /// Consumes the byte `want`, or fails naming `expected`.
    #[inline(always)]
    fn expect(&mut self, want: u8, expected: &str) -> Result<()> {
        match self.src.available().first() {
            Some(&b) if b == want => {
                self.src.consume(1);
                Ok(())
            }
            _ => self.expect_slow(want, expected),
        }
    }

    #[inline(never)]
    fn expect_slow(&mut self, want: u8, expected: &str) -> Result<()> {
        if self.src.peek()? == Some(want) {
            self.src.consume(1);
            return Ok(());
        }
        Err(self.unexpected(expected))
    }

    /// The comma before an item unless it is the first of its record, vector or map.
    #[inline(always)]
    fn separator(&mut self) -> Result<()> {
        if std::mem::replace(&mut self.first, false) {
            return Ok(());
        }
        self.expect(b',', "`,`")
    }

    /// The length of the field at the front of the buffer: up to the next `,` `}` LF CR or
    /// the end of input. The whole field is buffered when this returns.
    #[inline(always)]
    fn field_len(&mut self) -> Result<usize> {
        match self.src.available().iter().position(|&b| ends_field(b)) {
            Some(n) => Ok(n),
            None => self.field_len_slow(),
        }
    }

    #[inline(never)]
    fn field_len_slow(&mut self) -> Result<usize> {
        let mut scanned = self.src.available().len();
        loop {
            if !self.src.fill()? {
                return Ok(scanned);
            }
            let more = &self.src.available()[scanned..];
            if let Some(n) = more.iter().position(|&b| ends_field(b)) {
                return Ok(scanned + n);
            }
            scanned = self.src.available().len();
        }
    }

    /// The next field (after its separator), parsed by `parse`; errors from `parse` are
    /// `(offset within the field, kind, message)`.
    #[inline(always)]
    fn field<T>(
        &mut self,
        what: &str,
        parse: impl FnOnce(&[u8]) -> std::result::Result<T, (usize, ErrorKind, String)>,
    ) -> Result<T> {
        self.separator()?;
        let n = self.field_len()?;
        let start = self.src.offset();
        let text = &self.src.available()[..n];
        if n == 0 {
            return Err(self.unexpected(what));
        }
        match parse(text) {
            Ok(v) => {
                self.src.consume(n);
                Ok(v)
            }
            Err((at, kind, message)) => Err(self.error(start + at as u64, kind, message)),
        }
    }

    #[inline(always)]
    fn integer(&mut self, what: &'static str, min: i64, max: i64) -> Result<i64> {
        if !self.first {
            if let [b',', rest @ ..] = self.src.available() {
                if let Some((v, n)) = scan_long(rest) {
                    if (min..=max).contains(&v) {
                        self.src.consume(n + 1);
                        return Ok(v);
                    }
                }
            }
        } else if let Some((v, n)) = scan_long(self.src.available()) {
            if (min..=max).contains(&v) {
                self.first = false;
                self.src.consume(n);
                return Ok(v);
            }
        }
        self.integer_slow(what, min, max)
    }

    #[inline(never)]
    fn integer_slow(&mut self, what: &'static str, min: i64, max: i64) -> Result<i64> {
        self.field(what, |text| {
            let v = parse_long(text).ok_or_else(|| {
                (
                    0,
                    ErrorKind::Syntax,
                    format!("expected {what}, found {}", excerpt(text)),
                )
            })?;
            match v {
                Some(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err((
                    0,
                    ErrorKind::Overflow,
                    format!("{} does not fit {what} ({min}..={max})", excerpt(text)),
                )),
            }
        })
    }

    fn enter(&mut self) -> Result<()> {
        let at = self.position();
        self.depth.enter().map_err(|e| e.at(at))
    }

    /// The separator, then `c{` of a nested record, vector or map.
    fn open(&mut self, c: u8, expected: &str) -> Result<()> {
        self.separator()?;
        self.enter()?;
        self.expect(c, expected)?;
        self.expect(b'{', expected)?;
        self.first = true;
        Ok(())
    }

    /// The `}` of a nested record, vector or map.
    fn close(&mut self, what: &str) -> Result<()> {
        self.expect(b'}', what)?;
        self.depth.leave();
        self.first = false;
        Ok(())
    }
}

/// Java's `Long.parseLong` on ASCII: an optional sign and one or more decimal digits.
/// `None`: not a number; `Some(None)`: a number beyond `i64`.
#[inline]
fn parse_long(text: &[u8]) -> Option<Option<i64>> {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // Accumulated negatively so that i64::MIN fits.
    let mut v: i64 = 0;
    for &d in digits {
        match v
            .checked_mul(10)
            .and_then(|v| v.checked_sub((d - b'0') as i64))
        {
            Some(next) => v = next,
            None => return Some(None),
        }
    }
    Some(if negative { Some(v) } else { v.checked_neg() })
}

type FieldResult<T> = std::result::Result<T, (usize, ErrorKind, String)>;

/// The field after its leading `mark` (`'` of a string, `#` of a buffer), or the syntax
/// error of a field that lacks it; `what` names the field.
#[inline]
fn after_mark<'a>(text: &'a [u8], mark: u8, what: &str) -> FieldResult<&'a [u8]> {
    match text.split_first() {
        Some((&first, rest)) if first == mark => Ok(rest),
        other => {
            let found = describe(other.map(|(&b, _)| b));
            let message = format!("expected {what} (`{}`), found {found}", mark as char);
            Err((0, ErrorKind::Syntax, message))
        }
    }
}

/// `'` + text with Java's six escapes (Java's `Utils.fromCSVString`).
fn parse_string(text: &[u8]) -> FieldResult<String> {
    let body = after_mark(text, b'\'', "a string")?;
    let body = std::str::from_utf8(body).map_err(|e| {
        (
            1 + e.valid_up_to(),
            ErrorKind::Encoding,
            "invalid UTF-8 in string".to_owned(),
        )
    })?;
    let Some(first) = memchr::memchr(b'%', body.as_bytes()) else {
        return Ok(body.to_owned());
    };
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(body.len());
    out.push_str(&body[..first]);
    let mut i = first;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            // Runs between escapes are copied whole; `%` is ASCII so boundaries are chars.
            let next = memchr::memchr(b'%', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            out.push_str(&body[i..next]);
            i = next;
            continue;
        }
        let c = match bytes.get(i + 1..i + 3) {
            Some(b"00") => '\0',
            Some(b"0A") => '\n',
            Some(b"0D") => '\r',
            Some(b"2C") => ',',
            Some(b"7D") => '}',
            Some(b"25") => '%',
            _ => {
                let seq: String = body[i..].chars().take(3).collect();
                return Err((
                    1 + i,
                    ErrorKind::Encoding,
                    format!(
                        "bad escape {} in string (only %00 %0A %0D %2C %7D %25 are written by Hadoop)",
                        excerpt(&seq)
                    ),
                ));
            }
        };
        out.push(c);
        i += 3;
    }
    Ok(out)
}

/// `#` + an even number of hex digits of either case (Java's `Utils.fromCSVBuffer`).
fn parse_buffer(text: &[u8]) -> FieldResult<Vec<u8>> {
    let hex = after_mark(text, b'#', "a buffer")?;
    if !hex.len().is_multiple_of(2) {
        return Err((
            text.len() - 1,
            ErrorKind::Syntax,
            "odd number of hex digits in buffer".to_owned(),
        ));
    }
    let mut out = Vec::new();
    decode_pairs(hex, &mut out).map_err(|i| {
        let at = 1 + i;
        (
            at,
            ErrorKind::Syntax,
            format!("expected a hex digit, found {}", describe(Some(text[at]))),
        )
    })?;
    Ok(out)
}

fn parse_bool(text: &[u8]) -> FieldResult<bool> {
    match text {
        b"T" => Ok(true),
        b"F" => Ok(false),
        _ => Err((
            0,
            ErrorKind::Syntax,
            format!("expected a boolean (`T` or `F`), found {}", excerpt(text)),
        )),
    }
}

fn parse_f64(text: &[u8]) -> FieldResult<f64> {
    parse_double(text).map_err(|e| {
        (
            e.offset().min(text.len().saturating_sub(1)),
            ErrorKind::Syntax,
            format!("{}: {e}", excerpt(text)),
        )
    })
}

impl<R: Read> RecordInput for CsvInput<R> {
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        Ok(self.integer("a byte", i8::MIN as i64, i8::MAX as i64)? as i8)
    }

    #[inline]
    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        self.field("a boolean", parse_bool)
    }

    #[inline]
    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        Ok(self.integer("an int", i32::MIN as i64, i32::MAX as i64)? as i32)
    }

    #[inline]
    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.integer("a long", i64::MIN, i64::MAX)
    }

    #[inline]
    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        // Java: (float) Double.parseDouble(text).
        Ok(self.field("a float", parse_f64)? as f32)
    }

    #[inline]
    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        self.field("a double", parse_f64)
    }

    #[inline]
    fn read_string(&mut self, _tag: &str) -> Result<String> {
        self.field("a string (`'`)", parse_string)
    }

    fn read_buffer(&mut self, _tag: &str) -> Result<Vec<u8>> {
        self.field("a buffer (`#`)", parse_buffer)
    }

    #[inline]
    fn start_record(&mut self, tag: &str) -> Result<()> {
        if tag.is_empty() {
            self.first = true;
            self.enter()
        } else {
            self.open(b's', "a record (`s{`)")
        }
    }

    #[inline]
    fn end_record(&mut self, tag: &str) -> Result<()> {
        if !tag.is_empty() {
            return self.close("the end of a record (`}`)");
        }
        match self.src.available().first() {
            Some(b'\n') => self.src.consume(1),
            Some(b'\r') => {
                self.src.consume(1);
                if self.src.peek()? == Some(b'\n') {
                    self.src.consume(1);
                }
            }
            _ => {
                let b = self.src.peek()?;
                if !matches!(b, Some(b'\n' | b'\r')) {
                    return Err(self.unexpected(if self.first {
                        "the end of the line"
                    } else {
                        "`,` or the end of the line"
                    }));
                }
                return self.end_record(tag);
            }
        }
        self.line += 1;
        self.line_start = self.src.offset();
        self.depth.leave();
        self.first = true;
        Ok(())
    }

    fn start_vector(&mut self, _tag: &str) -> Result<Index> {
        self.open(b'v', "a vector (`v{`)")?;
        Ok(Index::delimited())
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.close("the end of a vector (`}`)")
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        self.open(b'm', "a map (`m{`)")?;
        Ok(Index::delimited())
    }

    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.close("the end of a map (`}`)")
    }

    fn next_element(&mut self, _index: &mut Index) -> Result<bool> {
        match self.src.peek()? {
            Some(b'}') => Ok(false),
            Some(b'\n' | b'\r') => {
                let at = self.src.offset();
                Err(self.error(
                    at,
                    ErrorKind::Syntax,
                    "the line ends inside a vector or map (missing `}`)",
                ))
            }
            Some(_) => Ok(true),
            None => Err(self.unexpected("`}`")),
        }
    }

    #[inline]
    fn at_end(&mut self) -> Result<bool> {
        Ok(self.src.peek()?.is_none())
    }

    fn position(&self) -> Position {
        self.position_at(self.src.offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cases::check_each_input;

    #[test]
    fn the_integer_fast_path_agrees_with_the_general_one() {
        check_each_input(
            &[
                b"0,",
                b"-0}",
                b"123456789012345678\n",
                b"-999999999999999999\r",
                b"7,",
            ],
            |text| {
                let (v, n) = scan_long(text).unwrap();
                assert_eq!(Some(Some(v)), parse_long(&text[..n]));
                assert!(ends_field(text[n]));
            },
        );
        check_each_input(
            &[b"1234567890123456789,", b"12", b"-,", b"1x,", b"", b"+1,"],
            |text| assert_eq!(scan_long(text), None),
        );
    }

    #[test]
    fn longs_parse_like_java_within_range() {
        assert_eq!(parse_long(b"-9223372036854775808"), Some(Some(i64::MIN)));
        assert_eq!(parse_long(b"9223372036854775807"), Some(Some(i64::MAX)));
        assert_eq!(parse_long(b"9223372036854775808"), Some(None));
        assert_eq!(parse_long(b"+007"), Some(Some(7)));
        check_each_input(&[b"", b"-", b"1 ", b"0x1", b"1.0", b"--1"], |bad| {
            assert_eq!(parse_long(bad), None)
        });
    }

    #[test]
    fn strings_unescape_and_refuse_other_escapes() {
        assert_eq!(
            parse_string(b"'a%2Cb%7D%25%0A%0D%00\t'{#").unwrap(),
            "a,b}%\n\r\0\t'{#"
        );
        assert_eq!(parse_string(b"'").unwrap(), "");
        assert_eq!(parse_string("'é%25😀".as_bytes()).unwrap(), "é%😀");
        for (bad, at) in [
            (&b"'%0a"[..], 1),
            (b"'ab%41", 3),
            (b"'%2", 1),
            (b"x", 0),
            (b"'\xc3(", 1),
        ] {
            assert_eq!(parse_string(bad).unwrap_err().0, at, "{bad:?}");
        }
    }

    #[test]
    fn buffers_take_either_case_and_refuse_odd_digits() {
        assert_eq!(parse_buffer(b"#").unwrap(), b"");
        assert_eq!(parse_buffer(b"#00fFaB").unwrap(), [0x00, 0xff, 0xab]);
        assert_eq!(parse_buffer(b"#abc").unwrap_err().0, 3);
        assert_eq!(parse_buffer(b"#0g").unwrap_err().0, 2);
        assert_eq!(parse_buffer(b"#-1").unwrap_err().0, 1);
        assert_eq!(parse_buffer(b"'").unwrap_err().0, 0);
    }

    #[test]
    fn line_and_column_follow_records() {
        let mut input = CsvInput::new(&b"1\r\n2\rx\n"[..]);
        for want in [1, 2] {
            input.start_record("").unwrap();
            assert_eq!(input.read_int("v").unwrap(), want);
            input.end_record("").unwrap();
        }
        input.start_record("").unwrap();
        let e = input.read_int("v").unwrap_err();
        assert_eq!(e.position(), Some(Position::LineCol { line: 3, col: 1 }));
        assert_eq!(e.kind(), ErrorKind::Syntax);
    }

    #[test]
    fn structure_mirrors_the_writer() {
        let read = |text: &[u8]| -> Result<Vec<i32>> {
            let mut input = CsvInput::new(text);
            input.start_record("")?;
            let mut index = input.start_vector("v")?;
            let mut out = Vec::new();
            while input.next_element(&mut index)? {
                out.push(input.read_int("v")?);
            }
            input.end_vector("v")?;
            input.end_record("")?;
            Ok(out)
        };
        assert_eq!(read(b"v{1,2}\n").unwrap(), [1, 2]);
        assert_eq!(read(b"v{}\n").unwrap(), [0; 0]);
        let e = read(b"v{1,2,}\n").unwrap_err();
        assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 7 }));
        let e = read(b"v{1,2\n").unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (
                ErrorKind::Syntax,
                Some(Position::LineCol { line: 1, col: 6 })
            )
        );
        let e = read(b"v{1,2").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
        let e = read(b"v{1,,2}\n").unwrap_err();
        assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 5 }));
        let e = read(b"v{1}").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn accidental_java_leniency_is_an_error() {
        let one = |text: &[u8], f: fn(&mut CsvInput<&[u8]>) -> Result<()>| {
            let mut input = CsvInput::new(text);
            f(&mut input).unwrap_err()
        };
        let e = one(b"X", |i| i.read_bool("z").map(drop));
        assert_eq!(e.kind(), ErrorKind::Syntax);
        let e = one(b"4294967297", |i| i.read_int("i").map(drop));
        assert_eq!(e.kind(), ErrorKind::Overflow);
        let e = one(b"128", |i| i.read_byte("b").map(drop));
        assert_eq!(e.kind(), ErrorKind::Overflow);
        let e = one(b"", |i| i.read_long("l").map(drop));
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    }
}
