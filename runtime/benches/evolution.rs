//! Schema-evolution reads against plain reads of the same records: `RecordReader::read_with`
//! (typed, with the writer's type information) and `read_value_with` (as `Value`s), beside
//! `read` and `read_value`, in binary.
//!
//! `cargo bench -p hadoop-record --bench evolution` (`ARCHIVE_BENCH_CLOCK=cpu` for thread
//! CPU time). 100,000 records per iteration of the small and text shapes of the archive
//! benchmarks; each is read as written (`same`) and into a later version of its type that
//! dropped one field and added another (`evolved`; `reordered`: with its fields in another
//! order), one call per record (`read_with`) and through the iterator that holds its
//! filters (`records_with`).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use hadoop_record::meta::RecordTypeInfo;
use hadoop_record::{Format, Record, RecordReader, RecordWriter};

#[derive(Record, Debug, Clone, PartialEq)]
struct Small {
    i: i32,
    l: i64,
    z: bool,
    d: f64,
}

/// [`Small`] without `z`, with a new `n`.
#[derive(Record, Debug, Clone, PartialEq)]
struct SmallNext {
    i: i32,
    l: i64,
    d: f64,
    n: i32,
}

/// [`SmallNext`] with its fields in another order: the reader reads each record whole,
/// then hands it out.
#[derive(Record, Debug, Clone, PartialEq)]
#[record(name = "SmallNext")]
struct SmallShuffled {
    d: f64,
    n: i32,
    i: i32,
    l: i64,
}

#[derive(Record, Debug, Clone, PartialEq)]
struct Text {
    a: String,
    b: String,
    n: i32,
}

/// [`Text`] without `b`, with a new `c`.
#[derive(Record, Debug, Clone, PartialEq)]
struct TextNext {
    a: String,
    n: i32,
    c: i64,
}

/// [`TextNext`] with its fields in another order.
#[derive(Record, Debug, Clone, PartialEq)]
#[record(name = "TextNext")]
struct TextShuffled {
    n: i32,
    c: i64,
    a: String,
}

const N: usize = 100_000;

fn encode<T: Record>(records: &[T]) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), Format::Binary);
    for r in records {
        w.write(r).unwrap();
    }
    w.into_inner().unwrap()
}

/// Reads every record of `bytes` with `read`, checking the count.
fn read_all<T>(
    bytes: &[u8],
    mut read: impl FnMut(&mut RecordReader<&[u8]>) -> hadoop_record::Result<Option<T>>,
) {
    let mut reader = RecordReader::new(bytes, Format::Binary);
    let mut n = 0usize;
    while let Some(r) = read(&mut reader).unwrap() {
        black_box(&r);
        n += 1;
    }
    assert_eq!(n, N);
}

/// The benchmarks of one shape: `Old` written, read as itself, as `New` and as `Shuffled`.
fn shape<
    Old: Record + 'static,
    New: Record + 'static,
    Shuffled: Record + 'static,
    M: Measurement,
>(
    c: &mut Criterion<M>,
    name: &str,
    records: &[Old],
) {
    let bytes = encode(records);
    let info: RecordTypeInfo = Old::type_info();
    let (old_schema, old_id) = Old::schema();
    let (new_schema, new_id) = New::schema();
    let mut g: BenchmarkGroup<'_, M> = support::short_group(c, name, Duration::from_secs(3));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("read", |b| b.iter(|| read_all(&bytes, |r| r.read::<Old>())));
    g.bench_function("read_with/same", |b| {
        b.iter(|| read_all(&bytes, |r| r.read_with::<Old>(&info)))
    });
    g.bench_function("read_with/evolved", |b| {
        b.iter(|| read_all(&bytes, |r| r.read_with::<New>(&info)))
    });
    g.bench_function("read_with/reordered", |b| {
        b.iter(|| read_all(&bytes, |r| r.read_with::<Shuffled>(&info)))
    });
    g.bench_function("records_with/evolved", |b| {
        b.iter(|| {
            let mut reader = RecordReader::new(&bytes[..], Format::Binary);
            let mut n = 0usize;
            for r in reader.records_with::<New>(&info) {
                black_box(&r.unwrap());
                n += 1;
            }
            assert_eq!(n, N);
        })
    });
    g.bench_function("read_value", |b| {
        b.iter(|| read_all(&bytes, |r| r.read_value(&old_schema, old_id)))
    });
    g.bench_function("read_value_with/evolved", |b| {
        b.iter(|| read_all(&bytes, |r| r.read_value_with(&new_schema, new_id, &info)))
    });
    g.finish();
}

fn run<M: Measurement>(mut c: Criterion<M>) {
    let small: Vec<Small> = support::shapes::small(N)
        .into_iter()
        .map(|(i, l, z, d)| Small { i, l, z, d })
        .collect();
    shape::<Small, SmallNext, SmallShuffled, M>(&mut c, "evolution/small", &small);
    let text: Vec<Text> = support::shapes::text(N)
        .into_iter()
        .map(|(a, b, n)| Text { a, b, n })
        .collect();
    shape::<Text, TextNext, TextShuffled, M>(&mut c, "evolution/text", &text);
    c.final_summary();
}

support::bench_main!(run);
