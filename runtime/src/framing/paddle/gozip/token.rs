//! What the matcher hands to the block writer: literals and (length, distance) matches,
//! packed into a `u32` each, and the deflate symbols (RFC 1951 §3.2.5) they map to.

/// A literal byte or a back-reference.
///
/// Bit 31 set marks a match: bits 16..24 hold `length - 3`, bits 0..15 hold
/// `distance - 1`. Otherwise the value is the literal byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Token(u32);

const MATCH: u32 = 1 << 31;

/// The shortest and longest match deflate can express, and the farthest distance.
pub(super) const MIN_MATCH: usize = 3;
pub(super) const MAX_MATCH: usize = 258;
pub(super) const MAX_DISTANCE: usize = 1 << 15;

/// Symbol 256 of the literal/length alphabet ends a block.
pub(super) const END_OF_BLOCK: usize = 256;
/// Symbols in the literal/length alphabet that may appear (0..=285).
pub(super) const LITLEN_SYMBOLS: usize = 286;
/// Symbols in the distance alphabet that may appear (0..=29).
pub(super) const DIST_SYMBOLS: usize = 30;

impl Token {
    #[inline]
    pub(super) fn literal(byte: u8) -> Token {
        Token(u32::from(byte))
    }

    /// A match of `length` (3..=258) bytes, `distance` (1..=32768) back.
    #[inline]
    pub(super) fn matched(length: usize, distance: usize) -> Token {
        debug_assert!((MIN_MATCH..=MAX_MATCH).contains(&length));
        debug_assert!((1..=MAX_DISTANCE).contains(&distance));
        Token(MATCH | ((length - MIN_MATCH) as u32) << 16 | (distance - 1) as u32)
    }

    /// `None` for a literal, else `(length - 3, distance - 1)`.
    #[inline]
    pub(super) fn as_match(self) -> Option<(usize, usize)> {
        (self.0 & MATCH != 0)
            .then_some((((self.0 >> 16) & 0xff) as usize, (self.0 & 0xffff) as usize))
    }

    /// The literal byte (meaningful only when [`Token::as_match`] is `None`).
    #[inline]
    pub(super) fn byte(self) -> usize {
        (self.0 & 0xff) as usize
    }
}

/// Length symbols 257..=285: the smallest length each covers, minus 3, and its extra bits.
const LENGTH_BASE: [u16; 29] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128,
    160, 192, 224, 255,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// Distance symbols 0..=29: the smallest distance each covers, minus 1, and its extra bits.
const DIST_BASE: [u16; 30] = [
    0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536,
    2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576,
];

/// `length - 3` → index into the length tables (symbol − 257).
static LENGTH_CODE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut code = 0;
    let mut l = 0;
    while l < 256 {
        while code + 1 < 29 && LENGTH_BASE[code + 1] as usize <= l {
            code += 1;
        }
        table[l] = code as u8;
        l += 1;
    }
    table
};

/// Length symbol index (symbol − 257) for `length - 3`.
#[inline]
pub(super) fn length_code(len_minus_3: usize) -> usize {
    LENGTH_CODE[len_minus_3] as usize
}

/// The extra bits of a length: how many, and their value.
#[inline]
pub(super) fn length_extra(code: usize, len_minus_3: usize) -> (u32, u32) {
    (
        u32::from(LENGTH_EXTRA[code]),
        (len_minus_3 - LENGTH_BASE[code] as usize) as u32,
    )
}

/// Extra bits carried by length symbol index `code`.
#[inline]
pub(super) fn length_extra_bits(code: usize) -> u32 {
    u32::from(LENGTH_EXTRA[code])
}

/// Distance symbol for `distance - 1`: two symbols per power of two past the first four.
#[inline]
pub(super) fn dist_code(dist_minus_1: usize) -> usize {
    if dist_minus_1 < 4 {
        return dist_minus_1;
    }
    let top = usize::BITS - 1 - dist_minus_1.leading_zeros();
    (2 * top + ((dist_minus_1 >> (top - 1)) & 1) as u32) as usize
}

/// Extra bits carried by distance symbol `code`.
#[inline]
pub(super) fn dist_extra_bits(code: usize) -> u32 {
    if code < 4 {
        0
    } else {
        (code as u32 / 2) - 1
    }
}

/// The extra bits of a distance: how many, and their value.
#[inline]
pub(super) fn dist_extra(code: usize, dist_minus_1: usize) -> (u32, u32) {
    (
        dist_extra_bits(code),
        (dist_minus_1 - DIST_BASE[code] as usize) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_symbols_follow_rfc_1951() {
        // (length, symbol - 257, extra bit count, extra value) from the RFC's table.
        for (len, code, nbits, extra) in [
            (3, 0, 0, 0),
            (10, 7, 0, 0),
            (11, 8, 1, 0),
            (12, 8, 1, 1),
            (13, 9, 1, 0),
            (19, 12, 2, 0),
            (22, 12, 2, 3),
            (35, 16, 3, 0),
            (67, 20, 4, 0),
            (131, 24, 5, 0),
            (227, 27, 5, 0),
            (257, 27, 5, 30),
            (258, 28, 0, 0),
        ] {
            let c = length_code(len - 3);
            assert_eq!(
                (c, length_extra(c, len - 3)),
                (code, (nbits, extra)),
                "{len}"
            );
        }
    }

    #[test]
    fn distance_symbols_follow_rfc_1951() {
        for (dist, code, nbits, extra) in [
            (1, 0, 0, 0),
            (4, 3, 0, 0),
            (5, 4, 1, 0),
            (6, 4, 1, 1),
            (7, 5, 1, 0),
            (9, 6, 2, 0),
            (13, 7, 2, 0),
            (24577, 29, 13, 0),
            (32768, 29, 13, 8191),
        ] {
            let c = dist_code(dist - 1);
            assert_eq!(
                (c, dist_extra(c, dist - 1)),
                (code, (nbits, extra)),
                "{dist}"
            );
        }
        // Every distance lands in the symbol whose range holds it.
        for d in 0..MAX_DISTANCE {
            let c = dist_code(d);
            let base = DIST_BASE[c] as usize;
            assert!(d >= base && d - base < 1 << dist_extra_bits(c), "{d}");
        }
    }

    #[test]
    fn tokens_round_trip() {
        assert_eq!(Token::literal(0xab).as_match(), None);
        assert_eq!(Token::literal(0xab).byte(), 0xab);
        assert_eq!(Token::matched(258, 32768).as_match(), Some((255, 32767)));
        assert_eq!(Token::matched(3, 1).as_match(), Some((0, 0)));
    }
}
