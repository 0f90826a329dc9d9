//! `Double.toString` / `Float.toString` of JDK 8 to 18, byte for byte.
//!
//! A port of `FloatingDecimal.BinaryToASCIIBuffer` (`dtoa`, `developLongDigits`, `roundup`,
//! `estimateDecExp`, `getChars`) of OpenJDK 17's
//! `src/java.base/share/classes/jdk/internal/math/FloatingDecimal.java`, unchanged from JDK 8
//! to JDK 18 and replaced in JDK 19 by Raffaello Giulietti's shortest-digits algorithm. Hadoop
//! clusters run Java 8 and 11, so this is the text their CSV and XML archives hold. It is
//! written by hand because no crate does it: shortest-digits crates (ryu, zmij, the standard
//! library) give JDK 19's digits, and about 5% of values come out differently here (`1.0E-323`
//! for `9.9E-324`, and many with one more digit than needed: JDK-4511638).
//!
//! What the port keeps, since each shows in the output:
//! - the "fast" path for integers below 2⁶³, which rounds away the digits below the
//!   value's precision (`insignificantDigitsForPow2`) and so prints up to 18 digits;
//! - the decimal exponent estimate of `estimateDecExp`, in the same `double` arithmetic;
//! - the symmetric stopping test with M (half an ulp, halved again below a power of two),
//!   which is strict (`b + m > tens`) on the `int` and `long` paths and not (`>=`) on the
//!   big-integer one;
//! - the `int` and `long` paths in Java's wrapping arithmetic, overflows included;
//! - at least two digits in the `E` form (the stopping test is off after the first digit
//!   there), and `roundup`'s carry, which leaves the trailing zeros (`1.0E23`, `10.0`).
//!
//! `float` goes through the same `dtoa`, with its 24-bit significand shifted into the
//! `double` position and `nSignificantBits` of 24 or fewer, as `FloatingDecimal` does it.
//!
//! Java's big-integer loop computes exactly (`FDBigInteger`), and so does its `long` loop
//! where nothing overflows; any exact arithmetic gives the same digits there. Those loops run
//! first as [`approx`], which decides all their steps at once from one 64.64 fixed-point
//! product and a table of powers of five, and gives up when its error bounds cannot decide
//! a step (a few values in 10,000); then [`exact`] runs the big-integer loop in `u128` or
//! fixed-size multi-word integers, and the `long` loop runs as Java's, wrapping arithmetic
//! and all. The integer path converts its digits at once rather than one at a time; the
//! digits go to text eight at a time ([`ascii`]), laid out in registers ([`layout`]).

/// `[1, base, base², …]`, `n` powers of type `t`, computed at compile time (a macro: a `const fn`
/// cannot be generic over the integer type).
macro_rules! powers {
    ($t:ty; $n:expr, $base:expr) => {{
        let mut t: [$t; $n] = [1; $n];
        let mut i = 1;
        while i < $n {
            t[i] = t[i - 1] * $base;
            i += 1;
        }
        t
    }};
}

mod approx;
mod ascii;
mod digit_loop;
mod exact;
mod layout;
mod pow5;

use super::write::ROOM;
use ascii::{Ascii24, LEAD};
use digit_loop::wrapping_digits;

/// Bits of the significand field of a `double` (`EXP_SHIFT`).
const EXP_SHIFT: i32 = 52;
/// The hidden bit of a normal `double` (`FRACT_HOB`).
const FRACT_HOB: u64 = 1 << EXP_SHIFT;
/// The significand field of a `double` (`DoubleConsts.SIGNIF_BIT_MASK`).
const SIGNIF_BIT_MASK: u64 = FRACT_HOB - 1;
/// `MAX_SMALL_BIN_EXP` and `MIN_SMALL_BIN_EXP`: where integers take the fast path.
const SMALL_BIN_EXP: std::ops::RangeInclusive<i32> = -21..=62;

/// The longest text written, in bytes: Java's `getChars` buffer (a sign, 19 digits, the
/// point and `E-324`).
pub(super) const MAX_LEN: usize = 26;

/// Java's `digits` array: at most 20 digits, of which `getChars` allows 19.
const DIGITS: usize = 20;

/// 10^i.
const POW10: [u64; 20] = powers!(u64; 20, 10);

/// The number of decimal digits of `x` > 0: from its bit length (1233/4096 ≈ log₁₀ 2), one
/// more if it reaches that power of ten.
#[inline(always)]
fn decimal_len(x: u64) -> usize {
    let guess = (((64 - x.leading_zeros()) * 1233) >> 12) as usize;
    guess + usize::from(x >= POW10[guess])
}

/// Approximately ⌈log₂ 5ⁱ⌉ (`N_5_BITS`), as Java has it.
const N_5_BITS: [i32; 27] = [
    0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56,
    59, 61,
];

/// 5ⁱ as `int` (`FDBigInteger.SMALL_5_POW`).
const SMALL_5_POW: [i32; 14] = powers!(i32; 14, 5);

/// 5ⁱ as `long` (`FDBigInteger.LONG_5_POW`).
const LONG_5_POW: [i64; 27] = powers!(i64; 27, 5);

/// The bit lengths of [`LONG_5_POW`].
const LONG_5_POW_BITS: [i32; 27] = {
    let mut bits = [0; 27];
    let mut i = 0;
    while i < 27 {
        bits[i] = 64 - LONG_5_POW[i].leading_zeros() as i32;
        i += 1;
    }
    bits
};

/// `insignificantDigitsNumber`: the decimal digits of 2ⁱ less one.
const INSIGNIFICANT_DIGITS: [i32; 64] = [
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16,
    16, 17, 17, 17, 18, 18, 18, 19,
];

/// Writes JDK 8–18's `Double.toString(v)` of a finite non-zero `v` into `buf`, returning its
/// length.
#[inline(always)]
pub(super) fn format_double(v: f64, buf: &mut [u8; ROOM]) -> usize {
    let (bin_exp, fract, n_significant_bits) = unpack_double(v);
    dtoa(bin_exp, fract, n_significant_bits, true).layout(v < 0.0, buf)
}

/// Writes JDK 8–18's `Float.toString(v)` of a finite non-zero `v` into `buf`, returning its
/// length.
#[inline]
pub(super) fn format_float(v: f32, buf: &mut [u8; ROOM]) -> usize {
    let (bin_exp, fract, n_significant_bits) = unpack_float(v);
    dtoa(bin_exp, fract, n_significant_bits, true).layout(v < 0.0, buf)
}

/// `dtoa`'s arguments for a finite non-zero `double`: the unbiased binary exponent, the
/// significand with its high-order bit at bit 52 (subnormals normalized) and its
/// significant bits.
#[inline(always)]
fn unpack_double(v: f64) -> (i32, u64, i32) {
    let bits = v.to_bits();
    let mut fract = bits & SIGNIF_BIT_MASK;
    let mut bin_exp = ((bits >> EXP_SHIFT) & 0x7ff) as i32;
    let n_significant_bits;
    if bin_exp == 0 {
        let leading_zeros = fract.leading_zeros() as i32;
        let shift = leading_zeros - (63 - EXP_SHIFT);
        fract <<= shift;
        bin_exp = 1 - shift;
        n_significant_bits = 64 - leading_zeros;
    } else {
        fract |= FRACT_HOB;
        n_significant_bits = EXP_SHIFT + 1;
    }
    (bin_exp - 1023, fract, n_significant_bits)
}

/// `dtoa`'s arguments for a finite non-zero `float`: its 24-bit significand shifted to the
/// `double` position, as `FloatingDecimal` does. The `double` of the same value has that
/// significand; of its bits, those from 2⁻¹⁴⁹ up are significant (all 24 of a normal
/// `float`).
#[inline(always)]
fn unpack_float(v: f32) -> (i32, u64, i32) {
    let (bin_exp, fract, _) = unpack_double(f64::from(v));
    (bin_exp, fract, (bin_exp + 150).min(24))
}

/// The decimal `0.d₁d₂…dₙ × 10^dec_exponent` that `dtoa` develops.
#[derive(Clone, Copy)]
struct Digits {
    /// d₁…dₙ then zeros, 19 digits in all (after [`LEAD`] zeros).
    ascii: Ascii24,
    /// `nDigits`, at most 19: up to the last non-zero digit, or more (`roundup`'s carry
    /// leaves zeros that Java prints).
    len: usize,
    /// `decExponent`.
    dec_exponent: i32,
}

impl Digits {
    /// d₁…dₙ, as ASCII.
    #[cfg(test)]
    fn text(&self) -> Vec<u8> {
        self.ascii.bytes()[LEAD..LEAD + self.len].to_vec()
    }
}

/// `BinaryToASCIIBuffer`'s state in Java's digit loops: the digits as Java's array holds
/// them.
struct Decimal {
    /// The digits (ASCII) at bytes `LEAD..LEAD + len` of these little-endian words, `0`
    /// around them: as [`Digits`] has them. Written a byte at a time but read and written as
    /// words, so that taking them out reads what was stored, as stored (a load that spans
    /// several smaller stores waits until they reach the cache).
    words: [u64; 4],
    /// `nDigits`.
    len: usize,
    /// `decExponent`.
    dec_exponent: i32,
}

impl Decimal {
    /// No digits yet.
    fn new() -> Decimal {
        Decimal {
            words: [u64::from_le_bytes([b'0'; 8]); 4],
            len: 0,
            dec_exponent: 0,
        }
    }

    /// The `i`-th digit.
    #[inline(always)]
    fn digit(&self, i: usize) -> u8 {
        let at = LEAD + i;
        (self.words[at / 8] >> (8 * (at % 8))) as u8
    }

    /// Sets the `i`-th digit.
    #[inline(always)]
    fn set_digit(&mut self, i: usize, c: u8) {
        let at = LEAD + i;
        let shift = 8 * (at % 8);
        let word = &mut self.words[at / 8];
        *word = (*word & !(0xff << shift)) | (u64::from(c) << shift);
    }

    /// `roundup`: adds one to the last digit. A carry out of the first digit makes it `1`
    /// and leaves the others `0`, still counted.
    fn roundup(&mut self) {
        if self.len == 0 {
            return;
        }
        let mut i = self.len - 1;
        let mut q = self.digit(i);
        if q == b'9' {
            while q == b'9' && i > 0 {
                self.set_digit(i, b'0');
                i -= 1;
                q = self.digit(i);
            }
            if q == b'9' {
                self.dec_exponent += 1;
                self.set_digit(0, b'1');
                return;
            }
        }
        self.set_digit(i, q + 1);
    }

    /// The digits as [`Digits`], byte for byte. Java's `getChars` prints at most 19 (its
    /// buffer's room); the loops stop well before for a `double` or a `float`.
    #[inline(always)]
    fn to_digits(&self) -> Digits {
        let [w0, w1, w2, _] = self.words;
        Digits {
            ascii: Ascii24::from_words([w0, w1, w2]),
            len: self.len.min(19),
            dec_exponent: self.dec_exponent,
        }
    }
}

/// What the digit loops leave for the final rounding: Java's `low`, `high` and
/// `lowDigitDifference` (the sign of twice the remainder less `10·S`).
struct Stop {
    low: bool,
    high: bool,
    low_digit_difference: i64,
}

/// Appends digit `q` (Java's `(char) ('0' + q)`), as long as there is room, which there
/// always is: Java's array of 20 would throw first.
#[inline(always)]
fn push_digit(d: &mut Decimal, q: i64) {
    if d.len < DIGITS {
        d.set_digit(d.len, (q as u8).wrapping_add(b'0'));
        d.len += 1;
    }
}

/// How `dtoa` develops the digits of a value.
enum Plan {
    /// An integer below 2⁶³, whose last `insignificant` digits are rounded away.
    Integer { value: u64, insignificant: i32 },
    /// B / S · 10^dec_exp is the value, 1 ≤ B / S < 10 (if the estimate is right; if it is
    /// one too high the first quotient is 0, and dropped); M is half an ulp, scaled like B.
    Loop(Scaled),
}

/// The start of `dtoa`'s digit loop.
struct Scaled {
    /// `estimateDecExp`'s decimal exponent.
    dec_exp: i32,
    /// The significand without its trailing zero bits.
    fract: u64,
    /// `[b5, b2, s5, s2, m5, m2]`: B = fract·5^b5·2^b2, S = 5^s5·2^s2, M = 5^m5·2^m2.
    exponents: [i32; 6],
    /// Which of Java's three loops: by the approximate bits of B and 10·S, `int` below 32,
    /// `long` below 64, big integers otherwise.
    path: Path,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Path {
    Int,
    Long,
    Big,
}

/// The first half of `dtoa`: the integer shortcut, or the exponents of the digit loop.
#[inline(always)]
fn plan(bin_exp: i32, fract_bits: u64, n_significant_bits: i32) -> Plan {
    let tail_zeros = fract_bits.trailing_zeros() as i32;
    // Significant bits of fract_bits.
    let n_fract_bits = EXP_SHIFT + 1 - tail_zeros;
    // Significant bits to the right of the point.
    let n_tiny_bits = (n_fract_bits - bin_exp - 1).max(0);
    if SMALL_BIN_EXP.contains(&bin_exp) && n_tiny_bits == 0 {
        // An integer below 2⁶³. (Java first checks that the value scaled by 10^nTinyBits
        // fits a long, then only uses the case nTinyBits == 0, where it always does.)
        let insignificant = if bin_exp > n_significant_bits {
            insignificant_digits_for_pow2(bin_exp - n_significant_bits - 1)
        } else {
            0
        };
        let value = if bin_exp >= EXP_SHIFT {
            fract_bits << (bin_exp - EXP_SHIFT)
        } else {
            fract_bits >> (EXP_SHIFT - bin_exp)
        };
        return Plan::Integer {
            value,
            insignificant,
        };
    }

    let dec_exp = estimate_dec_exp(fract_bits, bin_exp);
    let b5 = (-dec_exp).max(0);
    let mut b2 = b5 + n_tiny_bits + bin_exp;
    let s5 = dec_exp.max(0);
    let mut s2 = s5 + n_tiny_bits;
    let m5 = b5;
    let mut m2 = b2 - n_significant_bits;

    b2 -= n_fract_bits - 1;
    let common2factor = b2.min(s2);
    b2 -= common2factor;
    s2 -= common2factor;
    m2 -= common2factor;
    // Below a power of two the next value down is half as far.
    if n_fract_bits == 1 {
        m2 -= 1;
    }
    if m2 < 0 {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }

    // Approximate bits of B and of 10·S.
    let n5 = |p5: i32| N_5_BITS.get(p5 as usize).copied().unwrap_or(p5 * 3);
    let b_bits = n_fract_bits + b2 + n5(b5);
    let ten_s_bits = s2 + 1 + n5(s5 + 1);
    let path = match (b_bits.max(ten_s_bits), b_bits < 32 && ten_s_bits < 32) {
        (..64, true) => Path::Int,
        (..64, false) => Path::Long,
        _ => Path::Big,
    };
    Plan::Loop(Scaled {
        dec_exp,
        fract: fract_bits >> tail_zeros,
        exponents: [b5, b2, s5, s2, m5, m2],
        path,
    })
}

/// Whether the digits go on past the first one's stopping test: Java's E form needs two
/// (`isCompatibleFormat`).
fn e_form(dec_exp: i32) -> bool {
    !(-3..8).contains(&dec_exp)
}

/// `dtoa(binExp, fractBits, nSignificantBits, isCompatibleFormat = true)`: the digits of
/// `fract · 2^(bin_exp − 52)`, where `fract` has its high-order bit at bit 52. `fast` tries
/// the fixed-point loop before the exact one (off only in tests, which compare the two).
/// Inlined, as is all it calls but Java's loops: what it returns stays in registers.
#[inline(always)]
fn dtoa(bin_exp: i32, fract_bits: u64, n_significant_bits: i32, fast: bool) -> Digits {
    let scaled = match plan(bin_exp, fract_bits, n_significant_bits) {
        Plan::Integer {
            value,
            insignificant,
        } => return develop_long_digits(value, insignificant),
        Plan::Loop(scaled) => scaled,
    };
    // The fixed-point loop first where Java's arithmetic is exact: the big-integer path, and
    // the long one where nothing overflows (values of few significant bits have few digits,
    // which Java's loop finds sooner).
    let exact_arithmetic = match scaled.path {
        Path::Int => false,
        Path::Long => scaled.fract >> 20 != 0 && long_is_exact(scaled.fract, scaled.exponents),
        Path::Big => true,
    };
    let strict = scaled.path == Path::Long;
    match (fast && exact_arithmetic)
        .then(|| approx::digits(&scaled, strict))
        .flatten()
    {
        Some(digits) => digits,
        // Not tried, or too close to call in fixed point.
        None => javas_loop(&scaled),
    }
}

/// Java's digit loop for `scaled` (`int`, `long` or big-integer), then its rounding.
/// Inlined, with the loop out of line filling a [`Decimal`] of this frame: so the digits are
/// read back as they were stored, not from a copy in other pieces.
#[inline(always)]
fn javas_loop(scaled: &Scaled) -> Digits {
    let mut d = Decimal::new();
    develop_digits(scaled, &mut d);
    d.to_digits()
}

/// The digits of [`javas_loop`], rounded, into `d`.
#[inline(never)]
fn develop_digits(scaled: &Scaled, d: &mut Decimal) {
    let mut dec_exp = scaled.dec_exp;
    let stop = match scaled.path {
        Path::Int => wrapping_digits::<i32>(d, &mut dec_exp, scaled),
        Path::Long => wrapping_digits::<i64>(d, &mut dec_exp, scaled),
        Path::Big => exact::digits(d, &mut dec_exp, scaled),
    };
    d.dec_exponent = dec_exp + 1;
    // The last digit is rounded by the stopping condition.
    if stop.high {
        if stop.low {
            if stop.low_digit_difference == 0 {
                // A tie: the even digit.
                if d.len > 0 && d.digit(d.len - 1) & 1 != 0 {
                    d.roundup();
                }
            } else if stop.low_digit_difference > 0 {
                d.roundup();
            }
        } else {
            d.roundup();
        }
    }
}

/// Whether Java's `long` loop on these numbers never overflows, and so computes what exact
/// arithmetic does: B below 2⁶³, and 10·S and M small enough that b + m (b < 10·S, m at most
/// 10·(10·S) or 100·M at the start) and m·10 stay below it.
#[inline(always)]
fn long_is_exact(fract: u64, [b5, b2, s5, s2, m5, m2]: [i32; 6]) -> bool {
    // In range on the long path (see wrapping_digits). First by bit lengths, which settle
    // nearly every value in a few additions, then exactly.
    fits_by_bits(fract, [b5, b2, s5, s2, m5, m2]) || {
        let pow5 = |p5: i32| u128::from(LONG_5_POW[p5 as usize] as u64);
        let limit = 1u128 << 63;
        let b = u128::from(fract) * pow5(b5);
        let tens = pow5(s5 + 1) << (s2 + 1);
        let m = pow5(m5) << m2;
        b2 < 63 && b < limit >> b2 && tens * 11 < limit && m * 100 < limit
    }
}

/// [`long_is_exact`]'s bounds by bit lengths (a product has at most the sum of its factors'):
/// B, 11·(10·S) and 100·M of at most 63 bits.
#[inline(always)]
fn fits_by_bits(fract: u64, [b5, b2, s5, s2, m5, m2]: [i32; 6]) -> bool {
    let bits5 = |p5: i32| LONG_5_POW_BITS[p5 as usize];
    let fract_bits = 64 - fract.leading_zeros() as i32;
    fract_bits + bits5(b5) + b2 <= 63
        && bits5(s5 + 1) + s2 + 1 + 4 <= 63
        && bits5(m5) + m2 + 7 <= 63
}

/// `developLongDigits(0, value, insignificant)`: the digits of the integer `value`, its last
/// `insignificant` digits rounded away (half up), trailing zeros dropped.
#[inline(always)]
fn develop_long_digits(mut value: u64, insignificant: i32) -> Digits {
    if insignificant != 0 {
        // insignificant ≤ 11: 10^i = 5^i · 2^i fits.
        let pow10 = (LONG_5_POW[insignificant as usize] << insignificant) as u64;
        let residue = value % pow10;
        value /= pow10;
        if residue >= pow10 >> 1 {
            value += 1;
        }
    }
    // In [1, 10¹⁹): value < 2⁶³ (or that over 10^i, rounded), and not 0. Java takes the
    // digits one at a time from the end, skipping the trailing zeros; converted at once,
    // they are the same, and the decimal exponent is their count.
    let log10 = decimal_len(value) - 1;
    let ascii = Ascii24::new(value * POW10[18 - log10]);
    Digits {
        ascii,
        len: 24 - LEAD - ascii.trailing_zeros(),
        dec_exponent: insignificant + log10 as i32 + 1,
    }
}

/// `insignificantDigitsForPow2(p2)`: the decimal digits of 2^p2 less one, 0 below 2.
fn insignificant_digits_for_pow2(p2: i32) -> i32 {
    if p2 > 1 {
        INSIGNIFICANT_DIGITS.get(p2 as usize).copied().unwrap_or(0)
    } else {
        0
    }
}

/// `estimateDecExp`: ⌊log₁₀ of the value⌋, or one more, from
/// log₁₀(d₂) ≈ (d₂ − 1.5)/1.5·log₁₀(e)… in Java's `double` arithmetic, with 1 ≤ d₂ < 2 the
/// significand.
// Java's constants, 0.301029995663981 among them (not `LOG10_2`, which is longer): the
// estimate, and with it the digits, must be Java's.
#[allow(clippy::approx_constant)]
#[inline(always)]
fn estimate_dec_exp(fract_bits: u64, bin_exp: i32) -> i32 {
    const EXP_ONE: u64 = 1023 << EXP_SHIFT;
    const SIGN_BIT_MASK: u64 = 1 << 63;
    let d2 = f64::from_bits(EXP_ONE | (fract_bits & SIGNIF_BIT_MASK));
    let d = (d2 - 1.5) * 0.289529654 + 0.176091259 + f64::from(bin_exp) * 0.301029995663981;
    let d_bits = d.to_bits();
    let exponent = ((d_bits >> EXP_SHIFT) & 0x7ff) as i32 - 1023;
    let negative = d_bits & SIGN_BIT_MASK != 0;
    if (0..52).contains(&exponent) {
        let mask = SIGNIF_BIT_MASK >> exponent;
        let r = (((d_bits & SIGNIF_BIT_MASK) | FRACT_HOB) >> (EXP_SHIFT - exponent)) as i32;
        match (negative, mask & d_bits == 0) {
            (false, _) => r,
            (true, true) => -r,
            (true, false) => -r - 1,
        }
    } else if exponent < 0 {
        if d_bits & !SIGN_BIT_MASK == 0 || !negative {
            0
        } else {
            -1
        }
    } else {
        d as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(v: f64) -> String {
        let mut buf = [0u8; ROOM];
        let n = format_double(v, &mut buf);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    fn float(v: f32) -> String {
        let mut buf = [0u8; ROOM];
        let n = format_float(v, &mut buf);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    #[test]
    fn each_path_gives_javas_text() {
        // The integer fast path, with its rounded-away insignificant digits.
        assert_eq!(double(1.0), "1.0");
        assert_eq!(double(100.0), "100.0");
        assert_eq!(double(1e7), "1.0E7");
        assert_eq!(double(2f64.powi(57)), "1.44115188075855872E17");
        // The int and long paths.
        assert_eq!(double(0.1), "0.1");
        assert_eq!(double(-12.5), "-12.5");
        assert_eq!(double(0.001), "0.001");
        assert_eq!(double(9.99e-4), "9.99E-4");
        // The big-integer path, in u128 and in multi-word integers.
        assert_eq!(double(1e23), "9.999999999999999E22");
        assert_eq!(double(8.41e21), "8.409999999999999E21");
        assert_eq!(double(2f64.powi(-44)), "5.6843418860808015E-14");
        assert_eq!(double(f64::MAX), "1.7976931348623157E308");
        assert_eq!(double(f64::from_bits(1)), "4.9E-324");
        assert_eq!(double(f64::from_bits(2)), "1.0E-323");
        assert_eq!(float(0.1), "0.1");
        assert_eq!(float(1.0e10), "1.0E10");
        assert_eq!(float(f32::from_bits(1)), "1.4E-45");
        assert_eq!(float(f32::MAX), "3.4028235E38");
        assert_eq!(float(f32::MIN_POSITIVE), "1.17549435E-38");
        // Integers above 2²⁴ keep digits below float's precision.
        assert_eq!(float(123456792.0), "1.23456792E8");
        assert_eq!(float(2f32.powi(28)), "2.68435456E8");
    }

    /// The fixed-point loop gives the exact loop's digits whenever it does not give up, and
    /// gives up rarely.
    #[test]
    fn fixed_point_agrees_with_exact_arithmetic() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut tried, mut given_up) = (0, 0);
        for i in 0..100_000 {
            // Random bit patterns, values near powers of two and of ten, subnormals, and
            // values of the long loop's range.
            let bits = match i % 5 {
                0 => next() & !(1 << 63),
                1 => ((next() % 2046 + 1) << 52) | (next() & 0xff),
                2 => 10f64.powi((next() % 600) as i32 - 300).to_bits() ^ (next() & 3),
                3 => next() >> (12 + next() % 52),
                _ => ((next() >> 11) as f64 * 10f64.powi((next() % 40) as i32 - 70)).to_bits(),
            };
            let v = f64::from_bits(bits);
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let (bin_exp, fract, n) = unpack_double(v);
            let fast = dtoa(bin_exp, fract, n, true);
            let exact = dtoa(bin_exp, fract, n, false);
            assert_eq!(
                (fast.text(), fast.dec_exponent),
                (exact.text(), exact.dec_exponent),
                "{v:e}"
            );
            if let Plan::Loop(s) = plan(bin_exp, fract, n) {
                let strict = match s.path {
                    Path::Long if long_is_exact(s.fract, s.exponents) => true,
                    Path::Big => false,
                    _ => continue,
                };
                let digits = approx::digits(&s, strict);
                tried += 1;
                given_up += usize::from(digits.is_none());
            }
        }
        assert!(
            tried > 80_000 && given_up < tried / 1000,
            "{given_up} of {tried}"
        );
    }

    /// Java's loops alone, without the fixed-point shortcut, print every JDK 17 text of the
    /// float-text fixtures (the shortcut is checked there through the public API).
    #[test]
    fn javas_loops_alone_print_jdk17s_text() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/java-float-text"
        );
        let mut checked = 0;
        for file in ["jdk17.tsv", "classes_jdk17.tsv"] {
            let text = std::fs::read_to_string(format!("{dir}/{file}")).expect("fixture");
            for line in text.lines().skip(1) {
                let cols: Vec<&str> = line.split('\t').collect();
                let bits = u64::from_str_radix(&cols[1][2..], 16).expect("hex");
                let (negative, unpacked, widened) = if cols[0] == "f64" {
                    let v = f64::from_bits(bits);
                    (v < 0.0, v.is_finite() && v != 0.0, None)
                } else {
                    let v = f32::from_bits(bits as u32);
                    (v < 0.0, v.is_finite() && v != 0.0, Some(f64::from(v)))
                };
                if !unpacked {
                    continue;
                }
                let (bin_exp, fract, n) = match cols[0] {
                    "f64" => unpack_double(f64::from_bits(bits)),
                    _ => unpack_float(f32::from_bits(bits as u32)),
                };
                let mut buf = [0u8; ROOM];
                let len = dtoa(bin_exp, fract, n, false).layout(negative, &mut buf);
                assert_eq!(&buf[..len], cols[2].as_bytes(), "{file}: {line}");
                if let Some(w) = widened {
                    let (bin_exp, fract, n) = unpack_double(w);
                    let len = dtoa(bin_exp, fract, n, false).layout(negative, &mut buf);
                    assert_eq!(&buf[..len], cols[3].as_bytes(), "{file}: {line}");
                }
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// `developLongDigits` as Java writes it, a digit at a time from the end.
    fn java_long_digits(mut value: u64, insignificant: i32) -> (Vec<u8>, i32) {
        let mut dec_exponent = 0;
        if insignificant != 0 {
            let pow10 = 10u64.pow(insignificant as u32);
            let residue = value % pow10;
            value /= pow10;
            dec_exponent += insignificant;
            if residue >= pow10 >> 1 {
                value += 1;
            }
        }
        let mut digits = Vec::new();
        let mut c = value % 10;
        value /= 10;
        while c == 0 && value != 0 {
            dec_exponent += 1;
            c = value % 10;
            value /= 10;
        }
        while value != 0 {
            digits.push(b'0' + c as u8);
            dec_exponent += 1;
            c = value % 10;
            value /= 10;
        }
        digits.push(b'0' + c as u8);
        digits.reverse();
        (digits, dec_exponent + 1)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// The integer path's digits, converted at once, are those of Java's loop: for
        /// integers below 2⁶³ of every length, with trailing zeros, and every count of
        /// insignificant digits.
        #[test]
        fn long_digits_are_javas(
            bits in 1u64..1 << 63,
            shift in 0u32..63,
            zeros in 0u32..19,
            insignificant in 0i32..12,
        ) {
            let value = (bits >> shift).max(1);
            let value = value
                .checked_mul(10u64.pow(zeros))
                .filter(|&v| v < 1 << 63)
                .unwrap_or(value);
            // Java rounds a value of at least 10^i.
            let insignificant = if value >= 10u64.pow(insignificant as u32) {
                insignificant
            } else {
                0
            };
            let d = develop_long_digits(value, insignificant);
            let (digits, dec_exponent) = java_long_digits(value, insignificant);
            proptest::prop_assert_eq!(
                (d.text(), d.dec_exponent),
                (digits, dec_exponent),
                "{} {}", value, insignificant
            );
        }

        /// The fixed-point loop gives the exact loop's digits, on any bits of a `double`
        /// and of a `float`.
        #[test]
        fn fixed_point_agrees_on_any_bits(bits: u64) {
            let wide = f64::from_bits(bits);
            let narrow = f32::from_bits(bits as u32);
            let mut unpacked = Vec::new();
            if wide.is_finite() && wide != 0.0 {
                unpacked.push(unpack_double(wide));
            }
            if narrow.is_finite() && narrow != 0.0 {
                unpacked.push(unpack_float(narrow));
            }
            for (bin_exp, fract, n) in unpacked {
                let fast = dtoa(bin_exp, fract, n, true);
                let exact = dtoa(bin_exp, fract, n, false);
                proptest::prop_assert_eq!(
                    (fast.text(), fast.dec_exponent),
                    (exact.text(), exact.dec_exponent),
                    "{:#x}", bits
                );
            }
        }
    }

    /// The bounds by bit lengths never pass numbers that overflow Java's `long` loop.
    #[test]
    fn bit_lengths_bound_the_long_loop() {
        let mut state = 0x853C_49E6_748F_EA9Bu64;
        let mut passed = 0;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let fract = state >> (11 + state % 53);
            let e = |shift: u32, n: u64| ((state >> shift) % n) as i32;
            let exponents = [
                e(0, 26),
                e(8, 64),
                e(16, 25),
                e(24, 64),
                e(32, 26),
                e(40, 64),
            ];
            if fract != 0 && fits_by_bits(fract, exponents) {
                passed += 1;
                let [b5, b2, s5, s2, m5, m2] = exponents;
                let pow5 = |p5: i32| 5u128.pow(p5 as u32);
                assert!(
                    (u128::from(fract) * pow5(b5)) << b2 < 1 << 63,
                    "{exponents:?}"
                );
                assert!(11 * (pow5(s5 + 1) << (s2 + 1)) < 1 << 63, "{exponents:?}");
                assert!(100 * (pow5(m5) << m2) < 1 << 63, "{exponents:?}");
            }
        }
        assert!(passed > 1000, "{passed}");
    }

    #[test]
    fn estimate_is_the_decimal_exponent_or_one_more() {
        for (v, exp) in [(1.0f64, 0), (9.99, 0), (10.0, 1), (1e-5, -5), (1e300, 300)] {
            let bits = v.to_bits();
            let fract = (bits & SIGNIF_BIT_MASK) | FRACT_HOB;
            let estimate = estimate_dec_exp(fract, ((bits >> 52) as i32) - 1023);
            assert!((exp..=exp + 1).contains(&estimate), "{v}: {estimate}");
        }
    }
}
