//! RecordIO v1: every fixture as its manifest says, truncation at every offset, hostile
//! lengths, the spec's ambiguous corners as docs/recordio-v1.md resolves them, writers.

mod support;

use bytes::BytesMut;
use hadoop_record::framing::v1::{
    info, FileHeader, TypedRecord, V1Codec, V1FrameWriter, V1ReadOptions, V1Reader, V1WriteOptions,
    V1Writer,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind, Position};
use support::frames::{decode_in_pieces, hex, manifest_cases};
use tokio_util::codec::{Decoder, Encoder};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/v1");

/// What reading a file gives: the header (if readable), the records, the error.
struct Outcome {
    header: Option<FileHeader>,
    records: Vec<TypedRecord>,
    error: Option<Error>,
}

fn read(file: &[u8]) -> Outcome {
    read_with(file, V1ReadOptions::default())
}

fn read_with(file: &[u8], options: V1ReadOptions) -> Outcome {
    let mut reader = match V1Reader::with_options(file, options) {
        Ok(r) => r,
        Err(e) => {
            return Outcome {
                header: None,
                records: vec![],
                error: Some(e),
            }
        }
    };
    let header = Some(reader.header().clone());
    let mut records = Vec::new();
    let mut error = None;
    for r in reader.by_ref() {
        match r {
            Ok(r) => records.push(r),
            Err(e) => error = Some(e),
        }
    }
    assert!(reader.next().is_none(), "nothing after the end or an error");
    Outcome {
        header,
        records,
        error,
    }
}

/// The same through the codec, fed `step` bytes at a time.
fn decode(file: &[u8], step: usize) -> (Vec<TypedRecord>, Option<Error>) {
    decode_in_pieces(V1Codec::default(), file, step)
}

struct Case {
    name: String,
    file: Vec<u8>,
    headers: Vec<(String, String)>,
    records: Vec<TypedRecord>,
    error: Option<String>,
}

fn cases() -> Vec<Case> {
    manifest_cases(FIXTURES, |case| {
        let name = case["file"].as_str().unwrap().to_string();
        Case {
            file: std::fs::read(format!("{FIXTURES}/{name}")).unwrap(),
            name,
            headers: case["expected_headers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p[0].as_str().unwrap().to_string(),
                        p[1].as_str().unwrap().to_string(),
                    )
                })
                .collect(),
            records: case["expected_records"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    TypedRecord::new(r["type"].as_str().unwrap(), hex(r["hex"].as_str().unwrap()))
                })
                .collect(),
            error: case["expected_error"].as_str().map(str::to_string),
        }
    })
}

#[test]
fn every_fixture_gives_the_manifest_headers_records_and_errors() {
    let cases = cases();
    assert_eq!(cases.len(), 9);
    for case in &cases {
        let out = read(&case.file);
        let header = out
            .header
            .unwrap_or_else(|| panic!("{}: no header", case.name));
        assert_eq!(header.pairs(), &case.headers[..], "{}", case.name);
        assert_eq!(out.records, case.records, "{}", case.name);
        match (&case.error, &out.error) {
            (None, None) => {}
            (Some(expected), Some(e)) => {
                assert!(
                    e.message().contains(expected.as_str()),
                    "{}: {e}",
                    case.name
                );
                assert!(
                    matches!(e.position(), Some(Position::Byte(_))),
                    "{}: {e}",
                    case.name
                );
            }
            (expected, got) => panic!("{}: expected {expected:?}, got {got:?}", case.name),
        }
        // The codec, fed a byte at a time, agrees.
        let (records, error) = decode(&case.file, 1);
        assert_eq!(records, case.records, "{} (codec)", case.name);
        assert_eq!(
            error.map(|e| e.to_string()),
            out.error.as_ref().map(|e| e.to_string()),
            "{} (codec)",
            case.name
        );
    }
}

#[test]
fn fixture_errors_point_at_the_damage() {
    let file = std::fs::read(format!("{FIXTURES}/invalid_missing_segment_newline.rio")).unwrap();
    let e = read(&file).error.unwrap();
    let x = file.windows(3).position(|w| w == b"XYZ").unwrap();
    assert_eq!(e.position(), Some(Position::Byte(x as u64)));
    assert_eq!(e.record(), Some(1));
    assert_eq!(e.kind(), ErrorKind::Syntax);

    let file = std::fs::read(format!("{FIXTURES}/invalid_partial_type_change.rio")).unwrap();
    let e = read(&file).error.unwrap();
    let b = file.windows(4).position(|w| w == b"B:4:").unwrap();
    assert_eq!(e.position(), Some(Position::Byte(b as u64)));
}

#[test]
fn fixture_versions_and_future_minor() {
    let file = std::fs::read(format!("{FIXTURES}/future_minor_version.rio")).unwrap();
    let out = read(&file);
    assert_eq!(out.header.unwrap().version(), (1, 7));
    let mut v2 = file.clone();
    v2[10] = b'2';
    let e = read(&v2).error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 11 }));
}

#[test]
fn truncation_at_every_offset_of_every_fixture() {
    for case in cases() {
        let full = read(&case.file);
        let header_len = case.file.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
        for cut in 0..case.file.len() {
            let part = &case.file[..cut];
            let out = read(part);
            assert!(
                full.records.starts_with(&out.records),
                "{} cut {cut}",
                case.name
            );
            match &out.error {
                // Without a trailer, a cut right after a record reads as a shorter file.
                None => assert!(
                    cut >= header_len && part.ends_with(b"\n"),
                    "{} cut {cut}: no error",
                    case.name
                ),
                Some(e) => match e.position() {
                    Some(Position::Byte(p)) => {
                        assert!(p <= cut as u64, "{} cut {cut}: {e}", case.name)
                    }
                    Some(_) => {
                        assert!(cut < header_len, "{} cut {cut}: {e}", case.name)
                    }
                    None => panic!("{} cut {cut}: no position: {e}", case.name),
                },
            }
            let (records, error) = decode(part, 7);
            assert_eq!(records, out.records, "{} cut {cut} (codec)", case.name);
            assert_eq!(
                error.is_some(),
                out.error.is_some(),
                "{} cut {cut} (codec)",
                case.name
            );
        }
    }
}

#[test]
fn a_length_past_the_end_is_an_error_at_its_segment_before_allocating() {
    let unlimited = V1ReadOptions::default().with_max_record_size(u64::MAX);
    for len in ["4294967295", "1000000", "5"] {
        let file = format!("RecordIO v1.0\n\nOk:1:x\nHuge:{len}:abc");
        let out = read_with(file.as_bytes(), unlimited);
        assert_eq!(out.records, [TypedRecord::new("Ok", "x")]);
        let e = out.error.unwrap();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{e}");
        assert_eq!(e.position(), Some(Position::Byte(22)), "{e}");
        assert!(
            e.to_string().contains("runs past the end of the input"),
            "{e}"
        );
    }
    // Under the default 1 GiB record limit, the length alone is refused.
    let e = read(b"RecordIO v1.0\n\nHuge:4294967295:abc").error.unwrap();
    assert_eq!(
        (e.kind(), e.position()),
        (ErrorKind::Limit, Some(Position::Byte(15)))
    );
    // A length above the grammar's bound, or absurdly long, is refused as it is read.
    for len in ["4294967296", "99999999999999999999999999999999"] {
        let file = format!("RecordIO v1.0\n\nHuge:{len}:abc\n");
        let e = read(file.as_bytes()).error.unwrap();
        assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
        assert_eq!(e.position(), Some(Position::Byte(15)));
    }
    // A record over the reader's limit, across partial segments.
    let options = V1ReadOptions::default().with_max_record_size(5);
    let out = read_with(b"RecordIO v1.0\n\nT:3+abc\nT:3:def\n", options);
    let e = out.error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.position(), Some(Position::Byte(23)));
}

#[test]
fn hostile_headers_are_bounded() {
    // No LF at all: refused as soon as the first bytes cannot be the magic.
    let e = read(&[0u8; 100_000]).error.unwrap();
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 1 }));
    // Endless header lines hit the header limit.
    let mut file = b"RecordIO v1.0\n".to_vec();
    file.extend(std::iter::repeat_n(&b"X-Pad: 0123456789\n"[..], 100_000).flatten());
    let e = read(&file).error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    // A segment type without end.
    let mut file = b"RecordIO v1.0\n\n".to_vec();
    file.extend(std::iter::repeat_n(b'A', 5000));
    let e = read(&file).error.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.position(), Some(Position::Byte(15)));
    // Empty input.
    let e = read(b"").error.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 1 }));
}

#[test]
fn ambiguous_corners_follow_the_documented_readings() {
    let ok = |file: &[u8]| {
        let out = read(file);
        assert!(
            out.error.is_none(),
            "{:?}: {:?}",
            String::from_utf8_lossy(file),
            out.error
        );
        (out.header.unwrap(), out.records)
    };
    let err = |file: &[u8]| {
        read(file)
            .error
            .unwrap_or_else(|| panic!("{:?} read", String::from_utf8_lossy(file)))
    };

    // Keys: lenient reading; separators: one or more spaces or tabs; values trimmed.
    let (h, _) = ok(b"RecordIO v1.0\nContent-MD5:\t x y \nX-UH:  7\nEmpty: \n\n");
    assert_eq!(
        h.pairs(),
        &[
            ("Content-MD5".to_string(), "x y".to_string()),
            ("X-UH".to_string(), "7".to_string()),
            ("Empty".to_string(), String::new())
        ]
    );
    assert_eq!(
        err(b"RecordIO v1.0\nKey:value\n\n").position(),
        Some(Position::LineCol { line: 2, col: 5 })
    );
    // The blank line is required, even without pairs.
    let e = err(b"RecordIO v1.0\nT:1:x\n");
    assert_eq!(e.position(), Some(Position::LineCol { line: 2, col: 3 }));
    assert!(e.message().contains("blank line"), "{e}");
    // The spec example's stray `Record` line is not a pair.
    let e = err(b"RecordIO v1.0\nDescription: demo\nRecord\n\n");
    assert_eq!(e.position(), Some(Position::LineCol { line: 3, col: 1 }));
    // CR: an error in headers, data in bodies.
    assert_eq!(
        err(b"RecordIO v1.0\r\n\n").position(),
        Some(Position::LineCol { line: 1, col: 14 })
    );
    assert_eq!(err(b"RecordIO v1.0\nA: b\r\n\n").kind(), ErrorKind::Syntax);
    assert_eq!(
        ok(b"RecordIO v1.0\n\nT:2:\r\r\n").1,
        [TypedRecord::new("T", "\r\r")]
    );
    assert_eq!(
        err(b"RecordIO v1.0\n\nT:1:x\r\n").message(),
        "missing LF after segment body"
    );
    // Leading zeros in a length.
    let e = err(b"RecordIO v1.0\n\nT:05:abcde\n");
    assert_eq!(e.position(), Some(Position::Byte(17)));
    assert_eq!(
        ok(b"RecordIO v1.0\n\nT:0:\n").1,
        [TypedRecord::new("T", "")]
    );
    // Zero-length partial segments.
    assert_eq!(
        ok(b"RecordIO v1.0\n\nT:0+\nT:0+\nT:2:ab\n").1,
        [TypedRecord::new("T", "ab")]
    );
    // A partial segment followed by the end of input, or by a reserved type.
    let e = err(b"RecordIO v1.0\n\nT:1+x\n");
    assert!(
        e.message()
            .contains("partial segment followed by end of input"),
        "{e}"
    );
    assert!(err(b"RecordIO v1.0\n\n.i:1+x\nT:1:y\n")
        .message()
        .contains("different type"));
    assert!(err(b"RecordIO v1.0\n\nT:1+x\n.i:1:y\n")
        .message()
        .contains("different type"));
    // Reserved partial records are joined and skipped.
    assert_eq!(
        ok(b"RecordIO v1.0\n\n.i:1+x\n.i:1:y\nT:1:z\n").1,
        [TypedRecord::new("T", "z")]
    );
    // Malformed segment headers, each on its own line after the empty header block.
    for bad in [
        "T1x", ":1:x", ".:1:x", "..a:1:x", "T:1-x", "T::x", "T:+x", "T-1:1:x",
    ] {
        let file = format!("RecordIO v1.0\n\n{bad}\n");
        let e = err(file.as_bytes());
        assert_eq!(e.kind(), ErrorKind::Syntax, "{bad:?}");
    }
}

#[test]
fn reserved_records_can_be_delivered_on_request() {
    let file = std::fs::read(format!("{FIXTURES}/reserved_dot_record.rio")).unwrap();
    let options = V1ReadOptions::default().with_deliver_reserved(true);
    let types: Vec<String> = read_with(&file, options)
        .records
        .into_iter()
        .map(|r| r.record_type)
        .collect();
    assert_eq!(types, ["Data", ".index", "Data"]);
}

#[test]
fn writer_splits_records_into_partial_segments() {
    let mut header = FileHeader::new();
    header.push("Application", "test").unwrap();
    header.push("Record-Content-Type", "A: text/plain").unwrap();
    header
        .push("Record-Content-Type", "B: application/octet-stream")
        .unwrap();
    let options = V1WriteOptions::default().with_max_segment_len(4);
    let mut w = V1Writer::new(Vec::new(), header.clone(), options).unwrap();
    w.write_record("A", b"0123456789").unwrap();
    w.write_record("B", b"").unwrap();
    w.write_record("A", b"abcd").unwrap();
    let e = w.write_record(".index", b"0").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.record(), Some(3));
    assert!(w.write_record("Bad-Type", b"").is_err());
    assert!(w.write_record("", b"").is_err());
    let file = w.into_inner().unwrap();
    assert_eq!(
        String::from_utf8(file.clone()).unwrap(),
        "RecordIO v1.0\nApplication: test\nRecord-Content-Type: A: text/plain\n\
         Record-Content-Type: B: application/octet-stream\n\n\
         A:4+0123\nA:4+4567\nA:2:89\nB:0:\nA:4:abcd\n"
    );
    let out = read(&file);
    assert_eq!(out.header.unwrap(), header);
    assert_eq!(
        out.records,
        [
            TypedRecord::new("A", "0123456789"),
            TypedRecord::new("B", ""),
            TypedRecord::new("A", "abcd")
        ]
    );
}

#[test]
fn writer_defaults_and_limits() {
    // The default segment limit is 2^31-1; 0 and more than 2^32-1 are refused.
    assert_eq!(V1WriteOptions::default().max_segment_len(), 2_147_483_647);
    for bad in [0, 1 << 32] {
        let options = V1WriteOptions::default().with_max_segment_len(bad);
        assert!(V1Writer::new(Vec::new(), FileHeader::new(), options).is_err());
    }
    // Strict keys by default; lenient keys on request.
    let mut header = FileHeader::new();
    header.push("Content-MD5", "abc").unwrap();
    assert!(V1Writer::new(Vec::new(), header.clone(), V1WriteOptions::default()).is_err());
    let lenient = V1WriteOptions::default().with_strict_keys(false);
    let file = V1Writer::new(Vec::new(), header.clone(), lenient)
        .unwrap()
        .into_inner()
        .unwrap();
    assert_eq!(file, b"RecordIO v1.0\nContent-MD5: abc\n\n");
    assert_eq!(read(&file).header.unwrap(), header);
    // A file without records is the header alone; a header read from v1.7 is written v1.0.
    let file = V1Writer::new(Vec::new(), FileHeader::new(), V1WriteOptions::default())
        .unwrap()
        .into_inner()
        .unwrap();
    assert_eq!(file, b"RecordIO v1.0\n\n");
    let future = read(b"RecordIO v1.7\n\n").header.unwrap();
    let file = V1Writer::new(Vec::new(), future, V1WriteOptions::default())
        .unwrap()
        .into_inner()
        .unwrap();
    assert_eq!(file, b"RecordIO v1.0\n\n");
}

#[test]
fn frame_writer_and_payload_adapter() {
    assert!(V1FrameWriter::new(
        Vec::new(),
        ".x",
        FileHeader::new(),
        V1WriteOptions::default()
    )
    .is_err());
    let mut w = V1FrameWriter::new(
        Vec::new(),
        "Rec",
        FileHeader::new(),
        V1WriteOptions::default(),
    )
    .unwrap();
    for p in [&b"one"[..], b"", b"three\nlines\n"] {
        w.write_payload(p).unwrap();
    }
    w.finish().unwrap();
    let file = w.into_inner().unwrap();
    assert_eq!(
        file,
        b"RecordIO v1.0\n\nRec:3:one\nRec:0:\nRec:12:three\nlines\n\n"
    );
    let payloads: Vec<Vec<u8>> = V1Reader::new(&file[..])
        .unwrap()
        .payloads()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(payloads, [&b"one"[..], b"", b"three\nlines\n"]);
    let mut damaged = file.clone();
    damaged.truncate(file.len() - 3);
    let results: Vec<_> = V1Reader::new(&damaged[..]).unwrap().payloads().collect();
    assert_eq!(results.len(), 3);
    assert!(results[2].is_err());
}

#[test]
fn large_bodies_are_read_straight_and_reserved_ones_dropped() {
    let big: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
    let mut file = b"RecordIO v1.0\n\n".to_vec();
    file.extend_from_slice(format!(".blob:{}:", big.len()).as_bytes());
    file.extend_from_slice(&big);
    file.extend_from_slice(format!("\nBig:{}+", big.len()).as_bytes());
    file.extend_from_slice(&big);
    file.extend_from_slice(b"\nBig:1:!\n");
    let out = read(&file);
    assert!(out.error.is_none(), "{:?}", out.error);
    let mut expected = big.clone();
    expected.push(b'!');
    assert_eq!(out.records, [TypedRecord::new("Big", expected)]);
    // Cut inside the big body: the error names the segment.
    let e = read(&file[..file.len() - 1000]).error.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    let seg = file.windows(4).position(|w| w == b"Big:").unwrap();
    assert_eq!(e.position(), Some(Position::Byte(seg as u64)));
}

#[test]
fn codec_round_trip_with_header() {
    let mut header = FileHeader::new();
    header.push("Application", "codec").unwrap();
    let mut codec = V1Codec::with_header(
        header.clone(),
        V1WriteOptions::default().with_max_segment_len(2),
    )
    .unwrap();
    let mut buf = BytesMut::new();
    codec
        .encode(TypedRecord::new("A", "xyz"), &mut buf)
        .unwrap();
    codec.encode(("B", &b""[..]), &mut buf).unwrap();
    assert!(codec.encode((".r", &b""[..]), &mut buf).is_err());
    assert_eq!(
        &buf[..],
        b"RecordIO v1.0\nApplication: codec\n\nA:2+xy\nA:1:z\nB:0:\n"
    );
    let mut reader = V1Codec::default();
    assert!(reader.header().is_none());
    assert_eq!(
        reader.decode(&mut buf).unwrap(),
        Some(TypedRecord::new("A", "xyz"))
    );
    assert_eq!(reader.header(), Some(&header));
    assert_eq!(
        reader.decode_eof(&mut buf).unwrap(),
        Some(TypedRecord::new("B", ""))
    );
    assert_eq!(reader.decode_eof(&mut buf).unwrap(), None);

    let mut empty = V1Codec::default();
    let mut buf = BytesMut::new();
    empty.write_header(&mut buf);
    empty.write_header(&mut buf);
    assert_eq!(&buf[..], b"RecordIO v1.0\n\n");
}

#[test]
fn info_summarises_a_file() {
    let file = std::fs::read(format!("{FIXTURES}/reserved_dot_record.rio")).unwrap();
    let summary = info(&file[..], V1ReadOptions::default());
    assert_eq!(summary.records, 2);
    assert_eq!(summary.segments, 3);
    assert_eq!(summary.types, [("Data".to_string(), 2)]);
    assert_eq!(summary.reserved, [(".index".to_string(), 1)]);
    let text = summary.to_string();
    assert!(text.contains("version: 1.0"), "{text}");
    assert!(text.contains("  Application: fixture-gen 1.0"), "{text}");
    assert!(
        text.contains("reserved records (skipped by readers): 1"),
        "{text}"
    );
    assert!(text.contains("status: ok"), "{text}");

    let file = std::fs::read(format!("{FIXTURES}/invalid_missing_segment_newline.rio")).unwrap();
    let summary = info(&file[..], V1ReadOptions::default());
    assert_eq!(summary.records, 1);
    assert!(summary
        .to_string()
        .contains("missing LF after segment body"));
    let summary = info(&b"nope"[..], V1ReadOptions::default());
    assert!(summary.header.is_none() && summary.error.is_some());
}
