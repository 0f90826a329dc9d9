//! [`FloatText`]: which JDK's `Double.toString` / `Float.toString` the CSV and XML writers
//! print.

use std::fmt;
use std::str::FromStr;

use super::{legacy, write};
use crate::error::{Error, Result};

/// The text of `float` and `double` values in Hadoop's CSV and XML archives: that of the
/// JDK that wrote (or is to read) the data. Java changed `Double.toString` and
/// `Float.toString` in JDK 19, and about 5% of values print differently before and after;
/// Hadoop clusters run Java 8 and 11, hence the default, [`FloatText::Legacy`].
///
/// Readers accept both. JSON output keeps its own text (JDK 19+'s) whatever this says.
///
/// ```
/// use hadoop_record::archive::FloatText;
/// let tiny = 2.0 * f64::from_bits(1);
/// assert_eq!(FloatText::Legacy.double_to_string(tiny), "1.0E-323");
/// assert_eq!(FloatText::Shortest.double_to_string(tiny), "9.9E-324");
/// assert_eq!(FloatText::Legacy.double_to_string(1e23), "9.999999999999999E22");
/// assert_eq!(FloatText::Shortest.double_to_string(1e23), "1.0E23");
/// assert_eq!(FloatText::default(), FloatText::Legacy);
/// assert_eq!("shortest".parse::<FloatText>()?, FloatText::Shortest);
/// assert_eq!(FloatText::Legacy.to_string(), "legacy");
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum FloatText {
    /// JDK 8 to 18 (`sun.misc.FloatingDecimal`): what Hadoop on Java 8, 11 or 17 writes.
    #[default]
    Legacy,
    /// JDK 19 and later: the shortest decimal that reads back to the same value (Raffaello
    /// Giulietti's algorithm).
    Shortest,
}

impl FloatText {
    /// Both, `Legacy` first.
    pub const ALL: [FloatText; 2] = [FloatText::Legacy, FloatText::Shortest];

    /// The longest text either appends, in bytes: the bound of Java's own buffer (JDK 19+
    /// needs [`super::MAX_LEN`], 24).
    pub const MAX_LEN: usize = legacy::MAX_LEN;

    /// The lower-case name: `legacy` or `shortest`.
    pub fn name(self) -> &'static str {
        match self {
            FloatText::Legacy => "legacy",
            FloatText::Shortest => "shortest",
        }
    }

    /// Appends `Double.toString(v)` of this JDK to `out`; allocation-free when `out` has
    /// [`FloatText::MAX_LEN`] bytes of spare capacity.
    ///
    /// ```
    /// use hadoop_record::archive::FloatText;
    /// let mut out = b"x=".to_vec();
    /// FloatText::Legacy.push_double(&mut out, 1e-5);
    /// assert_eq!(out, b"x=1.0E-5");
    /// ```
    #[inline]
    pub fn push_double(self, out: &mut Vec<u8>, v: f64) {
        match self {
            FloatText::Legacy => {
                write::push_with::<{ Self::MAX_LEN }, _>(out, v, legacy::format_double)
            }
            FloatText::Shortest => write::push_double(out, v),
        }
    }

    /// Appends `Float.toString(v)` of this JDK to `out` (what XML prints; CSV prints a `float`
    /// widened to `double`), as [`FloatText::push_double`] does.
    ///
    /// ```
    /// use hadoop_record::archive::FloatText;
    /// let mut out = Vec::new();
    /// FloatText::Legacy.push_float(&mut out, 1.0e10);
    /// assert_eq!(out, b"1.0E10");
    /// ```
    #[inline]
    pub fn push_float(self, out: &mut Vec<u8>, v: f32) {
        match self {
            FloatText::Legacy => {
                write::push_with::<{ Self::MAX_LEN }, _>(out, v, legacy::format_float)
            }
            FloatText::Shortest => write::push_float(out, v),
        }
    }

    /// `Double.toString(v)` of this JDK.
    pub fn double_to_string(self, v: f64) -> String {
        let mut out = Vec::with_capacity(Self::MAX_LEN);
        self.push_double(&mut out, v);
        // Every byte written is ASCII.
        String::from_utf8(out).unwrap_or_default()
    }

    /// `Float.toString(v)` of this JDK.
    pub fn float_to_string(self, v: f32) -> String {
        let mut out = Vec::with_capacity(Self::MAX_LEN);
        self.push_float(&mut out, v);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// `with_float_text` and `float_text` of an output whose field `float_text` is the
/// [`FloatText`] it prints floats and doubles in (the CSV and XML outputs). Used inside the
/// output's `impl` block; the doc comments given (an example) go on `with_float_text`.
macro_rules! float_text_methods {
    ($(#[$example:meta])*) => {
        /// The same output printing floats and doubles as `float_text`'s JDK does.
        ///
        $(#[$example])*
        #[must_use]
        pub fn with_float_text(mut self, float_text: $crate::archive::FloatText) -> Self {
            self.float_text = float_text;
            self
        }

        /// Which JDK's text floats and doubles are printed in.
        pub fn float_text(&self) -> $crate::archive::FloatText {
            self.float_text
        }
    };
}
pub(crate) use float_text_methods;

impl fmt::Display for FloatText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FloatText {
    type Err = Error;

    /// `legacy` or `shortest`, in any case.
    fn from_str(s: &str) -> Result<Self> {
        FloatText::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                Error::unknown_name(
                    "float text",
                    s,
                    "legacy, JDK 8 to 18's, or shortest, JDK 19 and later's",
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn names_read_back_and_others_are_refused() {
        for t in FloatText::ALL {
            assert_eq!(t.to_string().parse::<FloatText>().unwrap(), t);
            assert_eq!(t.name().to_uppercase().parse::<FloatText>().unwrap(), t);
        }
        let e = "modern".parse::<FloatText>().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(
            e.to_string(),
            "unknown float text `modern` (expected legacy, JDK 8 to 18's, or shortest, JDK 19 \
             and later's)"
        );
    }

    /// A buffer with room gets the text written in place, one without it through the stack:
    /// the same bytes after what it held, without allocating when it had room.
    #[test]
    fn texts_are_alike_in_place_and_through_the_stack() {
        let values = [
            1e23,
            -0.1,
            12.5,
            1e7,
            1.0e-5,
            f64::MIN_POSITIVE,
            4.9e-324,
            0.0,
            f64::NAN,
        ];
        for t in FloatText::ALL {
            for v in values {
                let mut roomy = Vec::with_capacity(100);
                roomy.extend_from_slice(b"x,");
                let capacity = roomy.capacity();
                t.push_double(&mut roomy, v);
                t.push_float(&mut roomy, v as f32);
                assert_eq!(roomy.capacity(), capacity);
                let mut tight = b"x,".to_vec();
                t.push_double(&mut tight, v);
                t.push_float(&mut tight, v as f32);
                assert_eq!(roomy, tight, "{t} {v:e}");
                let text = [t.double_to_string(v), t.float_to_string(v as f32)].concat();
                assert_eq!(&roomy[2..], text.as_bytes());
            }
        }
    }

    #[test]
    fn specials_are_alike() {
        for t in FloatText::ALL {
            for (v, text) in [
                (0.0, "0.0"),
                (-0.0, "-0.0"),
                (f64::NAN, "NaN"),
                (f64::INFINITY, "Infinity"),
                (f64::NEG_INFINITY, "-Infinity"),
            ] {
                assert_eq!(t.double_to_string(v), text);
                assert_eq!(t.float_to_string(v as f32), text);
            }
        }
    }
}
