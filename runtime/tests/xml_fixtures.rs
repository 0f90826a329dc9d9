//! The XML archive against every XML file Hadoop's Java runtime wrote: each decodes to its
//! manifest values and re-encodes to exactly the bytes JDK 17 wrote (the default float
//! text) and those a modern JDK writes (`FloatText::Shortest`), through the schema-driven
//! codec; both JDKs' float text decodes. (Truncation at every byte is
//! checked through the stream API in `xml_stream.rs`.)

use fixture_harness::{hadoop_java, schema, Encoding};
use hadoop_record::archive::xml::{XmlInput, XmlOutput};
use hadoop_record::archive::FloatText;
use hadoop_record::schema::RecordId;
use hadoop_record::value::{read_record, write_record};
use hadoop_record::{RecordInput, Value};

/// Decodes every record of `bytes`, returning the values and the byte offset where each
/// record's `</value>` ends.
fn decode_all(bytes: &[u8], id: RecordId) -> hadoop_record::Result<Vec<Value>> {
    let mut input = XmlInput::new(bytes);
    let mut values = Vec::new();
    while !input.at_end()? {
        values.push(read_record(&mut input, schema(), id, "")?);
    }
    Ok(values)
}

/// The values written as `float_text` says (for `Legacy`, by the default output).
fn encode_all(values: &[Value], id: RecordId, float_text: FloatText) -> Vec<u8> {
    let mut out = XmlOutput::new(Vec::new());
    if float_text != FloatText::Legacy {
        out = out.with_float_text(float_text);
    }
    for v in values {
        write_record(&mut out, schema(), id, v, "").unwrap();
    }
    out.into_inner().unwrap()
}

fn assert_values(name: &str, got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{name}: record count");
    for (g, w) in got.iter().zip(want) {
        assert!(g.bitwise_eq(w), "{name}: got {g:?}, want {w:?}");
    }
}

#[test]
fn every_xml_fixture_decodes_to_its_manifest_values() {
    let mut checked = 0;
    for case in hadoop_java().cases_in(Encoding::Xml) {
        let want = case.expected_values();
        for bytes in [case.bytes(), case.modern_bytes()] {
            let got = decode_all(&bytes, case.record_id())
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            assert_values(&case.name, &got, &want);
        }
        checked += 1;
    }
    assert_eq!(checked, 155);
}

#[test]
fn every_xml_fixture_reencodes_to_each_jdks_bytes() {
    let mut streams = 0;
    let mut differing = 0;
    let mut wrong = Vec::new();
    for case in hadoop_java().cases_in(Encoding::Xml) {
        for float_text in FloatText::ALL {
            let want = case.bytes_with(float_text);
            let got = encode_all(&case.expected_values(), case.record_id(), float_text);
            if got != want {
                eprintln!(
                    "{} ({float_text}):\n--- got\n{}\n--- want\n{}",
                    case.name,
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want)
                );
                wrong.push(format!("{} ({float_text})", case.name));
            }
            // And what was read back from either JDK's file writes the same bytes again.
            for file in [case.bytes(), case.modern_bytes()] {
                let read = decode_all(&file, case.record_id()).unwrap();
                if encode_all(&read, case.record_id(), float_text) != want {
                    wrong.push(format!("{} ({float_text}, read back)", case.name));
                }
            }
        }
        streams += usize::from(case.name.starts_with("stream_"));
        differing += usize::from(case.differs_on_modern_jdk());
    }
    assert_eq!(wrong, Vec::<String>::new());
    assert_eq!(streams, 3);
    // float_08.xml and float_11.xml: the two styles are both checked where they differ.
    assert_eq!(differing, 2);
}

#[test]
fn java_cannot_read_these_but_we_can() {
    for stem in [
        "string_cdata_end.xml",
        "stream_intrec_x5.xml",
        "stream_outer_x2.xml",
    ] {
        let case = hadoop_java().case(stem);
        assert!(!case.java_readback.ok, "{stem}");
        let got = decode_all(&case.bytes(), case.record_id()).unwrap();
        assert_values(stem, &got, &case.expected_values());
    }
}
