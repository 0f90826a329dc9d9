//! Generated C++ against the reference data: every Hadoop Java fixture file (and every
//! java_shapes file) is read into the generated classes and written back byte for byte in all
//! three encodings; signatures equal Java's; `compareTo`/`equals` agree with Java's; Java's
//! float text is reproduced and parsed back exactly; and random values written by the Rust
//! runtime cross Rust → C++ → Rust unchanged. One driver program (tests/cpp/driver.cc, built
//! with AddressSanitizer and UndefinedBehaviorSanitizer) serves every test, each test a batch
//! of commands in one run.

mod cpp_support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cpp_support::{run, Draw, Rng};
use fixture_harness::{hadoop_java, hadoop_java_dir, java_shapes, java_shapes_dir, Case, Encoding};
use hadoop_record::archive::FloatText;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};

const ENCODINGS: [(Encoding, &str); 3] = [
    (Encoding::Binary, "binary"),
    (Encoding::Csv, "csv"),
    (Encoding::Xml, "xml"),
];

struct Driver {
    program: PathBuf,
    dir: PathBuf,
}

/// The driver (built with sanitizers, so every fixture and random value also runs under
/// them); `None` when the C++ tests are skipped.
fn driver() -> Option<Driver> {
    let p = cpp_support::programs()?;
    Some(Driver {
        program: p.driver.clone(),
        dir: p.dir.clone(),
    })
}

impl Driver {
    /// Runs the commands `jobs` (one per line, fields tab-separated); one output line each.
    fn run(&self, name: &str, jobs: &str) -> Vec<String> {
        let job_file = self.dir.join(format!("{name}.jobs"));
        std::fs::write(&job_file, jobs).unwrap();
        let out = run(&self.program, &[job_file.as_os_str()], &self.dir);
        let lines: Vec<String> = out.lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), jobs.lines().count(), "{out}");
        lines
    }

    /// A fresh directory for a test's files.
    fn work(&self, name: &str) -> PathBuf {
        let dir = self.dir.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reads every fixture case of a manifest into the generated class and checks that writing
/// it back gives, in each encoding, exactly the bytes of the same stem's case (the modern-JDK
/// bytes where they differ), `expected` giving the bytes our writer must produce for a case.
/// `refused` lists the stems and encodings Hadoop's writer refuses (with its message); ours
/// must refuse them too.
/// The job line that has the driver run `command` on `case`'s file in `dir`, writing to
/// `out`: `command type encoding in out`.
fn copy_job(command: &str, case: &Case, dir: &Path, out: &Path) -> String {
    let (_, encoding) = ENCODINGS.iter().find(|(e, _)| *e == case.encoding).unwrap();
    let input = dir.join(&case.file);
    let (ty, input, out) = (&case.record_type, input.display(), out.display());
    format!("{command}\t{ty}\t{encoding}\t{input}\t{out}\n")
}

fn round_trip_cases(
    d: &Driver,
    name: &str,
    cases: &[Case],
    dir: &Path,
    expected: impl Fn(&Case) -> Vec<u8>,
    refused: &[(String, &str, String)],
) {
    let work = d.work(name);
    let by_name: BTreeMap<&str, &Case> = cases.iter().map(|c| (c.name.as_str(), c)).collect();
    let mut jobs = String::new();
    for (i, case) in cases.iter().enumerate() {
        jobs += &copy_job("roundtrip", case, dir, &work.join(i.to_string()));
    }
    let results = d.run(name, &jobs);
    let mut failures = Vec::new();
    for (i, (case, result)) in cases.iter().zip(&results).enumerate() {
        let count = case.values.len();
        let (stem, _) = case.name.rsplit_once('.').unwrap();
        let mut want = format!("ok {count}");
        for (s, encoding, message) in refused {
            if s == stem {
                // Java's message without its final period, in ours.
                want.push_str(&format!("\t{encoding} refused: "));
                if !result.contains(message.trim_end_matches('.')) {
                    failures.push(format!("{}: {result} (expected {message})", case.name));
                }
            }
        }
        if !result.starts_with(&want) {
            failures.push(format!("{}: {result} (expected {want})", case.name));
            continue;
        }
        for (_, encoding) in ENCODINGS {
            if refused.iter().any(|(s, e, _)| s == stem && *e == encoding) {
                continue;
            }
            let Some(other) = by_name.get(format!("{stem}.{encoding}").as_str()) else {
                continue;
            };
            let written = read(&work.join(format!("{i}.{encoding}")));
            if written != expected(other) {
                failures.push(format!(
                    "{} read and written as {encoding}: {:?}\n  expected {:?}",
                    case.name,
                    String::from_utf8_lossy(&written),
                    String::from_utf8_lossy(&expected(other))
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn hadoop_java_fixtures_round_trip_byte_for_byte() {
    let Some(d) = &driver() else { return };
    round_trip_cases(
        d,
        "hadoop-java",
        &hadoop_java().cases,
        &hadoop_java_dir(),
        Case::modern_bytes,
        &[],
    );
}

#[test]
fn java_shapes_round_trip_byte_for_byte() {
    let Some(d) = &driver() else { return };
    let shapes = java_shapes();
    let refused: Vec<(String, &str, String)> = shapes
        .refused
        .iter()
        .map(|r| {
            let (stem, _) = r.name.rsplit_once('.').unwrap();
            let (_, encoding) = ENCODINGS.iter().find(|(e, _)| *e == r.encoding).unwrap();
            (stem.to_owned(), *encoding, r.error.clone())
        })
        .collect();
    assert!(!refused.is_empty());
    round_trip_cases(
        d,
        "java-shapes",
        &shapes.cases,
        &java_shapes_dir(),
        |c| shapes.bytes(c),
        &refused,
    );
}

#[test]
fn signatures_equal_javas() {
    let Some(d) = &driver() else { return };
    let mut expected: Vec<(String, String)> = Vec::new();
    for (ty, sig) in hadoop_java()
        .signatures
        .iter()
        .chain(&java_shapes().signatures)
    {
        expected.push((ty.clone(), sig.clone()));
    }
    let jobs: String = expected
        .iter()
        .map(|(t, _)| format!("signature\t{t}\n"))
        .collect();
    let results = d.run("signatures", &jobs);
    for ((ty, sig), result) in expected.iter().zip(results) {
        let name = ty.rsplit('.').next().unwrap();
        assert_eq!(result, format!("sig {sig} {name} 1"), "{ty}");
    }
}

/// Java's `compareTo` and `equals` on the manifests' pairs of values.
#[test]
fn compare_and_equals_follow_java() {
    let Some(d) = &driver() else { return };
    let work = d.work("compare");
    let mut jobs = String::new();
    let mut expected = Vec::new();
    let java = hadoop_java().comparisons.iter().map(|c| {
        let (a, b) = c.values();
        (
            c,
            a,
            b,
            fixture_harness::schema(),
            fixture_harness::record_id(&c.record_type),
        )
    });
    let shapes = java_shapes().comparisons.iter().map(|c| {
        let a = fixture_harness::shapes_value(&c.record_type, &c.a);
        let b = fixture_harness::shapes_value(&c.record_type, &c.b);
        (
            c,
            a,
            b,
            fixture_harness::shapes_schema(),
            fixture_harness::shapes_id(&c.record_type),
        )
    });
    for (i, (c, a, b, schema, id)) in java.chain(shapes).enumerate() {
        let path = work.join(format!("{i}.bin"));
        let mut w = RecordWriter::new(Vec::new(), Format::Binary);
        w.write_value(schema, id, &a).unwrap();
        w.write_value(schema, id, &b).unwrap();
        std::fs::write(&path, w.into_inner().unwrap()).unwrap();
        writeln!(jobs, "compare\t{}\t{}", c.record_type, path.display()).unwrap();
        expected.push(c);
    }
    let results = d.run("compare", &jobs);
    let mut failures = Vec::new();
    for (c, result) in expected.iter().zip(results) {
        let want = format!(
            "cmp {} {} {} {}",
            c.compare_to_sign,
            c.compare_to_reverse_sign,
            u8::from(c.equals),
            u8::from(c.equals)
        );
        if result != want {
            failures.push(format!(
                "{} ({}): {result}, Java: {want}",
                c.label, c.record_type
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `tests/fixtures/java-float-text`: the writer reproduces every modern-JDK text and the
/// parser reads the texts of both JDKs back to the exact bits.
#[test]
fn float_text_is_javas() {
    let Some(d) = &driver() else { return };
    let work = d.work("float-text");
    let dir = cpp_support::repo().join("tests/fixtures/java-float-text");
    let modern = dir.join("jdk_modern.tsv");
    let written = work.join("written.tsv");
    let mut parse_jobs = String::new();
    let mut expected_bits = Vec::new();
    for file in ["jdk_modern.tsv", "jdk17.tsv"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let bits = u64::from_str_radix(&cols[1][2..], 16).unwrap();
            if cols[0] == "f32" {
                writeln!(parse_jobs, "f32\t{}", cols[2]).unwrap();
                expected_bits.push(format!("{bits:#010x}"));
                let widened = f64::from(f32::from_bits(bits as u32)).to_bits();
                writeln!(parse_jobs, "f64\t{}", cols[3]).unwrap();
                expected_bits.push(format!("{widened:#018x}"));
            } else {
                writeln!(parse_jobs, "f64\t{}", cols[2]).unwrap();
                expected_bits.push(format!("{bits:#018x}"));
            }
        }
    }
    let parse_in = work.join("parse.tsv");
    let parsed = work.join("parsed.txt");
    std::fs::write(&parse_in, parse_jobs).unwrap();
    let results = d.run(
        "float-text",
        &format!(
            "floattext\t{}\t{}\nparse\t{}\t{}\n",
            modern.display(),
            written.display(),
            parse_in.display(),
            parsed.display()
        ),
    );
    assert!(results.iter().all(|r| r.starts_with("ok ")), "{results:?}");

    let java = std::fs::read_to_string(&modern).unwrap();
    let ours = std::fs::read_to_string(&written).unwrap();
    let mut failures = Vec::new();
    for (line, got) in java.lines().skip(1).zip(ours.lines()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let want = format!("{}\t{}", cols[2], cols[3]);
        if got != want {
            failures.push(format!("{line}: wrote {got}"));
        }
    }
    assert_eq!(ours.lines().count(), java.lines().count() - 1);
    let got_bits = std::fs::read_to_string(&parsed).unwrap();
    let parse_lines = std::fs::read_to_string(&parse_in).unwrap();
    for ((got, want), text) in got_bits
        .lines()
        .zip(&expected_bits)
        .zip(parse_lines.lines())
    {
        if got != want {
            failures.push(format!("parsing {text}: {got}, expected {want}"));
        }
    }
    assert_eq!(got_bits.lines().count(), expected_bits.len());
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// Characters for random strings: everything the CSV and XML writers escape, and UTF-8 of
/// every length (no U+FFFE/U+FFFF: Hadoop's binary writer refuses them).
const CHARS: &[char] = &[
    'a',
    'Z',
    '0',
    ' ',
    ',',
    '}',
    '{',
    '%',
    '\n',
    '\r',
    '\0',
    '\t',
    '<',
    '&',
    '>',
    '\'',
    '"',
    '#',
    ']',
    '\u{7f}',
    'é',
    'ß',
    '\u{85}',
    '\u{800}',
    '中',
    '\u{d7ff}',
    '\u{e000}',
    '\u{ff5e}',
    '\u{fffd}',
    '\u{10000}',
    '\u{1f600}',
    '\u{10ffff}',
];

/// Where a value is: in a map key, and nested inside one (where Rust's value codec and the
/// typed code order `-0.0` and NaN differently, so neither appears there).
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Free,
    Key,
    InsideKey,
}

impl Place {
    fn inner(self) -> Place {
        if self == Place::Free {
            Place::Free
        } else {
            Place::InsideKey
        }
    }
}

/// A random float of type `$t` (bits `$bits`): special values, tiny subnormals, short
/// decimals, values at Java's notation boundaries, any bits; never NaN or zero inside a key.
macro_rules! random_float {
    ($name:ident, $t:ty, $bits:ty, $boundaries:expr, $inside_key:expr) => {
        fn $name(rng: &mut Rng, place: Place) -> $t {
            let specials = [
                0.0,
                -0.0,
                <$t>::INFINITY,
                <$t>::NEG_INFINITY,
                <$t>::NAN,
                <$t>::MIN_POSITIVE,
            ];
            let boundaries: [$t; 8] = $boundaries;
            let v = match rng.below(8) {
                0 => specials[rng.below(specials.len())],
                1 => <$t>::from_bits(rng.below(16) as $bits),
                2 => (rng.below(2001) as $t - 1000.0) / 8.0,
                3 => boundaries[rng.below(boundaries.len())],
                _ => <$t>::from_bits(rng.next() as $bits),
            };
            if place == Place::InsideKey && (v.is_nan() || v == 0.0) {
                return $inside_key;
            }
            v
        }
    };
}

random_float!(
    random_f64,
    f64,
    u64,
    [1e7, 9999999.0, 1e-3, 9.99e-4, 1e23, 1e21, 0.1, f64::MAX],
    1.5
);
random_float!(
    random_f32,
    f32,
    u32,
    [1e7, 9999999.0, 1e-3, 9.99e-4, 0.1, f32::MAX, 3.4e38, 1e-40],
    2.5
);

fn random_value(
    rng: &mut Rng,
    schema: &Schema,
    ty: &FieldType,
    depth: usize,
    place: Place,
) -> Value {
    let small = |rng: &mut Rng| rng.below(if depth > 3 { 1 } else { 4 });
    match ty {
        FieldType::Byte => Value::Byte(rng.next() as i8),
        FieldType::Bool => Value::Bool(rng.next() & 1 == 1),
        FieldType::Int => Value::Int(match rng.below(4) {
            0 => [0, -1, 127, 128, -112, -113, 1024, i32::MIN, i32::MAX][rng.below(9)],
            _ => (rng.next() as i32) >> rng.below(32),
        }),
        FieldType::Long => Value::Long(match rng.below(4) {
            0 => [0, -1, 1 << 32, -(1 << 40), i64::MIN, i64::MAX][rng.below(6)],
            _ => (rng.next() as i64) >> rng.below(64),
        }),
        FieldType::Float => Value::Float(random_f32(rng, place)),
        FieldType::Double => Value::Double(random_f64(rng, place)),
        FieldType::String => {
            let n = rng.below(12);
            Value::String((0..n).map(|_| CHARS[rng.below(CHARS.len())]).collect())
        }
        FieldType::Buffer => {
            let n = rng.below(10);
            Value::Buffer((0..n).map(|_| rng.next() as u8).collect())
        }
        FieldType::Vector(t) => {
            let n = small(rng);
            Value::Vector(
                (0..n)
                    .map(|_| random_value(rng, schema, t, depth + 1, place.inner()))
                    .collect(),
            )
        }
        FieldType::Map(k, v) => {
            let n = small(rng);
            let key_place = if place == Place::Free {
                Place::Key
            } else {
                Place::InsideKey
            };
            Value::Map(
                (0..n)
                    .map(|_| {
                        (
                            random_value(rng, schema, k, depth + 1, key_place),
                            random_value(rng, schema, v, depth + 1, place.inner()),
                        )
                    })
                    .collect(),
            )
        }
        FieldType::Record(id) => random_record(rng, schema, *id, depth + 1, place.inner()),
    }
}

fn random_record(
    rng: &mut Rng,
    schema: &Schema,
    id: RecordId,
    depth: usize,
    place: Place,
) -> Value {
    // A record key's floats compare with `==` in Java's compareTo: keep them plain.
    let place = if place == Place::Key {
        Place::InsideKey
    } else {
        place
    };
    Value::Record(
        schema
            .record(id)
            .unwrap()
            .fields
            .iter()
            .map(|f| random_value(rng, schema, &f.ty, depth, place))
            .collect(),
    )
}

/// Random values of every record type of the driver's schemas, written by the Rust runtime
/// in each encoding, read by the generated C++ and written back in all three: the bytes are
/// Rust's, and the Rust runtime reads them back as the values.
#[test]
fn random_values_cross_rust_cpp_rust_unchanged() {
    const PER_TYPE: usize = 60;
    let Some(d) = &driver() else { return };
    let work = d.work("random");
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut jobs = String::new();
    // (type, schema, id, values, Rust's bytes per encoding)
    let mut cases = Vec::new();
    for m in &cpp_support::programs().unwrap().models {
        let schema = m.to_schema();
        for record in m.records() {
            let id = schema.find(record.qualified_name()).unwrap();
            let values: Vec<Value> = (0..PER_TYPE)
                .map(|_| {
                    let v = random_record(&mut rng, schema.schema(), id, 0, Place::Free);
                    fixture_harness::read_back(&v)
                })
                .collect();
            let mut bytes = Vec::new();
            for (e, name) in ENCODINGS {
                // The C++ runtime prints floats as JDK 19+ does (docs/cpp.md).
                let mut w =
                    RecordWriter::new(Vec::new(), e.format()).with_float_text(FloatText::Shortest);
                for v in &values {
                    w.write_value(schema.schema(), id, v).unwrap();
                }
                let b = w.into_inner().unwrap();
                let i = cases.len();
                let input = work.join(format!("{i}-rust.{name}"));
                std::fs::write(&input, &b).unwrap();
                writeln!(
                    jobs,
                    "roundtrip\t{}\t{name}\t{}\t{}",
                    record.qualified_name(),
                    input.display(),
                    work.join(format!("{i}-from-{name}")).display()
                )
                .unwrap();
                bytes.push(b);
            }
            cases.push((
                record.qualified_name().to_owned(),
                schema.schema().clone(),
                id,
                values,
                bytes,
            ));
        }
    }
    let results = d.run("random", &jobs);
    let mut failures = Vec::new();
    for (i, (ty, schema, id, values, bytes)) in cases.iter().enumerate() {
        for (j, (_, from)) in ENCODINGS.iter().enumerate() {
            let result = &results[3 * i + j];
            if *result != format!("ok {PER_TYPE}") {
                failures.push(format!("{ty} from {from}: {result}"));
                continue;
            }
            for (k, (e, to)) in ENCODINGS.iter().enumerate() {
                let written = read(&work.join(format!("{i}-from-{from}.{to}")));
                if written != bytes[k] {
                    let at = written.iter().zip(&bytes[k]).position(|(a, b)| a != b);
                    failures.push(format!(
                        "{ty} read from {from}, written as {to}: differs from Rust's at byte {at:?} (C++ {} bytes, Rust {})",
                        written.len(),
                        bytes[k].len()
                    ));
                    continue;
                }
                let mut reader = RecordReader::new(&written[..], e.format());
                for v in values {
                    let back = reader.read_value(schema, *id).unwrap().unwrap();
                    assert!(
                        back.bitwise_eq(&fixture_harness::canon(v)),
                        "{ty} {to}: {back:?} vs {v:?}"
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Stream classes an application writes against Hadoop's declarations
/// (`virtual ssize_t read(void *buf, size_t n)`, `virtual ssize_t write(const void *buf,
/// size_t n)`), as Hadoop's documentation shows them (tests/cpp/user_streams.cc, compiled
/// with the strict warnings): one wrapping file descriptors, one wrapping iostreams. Every
/// Hadoop fixture file is read through them and written back through them, byte for byte;
/// then short reads and writes, EINTR, -1 and nonsense counts meet the runtime.
#[test]
fn user_streams_written_as_hadoop_declares_them() {
    let Some(p) = cpp_support::programs() else {
        return;
    };
    let work = p.dir.join("user-streams");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let dir = hadoop_java_dir();
    let cases = &hadoop_java().cases;
    let mut jobs = String::new();
    for (i, case) in cases.iter().enumerate() {
        let command = if i % 2 == 0 { "copy" } else { "copystd" };
        jobs += &copy_job(command, case, &dir, &work.join(i.to_string()));
    }
    let fixture = |name: &str| {
        let case = cases.iter().find(|c| c.name == name).unwrap();
        (case.record_type.clone(), dir.join(&case.file))
    };
    for name in ["stream_allprims_x3.binary", "stream_outer_x2.binary"] {
        let (ty, file) = fixture(name);
        writeln!(jobs, "faults\t{ty}\t{}", file.display()).unwrap();
    }
    let job_file = work.join("jobs");
    std::fs::write(&job_file, &jobs).unwrap();
    let out = run(&p.user_streams, &[job_file.as_os_str()], &p.dir);
    let mut lines = out.lines();

    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let result = lines.next().unwrap();
        let want = format!("ok {}", case.values.len());
        if result != want {
            failures.push(format!("{}: {result} (expected {want})", case.name));
            continue;
        }
        if read(&work.join(i.to_string())) != case.modern_bytes() {
            failures.push(format!("{}: written back differently", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let faults: Vec<&str> = lines.collect();
    let expected_allprims = [
        "dribble-binary same",
        "short-writes-binary same",
        "hadoop-names-binary same",
        "read-fails-binary error kIo record 1, byte 35, in AllPrims.d: InStream::read failed (returned -1): Input/output error",
        "dribble-csv same",
        "short-writes-csv same",
        "hadoop-names-csv same",
        "read-fails-csv error kIo record 1, byte 54, in AllPrims.s: InStream::read failed (returned -1): Input/output error",
        "dribble-xml same",
        "short-writes-xml same",
        "hadoop-names-xml same",
        "read-fails-xml error kIo record 1, byte 1024, in AllPrims.f: InStream::read failed (returned -1): Input/output error",
        "read-fails-at-once error kIo record 0, byte 0, in AllPrims: InStream::read failed (returned -1)",
        "read-returns-too-much error kIo record 0, byte 0, in AllPrims: InStream::read returned 1048576 for a read of 65536 bytes",
        "read-throws error kIo record 0, byte 10, in AllPrims.d: the disk went away",
        "write-fails error kIo OutStream::write failed (returned -1): No space left on device",
        "write-returns-zero error kIo OutStream::write wrote nothing of 71 bytes (returned 0)",
        "write-returns-too-much error kIo OutStream::write returned 1048576 for a write of 71 bytes",
        "flush-again same",
    ];
    assert_eq!(&faults[..expected_allprims.len()], expected_allprims);
    // The nested records: the same outcomes; the messages differ only in where and in
    // byte counts.
    let outer = &faults[expected_allprims.len()..];
    assert_eq!(outer.len(), expected_allprims.len(), "{outer:#?}");
    let shape = |line: &str| {
        let message = line.rsplit(": ").next().unwrap();
        let name = line.split(' ').next().unwrap();
        let mut out = format!("{name} ");
        for c in message.chars() {
            match (c.is_ascii_digit(), out.ends_with('#')) {
                (true, true) => {}
                (true, false) => out.push('#'),
                (false, _) => out.push(c),
            }
        }
        out
    };
    for (got, want) in outer.iter().zip(expected_allprims) {
        assert_eq!(shape(got), shape(want), "{got}");
    }
}
