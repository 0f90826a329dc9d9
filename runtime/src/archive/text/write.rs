//! `Double.toString` / `Float.toString` of JDK 19+, appended to a byte buffer.
//!
//! The digits come from [`zmij`], which computes the shortest decimal that reads back to the
//! same value, the closest one to it when several are equally short. That is exactly Java's
//! choice except for one rule (see [`super::two_digits`]). Why zmij: no crate prints Java's
//! layout, but the shortest-digits problem is solved; zmij (Schubfach with the xjb
//! refinements, by the author of the `ryu` crate, and what `serde_json` now uses) gives the same
//! digits as `ryu` (its test suite checks that) and is faster, and the hot path of the CSV
//! writer prints one `double` per small record. It only exposes text, whose shapes are few and
//! fixed: within Java's plain range it is Java's text already, and outside it Java's text is a
//! rearrangement of it, done here with a few fixed-size moves on the stack (see `java_layout`).

use super::two_digits;

/// The longest text [`push_double`] or [`push_float`] appends, in bytes
/// (`-2.2250738585072014E-308`).
pub const MAX_LEN: usize = 24;

/// Room for zmij's text (at most [`MAX_LEN`] bytes) and for the fixed-size 16-byte moves that
/// rearrange it into Java's, which may read and write past the text's end.
pub(super) const ROOM: usize = 48;

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
    push_formatted::<MAX_LEN>(out, |buf| format_double(v, buf));
}

/// Appends what `format` writes at the start of a buffer (it returns the length, at most
/// `LEN`, which is at most [`ROOM`]).
#[inline(always)]
fn push_formatted<const LEN: usize>(
    out: &mut Vec<u8>,
    format: impl FnOnce(&mut [u8; ROOM]) -> usize,
) {
    let start = out.len();
    if out.capacity() - start >= ROOM {
        // Written in place, then cut: a text built elsewhere and copied would be read back
        // right after its bytes were stored, and a load that spans several stores waits
        // until they reach the cache.
        out.extend_from_slice(&[0; ROOM]);
        let n = match (&mut out[start..]).try_into() {
            Ok(buf) => format(buf).min(LEN),
            Err(_) => 0,
        };
        out.truncate(start + n);
    } else {
        let mut buf = [0u8; ROOM];
        let n = format(&mut buf).min(LEN);
        // A fixed-size copy (inlined) and a truncation beat a variable-length memcpy call.
        out.extend_from_slice(&buf[..LEN]);
        out.truncate(start + n);
    }
}

/// Appends the text of `v` that `format` writes for a finite non-zero value, at most `LEN`
/// bytes (the specials are the same in every JDK): how [`super::FloatText`] appends its
/// other texts.
#[inline(always)]
pub(super) fn push_with<const LEN: usize, T: Into<f64> + Copy>(
    out: &mut Vec<u8>,
    v: T,
    format: fn(T, &mut [u8; ROOM]) -> usize,
) {
    push_formatted::<LEN>(out, |buf| {
        let wide: f64 = v.into();
        // One test for the rare cases: zero, infinite or NaN.
        let magnitude = wide.to_bits() & !(1 << 63);
        if magnitude.wrapping_sub(1) < f64::INFINITY.to_bits() - 1 {
            format(v, buf)
        } else {
            special(wide, buf)
        }
    });
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
    push_formatted::<MAX_LEN>(out, |buf| format_float(v, buf));
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
fn format_double(v: f64, buf: &mut [u8; ROOM]) -> usize {
    let bits = v.to_bits();
    let magnitude = bits & !(1 << 63);
    // One test for the rare cases: zero, infinite or NaN.
    if magnitude.wrapping_sub(1) >= f64::INFINITY.to_bits() - 1 {
        return special(v, buf);
    }
    let mut shortest = zmij::Buffer::new();
    let text = shortest.format_finite(v).as_bytes();
    let len = copy_text(buf, text);
    if (1e-3..1e7).contains(&v.abs()) {
        // zmij's plain text, which is Java's.
        return len;
    }
    let tiny = (magnitude < two_digits::SIGNIFICANDS.0).then_some((magnitude, 1074));
    java_layout(buf, len, v < 0.0, tiny)
}

/// Writes `Float.toString(v)` into `buf`, returning its length.
#[inline]
fn format_float(v: f32, buf: &mut [u8; ROOM]) -> usize {
    let bits = v.to_bits();
    let magnitude = bits & !(1 << 31);
    if magnitude.wrapping_sub(1) >= f32::INFINITY.to_bits() - 1 {
        return special(f64::from(v), buf);
    }
    let mut shortest = zmij::Buffer::new();
    let text = shortest.format_finite(v).as_bytes();
    let len = copy_text(buf, text);
    if (1e-3..1e7).contains(&v.abs()) {
        return len;
    }
    let tiny =
        (u64::from(magnitude) < two_digits::SIGNIFICANDS.1).then_some((u64::from(magnitude), 149));
    java_layout(buf, len, v < 0.0, tiny)
}

/// Copies zmij's text (at most [`MAX_LEN`] bytes) to the start of `buf`, returning its length.
#[inline(always)]
fn copy_text(buf: &mut [u8; ROOM], text: &[u8]) -> usize {
    let len = text.len().min(MAX_LEN);
    buf[..len].copy_from_slice(&text[..len]);
    len
}

/// Turns zmij's text of a finite non-zero value outside Java's plain range (`len` bytes in
/// `buf`) into Java's. `tiny` gives the significand and scale (`n · 2^-bin`) of the smallest
/// subnormals, which may need the two-digit rule.
///
/// zmij writes the same digits as Java in one of two shapes: plain (`-12.5`, `0.00012`,
/// `12340000.0`) for decimal exponents −5..=15 (−6..=12 for `f32`), else `1.2345e-7` /
/// `1e+16`. Within Java's plain range (exponents −3..=6) its plain text is Java's text, byte
/// for byte. Every other case is a rearrangement of that text, done in place with a few
/// fixed-size moves (inlined, unlike `memmove` calls for lengths the compiler cannot know,
/// and without reading the digits one by one): see [`from_scientific`], [`from_plain_large`]
/// and [`from_plain_small`].
#[inline]
fn java_layout(
    buf: &mut [u8; ROOM],
    len: usize,
    negative: bool,
    tiny: Option<(u64, u32)>,
) -> usize {
    let sign = usize::from(negative);
    // In scientific form the exponent is short: `e-7` to `e+308`.
    let e = [3, 4, 5]
        .into_iter()
        .map(|back| len.wrapping_sub(back))
        .find(|&i| i < len && buf[i] == b'e');
    match e {
        None if buf[sign] == b'0' => from_plain_small(buf, sign, len),
        None => from_plain_large(buf, sign, len),
        Some(e) => {
            // A lone digit before `e`: the shortest decimal has one digit.
            let one_digit = tiny.filter(|_| e == sign + 1);
            match one_digit.and_then(|(n, bin)| two_digits::closest(n, bin)) {
                Some(decimal) => two_digit_rule(buf, sign, decimal),
                None => from_scientific(buf, sign, e, len),
            }
        }
    }
}

/// Moves the 16 bytes at `from` to `to` (the ranges may overlap): one fixed-size move.
#[inline(always)]
fn move16(buf: &mut [u8; ROOM], from: usize, to: usize) {
    let mut chunk = [0u8; 16];
    chunk.copy_from_slice(&buf[from..from + 16]);
    buf[to..to + 16].copy_from_slice(&chunk);
}

/// Writes `E` and `exp` (`E7`, `E-324`; |exp| < 1000) at `at`, returning the end. The
/// three digits of |exp| go out in one word, shifted past its leading zeros: no branch on
/// its length, which varies from value to value.
#[inline(always)]
pub(super) fn put_exponent(buf: &mut [u8; ROOM], at: usize, exp: i32) -> usize {
    buf[at] = b'E';
    buf[at + 1] = b'-';
    let i = at + 1 + usize::from(exp < 0);
    let e = exp.unsigned_abs();
    let len = 1 + usize::from(e >= 10) + usize::from(e >= 100);
    // ⌊x/10⌋ = x·205 >> 11 for x < 1029, ⌊x/10⌋ = x·103 >> 10 for x < 100.
    let tens = (e * 205) >> 11;
    let hundreds = (tens * 103) >> 10;
    let digits = hundreds | (tens - hundreds * 10) << 8 | (e - tens * 10) << 16;
    let digits = (digits + 0x30_3030) >> (8 * (3 - len));
    buf[i..i + 4].copy_from_slice(&digits.to_le_bytes());
    i + len
}

/// zmij's `1.2345e-7` or `1e+16` (the `e` at `e`) as Java's `1.2345E-7` or `1.0E16`: `E`
/// for `e`, no `+`, and `.0` after a lone digit.
#[inline(always)]
fn from_scientific(buf: &mut [u8; ROOM], sign: usize, e: usize, len: usize) -> usize {
    let exp_negative = buf[e + 1] == b'-';
    let mut digits = [0u8; 4];
    digits.copy_from_slice(&buf[e + 2..e + 6]);
    let mut i = e;
    if e == sign + 1 {
        buf[i] = b'.';
        buf[i + 1] = b'0';
        i += 2;
    }
    buf[i] = b'E';
    buf[i + 1] = b'-';
    i += 1 + usize::from(exp_negative);
    buf[i..i + 4].copy_from_slice(&digits);
    i + (len - e - 2)
}

/// zmij's plain text of a value of at least 10⁷ (`12345678.9`, `12340000000.0`: 8 to 16
/// digits before the point) as Java's `1.23456789E7`, `1.234E10`.
#[inline(always)]
fn from_plain_large(buf: &mut [u8; ROOM], sign: usize, len: usize) -> usize {
    // The point is one of the 9 bytes from sign + 8 on: find it in one 16-byte word.
    let mut word = [0u8; 16];
    word.copy_from_slice(&buf[sign + 8..sign + 24]);
    let point = sign + 8 + first_byte(u128::from_le_bytes(word), b'.');
    let integer = buf[len - 1] == b'0' && buf[len - 2] == b'.';
    // d₁ d₂…dₙ . f… → d₁ . d₂…dₙ f…: the digits after the first one step right over the old
    // point, the fraction (at most 9 digits) stays.
    let mut fraction = [0u8; 16];
    fraction.copy_from_slice(&buf[point + 1..point + 17]);
    move16(buf, sign + 1, sign + 2);
    buf[sign + 1] = b'.';
    buf[point + 1..point + 17].copy_from_slice(&fraction);
    let end = if integer {
        // `.0` ended the text: the digits end at the old point, less their trailing zeros
        // (Java keeps one digit after its point).
        let mut end = point + 1;
        while end > sign + 3 && buf[end - 1] == b'0' {
            end -= 1;
        }
        end
    } else {
        len
    };
    put_exponent(buf, end, (point - sign - 1) as i32)
}

/// zmij's plain text of a value below 10⁻³ (`0.00012345`: 3 to 5 zeros after the point) as
/// Java's `1.2345E-4`.
#[inline(always)]
fn from_plain_small(buf: &mut [u8; ROOM], sign: usize, len: usize) -> usize {
    let mut first = sign + 5;
    while buf[first] == b'0' {
        first += 1;
    }
    buf[sign] = buf[first];
    buf[sign + 1] = b'.';
    move16(buf, first + 1, sign + 2);
    let mut end = sign + 2 + (len - first - 1);
    if end == sign + 2 {
        buf[end] = b'0';
        end += 1;
    }
    put_exponent(buf, end, sign as i32 + 1 - first as i32)
}

/// The index of the first byte of `word` (little-endian) equal to `b`, or 16: the classic
/// zero-byte test on `word ^ b…b`, exact up to the first zero byte.
#[inline(always)]
fn first_byte(word: u128, b: u8) -> usize {
    const ONES: u128 = u128::MAX / 255;
    let x = word ^ (ONES * u128::from(b));
    let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
    (zero.trailing_zeros() / 8) as usize
}

/// Java's two-digit rule on a subnormal whose shortest decimal has one digit (zmij's `5e-324`
/// in `buf`): the closest decimal of one or two digits, `4.9E-324`.
#[cold]
fn two_digit_rule(buf: &mut [u8; ROOM], sign: usize, (d1, d2, exp): (u8, u8, i32)) -> usize {
    buf[sign] = b'0' + d1;
    buf[sign + 1] = b'.';
    buf[sign + 2] = b'0' + d2;
    put_exponent(buf, sign + 3, exp)
}

/// `NaN`, `Infinity`, `-Infinity`, `0.0`, `-0.0`.
#[cold]
fn special(v: f64, buf: &mut [u8; ROOM]) -> usize {
    let text: &[u8] = match (v.is_nan(), v.is_infinite(), v.is_sign_negative()) {
        (true, _, _) => b"NaN",
        (_, true, false) => b"Infinity",
        (_, true, true) => b"-Infinity",
        (_, _, false) => b"0.0",
        (_, _, true) => b"-0.0",
    };
    buf[..text.len()].copy_from_slice(text);
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn exponents_of_every_length() {
        for exp in -400..=400 {
            let mut buf = [b'x'; ROOM];
            let end = put_exponent(&mut buf, 3, exp);
            assert_eq!(&buf[3..end], format!("E{exp}").as_bytes());
        }
    }

    #[test]
    fn longest_text_fits() {
        assert_eq!(double_to_string(-f64::MIN_POSITIVE).len(), MAX_LEN);
        assert_eq!(double_to_string(-1.2345678901234567e-3).len(), 22);
    }
}
