//! Buffers as hex text, the way the CSV and XML archives carry them: written as two lowercase
//! digits per byte (Java's `Utils.toCSVBuffer` and `toXMLBuffer`), read in either case.

/// Lowercase hex digits by value.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Appends `bytes` as lowercase hex, two digits per byte.
#[inline]
pub(crate) fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(2 * bytes.len());
    for &b in bytes {
        out.extend_from_slice(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]]);
    }
}

/// The value of a hex digit of either case.
#[inline(always)]
pub(crate) fn digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Appends the bytes spelt by `hex`, pairs of hex digits of either case (an odd last digit is
/// ignored: callers check the length first). On a character that is not a hex digit, `Err`
/// gives its index in `hex`.
#[inline]
pub(crate) fn decode_pairs(hex: &[u8], out: &mut Vec<u8>) -> Result<(), usize> {
    out.reserve(hex.len() / 2);
    for (i, pair) in hex.chunks_exact(2).enumerate() {
        match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => out.push(hi << 4 | lo),
            (hi, _) => return Err(2 * i + usize::from(hi.is_some())),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_digits() {
        let mut hex = Vec::new();
        push_hex(&mut hex, &[0x00, 0xab, 0xff, 0x10]);
        assert_eq!(hex, b"00abff10");
        let mut back = Vec::new();
        assert_eq!(decode_pairs(b"00ABff10", &mut back), Ok(()));
        assert_eq!(back, [0x00, 0xab, 0xff, 0x10]);
        assert_eq!(decode_pairs(b"0g", &mut Vec::new()), Err(1));
        assert_eq!(decode_pairs(b"00g0", &mut Vec::new()), Err(2));
        assert_eq!((0..=255).filter(|&b| digit(b).is_some()).count(), 22);
    }
}
