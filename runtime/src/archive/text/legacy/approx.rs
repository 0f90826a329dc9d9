//! `dtoa`'s digit loop without big integers, for speed: `None` whenever rounding could
//! change a step, and then the caller runs the loop in exact arithmetic.
//!
//! The loop develops the digits of β = B/S, and after the k-th digit its remainder is
//! β_k = 10·frac(β·10^(k−1)) and its M is μ_k = 10^k·M/S: it stops when β_k < μ_k (`low`)
//! or β_k + μ_k ≥ 10 (`high`; > 10 on Java's `long` path). With D + f = β·10¹⁸ (D an
//! integer of 19 digits, 0 ≤ f < 1) and U = 10¹⁸·M/S, that is
//!
//! - the k-th digit is the k-th of D;
//! - `low`: t_k + f < U, where t_k = D mod 10^(19−k) is what follows the k-th digit;
//! - `high`: t_k + f + U ≥ 10^(19−k);
//! - the final rounding compares 2·(t_k + f) with 10^(19−k).
//!
//! So one multiplication gives D + f (and one more U) in 64.64 fixed point, from a table of
//! 5ᵉ to 128 bits ([`super::pow5`]); both are known to a few units of 2⁻⁶⁴, and exactly
//! where the table's power is exact (every decimal exponent up to 18, which covers Java's
//! `long` path). A step is decided only when every value within those bounds decides it
//! alike, so the digits are exactly those of exact arithmetic; a value that comes that
//! close to a boundary (a tie, a remainder of exactly M) goes to the exact loop.

use super::pow5::{pow5, Pow5};
use super::{e_form, Decimal, Scaled, Stop};

/// Fraction bits of D + f and of U.
const F: i32 = 64;
/// 10^i.
const POW10: [u64; 20] = powers!(u64; 20, 10);
/// Errors beyond this many units give up.
const MAX_ERR: u128 = 1 << 32;

/// A fixed-point value whose true value is in [v, v + err] · 2⁻⁶⁴; `v == u128::MAX` with
/// `err == 0` stands for anything at least that large.
#[derive(Clone, Copy)]
struct Approx {
    v: u128,
    err: u128,
}

const HUGE: Approx = Approx {
    v: u128::MAX,
    err: 0,
};

/// The digits of B / S (B = fract·5^b5·2^b2, S = 5^s5·2^s2, M = 5^m5·2^m2, by `start`).
/// `strict` is Java's `long` path (`b + m > tens`); otherwise its big-integer one
/// (`b + m >= tens`). `None` leaves `d` and `dec_exp` as they were.
#[inline(never)]
pub(super) fn digits(
    d: &mut Decimal,
    dec_exp: &mut i32,
    start: &Scaled,
    strict: bool,
) -> Option<Stop> {
    let (fract, [b5, b2, s5, s2, m5, m2]) = (start.fract, start.exponents);
    // D + f = B/S · 10¹⁸ and U = M/S · 10¹⁸.
    // Java's M has B's power of five: U is the table's power shifted.
    let p = pow5(b5 - s5 + 18)?;
    let x = scaled(p, fract, b2 - s2 + 18);
    let u = if m5 == b5 {
        scaled(p, 1, m2 - s2 + 18)
    } else {
        scaled(pow5(m5 - s5 + 18)?, 1, m2 - s2 + 18)
    };
    let top = x.v.checked_add(x.err)?;
    // The integer part must be known, and below 10¹⁹ (the first digit below 10).
    if x.err > MAX_ERR
        || u.err > MAX_ERR
        || top >> F != x.v >> F
        || top >> F >= 10 * POW10[18] as u128
    {
        return None;
    }
    let whole = (x.v >> F) as u64;
    let f = x.v as u64 as u128;
    // D's digits after 5 zeros, so that they are three 8-digit words: D's k-th at k + 4.
    let all = twenty_four_digits(whole);
    // U's integer part (u64::MAX when U is huge) settles most tests without the fractions.
    let whole_u = (u.v >> F) as u64;

    // Whether the tests after the digits above 10^j may come out true: whether
    // t = D mod 10^j is within U + 3 of 0 or of 10^j. As j grows (fewer digits taken), t
    // and 10^j − t only grow; so where they are not, no test before is true either, and the
    // loop can start after those digits (most values stop within the last six).
    let near = |t: u64, j: usize| {
        t < whole_u.saturating_add(2) || POW10[j] - t < whole_u.saturating_add(3)
    };
    let (mut k, mut tail) = if near(whole % POW10[12], 12) {
        (0, whole)
    } else if near(whole % POW10[6], 6) {
        (7, whole % POW10[12])
    } else {
        (13, whole % POW10[6])
    };
    let mut start = 0;
    if k > 0 && all[LEAD] == b'0' {
        // The first test was false: a leading zero means the estimate was one too high.
        *dec_exp -= 1;
        start = 1;
    }
    let (mut low, mut high);
    loop {
        let q = all[LEAD + k] - b'0';
        tail -= u64::from(q) * POW10[18 - k];
        k += 1;
        // The tail t_k + f below 10^(19−k): low if it is below U, high if it is within U of
        // 10^(19−k). Integer parts two apart decide; otherwise, the fixed-point values.
        let rest = POW10[19 - k] - tail;
        low = if tail + 2 <= whole_u {
            true
        } else if tail >= whole_u.saturating_add(2) {
            false
        } else {
            let t = (u128::from(tail) << F) | f;
            decide(t + x.err < u.v, t >= u.v.saturating_add(u.err))?
        };
        high = if whole_u >= rest + 2 {
            true
        } else if rest >= whole_u.saturating_add(3) {
            false
        } else {
            let sum = ((u128::from(tail) << F) | f).saturating_add(u.v);
            let limit = u128::from(POW10[19 - k]) << F;
            let reached = |sum: u128| if strict { sum > limit } else { sum >= limit };
            decide(reached(sum), !reached(sum.saturating_add(x.err + u.err)))?
        };
        if k == 1 {
            if q == 0 && !high {
                // The estimate was one too high: the zero is not a digit.
                *dec_exp -= 1;
                start = 1;
            }
            if e_form(*dec_exp) {
                low = false;
                high = false;
            }
        }
        if low || high {
            break;
        }
        if k == 19 {
            // More digits than D holds (never for a double).
            return None;
        }
    }
    let low_digit_difference = if high && low {
        let t = (u128::from(tail) << F) | f;
        let limit = u128::from(POW10[19 - k]) << F;
        if 2 * t > limit {
            1
        } else if 2 * (t + x.err) < limit {
            -1
        } else if x.err == 0 && 2 * t == limit {
            0
        } else {
            return None;
        }
    } else {
        0
    };
    d.digits[..all.len()].copy_from_slice(&all);
    d.first = LEAD + start;
    d.len = k - start;
    Some(Stop {
        low,
        high,
        low_digit_difference,
    })
}

/// `Some(true)` if `yes`, `Some(false)` if `no`, `None` if neither holds for sure.
#[inline(always)]
fn decide(yes: bool, no: bool) -> Option<bool> {
    match (yes, no) {
        (true, _) => Some(true),
        (false, true) => Some(false),
        (false, false) => None,
    }
}

/// Zeros before D's 19 digits in [`twenty_four_digits`].
const LEAD: usize = 5;

/// `n` < 10¹⁹ as 24 decimal digits (ASCII), leading zeros included: three words of eight.
#[inline(always)]
fn twenty_four_digits(n: u64) -> [u8; 24] {
    let (head, rest) = (n / POW10[16], n % POW10[16]);
    let words = [
        eight_digits(head as u32),
        eight_digits((rest / POW10[8]) as u32),
        eight_digits((rest % POW10[8]) as u32),
    ];
    let mut out = [0; 24];
    for (chunk, word) in out.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
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
    digits + 0x3030_3030_3030_3030
}

/// fract · `p` · 2^p2 in 64.64 fixed point, rounded down; [`HUGE`] if it does not fit.
#[inline(always)]
fn scaled(p: Pow5, fract: u64, p2: i32) -> Approx {
    // fract · mant: three words, least significant first.
    let low_product = u128::from(p.mant as u64) * u128::from(fract);
    let high_product = (p.mant >> 64) * u128::from(fract);
    let middle = (low_product >> 64) + (high_product as u64 as u128);
    let words = [
        low_product as u64,
        middle as u64,
        ((high_product >> 64) + (middle >> 64)) as u64,
        0,
        0,
    ];
    // The value in units of 2^-F is the product times 2^shift.
    let shift = p.exp + p2 + F;
    if shift > 0 {
        // At least 2¹²⁷ (mant is) times 2: more than fits.
        return HUGE;
    }
    let r = (-shift) as usize;
    if r >= 192 {
        let v = 0;
        let dropped = words.iter().any(|&w| w != 0);
        return Approx {
            v,
            err: u128::from(dropped) + table_err(p, fract, r),
        };
    }
    // Two words from word q on, shifted right by s: funnel shifts of word pairs.
    let (q, s) = (r / 64, (r % 64) as u32);
    let pair = |i: usize| (u128::from(words[i + 1]) << 64) | u128::from(words[i]);
    if words[q + 2] >> s != 0 {
        return HUGE;
    }
    let v = (u128::from((pair(q + 1) >> s) as u64) << 64) | u128::from((pair(q) >> s) as u64);
    let dropped = words[..q].iter().any(|&w| w != 0) || words[q] & ((1u64 << s) - 1) != 0;
    Approx {
        v,
        err: u128::from(dropped) + table_err(p, fract, r),
    }
}

/// The error the table's rounding leaves in fract · `p` shifted right by `r`: its mantissa
/// is below 5^p5's by less than 2 units of its last bit, so the product by less than
/// 2·fract units, less than 2·fract/2^r + 1 after the shift.
#[inline(always)]
fn table_err(p: Pow5, fract: u64, r: usize) -> u128 {
    if p.exact {
        0
    } else {
        ((2 * u128::from(fract)) >> r.min(127)) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_values_bracket_the_true_ones() {
        // 3 · 5⁻¹ · 2⁰ = 0.6: not exact, just below.
        let x = scaled(pow5(-1).unwrap(), 3, 0);
        let six_tenths = (6u128 << F) / 10;
        assert!(
            x.v <= six_tenths && six_tenths <= x.v + x.err,
            "{} {}",
            x.v,
            x.err
        );
        assert!(x.err <= 3);
        // 5 · 5² · 2⁻³ = 15.625: exact.
        let x = scaled(pow5(2).unwrap(), 5, -3);
        assert_eq!((x.v, x.err), ((125u128 << F) >> 3, 0));
        // 10¹⁸ · 2⁵⁰ does not fit 64 integer bits.
        assert_eq!(scaled(pow5(18).unwrap(), 1, 68).v, u128::MAX);
    }

    #[test]
    fn digits_keep_their_zeros() {
        for n in [
            0,
            7,
            1234567890,
            9_999_999_999_999_999_999,
            1_000_000_000_000_000_000,
        ] {
            assert_eq!(twenty_four_digits(n), *format!("{n:024}").as_bytes(), "{n}");
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

    #[test]
    fn steps_refuse_to_guess() {
        assert_eq!(decide(true, false), Some(true));
        assert_eq!(decide(false, true), Some(false));
        assert_eq!(decide(false, false), None);
    }
}
