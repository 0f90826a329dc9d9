//! Framing helpers: hex fixtures, writing records through any [`FrameWrite`], reading until
//! the first error, and feeding a tokio-util decoder piece by piece.

use bytes::BytesMut;
use hadoop_record::framing::paddle::{PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::plasma::{VarOptions, VarWriter};
use hadoop_record::framing::FrameWrite;
use hadoop_record::Error;
use tokio_util::codec::Decoder;

/// The bytes a manifest's hex string spells.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
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
    write_frames(PaddleWriter::with_options(Vec::new(), options), records).into_inner()
}

/// A Plasma var-size file of `records`.
pub fn var_file<R: AsRef<[u8]>>(records: &[R], options: VarOptions) -> Vec<u8> {
    write_frames(VarWriter::new(Vec::new(), options).unwrap(), records).into_inner()
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
