//! The tokio-util codec for PaddlePaddle RecordIO: the same records, errors (kind, offset,
//! message) and skipped stretches as the std reader whatever the split of its input, strict
//! and recovering; FramedRead and FramedWrite end to end; the encoder writing the writer's
//! (so Go's) bytes; hostile input with bounded memory.

mod support;

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use hadoop_record::framing::paddle::{
    ChunkHeader, Compressor, FlushChunk, Layout, PaddleCodec, PaddleReadOptions, PaddleReader,
    PaddleWriteOptions, PaddleWriter, Skipped,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{ErrorKind, Position};
use proptest::prelude::*;
use support::frames::{paddle_file, until_error};
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::codec::{Decoder, FramedRead, FramedWrite};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/paddle");

/// Records, then the error as text (kind, position and message), then what was skipped.
type Outcome = (Vec<Vec<u8>>, Option<String>, Vec<Skipped>);

fn describe(e: &hadoop_record::Error) -> String {
    format!("{:?} {:?} {e}", e.kind(), e.position())
}

fn std_read(bytes: &[u8], options: PaddleReadOptions) -> Outcome {
    let mut reader = PaddleReader::with_options(bytes, options);
    let (out, err) = until_error(reader.by_ref());
    (out, err.map(|e| describe(&e)), reader.skipped().to_vec())
}

/// Feeds `input` to the codec in pieces whose sizes cycle through `pieces`, as FramedRead
/// would, then signals the end.
fn codec_read(input: &[u8], options: PaddleReadOptions, pieces: &[usize]) -> Outcome {
    let mut codec = PaddleCodec::new(options, PaddleWriteOptions::default());
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    let mut rest = input;
    let mut sizes = pieces.iter().cycle();
    while !rest.is_empty() {
        let n = (*sizes.next().unwrap()).clamp(1, rest.len());
        buf.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(r)) => out.push(r.to_vec()),
                Ok(None) => break,
                Err(e) => return (out, Some(describe(&e)), codec.skipped().to_vec()),
            }
        }
        // Never more than one chunk (and a checkpoint step) is held.
        assert!(buf.len() <= input.len());
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(r)) => out.push(r.to_vec()),
            Ok(None) => return (out, None, codec.skipped().to_vec()),
            Err(e) => return (out, Some(describe(&e)), codec.skipped().to_vec()),
        }
    }
}

fn fixtures() -> Vec<(String, Vec<u8>, Layout)> {
    let mut out: Vec<_> = std::fs::read_dir(FIXTURES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "recordio"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            let layout = if name.starts_with("cpp_") {
                Layout::Cpp
            } else {
                Layout::Go
            };
            (name, std::fs::read(&p).unwrap(), layout)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), 11);
    out
}

#[test]
fn codec_agrees_with_the_std_reader_on_every_fixture() {
    for (name, bytes, layout) in fixtures() {
        for recover in [false, true] {
            let options = PaddleReadOptions::default()
                .with_layout(layout)
                .with_recover(recover);
            let expected = std_read(&bytes, options);
            for pieces in [&[1][..], &[7], &[19, 1, 3], &[bytes.len().max(1)]] {
                let got = codec_read(&bytes, options, pieces);
                assert_eq!(got, expected, "{name} recover={recover} pieces={pieces:?}");
            }
        }
    }
    // The damaged fixtures really are reported.
    let bytes = std::fs::read(format!("{FIXTURES}/corrupt_checksum.recordio")).unwrap();
    let (records, err, _) = codec_read(&bytes, PaddleReadOptions::default(), &[5]);
    assert_eq!(records.len(), 1);
    assert!(
        err.unwrap().starts_with("Checksum Some(Byte(32))"),
        "the checksum error at the damaged chunk"
    );
    let bytes = std::fs::read(format!("{FIXTURES}/truncated_last_chunk.recordio")).unwrap();
    let (records, err, _) = codec_read(&bytes, PaddleReadOptions::default(), &[5]);
    assert_eq!(records.len(), 2);
    assert!(err.unwrap().starts_with("UnexpectedEof Some(Byte(64))"));
}

/// An `AsyncRead` that hands out its bytes a few at a time.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    piece: usize,
}

impl Trickle {
    /// Hands out `data` at most `piece` bytes a read.
    fn new(data: Vec<u8>, piece: usize) -> Self {
        Trickle { data, at: 0, piece }
    }
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let n = self
            .piece
            .min(buf.remaining())
            .min(self.data.len() - self.at);
        let at = self.at;
        buf.put_slice(&self.data[at..at + n]);
        self.at += n;
        Poll::Ready(Ok(()))
    }
}

fn sample_records() -> Vec<Vec<u8>> {
    (0..300u32)
        .map(|i| {
            let n = (i * 37 % 500) as usize;
            (0..n).map(|j| (j as u32 * i % 7) as u8 + b'a').collect()
        })
        .collect()
}

fn settings() -> Vec<PaddleWriteOptions> {
    let mut out = Vec::new();
    for compressor in [Compressor::None, Compressor::Snappy, Compressor::Gzip] {
        for size in [0, 1000, PaddleWriteOptions::DEFAULT_MAX_CHUNK_SIZE] {
            out.push(
                PaddleWriteOptions::default()
                    .with_compressor(compressor)
                    .with_max_chunk_size(size),
            );
        }
    }
    out.push(PaddleWriteOptions::cpp().with_max_chunk_records(Some(7)));
    out
}

#[tokio::test]
async fn framed_write_then_framed_read_end_to_end() {
    let records = sample_records();
    for options in settings() {
        // FramedWrite: the same bytes as the std writer.
        let codec = PaddleCodec::new(PaddleReadOptions::default(), options);
        let mut sink = FramedWrite::new(Vec::new(), codec);
        for r in &records {
            sink.send(r.as_slice()).await.unwrap();
        }
        sink.send(FlushChunk).await.unwrap();
        let bytes = sink.into_inner();
        assert_eq!(bytes, paddle_file(&records, options), "{options:?}");

        // FramedRead over an input that trickles in: every record back.
        let read = PaddleReadOptions::default().with_layout(options.layout());
        let source = Trickle::new(bytes.clone(), 13);
        let mut stream = FramedRead::new(source, PaddleCodec::new(read, options));
        let mut back = Vec::new();
        while let Some(r) = stream.next().await {
            back.push(r.unwrap().to_vec());
        }
        assert_eq!(back, records, "{options:?}");
        assert_eq!(stream.decoder().records_read(), records.len() as u64);
        assert_eq!(stream.decoder().offset(), bytes.len() as u64);
    }
}

#[tokio::test]
async fn framed_read_reports_damage_then_stops_or_recovers() {
    let records = sample_records();
    let options = PaddleWriteOptions::default()
        .with_compressor(Compressor::Snappy)
        .with_max_chunk_size(3000);
    let mut bytes = paddle_file(&records, options);
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    let cut = bytes.len() - 5;
    bytes.truncate(cut);
    for recover in [false, true] {
        let read = PaddleReadOptions::default().with_recover(recover);
        let (expected, expected_err, expected_skipped) = std_read(&bytes, read);
        let source = Trickle::new(bytes.clone(), 4096);
        let mut stream = FramedRead::new(source, PaddleCodec::new(read, options));
        let mut back = Vec::new();
        let mut err = None;
        while let Some(r) = stream.next().await {
            match r {
                Ok(r) => back.push(r.to_vec()),
                Err(e) => err = Some(describe(&e)),
            }
        }
        assert_eq!(back, expected);
        assert_eq!(err, expected_err);
        assert_eq!(stream.decoder().skipped(), expected_skipped);
        if recover {
            assert!(err.is_none());
            // The damaged chunk and the cut last chunk are skipped, the rest read.
            assert_eq!(expected_skipped.len(), 2, "{expected_skipped:?}");
            assert!(back.len() < records.len() && back.len() > records.len() / 2);
        } else {
            assert!(err.unwrap().starts_with("Checksum"));
        }
    }
}

#[test]
fn hostile_claims_are_refused_without_buffering_them() {
    // A 4 GiB payload claimed in a 30-byte input.
    let header = ChunkHeader {
        checksum: 0,
        compressor: 0,
        compressed_size: u32::MAX,
        num_records: 1,
    };
    let mut bytes = header.to_bytes(Layout::Go).to_vec();
    bytes.extend_from_slice(b"0123456789");
    let (records, err, _) = codec_read(&bytes, PaddleReadOptions::default(), &[3]);
    assert!(records.is_empty());
    assert!(err.unwrap().starts_with("Limit Some(Byte(0))"));
    // With the cap lifted: waits for the bytes (holding only those present), then reports
    // the truncation at the end.
    let lifted = PaddleReadOptions::default().with_max_chunk_bytes(u64::MAX);
    let mut codec = PaddleCodec::new(lifted, PaddleWriteOptions::default());
    let mut buf = BytesMut::from(&bytes[..]);
    assert!(codec.decode(&mut buf).unwrap().is_none());
    assert!(buf.capacity() < 1024, "nothing reserved for the claim");
    let err = codec.decode_eof(&mut buf).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(err.position(), Some(Position::Byte(0)));
    assert!(err.to_string().contains("10 of 4294967295 bytes"), "{err}");

    // A gzip bomb: 64 MiB of zeros in one record, refused at a 1 MiB cap.
    let big = vec![vec![0u8; 64 << 20]];
    let bomb = paddle_file(
        &big,
        PaddleWriteOptions::default().with_compressor(Compressor::Gzip),
    );
    assert!(bomb.len() < 100_000);
    let capped = PaddleReadOptions::default().with_max_chunk_bytes(1 << 20);
    let (records, err, _) = codec_read(&bomb, capped, &[bomb.len()]);
    assert!(records.is_empty());
    let err = err.unwrap();
    assert!(err.starts_with("Limit Some(Byte(0))"), "{err}");
    assert!(err.contains("decompressed payload"), "{err}");
}

fn record_sets() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::collection::vec(any::<u8>(), 0..40),
            1 => prop::collection::vec(prop::sample::select(b"ab\x04\x03\x02\x01".to_vec()), 0..300),
        ],
        0..30,
    )
}

fn write_settings() -> impl Strategy<Value = PaddleWriteOptions> {
    (
        prop::sample::select(vec![Compressor::None, Compressor::Snappy, Compressor::Gzip]),
        prop::sample::select(vec![Layout::Go, Layout::Cpp]),
        prop_oneof![Just(0u64), 1u64..200, Just(1u64 << 25)],
    )
        .prop_map(|(c, l, size)| {
            PaddleWriteOptions::default()
                .with_compressor(c)
                .with_layout(l)
                .with_max_chunk_size(size)
        })
}

/// Damage: flipped bytes, a cut, inserted garbage (possibly with magic numbers).
#[derive(Debug, Clone)]
enum Harm {
    Flip(usize, u8),
    Cut(usize),
    Insert(usize, Vec<u8>),
}

fn harm() -> impl Strategy<Value = Harm> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Harm::Flip(i, x)),
        any::<usize>().prop_map(Harm::Cut),
        (
            any::<usize>(),
            prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 3, 4, 0xff]), 0..40)
        )
            .prop_map(|(i, g)| Harm::Insert(i, g)),
    ]
}

fn apply(bytes: &mut Vec<u8>, harms: &[Harm]) {
    for h in harms {
        if bytes.is_empty() {
            return;
        }
        match h {
            Harm::Flip(i, x) => {
                let i = i % bytes.len();
                bytes[i] ^= x;
            }
            Harm::Cut(i) => bytes.truncate(i % bytes.len()),
            Harm::Insert(i, g) => {
                let i = i % (bytes.len() + 1);
                bytes.splice(i..i, g.iter().copied());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn codec_matches_the_std_reader_on_any_input_in_any_pieces(
        records in record_sets(),
        options in write_settings(),
        harms in prop::collection::vec(harm(), 0..4),
        pieces in prop::collection::vec(1usize..64, 1..5),
        recover in any::<bool>(),
    ) {
        let mut bytes = paddle_file(&records, options);
        apply(&mut bytes, &harms);
        let read = PaddleReadOptions::default().with_layout(options.layout()).with_recover(recover);
        let expected = std_read(&bytes, read);
        if harms.is_empty() {
            prop_assert_eq!(&expected.0, &records);
        }
        prop_assert_eq!(codec_read(&bytes, read, &pieces), expected);
    }

    #[test]
    fn encoder_writes_the_writers_bytes(
        records in record_sets(),
        options in write_settings(),
        flush_every in prop::option::of(1usize..10),
    ) {
        let mut codec = PaddleCodec::new(PaddleReadOptions::default(), options);
        let mut writer = PaddleWriter::with_options(Vec::new(), options);
        let mut buf = BytesMut::new();
        for (i, r) in records.iter().enumerate() {
            tokio_util::codec::Encoder::encode(&mut codec, r.as_slice(), &mut buf).unwrap();
            writer.write_payload(r).unwrap();
            if flush_every.is_some_and(|k| i % k == 0) {
                tokio_util::codec::Encoder::encode(&mut codec, FlushChunk, &mut buf).unwrap();
                writer.flush_chunk().unwrap();
            }
        }
        tokio_util::codec::Encoder::encode(&mut codec, FlushChunk, &mut buf).unwrap();
        writer.finish().unwrap();
        prop_assert_eq!(&buf[..], &writer.into_inner().unwrap()[..]);
    }
}
