//! Mesos RecordIO write and read throughput, 100-byte and 64 KiB payloads.
//! `cargo bench -p hadoop-record --bench framing_mesos`

mod support;

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hadoop_record::framing::mesos::{MesosOptions, MesosReader, MesosWriter};
use hadoop_record::framing::FrameWrite;
use support::{payload_sizes, short_group};

/// About 8 MiB of payloads of `size` bytes (printable, as JSON events would be).
fn payloads(size: usize) -> Vec<Vec<u8>> {
    let count = (8 << 20) / size;
    (0..count)
        .map(|i| {
            (0..size)
                .map(|j| b'a' + ((i * 31 + j * 7) % 26) as u8)
                .collect()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = short_group(c, "mesos", Duration::from_secs(2));
    for (size, records, bytes) in payload_sizes(payloads) {
        group.throughput(Throughput::Bytes(bytes));
        let mut out = Vec::with_capacity(bytes as usize + records.len() * 8);
        group.bench_function(BenchmarkId::new("write", size), |b| {
            b.iter(|| {
                out.clear();
                let mut w = MesosWriter::new(&mut out);
                for r in &records {
                    w.write_payload(r).unwrap();
                }
                black_box(w.records_written());
            })
        });
        // Built here too: a filtered run may skip the write benchmark.
        let mut framed = Vec::new();
        let mut w = MesosWriter::new(&mut framed);
        for r in &records {
            w.write_payload(r).unwrap();
        }
        w.into_inner().unwrap();
        // A record limit large enough for the 64 KiB payloads (the default is 4 MiB).
        let options = MesosOptions::default();
        group.bench_function(BenchmarkId::new("read", size), |b| {
            b.iter(|| {
                let mut n = 0usize;
                for r in MesosReader::with_options(&framed[..], options) {
                    n += r.unwrap().len();
                }
                assert_eq!(n as u64, bytes);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
