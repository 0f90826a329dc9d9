//! 5ᵉ for −[`MIN`]…[`MAX`] as 128-bit binary floating point, rounded down: the table of
//! [`super::approx`], computed at compile time.

/// The most negative exponent in the table (`double`'s decimal exponents reach −308;
/// [`super::approx`] adds 18).
pub(super) const MIN: i32 = -310;
/// The largest exponent (B's reach 5³²⁴ for the smallest subnormals; [`super::approx`]
/// scales by 10¹⁸ more).
pub(super) const MAX: i32 = 345;

/// 5ᵉ = `mant` · 2^`exp` · (1 + δ) with 0 ≤ δ < 2⁻¹²⁶ (0 when `exact`), `mant` in
/// [2¹²⁷, 2¹²⁸).
#[derive(Clone, Copy)]
pub(super) struct Pow5 {
    pub mant: u128,
    pub exp: i32,
    pub exact: bool,
}

/// 5ᵉ, or `None` outside the table.
#[inline(always)]
pub(super) fn pow5(e: i32) -> Option<Pow5> {
    TABLE.get((e - MIN) as usize).copied()
}

const LEN: usize = (MAX - MIN + 1) as usize;

/// A 256-bit mantissa, least significant word first, with its top bit set.
type Wide = [u64; 4];

/// The top 128 bits of `w`.
const fn top(w: &Wide) -> u128 {
    ((w[3] as u128) << 64) | w[2] as u128
}

/// Whether the low 128 bits of `w` are zero.
const fn low_zero(w: &Wide) -> bool {
    w[0] == 0 && w[1] == 0
}

/// `w` · 5 / 2^s, rounded down, with s (2 or 3) the shift that keeps the top bit set; returns
/// s and whether bits were dropped.
const fn times_five(w: &mut Wide) -> (i32, bool) {
    // w · 5 has 258 or 259 bits: five words.
    let mut p = [0u64; 5];
    let mut carry = 0u128;
    let mut i = 0;
    while i < 4 {
        let t = w[i] as u128 * 5 + carry;
        p[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
    p[4] = carry as u64;
    let s = if p[4] >> 2 != 0 { 3 } else { 2 };
    let dropped = p[0] & ((1 << s) - 1) != 0;
    let mut i = 0;
    while i < 4 {
        w[i] = (p[i] >> s) | (p[i + 1] << (64 - s));
        i += 1;
    }
    (s, dropped)
}

/// `w` · 2^s / 5, rounded down, with s (2 or 3) the shift that keeps the top bit set.
const fn div_five(w: &mut Wide) -> i32 {
    // w · 2^s, five words, then long division by 5 from the top.
    let s = if top(w) >= (5u128 << 125) { 2 } else { 3 };
    let mut p = [0u64; 5];
    p[4] = w[3] >> (64 - s);
    let mut i = 3;
    while i > 0 {
        p[i] = (w[i] << s) | (w[i - 1] >> (64 - s));
        i -= 1;
    }
    p[0] = w[0] << s;
    let mut rem = 0u128;
    let mut q = [0u64; 5];
    let mut i = 5;
    while i > 0 {
        i -= 1;
        let cur = (rem << 64) | p[i] as u128;
        q[i] = (cur / 5) as u64;
        rem = cur % 5;
    }
    let mut i = 0;
    while i < 4 {
        w[i] = q[i];
        i += 1;
    }
    s
}

static TABLE: [Pow5; LEN] = {
    let blank = Pow5 {
        mant: 0,
        exp: 0,
        exact: false,
    };
    let mut t = [blank; LEN];
    // 5⁰ = 2²⁵⁵ · 2⁻²⁵⁵.
    let one: Wide = [0, 0, 0, 1 << 63];
    let zero = (-MIN) as usize;
    t[zero] = Pow5 {
        mant: top(&one),
        exp: -127,
        exact: true,
    };
    // Upwards: every step rounds down, so the 256-bit mantissa stays below the true one by
    // less than one unit per step, far below the 128 bits kept.
    let mut w = one;
    let mut exp = -255;
    let mut exact = true;
    let mut e = 1;
    while e <= MAX {
        let (s, dropped) = times_five(&mut w);
        exp += s;
        exact = exact && !dropped;
        t[zero + e as usize] = Pow5 {
            mant: top(&w),
            exp: exp + 128,
            exact: exact && low_zero(&w),
        };
        e += 1;
    }
    // Downwards: never exact; the error stays below a few hundred units of 2⁻²⁵⁶, since
    // the normalization keeps every mantissa within a factor of two of the last.
    let mut w = one;
    let mut exp = -255;
    let mut e = 1;
    while e <= -MIN {
        let s = div_five(&mut w);
        exp -= s;
        t[zero - e as usize] = Pow5 {
            mant: top(&w),
            exp: exp + 128,
            exact: false,
        };
        e += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of `p` as an f64 (mantissa rounded).
    fn approx(p: Pow5) -> f64 {
        (p.mant as f64) * 2f64.powi(p.exp)
    }

    #[test]
    fn exact_powers_are_exact() {
        for e in 0..=55 {
            let p = pow5(e).unwrap();
            assert!(p.exact, "{e}");
            assert_eq!(
                p.mant >> p.mant.trailing_zeros(),
                5u128.pow(e as u32),
                "{e}"
            );
            assert!(p.mant >> 127 == 1);
        }
        assert!(!pow5(56).unwrap().exact);
        assert!(!pow5(-1).unwrap().exact);
    }

    #[test]
    fn every_entry_is_close_and_normalized() {
        for e in MIN..=MAX {
            let p = pow5(e).unwrap();
            assert!(p.mant >> 127 == 1, "{e}");
            let want = 5f64.powi(e);
            if want.is_normal() {
                let got = approx(p);
                assert!((got / want - 1.0).abs() < 1e-15, "{e}: {got} {want}");
            }
        }
        // 5⁻¹ = 0.2 = 0.0011 0011…₂: the mantissa is 0xcccc…c, rounded down.
        let fifth = pow5(-1).unwrap();
        assert_eq!(fifth.mant, u128::MAX / 5 * 4);
        assert_eq!(fifth.exp, -130);
        assert!(pow5(MIN - 1).is_none() && pow5(MAX + 1).is_none());
    }
}
