//! Write and read records in memory through `RecordWriter`/`RecordReader` (write into a
//! `Vec`, read from a slice), in the three shapes of issue 3:
//! small {int, long, boolean, double}, text {two ~40-char ustrings, int} and
//! bulk {4096-byte buffer, long} in binary, and small in CSV: with the default float text
//! (`FloatText::Legacy`, JDK 8–18's `Double.toString`) and with `FloatText::Shortest`
//! (`csv/small_shortest`).
//!
//! `cargo bench -p hadoop-record --bench archives`. 1,000,000 records per iteration; bulk
//! uses 100,000 (400 MB) unless `ARCHIVE_BENCH_BULK` says otherwise, to stay kind to a
//! shared machine — its figure is bytes per second either way.
//!
//! `ARCHIVE_BENCH_CLOCK=cpu` measures the benchmark thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`) instead of wall-clock time: on a machine shared with other
//! work, that is what one core does, without the time spent waiting for it.

#[path = "../tests/fixture_records/mod.rs"]
mod fixture_records;
mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use hadoop_record::archive::FloatText;
use hadoop_record::{Format, Record, RecordReader, RecordWriter};

record!(Small {
    i: i32 = "i",
    l: i64 = "l",
    z: bool = "z",
    d: f64 = "d",
});
record!(Text {
    a: String = "a",
    b: String = "b",
    n: i32 = "n",
});
record!(Bulk {
    data: Vec<u8> = "data",
    n: i64 = "n",
});

const N: usize = 1_000_000;

fn small(n: usize) -> Vec<Small> {
    support::shapes::small(n)
        .into_iter()
        .map(|(i, l, z, d)| Small { i, l, z, d })
        .collect()
}

fn text(n: usize) -> Vec<Text> {
    support::shapes::text(n)
        .into_iter()
        .map(|(a, b, n)| Text { a, b, n })
        .collect()
}

fn bulk(n: usize) -> Vec<Bulk> {
    support::shapes::bulk(n)
        .into_iter()
        .map(|(data, n)| Bulk { data, n })
        .collect()
}

fn encode<T: Record>(records: &[T], format: Format, float_text: FloatText) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format).with_float_text(float_text);
    for r in records {
        w.write(r).unwrap();
    }
    w.into_inner().unwrap()
}

fn write_and_read<T: Record, M: Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    records: &[T],
    (format, float_text): (Format, FloatText),
    throughput: Throughput,
) {
    let bytes = encode(records, format, float_text);
    group.throughput(match throughput {
        Throughput::Bytes(_) => Throughput::Bytes(bytes.len() as u64),
        t => t,
    });
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("write", |b| {
        b.iter(|| {
            out.clear();
            let mut w = RecordWriter::new(&mut out, format).with_float_text(float_text);
            for r in records {
                w.write(r).unwrap();
            }
            w.flush().unwrap();
        });
        // Checked here, not after the group: a filter may skip the write benchmark.
        assert_eq!(out, bytes);
    });
    group.bench_function("read", |b| {
        b.iter(|| {
            let mut reader = RecordReader::new(&bytes[..], format);
            let mut n = 0usize;
            while let Some(r) = reader.read::<T>().unwrap() {
                black_box(&r);
                n += 1;
            }
            assert_eq!(n, records.len());
        })
    });
}

fn group<'a, M: Measurement>(c: &'a mut Criterion<M>, name: &str) -> BenchmarkGroup<'a, M> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(4));
    g
}

/// [`write_and_read`] in the group `name`, throughput in records; `records` are dropped
/// before the next group is built.
fn per_record<T: Record, M: Measurement>(
    c: &mut Criterion<M>,
    name: &str,
    records: Vec<T>,
    format: (Format, FloatText),
) {
    let throughput = Throughput::Elements(records.len() as u64);
    write_and_read(&mut group(c, name), &records, format, throughput);
}

fn binary<M: Measurement>(c: &mut Criterion<M>) {
    let binary = (Format::Binary, FloatText::default());
    per_record(c, "binary/small", small(N), binary);
    per_record(c, "binary/text", text(N), binary);
    let n = fixture_harness::bench::env_or("ARCHIVE_BENCH_BULK", 100_000);
    let records = bulk(n);
    write_and_read(
        &mut group(c, "binary/bulk"),
        &records,
        binary,
        Throughput::Bytes(0),
    );
}

fn csv<M: Measurement>(c: &mut Criterion<M>) {
    per_record(c, "csv/small", small(N), (Format::Csv, FloatText::Legacy));
    per_record(
        c,
        "csv/small_shortest",
        small(N),
        (Format::Csv, FloatText::Shortest),
    );
}

fn run<M: Measurement>(mut c: Criterion<M>) {
    binary(&mut c);
    csv(&mut c);
    c.final_summary();
}

support::bench_main!(run);
