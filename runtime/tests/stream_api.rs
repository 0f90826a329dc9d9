//! The public stream API: `RecordReader`/`RecordWriter`, their iterators, and what their
//! errors say (record number, position, field path rooted at the type name).

mod fixture_records;

use std::io::{self, Read, Write};

use fixture_harness::{record_id, schema};
use fixture_records::{AllPrims, Inner, IntRec, Outer, StringRec};
use hadoop_record::{ErrorKind, Format, Position, RecordReader, RecordWriter};

fn outer_with_tags(tags: &[&str]) -> Outer {
    let mut o = Outer::default();
    o.c.vrec = tags
        .iter()
        .map(|t| Inner {
            tag: t.to_string(),
            n: 1,
        })
        .collect();
    o
}

fn encode<T: hadoop_record::Record>(records: &[T], format: Format) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), format);
    for r in records {
        w.write(r).unwrap();
    }
    w.into_inner().unwrap()
}

/// Two records in `format`, the second with a vector of four records whose last `tag`
/// is `BAD`: a place to damage.
fn two_outers(format: Format) -> ([Outer; 2], Vec<u8>) {
    let records = [
        outer_with_tags(&["a"]),
        outer_with_tags(&["a", "b", "c", "BAD"]),
    ];
    let bytes = encode(&records, format);
    (records, bytes)
}

#[test]
fn csv_errors_name_record_line_column_and_field_path() {
    let (records, mut text) = two_outers(Format::Csv);
    let at = text.windows(4).position(|w| w == b"'BAD").unwrap();
    text[at] = b'"'; // a string that does not start with `'`
    let line_start = text.iter().position(|&b| b == b'\n').unwrap() + 1;

    let mut reader = RecordReader::new(&text[..], Format::Csv);
    assert_eq!(reader.read::<Outer>().unwrap().unwrap(), records[0]);
    let e = reader.read::<Outer>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.record(), Some(1));
    assert_eq!(e.path(), "Outer.c.vrec[3].tag");
    let col = (at - line_start + 1) as u64;
    assert_eq!(e.position(), Some(Position::LineCol { line: 2, col }));
    assert_eq!(
        e.to_string(),
        format!(
            "record 1, line 2:{col}, in Outer.c.vrec[3].tag: expected a string (`'`), found `\"`"
        )
    );
    // The same through the schema-driven codec.
    let mut reader = RecordReader::new(&text[..], Format::Csv);
    let id = record_id("oracle.composite.Outer");
    let values: Vec<_> = reader.values(schema(), id).collect();
    assert_eq!(values.len(), 2);
    let e = values[1].as_ref().unwrap_err();
    assert_eq!(e.path(), "Outer.c.vrec[3].tag");
    assert_eq!(e.position(), Some(Position::LineCol { line: 2, col }));
}

#[test]
fn binary_errors_name_record_byte_offset_and_field_path() {
    let (_, mut bytes) = two_outers(Format::Binary);
    let at = bytes.windows(3).position(|w| w == b"BAD").unwrap();
    bytes[at + 1] = 0xff; // invalid UTF-8
    let mut reader = RecordReader::new(&bytes[..], Format::Binary);
    reader.read::<Outer>().unwrap().unwrap();
    let e = reader.read::<Outer>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(e.record(), Some(1));
    assert_eq!(e.path(), "Outer.c.vrec[3].tag");
    assert_eq!(e.position(), Some(Position::Byte(at as u64 + 1)));
}

#[test]
fn iterators_stop_after_the_first_error_and_the_reader_stays_failed() {
    let mut text = encode(&[IntRec { v: 1 }, IntRec { v: 2 }], Format::Csv);
    text.extend_from_slice(b"x\n3\n");
    let mut reader = RecordReader::new(&text[..], Format::Csv);
    let got: Vec<_> = reader.records::<IntRec>().collect();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0].as_ref().unwrap().v, 1);
    assert_eq!(got[1].as_ref().unwrap().v, 2);
    let e = got[2].as_ref().unwrap_err();
    assert_eq!((e.record(), e.path().as_str()), (Some(2), "IntRec.v"));
    assert_eq!(reader.records_read(), 2);
    let again = reader.read::<IntRec>().unwrap_err();
    assert_eq!(again.record(), Some(2));
    assert!(reader.records::<IntRec>().next().is_none());
}

#[test]
fn a_clean_end_is_none_and_empty_input_has_no_records() {
    for format in [Format::Binary, Format::Csv] {
        let mut reader = RecordReader::new(io::empty(), format);
        assert!(reader.read::<AllPrims>().unwrap().is_none());
        assert!(reader.read::<AllPrims>().unwrap().is_none());
        let bytes = encode(&[IntRec { v: 7 }], format);
        let mut reader = RecordReader::new(&bytes[..], format);
        assert_eq!(reader.read::<IntRec>().unwrap(), Some(IntRec { v: 7 }));
        assert_eq!(reader.read::<IntRec>().unwrap(), None);
        assert_eq!(reader.records_read(), 1);
    }
}

#[test]
fn csv_accepts_lf_cr_and_crlf_record_ends_but_not_blank_lines() {
    let text = b"1\n2\r3\r\n4\r\n";
    let got: Vec<i32> = RecordReader::new(&text[..], Format::Csv)
        .into_records::<IntRec>()
        .map(|r| r.unwrap().v)
        .collect();
    assert_eq!(got, [1, 2, 3, 4]);
    let mut reader = RecordReader::new(&b"1\n\n"[..], Format::Csv);
    reader.read::<IntRec>().unwrap();
    let e = reader.read::<IntRec>().unwrap_err();
    assert_eq!(e.position(), Some(Position::LineCol { line: 2, col: 1 }));
}

#[test]
fn io_errors_are_reported_as_io() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    for format in [Format::Binary, Format::Csv] {
        let e = RecordReader::new(Broken, format)
            .read::<IntRec>()
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Io);
        assert!(e.to_string().contains("disk on fire"), "{e}");
    }
}

/// A writer that records flushes.
#[derive(Default)]
struct Spy {
    bytes: Vec<u8>,
    flushes: usize,
}

impl Write for &mut Spy {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

#[test]
fn the_writer_buffers_flushes_on_drop_and_returns_its_writer() {
    let mut spy = Spy::default();
    {
        let mut w = RecordWriter::new(&mut spy, Format::Csv);
        w.write(&IntRec { v: 1 }).unwrap();
        assert!(w.get_ref().bytes.is_empty(), "small records are buffered");
        w.flush().unwrap();
        assert_eq!(w.get_ref().bytes, b"1\n");
        w.write(&IntRec { v: 2 }).unwrap();
        assert_eq!(w.records_written(), 2);
        assert_eq!(w.format(), Format::Csv);
    }
    assert_eq!(spy.bytes, b"1\n2\n");
    assert_eq!(spy.flushes, 2);
    let w = RecordWriter::new(Vec::new(), Format::Binary);
    assert!(w.into_inner().unwrap().is_empty());
}

#[test]
fn a_record_that_fails_to_encode_leaves_nothing_behind() {
    // Hadoop's binary writer refuses U+FFFE/U+FFFF; the CSV writer does not.
    let bad = AllPrims {
        s: "ok\u{FFFF}".into(),
        ..AllPrims::default()
    };
    let mut w = RecordWriter::new(Vec::new(), Format::Binary);
    w.write(&IntRec { v: 1 }).unwrap();
    let e = w.write(&bad).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(e.record(), Some(1));
    assert_eq!(e.path(), "AllPrims.s");
    w.write(&IntRec { v: 2 }).unwrap();
    assert_eq!(w.records_written(), 2);
    assert_eq!(w.into_inner().unwrap(), [1, 2]);

    let csv = encode(std::slice::from_ref(&bad), Format::Csv);
    let back: AllPrims = RecordReader::new(&csv[..], Format::Csv)
        .read()
        .unwrap()
        .unwrap();
    assert_eq!(back, bad);

    // CSV: a value that does not match its schema midway through a nested record; the next
    // record starts without a stray comma.
    let id = record_id("oracle.composite.Outer");
    let mut w = RecordWriter::new(Vec::new(), Format::Csv);
    let broken = fixture_records::outer_with_bad_flag();
    let e = w.write_value(schema(), id, &broken).unwrap_err();
    assert_eq!(
        (e.kind(), e.path().as_str()),
        (ErrorKind::Schema, "Outer.flag")
    );
    w.write(&StringRec { v: "x".into() }).unwrap();
    assert_eq!(w.into_inner().unwrap(), b"'x\n");
}

#[test]
fn formats_parse_and_display_by_name() {
    for f in [Format::Binary, Format::Csv, Format::Xml] {
        assert_eq!(f.to_string().parse::<Format>().unwrap(), f);
    }
    assert_eq!("CSV".parse::<Format>().unwrap(), Format::Csv);
    assert_eq!(
        "json".parse::<Format>().unwrap_err().kind(),
        ErrorKind::Unsupported
    );
}

#[test]
fn many_records_cross_buffer_boundaries() {
    let records: Vec<AllPrims> = (0..20_000)
        .map(|i| AllPrims {
            b: i as i8,
            z: i % 3 == 0,
            i: i * 7919,
            l: (i as i64) << 33,
            f: i as f32 / 7.0,
            d: -(i as f64) / 3.0,
            s: "x,}%\n".repeat(i as usize % 5),
            buf: vec![i as u8; i as usize % 3000],
        })
        .collect();
    for format in [Format::Binary, Format::Csv] {
        let bytes = encode(&records, format);
        let back: Vec<AllPrims> = RecordReader::new(&bytes[..], format)
            .into_records()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(back == records, "{format}");
    }
}
