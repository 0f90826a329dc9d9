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

/// After an I/O error every later read fails as an I/O error too (not as a syntax error),
/// and the iterators, once they end, stay ended (`FusedIterator`).
#[test]
fn a_failed_reader_keeps_the_errors_kind_and_its_iterators_stay_ended() {
    /// One record, then errors.
    struct Failing(Vec<u8>);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("cable unplugged"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let bytes = encode(&[IntRec { v: 1 }], Format::Binary);
    let mut reader = RecordReader::new(Failing(bytes), Format::Binary);
    assert_eq!(reader.read::<IntRec>().unwrap(), Some(IntRec { v: 1 }));
    let first = reader.read::<IntRec>().unwrap_err();
    assert_eq!(first.kind(), ErrorKind::Io);
    let later = reader.read::<IntRec>().unwrap_err();
    assert_eq!(later.kind(), ErrorKind::Io, "{later}");
    assert_eq!(later.record(), Some(1));

    fn fused<I: std::iter::FusedIterator>(_: &I) {}
    let bytes = encode(&[IntRec { v: 1 }], Format::Csv);
    let mut reader = RecordReader::new(&bytes[..], Format::Csv);
    let mut records = reader.records::<IntRec>();
    fused(&records);
    assert!(records.next().is_some());
    assert!(records.next().is_none());
    assert!(records.next().is_none());
    let mut owned = RecordReader::new(&bytes[..], Format::Csv).into_records::<IntRec>();
    fused(&owned);
    assert!(owned.by_ref().all(|r| r.is_ok()));
    assert!(owned.next().is_none());
}

/// The reader hands back what it reads from, as `BufReader` does.
#[test]
fn the_reader_gives_back_its_reader() {
    let bytes = encode(&[IntRec { v: 1 }, IntRec { v: 2 }], Format::Binary);
    let mut reader = RecordReader::new(io::Cursor::new(bytes.clone()), Format::Binary);
    assert_eq!(reader.read::<IntRec>().unwrap(), Some(IntRec { v: 1 }));
    // The whole input was read ahead into the buffer.
    assert_eq!(reader.get_ref().position(), bytes.len() as u64);
    reader.get_mut().set_position(0);
    let cursor = reader.into_inner();
    assert_eq!(cursor.into_inner(), bytes);
    // The owning iterator gives the reader back, to read on with another type.
    let mut records = RecordReader::new(&bytes[..], Format::Binary).into_records::<IntRec>();
    assert_eq!(records.next().unwrap().unwrap(), IntRec { v: 1 });
    let mut reader = records.into_reader();
    assert_eq!(reader.read::<IntRec>().unwrap(), Some(IntRec { v: 2 }));
}

/// `into_inner` gives the writer back when the final flush fails, with what it could not
/// write, so that it can be tried again.
#[test]
fn into_inner_gives_the_writer_back_when_the_flush_fails() {
    #[derive(Debug, Default)]
    struct Flaky {
        full: bool,
        bytes: Vec<u8>,
    }
    /// A writer that fails until told it has room.
    fn full(format: Format) -> RecordWriter<Flaky> {
        let flaky = Flaky {
            full: true,
            ..Flaky::default()
        };
        RecordWriter::new(flaky, format)
    }
    impl Write for Flaky {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.full {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut writer = full(Format::Csv);
    writer.write(&IntRec { v: 5 }).unwrap();
    let e = writer.into_inner().unwrap_err();
    assert_eq!(e.error().kind(), ErrorKind::Io);
    assert!(e.to_string().contains("disk full"), "{e}");
    let mut writer = e.into_inner();
    writer.get_mut().full = false;
    assert_eq!(writer.into_inner().unwrap().bytes, b"5\n");
    // `?` in a function returning hadoop_record::Result takes the error alone.
    fn finish(w: RecordWriter<Flaky>) -> hadoop_record::Result<Flaky> {
        Ok(w.into_inner()?)
    }
    let mut writer = full(Format::Binary);
    writer.write(&IntRec { v: 1 }).unwrap();
    assert_eq!(finish(writer).unwrap_err().kind(), ErrorKind::Io);
}

/// One record in one call, in every format: what a `RecordWriter` writes for it, read back
/// exactly; an empty input or bytes after the record are errors that say where.
#[test]
fn one_record_in_one_call() {
    use hadoop_record::{from_reader, from_slice, to_vec, to_writer};
    let record = outer_with_tags(&["a", "b,c"]);
    for &format in Format::ALL {
        let bytes = to_vec(&record, format).unwrap();
        assert_eq!(
            bytes,
            encode(std::slice::from_ref(&record), format),
            "{format}"
        );
        assert_eq!(
            from_slice::<Outer>(&bytes, format).unwrap(),
            record,
            "{format}"
        );
        assert_eq!(
            from_reader::<_, Outer>(io::Cursor::new(&bytes), format).unwrap(),
            record,
            "{format}"
        );
        let mut out = Vec::new();
        to_writer(&mut out, &record, format).unwrap();
        assert_eq!(out, bytes, "{format}");

        let e = from_slice::<Outer>(b"", format).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{format}: {e}");
        let mut two = bytes.clone();
        two.extend_from_slice(&bytes);
        let e = from_slice::<Outer>(&two, format).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Syntax, "{format}: {e}");
        assert!(e.to_string().contains("after the record"), "{format}: {e}");
        let e = from_reader::<_, Outer>(&two[..], format).unwrap_err();
        assert!(e.to_string().contains("after the record"), "{format}: {e}");
    }
    // Binary says how many bytes are left over, and where they start.
    let mut bytes = to_vec(&IntRec { v: 1 }, Format::Binary).unwrap();
    bytes.extend_from_slice(b"xy");
    let e = from_slice::<IntRec>(&bytes, Format::Binary).unwrap_err();
    assert_eq!(e.to_string(), "byte 1: 2 trailing bytes after the record");
    // A CSV record ends with its line end, as the stream reader requires.
    assert_eq!(
        from_slice::<IntRec>(b"7\r\n", Format::Csv).unwrap(),
        IntRec { v: 7 }
    );
    let e = from_slice::<IntRec>(b"7", Format::Csv).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{e}");
}
