//! Hadoop's `CsvRecordOutput`: Java's exact text.

use std::io::Write;

use crate::archive::hex::push_hex;
use crate::archive::sink::sink_methods;
use crate::archive::text::float_text_methods;
use crate::archive::{FloatText, NullType, RecordOutput, Sink};
use crate::error::Result;

/// Writes records in Hadoop's CSV encoding (spec §4): a top-level record's fields bare and
/// comma-separated, ended by a line feed; nested records `s{…}`, vectors `v{…}`, maps
/// `m{k,v,…}`; booleans `T`/`F`; integers in decimal; floats widened to double and printed
/// with Java's `Double.toString` (JDK 8–18's unless [`CsvOutput::with_float_text`] says
/// otherwise); strings `'` + text with `%00 %0A %0D %2C %7D %25` escapes; buffers `#` +
/// lowercase hex.
///
/// ```
/// use hadoop_record::archive::csv::CsvOutput;
/// use hadoop_record::RecordOutput;
/// let mut out = CsvOutput::new(Vec::new());
/// out.start_record("").unwrap();
/// out.write_float(0.1, "f").unwrap();
/// out.start_vector(2, "v").unwrap();
/// out.write_string("a,b}%", "v").unwrap();
/// out.write_buffer(b"\x01\xab", "v").unwrap();
/// out.end_vector("v").unwrap();
/// out.write_bool(true, "z").unwrap();
/// out.end_record("").unwrap();
/// assert_eq!(out.into_inner().unwrap(), b"0.10000000149011612,v{'a%2Cb%7D%25,#01ab},T\n");
/// ```
#[derive(Debug)]
pub struct CsvOutput<W: Write> {
    sink: Sink<W>,
    /// Java's `isFirst`: no comma before the next item.
    first: bool,
    float_text: FloatText,
}

impl<W: Write> CsvOutput<W> {
    /// An output writing to `inner`.
    pub fn new(inner: W) -> Self {
        CsvOutput {
            sink: Sink::new(inner),
            first: true,
            float_text: FloatText::default(),
        }
    }

    float_text_methods! {
        /// ```
        /// use hadoop_record::archive::{csv::CsvOutput, FloatText};
        /// use hadoop_record::RecordOutput;
        /// for (style, line) in [(FloatText::Legacy, "9.999999999999999E22\n"), (FloatText::Shortest, "1.0E23\n")] {
        ///     let mut out = CsvOutput::new(Vec::new()).with_float_text(style);
        ///     out.start_record("").unwrap();
        ///     out.write_double(1e23, "d").unwrap();
        ///     out.end_record("").unwrap();
        ///     assert_eq!(out.into_inner().unwrap(), line.as_bytes());
        /// }
        /// ```
    }

    sink_methods!();

    /// Starts afresh, as after the end of a top-level record.
    pub(crate) fn reset(&mut self) {
        self.first = true;
    }

    /// The buffer, after the comma that separates the next item from the previous one.
    #[inline(always)]
    fn item(&mut self) -> &mut Vec<u8> {
        let first = std::mem::replace(&mut self.first, false);
        let buf = self.sink.buf();
        if !first {
            buf.push(b',');
        }
        buf
    }

    #[inline(always)]
    fn integer(&mut self, v: i64) {
        let mut digits = itoa::Buffer::new();
        let text = digits.format(v);
        self.item().extend_from_slice(text.as_bytes());
    }

    #[inline(always)]
    fn open(&mut self, bracket: &[u8; 2]) {
        self.item().extend_from_slice(bracket);
        self.first = true;
    }

    #[inline(always)]
    fn close(&mut self) {
        self.sink.buf().push(b'}');
        self.first = false;
    }
}

/// The escape of a byte in a CSV string, if it needs one (Java's `Utils.toCSVString`).
#[inline(always)]
fn escape(b: u8) -> Option<&'static [u8; 3]> {
    match b {
        0 => Some(b"%00"),
        b'\n' => Some(b"%0A"),
        b'\r' => Some(b"%0D"),
        b',' => Some(b"%2C"),
        b'}' => Some(b"%7D"),
        b'%' => Some(b"%25"),
        _ => None,
    }
}

/// Appends `s` with Java's six CSV escapes, copying the runs between them whole.
#[inline]
fn push_escaped(buf: &mut Vec<u8>, s: &[u8]) {
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        if let Some(esc) = escape(b) {
            buf.extend_from_slice(&s[start..i]);
            buf.extend_from_slice(esc);
            start = i + 1;
        }
    }
    buf.extend_from_slice(&s[start..]);
}

impl<W: Write> RecordOutput for CsvOutput<W> {
    #[inline]
    fn write_byte(&mut self, v: i8, _tag: &str) -> Result<()> {
        self.integer(v as i64);
        Ok(())
    }

    #[inline]
    fn write_bool(&mut self, v: bool, _tag: &str) -> Result<()> {
        self.item().push(if v { b'T' } else { b'F' });
        Ok(())
    }

    #[inline]
    fn write_int(&mut self, v: i32, _tag: &str) -> Result<()> {
        self.integer(v as i64);
        Ok(())
    }

    #[inline]
    fn write_long(&mut self, v: i64, _tag: &str) -> Result<()> {
        self.integer(v);
        Ok(())
    }

    #[inline]
    fn write_float(&mut self, v: f32, _tag: &str) -> Result<()> {
        // Java's CsvRecordOutput.writeFloat is writeDouble((double) f).
        let float_text = self.float_text;
        float_text.push_double(self.item(), f64::from(v));
        Ok(())
    }

    #[inline]
    fn write_double(&mut self, v: f64, _tag: &str) -> Result<()> {
        let float_text = self.float_text;
        float_text.push_double(self.item(), v);
        Ok(())
    }

    #[inline]
    fn write_string(&mut self, v: &str, _tag: &str) -> Result<()> {
        let buf = self.item();
        buf.push(b'\'');
        push_escaped(buf, v.as_bytes());
        Ok(())
    }

    #[inline]
    fn write_buffer(&mut self, v: &[u8], _tag: &str) -> Result<()> {
        let buf = self.item();
        buf.push(b'#');
        push_hex(buf, v);
        Ok(())
    }

    /// An empty field: what jute's `toString()` (`ToStringOutputArchive`) prints for null.
    fn write_null(&mut self, _ty: NullType, _tag: &str) -> Result<()> {
        self.item();
        Ok(())
    }

    #[inline]
    fn start_record(&mut self, tag: &str) -> Result<()> {
        if !tag.is_empty() {
            self.open(b"s{");
        }
        Ok(())
    }

    #[inline]
    fn end_record(&mut self, tag: &str) -> Result<()> {
        if tag.is_empty() {
            self.sink.buf().push(b'\n');
            self.first = true;
            self.sink.end_of_record()
        } else {
            self.close();
            Ok(())
        }
    }

    #[inline]
    fn start_vector(&mut self, _len: usize, _tag: &str) -> Result<()> {
        self.open(b"v{");
        Ok(())
    }

    #[inline]
    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.close();
        Ok(())
    }

    #[inline]
    fn start_map(&mut self, _len: usize, _tag: &str) -> Result<()> {
        self.open(b"m{");
        Ok(())
    }

    #[inline]
    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_use_exactly_javas_six_escapes() {
        let mut out = Vec::new();
        push_escaped(&mut out, "a,b}%\n\r\0\t'{#<&>é😀".as_bytes());
        assert_eq!(out, "a%2Cb%7D%25%0A%0D%00\t'{#<&>é😀".as_bytes());
    }

    #[test]
    fn empty_containers_and_nested_records_match_java() {
        // The shape of the `containers_empty.csv` fixture's start: v{},v{},s{',0},m{}.
        let mut out = CsvOutput::new(Vec::new());
        out.start_record("").unwrap();
        out.start_vector(0, "vi").unwrap();
        out.end_vector("vi").unwrap();
        out.start_vector(0, "vs").unwrap();
        out.end_vector("vs").unwrap();
        out.start_record("inner").unwrap();
        out.write_string("", "tag").unwrap();
        out.write_long(0, "n").unwrap();
        out.end_record("inner").unwrap();
        out.start_map(0, "m").unwrap();
        out.end_map("m").unwrap();
        out.write_buffer(b"", "b").unwrap();
        out.write_byte(-128, "b").unwrap();
        out.end_record("").unwrap();
        out.start_record("").unwrap();
        out.write_int(i32::MIN, "i").unwrap();
        out.end_record("").unwrap();
        assert_eq!(
            out.into_inner().unwrap(),
            b"v{},v{},s{',0},m{},#,-128\n-2147483648\n"
        );
    }
}
