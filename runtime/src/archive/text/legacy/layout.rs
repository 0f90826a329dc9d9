//! `getChars`: Java's layout of the digits `dtoa` develops, written from registers.
//!
//! The 19 digits (those of the value, then zeros) go out as 8-byte words shifted into place
//! in registers, the junk past the text included, which what follows overwrites or the
//! length leaves out. Nothing written is read back, so no load waits on the stores before it
//! (a load that spans several stores cannot take their data until they reach the cache).

use super::super::write::{put_exponent, ROOM};
use super::Digits;

impl Digits {
    /// `getChars`: the text of the value, negated when `negative`, into `buf`, returning its
    /// length.
    #[inline(always)]
    pub(super) fn layout(&self, negative: bool, buf: &mut [u8; ROOM]) -> usize {
        let [w0, w1, w2] = self.ascii.words();
        // d₁…d₁₉ in three words: d₁–d₈, d₉–d₁₆ and d₁₇–d₁₉ (the words hold 5 zeros first).
        let a = (w0 >> 40) | (w1 << 24);
        let b = (w1 >> 40) | (w2 << 24);
        let c = w2 >> 40;
        let (n, exp) = (self.len, self.dec_exponent);
        let mut i = usize::from(negative);
        buf[0] = b'-';
        if exp > 0 && exp < 8 {
            // Plain: d.ddd, the point after `exp` digits, the zeros after the digits filling
            // in (`100.0`).
            let exp = exp as usize;
            put(buf, i, [a, b, c]);
            buf[i + exp] = b'.';
            // The digits after the first `exp`.
            let s = 8 * exp as u32;
            let rest = [
                (a >> s) | (b << (64 - s)),
                (b >> s) | (c << (64 - s)),
                c >> s,
            ];
            put(buf, i + exp + 1, rest);
            i += n.max(exp + 1) + 1;
        } else if exp <= 0 && exp > -3 {
            // 0.0ddd
            buf[i..i + 4].copy_from_slice(b"0.00");
            let at = i + 2 + exp.unsigned_abs() as usize;
            put(buf, at, [a, b, c]);
            i = at + n;
        } else {
            // d.dddE±n, with `.0` after a lone digit (a zero of the padding).
            let head = (a & 0xff) | (u64::from(b'.') << 8) | ((a >> 8) << 16);
            put(buf, i, [head, (a >> 56) | (b << 8), (b >> 56) | (c << 8)]);
            i = put_exponent(buf, i + n.max(2) + 1, exp - 1);
        }
        i
    }
}

/// Writes `words` (little-endian) to `buf` from `at` on.
#[inline(always)]
fn put(buf: &mut [u8; ROOM], at: usize, words: [u64; 3]) {
    for (k, word) in words.into_iter().enumerate() {
        buf[at + 8 * k..at + 8 * k + 8].copy_from_slice(&word.to_le_bytes());
    }
}
