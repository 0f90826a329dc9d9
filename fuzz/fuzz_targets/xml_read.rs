//! Hadoop XML reader over arbitrary bytes: `RecordReader` typed and schema-driven (the
//! checks shared with `binary_read`/`csv_read`: errors located, whatever decodes re-encodes
//! and reads back the same), then `XmlInput` directly with input arriving in chunks of 1–64
//! bytes (picked by the first byte), to reach every refill path. It must end cleanly or with
//! an error that has a position, never panic or hang.
#![no_main]

#[path = "archive_common.rs"]
mod archive_common;
#[path = "../../runtime/tests/fixture_records/mod.rs"]
mod fixture_records;
#[path = "../../tests/harness/src/trickle.rs"]
#[allow(dead_code)]
mod trickle;

use hadoop_record::archive::xml::XmlInput;
use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
use hadoop_record::value::read_record;
use hadoop_record::RecordInput;
use libfuzzer_sys::fuzz_target;

fn schema() -> (Schema, hadoop_record::schema::RecordId) {
    use FieldType::*;
    let mut s = Schema::new();
    let inner = s
        .add(RecordType {
            module: "f".into(),
            name: "Inner".into(),
            fields: vec![FieldDef::new("tag", String), FieldDef::new("n", Long)],
        })
        .unwrap();
    let outer = s
        .add(RecordType {
            module: "f".into(),
            name: "Outer".into(),
            fields: vec![
                FieldDef::new("b", Byte),
                FieldDef::new("z", Bool),
                FieldDef::new("i", Int),
                FieldDef::new("f", Float),
                FieldDef::new("d", Double),
                FieldDef::new("buf", Buffer),
                FieldDef::new("vvi", Vector(Box::new(Vector(Box::new(Int))))),
                FieldDef::new("mrec", Map(Box::new(String), Box::new(Record(inner)))),
                FieldDef::new("inner", Record(inner)),
            ],
        })
        .unwrap();
    (s, outer)
}

fuzz_target!(|data: &[u8]| {
    archive_common::run(data, hadoop_record::Format::Xml);
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let (schema, id) = schema();
    let size = usize::from(first % 64) + 1;
    let mut input = XmlInput::new(trickle::Trickle::new(rest, size));
    for _ in 0..1000 {
        match input.at_end() {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => {
                assert!(e.position().is_some(), "{e}");
                return;
            }
        }
        if let Err(e) = read_record(&mut input, &schema, id, "") {
            assert!(e.position().is_some(), "{e}");
            return;
        }
    }
});
