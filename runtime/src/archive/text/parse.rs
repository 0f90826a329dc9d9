//! `Double.parseDouble` / `Float.parseFloat`: Java's grammar, correctly rounded.
//!
//! The grammar is checked here, byte by byte, because Rust's `str::parse` accepts texts Java
//! refuses (`inf`, `nan`, any case) and refuses texts Java accepts (hex floats, a trailing
//! `d`). A decimal that passed the check is handed to the standard library's parser, which is
//! correctly rounded for both `f64` and `f32` (Eisel–Lemire with an exact fallback). Hex
//! floats are rounded in [`super::hex`].

use std::fmt;

use super::hex;

/// Why a text is not a number that `Double.parseDouble` / `Float.parseFloat` accept.
///
/// ```
/// use hadoop_record::archive::text::parse_double;
/// let e = parse_double(b"1.5x").unwrap_err();
/// assert_eq!(e.offset(), 3);
/// assert_eq!(e.to_string(), "invalid floating-point number: unexpected character at byte 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatTextError {
    offset: usize,
    reason: &'static str,
}

impl FloatTextError {
    #[cold]
    pub(super) fn new(offset: usize, reason: &'static str) -> Self {
        FloatTextError { offset, reason }
    }

    /// Byte offset in the text where it stops being a number.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What was wrong there, e.g. `expected a digit`.
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

impl fmt::Display for FloatTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid floating-point number: {} at byte {}",
            self.reason, self.offset
        )
    }
}

impl std::error::Error for FloatTextError {}

impl From<FloatTextError> for crate::Error {
    /// A [`crate::ErrorKind::Syntax`] error; the archive adds the position in its input.
    #[cold]
    fn from(e: FloatTextError) -> Self {
        crate::Error::syntax(e.to_string())
    }
}

/// Parses `text` as Java's `Double.parseDouble` does, correctly rounded.
///
/// Accepted, as in Java: surrounding bytes up to and including space (`String.trim`), a sign,
/// `NaN`, `Infinity`, decimals with optional point and `e`/`E` exponent (`1`, `1.`, `.5`,
/// `-1.5E-7`, any number of digits, so JDK 17's long texts too), a trailing `f`, `F`, `d` or
/// `D`, and hex floats (`0x1.8p1`, `0X.8P+2d`), all rounded to nearest-even. `-NaN` is NaN.
///
/// The one departure: Java gives up on an exponent beyond `i32` (a decimal exponent of at
/// least 2³¹/10, a hex one above 2³¹ − 1) and returns infinity or zero outright, ignoring how
/// many zeros the digits begin or end with; this parser keeps the exact value, which differs
/// from Java's only for texts of hundreds of megabytes.
///
/// ```
/// use hadoop_record::archive::text::parse_double;
/// assert_eq!(parse_double(b"2.82879384806159008E17"), Ok(2.82879384806159e17)); // JDK 17 text
/// assert_eq!(parse_double(b" -1e3d\n"), Ok(-1000.0));
/// assert_eq!(parse_double(b"0x1.8p1"), Ok(3.0));
/// assert!(parse_double(b"NaN").unwrap().is_nan());
/// assert!(parse_double(b"inf").is_err());
/// ```
pub fn parse_double(text: &[u8]) -> Result<f64, FloatTextError> {
    parse::<f64>(text)
}

/// Parses `text` as Java's `Float.parseFloat` does: the same grammar as [`parse_double`],
/// rounded once, straight to `f32`.
///
/// Hadoop's CSV reader does not use this: it reads a `float` with `Double.parseDouble` and a
/// cast, which is `parse_double(text)? as f32` (two roundings; the result can differ from this
/// function's for texts that no Java writer produces).
///
/// ```
/// use hadoop_record::archive::text::parse_float;
/// assert_eq!(parse_float(b"1.23456792E8"), Ok(123456789.0)); // JDK 17's text of 123456789f
/// assert_eq!(parse_float(b"1.4E-45"), Ok(f32::from_bits(1)));
/// ```
pub fn parse_float(text: &[u8]) -> Result<f32, FloatTextError> {
    parse::<f32>(text)
}

/// What differs between parsing to `f64` and to `f32`.
trait Target: Sized + std::str::FromStr + std::ops::Neg<Output = Self> {
    const NAN: Self;
    const HEX: hex::Format;
    /// The value with IEEE bits `magnitude` (no sign) and the given sign.
    fn from_parts(negative: bool, magnitude: u64) -> Self;
    /// `v`, negated when `negative`.
    fn with_sign(v: Self, negative: bool) -> Self {
        if negative {
            -v
        } else {
            v
        }
    }
    /// `mantissa · 10^exp10` when both factors are exact in the type, so that one
    /// correctly rounded multiplication or division gives the answer (Clinger's fast path,
    /// which covers the texts Java writes for short decimals).
    fn exact(mantissa: u64, exp10: i64) -> Option<Self>;
}

/// Powers of ten exact in `f64` (and, up to 10¹⁰, in `f32`).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

impl Target for f64 {
    const NAN: Self = f64::NAN;
    const HEX: hex::Format = hex::Format::DOUBLE;
    fn from_parts(negative: bool, magnitude: u64) -> Self {
        f64::from_bits(magnitude | u64::from(negative) << 63)
    }
    #[inline]
    fn exact(mantissa: u64, exp10: i64) -> Option<Self> {
        if mantissa > 1 << 53 || !(-22..=22).contains(&exp10) {
            return None;
        }
        let m = mantissa as f64;
        let p = POW10[exp10.unsigned_abs() as usize];
        Some(if exp10 < 0 { m / p } else { m * p })
    }
}

impl Target for f32 {
    const NAN: Self = f32::NAN;
    const HEX: hex::Format = hex::Format::FLOAT;
    fn from_parts(negative: bool, magnitude: u64) -> Self {
        f32::from_bits(magnitude as u32 | u32::from(negative) << 31)
    }
    #[inline]
    fn exact(mantissa: u64, exp10: i64) -> Option<Self> {
        if mantissa > 1 << 24 || !(-10..=10).contains(&exp10) {
            return None;
        }
        let m = mantissa as f32;
        let p = POW10[exp10.unsigned_abs() as usize] as f32;
        Some(if exp10 < 0 { m / p } else { m * p })
    }
}

/// Decimal exponents this large (in magnitude) are resolved here rather than by the standard
/// library, whose exponent accumulator saturates.
const LARGE_EXPONENT: i64 = 50_000;

/// Exponents are accumulated up to this bound; anything larger is infinite or zero for any
/// text that fits in memory.
const EXPONENT_CAP: i64 = 1_000_000_000_000_000;

fn parse<T: Target>(text: &[u8]) -> Result<T, FloatTextError> {
    // String.trim(): every char up to and including U+0020 at either end.
    let Some(start) = text.iter().position(|&b| b > b' ') else {
        return Err(FloatTextError::new(text.len(), "empty text"));
    };
    let end = text
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    let t = &text[start..end];
    let err = |i: usize, reason| FloatTextError::new(start + i, reason);

    let negative = t[0] == b'-';
    let mut i = usize::from(t[0] == b'-' || t[0] == b'+');
    match t.get(i) {
        None => return Err(err(i, "expected a digit")),
        Some(b'N') => {
            return if &t[i..] == b"NaN" {
                Ok(T::NAN)
            } else {
                Err(err(i, "expected `NaN`"))
            };
        }
        Some(b'I') => {
            return if &t[i..] == b"Infinity" {
                Ok(T::from_parts(negative, T::HEX.infinity_bits()))
            } else {
                Err(err(i, "expected `Infinity`"))
            };
        }
        Some(b'0') if matches!(t.get(i + 1), Some(b'x' | b'X')) => {
            let magnitude =
                hex::parse(&t[i + 2..], &T::HEX).map_err(|(at, reason)| err(i + 2 + at, reason))?;
            return Ok(T::from_parts(negative, magnitude));
        }
        Some(_) => {}
    }

    // Digits, with the significant ones (from the first non-zero) gathered into `mantissa`:
    // exact while there are at most 19 of them.
    let digits_start = i;
    while t.get(i) == Some(&b'0') {
        i += 1;
    }
    let significant_start = i;
    let mut mantissa = 0u64;
    i = gather_digits(t, i, &mut mantissa);
    let int_digits = i - digits_start;
    let mut significant = i - significant_start;
    let mut frac_digits = 0;
    if t.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        if significant == 0 {
            while t.get(i) == Some(&b'0') {
                i += 1;
            }
        }
        let start = i;
        i = gather_digits(t, i, &mut mantissa);
        significant += i - start;
        frac_digits = i - frac_start;
    }
    if int_digits + frac_digits == 0 {
        return Err(err(i, "expected a digit"));
    }
    let mantissa_end = i;
    let mut exponent = 0i64;
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exp_negative = t.get(i) == Some(&b'-');
        if matches!(t.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while i < t.len() && t[i].is_ascii_digit() {
            exponent = (exponent * 10 + i64::from(t[i] - b'0')).min(EXPONENT_CAP);
            i += 1;
        }
        if i == exp_start {
            return Err(err(i, "expected exponent digits"));
        }
        if exp_negative {
            exponent = -exponent;
        }
    }
    let number_end = i;
    if i < t.len() && !(i + 1 == t.len() && matches!(t[i], b'f' | b'F' | b'd' | b'D')) {
        return Err(err(i, "unexpected character"));
    }

    if significant <= 19 {
        if let Some(v) = T::exact(mantissa, exponent - frac_digits as i64) {
            return Ok(T::with_sign(v, negative));
        }
    }
    if exponent.abs() >= LARGE_EXPONENT {
        return Ok(large_exponent::<T>(
            negative,
            &t[digits_start..mantissa_end],
            int_digits,
            exponent,
        ));
    }
    // Only ASCII digits, sign, point and exponent remain: valid UTF-8 and valid for Rust.
    let number = std::str::from_utf8(&t[..number_end]).map_err(|_| err(0, "not ASCII"))?;
    number
        .parse::<T>()
        .map_err(|_| err(0, "not a decimal number"))
}

/// Reads ASCII digits from `t[i..]` into `mantissa` (wrapping past 19 digits; the caller
/// counts them), returning the index after the last digit. Eight digits at a time while it
/// can: the standard library does the same, and this scan runs before it on every text.
#[inline]
fn gather_digits(t: &[u8], mut i: usize, mantissa: &mut u64) -> usize {
    while let Some(chunk) = t.get(i..i + 8) {
        let Some(value) = eight_digits(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])))
        else {
            break;
        };
        *mantissa = mantissa.wrapping_mul(100_000_000).wrapping_add(value);
        i += 8;
    }
    while let Some(&b) = t.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        *mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    i
}

/// The value of eight ASCII digits loaded little-endian (first digit in the low byte), or
/// `None` if any byte is not a digit.
#[inline]
fn eight_digits(chunk: u64) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let values = chunk.wrapping_sub(0x30 * ONES);
    // A byte below '0' borrows into its high bit; one above '9' carries into it.
    if (values | chunk.wrapping_add(0x46 * ONES)) & (0x80 * ONES) != 0 {
        return None;
    }
    // Pairs, then quads, then all eight: each step merges neighbours as (high·10^k + low).
    let pairs = (values * 10 + (values >> 8)) & 0x00ff_00ff_00ff_00ff;
    let quads = (pairs * 100 + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    Some((quads * 10_000 + (quads >> 32)) & 0xffff_ffff)
}

/// A decimal with a huge explicit exponent (`1[700000 zeros]e-700000` is 1.0): rewritten as
/// `d.ddd…e<scientific exponent>` with at most 800 significant digits plus a final `1` when
/// non-zero digits were cut (more than enough to round correctly, since a halfway point between
/// two doubles has at most 767 significant digits), then parsed by the standard library.
#[cold]
fn large_exponent<T: Target>(negative: bool, mantissa: &[u8], int_digits: usize, exp: i64) -> T {
    const KEEP: usize = 800;
    let mut digits = mantissa.iter().filter(|b| b.is_ascii_digit());
    let Some(first) = digits.clone().position(|&b| b != b'0') else {
        return T::from_parts(negative, 0);
    };
    // Scientific exponent of the first non-zero digit.
    let sci = int_digits as i64 - first as i64 - 1 + exp;
    if sci > 400 {
        return T::from_parts(negative, T::HEX.infinity_bits());
    }
    if sci < -400 {
        return T::from_parts(negative, 0);
    }
    let mut buf = [0u8; KEEP + 16];
    let mut n = 0;
    let mut put = |b: u8, n: &mut usize| {
        buf[*n] = b;
        *n += 1;
    };
    if negative {
        put(b'-', &mut n);
    }
    let mut significant = digits.by_ref().skip(first);
    if let Some(&d) = significant.next() {
        put(d, &mut n);
    }
    put(b'.', &mut n);
    for &d in significant.by_ref().take(KEEP - 1) {
        put(d, &mut n);
    }
    if significant.any(|&d| d != b'0') {
        put(b'1', &mut n);
    }
    put(b'e', &mut n);
    for &b in itoa::Buffer::new().format(sci).as_bytes() {
        put(b, &mut n);
    }
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(|s| s.parse::<T>().ok())
        .unwrap_or_else(|| T::from_parts(negative, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &[u8; 8]) -> u64 {
        u64::from_le_bytes(*text)
    }

    #[test]
    fn eight_digits_at_once() {
        assert_eq!(eight_digits(chunk(b"12345678")), Some(12_345_678));
        assert_eq!(eight_digits(chunk(b"00000000")), Some(0));
        assert_eq!(eight_digits(chunk(b"99999999")), Some(99_999_999));
        assert_eq!(eight_digits(chunk(b"09080706")), Some(9_080_706));
        for bad in [b'/', b':', b'.', b'e', b' ', 0, 0x80, 0xb9, 0xff] {
            for at in 0..8 {
                let mut text = *b"12345678";
                text[at] = bad;
                assert_eq!(eight_digits(chunk(&text)), None, "{text:?}");
            }
        }
    }

    #[test]
    fn gathers_digits_in_chunks_and_singly() {
        for text in [
            "1",
            "12345678",
            "123456789",
            "1234567890123456789",
            "98765432109",
        ] {
            let mut m = 0;
            let end = gather_digits(format!("{text}e5").as_bytes(), 0, &mut m);
            assert_eq!((end, m), (text.len(), text.parse().unwrap()), "{text}");
        }
        let mut m = 7;
        assert_eq!(gather_digits(b"x", 0, &mut m), 0);
        assert_eq!(m, 7);
    }
}
