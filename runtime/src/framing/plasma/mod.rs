//! The Plasma MapReduce file formats (`Mapred_io`): text, fixed-size and var-size.
//!
//! - [`text`]: records end with LF (`line_structured_format`);
//! - [`fixed`]: records of exactly `n` bytes (`fixed_size_format`);
//! - [`var`]: length-prefixed records in fixed-size chunks with a 32-byte header
//!   (`var_size_format`; the header bytes are this crate's own, see
//!   `docs/plasma-var-format.md`).
//!
//! Every format reads a whole file or a split `[start, end)` (the records that start in
//! the range, as Plasma and Hadoop assign work), so that the splits of a file together
//! deliver each record exactly once.

pub mod fixed;
mod info;
pub mod text;
pub mod var;

#[cfg(feature = "tokio")]
mod codec;

use std::io::{Read, Write};
use std::str::FromStr;

pub use fixed::{FixedReader, FixedWriter};
pub use info::{fixed_info, text_info, var_info, FixedInfo, TextInfo, VarInfo};
pub use text::{TextOptions, TextReader, TextWriter};
pub use var::{Compression, VarReadOptions, VarReader, VarWriteOptions, VarWriter};

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use codec::{FixedCodec, TextCodec};

use crate::error::{Error, Position, Result};
use crate::framing::FrameWrite;

/// Buffer size of readers and writers.
pub(crate) const READ_BUFFER: usize = 64 << 10;

/// An I/O error while reading at `offset`.
pub(crate) fn io_buffer(e: std::io::Error, offset: u64) -> Error {
    Error::from(e).at(Position::Byte(offset))
}

/// One of the three formats, as named on the command line: `plasma-text`,
/// `plasma-fixed:N` or `plasma-var`.
///
/// ```
/// use hadoop_record::framing::plasma::PlasmaFormat;
/// assert_eq!("plasma-fixed:16".parse::<PlasmaFormat>().unwrap(), PlasmaFormat::Fixed(16));
/// assert!("plasma-fixed:0".parse::<PlasmaFormat>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlasmaFormat {
    /// LF-terminated records.
    Text,
    /// Records of exactly this many bytes.
    Fixed(usize),
    /// Length-prefixed records in chunks.
    Var,
}

impl FromStr for PlasmaFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::unknown_name(
                "Plasma format",
                s,
                "plasma-text, plasma-fixed:N or plasma-var",
            )
        };
        match s {
            "plasma-text" => Ok(PlasmaFormat::Text),
            "plasma-var" => Ok(PlasmaFormat::Var),
            _ => {
                let digits = s.strip_prefix("plasma-fixed:").ok_or_else(bad)?;
                if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
                    return Err(bad());
                }
                match digits.parse::<usize>() {
                    Ok(n) => Ok(PlasmaFormat::Fixed(n)),
                    Err(_) => Err(bad()),
                }
            }
        }
    }
}

impl std::fmt::Display for PlasmaFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlasmaFormat::Text => f.write_str("plasma-text"),
            PlasmaFormat::Fixed(n) => write!(f, "plasma-fixed:{n}"),
            PlasmaFormat::Var => f.write_str("plasma-var"),
        }
    }
}

/// A payload iterator over a whole file in any of the three formats.
pub type PayloadReader<'a> = Box<dyn Iterator<Item = Result<Vec<u8>>> + 'a>;

impl PlasmaFormat {
    /// A reader of a whole file with default options (strict, no recovery).
    pub fn reader<'a, R: Read + 'a>(self, input: R) -> Result<PayloadReader<'a>> {
        Ok(match self {
            PlasmaFormat::Text => Box::new(TextReader::new(input)),
            PlasmaFormat::Fixed(n) => Box::new(FixedReader::new(input, n)?),
            PlasmaFormat::Var => Box::new(VarReader::new(input)),
        })
    }

    /// A writer; `var` applies to the var-size format only.
    pub fn writer<'a, W: Write + 'a>(
        self,
        output: W,
        var: VarWriteOptions,
    ) -> Result<Box<dyn FrameWrite + 'a>> {
        Ok(match self {
            PlasmaFormat::Text => Box::new(TextWriter::new(output)),
            PlasmaFormat::Fixed(n) => Box::new(FixedWriter::new(output, n)?),
            PlasmaFormat::Var => Box::new(VarWriter::new(output, var)?),
        })
    }
}
