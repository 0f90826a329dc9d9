//! Float text for XML: `Float.toString` for `<ex:float>`, `Double.toString` for `<double>`,
//! and Java's parsers for reading them back.
//!
//! TEMPORARY: a stand-in until the shared Java float text module lands; each function here
//! becomes a one-line call into it. Shortest round-trip digits from Rust's formatter (two
//! digits, correctly rounded, where one would do: JDK 19+ prints `4.9E-324`, not `5.0E-324`)
//! laid out as Java does.

/// Appends `Float.toString(v)`.
pub fn push_float(out: &mut Vec<u8>, v: f32) {
    let mut sci = format!("{v:e}");
    if !sci.contains('.') {
        sci = format!("{v:.1e}");
    }
    push_java(out, v.is_nan(), v.is_infinite(), v.is_sign_negative(), &sci)
}

/// Appends `Double.toString(v)`.
pub fn push_double(out: &mut Vec<u8>, v: f64) {
    let mut sci = format!("{v:e}");
    if !sci.contains('.') {
        sci = format!("{v:.1e}");
    }
    push_java(out, v.is_nan(), v.is_infinite(), v.is_sign_negative(), &sci)
}

fn push_java(out: &mut Vec<u8>, nan: bool, inf: bool, neg: bool, sci: &str) {
    if nan {
        return out.extend_from_slice(b"NaN");
    }
    if inf {
        return out.extend_from_slice(if neg { b"-Infinity" } else { b"Infinity" });
    }
    let sci = sci.strip_prefix('-').unwrap_or(sci);
    if neg {
        out.push(b'-');
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    if digits.is_empty() {
        return out.extend_from_slice(b"0.0");
    }
    if (-3..7).contains(&exp) {
        if exp < 0 {
            out.extend_from_slice(b"0.");
            out.extend(std::iter::repeat_n(b'0', (-exp - 1) as usize));
            out.extend_from_slice(digits.as_bytes());
        } else {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.extend_from_slice(digits.as_bytes());
                out.extend(std::iter::repeat_n(b'0', int_len - digits.len()));
                out.extend_from_slice(b".0");
            } else {
                out.extend_from_slice(&digits.as_bytes()[..int_len]);
                out.push(b'.');
                out.extend_from_slice(&digits.as_bytes()[int_len..]);
            }
        }
    } else {
        out.push(digits.as_bytes()[0]);
        out.push(b'.');
        if digits.len() > 1 {
            out.extend_from_slice(&digits.as_bytes()[1..]);
        } else {
            out.push(b'0');
        }
        out.push(b'E');
        out.extend_from_slice(exp.to_string().as_bytes());
    }
}

/// Java's `Float.parseFloat`, or `None` when Java would throw.
pub fn parse_float(text: &str) -> Option<f32> {
    java_number(text).and_then(|t| t.parse().ok())
}

/// Java's `Double.parseDouble`, or `None` when Java would throw.
pub fn parse_double(text: &str) -> Option<f64> {
    java_number(text).and_then(|t| t.parse().ok())
}

/// Java's spelling checked and mapped onto what Rust's parser accepts.
fn java_number(text: &str) -> Option<&str> {
    let text = text.trim_matches(|c: char| c <= ' ');
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    match body {
        "NaN" => return Some("NaN"),
        "Infinity" => return Some(if text.starts_with('-') { "-inf" } else { "inf" }),
        _ => {}
    }
    let text = text.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(text);
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let ok = body.bytes().any(|b| b.is_ascii_digit())
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    ok.then_some(text)
}
