//! Framing helpers: hex fixtures, writing records through any [`FrameWrite`], reading until
//! the first error, and feeding a tokio-util decoder piece by piece.

use bytes::BytesMut;
use hadoop_record::framing::paddle::{Compressor, Layout, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::plasma::{VarWriteOptions, VarWriter};
use hadoop_record::framing::FrameWrite;
use hadoop_record::Error;
use proptest::prelude::*;
use tokio_util::codec::Decoder;

/// A random payload for a framing's properties: `short_weight` times as often as each of the
/// others, any bytes, fewer than `short`; bytes drawn from `marks` (what the framing writes
/// around records, which a reader must not take for its own), fewer than `marked`; or any
/// bytes, as many as `long` says.
pub fn payload_mix(
    short_weight: u32,
    short: usize,
    marks: &'static [u8],
    marked: usize,
    long: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        short_weight => prop::collection::vec(any::<u8>(), 0..short),
        1 => prop::collection::vec(prop::sample::select(marks.to_vec()), 0..marked),
        1 => prop::collection::vec(any::<u8>(), long),
    ]
}

/// The bytes a manifest's hex string spells.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Each of the `cases` of the `manifest.json` in the fixture directory `dir`, as `case`
/// reads it.
pub fn manifest_cases<T>(dir: &str, case: impl FnMut(&serde_json::Value) -> T) -> Vec<T> {
    let path = format!("{dir}/manifest.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = manifest["cases"].as_array();
    cases
        .unwrap_or_else(|| panic!("{path}: no cases"))
        .iter()
        .map(case)
        .collect()
}

/// The bytes of a manifest's array of hex strings.
pub fn hex_list(v: &serde_json::Value) -> Vec<Vec<u8>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|h| hex(h.as_str().unwrap()))
        .collect()
}

/// Writes every record through `writer`, finishes it and hands it back.
pub fn write_frames<W: FrameWrite, R: AsRef<[u8]>>(mut writer: W, records: &[R]) -> W {
    for r in records {
        writer.write_payload(r.as_ref()).unwrap();
    }
    writer.finish().unwrap();
    writer
}

/// A PaddlePaddle RecordIO file of `records`.
pub fn paddle_file<R: AsRef<[u8]>>(records: &[R], options: PaddleWriteOptions) -> Vec<u8> {
    write_frames(PaddleWriter::with_options(Vec::new(), options), records)
        .into_inner()
        .unwrap()
}

/// A Plasma var-size file of `records`.
pub fn var_file<R: AsRef<[u8]>>(records: &[R], options: VarWriteOptions) -> Vec<u8> {
    write_frames(VarWriter::new(Vec::new(), options).unwrap(), records)
        .into_inner()
        .unwrap()
}

/// The items before the first error, and that error.
pub fn until_error<T>(items: impl Iterator<Item = Result<T, Error>>) -> (Vec<T>, Option<Error>) {
    let mut out = Vec::new();
    for r in items {
        match r {
            Ok(r) => out.push(r),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// Feeds `input` to `codec` in pieces of `piece` bytes, as FramedRead would, then ends the
/// stream: the items decoded and the first error.
pub fn decode_in_pieces<C: Decoder<Error = Error>>(
    mut codec: C,
    input: &[u8],
    piece: usize,
) -> (Vec<C::Item>, Option<Error>) {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for chunk in input.chunks(piece.max(1)) {
        buf.extend_from_slice(chunk);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(r)) => out.push(r),
                Ok(None) => break,
                Err(e) => return (out, Some(e)),
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(r)) => out.push(r),
            Ok(None) => return (out, None),
            Err(e) => return (out, Some(e)),
        }
    }
}

/// PaddlePaddle write options for property tests: every compressor and layout, a chunk
/// size limit from `sizes` and a record limit from `records` or none.
pub fn paddle_options(
    sizes: impl Strategy<Value = u64>,
    records: std::ops::Range<u32>,
) -> impl Strategy<Value = PaddleWriteOptions> {
    (
        prop::sample::select(vec![Compressor::None, Compressor::Snappy, Compressor::Gzip]),
        prop::sample::select(vec![Layout::Go, Layout::Cpp]),
        sizes,
        prop::option::of(records),
    )
        .prop_map(|(c, l, size, count)| {
            PaddleWriteOptions::default()
                .with_compressor(c)
                .with_layout(l)
                .with_max_chunk_size(size)
                .with_max_chunk_records(count)
        })
}
