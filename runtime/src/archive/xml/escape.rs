//! The text inside `<string>`: Java's `Utils.toXMLString` / `fromXMLString` escaping and the
//! hex form of buffers.
//!
//! Escaping works per UTF-16 code unit, as Java's does: `<` → `&lt;`, `&` → `&amp;`,
//! `%` → `%0025`, and code units below 0x20, surrogates and U+FFFE/U+FFFF become `%` and
//! four upper-case hex digits. A supplementary character is two surrogates in UTF-16, so it
//! becomes two escapes (U+1F600 → `%D83D%DE00`). Everything else (`>`, quotes, DEL, C1
//! controls, `]]>`) is written raw as UTF-8.

use crate::archive::hex::{decode_pairs, digit};
use crate::error::{excerpt, ErrorKind};

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Bytes that may start something to escape: control characters, `%`, `&`, `<`, the lead
/// byte of U+FFFE/U+FFFF (`ef`, checked further) and lead bytes of 4-byte sequences.
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'%' as usize] = true;
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[0xef] = true;
    let mut b = 0xf0;
    while b < 0x100 {
        t[b] = true;
        b += 1;
    }
    t
};

/// Appends `%` and four upper-case hex digits of the UTF-16 code unit `unit`.
#[inline]
fn push_unit(out: &mut Vec<u8>, unit: u32) {
    out.extend_from_slice(&[
        b'%',
        HEX_UPPER[(unit >> 12) as usize & 0xf],
        HEX_UPPER[(unit >> 8) as usize & 0xf],
        HEX_UPPER[(unit >> 4) as usize & 0xf],
        HEX_UPPER[unit as usize & 0xf],
    ]);
}

/// Appends `s` escaped as Java's `XmlRecordOutput.writeString` does.
///
/// Runs of bytes that need no escape (almost all text) are copied in one piece.
pub fn push_escaped(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let mut plain = 0; // start of the pending run of raw bytes
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !SPECIAL[b as usize] {
            i += 1;
            continue;
        }
        // A well-formed `str`: a lead byte is followed by its continuation bytes.
        let width = match b {
            0xef if bytes[i + 1] == 0xbf && bytes[i + 2] >= 0xbe => 3,
            0xef => {
                i += 1;
                continue;
            }
            0xf0..=0xff => 4,
            _ => 1,
        };
        out.extend_from_slice(&bytes[plain..i]);
        match width {
            1 => match b {
                b'<' => out.extend_from_slice(b"&lt;"),
                b'&' => out.extend_from_slice(b"&amp;"),
                _ => push_unit(out, u32::from(b)),
            },
            3 => push_unit(out, 0xfffe + u32::from(bytes[i + 2] - 0xbe)),
            _ => {
                let c = u32::from(b & 0x07) << 18
                    | u32::from(bytes[i + 1] & 0x3f) << 12
                    | u32::from(bytes[i + 2] & 0x3f) << 6
                    | u32::from(bytes[i + 3] & 0x3f);
                let c = c - 0x1_0000;
                push_unit(out, 0xd800 | (c >> 10));
                push_unit(out, 0xdc00 | (c & 0x3ff));
            }
        }
        i += width;
        plain = i;
    }
    out.extend_from_slice(&bytes[plain..]);
}

/// What is wrong with the text of a `<string>` or a buffer, and at which byte of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// Byte offset within the (entity-resolved) text.
    pub offset: usize,
    /// [`ErrorKind::Encoding`] for an unpaired surrogate, [`ErrorKind::Syntax`] otherwise.
    pub kind: ErrorKind,
    /// What is wrong.
    pub message: String,
}

fn text_error(offset: usize, message: impl Into<String>) -> TextError {
    TextError {
        offset,
        kind: ErrorKind::Syntax,
        message: message.into(),
    }
}

fn surrogate_error(offset: usize, message: String) -> TextError {
    TextError {
        kind: ErrorKind::Encoding,
        ..text_error(offset, message)
    }
}

/// Reads the four hex digits after the `%` at `text[at]` as a UTF-16 code unit.
fn unit_at(text: &str, at: usize) -> Result<u32, TextError> {
    let digits = text
        .as_bytes()
        .get(at + 1..at + 5)
        .ok_or_else(|| text_error(at, "`%` escape needs four hex digits but the string ends"))?;
    digits.iter().try_fold(0u32, |acc, &d| {
        digit(d).map(|v| acc << 4 | u32::from(v)).ok_or_else(|| {
            let shown: String = text[at..].chars().take(5).collect();
            text_error(
                at,
                format!("bad escape {}: `%` takes four hex digits", excerpt(&shown)),
            )
        })
    })
}

/// Decodes the `%XXXX` escapes of entity-resolved `<string>` text into `out` (Java's
/// `Utils.fromXMLString`): each `%` takes exactly four hex digits of either case, a UTF-16
/// code unit; a high surrogate must be followed at once by an escaped low surrogate, and an
/// unpaired surrogate is an error (a Rust string cannot hold one).
pub fn unescape_into(text: &str, out: &mut String) -> Result<(), TextError> {
    let mut rest = 0;
    while let Some(found) = memchr::memchr(b'%', &text.as_bytes()[rest..]) {
        let at = rest + found;
        out.push_str(&text[rest..at]);
        let unit = unit_at(text, at)?;
        let (c, used) = match unit {
            0xd800..=0xdbff => {
                let low = match text.as_bytes().get(at + 5) {
                    Some(b'%') => unit_at(text, at + 5)?,
                    _ => 0,
                };
                if !(0xdc00..=0xdfff).contains(&low) {
                    return Err(surrogate_error(
                        at,
                        format!("unpaired surrogate %{unit:04X}: not followed by a low surrogate escape"),
                    ));
                }
                (0x1_0000 + ((unit - 0xd800) << 10) + (low - 0xdc00), 10)
            }
            0xdc00..=0xdfff => {
                return Err(surrogate_error(
                    at,
                    format!("unpaired surrogate %{unit:04X}: a low surrogate without a high one"),
                ))
            }
            _ => (unit, 5),
        };
        // Not a surrogate, so always a valid `char`.
        out.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
        rest = at + used;
    }
    out.push_str(&text[rest..]);
    Ok(())
}

/// Decodes hex buffer text (digits of either case, two per byte) into `out`.
pub fn unhex_into(text: &[u8], out: &mut Vec<u8>) -> Result<(), TextError> {
    if !text.len().is_multiple_of(2) {
        return Err(text_error(
            text.len() - 1,
            "buffer has an odd number of hex digits",
        ));
    }
    decode_pairs(text, out).map_err(|at| {
        text_error(
            at,
            format!(
                "buffer holds a non-hex character {:?}",
                char::from(text[at])
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str) -> String {
        let mut out = Vec::new();
        push_escaped(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    fn unescaped(s: &str) -> Result<String, TextError> {
        let mut out = String::new();
        unescape_into(s, &mut out).map(|()| out)
    }

    #[test]
    fn escapes_as_java_does() {
        assert_eq!(escaped("a<b&c%d>e"), "a&lt;b&amp;c%0025d>e");
        assert_eq!(escaped("\t\n\0\u{1f}\u{7f}"), "%0009%000A%0000%001F\u{7f}");
        assert_eq!(escaped("\u{1F600}x"), "%D83D%DE00x");
        assert_eq!(escaped("\u{10FFFF}"), "%DBFF%DFFF");
        assert_eq!(
            escaped("\u{FFFE}\u{FFFF}\u{FFFD}\u{EFFF}"),
            "%FFFE%FFFF\u{FFFD}\u{EFFF}"
        );
        assert_eq!(escaped("]]>\"'é～"), "]]>\"'é～");
    }

    #[test]
    fn unescapes_four_digit_units_of_either_case() {
        assert_eq!(unescaped("%0025%0041%000a").unwrap(), "%A\n");
        assert_eq!(unescaped("x%d83d%DE00y").unwrap(), "x\u{1F600}y");
        assert_eq!(unescaped("%FFFE").unwrap(), "\u{FFFE}");
    }

    #[test]
    fn bad_escapes_and_lone_surrogates_are_errors() {
        assert_eq!(unescaped("ab%00").unwrap_err().offset, 2);
        assert!(unescaped("%00G1").unwrap_err().message.contains("`%00G1`"));
        assert!(unescaped("%D83D").is_err());
        assert!(unescaped("%D83Dx").is_err());
        assert!(unescaped("%D83D%0041").is_err());
        assert!(unescaped("%DE00").is_err());
        assert!(unescaped("%é").is_err());
    }

    /// (Writing hex is `hex::push_hex`'s, tested there.)
    #[test]
    fn hex_reads_either_case_and_rejects_odd_or_bad_digits() {
        let mut back = Vec::new();
        unhex_into(b"00ABff10", &mut back).unwrap();
        assert_eq!(back, [0x00, 0xab, 0xff, 0x10]);
        assert_eq!(unhex_into(b"abc", &mut Vec::new()).unwrap_err().offset, 2);
        assert_eq!(unhex_into(b"a+", &mut Vec::new()).unwrap_err().offset, 1);
    }
}
