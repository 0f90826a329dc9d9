//! Write and read throughput of the Plasma formats and RecordIO v1, for 100-byte and
//! 64 KiB payloads (throughput counts payload bytes).
//!
//! `cargo bench -p hadoop-record --bench framing_plasma_v1`

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
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

fn text_file(records: &[Vec<u8>], capacity: usize) -> Vec<u8> {
    let mut w = TextWriter::new(Vec::with_capacity(capacity));
    write_all(&mut w, records);
    w.into_inner().unwrap()
}

fn fixed_file(records: &[Vec<u8>], size: usize, capacity: usize) -> Vec<u8> {
    let mut w = FixedWriter::new(Vec::with_capacity(capacity), size).unwrap();
    write_all(&mut w, records);
    w.into_inner().unwrap()
}

/// The group `name`, counting `bytes` of payload an iteration, timing `write` (the file of the
/// payloads, in a vector of the capacity given) as `write/label`; and that file.
fn write_group<'c>(
    c: &'c mut Criterion,
    name: &str,
    (bytes, label): (u64, &str),
    write: impl Fn(usize) -> Vec<u8>,
) -> (BenchmarkGroup<'c, WallTime>, Vec<u8>) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes));
    let file = write(0);
    group.bench_function(BenchmarkId::new("write", label), |b| {
        b.iter(|| black_box(write(file.len())))
    });
    (group, file)
}

/// Times `code` on each of `blocks`.
fn bench_blocks<B: AsRef<[u8]>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    blocks: &[B],
    mut code: impl FnMut(&[u8]) -> usize,
) {
    group.bench_function(id, |b| {
        b.iter(|| {
            for block in blocks {
                black_box(code(block.as_ref()));
            }
        })
    });
}

/// Times reading every record of the reader `read` makes.
fn bench_read<I, T, E>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    read: impl Fn() -> I,
) where
    I: IntoIterator<Item = Result<T, E>>,
    E: std::fmt::Debug,
{
    group.bench_function(id, |b| {
        b.iter(|| {
            for r in read() {
                black_box(r.unwrap());
            }
        })
    });
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
            let plain: Vec<&[u8]> = raw.chunks(256 << 10).collect();
            let compressed: Vec<Vec<u8>> = plain
                .iter()
                .map(|b| snap::raw::Encoder::new().compress_vec(b).unwrap())
                .collect();
            let mut out = vec![0; snap::raw::max_compress_len(256 << 10)];
            let mut enc = snap::raw::Encoder::new();
            let id = BenchmarkId::new("snap-crate-compress", label);
            bench_blocks(&mut group, id, &plain, |b| {
                enc.compress(b, &mut out).unwrap()
            });
            let mut dec = snap::raw::Decoder::new();
            let id = BenchmarkId::new("snap-crate-decompress", label);
            bench_blocks(&mut group, id, &compressed, |b| {
                dec.decompress(b, &mut out).unwrap()
            });
        }
        for compression in [Compression::None, Compression::Snappy] {
            let file = var_file(&records, compression, 0);
            let id = format!("{}/{label}", compression.name());
            group.bench_function(BenchmarkId::new("write", &id), |b| {
                b.iter(|| black_box(var_file(&records, compression, file.len())))
            });
            bench_read(&mut group, BenchmarkId::new("read", &id), || {
                VarReader::new(&file[..])
            });
        }
        group.finish();

        let (mut group, file) = write_group(c, "v1", (bytes, label), |capacity| {
            v1_file(&records, capacity)
        });
        bench_read(&mut group, BenchmarkId::new("read", label), || {
            V1Reader::new(&file[..]).unwrap()
        });
        bench_read(&mut group, BenchmarkId::new("read-payloads", label), || {
            V1Reader::new(&file[..]).unwrap().payloads()
        });
        group.finish();

        let (mut group, file) = write_group(c, "plasma-text", (bytes, label), |capacity| {
            text_file(&records, capacity)
        });
        bench_read(&mut group, BenchmarkId::new("read", label), || {
            TextReader::new(&file[..])
        });
        group.finish();

        let (mut group, file) = write_group(c, "plasma-fixed", (bytes, label), |capacity| {
            fixed_file(&records, size, capacity)
        });
        bench_read(&mut group, BenchmarkId::new("read", label), || {
            FixedReader::new(&file[..], size).unwrap()
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
