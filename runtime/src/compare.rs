//! Java's orderings, which Hadoop's `compareTo` and `TreeMap` use and Rust's do not match.

use std::cmp::Ordering;

use crate::field::Field;
use crate::java_bits::{double_to_long_bits, float_to_int_bits};

/// Java's `String.compareTo` order: by UTF-16 code units.
///
/// It differs from `str`'s order (code points, equal to UTF-8 byte order) only where a
/// supplementary character (a surrogate pair in UTF-16) meets one in U+E000..=U+FFFF:
/// Java sorts U+1F600 before U+FF5E.
///
/// ```
/// use std::cmp::Ordering;
/// use hadoop_record::compare::utf16_cmp;
/// assert_eq!(utf16_cmp("\u{1F600}", "\u{FF5E}"), Ordering::Less);
/// assert_eq!("\u{1F600}".cmp("\u{FF5E}"), Ordering::Greater);
/// ```
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let common = ab.iter().zip(bb).take_while(|(x, y)| x == y).count();
    if common == ab.len() || common == bb.len() {
        return ab.len().cmp(&bb.len());
    }
    // Back up to the start of the characters that differ.
    let mut start = common;
    while !a.is_char_boundary(start) {
        start -= 1;
    }
    let ca = a[start..].chars().next().unwrap_or_default();
    let cb = b[start..].chars().next().unwrap_or_default();
    first_utf16_unit(ca)
        .cmp(&first_utf16_unit(cb))
        .then_with(|| ca.cmp(&cb))
}

#[inline]
fn first_utf16_unit(c: char) -> u32 {
    let c = c as u32;
    if c >= 0x1_0000 {
        0xD800 + ((c - 0x1_0000) >> 10)
    } else {
        c
    }
}

/// Whether a UTF-8 string may sort differently under [`utf16_cmp`] than under `str::cmp`:
/// only strings with a supplementary character can.
#[inline]
pub fn has_supplementary(s: &str) -> bool {
    s.bytes().any(|b| b >= 0xF0)
}

/// Hadoop's generated `compareTo` for numbers: `(a == b) ? 0 : ((a < b) ? -1 : 1)`.
///
/// So −0.0 equals 0.0, and NaN compares greater than everything, itself included, in both
/// directions.
#[inline]
pub fn hadoop_cmp<T: PartialOrd>(a: &T, b: &T) -> Ordering {
    if a == b {
        Ordering::Equal
    } else if a < b {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Java's `Float.compare`, the order of `float` keys in a `TreeMap`: −0.0 < 0.0, and NaN
/// equals itself and is greater than +∞.
#[inline]
pub fn java_f32_total_cmp(a: f32, b: f32) -> Ordering {
    java_total_cmp(a, b, |x| float_to_int_bits(x) as i32)
}

/// Java's `Double.compare`, the order of `double` keys in a `TreeMap`.
#[inline]
pub fn java_f64_total_cmp(a: f64, b: f64) -> Ordering {
    java_total_cmp(a, b, |x| double_to_long_bits(x) as i64)
}

/// Java's `compare` of a floating-point type: the numeric order, and where that does not
/// decide (equal values, NaN) the order of the signed canonical `bits`.
#[inline]
fn java_total_cmp<F: PartialOrd + Copy, B: Ord>(a: F, b: F, bits: impl Fn(F) -> B) -> Ordering {
    a.partial_cmp(&b)
        .filter(|o| o.is_ne())
        .unwrap_or_else(|| bits(a).cmp(&bits(b)))
}

/// Hadoop's order as Rust's `PartialOrd` needs it: what a record with `#[record(ord)]` or
/// `#[record(partial_ord)]` (and every record `rcc` generates) implements.
///
/// Where Hadoop's `compareTo` ([`Field::cmp_hadoop`]) says less or greater, so does this.
/// Where it has no answer that an order could give — a NaN, which Hadoop calls greater than
/// everything in both directions — this is `None`, as for `f64`. Where Hadoop says equal but
/// the values are not `==` (maps with the same keys and other values: Hadoop's map order
/// ignores the values), the values decide ([`Field::partial_cmp_ties`]). So `Some(Equal)`
/// means `==`, as `PartialOrd` and `Ord` require, and sorting agrees with Hadoop's.
///
/// ```
/// use std::cmp::Ordering;
/// use std::collections::BTreeMap;
/// use hadoop_record::compare::partial_cmp;
/// // UTF-16 order: U+1F600 sorts before U+FF5E, unlike `str`'s order.
/// assert_eq!(partial_cmp(&"\u{1F600}".to_string(), &"\u{FF5E}".to_string()), Some(Ordering::Less));
/// assert_eq!(partial_cmp(&f64::NAN, &1.0), None);
/// // Hadoop compares maps by their keys; equal keys leave it to the values.
/// let (a, b) = (BTreeMap::from([(1, 1), (3, 0)]), BTreeMap::from([(2, 0)]));
/// assert_eq!(partial_cmp(&a, &b), Some(Ordering::Less));
/// let c = BTreeMap::from([(1, 2), (3, 0)]);
/// assert_eq!(partial_cmp(&a, &c), Some(Ordering::Less));
/// ```
///
/// [`Field::cmp_hadoop`]: crate::field::Field::cmp_hadoop
/// [`Field::partial_cmp_ties`]: crate::field::Field::partial_cmp_ties
#[inline]
pub fn partial_cmp<T: Field>(a: &T, b: &T) -> Option<Ordering> {
    match a.partial_cmp_hadoop(b) {
        Some(Ordering::Equal) => a.partial_cmp_ties(b),
        o => o,
    }
}

/// [`partial_cmp`] for types with no float inside, where it is a total order: what `Ord`
/// of a record with `#[record(ord)]` returns.
#[inline]
pub fn total_cmp<T: Field>(a: &T, b: &T) -> Ordering {
    // Without floats neither half returns `None`; equal is then the one answer that keeps
    // `Ord` consistent with `Eq` should a hand-written `Field` return it anyway.
    partial_cmp(a, b).unwrap_or(Ordering::Equal)
}

/// Sorts `items` stably by `cmp`, never panicking whatever `cmp` returns.
///
/// Java's `compareTo` is not a total order once NaN is involved (NaN compares greater in
/// both directions), and a record with a NaN field can be a map key; `slice::sort_by` may
/// panic on such a comparison (it checks), so map keys are sorted with this plain merge
/// sort instead. For a consistent `cmp` it gives what `sort_by` gives.
pub fn sort_by_java<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    fn merge<T>(items: Vec<T>, cmp: &impl Fn(&T, &T) -> Ordering) -> Vec<T> {
        if items.len() <= 1 {
            return items;
        }
        let mut left = items;
        let right = left.split_off(left.len() / 2);
        let (left, right) = (merge(left, cmp), merge(right, cmp));
        let mut out = Vec::with_capacity(left.len() + right.len());
        let mut right = right.into_iter().peekable();
        for x in left {
            while let Some(y) = right.next_if(|y| cmp(y, &x).is_lt()) {
                out.push(y);
            }
            out.push(x);
        }
        out.extend(right);
        out
    }
    // Already in order (the common case for a BTreeMap or values read from Java): no work.
    if items.windows(2).all(|w| cmp(&w[0], &w[1]).is_le()) {
        return;
    }
    *items = merge(std::mem::take(items), &cmp);
}

#[cfg(test)]
mod tests {
    use super::*;
    use Ordering::*;

    #[test]
    fn utf16_order_differs_only_for_supplementary_against_high_bmp() {
        assert_eq!(utf16_cmp("abc", "abd"), Less);
        assert_eq!(utf16_cmp("ab", "abc"), Less);
        assert_eq!(utf16_cmp("", ""), Equal);
        assert_eq!(utf16_cmp("é", "e"), Greater);
        assert_eq!(utf16_cmp("x\u{1F600}", "x\u{E000}"), Less);
        assert_eq!(utf16_cmp("\u{1F600}", "\u{1F601}"), Less);
        assert_eq!(utf16_cmp("\u{10000}", "\u{D7FF}"), Greater);
        // Different lead bytes, same first UTF-16 unit class.
        assert_eq!(utf16_cmp("\u{20000}", "\u{1F600}"), Greater);
    }

    #[test]
    fn utf16_cmp_agrees_with_encode_utf16() {
        let samples = [
            "",
            "a",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
            "\u{D7FF}",
            "\u{E000}",
            "\u{FF5E}",
            "\u{FFFD}",
            "\u{10000}",
            "\u{1F600}",
            "\u{10FFFF}",
            "a\u{1F600}b",
            "a\u{FF5E}",
        ];
        for a in samples {
            for b in samples {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(utf16_cmp(a, b), want, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn hadoop_number_order() {
        assert_eq!(hadoop_cmp(&-0.0f64, &0.0), Equal);
        assert_eq!(hadoop_cmp(&f64::NAN, &f64::NAN), Greater);
        assert_eq!(hadoop_cmp(&1.0f64, &f64::NAN), Greater);
        assert_eq!(hadoop_cmp(&-1i8, &1i8), Less);
    }

    #[test]
    fn sorting_survives_an_inconsistent_comparison() {
        // NaN "greater" both ways, as Java's compareTo: no panic, non-NaN stay ordered.
        let cmp = |a: &f64, b: &f64| hadoop_cmp(a, b);
        let mut v: Vec<f64> = (0..500)
            .map(|i| {
                if i % 3 == 0 {
                    f64::NAN
                } else {
                    f64::from((i * 7919) % 101)
                }
            })
            .collect();
        sort_by_java(&mut v, cmp);
        let plain: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
        assert_eq!(plain.len(), 333);
        // A consistent comparison sorts stably, as sort_by does.
        let mut pairs: Vec<(u8, usize)> = (0..300).map(|i| ((i * 37 % 11) as u8, i)).collect();
        let mut want = pairs.clone();
        want.sort_by_key(|a| a.0);
        sort_by_java(&mut pairs, |a, b| a.0.cmp(&b.0));
        assert_eq!(pairs, want);
    }

    #[test]
    fn java_total_order_for_map_keys() {
        assert_eq!(java_f32_total_cmp(-0.0, 0.0), Less);
        assert_eq!(java_f32_total_cmp(f32::NAN, f32::INFINITY), Greater);
        assert_eq!(java_f32_total_cmp(f32::NAN, -f32::NAN), Equal);
        assert_eq!(java_f64_total_cmp(-1.0, 2.0), Less);
        assert_eq!(java_f64_total_cmp(0.0, -0.0), Greater);
    }
}
