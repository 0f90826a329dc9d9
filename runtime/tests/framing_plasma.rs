//! Plasma text and fixed-size formats: round trips, split reading, truncation, codecs.

mod support;

use std::io::Cursor;

use bytes::BytesMut;
use hadoop_record::framing::plasma::{
    fixed_info, text_info, FixedCodec, FixedReader, FixedWriter, PlasmaFormat, TextCodec,
    TextOptions, TextReader, TextWriter, VarWriteOptions,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{ErrorKind, Position};
use support::frames::until_error;
use tokio_util::codec::{Decoder, Encoder};

fn text_file(records: &[&[u8]]) -> Vec<u8> {
    let mut w = TextWriter::new(Vec::new());
    for r in records {
        w.write_payload(r).unwrap();
    }
    w.into_inner().unwrap()
}

/// Asserts that the printed `info` holds `text`.
fn assert_info_says(info: &impl std::fmt::Display, text: &str) {
    let info = info.to_string();
    assert!(info.contains(text), "{info}");
}

#[test]
fn text_writes_lf_terminated_records_and_reads_them_back() {
    let file = text_file(&[b"alpha", b"", b"with\rcr", b"\xff\x00"]);
    assert_eq!(file, b"alpha\n\nwith\rcr\n\xff\x00\n");
    let (records, err) = until_error(TextReader::new(&file[..]));
    assert!(err.is_none());
    assert_eq!(records, [&b"alpha"[..], b"", b"with\rcr", b"\xff\x00"]);
}

#[test]
fn text_writer_refuses_a_payload_holding_lf() {
    let mut w = TextWriter::new(Vec::new());
    w.write_payload(b"ok").unwrap();
    let e = w.write_payload(b"bad\nline").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.record(), Some(1));
    assert!(e.to_string().contains("LF at byte 3"), "{e}");
    // Nothing of the refused payload was written.
    assert_eq!(w.into_inner().unwrap(), b"ok\n");
}

#[test]
fn text_unterminated_last_record_is_an_error_unless_allowed() {
    let (records, err) = until_error(TextReader::new(&b"one\ntwo"[..]));
    assert_eq!(records, [b"one"]);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(4)));

    let lenient = TextOptions::default().with_allow_unterminated(true);
    let (records, err) = until_error(TextReader::with_options(&b"one\ntwo"[..], lenient));
    assert!(err.is_none());
    assert_eq!(records, [&b"one"[..], b"two"]);
}

#[test]
fn text_record_longer_than_the_limit_is_refused_at_its_start() {
    let options = TextOptions::default().with_max_record_size(4);
    let (records, err) = until_error(TextReader::with_options(&b"abcd\nabcde\n"[..], options));
    assert_eq!(records, [b"abcd"]);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.position(), Some(Position::Byte(5)));
}

#[test]
fn text_every_truncation_gives_the_complete_records_then_an_error() {
    let file = text_file(&[b"first record", b"", b"x", b"last one"]);
    let (full, _) = until_error(TextReader::new(&file[..]));
    for cut in 0..=file.len() {
        let (records, err) = until_error(TextReader::new(&file[..cut]));
        let complete = file[..cut].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(records, full[..complete], "cut {cut}");
        let at_boundary = cut == 0 || file[cut - 1] == b'\n';
        match err {
            None => assert!(at_boundary, "cut {cut}: no error"),
            Some(e) => {
                assert!(!at_boundary, "cut {cut}: {e}");
                let start = file[..cut]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                assert_eq!(e.position(), Some(Position::Byte(start as u64)));
            }
        }
    }
}

/// Reads every split of `size` bytes and checks that they partition the records.
fn text_splits(file: &[u8], size: u64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < file.len() as u64 {
        let reader = TextReader::split(
            Cursor::new(file),
            start,
            start + size,
            TextOptions::default(),
        )
        .unwrap();
        let (records, err) = until_error(reader);
        assert!(err.is_none(), "{err:?}");
        out.extend(records);
        start += size;
    }
    out
}

#[test]
fn text_split_owns_the_records_that_start_in_it() {
    // Records start at 0, 3, 7, 8.
    let file = b"aa\nbbb\n\ncc\n";
    let split = |start, end| {
        until_error(
            TextReader::split(Cursor::new(&file[..]), start, end, TextOptions::default()).unwrap(),
        )
        .0
    };
    assert_eq!(split(0, 1), [b"aa"]);
    assert_eq!(split(0, 3), [b"aa"]);
    assert_eq!(split(0, 4), [&b"aa"[..], b"bbb"]);
    assert_eq!(split(1, 3), Vec::<Vec<u8>>::new());
    assert_eq!(split(3, 4), [b"bbb"]);
    assert_eq!(split(4, 8), [b""]);
    assert_eq!(split(7, 100), [&b""[..], b"cc"]);
    assert_eq!(split(11, 100), Vec::<Vec<u8>>::new());
    assert_eq!(split(50, 100), Vec::<Vec<u8>>::new());
    for size in 1..=12 {
        assert_eq!(
            text_splits(file, size),
            until_error(TextReader::new(&file[..])).0,
            "split size {size}"
        );
    }
}

#[test]
fn text_codec_gives_the_same_records_fed_byte_by_byte() {
    let file = text_file(&[b"one", b"", b"three"]);
    let mut codec = TextCodec::default();
    let mut buf = BytesMut::new();
    let mut records = Vec::new();
    for &b in &file {
        buf.extend_from_slice(&[b]);
        while let Some(r) = codec.decode(&mut buf).unwrap() {
            records.push(r.to_vec());
        }
    }
    assert!(codec.decode_eof(&mut buf).unwrap().is_none());
    assert_eq!(records, [&b"one"[..], b"", b"three"]);

    let mut out = BytesMut::new();
    for r in &records {
        codec.encode(&r[..], &mut out).unwrap();
    }
    assert_eq!(&out[..], &file[..]);
    assert_eq!(
        codec.encode(&b"a\nb"[..], &mut out).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
}

#[test]
fn text_codec_reports_an_unterminated_end() {
    let mut codec = TextCodec::default();
    let mut buf = BytesMut::from(&b"ok\ncut"[..]);
    assert_eq!(codec.decode_eof(&mut buf).unwrap().unwrap(), &b"ok"[..]);
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert_eq!(e.position(), Some(Position::Byte(3)));

    let mut codec = TextCodec::new(TextOptions::default().with_allow_unterminated(true));
    let mut buf = BytesMut::from(&b"cut"[..]);
    assert_eq!(codec.decode_eof(&mut buf).unwrap().unwrap(), &b"cut"[..]);
    assert!(codec.decode_eof(&mut buf).unwrap().is_none());
}

#[test]
fn text_info_counts_records_and_reports_damage() {
    let info = text_info(&b"a\nbcd\n\n"[..], TextOptions::default());
    assert_eq!((info.records, info.payload_bytes, info.longest), (3, 4, 3));
    assert!(info.error.is_none());
    assert!(info
        .to_string()
        .contains("records: 3 (4 payload bytes, longest 3)"));
    let info = text_info(&b"a\nbcd"[..], TextOptions::default());
    assert_eq!(info.records, 1);
    assert_info_says(&info, "error: byte 2: input ends inside a record");
}

#[test]
fn fixed_round_trip_and_trailing_partial_record() {
    let mut w = FixedWriter::new(Vec::new(), 3).unwrap();
    for r in [b"abc", b"\n\n\n", b"xyz"] {
        w.write_payload(r).unwrap();
    }
    let e = w.write_payload(b"toolong").unwrap_err();
    assert_eq!(e.record(), Some(3));
    let file = w.into_inner().unwrap();
    assert_eq!(file, b"abc\n\n\nxyz");
    let (records, err) = until_error(FixedReader::new(&file[..], 3).unwrap());
    assert!(err.is_none());
    assert_eq!(records, [b"abc", b"\n\n\n", b"xyz"]);

    for cut in 0..file.len() {
        let (records, err) = until_error(FixedReader::new(&file[..cut], 3).unwrap());
        assert_eq!(records.len(), cut / 3);
        match err {
            None => assert_eq!(cut % 3, 0),
            Some(e) => {
                assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
                assert_eq!(e.position(), Some(Position::Byte((cut / 3 * 3) as u64)));
            }
        }
    }
    assert_eq!(
        FixedReader::new(&file[..], 0).err().unwrap().kind(),
        ErrorKind::Unsupported
    );
    assert!(FixedWriter::new(Vec::new(), 0).is_err());
}

#[test]
fn fixed_records_larger_than_the_read_buffer() {
    let size = 200_000;
    let records: Vec<Vec<u8>> = (0..3u8).map(|i| vec![i; size]).collect();
    let mut w = FixedWriter::new(Vec::new(), size).unwrap();
    for r in &records {
        w.write_payload(r).unwrap();
    }
    let file = w.into_inner().unwrap();
    assert_eq!(
        until_error(FixedReader::new(&file[..], size).unwrap()).0,
        records
    );
    let (got, err) = until_error(FixedReader::new(&file[..size * 2 + 5], size).unwrap());
    assert_eq!(got, records[..2]);
    assert!(err.unwrap().to_string().contains("5 of 200000 bytes"));
}

#[test]
fn fixed_splits_at_any_offset_partition_the_records() {
    let file: Vec<u8> = (0..40u8).collect();
    let full = until_error(FixedReader::new(&file[..], 4).unwrap()).0;
    let split = |s, e| until_error(FixedReader::split(Cursor::new(&file[..]), 4, s, e).unwrap()).0;
    assert_eq!(split(0, 1), [vec![0, 1, 2, 3]]);
    assert_eq!(split(1, 4), Vec::<Vec<u8>>::new());
    assert_eq!(split(1, 5), [vec![4, 5, 6, 7]]);
    assert_eq!(split(36, 1000), [vec![36, 37, 38, 39]]);
    for size in 1..=41u64 {
        let mut got = Vec::new();
        let mut start = 0;
        while start < 40 {
            got.extend(split(start, start + size));
            start += size;
        }
        assert_eq!(got, full, "split size {size}");
    }
}

#[test]
fn fixed_codec_and_info() {
    let mut codec = FixedCodec::new(2).unwrap();
    let mut buf = BytesMut::from(&b"abcde"[..]);
    assert_eq!(codec.decode(&mut buf).unwrap().unwrap(), &b"ab"[..]);
    assert_eq!(codec.decode_eof(&mut buf).unwrap().unwrap(), &b"cd"[..]);
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert_eq!(e.position(), Some(Position::Byte(4)));
    let mut out = BytesMut::new();
    codec.encode(&b"xy"[..], &mut out).unwrap();
    assert!(codec.encode(&b"xyz"[..], &mut out).is_err());
    assert_eq!(&out[..], b"xy");
    assert!(FixedCodec::new(0).is_err());

    let info = fixed_info(&b"abcde"[..], 2);
    assert_eq!(info.records, 2);
    assert_info_says(&info, "byte 4: input ends inside a record (1 of 2 bytes)");
}

#[test]
fn formats_parse_and_build_readers_and_writers() {
    for (name, format) in [
        ("plasma-text", PlasmaFormat::Text),
        ("plasma-fixed:3", PlasmaFormat::Fixed(3)),
        ("plasma-var", PlasmaFormat::Var),
    ] {
        assert_eq!(name.parse::<PlasmaFormat>().unwrap(), format);
        assert_eq!(format.to_string(), name);
        let mut out = Vec::new();
        {
            let mut w = format.writer(&mut out, VarWriteOptions::default()).unwrap();
            w.write_payload(b"abc").unwrap();
            w.write_payload(b"def").unwrap();
            w.finish().unwrap();
        }
        let records = until_error(format.reader(&out[..]).unwrap());
        assert_eq!(records.0, [b"abc", b"def"], "{name}");
        assert!(records.1.is_none());
    }
    for bad in [
        "plasma-fixed:",
        "plasma-fixed:0",
        "plasma-fixed:03",
        "plasma-fixed:+3",
        "plasma",
        "v1",
    ] {
        assert!(bad.parse::<PlasmaFormat>().is_err(), "{bad}");
    }
}
