//! `RecordReader` over arbitrary bytes in ZooKeeper's jute encoding, schema-driven, with the
//! records of `zookeeper.jute` (the first byte picks the type): every error carries a
//! position and a path; whatever decoded writes back, and rewriting reaches a fixed point by
//! the third write (jute's string decoding is lossy, as ZooKeeper's is: see the target).
#![no_main]

use std::sync::OnceLock;

use hadoop_record::schema::{RecordId, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter, Value};

fn schema() -> &'static (Schema, Vec<RecordId>) {
    static SCHEMA: OnceLock<(Schema, Vec<RecordId>)> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/zookeeper-client/schema/zookeeper.jute"
        );
        let model =
            hadoop_record_compiler::load(&[path], &Default::default()).expect("zookeeper.jute");
        let s = model.to_schema();
        let ids = model
            .records()
            .iter()
            .map(|r| s.find(r.qualified_name()).expect("a record"))
            .collect();
        (s.into_schema(), ids)
    })
}

fn write(schema: &Schema, id: RecordId, values: &[Value]) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), Format::Jute);
    for v in values {
        w.write_value(schema, id, v)
            .expect("what was read can be written");
    }
    w.into_inner().unwrap()
}

fn read(schema: &Schema, id: RecordId, bytes: &[u8]) -> Vec<Value> {
    RecordReader::from_slice(bytes, Format::Jute)
        .values(schema, id)
        .collect::<Result<_, _>>()
        .expect("what was written reads back")
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let (schema, ids) = schema();
    let id = ids[usize::from(pick) % ids.len()];
    let name = &schema.record(id).unwrap().name;
    let mut values = Vec::new();
    for r in RecordReader::new(data, Format::Jute).values(schema, id) {
        match r {
            Ok(v) => values.push(v),
            Err(e) => {
                assert!(e.position().is_some(), "no position: {e}");
                assert!(e.path().starts_with(name.as_str()), "path {e}");
            }
        }
    }
    // Rewriting reaches a fixed point by the third write: a character beyond the BMP read
    // from 4-byte UTF-8 is written as two 3-byte surrogates (ZooKeeper's writer), which
    // Java's decoder reads back as two U+FFFD, written as such ever after.
    let once = write(schema, id, &values);
    let twice = write(schema, id, &read(schema, id, &once));
    let thrice = write(schema, id, &read(schema, id, &twice));
    assert_eq!(twice, thrice);
});
