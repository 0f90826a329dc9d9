//! `Double.toString` / `Float.toString` of JDK 19+, appended to a byte buffer.
//!
//! The digits come from [`zmij`], which computes the shortest decimal that reads back to the
//! same value, the closest one to it when several are equally short. That is exactly Java's
//! choice except for one rule (see [`super::two_digits`]). Why zmij: no crate prints Java's
//! layout, but the shortest-digits problem is solved; zmij (Schubfach with the xjb
//! refinements, by the author of the `ryu` crate, and what `serde_json` now uses) gives the same
//! digits as `ryu` (its test suite checks that) and is faster, and the hot path of the CSV
//! writer prints one `double` per small record. It only exposes text, so we read its digits and
//! exponent back from that short, fixed-shape text and lay them out Java's way; all of this
//! runs on the stack.

use super::two_digits;

/// The longest text [`push_double`] or [`push_float`] appends, in bytes
/// (`-2.2250738585072014E-308`).
pub const MAX_LEN: usize = 24;

/// Significant digits (ASCII, no leading or trailing zero) and the exponent of the first:
/// the value is `d₁.d₂d₃… × 10^exp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Decimal {
    pub(super) digits: [u8; 20],
    pub(super) len: usize,
    pub(super) exp: i32,
}

impl Decimal {
    /// Reads the digits of zmij's text for a positive finite non-zero value: one of
    /// `1234.5`, `0.00012345`, `12340000.0`, `1.2345e-7`, `1e+16`.
    fn from_shortest(text: &[u8]) -> Decimal {
        let mut d = Decimal {
            digits: [b'0'; 20],
            len: 0,
            exp: 0,
        };
        let mut seen = 0i32; // digits read, leading zeros included
        let mut leading_zeros = 0i32;
        let mut point = None;
        let mut stored = 0usize; // digits from the first non-zero one on
        let mut exp10 = 0i32;
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            match b {
                b'0'..=b'9' => {
                    seen += 1;
                    if stored == 0 && b == b'0' {
                        leading_zeros += 1;
                    } else {
                        // zmij prints at most 17 significant digits; what follows them in
                        // its plain form (`12340000000.0`) are zeros, dropped below.
                        if stored < d.digits.len() {
                            d.digits[stored] = b;
                        }
                        stored += 1;
                        if b != b'0' {
                            d.len = stored.min(d.digits.len());
                        }
                    }
                }
                b'.' => point = Some(seen),
                b'e' | b'E' => {
                    let mut negative = false;
                    for &b in &text[i + 1..] {
                        match b {
                            b'-' => negative = true,
                            b'0'..=b'9' => exp10 = exp10 * 10 + i32::from(b - b'0'),
                            _ => {}
                        }
                    }
                    if negative {
                        exp10 = -exp10;
                    }
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        d.exp = point.unwrap_or(seen) - leading_zeros - 1 + exp10;
        d
    }
}

/// Appends `Double.toString(v)` (JDK 19+) to `out`; allocation-free when `out` has
/// [`MAX_LEN`] bytes of spare capacity.
///
/// Java picks the shortest decimal that reads back as `v`, the one closest to `v` among those;
/// when that decimal has a single digit, it takes the closest of one or two digits instead
/// (`2 * Double.MIN_VALUE` prints `9.9E-324`, not `1.0E-323`).
///
/// ```
/// use hadoop_record::archive::text::push_double;
/// let mut out = Vec::new();
/// for v in [1.0, -0.0, 123456789.0, 1e-3, 9.99e-4, 1e23, f64::MIN_POSITIVE, f64::NAN] {
///     push_double(&mut out, v);
///     out.push(b' ');
/// }
/// assert_eq!(out, &b"1.0 -0.0 1.23456789E8 0.001 9.99E-4 1.0E23 2.2250738585072014E-308 NaN "[..]);
/// ```
#[inline]
pub fn push_double(out: &mut Vec<u8>, v: f64) {
    let mut buf = [0u8; MAX_LEN];
    let n = format_double(v, &mut buf);
    // A fixed-size copy (inlined) and a truncation beat a variable-length memcpy call.
    out.extend_from_slice(&buf);
    out.truncate(out.len() - (MAX_LEN - n));
}

/// Appends `Float.toString(v)` (JDK 19+) to `out`: the same rules as [`push_double`], with the
/// digits `float` needs (`0.1f` prints `0.1`, `Float.MIN_VALUE` prints `1.4E-45`).
///
/// Hadoop's CSV archive does not use this: it prints a `float` with
/// `push_double(out, v as f64)`.
///
/// ```
/// use hadoop_record::archive::text::push_float;
/// let mut out = Vec::new();
/// push_float(&mut out, 1.17549435e-38);
/// assert_eq!(out, b"1.1754944E-38");
/// ```
#[inline]
pub fn push_float(out: &mut Vec<u8>, v: f32) {
    let mut buf = [0u8; MAX_LEN];
    let n = format_float(v, &mut buf);
    // A fixed-size copy (inlined) and a truncation beat a variable-length memcpy call.
    out.extend_from_slice(&buf);
    out.truncate(out.len() - (MAX_LEN - n));
}

/// `Double.toString(v)` (JDK 19+) as a `String`; see [`push_double`].
///
/// ```
/// assert_eq!(hadoop_record::archive::text::double_to_string(0.1 + 0.2), "0.30000000000000004");
/// ```
pub fn double_to_string(v: f64) -> String {
    let mut out = Vec::with_capacity(MAX_LEN);
    push_double(&mut out, v);
    // Every byte written is ASCII.
    String::from_utf8(out).unwrap_or_default()
}

/// `Float.toString(v)` (JDK 19+) as a `String`; see [`push_float`].
///
/// ```
/// assert_eq!(hadoop_record::archive::text::float_to_string(123456789.0), "1.2345679E8");
/// ```
pub fn float_to_string(v: f32) -> String {
    let mut out = Vec::with_capacity(MAX_LEN);
    push_float(&mut out, v);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes `Double.toString(v)` into `buf`, returning its length.
#[inline]
fn format_double(v: f64, buf: &mut [u8; MAX_LEN]) -> usize {
    let negative = v.is_sign_negative();
    if let Some(n) = special(v.is_nan(), v.is_infinite(), v == 0.0, negative, buf) {
        return n;
    }
    let bits = v.to_bits();
    let subnormal = ((bits >> 52) & 0x7ff == 0).then_some((bits & ((1 << 52) - 1), 1074));
    let mut shortest = zmij::Buffer::new();
    let text = shortest.format_finite(v).as_bytes();
    java_text(
        text,
        negative,
        (1e-3..1e7).contains(&v.abs()),
        subnormal,
        buf,
    )
}

/// Writes `Float.toString(v)` into `buf`, returning its length.
#[inline]
fn format_float(v: f32, buf: &mut [u8; MAX_LEN]) -> usize {
    let negative = v.is_sign_negative();
    if let Some(n) = special(v.is_nan(), v.is_infinite(), v == 0.0, negative, buf) {
        return n;
    }
    let bits = v.to_bits();
    let subnormal = ((bits >> 23) & 0xff == 0).then_some((u64::from(bits & ((1 << 23) - 1)), 149));
    let mut shortest = zmij::Buffer::new();
    let text = shortest.format_finite(v).as_bytes();
    java_text(
        text,
        negative,
        (1e-3..1e7).contains(&v.abs()),
        subnormal,
        buf,
    )
}

/// Turns zmij's text of a finite non-zero value into Java's. `java_plain` says whether the
/// value is in Java's plain range; `subnormal` gives the significand and scale (`n · 2^-bin`)
/// of a subnormal value, which may need the two-digit rule.
///
/// zmij writes the same digits in one of two shapes: plain (`-12.5`, `0.00012`, `1234000.0`,
/// for decimal exponents −5..=15, −6..=12 for `f32`) or `1.2345e-7` / `1e+16`. Within Java's
/// plain range (exponents −3..=6) its plain text is Java's text, byte for byte; its scientific
/// text needs only `E`, no `+`, and `.0` after a lone digit. Anything else (zmij's plain text
/// outside Java's plain range, or the two-digit rule) goes through [`Decimal`].
#[inline]
fn java_text(
    text: &[u8],
    negative: bool,
    java_plain: bool,
    subnormal: Option<(u64, u32)>,
    buf: &mut [u8; MAX_LEN],
) -> usize {
    let sign = usize::from(negative);
    let len = text.len();
    // In scientific form the exponent is short: `e-7` to `e+308`.
    let e = (len.saturating_sub(5)..len.saturating_sub(2))
        .rev()
        .find(|&i| text[i] == b'e');
    match e {
        None if java_plain && len <= MAX_LEN => {
            buf[..len].copy_from_slice(text);
            return len;
        }
        Some(e) if !(java_plain || (subnormal.is_some() && e == sign + 1)) => {
            // One copy of the whole text, then the exponent rewritten in place (short,
            // fixed-size moves rather than more memcpy calls).
            buf[..len].copy_from_slice(text);
            let exp_negative = text[e + 1] == b'-';
            let mut exp = [b'0'; 3];
            let exp_len = len - e - 2;
            for (k, slot) in exp.iter_mut().enumerate() {
                if k < exp_len {
                    *slot = text[e + 2 + k];
                }
            }
            let mut i = e;
            if e == sign + 1 {
                buf[i] = b'.';
                buf[i + 1] = b'0';
                i += 2;
            }
            buf[i] = b'E';
            buf[i + 1] = b'-';
            i += 1 + usize::from(exp_negative);
            buf[i..i + 3].copy_from_slice(&exp);
            return i + exp_len;
        }
        _ => {}
    }
    let mut d = Decimal::from_shortest(&text[sign..]);
    if let (1, Some((n, bin))) = (d.len, subnormal) {
        d = two_digits::closest(n, bin, d);
    }
    layout(negative, &d, buf)
}

/// `NaN`, `Infinity`, `-Infinity`, `0.0`, `-0.0`.
#[inline]
fn special(
    nan: bool,
    infinite: bool,
    zero: bool,
    negative: bool,
    buf: &mut [u8; MAX_LEN],
) -> Option<usize> {
    let text: &[u8] = if nan {
        b"NaN"
    } else if infinite {
        if negative {
            b"-Infinity"
        } else {
            b"Infinity"
        }
    } else if zero {
        if negative {
            b"-0.0"
        } else {
            b"0.0"
        }
    } else {
        return None;
    };
    buf[..text.len()].copy_from_slice(text);
    Some(text.len())
}

/// Java's layout of `d`: plain for 10⁻³ ≤ |d| < 10⁷, `d.dddE±n` otherwise; at least one
/// digit after the point.
fn layout(negative: bool, d: &Decimal, buf: &mut [u8; MAX_LEN]) -> usize {
    let digits = &d.digits[..d.len];
    let mut i = 0;
    if negative {
        buf[0] = b'-';
        i = 1;
    }
    let mut put = |bytes: &[u8], i: &mut usize| {
        buf[*i..*i + bytes.len()].copy_from_slice(bytes);
        *i += bytes.len();
    };
    if (0..7).contains(&d.exp) {
        let int_len = d.exp as usize + 1;
        if digits.len() > int_len {
            put(&digits[..int_len], &mut i);
            put(b".", &mut i);
            put(&digits[int_len..], &mut i);
        } else {
            put(digits, &mut i);
            put(&b"000000"[..int_len - digits.len()], &mut i);
            put(b".0", &mut i);
        }
    } else if (-3..0).contains(&d.exp) {
        put(&b"0.00"[..(1 - d.exp) as usize], &mut i);
        put(digits, &mut i);
    } else {
        put(&digits[..1], &mut i);
        put(b".", &mut i);
        if digits.len() > 1 {
            put(&digits[1..], &mut i);
        } else {
            put(b"0", &mut i);
        }
        put(b"E", &mut i);
        if d.exp < 0 {
            put(b"-", &mut i);
        }
        let e = d.exp.unsigned_abs();
        if e >= 100 {
            put(&[b'0' + (e / 100) as u8], &mut i);
        }
        if e >= 10 {
            put(&[b'0' + (e / 10 % 10) as u8], &mut i);
        }
        put(&[b'0' + (e % 10) as u8], &mut i);
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shortest(text: &str) -> (String, i32) {
        let d = Decimal::from_shortest(text.as_bytes());
        (
            String::from_utf8(d.digits[..d.len].to_vec()).unwrap(),
            d.exp,
        )
    }

    #[test]
    fn reads_every_shape_of_zmij_text() {
        assert_eq!(shortest("1234.5"), ("12345".into(), 3));
        assert_eq!(shortest("0.00012345"), ("12345".into(), -4));
        assert_eq!(shortest("12340000000.0"), ("1234".into(), 10));
        assert_eq!(shortest("1000000000000000.0"), ("1".into(), 15));
        assert_eq!(shortest("1.2345e-7"), ("12345".into(), -7));
        assert_eq!(shortest("1e+16"), ("1".into(), 16));
        assert_eq!(shortest("5e-324"), ("5".into(), -324));
        assert_eq!(shortest("1.7976931348623157e+308").1, 308);
    }

    #[test]
    fn layout_switches_at_java_thresholds() {
        let cases: &[(f64, &str)] = &[
            (1e7, "1.0E7"),
            (9999999.0, "9999999.0"),
            (1234567.5, "1234567.5"),
            (0.001, "0.001"),
            (0.00123, "0.00123"),
            (9.99e-4, "9.99E-4"),
            (100.0, "100.0"),
            (1.0, "1.0"),
            (-12.5, "-12.5"),
            (1e21, "1.0E21"),
            (1e-10, "1.0E-10"),
            (1.5e-100, "1.5E-100"),
            (f64::MAX, "1.7976931348623157E308"),
            (-f64::MIN_POSITIVE, "-2.2250738585072014E-308"),
        ];
        for &(v, text) in cases {
            assert_eq!(double_to_string(v), text, "{v:e}");
        }
    }

    #[test]
    fn longest_text_fits() {
        assert_eq!(double_to_string(-f64::MIN_POSITIVE).len(), MAX_LEN);
        assert_eq!(double_to_string(-1.2345678901234567e-3).len(), 22);
    }
}
