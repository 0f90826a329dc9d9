//! The tokio-util codec for Mesos RecordIO: same records as the std reader whatever the
//! split, truncation reported at end of stream, and encode → decode round trips.

mod support;

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use hadoop_record::framing::mesos::{MesosCodec, MesosOptions, MesosReader};
use hadoop_record::{ErrorKind, Position};
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder, FramedRead, FramedWrite};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/mesos");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{name}")).unwrap()
}

/// Pushes `input` into the codec in pieces of `piece` bytes, as FramedRead would.
fn decode_in_pieces(input: &[u8], piece: usize) -> (Vec<Vec<u8>>, Option<hadoop_record::Error>) {
    support::frames::decode_in_pieces(MesosCodec::default(), input, piece)
}

#[test]
fn codec_agrees_with_the_std_reader_on_every_fixture() {
    for name in [
        "scheduler_events_json.recordio",
        "operator_events_json.recordio",
        "binary_payloads.recordio",
        "empty_records.recordio",
        "large_record.recordio",
        "leading_zeros_header.recordio",
        "truncated_record.recordio",
        "invalid_empty_line.recordio",
        "invalid_non_numeric.recordio",
    ] {
        let bytes = fixture(name);
        let mut expected = Vec::new();
        let mut expected_err = None;
        for r in MesosReader::new(&bytes[..]) {
            match r {
                Ok(r) => expected.push(r),
                Err(e) => expected_err = Some((e.kind(), e.position())),
            }
        }
        for piece in [1, 2, 7, 64, 1 << 20] {
            let (records, err) = decode_in_pieces(&bytes, piece);
            assert_eq!(records, expected, "{name} in {piece}-byte pieces");
            assert_eq!(
                err.map(|e| (e.kind(), e.position())),
                expected_err,
                "{name}"
            );
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn framed_read_and_write() {
    let bytes = fixture("scheduler_events_json.recordio");
    let records: Vec<Vec<u8>> = FramedRead::new(&bytes[..], MesosCodec::default())
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(records.len(), 5);
    assert!(records[1].starts_with(br#"{"type":"HEARTBEAT"}"#));

    let mut sink = FramedWrite::new(Vec::new(), MesosCodec::default());
    for r in &records {
        sink.send(&r[..]).await.unwrap();
    }
    assert_eq!(
        sink.into_inner(),
        bytes,
        "the encoder writes Mesos' own bytes"
    );

    // A stream cut inside a record ends with an UnexpectedEof error at the frame start.
    let cut = &bytes[..bytes.len() - 3];
    let mut stream = FramedRead::new(cut, MesosCodec::default());
    let mut n = 0;
    let err = loop {
        match stream.next().await {
            Some(Ok(_)) => n += 1,
            Some(Err(e)) => break e,
            None => panic!("no error for a truncated stream"),
        }
    };
    assert_eq!(n, 4);
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    let last_frame = bytes.len() - records[4].len() - 3;
    assert_eq!(err.position(), Some(Position::Byte(last_frame as u64)));
}

#[test]
fn codec_applies_the_options() {
    let mut codec = MesosCodec::new(MesosOptions::default().with_max_record_size(4));
    let mut buf = BytesMut::from(&b"5\nhello"[..]);
    assert_eq!(codec.decode(&mut buf).unwrap_err().kind(), ErrorKind::Limit);
    let mut codec = MesosCodec::new(MesosOptions::default().with_lenient(true));
    let mut buf = BytesMut::from(&b" 5\r\nhello"[..]);
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(b"hello".to_vec()));
}

proptest! {
    #[test]
    fn encode_then_decode_in_any_pieces(
        records in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 0..20),
        piece in 1usize..50,
    ) {
        let mut codec = MesosCodec::default();
        let mut buf = BytesMut::new();
        for r in &records {
            codec.encode(r.as_slice(), &mut buf).unwrap();
        }
        let (back, err) = decode_in_pieces(&buf, piece);
        prop_assert!(err.is_none());
        prop_assert_eq!(back, records);
    }
}
