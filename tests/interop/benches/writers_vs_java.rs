//! Writing records, Rust against Hadoop's Java, side by side in one run: the records of
//! `ddl/bench.jr` (the small shape {int, long, boolean, double} and the text shape) written
//! in CSV and XML (binary for reference), the small shape once with each class of double
//! (`Doubles`: plain, large, small, negative, subnormal; CSV and XML only), by Hadoop 2.10.2's `CsvRecordOutput`,
//! `XmlRecordOutput` and `BinaryRecordOutput` on the classes Hadoop's own rcc generates, and
//! by this crate's `RecordWriter` on the structs `rcc -l rust` generates for the same schema.
//! Both write the same records into a reused in-memory buffer; the Java side gets the
//! records as binary and reads them once before timing. Both outputs must be the same bytes:
//! the Rust side prints floats as the JVM's JDK does (`FloatText::Legacy` before JDK 19,
//! `FloatText::Shortest` from 19 on).
//!
//! `cargo bench -p interop-tests --bench writers_vs_java`. `JAVA_BENCH_RECORDS` sets the
//! record count (default 1,000,000), `JAVA_BENCH_ROUNDS` the rounds per JVM and per Rust pass
//! (default 7); two JVMs, each followed by a Rust pass, so that both see the same load; each
//! figure is the fastest round, the JVM's first rounds warming it up, by two clocks: the
//! writing thread's CPU time (steadier on a shared machine; for Java it leaves out the JIT
//! compiler's and the garbage collector's threads, which favours Java) and wall time.

use std::time::Instant;

use hadoop_record::archive::FloatText;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Value};
use interop_tests::batch::{Answer, Batch};
use interop_tests::bench_records::{encode, small_values, values, Doubles, Rng};
use interop_tests::java::{Classes, JavaPeer};
use interop_tests::tools::repo_root;

// What `rcc -l rust tests/interop/ddl/bench.jr` generates, less the doc comments and the
// derives the benchmark does not use.
#[derive(Debug, Clone, Default, PartialEq, hadoop_record::Record)]
#[record(module = "bench")]
struct Small {
    i: i32,
    l: i64,
    b: bool,
    d: f64,
}

#[derive(Debug, Clone, Default, PartialEq, hadoop_record::Record)]
#[record(module = "bench")]
struct Text {
    a: String,
    b: String,
    n: i32,
}

/// Records of one shape, typed.
enum Typed {
    Small(Vec<Small>),
    Text(Vec<Text>),
}

impl Typed {
    fn read(shape: &str, binary: &[u8]) -> Typed {
        fn all<T: Record>(binary: &[u8]) -> Vec<T> {
            let mut reader = RecordReader::new(binary, Format::Binary);
            std::iter::from_fn(|| reader.read::<T>().expect("a bench record")).collect()
        }
        match shape {
            "Small" => Typed::Small(all(binary)),
            _ => Typed::Text(all(binary)),
        }
    }

    /// Writes every record into `out` (cleared first, its capacity kept) in `format`, floats
    /// in text as `float_text` says.
    fn write(&self, out: &mut Vec<u8>, format: Format, float_text: FloatText) {
        fn all<T: Record>(records: &[T], out: &mut Vec<u8>, format: Format, ft: FloatText) {
            out.clear();
            let mut w = RecordWriter::new(&mut *out, format).with_float_text(ft);
            for r in records {
                w.write(r).expect("writing to memory");
            }
            w.flush().expect("writing to memory");
        }
        match self {
            Typed::Small(r) => all(r, out, format, float_text),
            Typed::Text(r) => all(r, out, format, float_text),
        }
    }
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Wall and thread CPU time, in nanoseconds.
#[derive(Debug, Clone, Copy)]
struct Time {
    wall: u64,
    cpu: u64,
}

impl Time {
    const NONE: Time = Time {
        wall: u64::MAX,
        cpu: u64::MAX,
    };

    fn min(self, other: Time) -> Time {
        Time {
            wall: self.wall.min(other.wall),
            cpu: self.cpu.min(other.cpu),
        }
    }
}

/// The fastest of `rounds` runs of `f`, by each clock.
fn fastest(rounds: u32, mut f: impl FnMut()) -> Time {
    (0..rounds)
        .map(|_| {
            let (start, start_cpu) = (Instant::now(), thread_cpu_ns());
            f();
            Time {
                wall: start.elapsed().as_nanos() as u64,
                cpu: thread_cpu_ns() - start_cpu,
            }
        })
        .fold(Time::NONE, Time::min)
}

fn env(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs benches with --bench too; only `cargo bench` measures.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let n = env("JAVA_BENCH_RECORDS", 1_000_000) as usize;
    let rounds = env("JAVA_BENCH_ROUNDS", 7);
    let peer = JavaPeer::build(
        &[repo_root().join("tests/interop/ddl/bench.jr")],
        Classes::HadoopRcc,
    );
    let schema = peer.schema();
    let float_text = peer.jdk().float_text();

    struct Case {
        shape: &'static str,
        /// The class of the small shape's doubles.
        doubles: Option<Doubles>,
        format: Format,
        records: Typed,
        values: Vec<Value>,
        java: Time,
        rust: Time,
        rust_values: Time,
        bytes: usize,
    }
    let mut rng = Rng::seeded();
    let mut cases = Vec::new();
    let mut batch = Batch::new();
    let inputs = Doubles::ALL
        .iter()
        .map(|&d| ("Small", Some(d)))
        .chain([("Text", None)]);
    for (shape, doubles) in inputs {
        let name = format!("bench.{shape}");
        let id = schema.find(&name).expect("a bench record");
        let values = match doubles {
            Some(d) => small_values(n, d, &mut rng),
            None => values(shape, n, &mut rng),
        };
        let binary = encode(schema, id, &values, Format::Binary);
        let formats = [(1, Format::Csv), (2, Format::Xml), (0, Format::Binary)];
        // Binary writes no double text: once, with plain doubles, for reference.
        let formats = match doubles {
            Some(Doubles::Plain) | None => &formats[..],
            Some(_) => &formats[..2],
        };
        for &(encoding, format) in formats {
            batch.write_bench(&name, encoding, n as u32, &binary, rounds);
            cases.push(Case {
                shape,
                doubles,
                format,
                records: Typed::read(shape, &binary),
                values: values.clone(),
                java: Time::NONE,
                rust: Time::NONE,
                rust_values: Time::NONE,
                bytes: 0,
            });
        }
    }

    let mut out = Vec::new();
    for pass in 0..2 {
        let answers = peer.run(&format!("writers-{pass}"), &batch);
        for (case, answer) in cases.iter_mut().zip(answers) {
            let Answer::WriteBench {
                write_ns,
                cpu_ns,
                written,
            } = answer
            else {
                panic!("{answer:?}")
            };
            case.java = case.java.min(Time {
                wall: write_ns,
                cpu: cpu_ns,
            });
            case.rust = case.rust.min(fastest(rounds, || {
                case.records.write(&mut out, case.format, float_text)
            }));
            assert!(
                out == written,
                "{} {:?} {}: Rust's bytes differ from Java's",
                case.shape,
                case.doubles,
                case.format
            );
            case.bytes = out.len();
            let id = schema.find(&format!("bench.{}", case.shape)).unwrap();
            case.rust_values = case.rust_values.min(fastest(rounds, || {
                out.clear();
                let mut w = RecordWriter::new(&mut out, case.format).with_float_text(float_text);
                for v in &case.values {
                    w.write_value(schema, id, v).expect("a bench value");
                }
                w.flush().expect("writing to memory");
            }));
        }
    }

    let rate = |ns: u64| n as f64 / (ns as f64 / 1e9) / 1e6;
    let cell = |ns: u64| format!("{:.2} ({:.0} ns)", rate(ns), ns as f64 / n as f64);
    println!(
        "JDK {} (Rust's float text: {float_text}); {n} records; fastest of 2 x {rounds} rounds; \
         M records/s (ns per record); ratio = Java's time / Rust's",
        peer.jdk().feature
    );
    let label = |c: &Case| match c.doubles {
        Some(d) => format!("{} ({})", c.shape, d.name()),
        None => c.shape.to_owned(),
    };
    for (clock, pick) in [
        (
            "thread CPU time (Java: the writing thread only, not the JIT's or the collector's)",
            (|t: Time| t.cpu) as fn(Time) -> u64,
        ),
        ("wall time", |t: Time| t.wall),
    ] {
        println!("\n{clock}\n");
        println!("| shape | format | MB | Java (Hadoop's rcc classes) | Rust (rcc -l rust structs) | ratio | Rust (Value, as rcc convert) |");
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for c in &cases {
            let (java, rust) = (pick(c.java), pick(c.rust));
            println!(
                "| {} | {} | {:.0} | {} | {} | **{:.1}×** | {} |",
                label(c),
                c.format,
                c.bytes as f64 / 1e6,
                cell(java),
                cell(rust),
                java as f64 / rust as f64,
                cell(pick(c.rust_values)),
            );
        }
    }
}
