//! Columnar decode against typed reads (issue 19's first speed figure): the small shape
//! {int, long, boolean, double} of the runtime's archive benchmark, 1,000,000 records in
//! Hadoop's binary encoding in memory, read
//! - as typed records (`#[derive(Record)]`) with `RecordReader::read`,
//! - into Arrow batches of 8192 rows with `BatchReader` (all four columns),
//! - into batches of the `long` column alone (the other three fields skipped).
//!
//! `cargo bench -p hadoop-record-arrow --bench decode`; `ARCHIVE_BENCH_CLOCK=cpu` measures
//! the benchmark thread's CPU time instead of wall-clock time, as the archive bench does.

#[path = "../../runtime/benches/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput};
use hadoop_record::{Format, Record, RecordReader, RecordWriter};
use hadoop_record_arrow::{BatchReader, DecodeOptions};

#[derive(Record)]
struct Small {
    i: i32,
    l: i64,
    z: bool,
    d: f64,
}

const N: usize = 1_000_000;

fn run<M: Measurement>(mut c: Criterion<M>) {
    let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
    for (i, l, z, d) in support::shapes::small(N) {
        writer.write(&Small { i, l, z, d }).unwrap();
    }
    let bytes = writer.into_inner().unwrap();
    let (schema, id) = Small::schema();
    let schema = Arc::new(schema);

    let mut g = c.benchmark_group("small_binary_decode");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(4));
    g.bench_function("typed RecordReader::read", |b| {
        b.iter(|| {
            let mut reader = RecordReader::new(&bytes[..], Format::Binary);
            let mut n = 0usize;
            while let Some(r) = reader.read::<Small>().unwrap() {
                black_box(&r);
                n += 1;
            }
            assert_eq!(n, N);
        })
    });
    for (name, projection) in [
        ("BatchReader, 4 columns", None),
        ("BatchReader, long only", Some(vec![1])),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let options = DecodeOptions::default().with_projection(projection.clone());
                let reader =
                    BatchReader::new(&bytes[..], Format::Binary, schema.clone(), id, options)
                        .unwrap();
                let mut n = 0usize;
                for batch in reader {
                    n += black_box(batch.unwrap()).num_rows();
                }
                assert_eq!(n, N);
            })
        });
    }
    g.finish();
}

support::bench_main!(run);
