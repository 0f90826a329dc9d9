//! Java's two-digit rule for values whose shortest decimal has one digit.
//!
//! The JDK 19+ specification of `Double.toString` (and `Float.toString`): among the decimals
//! that read back as `x`, take those of minimal length m; when m = 1, take those of length 1 or
//! 2 instead; then the one closest to `x` (ties: the even last digit). Shortest-digits libraries
//! stop at one digit, so `Double.MIN_VALUE` comes out as `5e-324` where Java prints `4.9E-324`.
//!
//! When does the rule change the result? The one-digit decimal D = d·10^k reads back as `x`, so
//! it is within half an ulp of `x`; another two-digit decimal is closer to `x` only if it is
//! within one ulp of D, and the two-digit decimals around D are at least 10^(k−2) apart. So the
//! rule matters only where 10^(k−2) < ulp: ulps that large relative to `x` are those of the
//! smallest subnormals, `x` < 10⁻³²¹ for `double` (ulp 2⁻¹⁰⁷⁴ ≈ 4.9·10⁻³²⁴: significands
//! below 203) and `x` < 10⁻⁴² for `float` (ulp 2⁻¹⁴⁹ ≈ 1.4·10⁻⁴⁵: below 714). For every other
//! value the one-digit decimal is the answer ([`SIGNIFICANDS`] bounds the ones to look at).
//!
//! For those few hundred values, `x` = n·2^-bin, and what is needed is x·10^p rounded, for the
//! p that brings it into [10, 100): n times 10^p/2^bin, a constant for each of the four p each
//! type needs, in 112-bit fixed point. Its error, below n·2⁻¹¹², cannot move a rounding that
//! close to a half: checked for every one of these values against Java's text in
//! `tests/fixtures/java-float-text/classes_jdk_modern.tsv`, which holds them all.

/// Fraction bits of the scales.
const FRAC: u32 = 112;

/// Significands (of a subnormal: `n · 2^-bin`) below which the rule may apply: for `double`
/// (`bin` = 1074) and `float` (149).
pub(super) const SIGNIFICANDS: (u64, u64) = (256, 1024);

/// `(p, 10^p / 2^1074 · 2^112)`, p descending: x·10^p ∈ [10, 100) for the first p where
/// it is below 100, for every significand below 256.
const DOUBLE: [(i32, u128); 4] = [
    (325, 0x3168149dd886f8a4f1c262dcc14906),
    (324, 0x4f0cedc95a718dd4b603d1613541a),
    (323, 0x7e7b160ef71c162123394f01eecf),
    (322, 0xca5e89b18b602368385bb19cb14),
];

/// `(p, 10^p / 2^149 · 2^112)`, likewise for every `float` significand below 1024.
const FLOAT: [(i32, u128); 4] = [
    (46, 0xe0352f62a19e306ed50b2037ad200),
    (45, 0x166bb7f0435c9e717bb4500591500),
    (44, 0x23df8cb39efa971bf9208008e880),
    (43, 0x3965adec3190f1c65b673341740),
];

/// The decimal of one or two digits closest to `n · 2^-bin` (`bin` 1074 for `double`, 149 for
/// `float`), as `(d₁, d₂, exp)`: d₁.d₂ × 10^exp. `None` for a significand of
/// [`SIGNIFICANDS`] or more, where the one-digit shortest decimal stands.
pub(super) fn closest(n: u64, bin: u32) -> Option<(u8, u8, i32)> {
    let (scales, limit) = if bin == 1074 {
        (&DOUBLE, SIGNIFICANDS.0)
    } else {
        (&FLOAT, SIGNIFICANDS.1)
    };
    if n == 0 || n >= limit {
        return None;
    }
    let half = 1u128 << (FRAC - 1);
    for &(p, scale) in scales {
        // Below 2^126: n < 2^10 and every scale below 2^118.
        let scaled = u128::from(n) * scale;
        let c = (scaled >> FRAC) as u64;
        if c >= 100 {
            continue;
        }
        // Round to an integer, ties to even.
        let fraction = scaled & ((1 << FRAC) - 1);
        let c = c + u64::from(fraction > half || (fraction == half && c % 2 == 1));
        return Some(if c == 100 {
            (1, 0, 2 - p)
        } else {
            ((c / 10) as u8, (c % 10) as u8, 1 - p)
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_values_get_two_digits() {
        // 2^-1074 = 4.940656…e-324: shortest is 5e-324, Java prints 4.9E-324.
        assert_eq!(closest(1, 1074), Some((4, 9, -324)));
        // 2·2^-1074 = 9.88…e-324: shortest is 1e-323, Java prints 9.9E-324.
        assert_eq!(closest(2, 1074), Some((9, 9, -324)));
        // 2^-149 = 1.4012984…e-45.
        assert_eq!(closest(1, 149), Some((1, 4, -45)));
    }

    #[test]
    fn the_scales_are_ten_apart_and_cover_every_significand() {
        for (scales, bin, limit) in [(&DOUBLE, 1074, 256), (&FLOAT, 149, 1024)] {
            for pair in scales.windows(2) {
                assert_eq!(pair[0].0, pair[1].0 + 1);
                let ratio = pair[0].1 as f64 / pair[1].1 as f64;
                assert!((ratio - 10.0).abs() < 1e-12, "{ratio}");
            }
            for n in 1..limit {
                let (d1, _, exp) = closest(n, bin).expect("in range");
                assert!((1..=9).contains(&d1), "{n}");
                // d₁.d₂ × 10^exp is x = n · 2^-bin, to two digits.
                let mantissa = (n as f64).log10() - f64::from(bin) * std::f64::consts::LOG10_2;
                let lead = mantissa - f64::from(exp);
                assert!((-0.01..1.0).contains(&lead), "{n}: {lead}");
            }
            assert_eq!(closest(limit, bin), None);
            assert_eq!(closest(0, bin), None);
        }
    }
}
