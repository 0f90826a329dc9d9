//! The columnar decoder (`hadoop-record-arrow`) over arbitrary bytes in every encoding,
//! against the runtime's schema-driven reader: the same records (as the bytes written back
//! from the batches), the same error word for word after the same number of records, and a
//! projection that reads as far without panicking.
#![no_main]

#[path = "archive_common.rs"]
#[allow(dead_code)]
mod archive_common;
#[path = "../../runtime/tests/fixture_records/mod.rs"]
mod fixture_records;

use std::sync::Arc;

use fixture_records::{Containers, Outer};
use hadoop_record::{Format, Record, RecordReader, RecordWriter};
use hadoop_record_arrow::{BatchEncoder, BatchReader, DecodeOptions, EncodeOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let format = [Format::Binary, Format::Csv, Format::Xml, Format::Jute][pick as usize % 4];
    let (schema, id) = match (pick / 4) % 3 {
        0 => Outer::schema(),
        1 => Containers::schema(),
        _ => {
            // Recursion (`Node { vector<Node> kids; ustring tag }`), which the mapping cuts
            // to bytes.
            let schema = archive_common::recursive();
            let id = schema.find("Node").expect("the recursive record");
            (schema, id)
        }
    };
    // jute's nulls, which the runtime's reader takes anywhere a string, buffer or vector
    // stands; map keys cannot be null in Arrow.
    let nullable = format == Format::Jute;

    // The runtime: records, then maybe an error.
    let mut reader = RecordReader::new(data, format);
    let mut want = RecordWriter::new(Vec::new(), Format::Csv);
    let mut want_error = None;
    loop {
        match reader.read_value(&schema, id) {
            Ok(Some(v)) => want
                .write_value(&schema, id, &v)
                .expect("CSV holds every value"),
            Ok(None) => break,
            Err(e) => {
                want_error = Some(e.to_string());
                break;
            }
        }
    }
    let want = want.into_inner().unwrap();

    // The columnar decoder, in batches of three, and back.
    let schema = Arc::new(schema);
    let options = DecodeOptions::default()
        .with_batch_size(3)
        .with_nullable(nullable);
    let batches = BatchReader::new(data, format, schema.clone(), id, options).unwrap();
    let mut encoder = BatchEncoder::new(
        schema.clone(),
        id,
        EncodeOptions::default().with_nullable(nullable),
    )
    .unwrap();
    let mut got = RecordWriter::new(Vec::new(), Format::Csv);
    let mut got_error = None;
    for batch in batches {
        match batch {
            Ok(batch) => encoder
                .write_batch(&batch, &mut got)
                .expect("a decoded batch encodes"),
            Err(e) => got_error = Some(hadoop_record_arrow::Error::from(e).to_string()),
        }
    }
    let got = got.into_inner().unwrap();
    if got_error != want_error && got_error.as_deref().is_some_and(|e| e.contains("a null")) {
        // A null map key: the records before it are the same.
        assert!(want.starts_with(&got));
        return;
    }
    assert_eq!(got_error, want_error);
    assert!(
        got == want,
        "{:?}\n{:?}",
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want)
    );

    // A projection skips what it leaves out; it may accept more (skipped strings are not
    // checked), never panics.
    let options = DecodeOptions::default()
        .with_projection(Some(vec![schema.record(id).unwrap().fields.len() - 1]))
        .with_nullable(nullable);
    for batch in BatchReader::new(data, format, schema, id, options).unwrap() {
        if batch.is_err() {
            break;
        }
    }
});
