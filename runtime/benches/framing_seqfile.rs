//! SequenceFile reading against its yardsticks (issue 21's targets):
//!
//! - `records/*`: 200,000 text records ({two 40-character ustrings, int}, the archives
//!   bench's shape) decoded from a plain binary stream (`RecordReader`), and from an
//!   uncompressed SequenceFile (each value payload decoded); target within 1.3×.
//! - `block/<codec>`: the values of a block-compressed file read (payloads, not decoded),
//!   against the codec crate alone decompressing the same block buffers in the same pieces
//!   (`crate/<codec>`); target within 1.2×. Also writing, for the record.
//!
//! `cargo bench -p hadoop-record --bench framing_seqfile`

#[path = "../tests/fixture_records/mod.rs"]
mod fixture_records;
mod support;

use std::hint::black_box;
use std::io::Read;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hadoop_record::archive::binary::{vint, RawInput};
use hadoop_record::framing::seqfile::{
    Codec, Compression, SeqReader, SeqWriteOptions, SeqWriter, DEFAULT_BLOCK_SIZE,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Format, Record, RecordWriter};
use support::short_group;

record!(Text {
    a: String = "a",
    b: String = "b",
    n: i32 = "n",
});

const N: usize = 200_000;

fn payloads() -> Vec<Vec<u8>> {
    support::shapes::text(N)
        .into_iter()
        .map(|(a, b, n)| {
            let mut w = RecordWriter::new(Vec::new(), Format::Binary);
            w.write(&Text { a, b, n }).unwrap();
            w.into_inner().unwrap()
        })
        .collect()
}

fn seqfile(records: &[Vec<u8>], compression: Compression, codec: Codec) -> Vec<u8> {
    let o = SeqWriteOptions::new("bench.Text")
        .with_compression(compression)
        .with_codec(codec);
    let mut w = SeqWriter::new(Vec::new(), o);
    for r in records {
        w.write_payload(r).unwrap();
    }
    w.finish().unwrap();
    w.into_inner().unwrap()
}

/// The four buffers of each block the writer makes (NullWritable keys), raw.
fn block_buffers(records: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut push = |group: &[Vec<u8>]| {
        let mut lens = Vec::new();
        let mut vals = Vec::new();
        for r in group {
            let mut b = [0u8; vint::MAX_LEN];
            let n = vint::encode(r.len() as i64, &mut b);
            lens.extend_from_slice(&b[..n]);
            vals.extend_from_slice(r);
        }
        out.push(vec![0u8; group.len()]); // key lengths, all 0
        out.push(Vec::new()); // keys
        out.push(lens);
        out.push(vals);
    };
    let mut start = 0;
    let mut size = 0;
    for (i, r) in records.iter().enumerate() {
        size += r.len();
        if size >= DEFAULT_BLOCK_SIZE {
            push(&records[start..=i]);
            start = i + 1;
            size = 0;
        }
    }
    push(&records[start..]);
    out
}

/// Each buffer compressed by the crate alone, in the pieces the codec's framing uses.
fn crate_compressed(codec: Codec, buffers: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for raw in buffers {
        match codec {
            Codec::Deflate => {
                let mut e =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
                std::io::Write::write_all(&mut e, raw).unwrap();
                out.push(e.finish().unwrap());
            }
            Codec::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
                std::io::Write::write_all(&mut e, raw).unwrap();
                out.push(e.finish().unwrap());
            }
            Codec::BZip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
                std::io::Write::write_all(&mut e, raw).unwrap();
                out.push(e.finish().unwrap());
            }
            Codec::Snappy => {
                for piece in raw.chunks(218_422) {
                    out.push(snap::raw::Encoder::new().compress_vec(piece).unwrap());
                }
            }
            Codec::Lz4 => {
                for piece in raw.chunks(261_100) {
                    out.push(lz4_flex::block::compress(piece));
                }
            }
            other => unimplemented!("no reference codec for {other:?}"),
        }
    }
    out
}

/// The crate alone decompressing `pieces`; the bytes produced.
fn crate_decompress(codec: Codec, pieces: &[Vec<u8>], scratch: &mut Vec<u8>) -> usize {
    let mut total = 0;
    let mut snappy = snap::raw::Decoder::new();
    for p in pieces {
        scratch.clear();
        match codec {
            Codec::Deflate => {
                flate2::read::ZlibDecoder::new(&p[..])
                    .read_to_end(scratch)
                    .unwrap();
            }
            Codec::Gzip => {
                flate2::read::GzDecoder::new(&p[..])
                    .read_to_end(scratch)
                    .unwrap();
            }
            Codec::BZip2 => {
                bzip2::read::BzDecoder::new(&p[..])
                    .read_to_end(scratch)
                    .unwrap();
            }
            Codec::Snappy => {
                scratch.resize(snap::raw::decompress_len(p).unwrap(), 0);
                snappy.decompress(p, scratch).unwrap();
            }
            Codec::Lz4 => {
                scratch.resize(261_100, 0);
                let n = lz4_flex::block::decompress_into(p, scratch).unwrap();
                scratch.truncate(n);
            }
            other => unimplemented!("no reference codec for {other:?}"),
        }
        total += scratch.len();
    }
    total
}

fn bench(c: &mut Criterion) {
    let records = payloads();
    let bytes: u64 = records.iter().map(|r| r.len() as u64).sum();
    let plain: Vec<u8> = records.concat();

    let mut g = short_group(c, "seqfile/records", Duration::from_secs(3));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("binary-stream", |b| {
        b.iter(|| {
            let mut reader = hadoop_record::RecordReader::new(&plain[..], Format::Binary);
            let mut n = 0usize;
            while let Some(r) = reader.read::<Text>().unwrap() {
                black_box(&r);
                n += 1;
            }
            assert_eq!(n, N);
        })
    });
    let file = seqfile(&records, Compression::None, Codec::Deflate);
    g.bench_function("seqfile-none", |b| {
        b.iter(|| {
            let mut reader = SeqReader::new(&file[..]).unwrap();
            let mut n = 0usize;
            while let Some(value) = reader.next_ref() {
                let mut input = RawInput::new(value.unwrap());
                black_box(Text::read_from(&mut input, "").unwrap());
                n += 1;
            }
            assert_eq!(n, N);
        })
    });
    g.finish();

    let mut g = short_group(c, "seqfile/block", Duration::from_secs(3));
    g.throughput(Throughput::Bytes(bytes));
    let buffers = block_buffers(&records);
    let mut scratch = Vec::new();
    for &codec in Codec::ALL {
        let name = codec.name();
        let file = seqfile(&records, Compression::Block, codec);
        g.bench_function(BenchmarkId::new("read", name), |b| {
            b.iter(|| {
                let mut reader = SeqReader::new(&file[..]).unwrap();
                let mut n = 0u64;
                while let Some(value) = reader.next_ref() {
                    n += value.unwrap().len() as u64;
                }
                assert_eq!(n, bytes);
            })
        });
        let pieces = crate_compressed(codec, &buffers);
        g.bench_function(BenchmarkId::new("crate", name), |b| {
            b.iter(|| black_box(crate_decompress(codec, &pieces, &mut scratch)))
        });
        if codec != Codec::BZip2 {
            g.bench_function(BenchmarkId::new("write", name), |b| {
                b.iter(|| black_box(seqfile(&records, Compression::Block, codec).len()))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
