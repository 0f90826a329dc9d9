//! Quoting input in messages: a short excerpt, whatever the input's size.
//!
//! Every message that quotes input — a token a decoder refused, a name in a DDL file —
//! quotes it through [`excerpt`], so that no message grows with the input that caused it:
//! a damaged multi-megabyte line yields an error of a line or two, not a flood.

use std::fmt::{self, Write};

/// Most characters of input a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `input` as a message quotes it: `` `text` ``, or when longer than [`EXCERPT_CHARS`]
/// characters, its start cut on a character boundary, an ellipsis and the full length:
/// `` `text…` (100000 bytes) ``.
///
/// Control characters are escaped (`\n`, `\u{1b}`) and bytes that are not UTF-8 shown as
/// `\xff`, so a message never carries raw terminal control sequences. Each escape counts as
/// one character of the excerpt.
///
/// ```
/// use hadoop_record::error::excerpt;
/// assert_eq!(excerpt("12x").to_string(), "`12x`");
/// let long = "é".repeat(50_000);
/// assert_eq!(
///     excerpt(&long).to_string(),
///     format!("`{}…` (100000 bytes)", "é".repeat(40))
/// );
/// assert_eq!(excerpt(&b"a\n\xff"[..]).to_string(), r"`a\n\xff`");
/// assert_eq!(excerpt("name").unquoted().to_string(), "name");
/// ```
pub fn excerpt<T: AsRef<[u8]> + ?Sized>(input: &T) -> Excerpt<'_> {
    Excerpt {
        input: input.as_ref(),
        quoted: true,
        continued: false,
        chars: EXCERPT_CHARS,
    }
}

/// The [`fmt::Display`] of [`excerpt`]; it formats without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Excerpt<'a> {
    input: &'a [u8],
    quoted: bool,
    continued: bool,
    chars: usize,
}

impl Excerpt<'_> {
    /// The same excerpt without the backticks, for text that is already set apart (a
    /// segment of a field path, say).
    pub fn unquoted(self) -> Self {
        Excerpt {
            quoted: false,
            ..self
        }
    }

    /// The same excerpt, cut after `chars` characters instead of [`EXCERPT_CHARS`]: for
    /// text a person is expected to recognise whole, such as a file path in a message.
    ///
    /// ```
    /// use hadoop_record::error::excerpt;
    /// assert_eq!(excerpt("abcdef").at_most(3).to_string(), "`abc…` (6 bytes)");
    /// ```
    pub fn at_most(self, chars: usize) -> Self {
        Excerpt { chars, ..self }
    }

    /// The same excerpt of bytes that are only the start of the input (a reader's window
    /// into a longer token): it ends with an ellipsis, and says the input is longer still.
    ///
    /// ```
    /// use hadoop_record::error::excerpt;
    /// assert_eq!(excerpt("&abc").continued().to_string(), "`&abc…` (over 4 bytes)");
    /// ```
    pub fn continued(self) -> Self {
        Excerpt {
            continued: true,
            ..self
        }
    }
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.quoted {
            f.write_char('`')?;
        }
        let mut left = self.chars;
        let mut cut = false;
        'chunks: for chunk in self.input.utf8_chunks() {
            for c in chunk.valid().chars() {
                if left == 0 {
                    cut = true;
                    break 'chunks;
                }
                left -= 1;
                if c.is_control() {
                    write!(f, "{}", c.escape_default())?;
                } else {
                    f.write_char(c)?;
                }
            }
            for b in chunk.invalid() {
                if left == 0 {
                    cut = true;
                    break 'chunks;
                }
                left -= 1;
                write!(f, "\\x{b:02x}")?;
            }
        }
        if cut || self.continued {
            f.write_char('…')?;
        }
        if self.quoted {
            f.write_char('`')?;
        }
        let len = self.input.len();
        if self.continued {
            write!(f, " (over {len} bytes)")?;
        } else if cut {
            write!(f, " ({len} bytes)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_quoted_whole() {
        assert_eq!(excerpt("").to_string(), "``");
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact).to_string(), format!("`{exact}`"));
    }

    #[test]
    fn long_input_is_cut_on_a_character_boundary() {
        let long = format!("{}{}", "a".repeat(39), "😀".repeat(1000));
        assert_eq!(
            excerpt(&long).to_string(),
            format!("`{}😀…` (4039 bytes)", "a".repeat(39))
        );
        let bytes = vec![0xffu8; 1 << 20];
        let shown = excerpt(&bytes[..]).to_string();
        assert_eq!(shown, format!("`{}…` (1048576 bytes)", r"\xff".repeat(40)));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(excerpt("\u{1b}[31m\r").to_string(), r"`\u{1b}[31m\r`");
        assert_eq!(excerpt("tab\there").unquoted().to_string(), r"tab\there");
    }
}
