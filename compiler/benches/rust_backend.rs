//! The Rust back end on the 2,001-record benchmark DDL (`tests/fixtures/bench/large.jr`):
//! generate + format from a checked model, the file-per-module layout, and the whole of
//! `rcc -l rust -o` (read, parse, check, generate, format, write). Hadoop's rcc needs about
//! 3 s for Java output. Results: BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hadoop_record_compiler::backend::{rust, write_if_changed};
use hadoop_record_compiler::{load, LoadOptions};

const LARGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/bench/large.jr"
);

fn rust_backend(c: &mut Criterion) {
    let load_options = LoadOptions::default();
    let options = rust::Options::default();
    let model = load(&[LARGE], &load_options).unwrap();
    let out = std::env::temp_dir().join(format!("rcc-bench-{}.rs", std::process::id()));

    let mut group = c.benchmark_group("rust/large.jr");
    group.sample_size(30);
    group.bench_function("generate+format (one file)", |b| {
        b.iter(|| rust::generate_file(black_box(&model), &options).unwrap())
    });
    group.bench_function("generate+format (file per module)", |b| {
        b.iter(|| rust::generate_tree(black_box(&model), &options).unwrap())
    });
    group.bench_function("end to end (load, generate, format, write)", |b| {
        b.iter(|| {
            let model = load(black_box(&[LARGE]), &load_options).unwrap();
            let code = rust::generate_file(&model, &options).unwrap();
            // Removed first so that every iteration really writes.
            let _ = std::fs::remove_file(&out);
            write_if_changed(&out, code.as_bytes()).unwrap()
        })
    });
    group.finish();
    let _ = std::fs::remove_file(&out);
}

criterion_group!(benches, rust_backend);
criterion_main!(benches);
