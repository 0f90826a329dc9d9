//! Java's two-digit rule for values whose shortest decimal has one digit.
//!
//! The JDK 19+ specification of `Double.toString` (and `Float.toString`): among the decimals
//! that read back as `x`, take those of minimal length m; when m = 1, take those of length 1 or
//! 2 instead; then the one closest to `x` (ties: the even last digit). Shortest-digits libraries
//! stop at one digit, so `Double.MIN_VALUE` comes out as `5e-324` where Java prints `4.9E-324`.
//!
//! The rule only changes the result when two-digit decimals are finer than the rounding
//! interval of `x`, i.e. when that interval spans more than about 1% of `x`. For a normal value
//! the interval is below 2⁻²³ of it, so only subnormals with a small significand are affected;
//! their rounding interval is symmetric (`x ± 2^-1075`, or `± 2^-150` for `float`), so the
//! two-digit decimal closest to `x`, which is at least as close as the one-digit one, also reads
//! back as `x`. Finding it needs `x / 10^q` exactly; that takes a 1,100-bit integer, which is
//! small enough to do by hand here on this rare path.

use super::write::Decimal;

/// 64-bit limbs, little-endian: room for `n · 10^p < 1000 · 2^1074`.
const LIMBS: usize = 18;

/// The decimal of one or two digits closest to `n · 2^-bin` (a subnormal: `bin` is 1074 for
/// `double`, 149 for `float`), given `shortest`, its one-digit shortest decimal.
pub(super) fn closest(n: u64, bin: u32, shortest: Decimal) -> Decimal {
    // x ≈ d·10^exp, so x·10^(1-exp) is near 10·d: find p with 10 ≤ x·10^p < 100.
    let mut p = 1 - shortest.exp;
    if p <= 0 {
        return shortest;
    }
    let mut big = times_pow10(n, p as u32);
    for _ in 0..8 {
        let c = bits_from(&big, bin);
        if c < 10 {
            // One digit short (the shortest decimal rounded up to a power of ten).
            scale(&mut big, 10);
            p += 1;
            continue;
        }
        if c >= 100 {
            p -= 1;
            big = times_pow10(n, p as u32);
            continue;
        }
        // Round x·10^p to an integer, ties to even.
        let half = bit(&big, bin - 1);
        let below_half = any_below(&big, bin - 1);
        let c = c + u64::from(half && (below_half || c % 2 == 1));
        let mut d = Decimal {
            digits: [b'0'; 20],
            len: 0,
            exp: 0,
        };
        if c == 100 {
            d.digits[0] = b'1';
            d.len = 1;
            d.exp = 2 - p;
        } else {
            d.digits[0] = b'0' + (c / 10) as u8;
            d.digits[1] = b'0' + (c % 10) as u8;
            d.len = if c.is_multiple_of(10) { 1 } else { 2 };
            d.exp = 1 - p;
        }
        return d;
    }
    // Unreachable for a subnormal with a one-digit shortest decimal; keep that decimal.
    shortest
}

/// `n · 10^p` as a little-endian multi-limb integer.
fn times_pow10(n: u64, mut p: u32) -> [u64; LIMBS] {
    let mut big = [0u64; LIMBS];
    big[0] = n;
    while p > 0 {
        let step = p.min(19);
        scale(&mut big, 10u64.pow(step));
        p -= step;
    }
    big
}

/// `big *= factor`, over the limbs in use only (the top ones stay zero until reached).
fn scale(big: &mut [u64; LIMBS], factor: u64) {
    let used = LIMBS - big.iter().rev().take_while(|&&l| l == 0).count();
    let mut carry = 0u128;
    for limb in big[..(used + 1).min(LIMBS)].iter_mut() {
        let product = u128::from(*limb) * u128::from(factor) + carry;
        *limb = product as u64;
        carry = product >> 64;
    }
}

/// `big >> shift`, saturated to `u64::MAX` when it does not fit.
fn bits_from(big: &[u64; LIMBS], shift: u32) -> u64 {
    let limb = (shift / 64) as usize;
    let offset = shift % 64;
    if big[limb + 1..].iter().skip(1).any(|&l| l != 0) {
        return u64::MAX;
    }
    let high = big.get(limb + 1).copied().unwrap_or(0);
    if offset == 0 {
        if high != 0 {
            return u64::MAX;
        }
        return big[limb];
    }
    if high >> offset != 0 {
        return u64::MAX;
    }
    (big[limb] >> offset) | (high << (64 - offset))
}

/// Bit `index` of `big`.
fn bit(big: &[u64; LIMBS], index: u32) -> bool {
    big[(index / 64) as usize] >> (index % 64) & 1 == 1
}

/// Whether any bit below `index` is set.
fn any_below(big: &[u64; LIMBS], index: u32) -> bool {
    let limb = (index / 64) as usize;
    let mask = (1u64 << (index % 64)) - 1;
    big[..limb].iter().any(|&l| l != 0) || big[limb] & mask != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_digit(digit: u8, exp: i32) -> Decimal {
        let mut d = Decimal {
            digits: [b'0'; 20],
            len: 1,
            exp,
        };
        d.digits[0] = b'0' + digit;
        d
    }

    fn text(d: Decimal) -> (String, i32) {
        (
            String::from_utf8(d.digits[..d.len].to_vec()).unwrap(),
            d.exp,
        )
    }

    #[test]
    fn double_min_value_gets_two_digits() {
        // 2^-1074 = 4.940656…e-324: shortest is 5e-324, Java prints 4.9E-324.
        assert_eq!(
            text(closest(1, 1074, one_digit(5, -324))),
            ("49".into(), -324)
        );
        // 2·2^-1074 = 9.88…e-324: shortest is 1e-323, Java prints 9.9E-324.
        assert_eq!(
            text(closest(2, 1074, one_digit(1, -323))),
            ("99".into(), -324)
        );
    }

    #[test]
    fn float_min_value_gets_two_digits() {
        // 2^-149 = 1.4012984…e-45.
        assert_eq!(text(closest(1, 149, one_digit(1, -45))), ("14".into(), -45));
    }

    #[test]
    fn big_integer_helpers() {
        let exact = 3 * 10u128.pow(37);
        let top = 127 - exact.leading_zeros();
        let big = times_pow10(3, 37);
        assert_eq!(big[0], exact as u64);
        assert_eq!(big[1], (exact >> 64) as u64);
        assert_eq!(bits_from(&big, 120), (exact >> 120) as u64);
        assert_eq!(bits_from(&big, 10), u64::MAX);
        assert!(bit(&big, top));
        assert!(!bit(&big, top + 1));
        assert!(!any_below(&big, 0));
        assert!(any_below(&big, 64));
        assert_eq!(bits_from(&times_pow10(7, 0), 0), 7);
        assert_eq!(bits_from(&times_pow10(7, 1), 64), 0);
    }
}
