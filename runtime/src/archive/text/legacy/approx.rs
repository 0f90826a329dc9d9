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
//!
//! The tests are monotone: as fewer digits are taken, t_k and 10^(19−k) − t_k only grow, so
//! the loop stops at the fewest digits where a test holds. A `double` of 16 or 17 digits
//! (U below about 1,100) stops after the 12th to 18th digit; there [`window`] finds the stop
//! from D ± U at once, without the loop's unpredictable exit, and [`Fixed::steps`] goes a
//! digit at a time otherwise. The digits taken are rounded (Java's `roundup`) as an
//! integer, D with the digits after them zeroed, and converted to ASCII once.

use super::ascii::Ascii24;
use super::pow5::{pow5, Pow5};
use super::{decimal_len, e_form, Digits, Scaled, POW10};

/// Fraction bits of D + f and of U.
const F: i32 = 64;
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

/// The digits of B / S (B = fract·5^b5·2^b2, S = 5^s5·2^s2, M = 5^m5·2^m2, by `start`),
/// rounded as `dtoa` rounds them (`roundup` included). `strict` is Java's `long` path
/// (`b + m > tens`); otherwise its big-integer one (`b + m >= tens`). `None` when a step is
/// too close to call.
#[inline(always)]
pub(super) fn digits(start: &Scaled, strict: bool) -> Option<Digits> {
    let n = Fixed::new(start)?;
    let (n, stop) = match window(&n) {
        Some(stop) => (n, stop),
        None => stepped(start, strict)?,
    };
    finish(&n, start.dec_exp, &stop)
}

/// Where the loop stops by [`Fixed::steps`], and D and U: out of line, for the few values
/// the window leaves (D and U worked out again rather than kept for them).
#[cold]
#[inline(never)]
fn stepped(start: &Scaled, strict: bool) -> Option<(Fixed, Stop)> {
    let n = Fixed::new(start)?;
    let stop = n.steps(start.dec_exp, strict)?;
    Some((n, stop))
}

/// The digits where the loop stops, rounded; `dec_exp` is `start`'s.
#[inline(always)]
fn finish(n: &Fixed, dec_exp: i32, stop: &Stop) -> Option<Digits> {
    let len = stop.k - usize::from(stop.dropped);
    if len == 0 {
        return None;
    }
    let j = 19 - stop.k;
    // The last digit is rounded by the stopping condition: up when only high holds, else
    // by the remainder (a tie to the even digit). Worked out without branches on the
    // (unpredictable) tests.
    let t = (u128::from(stop.tail) << F) | n.f;
    let limit = u128::from(POW10[j]) << F;
    let above = 2 * t > limit;
    let below = 2 * (t + n.x_err) < limit;
    let mut round = stop.high & (!stop.low | above);
    if stop.low & stop.high & !above & !below {
        // A tie, or too close to call.
        if n.x_err != 0 || 2 * t != limit {
            return None;
        }
        round = (n.whole / POW10[j]) & 1 == 1;
    }
    // D with the digits after the k-th zeroed, rounded, then shifted past a dropped zero:
    // the digits taken, followed by zeros.
    let rounded = n.whole - stop.tail + POW10[j] * u64::from(round);
    let mut padded = rounded * if stop.dropped { 10 } else { 1 };
    let mut dec_exponent = dec_exp + 1 - i32::from(stop.dropped);
    if padded == POW10[19] {
        // `roundup`'s carry out of the first digit: `1` and zeros, as many digits as before.
        padded = POW10[18];
        dec_exponent += 1;
    }
    Some(Digits {
        ascii: Ascii24::new(padded),
        len,
        dec_exponent,
    })
}

/// Where the digit loop stops: after the `k`-th digit of D, with the tests `low` and
/// `high` there and `tail` = D mod 10^(19−k) what follows; and whether a leading zero is
/// `dropped` (Java drops a first quotient of 0 that does not stop high: the estimate was
/// one too high).
struct Stop {
    k: usize,
    dropped: bool,
    low: bool,
    high: bool,
    tail: u64,
}

/// D + f = B/S · 10¹⁸ and U = M/S · 10¹⁸ in fixed point: D, f (in units of 2⁻⁶⁴) and the
/// error bound of D + f; U and its integer part.
struct Fixed {
    whole: u64,
    f: u128,
    x_err: u128,
    whole_u: u64,
    u: Approx,
}

impl Fixed {
    /// D + f = fract · `p` · 2^x2 and U = `u`; `None` unless D is known, and in
    /// [10¹⁷, 10¹⁹) (the estimate is at most one too high: the first digit is below 10, and
    /// at most one zero comes before the others).
    #[inline(always)]
    fn of(p: Pow5, fract: u64, x2: i32, u: Approx) -> Option<Fixed> {
        let x = scaled(p, fract, x2)?;
        let top = x.v.checked_add(x.err)?;
        let range = u128::from(POW10[17])..10 * u128::from(POW10[18]);
        // (U errs by at most 3 units: see `power`.)
        if x.err > MAX_ERR || top >> F != x.v >> F || !range.contains(&(top >> F)) {
            return None;
        }
        Some(Fixed {
            whole: (x.v >> F) as u64,
            f: x.v as u64 as u128,
            x_err: x.err,
            // U's integer part (u64::MAX when U is huge) settles most tests without the
            // fractions.
            whole_u: (u.v >> F) as u64,
            u,
        })
    }

    /// Of B, S and M of `start`.
    #[inline(always)]
    fn new(start: &Scaled) -> Option<Fixed> {
        let (fract, [b5, b2, s5, s2, m5, m2]) = (start.fract, start.exponents);
        // Java's M has B's power of five: U is the table's power shifted.
        let p = pow5(b5 - s5 + 18)?;
        let u = if m5 == b5 {
            power(p, m2 - s2 + 18)
        } else {
            power(pow5(m5 - s5 + 18)?, m2 - s2 + 18)
        };
        Fixed::of(p, fract, b2 - s2 + 18, u)
    }

    /// Whether `t` = D mod 10^j (what follows the (19−j)-th digit) may be within U + 2 of 0
    /// or of 10^j: if not, neither test after that digit is true.
    #[inline(always)]
    fn near(&self, t: u64, j: usize) -> bool {
        t < self.whole_u.saturating_add(2) || POW10[j] - t < self.whole_u.saturating_add(3)
    }

    /// The tests `low` and `high` after the digit followed by `tail` < 10^j, `None` when too
    /// close to call. The tail t_k + f is low if it is below U, high if it is within U of
    /// 10^j. Integer parts two apart decide; otherwise, the fixed-point values.
    #[inline(always)]
    fn tests(&self, tail: u64, j: usize, strict: bool) -> Option<(bool, bool)> {
        let (whole_u, u, f) = (self.whole_u, self.u, self.f);
        let rest = POW10[j] - tail;
        let low = if tail + 2 <= whole_u {
            true
        } else if tail >= whole_u.saturating_add(2) {
            false
        } else {
            let t = (u128::from(tail) << F) | f;
            decide(t + self.x_err < u.v, t >= u.v.saturating_add(u.err))?
        };
        let high = if whole_u >= rest + 2 {
            true
        } else if rest >= whole_u.saturating_add(3) {
            false
        } else {
            let sum = ((u128::from(tail) << F) | f).saturating_add(u.v);
            let limit = u128::from(POW10[j]) << F;
            let reached = |sum: u128| if strict { sum > limit } else { sum >= limit };
            decide(
                reached(sum),
                !reached(sum.saturating_add(self.x_err + u.err)),
            )?
        };
        Some((low, high))
    }

    /// Java's loop, a digit at a time, from the first digit whose tests may be true.
    fn steps(&self, dec_exp: i32, strict: bool) -> Option<Stop> {
        let whole = self.whole;
        // As j grows (fewer digits taken), t = D mod 10^j and 10^j − t only grow; so where
        // they are not near, no test before is true either, and the loop can start after
        // those digits.
        let (mut k, mut tail) = if self.near(whole % POW10[12], 12) {
            (0, whole)
        } else {
            (7, whole % POW10[12])
        };
        // A leading zero is dropped when the first digit's tests are false, as they are
        // when the loop starts later.
        let mut dropped = whole < POW10[18];
        loop {
            let q = tail / POW10[18 - k];
            tail -= q * POW10[18 - k];
            k += 1;
            let (mut low, mut high) = self.tests(tail, 19 - k, strict)?;
            if k == 1 {
                dropped = q == 0 && !high;
                // Java's E form takes a second digit whatever the first one's tests.
                if e_form(dec_exp - i32::from(dropped)) {
                    low = false;
                    high = false;
                }
            }
            if low || high {
                return Some(Stop {
                    k,
                    dropped,
                    low,
                    high,
                    tail,
                });
            }
            if k == 19 {
                // More digits than D holds (never for a double).
                return None;
            }
        }
    }
}

/// The stop where a `double` of 16 or 17 digits stops, after the 12th to the 18th digit
/// (U is at most about 1,100 there), found without a loop and its unpredictable exit.
///
/// A test may hold after the (19−j)-th digit when t = D mod 10^j is within U + 2 of 0 or
/// U + 3 of 10^j, that is when a multiple of 10^j lies in (A, B], A = D − (U + 2) and
/// B = D + (U + 2): always when 10^j ≤ B − A = d, else when B mod 10^j < d. With L the
/// number of digits of d, that is B mod 10^L < d and the digits of B from the L-th up zero
/// as far as the j-th; so the stop is after the (19−j)-th digit for j = L − 1 or L plus the
/// zeros of ⌊B / 10^L⌋ at its end. Worked out on D mod 10⁸ when no multiple of 10⁸ lies in
/// (A, B]. `None` when it is further from the end, or too close to call on integer parts;
/// then [`Fixed::steps`] goes a digit at a time.
#[inline(always)]
fn window(n: &Fixed) -> Option<Stop> {
    const E8: u64 = 100_000_000;
    let (whole_u, low8) = (n.whole_u, n.whole % E8);
    if whole_u >= E8 {
        return None;
    }
    // A and B less the multiple of 10⁸ below D, both in [0, 10⁸), or a test may hold
    // earlier.
    let a = low8.checked_sub(whole_u + 2)?;
    let b = low8 + whole_u + 2;
    if b >= E8 {
        return None;
    }
    let d = b - a;
    // L: 2 to 8 for a double.
    let digits = decimal_len(d);
    if digits >= 8 {
        return None;
    }
    let head = div_pow10(b, digits);
    // The zeros at the end of the head, up to 3 (more is rare: the steps take it).
    let last = (head % 10_000) as u32;
    if last == 0 {
        return None;
    }
    let zeros = [10, 100, 1000]
        .map(|p| usize::from(last.is_multiple_of(p)))
        .iter()
        .sum::<usize>();
    let j = if b - head * POW10[digits] < d {
        digits + zeros
    } else {
        digits - 1
    };
    if j == 0 || j >= 8 {
        return None;
    }
    // There both tests must be known, one of them true.
    let tail = low8 - div_pow10(low8, j) * POW10[j];
    let rest = POW10[j] - tail;
    let low = tail + 2 <= whole_u;
    let high = whole_u >= rest + 2;
    let low_known = low || tail >= whole_u + 2;
    let high_known = high || rest >= whole_u + 3;
    if !(low || high) || !low_known || !high_known {
        return None;
    }
    Some(Stop {
        k: 19 - j,
        // The first digit's tests are false.
        dropped: n.whole < POW10[18],
        low,
        high,
        tail,
    })
}

/// ⌊x / 10^j⌋ for x < 10⁸ and 1 ≤ j ≤ 7, by a multiplication: x·M / 2⁵¹ with
/// M = ⌊2⁵¹/10^j⌋ + 1, which is x / 10^j plus less than x / 2⁵¹ < 2⁻²⁴, too little to
/// reach the next integer from x / 10^j (at most 1 − 10⁻⁷ past one).
#[inline(always)]
fn div_pow10(x: u64, j: usize) -> u64 {
    const RECIPROCALS: [u64; 8] = {
        let mut r = [0; 8];
        let mut j = 1;
        while j < 8 {
            r[j] = (1 << 51) / POW10[j] + 1;
            j += 1;
        }
        r
    };
    ((u128::from(x) * u128::from(RECIPROCALS[j])) >> 51) as u64
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

/// fract · `p` · 2^p2 in 64.64 fixed point, rounded down: fract · mant (of 2¹²⁷ to 2¹⁸¹)
/// shifted right by r. `None` unless 0 ≤ r < 64 and the result fits, as D + f always does
/// (D from 10¹⁷ to 10¹⁹ is 2¹²⁰ to 2¹²⁸ units): with r of 64 or more the value is below
/// 2¹¹⁷ units.
#[inline(always)]
fn scaled(p: Pow5, fract: u64, p2: i32) -> Option<Approx> {
    // fract · mant: three words, least significant first.
    let low_product = u128::from(p.mant as u64) * u128::from(fract);
    let high_product = (p.mant >> 64) * u128::from(fract);
    let middle = (low_product >> 64) + (high_product as u64 as u128);
    let (w0, w1) = (low_product as u64, middle as u64);
    let w2 = ((high_product >> 64) + (middle >> 64)) as u64;
    // The value in units of 2^-F is the product times 2^-r.
    let r = -(p.exp + p2 + F);
    if !(0..64).contains(&r) || w2 >> r != 0 {
        return None;
    }
    // Funnel shifts of word pairs.
    let pair = |high: u64, low: u64| ((u128::from(high) << 64 | u128::from(low)) >> r) as u64;
    let v = u128::from(pair(w2, w1)) << 64 | u128::from(pair(w1, w0));
    let dropped = w0 & ((1u64 << r) - 1) != 0;
    Some(Approx {
        v,
        err: u128::from(dropped) + table_err(p, fract, r as usize),
    })
}

/// `p` · 2^p2 in 64.64 fixed point, rounded down; [`HUGE`] if it does not fit. It errs by
/// at most 3 units (see [`table_err`]), far within [`MAX_ERR`].
#[inline(always)]
fn power(p: Pow5, p2: i32) -> Approx {
    // The value in units of 2^-F is mant times 2^shift.
    let shift = p.exp + p2 + F;
    if shift > 0 {
        // At least 2¹²⁷ (mant is) times 2: more than fits.
        return HUGE;
    }
    let r = (-shift) as usize;
    let (v, dropped) = if r >= 128 {
        (0, true)
    } else {
        (p.mant >> r, (p.mant.trailing_zeros() as usize) < r)
    };
    Approx {
        v,
        err: u128::from(dropped) + table_err(p, 1, r),
    }
}

/// The error the table's rounding leaves in fract · `p` shifted right by `r`: its mantissa
/// is below 5^p5's by less than 2 units of its last bit, so the product by less than
/// 2·fract units, less than 2·fract/2^r + 1 after the shift.
#[inline(always)]
fn table_err(p: Pow5, fract: u64, r: usize) -> u128 {
    // 2·fract < 2⁶⁴ (fract has at most 53 bits).
    let below = if r < 64 { (2 * fract) >> r } else { 0 };
    u128::from(!p.exact) * u128::from(below + 1)
}

#[cfg(test)]
mod tests {
    use super::super::{plan, pow5, unpack_double, Path, Plan};
    use super::*;

    #[test]
    fn scaled_values_bracket_the_true_ones() {
        // 3 · 5⁻¹ · 2⁶⁴ = 0.6 · 2⁶⁴: not exact, just below (0.6 · 2¹²⁸ units, which is
        // 3 · (2¹²⁸ − 1)/5 + 3/5).
        let x = scaled(pow5(-1).unwrap(), 3, 64).unwrap();
        let six_tenths = u128::MAX / 5 * 3;
        assert!(
            x.v <= six_tenths && six_tenths <= x.v + x.err,
            "{} {}",
            x.v,
            x.err
        );
        assert!(x.err <= 3);
        // 5 · 5² · 2⁻³ = 15.625: exact.
        let x = scaled(pow5(2).unwrap(), 5, -3).unwrap();
        assert_eq!((x.v, x.err), ((125u128 << F) >> 3, 0));
        // 0.6 is far below D's range, and 10¹⁸ · 2⁵⁰ does not fit 64 integer bits.
        assert!(scaled(pow5(-1).unwrap(), 3, 0).is_none());
        assert!(scaled(pow5(18).unwrap(), 1, 68).is_none());
        // The same for a power alone.
        let u = power(pow5(2).unwrap(), -3);
        assert_eq!((u.v, u.err), ((25u128 << F) >> 3, 0));
        let u = power(pow5(-1).unwrap(), 0);
        let fifth = (u128::MAX / 5) >> 64;
        assert!(u.v <= fifth && fifth <= u.v + u.err);
        assert_eq!(power(pow5(18).unwrap(), 68).v, u128::MAX);
        assert_eq!(power(pow5(-40).unwrap(), -40).v, 0);
        for e in pow5::MIN..=pow5::MAX {
            for p2 in -400..400 {
                assert!(power(pow5(e).unwrap(), p2).err <= 3, "{e} {p2}");
            }
        }
    }

    #[test]
    fn powers_of_ten_divide_exactly() {
        for (j, &p) in POW10.iter().enumerate().take(8).skip(1) {
            for x in (0..100_000_000).step_by(997).chain([99_999_999, p - 1, p]) {
                assert_eq!(div_pow10(x, j), x / p, "{x} {j}");
            }
        }
    }

    /// The window decides where nearly every `double` of 16 or 17 digits stops, on every
    /// path that takes the fixed-point loop, and where it does, the steps agree.
    #[test]
    fn window_decides_most_doubles_as_the_steps_do() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let (mut tried, mut decided) = (0, 0);
        for i in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            let v = (1.0 + 9.0 * unit) * 10f64.powi(i % 600 - 300);
            let (bin_exp, fract, bits) = unpack_double(v);
            let Plan::Loop(s) = plan(bin_exp, fract, bits) else {
                continue;
            };
            let Some(n) = Fixed::new(&s) else {
                continue;
            };
            tried += 1;
            if let Some(w) = window(&n) {
                decided += 1;
                let steps = n
                    .steps(s.dec_exp, s.path == Path::Long)
                    .expect("decided on integer parts");
                assert_eq!(
                    (w.k, w.dropped, w.low, w.high, w.tail),
                    (steps.k, steps.dropped, steps.low, steps.high, steps.tail),
                    "{v:e}"
                );
            }
        }
        assert!(
            tried > 45_000 && decided > tried * 99 / 100,
            "{decided} of {tried}"
        );
    }

    #[test]
    fn steps_refuse_to_guess() {
        assert_eq!(decide(true, false), Some(true));
        assert_eq!(decide(false, true), Some(false));
        assert_eq!(decide(false, false), None);
    }
}
