//! Our `rcc -l java` classes against the classes Hadoop's own rcc generates, side by side in
//! one run: reading and writing the small, text and bulk shapes of BENCHMARKS.md with
//! Hadoop's binary (and CSV) readers and writers, two JVMs per set of classes, alternating.
//!
//! `cargo bench -p interop-tests --bench java_classes` (`JAVA_BENCH_RECORDS` scales the
//! record counts; the default is 1,000,000 small and text records and 20,000 bulk ones).

use hadoop_record::Format;
use hadoop_record_compiler::backend::java::JavaApi;
use interop_tests::batch::{Answer, Batch};
use interop_tests::bench_records::{encode, values, Rng};
use interop_tests::java::{Classes, JavaPeer};
use interop_tests::tools::repo_root;

fn main() {
    if !fixture_harness::bench::measuring() {
        return;
    }
    let scale = fixture_harness::bench::env_or("JAVA_BENCH_RECORDS", 1e6) / 1e6;
    let files = [repo_root().join("tests/interop/ddl/bench.jr")];
    let peers = [
        JavaPeer::build(&files, Classes::HadoopRcc),
        JavaPeer::build(&files, Classes::Ours(JavaApi::Hadoop2)),
    ];
    let schema = peers[0].schema();
    let mut rng = Rng::seeded();
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
