//! `ustring` as `String`.

use std::cmp::Ordering;

use super::Field;
use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::compare::utf16_cmp;
use crate::error::{Error, ErrorKind, Position, Result};
use crate::schema::{FieldType, SchemaBuilder};

/// Reads a binary `ustring` from a raw cursor, checked as Hadoop's reader checks it:
/// valid UTF-8 (no surrogates, nothing past U+10FFFF) and neither U+FFFE nor U+FFFF.
#[inline]
pub(crate) fn raw_str<'a>(input: &mut RawInput<'a>) -> Result<&'a str> {
    let bytes = input.read_bytes()?;
    let start = input.offset() - bytes.len();
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8, and holds neither U+FFFE nor U+FFFF. (The word-at-a-
        // time ASCII check is a fraction of full validation, which dominated profiles of raw
        // comparison of records with short strings.)
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    check_utf8(bytes, start as u64)
}

/// Validates UTF-8 bytes of a binary string that starts at byte `offset` of the input.
pub fn check_utf8(bytes: &[u8], offset: u64) -> Result<&str> {
    let s = std::str::from_utf8(bytes).map_err(|e| {
        Error::new(ErrorKind::Encoding, "invalid UTF-8 in string")
            .at(Position::Byte(offset + e.valid_up_to() as u64))
    })?;
    if let Some(i) = find_nonchar(bytes) {
        return Err(Error::new(
            ErrorKind::Encoding,
            "illegal code point U+FFFE or U+FFFF in string",
        )
        .at(Position::Byte(offset + i as u64)));
    }
    Ok(s)
}

/// Position of U+FFFE or U+FFFF (`ef bf be` / `ef bf bf`), which Hadoop refuses to read and
/// write in binary strings.
#[inline]
pub fn find_nonchar(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(3)
        .position(|w| w[0] == 0xef && w[1] == 0xbf && (w[2] == 0xbe || w[2] == 0xbf))
}

bytes_field!(
    String,
    write_string,
    read_string,
    std::convert::identity,
    String,
    utf16_cmp(&str),
    raw_str,
    {
        #[inline]
        fn __empty() -> Option<Self> {
            Some(String::new())
        }
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonchars_are_found() {
        assert_eq!(find_nonchar("ab\u{FFFE}".as_bytes()), Some(2));
        assert_eq!(find_nonchar("\u{FFFD}\u{FFFF}".as_bytes()), Some(3));
        assert_eq!(find_nonchar("\u{FFFD}\u{EFFF}".as_bytes()), None);
    }

    #[test]
    fn raw_strings_are_checked() {
        let mut ok = RawInput::new(&[0x02, b'h', b'i']);
        assert_eq!(raw_str(&mut ok).unwrap(), "hi");
        // A surrogate code point, as Java refuses it.
        let e = raw_str(&mut RawInput::new(&[0x03, 0xed, 0xa0, 0x80])).unwrap_err();
        assert_eq!(
            (e.kind(), e.position()),
            (ErrorKind::Encoding, Some(Position::Byte(1)))
        );
        let e = raw_str(&mut RawInput::new(&[0x03, 0xef, 0xbf, 0xbf])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Encoding);
    }
}
