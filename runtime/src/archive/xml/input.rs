//! [`XmlInput`]: reads what Java's `XmlRecordOutput` writes, and a little more.

use std::io::Read;

use crate::archive::sink::reader_methods;

use super::elem::Elem;
use super::escape::{unescape_into, unhex_into, TextError};
use super::lexer::Lexer;
use crate::archive::text::{parse_double, parse_float, FloatTextError};
use crate::archive::{Depth, Index, RecordInput};
use crate::error::{excerpt, Error, ErrorKind, Position, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A record: `<struct>` of `<member>`s.
    Struct,
    /// A vector or a map: `<array>` of `<value>`s.
    Array,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    kind: Kind,
    /// Written as an empty-element tag (`<array/>`): nothing inside, no end tag.
    empty: bool,
}

/// Reads records in Hadoop's XML encoding from any [`Read`] (buffered internally).
///
/// Structure is checked strictly — every value in its `<value>`, struct fields in
/// `<member><name>…</name><value>…</value></member>`, vector and map elements directly in
/// `<array>`, the right type element for each field — and every mismatch, unknown element
/// or entity, and premature end is an error at line:col. It reads more than Java's
/// `XmlRecordInput`: a stream of several top-level `<value>` records, and text containing
/// `]]>`.
///
/// Accepted beyond what Java writes, as an XML parser would: the five predefined entities
/// and character references, CDATA sections, comments and processing instructions (an XML
/// declaration), a byte order mark, whitespace between elements and inside tags before
/// `>`, `<int>` for `<i4>`, and empty-element tags (`<string/>`, `<array/>`). Not accepted:
/// attributes and document type declarations. The text of `<name>` is checked to be
/// well-formed but otherwise ignored, as Java ignores it: fields are read by position.
///
/// Values are read as Java reads them: numbers as `Integer.parseInt` etc. (optional sign,
/// ASCII digits, no surrounding whitespace), floats as `Float.parseFloat` /
/// `Double.parseDouble`, strings with each `%` taking four hex digits of a UTF-16 code
/// unit (surrogate pairs recombined; an unpaired surrogate is an error), buffers as pairs
/// of hex digits of either case. Booleans must be `1` or `0` (Java reads anything but `1`
/// as false; here other text is an error rather than a silent `false`).
///
/// ```
/// use hadoop_record::archive::xml::XmlInput;
/// use hadoop_record::RecordInput;
/// let xml = b"<value><struct>\n  <member>\n    <name>v</name>\n    <value><i4>42</i4></value>\n  </member>\n</struct></value>\n";
/// let mut input = XmlInput::new(&xml[..]);
/// input.start_record("").unwrap();
/// assert_eq!(input.read_int("v").unwrap(), 42);
/// input.end_record("").unwrap();
/// assert!(input.at_end().unwrap());
/// ```
#[derive(Debug)]
pub struct XmlInput<R> {
    lex: Lexer<R>,
    stack: Vec<Frame>,
    depth: Depth,
}

impl<R: Read> XmlInput<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        XmlInput {
            lex: Lexer::new(reader),
            stack: Vec::new(),
            depth: Depth::default(),
        }
    }

    /// An input whose buffer starts at `capacity` bytes (at most the usual 64 KiB).
    pub(crate) fn with_capacity(reader: R, capacity: usize) -> Self {
        XmlInput {
            lex: Lexer::with_capacity(reader, capacity),
            stack: Vec::new(),
            depth: Depth::default(),
        }
    }

    /// The same input with a nesting limit of `max` records, vectors and maps open at once
    /// instead of [`crate::archive::DEFAULT_MAX_DEPTH`] (see [`Depth`]).
    pub fn with_max_depth(mut self, max: usize) -> Self {
        self.depth = Depth::new(max);
        self
    }

    reader_methods!(lex);

    #[inline]
    fn in_struct(&self) -> bool {
        matches!(self.stack.last(), Some(f) if f.kind == Kind::Struct)
    }

    /// Opens the envelope of a value: `<member><name>…</name><value>` inside a record,
    /// `<value>` elsewhere.
    #[inline]
    fn open_value(&mut self) -> Result<()> {
        if let Some(frame) = self.stack.last() {
            if frame.kind == Kind::Struct {
                if frame.empty {
                    return Err(self
                        .lex
                        .err(ErrorKind::Syntax, "<struct/> is empty but a field follows"));
                }
                if self.lex.open(Elem::Member)? {
                    return Err(self.lex.err(ErrorKind::Syntax, "<member/> holds no value"));
                }
                if !self.lex.open(Elem::Name)? {
                    let name = self.lex.text(Elem::Name)?;
                    if let Err(e) = std::str::from_utf8(self.lex.text_bytes(name)) {
                        return Err(self.lex.text_err(
                            name,
                            e.valid_up_to(),
                            ErrorKind::Encoding,
                            "invalid UTF-8 in <name>".into(),
                        ));
                    }
                }
            }
        }
        if self.lex.open(Elem::Value)? {
            return Err(self.lex.err(ErrorKind::Syntax, "<value/> holds no value"));
        }
        Ok(())
    }

    /// Closes the envelope opened by [`Self::open_value`].
    #[inline]
    fn close_value(&mut self) -> Result<()> {
        self.lex.close(Elem::Value)?;
        if self.in_struct() {
            self.lex.close(Elem::Member)?;
        }
        Ok(())
    }

    /// Reads a primitive: its envelope, its element and its text, which `decode` turns into
    /// the value.
    #[inline]
    fn primitive<T>(
        &mut self,
        elem: Elem,
        alt: Option<Elem>,
        decode: impl FnOnce(&[u8]) -> Result<T, (usize, ErrorKind, String)>,
    ) -> Result<T> {
        self.open_value()?;
        let (opened, empty) = self.lex.open_either(elem, alt)?;
        let text = if empty {
            None
        } else {
            Some(self.lex.text(opened)?)
        };
        let bytes = text.map_or(&[][..], |t| self.lex.text_bytes(t));
        let value = match decode(bytes) {
            Ok(v) => v,
            Err((offset, kind, message)) => {
                return Err(match text {
                    Some(t) => self.lex.text_err(t, offset, kind, message),
                    None => Error::new(kind, message).at(self.lex.here()),
                })
            }
        };
        self.close_value()?;
        Ok(value)
    }

    fn open_compound(&mut self, elem: Elem, kind: Kind) -> Result<()> {
        self.depth.enter().map_err(|e| e.at(self.lex.here()))?;
        self.open_value()?;
        let empty = self.lex.open(elem)?;
        self.stack.push(Frame { kind, empty });
        Ok(())
    }

    fn close_compound(&mut self, elem: Elem, kind: Kind) -> Result<()> {
        match self.stack.pop() {
            Some(frame) if frame.kind == kind => {
                self.depth.leave();
                if !frame.empty {
                    self.lex.close(elem)?;
                }
                self.close_value()
            }
            _ => Err(Error::new(
                ErrorKind::Schema,
                format!("end of <{}> requested where none is open", elem.name()),
            )
            .at(self.lex.here())),
        }
    }
}

type DecodeError = (usize, ErrorKind, String);

fn syntax(offset: usize, message: String) -> DecodeError {
    (offset, ErrorKind::Syntax, message)
}

fn text_error(e: TextError) -> DecodeError {
    (e.offset, e.kind, e.message)
}

/// Java's `Long.parseLong` narrowed to `min..=max` like `Integer.parseInt`/`Byte.parseByte`:
/// an optional sign and ASCII digits, nothing else.
fn parse_integer(text: &[u8], min: i64, max: i64, what: &str) -> Result<i64, DecodeError> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let bad = || syntax(0, format!("not a valid {what}: {}", excerpt(text)));
    if digits.is_empty() {
        return Err(bad());
    }
    // Accumulated as a negative number so that the minimum fits.
    let mut acc: i64 = 0;
    let mut overflow = false;
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err(bad());
        }
        match acc
            .checked_mul(10)
            .and_then(|a| a.checked_sub(i64::from(d - b'0')))
        {
            Some(a) => acc = a,
            None => overflow = true,
        }
    }
    let value = if negative {
        Some(acc)
    } else {
        acc.checked_neg()
    };
    match value {
        Some(v) if !overflow && (min..=max).contains(&v) => Ok(v),
        _ => Err((
            0,
            ErrorKind::Overflow,
            format!("{} does not fit in a {what}", excerpt(text)),
        )),
    }
}

/// Java's `Float.parseFloat` / `Double.parseDouble` refused `text`.
fn float_error(text: &[u8], e: FloatTextError, what: &str) -> DecodeError {
    syntax(
        e.offset(),
        format!(
            "not a valid {what}: {} ({} at byte {})",
            excerpt(text),
            e.reason(),
            e.offset()
        ),
    )
}

fn as_str<'a>(text: &'a [u8], what: &str) -> Result<&'a str, DecodeError> {
    std::str::from_utf8(text).map_err(|e| {
        (
            e.valid_up_to(),
            ErrorKind::Encoding,
            format!("invalid UTF-8 in {what}"),
        )
    })
}

impl<R: Read> RecordInput for XmlInput<R> {
    fn read_byte(&mut self, _tag: &str) -> Result<i8> {
        self.primitive(Elem::I1, None, |t| {
            parse_integer(t, i8::MIN.into(), i8::MAX.into(), "byte").map(|v| v as i8)
        })
    }

    fn read_bool(&mut self, _tag: &str) -> Result<bool> {
        self.primitive(Elem::Boolean, None, |t| match t {
            b"1" => Ok(true),
            b"0" => Ok(false),
            _ => Err(syntax(
                0,
                format!("a boolean is 1 or 0, not {}", excerpt(t)),
            )),
        })
    }

    fn read_int(&mut self, _tag: &str) -> Result<i32> {
        self.primitive(Elem::I4, Some(Elem::Int), |t| {
            parse_integer(t, i32::MIN.into(), i32::MAX.into(), "int").map(|v| v as i32)
        })
    }

    fn read_long(&mut self, _tag: &str) -> Result<i64> {
        self.primitive(Elem::I8, None, |t| {
            parse_integer(t, i64::MIN, i64::MAX, "long")
        })
    }

    fn read_float(&mut self, _tag: &str) -> Result<f32> {
        self.primitive(Elem::Float, None, |t| {
            parse_float(t).map_err(|e| float_error(t, e, "float"))
        })
    }

    fn read_double(&mut self, _tag: &str) -> Result<f64> {
        self.primitive(Elem::Double, None, |t| {
            parse_double(t).map_err(|e| float_error(t, e, "double"))
        })
    }

    fn read_string(&mut self, _tag: &str) -> Result<String> {
        self.primitive(Elem::String, None, |t| {
            let s = as_str(t, "string")?;
            let mut out = String::with_capacity(s.len());
            unescape_into(s, &mut out).map_err(text_error)?;
            Ok(out)
        })
    }

    fn read_buffer(&mut self, _tag: &str) -> Result<Vec<u8>> {
        self.primitive(Elem::String, None, |t| {
            let mut out = Vec::new();
            unhex_into(t, &mut out).map_err(text_error)?;
            Ok(out)
        })
    }

    fn start_record(&mut self, _tag: &str) -> Result<()> {
        self.open_compound(Elem::Struct, Kind::Struct)
    }

    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.close_compound(Elem::Struct, Kind::Struct)
    }

    fn start_vector(&mut self, _tag: &str) -> Result<Index> {
        self.open_compound(Elem::Array, Kind::Array)?;
        Ok(Index::delimited())
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.close_compound(Elem::Array, Kind::Array)
    }

    fn start_map(&mut self, tag: &str) -> Result<Index> {
        self.start_vector(tag)
    }

    fn end_map(&mut self, tag: &str) -> Result<()> {
        self.end_vector(tag)
    }

    fn next_element(&mut self, _index: &mut Index) -> Result<bool> {
        match self.stack.last() {
            Some(Frame {
                kind: Kind::Array,
                empty,
            }) => Ok(!*empty && !self.lex.at_close("inside <array>")?),
            _ => Err(
                Error::new(ErrorKind::Schema, "next element requested outside <array>")
                    .at(self.lex.here()),
            ),
        }
    }

    fn at_end(&mut self) -> Result<bool> {
        self.lex.at_end()
    }

    fn position(&self) -> Position {
        self.lex.here()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_parse_as_java_does() {
        let p = |s: &str| parse_integer(s.as_bytes(), i32::MIN.into(), i32::MAX.into(), "int");
        assert_eq!(p("-2147483648"), Ok(-2147483648));
        assert_eq!(p("+17"), Ok(17));
        assert_eq!(p("007"), Ok(7));
        assert_eq!(p("2147483648").unwrap_err().1, ErrorKind::Overflow);
        assert_eq!(
            p("99999999999999999999999").unwrap_err().1,
            ErrorKind::Overflow
        );
        for bad in ["", "-", "+", " 1", "1 ", "1.0", "0x10", "１"] {
            assert_eq!(p(bad).unwrap_err().1, ErrorKind::Syntax, "{bad:?}");
        }
        let l = |s: &str| parse_integer(s.as_bytes(), i64::MIN, i64::MAX, "long");
        assert_eq!(l("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(l("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(l("9223372036854775808").unwrap_err().1, ErrorKind::Overflow);
    }
}
