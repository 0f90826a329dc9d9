//! Parse and check of the 2,001-record benchmark DDL (`tests/fixtures/bench/large.jr`);
//! Hadoop's rcc needs about 3 s for it, JVM start included. Results: BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hadoop_record_compiler::{load, load_with, syntax, LoadOptions, MemoryFileSystem};

const LARGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/bench/large.jr"
);

fn frontend(c: &mut Criterion) {
    let text = std::fs::read_to_string(LARGE).expect("benchmark DDL");
    let mut fs = MemoryFileSystem::new();
    fs.insert("large.jr", text.as_str());
    let options = LoadOptions::default();

    let mut group = c.benchmark_group("frontend/large.jr");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| syntax::parse(black_box(&text)).unwrap())
    });
    group.bench_function("parse+check (memory)", |b| {
        b.iter(|| load_with(&fs, black_box(&["large.jr"]), &options).unwrap())
    });
    group.bench_function("parse+check (disk)", |b| {
        b.iter(|| load(black_box(&[LARGE]), &options).unwrap())
    });
    let model = load_with(&fs, &["large.jr"], &options).unwrap();
    group.bench_function("to_schema", |b| b.iter(|| black_box(&model).to_schema()));
    group.finish();
}

criterion_group!(benches, frontend);
criterion_main!(benches);
