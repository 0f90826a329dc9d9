//! Java's text for `float` and `double`, as Hadoop's CSV and XML archives write and read it.
//!
//! Writing follows `Double.toString(double)` and `Float.toString(float)` of JDK 19 and later:
//! the shortest decimal that reads back to the same value (closest to it when several are
//! equally short; two digits when one would do, see [`push_double`]), laid out as Java does:
//! plain for 10⁻³ ≤ |x| < 10⁷ (`100.0`, `0.001`), otherwise `d.dddE±n` without `+`
//! (`1.0E7`, `9.9E-324`), with `NaN`, `Infinity`, `-Infinity`, `0.0` and `-0.0`. The CSV
//! archive prints a `float` as `Double.toString((double) f)`: that is [`push_double`] on the
//! widened value.
//!
//! Reading accepts what `Double.parseDouble` / `Float.parseFloat` accept (the texts of every
//! JDK, including JDK 17's longer digit strings) and rounds correctly: see [`parse_double`].
//!
//! ```
//! use hadoop_record::archive::text;
//! let mut line = Vec::new();
//! text::push_double(&mut line, 1e7);
//! line.push(b',');
//! text::push_double(&mut line, 0.1f32 as f64); // CSV's float
//! line.push(b',');
//! text::push_float(&mut line, 0.1); // XML's float
//! assert_eq!(line, b"1.0E7,0.10000000149011612,0.1");
//! assert_eq!(text::parse_double(b"1.0E7"), Ok(1e7));
//! assert_eq!(text::parse_float(b"0.1"), Ok(0.1f32));
//! ```

mod float_text;
mod hex;
mod legacy;
mod parse;
mod two_digits;
mod write;

pub(crate) use float_text::float_text_methods;
pub use float_text::FloatText;
pub use parse::{parse_double, parse_float, FloatTextError};
pub use write::{double_to_string, float_to_string, push_double, push_float, MAX_LEN};
