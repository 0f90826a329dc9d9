//! PaddlePaddle RecordIO write and read throughput, 100-byte and 64 KiB payloads, without
//! compression and with snappy and gzip, next to the compression crates on their own
//! (the same bytes through snap's frame encoder/decoder and flate2's gzip).
//! `cargo bench -p hadoop-record --bench framing_paddle`

mod support;

use std::io::{Read, Write};
use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hadoop_record::framing::paddle::{
    Compressor, PaddleCodec, PaddleReadOptions, PaddleReader, PaddleWriteOptions,
};
use support::{chunk_payload, payload_sizes, short_group, write_paddle, Rng, WORDS};
use tokio_util::codec::Decoder;

/// About 8 MiB of payloads of `size` bytes, text-like so that compression has work to do.
fn payloads(size: usize) -> Vec<Vec<u8>> {
    let count = (8 << 20) / size;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    (0..count)
        .map(|_| {
            let mut r = Vec::with_capacity(size + 16);
            while r.len() < size {
                r.extend_from_slice(WORDS[(rng.next() % 8) as usize].as_bytes());
            }
            r.truncate(size);
            r
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = short_group(c, "paddle", Duration::from_secs(2));
    for (size, records, bytes) in payload_sizes(payloads) {
        group.throughput(Throughput::Bytes(bytes));
        // The chunk payloads as the writer builds them, for the crate-alone baselines.
        let raw = chunk_payload(&records);
        for compressor in [Compressor::None, Compressor::Snappy, Compressor::Gzip] {
            let name = format!("{compressor:?}").to_lowercase();
            // 1 MiB chunks: several per run, as a real file has.
            let options = PaddleWriteOptions::default()
                .with_compressor(compressor)
                .with_max_chunk_size(1 << 20);
            let mut out = Vec::with_capacity(bytes as usize * 2);
            group.bench_function(BenchmarkId::new(format!("write/{name}"), size), |b| {
                b.iter(|| {
                    out.clear();
                    black_box(write_paddle(&mut out, options, &records));
                })
            });
            // Built here too: a filtered run may skip the write benchmark.
            let mut file = Vec::new();
            write_paddle(&mut file, options, &records);
            group.bench_function(BenchmarkId::new(format!("read/{name}"), size), |b| {
                b.iter(|| {
                    let mut n = 0usize;
                    for r in PaddleReader::with_options(&file[..], PaddleReadOptions::default()) {
                        n += r.unwrap().len();
                    }
                    assert_eq!(n as u64, bytes);
                })
            });
            group.bench_function(BenchmarkId::new(format!("read-ref/{name}"), size), |b| {
                b.iter(|| {
                    let mut n = 0usize;
                    let mut reader =
                        PaddleReader::with_options(&file[..], PaddleReadOptions::default());
                    while let Some(r) = reader.next_ref() {
                        n += r.unwrap().len();
                    }
                    assert_eq!(n as u64, bytes);
                })
            });
            if compressor != Compressor::None {
                continue;
            }
            // The recovering reader (the chunk finder: whole chunks buffered, CRC from
            // checkpoints) and the tokio codec (the same finder, fed 64 KiB at a time).
            group.bench_function(BenchmarkId::new("read-recover/none", size), |b| {
                b.iter(|| {
                    let mut n = 0usize;
                    let options = PaddleReadOptions::default().with_recover(true);
                    let mut reader = PaddleReader::with_options(&file[..], options);
                    while let Some(r) = reader.next_ref() {
                        n += r.unwrap().len();
                    }
                    assert_eq!(n as u64, bytes);
                })
            });
            group.bench_function(BenchmarkId::new("codec/none", size), |b| {
                b.iter(|| {
                    let mut codec = PaddleCodec::default();
                    let mut buf = bytes::BytesMut::with_capacity(2 << 20);
                    let mut n = 0usize;
                    for piece in file.chunks(64 << 10) {
                        buf.extend_from_slice(piece);
                        while let Some(r) = codec.decode(&mut buf).unwrap() {
                            n += r.len();
                        }
                    }
                    while let Some(r) = codec.decode_eof(&mut buf).unwrap() {
                        n += r.len();
                    }
                    assert_eq!(n as u64, bytes);
                })
            });
        }
        // The compression crates alone, on the same payload bytes in the same 1 MiB pieces.
        let pieces: Vec<&[u8]> = raw.chunks(1 << 20).collect();
        let mut compressed = Vec::with_capacity(raw.len());
        let mut plain = Vec::with_capacity(1 << 21);
        let codecs: [(&str, Codec, Codec); 2] = [
            ("snap", snap_compress, |stored, out| {
                read_all(snap::read::FrameDecoder::new(stored), out)
            }),
            ("gzip", gzip_compress, |stored, out| {
                read_all(flate2::read::GzDecoder::new(stored), out)
            }),
        ];
        for (name, compress, decompress) in codecs {
            let id = |what: &str| BenchmarkId::new(format!("crate/{name}-{what}"), size);
            group.bench_function(id("compress"), |b| {
                b.iter(|| {
                    compressed.clear();
                    for p in &pieces {
                        compress(p, &mut compressed);
                    }
                })
            });
            let stored: Vec<Vec<u8>> = pieces
                .iter()
                .map(|p| {
                    let mut v = Vec::new();
                    compress(p, &mut v);
                    v
                })
                .collect();
            group.bench_function(id("decompress"), |b| {
                b.iter(|| {
                    for s in &stored {
                        plain.clear();
                        decompress(s, &mut plain);
                    }
                })
            });
        }
    }
    group.finish();
}

/// A compression crate's whole-stream coding alone: from the first slice onto the vector.
type Codec = fn(&[u8], &mut Vec<u8>);

fn snap_compress(piece: &[u8], out: &mut Vec<u8>) {
    let mut enc = snap::write::FrameEncoder::new(out);
    enc.write_all(piece).unwrap();
    enc.flush().unwrap();
}

fn gzip_compress(piece: &[u8], out: &mut Vec<u8>) {
    let mut enc = flate2::write::GzEncoder::new(out, flate2::Compression::default());
    enc.write_all(piece).unwrap();
    enc.finish().unwrap();
}

/// What a crate's decoder gives, onto `out`.
fn read_all(mut decoder: impl Read, out: &mut Vec<u8>) {
    decoder.read_to_end(out).unwrap();
}

criterion_group!(benches, bench);
criterion_main!(benches);
