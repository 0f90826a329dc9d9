//! `rcc fmt`'s work on 1,000 DDL files (target: under 1 s): formatting texts in memory, and
//! reading, formatting and comparing files on disk as `rcc fmt --check` does. The files are
//! the repository's DDL of ordinary size (Hadoop's shapes, the documentation's examples,
//! the shared fixtures, zookeeper.jute, …; the 444 KB `large.jr` aside), as they are
//! (formatted or not), repeated to 1,000. Results: BENCHMARKS.md.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hadoop_record_compiler::format::{format_file, format_source};
use hadoop_record_compiler::RealFileSystem;

const FILES: usize = 1_000;

/// The DDL files of the repository that are DDL (they parse) of ordinary size.
fn sources() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dirs = [
        "compiler/tests/ddl/docs",
        "compiler/tests/ddl/hadoop",
        "compiler/tests/ddl/extensions",
        "compiler/tests/ddl/format",
        "compiler/tests/ddl/describe",
        "compiler/tests/ddl/evolution",
        "compiler/tests/ddl/rust",
        "compiler/tests/ddl/cpp",
        "tests/fixtures/hadoop-java",
        "examples/weblinks/schema",
        "examples/zookeeper-client/schema",
    ];
    let mut texts = Vec::new();
    for dir in dirs {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jr" || e == "jute"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            if format_source(&text).is_ok() {
                texts.push(text);
            }
        }
    }
    assert!(texts.len() >= 30, "only {} files", texts.len());
    texts
}

fn format(c: &mut Criterion) {
    let sources = sources();
    let texts: Vec<&str> = sources
        .iter()
        .map(String::as_str)
        .cycle()
        .take(FILES)
        .collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    eprintln!(
        "{FILES} files from {} distinct ones: {bytes} bytes, {lines} lines",
        sources.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.path().join(format!("f{i:04}.jr"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();

    let mut group = c.benchmark_group("format/1000 files");
    group.throughput(Throughput::Elements(FILES as u64));
    group.sample_size(30);
    group.bench_function("format_source (memory)", |b| {
        b.iter(|| {
            for text in &texts {
                black_box(format_source(black_box(text)).unwrap());
            }
        })
    });
    group.bench_function("read + format + compare (disk, --check)", |b| {
        b.iter(|| {
            paths
                .iter()
                .filter(|p| format_file(&RealFileSystem, p).unwrap().is_changed())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, format);
criterion_main!(benches);
