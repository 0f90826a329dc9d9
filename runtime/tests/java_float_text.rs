//! Java's float/double text against the reference data of `tests/fixtures/java-float-text`:
//! `Float.toString`, `Double.toString` and `Double.toString((double) f)` from JDK 17 and from a
//! modern JDK for 37,809 values. The writer must reproduce the modern text exactly; the parser
//! must read both back to the exact bits.

use hadoop_record::archive::text::{
    double_to_string, float_to_string, parse_double, parse_float, push_double, push_float, MAX_LEN,
};

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

#[test]
fn fixture_files_hold_the_documented_values() {
    let modern = load("jdk_modern.tsv");
    let jdk17 = load("jdk17.tsv");
    assert_eq!(modern.len(), 37_809);
    assert_eq!(jdk17.len(), modern.len());
    let mut differ = 0;
    for (m, o) in modern.iter().zip(&jdk17) {
        assert_eq!((m.kind, m.bits), (o.kind, o.bits), "line {}", m.number);
        differ += usize::from(m.to_string != o.to_string || m.widened != o.widened);
    }
    assert_eq!(differ, 2_606);
}

#[test]
fn writer_reproduces_every_modern_jdk_text() {
    let mut failures = Vec::new();
    let mut out = Vec::new();
    for line in load("jdk_modern.tsv") {
        let (written, widened) = match line.kind {
            Kind::F64 => (double_to_string(f64::from_bits(line.bits)), None),
            Kind::F32 => {
                let f = f32::from_bits(line.bits as u32);
                (float_to_string(f), Some(double_to_string(f64::from(f))))
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
            Kind::F64 => push_double(&mut out, f64::from_bits(line.bits)),
            Kind::F32 => push_float(&mut out, f32::from_bits(line.bits as u32)),
        }
        assert_eq!(&out[1..], line.to_string.as_bytes(), "line {}", line.number);
        assert!(out.len() - 1 <= MAX_LEN);
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
fn parser_reads_every_modern_jdk_text_back() {
    parses_back("jdk_modern.tsv");
}

#[test]
fn parser_reads_every_jdk17_text_back() {
    parses_back("jdk17.tsv");
}
