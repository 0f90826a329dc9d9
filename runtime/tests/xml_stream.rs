//! XML through the public stream API (`RecordReader` / `RecordWriter` with `Format::Xml`),
//! beyond the fixture checks every archive shares (`archive_fixtures.rs`): truncation at
//! every byte with record numbers and field paths, error reports, deep recursion, and
//! typed/dynamic agreement.

mod fixture_checks;
mod fixture_records;
#[path = "fixture_records/arb.rs"]
mod fixture_records_arb;
mod support;

use fixture_checks::read_values;
use fixture_harness::canon;
use fixture_harness::{hadoop_java, record_id, schema, Encoding, Trickle};
use fixture_records::{AllPrims, Outer, ToValue};
use hadoop_record::{ErrorKind, Format, Position, RecordReader, RecordWriter};
use proptest::prelude::*;
use support::values::recursive_schema;

/// Byte offset of a line:col position in `bytes`.
fn offset_of(bytes: &[u8], position: Position) -> usize {
    let Position::LineCol { line, col } = position else {
        panic!("XML positions are line:col, not {position}")
    };
    let line_start = if line == 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .nth(line as usize - 2)
            .map(|(i, _)| i + 1)
            .unwrap()
    };
    line_start + col as usize - 1
}

/// Every prefix of every fixture either holds only whitespace after its last complete
/// record (then it reads as those records) or fails with a position, the number of the
/// record it is in and a field path rooted at the record's type name — from a slice and
/// through a reader that hands out one byte at a time.
#[test]
fn truncation_at_every_byte_is_a_clean_end_or_a_located_error() {
    let mut checked = 0;
    for case in hadoop_java().cases_in(Encoding::Xml) {
        let bytes = case.bytes();
        let type_name = case.record_type.rsplit('.').next().unwrap();
        let mut ends = Vec::new();
        let mut reader = RecordReader::new(&bytes[..], Format::Xml);
        while reader
            .read_value(schema(), case.record_id())
            .unwrap()
            .is_some()
        {
            ends.push(offset_of(&bytes, reader.position()));
        }
        assert_eq!(ends.len(), case.values.len());
        assert!(ends.iter().all(|&e| bytes[..e].ends_with(b"</value>")));
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            let complete = ends.iter().filter(|&&e| e <= len).count();
            let clean = complete == 0 && len == 0
                || complete > 0 && prefix[ends[complete - 1]..].iter().all(|b| *b == b'\n');
            for (how, (got, err)) in [
                ("slice", read_values(prefix, Format::Xml, case)),
                (
                    "trickled",
                    read_values(Trickle::new(prefix, 1), Format::Xml, case),
                ),
            ] {
                match err {
                    None => assert!(clean, "{}[..{len}] ({how}) read cleanly", case.name),
                    Some(e) => {
                        assert!(!clean, "{}[..{len}] ({how}): {e}", case.name);
                        assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{}: {e}", case.name);
                        assert!(e.position().is_some(), "{}[..{len}]: {e}", case.name);
                        assert_eq!(e.record(), Some(complete as u64), "{}: {e}", case.name);
                        assert!(e.path().starts_with(type_name), "{}: {e}", case.name);
                    }
                }
                assert_eq!(got.len(), complete, "{}[..{len}] ({how})", case.name);
            }
            checked += 1;
        }
    }
    let total: u64 = hadoop_java().cases_in(Encoding::Xml).map(|c| c.size).sum();
    assert_eq!(checked as u64, total);
}

#[test]
fn errors_name_record_line_column_and_field_path() {
    let case = hadoop_java().case("stream_outer_x2.xml");
    let text = String::from_utf8(case.bytes()).unwrap();
    // Spoil `a.n` of the second record.
    let second_record = text
        .match_indices("<value><struct>\n  <member>")
        .nth(1)
        .unwrap()
        .0;
    let at = second_record + text[second_record..].find("<ex:i8>0</ex:i8>").unwrap();
    let mut bad = text.clone();
    bad.replace_range(at..at + 8, "<ex:i8>-");
    let line = bad[..at].matches('\n').count() + 1;
    let col = at - bad[..at].rfind('\n').unwrap() + "<ex:i8>".len();
    let mut reader = RecordReader::new(bad.as_bytes(), Format::Xml);
    assert!(reader.read::<Outer>().unwrap().is_some());
    let e = reader.read::<Outer>().unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("record 1, line {line}:{col}, in Outer.a.n: not a valid long: `-`")
    );
    assert_eq!(e.kind(), ErrorKind::Syntax);
    // The reader stays failed.
    assert!(reader.read::<Outer>().is_err());
}

#[test]
fn unknown_tags_and_entities_through_the_reader() {
    let doc = "<value><struct>\n  <member>\n    <name>v</name>\n    <value><i8>1</i8></value>\n  </member>\n</struct></value>\n";
    let error = |doc: &str, ty: &str| {
        let mut reader = RecordReader::new(doc.as_bytes(), Format::Xml);
        reader
            .read_value(schema(), record_id(ty))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(doc, "oracle.prims.LongRec"),
        "record 0, line 4:12, in LongRec.v: unknown element `i8`"
    );
    let doc = doc.replace("<i8>1</i8>", "<string>&euro;</string>");
    assert_eq!(
        error(&doc, "oracle.prims.StringRec"),
        "record 0, line 4:20, in StringRec.v: unknown entity `&euro;`"
    );
}

record!(Node {
    kids: Vec<Box<Node>> = "kids"
});

#[test]
fn deep_nesting_is_a_limit_error_typed_and_dynamic() {
    let level = "<value><struct><member><name>kids</name><value><array>";
    let doc = level.repeat(100_000);
    let (s, id) = recursive_schema();
    let e = RecordReader::new(doc.as_bytes(), Format::Xml)
        .read_value(&s, id)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert!(e.path().starts_with("Node.kids[0].kids[0]"), "{e}");
    let e = RecordReader::new(doc.as_bytes(), Format::Xml)
        .read::<Node>()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");

    // Within the limit, deep nesting writes and reads back.
    let mut node = Node::default();
    for _ in 0..50 {
        node = Node {
            kids: vec![Box::new(node)],
        };
    }
    let mut w = RecordWriter::new(Vec::new(), Format::Xml);
    w.write(&node).unwrap();
    let xml = w.into_inner().unwrap();
    let back: Node = RecordReader::new(&xml[..], Format::Xml)
        .read()
        .unwrap()
        .unwrap();
    assert_eq!(back, node);
}

#[test]
fn a_record_that_fails_to_encode_leaves_nothing_behind() {
    let id = record_id("oracle.composite.Outer");
    let mut w = RecordWriter::new(Vec::new(), Format::Xml);
    let good = Outer::default().to_value();
    w.write_value(schema(), id, &good).unwrap();
    let broken = fixture_records::outer_with_bad_flag();
    let e = w.write_value(schema(), id, &broken).unwrap_err();
    assert_eq!(
        (e.kind(), e.path().as_str()),
        (ErrorKind::Schema, "Outer.flag")
    );
    assert_eq!(e.record(), Some(1));
    // The next record starts at the top level again, at column 0.
    w.write_value(schema(), id, &good).unwrap();
    let xml = w.into_inner().unwrap();
    let mut one = RecordWriter::new(Vec::new(), Format::Xml);
    one.write_value(schema(), id, &good).unwrap();
    let one = one.into_inner().unwrap();
    assert_eq!(xml, [one.clone(), one].concat());
}

fn all_prims() -> impl Strategy<Value = AllPrims> {
    fixture_records_arb::arb_all_prims(".*", prop::collection::vec(any::<u8>(), 0..8))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Typed records written by `RecordWriter` read back through `RecordReader`, and the
    /// typed bytes equal the schema-driven bytes.
    #[test]
    fn typed_all_prims_round_trip(records in prop::collection::vec(all_prims(), 1..5)) {
        let mut w = RecordWriter::new(Vec::new(), Format::Xml);
        let mut d = RecordWriter::new(Vec::new(), Format::Xml);
        for r in &records {
            w.write(r).unwrap();
            d.write_value(schema(), record_id("oracle.prims.AllPrims"), &r.to_value()).unwrap();
        }
        let xml = w.into_inner().unwrap();
        prop_assert_eq!(&xml, &d.into_inner().unwrap());
        let back: Vec<AllPrims> = RecordReader::new(&xml[..], Format::Xml)
            .records()
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(back.len(), records.len());
        for (b, r) in back.iter().zip(&records) {
            let (b, r) = (canon(&b.to_value()), canon(&r.to_value()));
            prop_assert!(b.bitwise_eq(&r), "{:?} != {:?}", b, r);
        }
    }
}
