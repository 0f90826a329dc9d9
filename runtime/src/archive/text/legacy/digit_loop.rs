//! The control flow of `dtoa`'s three digit loops (`int`, `long` and big-integer), which
//! differ only in their arithmetic, and the arithmetic of the `int` and `long` ones.

use std::ops::{Div, Rem};

use super::{e_form, push_digit, Decimal, Scaled, Stop, LONG_5_POW, SMALL_5_POW};

/// The arithmetic of one of Java's digit loops, behind the control flow they share.
pub(super) trait DigitLoop {
    /// One step: the next digit and the stopping tests `low` and `high`. `first` is the step
    /// Java writes out before the loop.
    fn step(&mut self, first: bool) -> (i64, bool, bool);
    /// `lowDigitDifference` once the loop has stopped at `low` and `high`: the sign (or, on
    /// the `int` and `long` paths, the value) of twice the remainder less 10·S.
    fn low_digit_difference(&self, low: bool, high: bool) -> i64;
}

/// Runs the steps of `steps`: a zero first digit drops out (the estimate `dec_exp` was one
/// too high), and the `E` form takes a second digit whatever the first step's tests.
#[inline(always)]
pub(super) fn develop(d: &mut Decimal, dec_exp: &mut i32, mut steps: impl DigitLoop) -> Stop {
    let (q, mut low, mut high) = steps.step(true);
    if q == 0 && !high {
        *dec_exp -= 1;
    } else {
        push_digit(d, q);
    }
    if e_form(*dec_exp) {
        low = false;
        high = false;
    }
    while !low && !high {
        let q;
        (q, low, high) = steps.step(false);
        push_digit(d, q);
    }
    Stop {
        low,
        high,
        low_digit_difference: steps.low_digit_difference(low, high),
    }
}

/// Java's `int` or `long`, in its wrapping arithmetic.
pub(super) trait JavaInt:
    Copy + Ord + Div<Output = Self> + Rem<Output = Self> + Into<i64>
{
    const ZERO: Self;
    const TEN: Self;
    /// 5ⁱ (`FDBigInteger.SMALL_5_POW` or `LONG_5_POW`).
    fn pow5(i: i32) -> Self;
    /// Java's `(int) fractBits` or `(long) fractBits`.
    fn truncate(fract: u64) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_mul(self, other: Self) -> Self;
    fn wrapping_shl(self, bits: u32) -> Self;
}

/// [`JavaInt`] for a primitive (a macro: the two impls differ only in the type and table).
macro_rules! java_int {
    ($t:ty, $pow5:ident) => {
        impl JavaInt for $t {
            const ZERO: Self = 0;
            const TEN: Self = 10;
            #[inline(always)]
            fn pow5(i: i32) -> Self {
                $pow5[i as usize]
            }
            #[inline(always)]
            fn truncate(fract: u64) -> Self {
                fract as $t
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: Self) -> Self {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn wrapping_shl(self, bits: u32) -> Self {
                <$t>::wrapping_shl(self, bits)
            }
        }
    };
}

java_int!(i32, SMALL_5_POW);
java_int!(i64, LONG_5_POW);

/// Java's `int` loop (all of B, S, M and 10·S below 2³¹ by the estimate) or `long` loop (B
/// and 10·S below 2⁶³), in `T`'s wrapping arithmetic, overflows included.
#[inline(never)]
pub(super) fn wrapping_digits<T: JavaInt>(
    d: &mut Decimal,
    dec_exp: &mut i32,
    start: &Scaled,
) -> Stop {
    let [b5, b2, s5, s2, m5, m2] = start.exponents;
    // In range: the path's bound on b_bits bounds b5 (and so m5), and that on ten_s_bits s5,
    // below the table's length.
    let s = T::pow5(s5).wrapping_shl(s2 as u32);
    let steps = Wrapping {
        b: T::truncate(start.fract)
            .wrapping_mul(T::pow5(b5))
            .wrapping_shl(b2 as u32),
        s,
        m: T::pow5(m5).wrapping_shl(m2 as u32),
        tens: s.wrapping_mul(T::TEN),
    };
    develop(d, dec_exp, steps)
}

/// B, S, M and 10·S of the `int` or `long` loop.
struct Wrapping<T> {
    b: T,
    s: T,
    m: T,
    tens: T,
}

impl<T: JavaInt> DigitLoop for Wrapping<T> {
    #[inline(always)]
    fn step(&mut self, first: bool) -> (i64, bool, bool) {
        let q = self.b / self.s;
        self.b = (self.b % self.s).wrapping_mul(T::TEN);
        self.m = self.m.wrapping_mul(T::TEN);
        // Inside the loop Java takes an overflowed M as both tests true.
        if first || self.m > T::ZERO {
            let low = self.b < self.m;
            let high = self.b.wrapping_add(self.m) > self.tens;
            (q.into(), low, high)
        } else {
            (q.into(), true, true)
        }
    }

    #[inline(always)]
    fn low_digit_difference(&self, _low: bool, _high: bool) -> i64 {
        self.b.wrapping_shl(1).wrapping_sub(self.tens).into()
    }
}
