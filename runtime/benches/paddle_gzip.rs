//! Gzip chunk writing (`framing/paddle/gozip`, byte-identical to Go's `compress/gzip`)
//! next to flate2's `GzEncoder` at the default level, on the same chunk payloads: 8 MiB of
//! 64 KiB records in 1 MiB chunks, for three kinds of content — JSON-like text (the words
//! of `framing_paddle`), random bytes (stored blocks) and a 4-letter alphabet (short
//! matches everywhere: the longest hash-chain walks, the worst case of Go's level 6).
//!
//! `cargo bench -p hadoop-record --bench paddle_gzip`
//!
//! `GZIP_BENCH_CLOCK=cpu` measures the benchmark thread's CPU time instead of wall-clock
//! time, steadier on a shared machine.

mod support;

use std::io::Write;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use hadoop_record::framing::paddle::{Compressor, PaddleWriteOptions};
use support::{chunk_payload, short_group, write_paddle, Rng, ThreadCpu, WORDS};

const TOTAL: usize = 8 << 20;
const RECORD: usize = 64 << 10;
const CHUNK: usize = 1 << 20;

/// 8 MiB of content of `kind`.
fn content(kind: &str) -> Vec<u8> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::with_capacity(TOTAL + 16);
    while out.len() < TOTAL {
        let r = rng.next();
        match kind {
            "text" => out.extend_from_slice(WORDS[(r % 8) as usize].as_bytes()),
            "random" => out.extend_from_slice(&r.to_le_bytes()),
            "dna" => out.extend((0..32).map(|i| b"ACGT"[((r >> (2 * i)) & 3) as usize])),
            _ => unreachable!(),
        }
    }
    out.truncate(TOTAL);
    out
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = short_group(c, "paddle-gzip", Duration::from_secs(3));
    group.throughput(Throughput::Bytes(TOTAL as u64));
    for kind in ["text", "random", "dna"] {
        let data = content(kind);
        let records: Vec<&[u8]> = data.chunks(RECORD).collect();
        let options = PaddleWriteOptions::default()
            .with_compressor(Compressor::Gzip)
            .with_max_chunk_size(CHUNK as u64);
        let mut out = Vec::with_capacity(TOTAL + (1 << 20));
        group.bench_function(BenchmarkId::new("paddle-write", kind), |b| {
            b.iter(|| {
                out.clear();
                black_box(write_paddle(&mut out, options, &records));
            })
        });
        // The same chunk payloads (u32 length + record each) through flate2 alone.
        let raw = chunk_payload(&records);
        let per_chunk = CHUNK / RECORD * (RECORD + 4);
        group.bench_function(BenchmarkId::new("flate2-gzip", kind), |b| {
            b.iter(|| {
                out.clear();
                for piece in raw.chunks(per_chunk) {
                    let mut enc =
                        flate2::write::GzEncoder::new(&mut out, flate2::Compression::default());
                    enc.write_all(piece).unwrap();
                    enc.finish().unwrap();
                }
                black_box(out.len());
            })
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    if std::env::var("GZIP_BENCH_CLOCK").as_deref() == Ok("cpu") {
        let mut c = c.with_measurement(ThreadCpu);
        bench(&mut c);
        c.final_summary();
    } else {
        bench(&mut c);
        c.final_summary();
    }
}
