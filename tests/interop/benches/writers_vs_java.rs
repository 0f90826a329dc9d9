//! Writing records, Rust against Hadoop's Java, side by side in one run: the records of
//! `ddl/bench.jr` (the small shape {int, long, boolean, double} and the text shape) written
//! in CSV and XML (binary for reference), the small shape once with each class of double
//! (`Doubles`: plain, large, small, negative, subnormal; CSV and XML only), by Hadoop
//! 2.10.2's `CsvRecordOutput`, `XmlRecordOutput` and `BinaryRecordOutput` on the classes
//! Hadoop's own rcc generates, and by this crate's `RecordWriter`, on the structs `rcc -l
//! rust` generates for the same schema and on `Value`s (as `rcc convert` writes), with each
//! float text: `FloatText::Legacy` (the default, JDK 8 to 18's `Double.toString`) and
//! `FloatText::Shortest` (JDK 19 and later's). Both write the same records into a reused
//! in-memory buffer; the Java side gets the records as binary and reads them once before
//! timing.
//!
//! Java runs on the newest JDK found (as the interop tests pick it) and, when that one is
//! 19 or later, also on the newest JDK 8 to 17 (as the HDFS tests pick it), so that each
//! float text is timed against the Java that prints it, and its bytes checked equal to that
//! Java's; a float text no JDK here prints is timed unchecked.
//!
//! `cargo bench -p interop-tests --bench writers_vs_java`. `JAVA_BENCH_RECORDS` sets the
//! record count (default 1,000,000), `JAVA_BENCH_ROUNDS` the rounds per JVM and per Rust pass
//! (default 7); two passes, each the JVMs then Rust, so that both see the same load; each
//! figure is the fastest round, the JVM's first rounds warming it up, by two clocks: the
//! writing thread's CPU time (steadier on a shared machine; for Java it leaves out the JIT
//! compiler's and the garbage collector's threads, which favours Java) and wall time.

use std::time::{Duration, Instant};

use fixture_harness::bench::{env_or, measuring, thread_cpu, Timing};

use hadoop_record::archive::FloatText;
use hadoop_record::{Format, Record, RecordReader, RecordWriter, Value};
use interop_tests::batch::{Answer, Batch};
use interop_tests::bench_records::{encode, small_values, values, Doubles, Rng};
use interop_tests::java::{hdfs_jdk, Classes, JavaPeer};
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

/// The fastest of `rounds` runs of `f`, by each clock.
/// Wall time and this thread's CPU time (steadier on a shared machine).
fn fastest(rounds: u32, mut f: impl FnMut()) -> Timing {
    (0..rounds)
        .map(|_| {
            let (start, start_cpu) = (Instant::now(), thread_cpu());
            f();
            Timing {
                wall: start.elapsed(),
                cpu: thread_cpu() - start_cpu,
            }
        })
        .fold(Timing::MAX, Timing::best)
}

fn main() {
    if !measuring() {
        return;
    }
    let n: usize = env_or("JAVA_BENCH_RECORDS", 1_000_000);
    let rounds: u32 = env_or("JAVA_BENCH_ROUNDS", 7);
    let peers = peers();
    let schema = peers.iter().flatten().next().expect("a Java peer").schema();

    struct Case {
        shape: &'static str,
        /// The class of the small shape's doubles.
        doubles: Option<Doubles>,
        format: Format,
        records: Typed,
        values: Vec<Value>,
        /// By float text ([`FloatText::ALL`]'s order): the Java that prints it (`None`: no
        /// JDK here does), Rust on the typed records, Rust on `Value`s.
        java: [Option<Timing>; 2],
        rust: [Timing; 2],
        rust_values: [Timing; 2],
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
                java: [None; 2],
                rust: [Timing::MAX; 2],
                rust_values: [Timing::MAX; 2],
                bytes: 0,
            });
        }
    }

    let mut out = Vec::new();
    for pass in 0..2 {
        let answers: Vec<Option<Vec<Answer>>> = peers
            .iter()
            .map(|peer| {
                peer.as_ref().map(|peer| {
                    let name = format!("writers-jdk{}-{pass}", peer.jdk().feature);
                    peer.run(&name, &batch)
                })
            })
            .collect();
        for (k, case) in cases.iter_mut().enumerate() {
            let id = schema.find(&format!("bench.{}", case.shape)).unwrap();
            for (t, float_text) in FloatText::ALL.into_iter().enumerate() {
                let java_bytes = answers[t].as_ref().map(|answers| {
                    let Answer::WriteBench {
                        write_ns,
                        cpu_ns,
                        written,
                    } = &answers[k]
                    else {
                        panic!("{:?}", answers[k])
                    };
                    let time = Timing {
                        wall: Duration::from_nanos(*write_ns),
                        cpu: Duration::from_nanos(*cpu_ns),
                    };
                    case.java[t] = Some(case.java[t].unwrap_or(Timing::MAX).best(time));
                    written
                });
                let check = |out: &Vec<u8>, writer: &str| {
                    if let Some(java) = java_bytes {
                        assert!(
                            out == java,
                            "{} {:?} {} ({float_text}, {writer}): Rust's bytes differ from Java's",
                            case.shape,
                            case.doubles,
                            case.format
                        );
                    }
                };
                case.rust[t] = case.rust[t].best(fastest(rounds, || {
                    case.records.write(&mut out, case.format, float_text)
                }));
                check(&out, "typed");
                case.bytes = out.len();
                case.rust_values[t] = case.rust_values[t].best(fastest(rounds, || {
                    out.clear();
                    let mut w =
                        RecordWriter::new(&mut out, case.format).with_float_text(float_text);
                    for v in &case.values {
                        w.write_value(schema, id, v).expect("a bench value");
                    }
                    w.flush().expect("writing to memory");
                }));
                check(&out, "Value");
            }
        }
    }

    let rate = |ns: u64| n as f64 / (ns as f64 / 1e9) / 1e6;
    let cell = |ns: u64| format!("{:.2} ({:.0} ns)", rate(ns), ns as f64 / n as f64);
    let java_name = |t: usize| match &peers[t] {
        Some(peer) => format!("Java, JDK {}", peer.jdk().feature),
        None => "Java (no JDK here prints it)".to_owned(),
    };
    println!(
        "{n} records; fastest of 2 x {rounds} rounds; M records/s (ns per record); \
         ratio = Java's time / Rust's, each float text against the Java that prints it"
    );
    let label = |c: &Case| match c.doubles {
        Some(d) => format!("{} ({})", c.shape, d.name()),
        None => c.shape.to_owned(),
    };
    for (clock, pick) in [
        (
            "thread CPU time (Java: the writing thread only, not the JIT's or the collector's)",
            (|t: Timing| t.cpu.as_nanos() as u64) as fn(Timing) -> u64,
        ),
        ("wall time", |t: Timing| t.wall.as_nanos() as u64),
    ] {
        println!("\n{clock}\n");
        let mut header = "| shape | format | MB |".to_owned();
        for (t, float_text) in FloatText::ALL.into_iter().enumerate() {
            header += &format!(
                " {} | Rust {float_text} (rcc -l rust structs) | ratio | Rust {float_text} (Value, as rcc convert) | ratio |",
                java_name(t)
            );
        }
        println!("{header}");
        println!("|{}", " --- |".repeat(3 + 5 * FloatText::ALL.len()));
        for c in &cases {
            let mut row = format!(
                "| {} | {} | {:.0} |",
                label(c),
                c.format,
                c.bytes as f64 / 1e6
            );
            for t in 0..FloatText::ALL.len() {
                let (rust, values) = (pick(c.rust[t]), pick(c.rust_values[t]));
                let ratio = |of: u64| match c.java[t] {
                    Some(java) => format!("**{:.1}×**", pick(java) as f64 / of as f64),
                    None => "—".to_owned(),
                };
                let java = c.java[t].map_or("—".to_owned(), |j| cell(pick(j)));
                row += &format!(
                    " {java} | {} | {} | {} | {} |",
                    cell(rust),
                    ratio(rust),
                    cell(values),
                    ratio(values)
                );
            }
            println!("{row}");
        }
    }
}

/// Java peers by float text ([`FloatText::ALL`]'s order): the newest JDK, and when it
/// prints the shortest text, the newest JDK 8 to 17 for the legacy text (`None` when there
/// is none).
fn peers() -> [Option<JavaPeer>; 2] {
    let build = || {
        JavaPeer::build(
            &[repo_root().join("tests/interop/ddl/bench.jr")],
            Classes::HadoopRcc,
        )
    };
    let newest = build();
    let newest_text = newest.jdk().float_text();
    let older = match newest_text {
        FloatText::Legacy => None,
        FloatText::Shortest => std::panic::catch_unwind(hdfs_jdk).ok().map(|jdk| {
            // The peer runs on the JDK this variable names (read once, by this thread).
            let var = "HADOOP_RECORD_JAVA_HOME";
            let before = std::env::var_os(var);
            std::env::set_var(var, &jdk.home);
            let peer = build();
            match before {
                Some(v) => std::env::set_var(var, v),
                None => std::env::remove_var(var),
            }
            peer
        }),
    };
    match newest_text {
        FloatText::Legacy => [Some(newest), None],
        FloatText::Shortest => [older, Some(newest)],
    }
}
