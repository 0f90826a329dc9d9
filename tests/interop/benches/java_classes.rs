//! Our `rcc -l java` classes against the classes Hadoop's own rcc generates, side by side in
//! one run: reading and writing the small, text and bulk shapes of BENCHMARKS.md with
//! Hadoop's binary (and CSV) readers and writers, two JVMs per set of classes, alternating.
//!
//! `cargo bench -p interop-tests --bench java_classes` (`JAVA_BENCH_RECORDS` scales the
//! record counts; the default is 1,000,000 small and text records and 20,000 bulk ones).

use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordWriter, Value};
use hadoop_record_compiler::backend::java::JavaApi;
use interop_tests::batch::{Answer, Batch};
use interop_tests::java::{Classes, JavaPeer};
use interop_tests::tools::repo_root;

/// xorshift64*: the same records every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value with a random number of significant bytes, so every vint length occurs.
    fn varied(&mut self) -> u64 {
        let bytes = self.next() % 9;
        if bytes == 0 {
            0
        } else {
            self.next() >> (64 - 8 * bytes)
        }
    }

    fn ascii(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'a' + (self.next() % 26) as u8))
            .collect()
    }
}

fn values(shape: &str, n: usize, rng: &mut Rng) -> Vec<Value> {
    (0..n)
        .map(|_| match shape {
            "Small" => Value::Record(vec![
                Value::Int(rng.varied() as i32),
                Value::Long(rng.varied() as i64),
                Value::Bool(rng.next() & 1 == 1),
                Value::Double((rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 1e6),
            ]),
            "Text" => Value::Record(vec![
                Value::String(rng.ascii(40)),
                Value::String(rng.ascii(40)),
                Value::Int(rng.varied() as i32),
            ]),
            _ => Value::Record(vec![
                Value::Buffer((0..4096).map(|_| rng.next() as u8).collect()),
                Value::Long(rng.varied() as i64),
            ]),
        })
        .collect()
}

fn encode(schema: &Schema, id: RecordId, values: &[Value], format: Format) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format);
    for v in values {
        w.write_value(schema, id, v).expect("a bench value");
    }
    w.into_inner().expect("writing to memory")
}

fn main() {
    // `cargo test --benches` runs benches with --bench too; only `cargo bench` measures.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let scale: f64 = std::env::var("JAVA_BENCH_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(1.0, |n: f64| n / 1e6);
    let files = [repo_root().join("tests/interop/ddl/bench.jr")];
    let peers = [
        JavaPeer::build(&files, Classes::HadoopRcc),
        JavaPeer::build(&files, Classes::Ours(JavaApi::Hadoop2)),
    ];
    let schema = peers[0].schema();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let cases = [
        ("Small", Format::Binary, 1_000_000.0),
        ("Text", Format::Binary, 1_000_000.0),
        ("Bulk", Format::Binary, 20_000.0),
        ("Small", Format::Csv, 1_000_000.0),
    ];
    let mut batch = Batch::new();
    let mut sizes = Vec::new();
    for (shape, format, n) in cases {
        let n = ((n * scale) as usize).max(1);
        let name = format!("bench.{shape}");
        let id = schema.find(&name).expect("a bench record");
        let data = encode(schema, id, &values(shape, n, &mut rng), format);
        let encoding = if format == Format::Binary { 0 } else { 1 };
        batch.bench(&name, encoding, n as u32, &data, 7);
        sizes.push((n, data.len()));
    }
    // Two JVMs per set of classes, alternating, so that neither gets the quieter machine.
    let mut results = vec![vec![(u64::MAX, u64::MAX); cases.len()]; peers.len()];
    for _pass in 0..2 {
        for (peer, best) in peers.iter().zip(&mut results) {
            for (answer, best) in peer.run("bench", &batch).into_iter().zip(best.iter_mut()) {
                let Answer::Bench { read_ns, write_ns } = answer else {
                    panic!("{answer:?}")
                };
                *best = (best.0.min(read_ns), best.1.min(write_ns));
            }
        }
    }
    println!(
        "JDK {}; best of 2 JVMs x 7 rounds; M records/s (MB/s of encoded data)",
        peers[0].jdk().feature
    );
    println!(
        "| shape | records | Hadoop's rcc read | ours read | Hadoop's rcc write | ours write |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (i, (shape, format, _)) in cases.iter().enumerate() {
        let (n, bytes) = sizes[i];
        let rate = |ns: u64| {
            let s = ns as f64 / 1e9;
            format!(
                "{:.2} ({:.0} MB/s)",
                n as f64 / s / 1e6,
                bytes as f64 / s / 1e6
            )
        };
        let (h, o) = (results[0][i], results[1][i]);
        println!(
            "| {shape} {} | {n} | {} | {} | {} | {} |",
            format.name(),
            rate(h.0),
            rate(o.0),
            rate(h.1),
            rate(o.1)
        );
    }
}
