//! Integers below 10¹⁹ as ASCII decimal digits, eight at a time in registers.

/// 24 ASCII bytes, [`LEAD`] zeros then 19 digits (those of a number below 10¹⁹, leading
/// zeros included, or those of Java's loops then zeros), as three little-endian words of
/// eight: the first byte of each in its low byte.
#[derive(Clone, Copy)]
pub(super) struct Ascii24([u64; 3]);

/// The zeros before 19 digits in 24 bytes.
pub(super) const LEAD: usize = 5;

/// Eight ASCII zeros.
const ZEROS: u64 = 0x3030_3030_3030_3030;

impl Ascii24 {
    /// The digits of `n` < 10¹⁹.
    #[inline(always)]
    pub(super) fn new(n: u64) -> Ascii24 {
        const E8: u64 = 100_000_000;
        let (high, low) = (n / E8, n % E8);
        Ascii24([
            three_digits((high / E8) as u32),
            eight_digits((high % E8) as u32),
            eight_digits(low as u32),
        ])
    }

    /// The digits in `words`, as they are.
    #[inline(always)]
    pub(super) fn from_words(words: [u64; 3]) -> Ascii24 {
        Ascii24(words)
    }

    /// The three words.
    #[inline(always)]
    pub(super) fn words(self) -> [u64; 3] {
        self.0
    }

    /// The 24 bytes.
    #[cfg(test)]
    pub(super) fn bytes(self) -> [u8; 24] {
        let mut out = [0; 24];
        for (chunk, word) in out.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }

    /// How many of the 24 are trailing zeros (all 24 for 0), without a branch: the last
    /// byte that is not `0` is the highest non-zero byte of a word XOR zeros.
    #[inline(always)]
    pub(super) fn trailing_zeros(self) -> usize {
        let zeros = |word: u64| ((word ^ ZEROS).leading_zeros() / 8) as usize;
        let (z0, z1, z2) = (zeros(self.0[0]), zeros(self.0[1]), zeros(self.0[2]));
        let below = if z1 == 8 { 8 + z0 } else { z1 };
        z2 + if z2 == 8 { below } else { 0 }
    }
}

/// The 3 decimal digits of `n` < 10³ after 5 zeros, as the ASCII bytes of a little-endian
/// word: ⌊n/100⌋ = n·41 >> 12 and ⌊x/10⌋ = x·103 >> 10 in those ranges.
#[inline(always)]
fn three_digits(n: u32) -> u64 {
    let hundreds = (n * 41) >> 12;
    let rest = n - hundreds * 100;
    let tens = (rest * 103) >> 10;
    let digits = u64::from(hundreds) | u64::from(tens) << 8 | u64::from(rest - tens * 10) << 16;
    ZEROS + (digits << 40)
}

/// The 8 decimal digits of `n` < 10⁸ as the ASCII bytes of a little-endian word, all in
/// registers: 4-digit halves in 32-bit lanes, then 2-digit quarters in 16-bit lanes, then
/// digits in bytes, each split by a multiplication that divides exactly in that range
/// (x·10486 >> 20 = ⌊x/100⌋ for x < 10⁴, x·103 >> 10 = ⌊x/10⌋ for x < 100).
#[inline(always)]
fn eight_digits(n: u32) -> u64 {
    let n = u64::from(n);
    let halves = (n / 10_000) | ((n % 10_000) << 32);
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let quarters = hundreds | ((halves - hundreds * 100) << 16);
    let tens = ((quarters * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | ((quarters - tens * 10) << 8);
    digits + ZEROS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_keep_their_zeros() {
        for n in [
            0,
            7,
            1234567890,
            9_999_999_999_999_999_999,
            1_000_000_000_000_000_000,
            100_000_000,
            120_000_000_000_000_000,
        ] {
            let text = format!("{n:024}");
            let a = Ascii24::new(n);
            assert_eq!(a.bytes(), *text.as_bytes(), "{n}");
            assert_eq!(a.trailing_zeros(), 24 - text.trim_end_matches('0').len());
        }
        for n in 0..1000 {
            assert_eq!(
                three_digits(n).to_le_bytes(),
                *format!("{n:08}").as_bytes(),
                "{n}"
            );
        }
        for n in (0..100_000_000)
            .step_by(9_973)
            .chain([99_999_999, 10_000_000, 9_999])
        {
            assert_eq!(
                eight_digits(n).to_le_bytes(),
                *format!("{n:08}").as_bytes(),
                "{n}"
            );
        }
    }
}
