//! ZooKeeper's `BinaryOutputArchive`: Java's exact bytes.

use std::io::Write;

use super::text;
use crate::archive::sink::sink_methods;
use crate::archive::{NullType, RecordOutput, Sink};
use crate::error::{Error, ErrorKind, Result};
use crate::java_bits::{double_to_long_bits, float_to_int_bits};

/// Writes records in ZooKeeper's jute encoding (see [the module](super)): fixed-width
/// big-endian numbers, `int`-length-prefixed strings (encoded per UTF-16 unit, as ZooKeeper's
/// writer does) and buffers, `int`-count-prefixed vectors and maps, `-1` for null.
///
/// Output is buffered; [`JuteOutput::flush`] or [`JuteOutput::into_inner`] hands it to the
/// writer. [`crate::RecordWriter`] wraps this for whole records.
///
/// ```
/// use hadoop_record::archive::jute::JuteOutput;
/// use hadoop_record::archive::NullType;
/// use hadoop_record::RecordOutput;
/// let mut out = JuteOutput::new(Vec::new());
/// out.write_int(1024, "x").unwrap();
/// out.write_string("h\u{e9}", "s").unwrap();
/// out.write_null(NullType::Buffer, "b").unwrap();
/// assert_eq!(out.into_inner().unwrap(), b"\0\0\x04\0\0\0\0\x03h\xc3\xa9\xff\xff\xff\xff");
/// ```
#[derive(Debug)]
pub struct JuteOutput<W: Write> {
    sink: Sink<W>,
}

impl<W: Write> JuteOutput<W> {
    /// An output writing to `inner`.
    pub fn new(inner: W) -> Self {
        JuteOutput {
            sink: Sink::new(inner),
        }
    }

    sink_methods!();

    fn int(&mut self, v: i32) {
        self.sink.buf().extend_from_slice(&v.to_be_bytes());
    }

    /// A length or count: Java's are `int`s.
    fn len(&mut self, n: usize, what: &'static str) -> Result<()> {
        match i32::try_from(n) {
            Ok(n) => {
                self.int(n);
                Ok(())
            }
            Err(_) => Err(Error::new(
                ErrorKind::Limit,
                format!("{what} of {n} is more than jute's limit of 2^31 - 1"),
            )),
        }
    }
}

impl<W: Write> RecordOutput for JuteOutput<W> {
    fn write_byte(&mut self, v: i8, _tag: &str) -> Result<()> {
        self.sink.buf().push(v as u8);
        Ok(())
    }

    fn write_bool(&mut self, v: bool, _tag: &str) -> Result<()> {
        self.sink.buf().push(v as u8);
        Ok(())
    }

    fn write_int(&mut self, v: i32, _tag: &str) -> Result<()> {
        self.int(v);
        Ok(())
    }

    fn write_long(&mut self, v: i64, _tag: &str) -> Result<()> {
        self.sink.buf().extend_from_slice(&v.to_be_bytes());
        Ok(())
    }

    fn write_float(&mut self, v: f32, _tag: &str) -> Result<()> {
        // Java's DataOutput.writeFloat is floatToIntBits: every NaN is the canonical one.
        self.sink
            .buf()
            .extend_from_slice(&float_to_int_bits(v).to_be_bytes());
        Ok(())
    }

    fn write_double(&mut self, v: f64, _tag: &str) -> Result<()> {
        self.sink
            .buf()
            .extend_from_slice(&double_to_long_bits(v).to_be_bytes());
        Ok(())
    }

    fn write_string(&mut self, v: &str, _tag: &str) -> Result<()> {
        self.len(text::encoded_len(v), "a string length")?;
        text::encode(v, self.sink.buf());
        Ok(())
    }

    fn write_buffer(&mut self, v: &[u8], _tag: &str) -> Result<()> {
        self.len(v.len(), "a buffer length")?;
        self.sink.write_bytes(v)
    }

    fn write_null(&mut self, _ty: NullType, _tag: &str) -> Result<()> {
        self.int(-1);
        Ok(())
    }

    fn start_record(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }

    fn end_record(&mut self, tag: &str) -> Result<()> {
        if tag.is_empty() {
            self.sink.end_of_record()?;
        }
        Ok(())
    }

    fn start_vector(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.len(len, "a vector count")
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }

    fn start_map(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.len(len, "a map count")
    }

    fn end_map(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_is_canonical_and_beyond_bmp_is_six_bytes() {
        let mut out = JuteOutput::new(Vec::new());
        out.write_float(f32::from_bits(0x7f80_0001), "f").unwrap();
        out.write_string("\u{10000}", "s").unwrap();
        out.write_null(NullType::Vector, "v").unwrap();
        assert_eq!(
            out.into_inner().unwrap(),
            [
                0x7f, 0xc0, 0, 0, 0, 0, 0, 6, 0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80, 0xff, 0xff, 0xff,
                0xff
            ]
        );
    }
}
