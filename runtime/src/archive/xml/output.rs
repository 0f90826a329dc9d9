//! [`XmlOutput`]: Java's `XmlRecordOutput`, byte for byte.

use std::io::Write;

use super::escape::push_escaped;
use crate::archive::hex::push_hex;
use crate::archive::sink::sink_methods;
use crate::archive::text::float_text_methods;
use crate::archive::{FloatText, RecordOutput, Sink};
use crate::error::{Error, ErrorKind, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Struct,
    /// A vector or a map (Java writes both as `<array>`).
    Array,
}

/// The fixed text around a struct member at one indentation level, so that opening and
/// closing a member is three appends instead of a dozen.
#[derive(Debug)]
struct Envelope {
    /// indent(L) `<member>` LF indent(L+1) `<name>`
    head: Vec<u8>,
    /// `</name>` LF indent(L+1) `<value>`
    mid: Vec<u8>,
    /// `</value>` LF indent(L) `</member>` LF
    tail: Vec<u8>,
    /// indent(L+1): where `</struct>` or `</array>` of a value at this level goes.
    indent: Vec<u8>,
}

impl Envelope {
    fn new(level: usize) -> Self {
        let outer = "  ".repeat(level);
        let inner = "  ".repeat(level + 1);
        Envelope {
            head: format!("{outer}<member>\n{inner}<name>").into_bytes(),
            mid: format!("</name>\n{inner}<value>").into_bytes(),
            tail: format!("</value>\n{outer}</member>\n").into_bytes(),
            indent: inner.into_bytes(),
        }
    }
}

/// Writes records in Hadoop's XML encoding, exactly as Java's `XmlRecordOutput` does.
///
/// Each top-level record is one `<value><struct>` … `</struct></value>` element followed by
/// a line feed; struct members are indented by two spaces per level, elements of vectors
/// and maps start at column 0. Strings are escaped per UTF-16 code unit (`<` → `&lt;`,
/// `&` → `&amp;`, `%` → `%0025`, controls, surrogates and U+FFFE/U+FFFF → `%XXXX`),
/// buffers are lowercase hex, floats use Java's `Float.toString` and doubles
/// `Double.toString` (JDK 8–18's unless [`XmlOutput::with_float_text`] says otherwise).
///
/// ```
/// use hadoop_record::archive::xml::XmlOutput;
/// use hadoop_record::RecordOutput;
/// let mut out = XmlOutput::new(Vec::new());
/// out.start_record("").unwrap();
/// out.write_int(0, "v").unwrap();
/// out.end_record("").unwrap();
/// let xml = out.into_inner().unwrap();
/// assert_eq!(
///     String::from_utf8(xml).unwrap(),
///     "<value><struct>\n  <member>\n    <name>v</name>\n    <value><i4>0</i4></value>\n  </member>\n</struct></value>\n"
/// );
/// ```
#[derive(Debug)]
pub struct XmlOutput<W: Write> {
    sink: Sink<W>,
    stack: Vec<Kind>,
    /// Java's indentation level.
    indent: usize,
    /// [`Envelope`]s by level, built as deeper levels are reached.
    envelopes: Vec<Envelope>,
    float_text: FloatText,
}

impl<W: Write> XmlOutput<W> {
    /// Writes to `writer` (buffered: call [`XmlOutput::flush`] or
    /// [`XmlOutput::into_inner`] at the end).
    pub fn new(writer: W) -> Self {
        XmlOutput {
            sink: Sink::new(writer),
            stack: Vec::new(),
            indent: 0,
            envelopes: Vec::new(),
            float_text: FloatText::default(),
        }
    }

    float_text_methods! {
        /// ```
        /// use hadoop_record::archive::{xml::XmlOutput, FloatText};
        /// use hadoop_record::RecordOutput;
        /// let mut out = XmlOutput::new(Vec::new()).with_float_text(FloatText::Shortest);
        /// out.write_float(f32::MIN_POSITIVE, "f").unwrap();
        /// assert_eq!(out.into_inner().unwrap(), b"<value><ex:float>1.1754944E-38</ex:float></value>\n");
        /// let mut out = XmlOutput::new(Vec::new());
        /// out.write_float(f32::MIN_POSITIVE, "f").unwrap();
        /// assert_eq!(out.into_inner().unwrap(), b"<value><ex:float>1.17549435E-38</ex:float></value>\n");
        /// ```
    }

    sink_methods!();

    /// Forgets a record abandoned midway, so that the next one starts at the top level.
    pub(crate) fn reset(&mut self) {
        self.stack.clear();
        self.indent = 0;
    }

    /// The envelope of level `level`.
    #[inline]
    fn envelope(envelopes: &mut Vec<Envelope>, level: usize) -> &Envelope {
        while envelopes.len() <= level {
            envelopes.push(Envelope::new(envelopes.len()));
        }
        &envelopes[level]
    }

    /// Java's `printBeginEnvelope`: inside a struct, indent(L) `<member>` LF, L+1,
    /// indent(L) `<name>tag</name>` LF indent(L) `<value>`; elsewhere just `<value>`.
    #[inline]
    fn begin(&mut self, tag: &str) {
        if self.stack.last() == Some(&Kind::Struct) {
            let e = Self::envelope(&mut self.envelopes, self.indent);
            let buf = self.sink.buf();
            buf.extend_from_slice(&e.head);
            // Java writes the field name unescaped; DDL names are identifiers.
            buf.extend_from_slice(tag.as_bytes());
            buf.extend_from_slice(&e.mid);
            self.indent += 1;
        } else {
            self.sink.buf().extend_from_slice(b"<value>");
        }
    }

    /// Java's `printEndEnvelope`; hands the buffer on after a top-level value.
    #[inline]
    fn end(&mut self) -> Result<()> {
        match self.stack.last() {
            Some(Kind::Struct) => {
                self.indent -= 1;
                let e = Self::envelope(&mut self.envelopes, self.indent);
                self.sink.buf().extend_from_slice(&e.tail);
                Ok(())
            }
            Some(Kind::Array) => {
                self.sink.buf().extend_from_slice(b"</value>\n");
                Ok(())
            }
            None => {
                self.sink.buf().extend_from_slice(b"</value>\n");
                self.sink.end_of_record()
            }
        }
    }

    /// A primitive: envelope, `<open>`, text written by `text`, `</close>`, envelope.
    #[inline]
    fn primitive(
        &mut self,
        tag: &str,
        open: &[u8],
        close: &[u8],
        text: impl FnOnce(&mut Vec<u8>),
    ) -> Result<()> {
        self.begin(tag);
        let buf = self.sink.buf();
        buf.extend_from_slice(open);
        text(buf);
        buf.extend_from_slice(close);
        self.end()
    }

    fn start_compound(&mut self, tag: &str, kind: Kind, open: &[u8]) {
        self.begin(tag);
        self.stack.push(kind);
        self.sink.buf().extend_from_slice(open);
        self.indent += 1;
    }

    fn end_compound(&mut self, kind: Kind, close: &[u8]) -> Result<()> {
        if self.stack.last() != Some(&kind) {
            let what = match kind {
                Kind::Struct => "end_record",
                Kind::Array => "end_vector/end_map",
            };
            return Err(Error::new(
                ErrorKind::Schema,
                format!("{what} does not match the open record, vector or map"),
            ));
        }
        self.indent -= 1;
        if self.indent > 0 {
            let e = Self::envelope(&mut self.envelopes, self.indent - 1);
            self.sink.buf().extend_from_slice(&e.indent);
        }
        self.sink.buf().extend_from_slice(close);
        self.stack.pop();
        self.end()
    }
}

impl<W: Write> RecordOutput for XmlOutput<W> {
    fn write_byte(&mut self, v: i8, tag: &str) -> Result<()> {
        self.primitive(tag, b"<ex:i1>", b"</ex:i1>", |b| {
            b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes())
        })
    }

    fn write_bool(&mut self, v: bool, tag: &str) -> Result<()> {
        self.primitive(tag, b"<boolean>", b"</boolean>", |b| {
            b.push(if v { b'1' } else { b'0' })
        })
    }

    fn write_int(&mut self, v: i32, tag: &str) -> Result<()> {
        self.primitive(tag, b"<i4>", b"</i4>", |b| {
            b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes())
        })
    }

    fn write_long(&mut self, v: i64, tag: &str) -> Result<()> {
        self.primitive(tag, b"<ex:i8>", b"</ex:i8>", |b| {
            b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes())
        })
    }

    fn write_float(&mut self, v: f32, tag: &str) -> Result<()> {
        let float_text = self.float_text;
        self.primitive(tag, b"<ex:float>", b"</ex:float>", |b| {
            float_text.push_float(b, v)
        })
    }

    fn write_double(&mut self, v: f64, tag: &str) -> Result<()> {
        let float_text = self.float_text;
        self.primitive(tag, b"<double>", b"</double>", |b| {
            float_text.push_double(b, v)
        })
    }

    fn write_string(&mut self, v: &str, tag: &str) -> Result<()> {
        self.primitive(tag, b"<string>", b"</string>", |b| push_escaped(b, v))
    }

    fn write_buffer(&mut self, v: &[u8], tag: &str) -> Result<()> {
        self.primitive(tag, b"<string>", b"</string>", |b| push_hex(b, v))
    }

    fn start_record(&mut self, tag: &str) -> Result<()> {
        self.start_compound(tag, Kind::Struct, b"<struct>\n");
        Ok(())
    }

    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.end_compound(Kind::Struct, b"</struct>")
    }

    fn start_vector(&mut self, _len: usize, tag: &str) -> Result<()> {
        self.start_compound(tag, Kind::Array, b"<array>\n");
        Ok(())
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.end_compound(Kind::Array, b"</array>")
    }

    fn start_map(&mut self, len: usize, tag: &str) -> Result<()> {
        self.start_vector(len, tag)
    }

    fn end_map(&mut self, tag: &str) -> Result<()> {
        self.end_vector(tag)
    }
}
