//! Hadoop's type information (`RecordTypeInfo`) read from arbitrary bytes in binary, CSV or
//! XML (the first byte picks), then used as a type filter on the bytes after it: errors carry
//! a position; type information that reads writes back to bytes that read to the same; the
//! compatibility report and filtered reads of any type information never panic.
#![no_main]

use std::sync::OnceLock;

use hadoop_record::meta::{compat, RecordTypeInfo};
use hadoop_record::schema::{FieldDef, FieldType, RecordId, RecordType, Schema};
use hadoop_record::{Format, RecordReader, RecordWriter};

/// A reader type with every kind of field, a nested record in every container.
fn schema() -> &'static (Schema, RecordId) {
    static SCHEMA: OnceLock<(Schema, RecordId)> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut schema = Schema::new();
        let inner = schema
            .add(RecordType {
                module: "m".into(),
                name: "Inner".into(),
                fields: vec![
                    FieldDef::new("l", FieldType::Long),
                    FieldDef::new("b", FieldType::Buffer),
                ],
            })
            .unwrap();
        let record = || Box::new(FieldType::Record(inner));
        let outer = schema
            .add(RecordType {
                module: "m".into(),
                name: "Outer".into(),
                fields: vec![
                    FieldDef::new("i", FieldType::Int),
                    FieldDef::new("s", FieldType::String),
                    FieldDef::new("v", FieldType::Vector(record())),
                    FieldDef::new("m", FieldType::Map(Box::new(FieldType::String), record())),
                    FieldDef::new("r", FieldType::Record(inner)),
                    FieldDef::new("d", FieldType::Double),
                ],
            })
            .unwrap();
        (schema, outer)
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else {
        return;
    };
    let format = [Format::Binary, Format::Csv, Format::Xml][usize::from(pick % 3)];
    let (schema, id) = schema();
    let mut reader = RecordReader::new(data, format);
    let info = match reader.read::<RecordTypeInfo>() {
        Ok(Some(info)) => info,
        Ok(None) => return,
        Err(e) => {
            assert!(e.position().is_some(), "no position: {e}");
            return;
        }
    };
    // Written back, it reads to the same.
    let mut writer = RecordWriter::new(Vec::new(), format);
    writer
        .write(&info)
        .expect("type information read can be written");
    let bytes = writer.into_inner().unwrap();
    let again = RecordReader::new(&bytes[..], format)
        .read::<RecordTypeInfo>()
        .expect("what was written reads back");
    assert_eq!(again.as_ref(), Some(&info));
    // Any type information is a filter: the report and the filtered reads never panic.
    for change in compat(schema, *id, &info).expect("a record of the schema") {
        let _ = (change.outcome.loses_data(), change.to_string());
    }
    for _ in 0..4 {
        match reader.read_value_with(schema, *id, &info) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => {
                assert!(e.position().is_some(), "no position: {e}");
                break;
            }
        }
    }
});
