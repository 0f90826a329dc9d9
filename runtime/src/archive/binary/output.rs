//! Hadoop's `BinaryRecordOutput`: Java's exact bytes.

use std::io::Write;

use super::vint;
use crate::archive::sink::sink_methods;
use crate::archive::{RecordOutput, Sink};
use crate::error::{Error, ErrorKind, Result};
use crate::java_bits::{double_to_long_bits, float_to_int_bits};

/// Writes records in Hadoop's binary encoding (spec §3): no header, no tags, no delimiters;
/// zero-compressed integers, big-endian floats with NaN canonicalised, length-prefixed UTF-8
/// strings and buffers, count-prefixed vectors and maps.
///
/// Output is buffered; [`BinaryOutput::flush`] or [`BinaryOutput::into_inner`] hands it to
/// the writer. [`crate::RecordWriter`] wraps this for whole records.
///
/// ```
/// use hadoop_record::archive::binary::BinaryOutput;
/// use hadoop_record::RecordOutput;
/// let mut out = BinaryOutput::new(Vec::new());
/// out.write_int(1024, "x").unwrap();
/// out.write_string("héllo", "s").unwrap();
/// assert_eq!(out.into_inner().unwrap(), b"\x8e\x04\x00\x06h\xc3\xa9llo");
/// ```
#[derive(Debug)]
pub struct BinaryOutput<W: Write> {
    sink: Sink<W>,
}

impl<W: Write> BinaryOutput<W> {
    /// An output writing to `inner`.
    pub fn new(inner: W) -> Self {
        BinaryOutput {
            sink: Sink::new(inner),
        }
    }

    sink_methods!();

    #[inline(always)]
    fn vlong(&mut self, v: i64) {
        let buf = self.sink.buf();
        if (-112..=127).contains(&v) {
            buf.push(v as u8);
        } else {
            let (bytes, n) = encode9(v);
            // A fixed-size copy and a shorter length: cheaper than a variable-length copy.
            let len = buf.len();
            buf.extend_from_slice(&bytes);
            buf.truncate(len + n);
        }
    }

    /// A length or count: Java's are `int`s.
    #[inline(always)]
    fn len(&mut self, n: usize, what: &'static str) -> Result<()> {
        match i32::try_from(n) {
            Ok(n) => {
                self.vlong(n as i64);
                Ok(())
            }
            Err(_) => Err(too_long(what, n)),
        }
    }
}

/// Java's vlong of a value outside −112..=127, as nine bytes of which the first `n` count
/// (the same bytes as [`vint::encode`], without a variable-length copy).
#[inline(always)]
fn encode9(v: i64) -> ([u8; vint::MAX_LEN], usize) {
    let (u, base) = if v < 0 {
        (!v as u64, -120i32)
    } else {
        (v as u64, -112i32)
    };
    // Significant bytes of u, 1..=8 (u is non-zero here).
    let n = 8 - (u | 1).leading_zeros() / 8;
    let mut out = [0u8; vint::MAX_LEN];
    out[0] = (base - n as i32) as u8;
    out[1..].copy_from_slice(&(u << (64 - 8 * n)).to_be_bytes());
    (out, n as usize + 1)
}

#[cold]
fn too_long(what: &'static str, n: usize) -> Error {
    Error::new(
        ErrorKind::Limit,
        format!("{what} of {n} is more than Hadoop's limit of 2^31 - 1"),
    )
}

/// Position of U+FFFE or U+FFFF in UTF-8 text: Hadoop's binary writer refuses both
/// (`Illegal Unicode Codepoint fffe in string`).
#[inline]
pub(crate) fn find_nonchar(s: &[u8]) -> Option<(usize, u32)> {
    // Both start with 0xEF: ASCII text (checked a word at a time) has neither.
    if s.is_ascii() {
        return None;
    }
    let mut from = 0;
    while let Some(i) = memchr::memchr(0xef, &s[from..]) {
        let at = from + i;
        if let [0xef, 0xbf, last @ (0xbe | 0xbf), ..] = s[at..] {
            return Some((at, 0xff00 | last as u32 | 0xc0));
        }
        from = at + 1;
    }
    None
}

impl<W: Write> RecordOutput for BinaryOutput<W> {
    #[inline]
    fn write_byte(&mut self, v: i8, _tag: &str) -> Result<()> {
        self.sink.buf().push(v as u8);
        Ok(())
    }

    #[inline]
    fn write_bool(&mut self, v: bool, _tag: &str) -> Result<()> {
        self.sink.buf().push(v as u8);
        Ok(())
    }

    #[inline]
    fn write_int(&mut self, v: i32, _tag: &str) -> Result<()> {
        self.vlong(v as i64);
        Ok(())
    }

    #[inline]
    fn write_long(&mut self, v: i64, _tag: &str) -> Result<()> {
        self.vlong(v);
        Ok(())
    }

    #[inline]
    fn write_float(&mut self, v: f32, _tag: &str) -> Result<()> {
        // Java's floatToIntBits: every NaN is written as the canonical one.
        self.sink
            .buf()
            .extend_from_slice(&float_to_int_bits(v).to_be_bytes());
        Ok(())
    }

    #[inline]
    fn write_double(&mut self, v: f64, _tag: &str) -> Result<()> {
        self.sink
            .buf()
            .extend_from_slice(&double_to_long_bits(v).to_be_bytes());
        Ok(())
    }

    #[inline]
    fn write_string(&mut self, v: &str, _tag: &str) -> Result<()> {
        let bytes = v.as_bytes();
        if let Some((_, c)) = find_nonchar(bytes) {
            return Err(Error::new(
                ErrorKind::Encoding,
                format!(
                    "Illegal Unicode Codepoint {c:x} in string (Hadoop refuses U+FFFE and U+FFFF)"
                ),
            ));
        }
        self.len(bytes.len(), "a string length")?;
        self.sink.write_bytes(bytes)
    }

    #[inline]
    fn write_buffer(&mut self, v: &[u8], _tag: &str) -> Result<()> {
        self.len(v.len(), "a buffer length")?;
        self.sink.write_bytes(v)
    }

    #[inline]
    fn start_record(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn end_record(&mut self, tag: &str) -> Result<()> {
        if tag.is_empty() {
            self.sink.end_of_record()?;
        }
        Ok(())
    }

    #[inline]
    fn start_vector(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.len(len, "a vector length")
    }

    #[inline]
    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn start_map(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.len(len, "a map size")
    }

    #[inline]
    fn end_map(&mut self, _tag: &str) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allprims_mixed_matches_java() {
        // spec §3: AllPrims{b=-5,z=true,i=-300,l=5000000000,f=0.1f,d=-0.1,s="a,b}%\n<&>",buf="v{1,2}"}
        let mut out = BinaryOutput::new(Vec::new());
        out.start_record("").unwrap();
        out.write_byte(-5, "b").unwrap();
        out.write_bool(true, "z").unwrap();
        out.write_int(-300, "i").unwrap();
        out.write_long(5_000_000_000, "l").unwrap();
        out.write_float(0.1, "f").unwrap();
        out.write_double(-0.1, "d").unwrap();
        out.write_string("a,b}%\n<&>", "s").unwrap();
        out.write_buffer(b"v{1,2}", "buf").unwrap();
        out.end_record("").unwrap();
        let want = "fb 01 86 01 2b 8b 01 2a 05 f2 00 3d cc cc cd bf b9 99 99 99 99 99 9a \
                    09 61 2c 62 7d 25 0a 3c 26 3e 06 76 7b 31 2c 32 7d";
        let want: Vec<u8> = want
            .split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).unwrap())
            .collect();
        assert_eq!(out.into_inner().unwrap(), want);
    }

    #[test]
    fn encode9_agrees_with_vint_encode() {
        for shift in 0..64 {
            for delta in [-1i64, 0, 1] {
                for v in [
                    (1i64 << shift).wrapping_add(delta),
                    !(1i64 << shift).wrapping_add(delta),
                ] {
                    if (-112..=127).contains(&v) {
                        continue;
                    }
                    let mut want = [0u8; vint::MAX_LEN];
                    let n = vint::encode(v, &mut want);
                    let (got, m) = encode9(v);
                    assert_eq!(&got[..m], &want[..n], "{v}");
                }
            }
        }
    }

    #[test]
    fn nan_is_canonical_and_negative_zero_keeps_its_sign() {
        let mut out = BinaryOutput::new(Vec::new());
        out.write_float(f32::from_bits(0x7f80_0001), "f").unwrap();
        out.write_double(f64::from_bits(0xfff0_0000_dead_beef), "d")
            .unwrap();
        out.write_float(-0.0, "f").unwrap();
        assert_eq!(
            out.into_inner().unwrap(),
            [0x7f, 0xc0, 0, 0, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0]
        );
    }

    #[test]
    fn nonchars_are_refused_like_java() {
        for s in ["a\u{FFFE}", "\u{FFFF}b", "x\u{FFFD}\u{FFFF}"] {
            let mut out = BinaryOutput::new(Vec::new());
            let e = out.write_string(s, "s").unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Encoding, "{s:?}");
        }
        assert_eq!(find_nonchar("\u{FFFE}".as_bytes()), Some((0, 0xfffe)));
        assert_eq!(find_nonchar("ab\u{FFFF}".as_bytes()), Some((2, 0xffff)));
        assert_eq!(find_nonchar("\u{EFFF}\u{FFFD}\u{FEFF}".as_bytes()), None);
    }
}
