//! Java's hexadecimal floating-point literals (`0x1.8p1`), rounded to nearest-even.
//!
//! The standard library has no hex-float parser, and the rounding is short to do exactly: keep
//! the first 57 to 60 significant bits of the significand plus a sticky bit for the rest, then
//! round once to the target precision, subnormals and overflow included.

use crate::archive::hex::digit;

/// An IEEE binary format.
#[derive(Debug, Clone, Copy)]
pub(super) struct Format {
    /// Significand bits, the implicit one included (53, 24).
    precision: u32,
    /// Exponent of the smallest normal value (−1022, −126); also the bias is `max_exp`.
    min_exp: i64,
    /// Exponent of the largest finite value (1023, 127).
    max_exp: i64,
}

impl Format {
    pub(super) const DOUBLE: Format = Format {
        precision: 53,
        min_exp: -1022,
        max_exp: 1023,
    };
    pub(super) const FLOAT: Format = Format {
        precision: 24,
        min_exp: -126,
        max_exp: 127,
    };

    /// The bits of positive infinity.
    pub(super) fn infinity_bits(&self) -> u64 {
        ((2 * self.max_exp + 1) as u64) << (self.precision - 1)
    }
}

/// Parses what follows `0x` of a hex float — `HexDigits[.HexDigits]` (a digit on at least one
/// side of the point) then `p`/`P`, an optionally signed decimal exponent, and an optional
/// `f`/`F`/`d`/`D` — returning the IEEE bits of its magnitude in `format`. Errors are
/// `(offset in text, reason)`.
pub(super) fn parse(text: &[u8], format: &Format) -> Result<u64, (usize, &'static str)> {
    let mut significand = 0u64;
    // value = (significand + sticky·ε) · 2^exp
    let mut exp = 0i64;
    let mut sticky = false;
    let mut push = |digit: u8, fraction: bool| {
        if significand == 0 && digit == 0 {
            if fraction {
                exp -= 4;
            }
        } else if significand < 1 << 56 {
            significand = significand << 4 | u64::from(digit);
            if fraction {
                exp -= 4;
            }
        } else {
            sticky |= digit != 0;
            if !fraction {
                exp += 4;
            }
        }
    };

    let mut i = 0;
    let mut digits = 0;
    while let Some(d) = text.get(i).and_then(|&b| digit(b)) {
        push(d, false);
        digits += 1;
        i += 1;
    }
    if text.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = text.get(i).and_then(|&b| digit(b)) {
            push(d, true);
            digits += 1;
            i += 1;
        }
    }
    if digits == 0 {
        return Err((i, "expected a hex digit"));
    }
    if !matches!(text.get(i), Some(b'p' | b'P')) {
        return Err((i, "expected `p` and a binary exponent"));
    }
    i += 1;
    let negative_exp = text.get(i) == Some(&b'-');
    if matches!(text.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let exp_start = i;
    let mut binary_exp = 0i64;
    while let Some(&b) = text.get(i).filter(|b| b.is_ascii_digit()) {
        binary_exp = (binary_exp * 10 + i64::from(b - b'0')).min(1 << 50);
        i += 1;
    }
    if i == exp_start {
        return Err((i, "expected exponent digits"));
    }
    if i < text.len() && !(i + 1 == text.len() && matches!(text[i], b'f' | b'F' | b'd' | b'D')) {
        return Err((i, "unexpected character"));
    }
    if significand == 0 {
        return Ok(0);
    }
    exp += if negative_exp {
        -binary_exp
    } else {
        binary_exp
    };
    Ok(round(significand, sticky, exp, format))
}

/// The IEEE bits of `(significand + sticky·ε) · 2^exp` rounded to nearest-even in `format`,
/// where `0 < significand < 2^60` and ε is below one unit of the significand.
fn round(significand: u64, sticky: bool, exp: i64, format: &Format) -> u64 {
    let precision = i64::from(format.precision);
    let len = i64::from(64 - significand.leading_zeros());
    // Exponent of the leading bit.
    let lead = exp + len - 1;
    if lead > format.max_exp {
        return format.infinity_bits();
    }
    // Bits the result keeps: all of them for a normal value, fewer below the normal range.
    let keep = if lead >= format.min_exp {
        precision
    } else {
        precision - (format.min_exp - lead)
    };
    if keep < 0 {
        // Below half the smallest subnormal.
        return 0;
    }
    let shift = len - keep; // ≤ 60, since keep ≥ 0
    let mut q = if shift > 0 {
        let q = significand >> shift;
        let rest = significand & ((1 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let up = rest > half || (rest == half && (sticky || q & 1 == 1));
        q + u64::from(up)
    } else {
        // Fewer bits than the precision: exact (sticky is only set past 56 bits).
        significand << -shift
    };
    let mut lsb_exp = lead + 1 - keep;
    if q == 1 << precision {
        q >>= 1;
        lsb_exp += 1;
    }
    let fraction_bits = format.precision - 1;
    if q >> fraction_bits == 0 {
        // Subnormal (or zero): the exponent field is 0.
        return q;
    }
    let top = lsb_exp + precision - 1;
    if top > format.max_exp {
        return format.infinity_bits();
    }
    let biased = (top + format.max_exp) as u64;
    biased << fraction_bits | (q & ((1 << fraction_bits) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(text: &str) -> f64 {
        f64::from_bits(parse(text.as_bytes(), &Format::DOUBLE).unwrap())
    }

    fn float(text: &str) -> f32 {
        f32::from_bits(parse(text.as_bytes(), &Format::FLOAT).unwrap() as u32)
    }

    #[test]
    fn exact_values() {
        assert_eq!(double("1.8p1"), 3.0);
        assert_eq!(double("1p0"), 1.0);
        assert_eq!(double("1.p0"), 1.0);
        assert_eq!(double(".8p1"), 1.0);
        assert_eq!(double("0.0000000000001p-1022"), f64::from_bits(1));
        assert_eq!(double("1.fffffffffffffp1023"), f64::MAX);
        assert_eq!(double("1p-1022"), f64::MIN_POSITIVE);
        assert_eq!(double("ABCDEFp0D"), 11259375.0);
        assert_eq!(double("0p99999999999999999999"), 0.0);
        assert_eq!(float("1.fffffep127"), f32::MAX);
        assert_eq!(float("1p-149"), f32::from_bits(1));
    }

    #[test]
    fn rounds_to_nearest_even() {
        // Halfway between 1 and its successor: to even (1).
        assert_eq!(double("1.00000000000008p0"), 1.0);
        // Halfway between 1+ulp and 1+2ulp: to even (1+2ulp).
        assert_eq!(double("1.00000000000018p0"), 1.0 + 2.0 * f64::EPSILON);
        // Just above halfway, the excess far beyond 60 bits.
        assert_eq!(
            double("1.000000000000080000000000000000001p0"),
            1.0 + f64::EPSILON
        );
        // Half the smallest subnormal is a tie with zero: zero; a bit more rounds up.
        assert_eq!(double("1p-1075"), 0.0);
        assert_eq!(double("1.0000000000001p-1075"), f64::from_bits(1));
        assert_eq!(double("1.8p-1075"), f64::from_bits(1));
        assert_eq!(double("1.8p-1074"), f64::from_bits(2));
        assert_eq!(double("1p-1076"), 0.0);
        // The largest subnormal rounds up into the normal range.
        assert_eq!(double("0.fffffffffffff8p-1022"), f64::MIN_POSITIVE);
        // Overflow after rounding.
        assert_eq!(double("1.fffffffffffff8p1023"), f64::INFINITY);
        assert_eq!(double("1.fffffffffffff7ffp1023"), f64::MAX);
        assert_eq!(double("1p1024"), f64::INFINITY);
        assert_eq!(float("1.ffffffp127"), f32::INFINITY);
        assert_eq!(float("1.000001p0"), 1.0);
        assert_eq!(float("1.000003p0"), 1.0 + 2.0 * f32::EPSILON);
        assert_eq!(float("1p-150"), 0.0);
        assert_eq!(float("1.8p-150"), f32::from_bits(1));
    }

    #[test]
    fn leading_and_trailing_zeros_keep_the_scale() {
        assert_eq!(double("0000.0000001p28"), 1.0);
        assert_eq!(double("10000000000000000000000p-88"), 1.0);
        assert_eq!(
            double("1000000000000000000000000000000000000000000000000000p-204"),
            1.0
        );
    }

    #[test]
    fn refuses_malformed() {
        let err = |text: &str| parse(text.as_bytes(), &Format::DOUBLE).unwrap_err();
        assert_eq!(err("p1"), (0, "expected a hex digit"));
        assert_eq!(err(".p1"), (1, "expected a hex digit"));
        assert_eq!(err("1"), (1, "expected `p` and a binary exponent"));
        assert_eq!(err("1.8"), (3, "expected `p` and a binary exponent"));
        assert_eq!(err("1p"), (2, "expected exponent digits"));
        assert_eq!(err("1p+"), (3, "expected exponent digits"));
        assert_eq!(err("1p1x"), (3, "unexpected character"));
        assert_eq!(err("1p1ff"), (3, "unexpected character"));
        assert_eq!(err("1g"), (1, "expected `p` and a binary exponent"));
    }
}
