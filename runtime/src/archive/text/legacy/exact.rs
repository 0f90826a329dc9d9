//! `dtoa`'s big-integer digit loop (Java's `FDBigInteger` path), in exact arithmetic.
//!
//! Java takes this path when B or 10·S may not fit a `long`. Every step is exact there
//! (`quoRemIteration` is q = ⌊B/S⌋, B = 10·(B mod S)), so any exact arithmetic gives the
//! same digits: `u128` when B, 10·S and 10·M fit with room to spare (values up to about
//! 10³⁵ and down to about 10⁻¹⁹), fixed-size multi-word integers otherwise. Java also scales
//! all four by a power of two to help its quotient estimate; that changes no comparison and is
//! left out.

use std::cmp::Ordering;

use super::digit_loop::{develop, DigitLoop};
use super::{Decimal, Scaled, Stop};

/// What the digit loop needs of a number type.
trait Exact: Sized + Clone {
    /// `quoRemIteration`: returns q = ⌊self / s⌋ and sets self to 10·(self mod s).
    fn quo_rem_iteration(&mut self, s: &Self) -> i64;
    /// self · 10.
    fn mul10(&mut self);
    /// self − other, for self ≥ other.
    fn minus(&self, other: &Self) -> Self;
    /// The order of self and other.
    fn compare(&self, other: &Self) -> Ordering;
}

/// The digits of B / S (B = fract·5^b5·2^b2, S = 5^s5·2^s2 and M = 5^m5·2^m2, by `start`)
/// with Java's big-integer stopping test.
#[cold]
#[inline(never)]
pub(super) fn digits(d: &mut Decimal, dec_exp: &mut i32, start: &Scaled) -> Stop {
    let (fract, [b5, b2, s5, s2, m5, m2]) = (start.fract, start.exponents);
    // Bits of B (fract has at most 53), 10·S and 10·M, at most.
    let b_bits = 53 + pow5_bits(b5) + b2;
    let ten_s_bits = pow5_bits(s5 + 1) + s2 + 1;
    let ten_m_bits = pow5_bits(m5 + 1) + m2 + 1;
    if b_bits.max(ten_s_bits).max(ten_m_bits) <= U128_BITS {
        let pow52 = |p5: i32, p2: i32| POW5_U128[p5 as usize] << p2;
        let b = Small(u128::from(fract) * pow52(b5, b2));
        let s = Small(pow52(s5, s2));
        let m = Small(pow52(m5 + 1, m2 + 1));
        let tens = Small(pow52(s5 + 1, s2 + 1));
        develop(d, dec_exp, ExactLoop { b, s, m, tens })
    } else {
        let b = Big::mul_pow52(fract, b5, b2);
        let s = Big::mul_pow52(1, s5, s2);
        let m = Big::mul_pow52(1, m5 + 1, m2 + 1);
        let mut tens = s.clone();
        tens.mul10();
        develop(d, dec_exp, ExactLoop { b, s, m, tens })
    }
}

/// B, S, 10·M (Java's `Mval`) and 10·S of the big-integer loop.
struct ExactLoop<N> {
    b: N,
    s: N,
    m: N,
    tens: N,
}

impl<N: Exact> DigitLoop for ExactLoop<N> {
    // B < 10·S after each step, so B + M ≥ 10·S is 10·S − B ≤ M, and the sign of 2·B − 10·S
    // that of B − (10·S − B).
    #[inline]
    fn step(&mut self, first: bool) -> (i64, bool, bool) {
        let q = self.b.quo_rem_iteration(&self.s);
        if !first {
            self.m.mul10();
        }
        let rest = self.tens.minus(&self.b);
        let low = self.b.compare(&self.m) == Ordering::Less;
        let high = rest.compare(&self.m) != Ordering::Greater;
        (q, low, high)
    }

    fn low_digit_difference(&self, low: bool, high: bool) -> i64 {
        if high && low {
            self.b.compare(&self.tens.minus(&self.b)) as i64
        } else {
            0
        }
    }
}

/// Bits of 5^p5, at most: ⌊p5 · 2.32227⌋ + 1 (log₂ 5 = 2.32193).
fn pow5_bits(p5: i32) -> i32 {
    ((p5 * 2378) >> 10) + 1
}

/// The widest B, 10·S or 10·M the `u128` loop takes: B < 10·S, and 10·M grows at most
/// tenfold past B, so every value stays below 2¹²⁶.
const U128_BITS: i32 = 122;

/// 5ⁱ for every i whose bits [`pow5_bits`] puts within [`U128_BITS`].
const POW5_U128: [u128; 53] = powers!(u128; 53, 5);

/// A `u128` in the loop.
#[derive(Clone, Copy)]
struct Small(u128);

impl Exact for Small {
    #[inline(always)]
    fn quo_rem_iteration(&mut self, s: &Self) -> i64 {
        let (b, s) = (self.0, s.0);
        // q < 10 (below 16 whatever the estimate): four shift-and-subtract steps instead of
        // a 128-bit division.
        let (q, r) = if b >> 4 >= s {
            (b / s, b % s)
        } else {
            let mut q = 0;
            let mut r = b;
            for k in (0..4).rev() {
                if r >= s << k {
                    r -= s << k;
                    q |= 1 << k;
                }
            }
            (q, r)
        };
        self.0 = r * 10;
        q as i64
    }

    #[inline(always)]
    fn mul10(&mut self) {
        self.0 *= 10;
    }

    #[inline(always)]
    fn minus(&self, other: &Self) -> Self {
        Small(self.0 - other.0)
    }

    #[inline(always)]
    fn compare(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

/// Words of a [`Big`]: B, 10·S and 10·M stay below 2⁸⁴⁰ (the largest are B = f·5³²⁴ of the
/// smallest subnormals, about 2⁸¹⁰, and S = 5³⁰⁸·2ⁿ of the largest doubles), with room for
/// the tenfold steps.
const WORDS: usize = 16;

/// A non-negative integer of up to [`WORDS`] 64-bit words, least significant first.
#[derive(Clone)]
struct Big {
    words: [u64; WORDS],
    /// Words in use: the ones above are zero.
    len: usize,
}

impl Big {
    /// value · 5^p5 · 2^p2.
    fn mul_pow52(value: u64, p5: i32, p2: i32) -> Big {
        /// 5²⁷, the largest power of five in a `u64`.
        const POW5_27: u64 = 7_450_580_596_923_828_125;
        let mut x = Big {
            words: [0; WORDS],
            len: 1,
        };
        x.words[0] = value;
        let mut p5 = p5.max(0);
        while p5 >= 27 {
            x.mul_small(POW5_27);
            p5 -= 27;
        }
        x.mul_small(5u64.pow(p5 as u32));
        x.shl(p2.max(0) as usize);
        x
    }

    /// self · k.
    fn mul_small(&mut self, k: u64) {
        let mut carry = 0u128;
        for w in &mut self.words[..self.len] {
            let t = u128::from(*w) * u128::from(k) + carry;
            *w = t as u64;
            carry = t >> 64;
        }
        self.push(carry as u64);
    }

    /// Appends a most significant word, unless it is zero.
    fn push(&mut self, word: u64) {
        if word != 0 && self.len < WORDS {
            self.words[self.len] = word;
            self.len += 1;
        }
    }

    /// self · 2^bits.
    fn shl(&mut self, bits: usize) {
        let (words, bits) = (bits / 64, bits % 64);
        let len = (self.len + words).min(WORDS);
        let mut carry = 0;
        if bits != 0 {
            for w in &mut self.words[..self.len] {
                let next = *w >> (64 - bits);
                *w = (*w << bits) | carry;
                carry = next;
            }
        }
        self.words.copy_within(..len - words, words);
        self.words[..words].fill(0);
        self.len = len;
        self.push(carry);
    }

    /// The 128 bits of self from bit `at` on.
    fn bits_at(&self, at: usize) -> u128 {
        let (i, shift) = (at / 64, at % 64);
        let word = |k: usize| u128::from(self.words.get(k).copied().unwrap_or(0));
        let low = word(i) | word(i + 1) << 64;
        if shift == 0 {
            low
        } else {
            low >> shift | word(i + 2) << (128 - shift)
        }
    }

    fn bit_len(&self) -> usize {
        match self.len {
            0 => 0,
            n => n * 64 - self.words[n - 1].leading_zeros() as usize,
        }
    }

    /// Drops zero words at the top.
    fn trim(&mut self) {
        while self.len > 0 && self.words[self.len - 1] == 0 {
            self.len -= 1;
        }
    }
}

impl Exact for Big {
    fn quo_rem_iteration(&mut self, s: &Self) -> i64 {
        // Estimate from the top 64 bits of S: too large by at most one, since S's top word
        // is at least 2⁶³ and B < 16·S.
        let at = s.bit_len().saturating_sub(64);
        let top_s = s.bits_at(at) as u64;
        let mut q = self.bits_at(at) / u128::from(top_s.max(1));
        // self − q·S, adding S back while it is negative.
        let mut borrow = 0i128;
        let mut carry = 0u128;
        let len = self.len.max(s.len);
        for i in 0..len {
            let product = u128::from(s.words[i]) * q + carry;
            carry = product >> 64;
            let t = i128::from(self.words[i]) - i128::from(product as u64) + borrow;
            self.words[i] = t as u64;
            borrow = t >> 64;
        }
        let mut negative = borrow - carry as i128 != 0;
        self.len = len;
        while negative && q > 0 {
            let mut c = 0u128;
            for i in 0..len {
                let t = u128::from(self.words[i]) + u128::from(s.words[i]) + c;
                self.words[i] = t as u64;
                c = t >> 64;
            }
            negative = c == 0;
            q -= 1;
        }
        self.trim();
        self.mul_small(10);
        q as i64
    }

    fn mul10(&mut self) {
        self.mul_small(10);
    }

    fn minus(&self, other: &Self) -> Self {
        let mut r = self.clone();
        let mut borrow = 0;
        for i in 0..r.len {
            let (t, b1) = r.words[i].overflowing_sub(other.words[i]);
            let (t, b2) = t.overflowing_sub(borrow);
            r.words[i] = t;
            borrow = u64::from(b1 || b2);
        }
        r.trim();
        r
    }

    fn compare(&self, other: &Self) -> Ordering {
        self.len.cmp(&other.len).then_with(|| {
            self.words[..self.len]
                .iter()
                .rev()
                .cmp(other.words[..other.len].iter().rev())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: u128) -> Big {
        let mut b = Big {
            words: [0; WORDS],
            len: 2,
        };
        b.words[0] = v as u64;
        b.words[1] = (v >> 64) as u64;
        b.trim();
        b
    }

    fn value(b: &Big) -> u128 {
        assert!(b.len <= 2);
        b.bits_at(0)
    }

    #[test]
    fn big_and_u128_agree() {
        let s_values = [
            1u128,
            7,
            10,
            1 << 63,
            (1 << 64) + 1,
            3 << 100,
            u128::MAX / 20,
        ];
        for &s in &s_values {
            for &k in &[0u128, 1, 5, 9] {
                for &extra in &[0u128, 1, s / 2, s - 1] {
                    let b = s * k + extra.min(s - 1);
                    let (mut x, mut y) = (Small(b), big(b));
                    let qx = x.quo_rem_iteration(&Small(s));
                    let qy = y.quo_rem_iteration(&big(s));
                    assert_eq!((qx, x.0), (qy, value(&y)), "{b} / {s}");
                    assert_eq!(qx as u128, b / s);
                }
            }
        }
    }

    #[test]
    fn powers_are_exact() {
        // 5^30 · 2^70, and its bits where they are.
        let x = Big::mul_pow52(3, 30, 70);
        let want = 3 * 5u128.pow(30);
        assert_eq!(x.bits_at(70), want);
        assert_eq!(x.bits_at(0) & ((1 << 70) - 1), 0);
        assert_eq!(x.bit_len(), 70 + (128 - want.leading_zeros() as usize));
        assert!(pow5_bits(52) < U128_BITS && 5u128.pow(52).leading_zeros() > 0);
    }
}
