//! Write and read throughput of the Plasma formats and RecordIO v1, for 100-byte and
//! 64 KiB payloads (throughput counts payload bytes).
//!
//! `cargo bench -p hadoop-record --bench framing_plasma_v1`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hadoop_record::framing::plasma::{
    Compression, FixedReader, FixedWriter, TextReader, TextWriter, VarReader, VarWriteOptions,
    VarWriter,
};
use hadoop_record::framing::v1::{FileHeader, V1Reader, V1WriteOptions, V1Writer};
use hadoop_record::framing::FrameWrite;

/// About 4 MiB of payloads of `size` bytes: text-like (compressible, no LF).
fn payloads(size: usize) -> Vec<Vec<u8>> {
    let count = (4 << 20) / size;
    let words = [
        &b"record "[..],
        b"field ",
        b"value ",
        b"hadoop ",
        b"plasma ",
        b"12345 ",
    ];
    (0..count)
        .map(|i| {
            let mut p = Vec::with_capacity(size);
            let mut j = i;
            while p.len() < size {
                p.extend_from_slice(words[j % words.len()]);
                j = j.wrapping_mul(31).wrapping_add(7);
            }
            p.truncate(size);
            p
        })
        .collect()
}

fn total(records: &[Vec<u8>]) -> u64 {
    records.iter().map(|r| r.len() as u64).sum()
}

fn write_all(w: &mut dyn FrameWrite, records: &[Vec<u8>]) {
    for r in records {
        w.write_payload(r).unwrap();
    }
    w.finish().unwrap();
}

fn var_file(records: &[Vec<u8>], compression: Compression, capacity: usize) -> Vec<u8> {
    let options = VarWriteOptions::default().with_compression(compression);
    let mut w = VarWriter::new(Vec::with_capacity(capacity), options).unwrap();
    write_all(&mut w, records);
    w.into_inner().unwrap()
}

fn v1_file(records: &[Vec<u8>], capacity: usize) -> Vec<u8> {
    let mut w = V1Writer::new(
        Vec::with_capacity(capacity),
        FileHeader::new(),
        V1WriteOptions::default(),
    )
    .unwrap();
    for r in records {
        w.write_record("Rec", r).unwrap();
    }
    w.into_inner().unwrap()
}

fn bench(c: &mut Criterion) {
    for size in [100usize, 64 << 10] {
        let records = payloads(size);
        let bytes = total(&records);
        let label = if size == 100 { "100B" } else { "64KiB" };

        let mut group = c.benchmark_group("plasma-var");
        group.throughput(Throughput::Bytes(bytes));
        {
            // The snap crate alone on the same bytes, in blocks of about the size
            // plasma-var's snappy chunks hold for this text: the reference for the
            // compressed rows.
            let raw: Vec<u8> = records.concat();
            let blocks: Vec<Vec<u8>> = raw
                .chunks(256 << 10)
                .map(|b| snap::raw::Encoder::new().compress_vec(b).unwrap())
                .collect();
            group.bench_function(BenchmarkId::new("snap-crate-compress", label), |b| {
                let mut enc = snap::raw::Encoder::new();
                let mut out = vec![0; snap::raw::max_compress_len(256 << 10)];
                b.iter(|| {
                    for block in raw.chunks(256 << 10) {
                        black_box(enc.compress(block, &mut out).unwrap());
                    }
                })
            });
            group.bench_function(BenchmarkId::new("snap-crate-decompress", label), |b| {
                let mut dec = snap::raw::Decoder::new();
                let mut out = vec![0; 256 << 10];
                b.iter(|| {
                    for block in &blocks {
                        black_box(dec.decompress(block, &mut out).unwrap());
                    }
                })
            });
        }
        for compression in [Compression::None, Compression::Snappy] {
            let file = var_file(&records, compression, 0);
            let id = format!("{}/{label}", compression.name());
            group.bench_function(BenchmarkId::new("write", &id), |b| {
                b.iter(|| black_box(var_file(&records, compression, file.len())))
            });
            group.bench_function(BenchmarkId::new("read", &id), |b| {
                b.iter(|| {
                    for r in VarReader::new(&file[..]) {
                        black_box(r.unwrap());
                    }
                })
            });
        }
        group.finish();

        let mut group = c.benchmark_group("v1");
        group.throughput(Throughput::Bytes(bytes));
        let file = v1_file(&records, 0);
        group.bench_function(BenchmarkId::new("write", label), |b| {
            b.iter(|| black_box(v1_file(&records, file.len())))
        });
        group.bench_function(BenchmarkId::new("read", label), |b| {
            b.iter(|| {
                for r in V1Reader::new(&file[..]).unwrap() {
                    black_box(r.unwrap());
                }
            })
        });
        group.bench_function(BenchmarkId::new("read-payloads", label), |b| {
            b.iter(|| {
                for r in V1Reader::new(&file[..]).unwrap().payloads() {
                    black_box(r.unwrap());
                }
            })
        });
        group.finish();

        let mut group = c.benchmark_group("plasma-text");
        group.throughput(Throughput::Bytes(bytes));
        let mut w = TextWriter::new(Vec::new());
        write_all(&mut w, &records);
        let file = w.into_inner().unwrap();
        group.bench_function(BenchmarkId::new("write", label), |b| {
            b.iter(|| {
                let mut w = TextWriter::new(Vec::with_capacity(file.len()));
                write_all(&mut w, &records);
                black_box(w.into_inner().unwrap())
            })
        });
        group.bench_function(BenchmarkId::new("read", label), |b| {
            b.iter(|| {
                for r in TextReader::new(&file[..]) {
                    black_box(r.unwrap());
                }
            })
        });
        group.finish();

        let mut group = c.benchmark_group("plasma-fixed");
        group.throughput(Throughput::Bytes(bytes));
        let mut w = FixedWriter::new(Vec::new(), size).unwrap();
        write_all(&mut w, &records);
        let file = w.into_inner().unwrap();
        group.bench_function(BenchmarkId::new("write", label), |b| {
            b.iter(|| {
                let mut w = FixedWriter::new(Vec::with_capacity(file.len()), size).unwrap();
                write_all(&mut w, &records);
                black_box(w.into_inner().unwrap())
            })
        });
        group.bench_function(BenchmarkId::new("read", label), |b| {
            b.iter(|| {
                for r in FixedReader::new(&file[..], size).unwrap() {
                    black_box(r.unwrap());
                }
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
