//! Mesos RecordIO: the reference fixtures, byte-exact writing, every split and truncation,
//! hostile lengths, and write → read properties.

mod support;

use std::io::Read;

use fixture_harness::Trickle;
use hadoop_record::framing::mesos::{
    encode_frame, info, MesosDecoder, MesosOptions, MesosReader, MesosWriter,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind, Position};
use proptest::prelude::*;
use support::frames::{hex_list, manifest_cases, payload_mix, until_error};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/mesos");

struct Case {
    file: String,
    bytes: Vec<u8>,
    records: Vec<Vec<u8>>,
    /// `None` for a clean end, else the expected error kind.
    error: Option<ErrorKind>,
    /// Written by a real Mesos encoder (so our writer must reproduce it).
    real_encoder: bool,
}

fn cases() -> Vec<Case> {
    let cases: Vec<Case> = manifest_cases(FIXTURES, |c| {
        let file = c["file"].as_str().unwrap().to_owned();
        let outcome = c["strict_decoder_outcome"].as_str().unwrap();
        let error = match outcome {
            "all records, clean end" => None,
            "records then error: truncated" => Some(ErrorKind::UnexpectedEof),
            "records then error: bad length" => Some(ErrorKind::Syntax),
            other => panic!("unknown outcome {other:?}"),
        };
        Case {
            bytes: std::fs::read(format!("{FIXTURES}/{file}")).unwrap(),
            records: hex_list(&c["expected_records_hex"]),
            error,
            real_encoder: c["producer"]
                .as_str()
                .unwrap()
                .starts_with("real implementation"),
            file,
        }
    });
    assert_eq!(cases.len(), 9, "every fixture in the manifest");
    cases
}

/// Feeds `input` in pieces cut at `cuts` (sorted offsets), returning the records and the
/// error, if any (including the end-of-input check).
fn decode_split(opts: MesosOptions, input: &[u8], cuts: &[usize]) -> (Vec<Vec<u8>>, Option<Error>) {
    let mut dec = MesosDecoder::new(opts);
    let mut out = Vec::new();
    let mut last = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        let cut = cut.clamp(last, input.len());
        for r in dec.feed(&input[last..cut]) {
            match r {
                Ok(r) => out.push(r),
                Err(e) => return (out, Some(e)),
            }
        }
        last = cut;
    }
    (out, dec.finish().err())
}

fn read_all<R: Read>(mut reader: MesosReader<R>) -> (Vec<Vec<u8>>, Option<Error>) {
    let out = until_error(reader.by_ref());
    assert!(reader.next().is_none(), "nothing after the end or an error");
    out
}

#[test]
fn fixtures_read_as_the_manifest_says() {
    for case in cases() {
        for piece in [usize::MAX, 1, 5, 7] {
            let (records, err) = if piece == usize::MAX {
                read_all(MesosReader::new(&case.bytes[..]))
            } else {
                read_all(MesosReader::new(Trickle::new(&case.bytes, piece)))
            };
            assert_eq!(records, case.records, "{} in {piece}-byte reads", case.file);
            assert_eq!(err.as_ref().map(Error::kind), case.error, "{}", case.file);
        }
        let cuts: Vec<usize> = (1..case.bytes.len()).collect();
        let (records, err) = decode_split(MesosOptions::default(), &case.bytes, &cuts);
        assert_eq!(
            records, case.records,
            "{} fed one byte at a time",
            case.file
        );
        assert_eq!(err.as_ref().map(Error::kind), case.error, "{}", case.file);
    }
}

#[test]
fn error_offsets_of_the_damaged_fixtures() {
    let by_name = |name: &str| cases().into_iter().find(|c| c.file == name).unwrap();

    // "5\nhello6\nworld!10\nabc": the cut frame starts at byte 17.
    let case = by_name("truncated_record.recordio");
    let (_, err) = read_all(MesosReader::new(&case.bytes[..]));
    let err = err.unwrap();
    let frame_start = case.bytes.len() - b"10\nabc".len();
    assert_eq!(err.position(), Some(Position::Byte(frame_start as u64)));
    assert_eq!(err.record(), Some(2));
    assert!(err.to_string().contains("3 of 10 bytes"), "{err}");
    let summary = info(&case.bytes[..], MesosOptions::default()).unwrap();
    assert_eq!((summary.records, summary.bytes), (2, frame_start as u64));
    assert_eq!(summary.payload_bytes, 11);
    let text = summary.to_string();
    assert!(
        text.starts_with("mesos recordio: 2 records, 15 bytes"),
        "{text}"
    );
    assert!(
        text.contains("damaged: record 2, byte 15: input ends inside record 2: 3 of 10"),
        "{text}"
    );
    let damage = summary.damage.unwrap();
    assert_eq!(damage.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(damage.position(), Some(Position::Byte(frame_start as u64)));

    // "\n5\nhello": the empty length line is at byte 0.
    let case = by_name("invalid_empty_line.recordio");
    let (_, err) = read_all(MesosReader::new(&case.bytes[..]));
    assert_eq!(err.unwrap().position(), Some(Position::Byte(0)));

    // A good record, then "not a number": the error points at the `n`.
    let case = by_name("invalid_non_numeric.recordio");
    let bad = b"7\nencoded".len();
    let (_, err) = read_all(MesosReader::new(&case.bytes[..]));
    let err = err.unwrap();
    assert_eq!(err.position(), Some(Position::Byte(bad as u64)));
    assert_eq!(err.kind(), ErrorKind::Syntax);
}

#[test]
fn writer_reproduces_the_real_encoders_bytes() {
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| c.real_encoder) {
        let mut w = MesosWriter::new(Vec::new());
        for r in &case.records {
            w.write_payload(r).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(w.records_written(), case.records.len() as u64);
        assert_eq!(w.into_inner().unwrap(), case.bytes, "{}", case.file);

        let mut out = Vec::new();
        for r in &case.records {
            encode_frame(r, &mut out);
        }
        assert_eq!(out, case.bytes, "{}", case.file);
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[test]
fn truncation_at_every_offset_gives_complete_records_then_an_error() {
    for case in cases().into_iter().filter(|c| c.error.is_none()) {
        // Frame boundaries: where each record's length line starts.
        let mut starts = vec![0usize];
        for r in &case.records {
            let mut frame = Vec::new();
            // Leading zeros in a fixture make its frames longer than minimal ones.
            let last = *starts.last().unwrap();
            let lf = last + case.bytes[last..].iter().position(|&b| b == b'\n').unwrap();
            frame.extend_from_slice(&case.bytes[last..=lf]);
            starts.push(lf + 1 + r.len());
        }
        assert_eq!(*starts.last().unwrap(), case.bytes.len(), "{}", case.file);
        for cut in 0..=case.bytes.len() {
            let (records, err) = read_all(MesosReader::new(&case.bytes[..cut]));
            let complete = starts.iter().filter(|&&s| s <= cut).count() - 1;
            assert_eq!(
                records,
                case.records[..complete],
                "{} cut at {cut}",
                case.file
            );
            if starts.contains(&cut) {
                assert!(
                    err.is_none(),
                    "{} cut at a boundary {cut}: {err:?}",
                    case.file
                );
            } else {
                let err = err.unwrap_or_else(|| panic!("{} cut at {cut}: no error", case.file));
                assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
                assert_eq!(
                    err.position(),
                    Some(Position::Byte(starts[complete] as u64))
                );
                assert_eq!(err.record(), Some(complete as u64));
            }
        }
    }
}

#[test]
fn truncating_the_damaged_fixtures_never_panics_nor_invents_records() {
    for case in cases().into_iter().filter(|c| c.error.is_some()) {
        for cut in 0..=case.bytes.len() {
            let (records, err) = read_all(MesosReader::new(&case.bytes[..cut]));
            assert!(
                case.records.starts_with(&records),
                "{} cut at {cut}",
                case.file
            );
            if let Some(err) = err {
                let Some(Position::Byte(at)) = err.position() else {
                    panic!("{} cut at {cut}: no offset in {err}", case.file);
                };
                assert!(at <= cut as u64);
            }
        }
    }
}

#[test]
fn hostile_lengths_fail_before_any_allocation() {
    // 2^64 - 1 is a valid u64 but far over the record limit: a Limit error at once.
    let (records, err) = decode_split(
        MesosOptions::default(),
        b"2\nok18446744073709551615\nxyz",
        &[],
    );
    assert_eq!(records, [b"ok".to_vec()]);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert_eq!(err.position(), Some(Position::Byte(4)));

    // 2^64 does not fit a u64.
    let (_, err) = decode_split(MesosOptions::default(), b"18446744073709551616\n", &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::Overflow);

    // With no record limit, 2^64 - 1 waits for its bytes and ends as a truncation; the
    // buffer only ever holds what arrived.
    let opts = MesosOptions::default().with_max_record_size(u64::MAX);
    let (_, err) = decode_split(opts, b"18446744073709551615\nxyz", &[]);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert!(
        err.to_string().contains("3 of 18446744073709551615 bytes"),
        "{err}"
    );

    // A length line that never ends: a Limit error after 20 bytes, not a growing buffer.
    let garbage = vec![b'0'; 1 << 20];
    let (_, err) = decode_split(MesosOptions::default(), &garbage, &[]);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert_eq!(err.position(), Some(Position::Byte(0)));

    // 20 digits (leading zeros) is still fine; the limit is configurable.
    let (records, err) = decode_split(MesosOptions::default(), b"00000000000000000002\nab", &[]);
    assert!(err.is_none());
    assert_eq!(records, [b"ab".to_vec()]);
    let opts = MesosOptions::default().with_max_length_line(3);
    let (_, err) = decode_split(opts, b"0002\nab", &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);
}

#[test]
fn record_size_limit_is_inclusive_and_configurable() {
    let opts = MesosOptions::default().with_max_record_size(3);
    assert_eq!(decode_split(opts, b"3\nabc", &[]).0, [b"abc".to_vec()]);
    let (_, err) = decode_split(opts, b"4\nabcd", &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);
    // The default is mesos-go's 4 MiB.
    let at_limit = format!("{}\n", 4 << 20);
    let (_, err) = decode_split(MesosOptions::default(), at_limit.as_bytes(), &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::UnexpectedEof);
    let over = format!("{}\n", (4 << 20) + 1);
    let (_, err) = decode_split(MesosOptions::default(), over.as_bytes(), &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);
}

#[test]
fn lenient_mode_reads_what_mesos_go_and_python_accept() {
    let input = b" 5\nhello+3\r\nabc\t0 \n";
    let (_, err) = decode_split(MesosOptions::default(), input, &[]);
    assert_eq!(err.unwrap().kind(), ErrorKind::Syntax);
    let opts = MesosOptions::default().with_lenient(true);
    let cuts: Vec<usize> = (1..input.len()).collect();
    let (records, err) = decode_split(opts, input, &cuts);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(records, [b"hello".to_vec(), b"abc".to_vec(), Vec::new()]);
}

/// Records, some made of what length lines are made of.
fn payloads() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(payload_mix(3, 40, b"0123456789\n \r+", 30, 0..3000), 0..30)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_split_gives_the_same_records(
        records in payloads(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let mut w = MesosWriter::new(Vec::new());
        for r in &records {
            w.write_payload(r).unwrap();
        }
        let bytes = w.into_inner().unwrap();
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let (got, err) = decode_split(MesosOptions::default(), &bytes, &cuts);
        prop_assert!(err.is_none());
        prop_assert_eq!(&got, &records);

        let ones: Vec<usize> = (1..bytes.len()).collect();
        let (got, err) = decode_split(MesosOptions::default(), &bytes, &ones);
        prop_assert!(err.is_none());
        prop_assert_eq!(&got, &records);

        let (got, err) = read_all(MesosReader::new(Trickle::new(&bytes, 3)));
        prop_assert!(err.is_none());
        prop_assert_eq!(&got, &records);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_errors_are_final(
        bytes in prop::collection::vec(prop::sample::select(b"0123456789\n+ \rab".to_vec()), 0..200),
        lenient in any::<bool>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let opts = MesosOptions::default().with_lenient(lenient).with_max_record_size(64);
        let whole = decode_split(opts, &bytes, &[]);
        let split = decode_split(opts, &bytes, &[cut.index(bytes.len() + 1)]);
        prop_assert_eq!(&whole.0, &split.0);
        prop_assert_eq!(whole.1.map(|e| (e.kind(), e.position())), split.1.map(|e| (e.kind(), e.position())));
    }
}
