//! The common Writables Hadoop jobs used as keys, by class name: their bytes to values
//! and back.
//!
//! ```
//! use hadoop_record::framing::seqfile::writable::{self, Writable};
//! let key = Writable::decode(writable::LONG_WRITABLE, &[0, 0, 0, 0, 0, 0, 1, 0]).unwrap()?;
//! assert_eq!(key, Writable::Long(256));
//! assert_eq!(key.to_string(), "256");
//! assert!(Writable::decode("links.Link", b"").is_none()); // not a Writable of this list
//! # Ok::<(), hadoop_record::Error>(())
//! ```

use std::fmt;

use crate::archive::binary::{vint, RawInput};
use crate::error::{Error, ErrorKind, Result};

/// `org.apache.hadoop.io.NullWritable`: no bytes.
pub const NULL_WRITABLE: &str = "org.apache.hadoop.io.NullWritable";
/// `org.apache.hadoop.io.LongWritable`: a big-endian `long`.
pub const LONG_WRITABLE: &str = "org.apache.hadoop.io.LongWritable";
/// `org.apache.hadoop.io.IntWritable`: a big-endian `int`.
pub const INT_WRITABLE: &str = "org.apache.hadoop.io.IntWritable";
/// `org.apache.hadoop.io.Text`: a vint length and UTF-8 bytes.
pub const TEXT: &str = "org.apache.hadoop.io.Text";
/// `org.apache.hadoop.io.BytesWritable`: a big-endian `int` length and the bytes.
pub const BYTES_WRITABLE: &str = "org.apache.hadoop.io.BytesWritable";

/// A value of one of the common Writables.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Writable {
    /// `NullWritable`.
    Null,
    /// `LongWritable`.
    Long(i64),
    /// `IntWritable`.
    Int(i32),
    /// `Text` (its bytes, which Hadoop does not check are UTF-8).
    Text(Vec<u8>),
    /// `BytesWritable`.
    Bytes(Vec<u8>),
}

impl Writable {
    /// Decodes `bytes` as the Writable `class`: `None` when the class is not one of these,
    /// an error when the bytes are not exactly one such value.
    pub fn decode(class: &str, bytes: &[u8]) -> Option<Result<Writable>> {
        let mut input = RawInput::new(bytes);
        let value = match class {
            NULL_WRITABLE => Ok(Writable::Null),
            LONG_WRITABLE => input
                .take_array()
                .map(|b| Writable::Long(i64::from_be_bytes(b))),
            INT_WRITABLE => input
                .take_array()
                .map(|b| Writable::Int(i32::from_be_bytes(b))),
            TEXT => input
                .read_len()
                .and_then(|n| input.take(n))
                .map(|b| Writable::Text(b.to_vec())),
            BYTES_WRITABLE => input.take_array().and_then(|n| {
                let n = i32::from_be_bytes(n);
                let n = usize::try_from(n)
                    .map_err(|_| Error::syntax(format!("negative BytesWritable length {n}")))?;
                input.take(n).map(|b| Writable::Bytes(b.to_vec()))
            }),
            _ => return None,
        };
        Some(value.and_then(|v| {
            if input.remaining().is_empty() {
                Ok(v)
            } else {
                Err(Error::new(
                    ErrorKind::Syntax,
                    format!("{} byte(s) after the {class}", input.remaining().len()),
                ))
            }
        }))
    }

    /// The Java class.
    pub fn class_name(&self) -> &'static str {
        match self {
            Writable::Null => NULL_WRITABLE,
            Writable::Long(_) => LONG_WRITABLE,
            Writable::Int(_) => INT_WRITABLE,
            Writable::Text(_) => TEXT,
            Writable::Bytes(_) => BYTES_WRITABLE,
        }
    }

    /// Appends the value's bytes (its `write(DataOutput)`) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Writable::Null => {}
            Writable::Long(v) => out.extend_from_slice(&v.to_be_bytes()),
            Writable::Int(v) => out.extend_from_slice(&v.to_be_bytes()),
            Writable::Text(b) => {
                let mut buf = [0u8; vint::MAX_LEN];
                let n = vint::encode(b.len() as i64, &mut buf);
                out.extend_from_slice(&buf[..n]);
                out.extend_from_slice(b);
            }
            Writable::Bytes(b) => {
                out.extend_from_slice(&(b.len() as i32).to_be_bytes());
                out.extend_from_slice(b);
            }
        }
    }
}

impl fmt::Display for Writable {
    /// As `toString()` shows it: the number, the text, or the bytes in hex (`BytesWritable`
    /// prints them separated by spaces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Writable::Null => f.write_str("(null)"),
            Writable::Long(v) => write!(f, "{v}"),
            Writable::Int(v) => write!(f, "{v}"),
            Writable::Text(b) => f.write_str(&String::from_utf8_lossy(b)),
            Writable::Bytes(b) => {
                for (i, byte) in b.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{byte:02x}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_writable_round_trips_and_rejects_extra_bytes() {
        for w in [
            Writable::Null,
            Writable::Long(-5),
            Writable::Int(1 << 20),
            Writable::Text("héllo".into()),
            Writable::Bytes(vec![1, 2, 3]),
        ] {
            let mut bytes = Vec::new();
            w.encode(&mut bytes);
            assert_eq!(
                Writable::decode(w.class_name(), &bytes).unwrap().unwrap(),
                w
            );
            bytes.push(0);
            assert!(Writable::decode(w.class_name(), &bytes).unwrap().is_err());
        }
        assert!(Writable::decode(BYTES_WRITABLE, &[0xff, 0xff, 0xff, 0xff])
            .unwrap()
            .is_err());
        assert!(Writable::decode(TEXT, &[5, b'a']).unwrap().is_err());
    }
}
