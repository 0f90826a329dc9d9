//! Java's float/double text against the reference data of `tests/fixtures/java-float-text`:
//! `Float.toString`, `Double.toString` and `Double.toString((double) f)` from JDK 17 and from a
//! modern JDK for 37,809 values, and for 13,733 more by layout class (large and small
//! magnitudes in every decade, negative, subnormal). The writer must reproduce each JDK's text
//! exactly (`FloatText::Legacy` JDK 17's, `FloatText::Shortest` the modern one's); the parser
//! must read both back to the exact bits.

use hadoop_record::archive::text::{
    double_to_string, float_to_string, parse_double, parse_float, push_double, push_float, MAX_LEN,
};
use hadoop_record::archive::FloatText;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/java-float-text"
);

/// One line of a fixture file.
struct Line {
    number: usize,
    kind: Kind,
    bits: u64,
    to_string: String,
    /// `Double.toString((double) f)` for an f32.
    widened: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    F32,
    F64,
}

fn load(name: &str) -> Vec<Line> {
    let path = format!("{DIR}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().expect("header line");
    assert_eq!(
        header,
        "kind\tbits_hex\tto_string\twidened_double_to_string_or_dash"
    );
    lines
        .map(|(i, line)| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "{name}:{}: {line:?}", i + 1);
            let kind = match cols[0] {
                "f32" => Kind::F32,
                "f64" => Kind::F64,
                other => panic!("{name}:{}: kind {other:?}", i + 1),
            };
            let hex = cols[1].strip_prefix("0x").expect("0x prefix");
            assert_eq!(hex.len(), if kind == Kind::F32 { 8 } else { 16 });
            Line {
                number: i + 1,
                kind,
                bits: u64::from_str_radix(hex, 16).expect("hex bits"),
                to_string: cols[2].to_owned(),
                widened: (kind == Kind::F32).then(|| cols[3].to_owned()),
            }
        })
        .collect()
}

/// The lines of `modern` and `jdk17`, which must be the same values, and how many differ.
fn differing(modern: &str, jdk17: &str) -> (usize, usize) {
    let (modern, jdk17) = (load(modern), load(jdk17));
    assert_eq!(jdk17.len(), modern.len());
    let mut differ = 0;
    for (m, o) in modern.iter().zip(&jdk17) {
        assert_eq!((m.kind, m.bits), (o.kind, o.bits), "line {}", m.number);
        differ += usize::from(m.to_string != o.to_string || m.widened != o.widened);
    }
    (modern.len(), differ)
}

#[test]
fn fixture_files_hold_the_documented_values() {
    assert_eq!(differing("jdk_modern.tsv", "jdk17.tsv"), (37_809, 2_606));
    assert_eq!(
        differing("classes_jdk_modern.tsv", "classes_jdk17.tsv"),
        (13_733, 972)
    );
}

/// The writer in `style` prints every text of `file` (the JDK's of that style) exactly, through
/// the `String` and the appending API; for `Shortest` also through the free functions.
fn writes_alike(file: &str, style: FloatText) {
    let mut failures = Vec::new();
    let mut out = Vec::new();
    for line in load(file) {
        let (written, widened) = match line.kind {
            Kind::F64 => (style.double_to_string(f64::from_bits(line.bits)), None),
            Kind::F32 => {
                let f = f32::from_bits(line.bits as u32);
                (
                    style.float_to_string(f),
                    Some(style.double_to_string(f64::from(f))),
                )
            }
        };
        if written != line.to_string || widened != line.widened {
            failures.push(format!(
                "line {} {:?} {:#x}: wrote {written} / {widened:?}, Java {} / {:?}",
                line.number, line.kind, line.bits, line.to_string, line.widened
            ));
        }
        // The appending API writes the same bytes after whatever is in the buffer.
        out.clear();
        out.push(b'|');
        match line.kind {
            Kind::F64 => style.push_double(&mut out, f64::from_bits(line.bits)),
            Kind::F32 => style.push_float(&mut out, f32::from_bits(line.bits as u32)),
        }
        assert_eq!(&out[1..], line.to_string.as_bytes(), "line {}", line.number);
        assert!(out.len() - 1 <= FloatText::MAX_LEN);
        if style == FloatText::Shortest {
            out.clear();
            out.push(b'|');
            match line.kind {
                Kind::F64 => push_double(&mut out, f64::from_bits(line.bits)),
                Kind::F32 => push_float(&mut out, f32::from_bits(line.bits as u32)),
            }
            assert_eq!(&out[1..], line.to_string.as_bytes(), "line {}", line.number);
            assert!(out.len() - 1 <= MAX_LEN);
            let free = match line.kind {
                Kind::F64 => double_to_string(f64::from_bits(line.bits)),
                Kind::F32 => float_to_string(f32::from_bits(line.bits as u32)),
            };
            assert_eq!(free, line.to_string, "line {}", line.number);
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Every text of `file` reads back to exactly its bits: `to_string` with `parse_double` for an
/// f64 and `parse_float` for an f32 (as XML reads them); the widened text of an f32 with
/// `parse_double`, which gives the widened value exactly, and then a cast (as CSV reads it).
fn parses_back(file: &str) {
    let mut failures = Vec::new();
    for line in load(file) {
        let text = line.to_string.as_bytes();
        let ok = match line.kind {
            Kind::F64 => parse_double(text).map(f64::to_bits) == Ok(line.bits),
            Kind::F32 => {
                let f = f32::from_bits(line.bits as u32);
                let widened = line.widened.as_deref().expect("f32 has a widened text");
                parse_float(text).map(f32::to_bits) == Ok(line.bits as u32)
                    && parse_double(widened.as_bytes()).map(f64::to_bits)
                        == Ok(f64::from(f).to_bits())
                    && parse_double(widened.as_bytes()).map(|d| (d as f32).to_bits())
                        == Ok(line.bits as u32)
            }
        };
        if !ok {
            failures.push(format!(
                "{file} line {}: {} / {:?} is not {:#x}",
                line.number, line.to_string, line.widened, line.bits
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn writer_reproduces_every_modern_jdk_text() {
    writes_alike("jdk_modern.tsv", FloatText::Shortest);
}

/// Large and small magnitudes in every decade (Java's `E` form, which zmij writes plain from
/// 10⁻⁵ to 10¹⁶), negative, and subnormal values, each a path of its own in the writer.
#[test]
fn writer_reproduces_every_layout_class() {
    writes_alike("classes_jdk_modern.tsv", FloatText::Shortest);
}

/// JDK 17's `FloatingDecimal`, every path of it: integers (with their rounded-away digits),
/// the `int`, `long` and big-integer digit loops, the two-digit `E` form.
#[test]
fn legacy_writer_reproduces_every_jdk17_text() {
    writes_alike("jdk17.tsv", FloatText::Legacy);
}

/// The layout classes as JDK 17 prints them: the big-integer loop in `u128` (moderate
/// exponents) and in multi-word integers (the extremes and the subnormals).
#[test]
fn legacy_writer_reproduces_every_jdk17_layout_class() {
    writes_alike("classes_jdk17.tsv", FloatText::Legacy);
}

#[test]
fn parser_reads_every_modern_jdk_text_back() {
    parses_back("jdk_modern.tsv");
    parses_back("classes_jdk_modern.tsv");
}

#[test]
fn parser_reads_every_jdk17_text_back() {
    parses_back("jdk17.tsv");
    parses_back("classes_jdk17.tsv");
}

// ---------------------------------------------------------------------------------------------
// Writer corner cases (each also in the fixture; here they are named and explained).

#[test]
fn writer_corner_cases() {
    let doubles: &[(f64, &str)] = &[
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (f64::NAN, "NaN"),
        (-f64::NAN, "NaN"),
        (f64::from_bits(0x7ff0_0000_0000_0001), "NaN"),
        (f64::INFINITY, "Infinity"),
        (f64::NEG_INFINITY, "-Infinity"),
        // Plain from 1e-3 up to, not including, 1e7; at least one digit after the point.
        (1.0, "1.0"),
        (100.0, "100.0"),
        (0.001, "0.001"),
        (9.999e-4, "9.999E-4"),
        (9999999.0, "9999999.0"),
        (1e7, "1.0E7"),
        (123456789.0, "1.23456789E8"),
        (1e21, "1.0E21"),
        (-1.5e-300, "-1.5E-300"),
        // One-digit shortest decimals become the closest of one or two digits (JDK 19+).
        (f64::from_bits(1), "4.9E-324"),
        (f64::from_bits(2), "9.9E-324"),
        (f64::from_bits(3), "1.5E-323"),
        (-f64::from_bits(1), "-4.9E-324"),
        // JDK 17 printed these with more digits.
        (1e23, "1.0E23"),
        (8.41e21, "8.41E21"),
        (2.82879384806159e17, "2.82879384806159E17"),
        (9.223372036854775e18, "9.223372036854775E18"),
        (2f64.powi(-24), "5.960464477539063E-8"),
        // Two equally short candidates: the closer one; here (…353.0625) they tie, so the
        // even digit.
        (13739255765353.0 + 1.0 / 16.0, "1.3739255765353062E13"),
        (f64::MAX, "1.7976931348623157E308"),
        (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
        // zmij writes these plain (10⁻⁵ ≤ |x| < 10¹⁶); Java's E form is a rearrangement: the
        // point after the first digit, a fraction kept, trailing zeros of an integer dropped.
        (12345678.9, "1.23456789E7"),
        (1.2345e15, "1.2345E15"),
        (12340000000.0, "1.234E10"),
        (1234567890123456.8, "1.2345678901234568E15"),
        (9999999999999998.0, "9.999999999999998E15"),
        (1e16, "1.0E16"),
        (1.2345678901234568e17, "1.2345678901234568E17"),
        (0.00012345, "1.2345E-4"),
        (1e-5, "1.0E-5"),
        (-1.5e-5, "-1.5E-5"),
        (-0.000999, "-9.99E-4"),
        // The largest subnormal, and a negative one under the two-digit rule.
        (
            f64::from_bits(0x000f_ffff_ffff_ffff),
            "2.225073858507201E-308",
        ),
        (-f64::from_bits(3), "-1.5E-323"),
    ];
    for &(v, text) in doubles {
        assert_eq!(double_to_string(v), text, "{v:e}");
    }
    let floats: &[(f32, &str)] = &[
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (f32::NAN, "NaN"),
        (f32::NEG_INFINITY, "-Infinity"),
        (1e7, "1.0E7"),
        (f32::from_bits(1), "1.4E-45"),
        (f32::from_bits(0x10), "2.2E-44"),
        (f32::MIN_POSITIVE, "1.1754944E-38"),
        (1e11, "1.0E11"),
        (123456789.0, "1.2345679E8"),
        (5.83e9, "5.83E9"),
        (f32::from_bits(0xe8ff3ec1), "-9.6428885E24"),
        (f32::MAX, "3.4028235E38"),
        // zmij writes these plain (10⁻⁶ ≤ |x| < 10¹³ for float).
        (1.2345e11, "1.2345E11"),
        (12345678.0, "1.2345678E7"),
        (1e12, "1.0E12"),
        (1e-6, "1.0E-6"),
        (-0.00012345, "-1.2345E-4"),
        (f32::from_bits(0x007f_ffff), "1.1754942E-38"),
        // A tie between 2550602.2 and 2550602.3: the even digit.
        (2550602.0 + 0.25, "2550602.2"),
    ];
    for &(v, text) in floats {
        assert_eq!(float_to_string(v), text, "{v:e}");
    }
    // CSV prints a float widened to double.
    let widened: &[(f32, &str)] = &[
        (0.1, "0.10000000149011612"),
        (1.0, "1.0"),
        (f32::MAX, "3.4028234663852886E38"),
        (f32::from_bits(0x5c7b3f53), "2.8287937947684045E17"),
        (f32::from_bits(0x69b58f9f), "2.7436725598700745E25"),
        (1.2345e11, "1.2344999936E11"),
        (-0.00012345, "-1.234499941347167E-4"),
    ];
    for &(v, text) in widened {
        assert_eq!(double_to_string(f64::from(v)), text, "{v:e}");
    }
}

/// JDK 17's text where it differs from the modern one, each case from `jdk17.tsv`.
#[test]
fn legacy_writer_corner_cases() {
    let doubles: &[(f64, &str)] = &[
        // Not the shortest: the digit loop stops when the remainder is within half an ulp,
        // on a symmetric test, and rounds the last digit.
        (1e23, "9.999999999999999E22"),
        (2e23, "1.9999999999999998E23"),
        (8.41e21, "8.409999999999999E21"),
        (2f64.powi(-44), "5.6843418860808015E-14"),
        // Integers below 2⁶³ print every digit down to their precision.
        (2f64.powi(57), "1.44115188075855872E17"),
        (2.82879384806159e17, "2.82879384806159008E17"),
        (9.223372036854775e18, "9.2233720368547748E18"),
        // No two-digit rule: the closest one-digit decimal, or the loop's digits.
        (f64::from_bits(2), "1.0E-323"),
        (-f64::from_bits(2), "-1.0E-323"),
        (f64::from_bits(0x20), "1.58E-322"),
        (f64::from_bits(0x800), "1.0118E-320"),
        // And where both agree.
        (f64::from_bits(1), "4.9E-324"),
        (0.1, "0.1"),
        (0.001, "0.001"),
        (1e7, "1.0E7"),
        (1e-5, "1.0E-5"),
        (f64::MAX, "1.7976931348623157E308"),
    ];
    for &(v, text) in doubles {
        assert_eq!(FloatText::Legacy.double_to_string(v), text, "{v:e}");
    }
    let floats: &[(f32, &str)] = &[
        (f32::MIN_POSITIVE, "1.17549435E-38"),
        (1e11, "9.9999998E10"), // 1e11 as f32 is 99999997952
        (123456792.0, "1.23456792E8"),
        (2f32.powi(28), "2.68435456E8"),
        (2f32.powi(40), "1.09951163E12"),
        (f32::from_bits(1), "1.4E-45"),
        (0.1, "0.1"),
        (f32::MAX, "3.4028235E38"),
    ];
    for &(v, text) in floats {
        assert_eq!(FloatText::Legacy.float_to_string(v), text, "{v:e}");
    }
    // CSV's float, widened: the double's text.
    assert_eq!(
        FloatText::Legacy.double_to_string(f64::from(f32::from_bits(0x5c7b3f53))),
        "2.82879379476840448E17"
    );
}

// ---------------------------------------------------------------------------------------------
// Parser corner cases.

fn bits(r: Result<f64, hadoop_record::archive::text::FloatTextError>) -> Option<u64> {
    r.ok().map(f64::to_bits)
}

#[test]
fn parser_accepts_what_java_accepts() {
    let cases: &[(&str, f64)] = &[
        ("1", 1.0),
        ("+1", 1.0),
        ("-1", -1.0),
        ("1.", 1.0),
        (".5", 0.5),
        ("-.5", -0.5),
        ("00012.50", 12.5),
        ("1e3", 1000.0),
        ("1E3", 1000.0),
        ("1e+3", 1000.0),
        ("1.e-3", 0.001),
        ("-0", -0.0),
        ("-0.0e99", -0.0),
        // Float type suffix.
        ("1f", 1.0),
        ("1.5F", 1.5),
        ("1e2d", 100.0),
        (".5D", 0.5),
        // String.trim(): every byte up to and including space, at both ends.
        (" 1.5 ", 1.5),
        ("\t\n\r 1.5\x0b\x0c", 1.5),
        ("\x001.5\x1f", 1.5),
        ("1.0f ", 1.0),
        // NaN and Infinity, signed or not.
        ("Infinity", f64::INFINITY),
        ("+Infinity", f64::INFINITY),
        ("-Infinity", f64::NEG_INFINITY),
        (" -Infinity ", f64::NEG_INFINITY),
        // Out of range: to infinity or zero, keeping the sign.
        ("1e309", f64::INFINITY),
        ("-1e400", f64::NEG_INFINITY),
        ("1e-400", 0.0),
        ("-1e-400", -0.0),
        ("1e99999999999999999999999999", f64::INFINITY),
        ("1e-99999999999999999999999999", 0.0),
        ("0e99999999999999999999999999", 0.0),
        // Hex floats.
        ("0x1.8p1", 3.0),
        ("-0X.8P+2d", -2.0),
        ("0x1p-1074", f64::from_bits(1)),
        ("0x1.fffffffffffffp1023", f64::MAX),
        ("0x0.0p0", 0.0),
        ("-0x0p0", -0.0),
        ("0x1p99999999999", f64::INFINITY),
        ("0x1p-99999999999", 0.0),
        (" 0x10p0f ", 16.0),
    ];
    for &(text, v) in cases {
        assert_eq!(
            bits(parse_double(text.as_bytes())),
            Some(v.to_bits()),
            "{text:?}"
        );
    }
    for text in ["NaN", "+NaN", "-NaN", " NaN\n"] {
        assert!(parse_double(text.as_bytes()).unwrap().is_nan(), "{text:?}");
        assert!(parse_float(text.as_bytes()).unwrap().is_nan(), "{text:?}");
    }
}

#[test]
fn parser_refuses_what_java_refuses() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "empty text"),
        ("   ", 3, "empty text"),
        ("+", 1, "expected a digit"),
        ("-", 1, "expected a digit"),
        (".", 1, "expected a digit"),
        ("e5", 0, "expected a digit"),
        ("abc", 0, "expected a digit"),
        ("+-1", 1, "expected a digit"),
        ("- 1", 1, "expected a digit"),
        ("1e", 2, "expected exponent digits"),
        ("1e+", 3, "expected exponent digits"),
        ("1e5.5", 3, "unexpected character"),
        ("1.5.5", 3, "unexpected character"),
        ("1 .5", 1, "unexpected character"),
        ("1_000", 1, "unexpected character"),
        ("1ff", 1, "unexpected character"),
        ("1fd", 1, "unexpected character"),
        ("1x", 1, "unexpected character"),
        ("  1.5x", 5, "unexpected character"),
        ("1,5", 1, "unexpected character"),
        ("\u{661}", 0, "expected a digit"),
        ("inf", 0, "expected a digit"),
        ("nan", 0, "expected a digit"),
        ("infinity", 0, "expected a digit"),
        ("INFINITY", 0, "expected `Infinity`"),
        ("Inf", 0, "expected `Infinity`"),
        ("NAN", 0, "expected `NaN`"),
        ("NaNd", 0, "expected `NaN`"),
        ("Infinityf", 0, "expected `Infinity`"),
        ("-Infinityf", 1, "expected `Infinity`"),
        ("0x", 2, "expected a hex digit"),
        ("0x1", 3, "expected `p` and a binary exponent"),
        ("0x1.8", 5, "expected `p` and a binary exponent"),
        ("0x1p", 4, "expected exponent digits"),
        ("0x1e1", 5, "expected `p` and a binary exponent"),
        ("0xg", 2, "expected a hex digit"),
        ("0x1p1x", 5, "unexpected character"),
        ("00x1p1", 2, "unexpected character"),
    ];
    for &(text, offset, reason) in cases {
        let e = parse_double(text.as_bytes()).unwrap_err();
        assert_eq!((e.offset(), e.reason()), (offset, reason), "{text:?}");
        let e = parse_float(text.as_bytes()).unwrap_err();
        assert_eq!((e.offset(), e.reason()), (offset, reason), "{text:?}");
    }
    // Bytes that are not UTF-8 are simply not part of a number.
    assert!(parse_double(b"1.5\xff").is_err());
    assert!(parse_double(b"\xc3\xa9").is_err());
    // The error converts into the crate's error as a syntax error.
    let e: hadoop_record::Error = parse_double(b"1.5x").unwrap_err().into();
    assert_eq!(e.kind(), hadoop_record::ErrorKind::Syntax);
    assert_eq!(
        e.to_string(),
        "invalid floating-point number: unexpected character at byte 3"
    );
}

#[test]
fn parser_rounds_long_texts_correctly() {
    // 1 + 2^-53, exactly halfway between 1 and the next double: ties to even.
    let half = "1.00000000000000011102230246251565404236316680908203125";
    assert_eq!(parse_double(half.as_bytes()), Ok(1.0));
    let above = format!("{half}{}1", "0".repeat(1000));
    assert_eq!(parse_double(above.as_bytes()), Ok(1.0 + f64::EPSILON));
    let below = "1.000000000000000111022302462515654042363166809082031249999";
    assert_eq!(parse_double(below.as_bytes()), Ok(1.0));
    // Huge exponents balanced by many digits keep their exact value.
    let ones = format!("1{}e-700000", "0".repeat(700_000));
    assert_eq!(parse_double(ones.as_bytes()), Ok(1.0));
    let tenth = format!("-0.{}1e700000", "0".repeat(700_000));
    assert_eq!(parse_double(tenth.as_bytes()), Ok(-0.1));
    let above_big = format!(
        "{}{}1e-700000",
        half.replace('.', ""),
        "0".repeat(700_000 - 54)
    );
    assert_eq!(parse_double(above_big.as_bytes()), Ok(1.0 + f64::EPSILON));
    assert_eq!(
        parse_double(format!("0.{}e999999", "0".repeat(100)).as_bytes()),
        Ok(0.0)
    );
    assert_eq!(parse_float(b"1e60000"), Ok(f32::INFINITY));
    // Around the exact-arithmetic fast path: 2^53 + 1 and 2^24 + 1 tie to even.
    assert_eq!(parse_double(b"9007199254740993"), Ok(9007199254740992.0));
    assert_eq!(parse_double(b"9007199254740995"), Ok(9007199254740996.0));
    assert_eq!(parse_float(b"16777217"), Ok(16777216.0));
    assert_eq!(parse_double(b"1e22"), Ok(1e22));
    assert_eq!(parse_double(b"1e23"), Ok(1e23));
    assert_eq!(parse_double(b"-0.000"), Ok(-0.0));
    assert_eq!(parse_float(b"-1e-60000"), Ok(-0.0));
}

#[test]
fn float_parsing_rounds_once_and_csv_rounds_twice() {
    // Just above 1 + 2^-24, the midpoint between 1f and the next float. Float.parseFloat
    // rounds once, up; Double.parseDouble gives the midpoint itself, which then ties to 1f.
    let text = b"1.00000005960464477539062501";
    assert_eq!(parse_float(text), Ok(1.0 + f32::EPSILON));
    assert_eq!(parse_double(text), Ok(1.0 + f64::from(f32::EPSILON) / 2.0));
    assert_eq!(parse_double(text).map(|d| d as f32), Ok(1.0));
    // Range limits are those of float.
    assert_eq!(parse_float(b"3.4028235E38"), Ok(f32::MAX));
    // Halfway between MAX and 2^128 is 2^128 - 2^103 = 3.40282356779733661637…E38.
    assert_eq!(parse_float(b"3.4028235677973366E38"), Ok(f32::MAX));
    assert_eq!(parse_float(b"3.4028235677973367E38"), Ok(f32::INFINITY));
    assert_eq!(parse_float(b"1.4E-45"), Ok(f32::from_bits(1)));
    assert_eq!(parse_float(b"7.0E-46"), Ok(0.0));
    assert_eq!(parse_float(b"7.1E-46"), Ok(f32::from_bits(1)));
    assert_eq!(parse_float(b"0x1.fffffep127"), Ok(f32::MAX));
    assert_eq!(parse_float(b"0x1.ffffffp127"), Ok(f32::INFINITY));
    assert_eq!(parse_float(b"-0x1p-149f"), Ok(-f32::from_bits(1)));
}

// ---------------------------------------------------------------------------------------------
// Properties over random bit patterns.

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Significant digits and the exponent of the first one, from any decimal text
    /// (`-1.25E-7`, `0.001`, `1.5e3`).
    fn digits_and_exponent(text: &str) -> (String, i32) {
        let text = text.trim_start_matches('-');
        let (mantissa, exp) = text.split_once(['e', 'E']).unwrap_or((text, "0"));
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all = format!("{int}{frac}");
        let lead = all.len() - all.trim_start_matches('0').len();
        let digits = all.trim_matches('0').to_owned();
        let exp: i32 = exp.parse().unwrap();
        (digits, int.len() as i32 - lead as i32 - 1 + exp)
    }

    /// Java's layout: plain for 1e-3 <= |v| < 1e7, else `d.dddE[-]n`; at least one digit
    /// after the point, no other trailing zero, no `+`, no leading zero in the exponent.
    fn assert_java_shape(text: &str, magnitude: f64) {
        let body = text.strip_prefix('-').unwrap_or(text);
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let fraction_ok = |f: &str| digits(f) && (f == "0" || !f.ends_with('0'));
        if (1e-3..1e7).contains(&magnitude) {
            let (int, frac) = body.split_once('.').expect("a point");
            assert!(
                digits(int) && (int == "0" || !int.starts_with('0')),
                "{text}"
            );
            assert!(fraction_ok(frac), "{text}");
            assert!(!body.contains('E'), "{text}");
        } else {
            let (mantissa, exp) = body.split_once('E').expect("an exponent");
            let (int, frac) = mantissa.split_once('.').expect("a point");
            assert!(int.len() == 1 && int != "0" && digits(int), "{text}");
            assert!(fraction_ok(frac), "{text}");
            let exp = exp.strip_prefix('-').unwrap_or(exp);
            assert!(digits(exp) && !exp.starts_with('0'), "{text}");
        }
    }

    /// Same length and exponent as Rust's own shortest text (`{:e}`), except where Java's
    /// two-digit rule applies (Rust's has one digit); the digits themselves may differ on
    /// ties, where Java takes the even one.
    fn assert_shortest(java: &str, rust: &str) {
        let (ours, our_exp) = digits_and_exponent(java);
        let (theirs, their_exp) = digits_and_exponent(rust);
        if theirs.len() == 1 {
            assert!(ours.len() <= 2, "{java} vs {rust}");
        } else {
            assert_eq!(
                (ours.len(), our_exp),
                (theirs.len(), their_exp),
                "{java} vs {rust}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn double_text_round_trips(bits: u64) {
            let v = f64::from_bits(bits);
            let text = double_to_string(v);
            let back = parse_double(text.as_bytes()).unwrap();
            if v.is_nan() {
                prop_assert_eq!(text, "NaN");
                prop_assert_eq!(back.to_bits(), f64::NAN.to_bits());
            } else {
                prop_assert_eq!(back.to_bits(), bits, "{}", text);
                if v.is_finite() && v != 0.0 {
                    assert_java_shape(&text, v.abs());
                    assert_shortest(&text, &format!("{v:e}"));
                }
            }
        }

        #[test]
        fn float_text_round_trips(bits: u32) {
            let v = f32::from_bits(bits);
            let text = float_to_string(v);
            let widened = double_to_string(f64::from(v));
            let back = parse_float(text.as_bytes()).unwrap();
            let csv_back = parse_double(widened.as_bytes()).unwrap() as f32;
            if v.is_nan() {
                prop_assert_eq!(text, "NaN");
                prop_assert_eq!(back.to_bits(), f32::NAN.to_bits());
                prop_assert_eq!(csv_back.to_bits(), f32::NAN.to_bits());
            } else {
                prop_assert_eq!(back.to_bits(), bits, "{}", text);
                prop_assert_eq!(csv_back.to_bits(), bits, "{}", widened);
                if v.is_finite() && v != 0.0 {
                    assert_java_shape(&text, f64::from(v.abs()));
                    assert_shortest(&text, &format!("{v:e}"));
                }
            }
        }

        /// JDK 8–18's text reads back to the same bits (Java's own guarantee), within Java's
        /// buffer; so does a float's, as `float` (XML) and widened to `double` (CSV).
        #[test]
        fn legacy_double_text_round_trips(bits: u64) {
            let v = f64::from_bits(bits);
            let text = FloatText::Legacy.double_to_string(v);
            prop_assert!(text.len() <= FloatText::MAX_LEN, "{}", text);
            let back = parse_double(text.as_bytes()).unwrap();
            if v.is_nan() {
                prop_assert_eq!(text, "NaN");
            } else {
                prop_assert_eq!(back.to_bits(), bits, "{}", text);
                // Rust reads it alike: it is an ordinary decimal.
                prop_assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(bits));
            }
        }

        #[test]
        fn legacy_float_text_round_trips(bits: u32) {
            let v = f32::from_bits(bits);
            let text = FloatText::Legacy.float_to_string(v);
            let widened = FloatText::Legacy.double_to_string(f64::from(v));
            prop_assert!(text.len() <= FloatText::MAX_LEN, "{}", text);
            let back = parse_float(text.as_bytes()).unwrap();
            let csv_back = parse_double(widened.as_bytes()).unwrap() as f32;
            if v.is_nan() {
                prop_assert_eq!(text, "NaN");
                prop_assert!(csv_back.is_nan());
            } else {
                prop_assert_eq!(back.to_bits(), bits, "{}", text);
                prop_assert_eq!(csv_back.to_bits(), bits, "{}", widened);
            }
        }

        /// Whatever Java spelling a value takes, it reads back the same.
        #[test]
        fn java_spellings_read_alike(
            bits: u64,
            pad_before in "[ \t\r\n]{0,2}",
            pad_after in "[ \t\r\n]{0,2}",
            suffix in prop::sample::select(vec!["", "d", "D", "f", "F"]),
            long_digits in 17usize..40,
        ) {
            let v = f64::from_bits(bits);
            prop_assume!(v.is_finite());
            for text in [
                double_to_string(v),
                format!("{v:e}"),
                format!("{v:E}"),
                format!("{v:.long_digits$e}"),
            ] {
                let spelled = format!("{pad_before}{text}{suffix}{pad_after}");
                let expected: f64 = text.to_ascii_lowercase().parse().unwrap();
                prop_assert_eq!(
                    parse_double(spelled.as_bytes()).map(f64::to_bits),
                    Ok(expected.to_bits()),
                    "{:?}", spelled
                );
            }
            let text = format!("{pad_before}{}{suffix}{pad_after}", hex_text(bits));
            prop_assert_eq!(parse_double(text.as_bytes()).map(f64::to_bits), Ok(bits), "{}", text);
        }

        /// Hex significands of any length round once, like a correctly rounded scaling.
        #[test]
        fn hex_rounds_like_exact_scaling(m in any::<u64>(), keep in 1u32..=64, exp in -1300i32..1100) {
            let m = m >> (64 - keep);
            prop_assume!(m != 0);
            let text = format!("0x{m:x}p{exp}");
            let got = parse_double(text.as_bytes()).unwrap();
            // m·2^exp with one rounding: exact for m < 2^53 (the first scaling keeps the
            // value normal and exact, the second rounds once); for wider m only where the
            // cast is the single rounding, i.e. when the result is normal.
            let first = exp.clamp(-1000, 1000);
            let expected = (m as f64) * 2f64.powi(first) * 2f64.powi(exp - first);
            if m < 1 << 53 || (expected.is_normal() && expected.is_finite()) {
                prop_assert_eq!(got.to_bits(), expected.to_bits(), "{}", text);
            }
            let got = parse_float(text.as_bytes()).unwrap();
            if m < 1 << 53 && (-1000..1000).contains(&exp) {
                let expected = ((m as f64) * 2f64.powi(exp)) as f32;
                prop_assert_eq!(got.to_bits(), expected.to_bits(), "{}", text);
            }
        }
    }

    /// `Double.toHexString(v)` for a finite `v`: `0x1.8p1`, `0x0.0000000000001p-1022`.
    fn hex_text(bits: u64) -> String {
        let sign = if bits >> 63 == 1 { "-" } else { "" };
        let exp = (bits >> 52 & 0x7ff) as i32;
        let fraction = bits & ((1 << 52) - 1);
        let digits = format!("{fraction:013x}");
        let digits = match digits.trim_end_matches('0') {
            "" => "0",
            d => d,
        };
        match exp {
            0 if fraction == 0 => format!("{sign}0x0.0p0"),
            0 => format!("{sign}0x0.{digits}p-1022"),
            _ => format!("{sign}0x1.{digits}p{}", exp - 1023),
        }
    }

    #[test]
    fn every_small_subnormal_round_trips() {
        for n in 1..5000u64 {
            let v = f64::from_bits(n);
            let text = double_to_string(v);
            assert_eq!(
                parse_double(text.as_bytes()).map(f64::to_bits),
                Ok(n),
                "{text}"
            );
            assert_shortest(&text, &format!("{v:e}"));
            let f = f32::from_bits(n as u32);
            let text = float_to_string(f);
            assert_eq!(
                parse_float(text.as_bytes()).map(f32::to_bits),
                Ok(n as u32),
                "{text}"
            );
            assert_shortest(&text, &format!("{f:e}"));
        }
    }
}
