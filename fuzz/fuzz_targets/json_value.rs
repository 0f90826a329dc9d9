//! `JsonReader`, `value::json::parse` and `from_json` over arbitrary text (the fixture
//! schemas' record types): they never panic, errors carry a position or a path, and whatever
//! they accept `to_json` writes as text that reads back to the same value (floats to the same
//! bits, NaN payloads aside).
#![no_main]

/// NaN payloads canonical, as Java writes them: the test harness's `canon`.
#[path = "../../tests/harness/src/values.rs"]
#[allow(dead_code)]
mod values;

use std::sync::OnceLock;

use hadoop_record::archive::DEFAULT_MAX_DEPTH;
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::json::{from_json, parse, to_json, JsonReader};
use hadoop_record_compiler::{load, LoadOptions};
use values::canon;

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/hadoop-java");
        let files = [format!("{dir}/prims.jr"), format!("{dir}/composite.jr")];
        let model = load(&files, &LoadOptions::default()).expect("the fixture schemas load");
        model.to_schema().into_schema()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, text)) = data.split_first() else {
        return;
    };
    let s = schema();
    let records = s.records();
    let record = &records[usize::from(which) % records.len()];
    let id = s.find(&record.full_name()).expect("declared");
    let ty = FieldType::Record(id);
    // The text reader: records until the end or the first error, each reading back.
    let mut reader = JsonReader::new(text);
    while let Ok(Some(value)) = reader.read_value(s, id) {
        let text = to_json(s, &ty, &value).expect("a value JsonReader made matches its type");
        let back = JsonReader::new(text.as_bytes()).read_value(s, id);
        assert!(
            matches!(back, Ok(Some(b)) if b.bitwise_eq(&canon(&value))),
            "{text}"
        );
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let json = match parse(text, DEFAULT_MAX_DEPTH) {
        Ok(json) => json,
        Err(e) => {
            assert!(e.position().is_some(), "{e}");
            return;
        }
    };
    let Ok(value) = from_json(s, &ty, &json) else {
        return;
    };
    let text = to_json(s, &ty, &value).expect("a value from_json made matches its type");
    assert!(!text.contains('\n'));
    let again = parse(&text, DEFAULT_MAX_DEPTH).expect("to_json writes JSON");
    let back = from_json(s, &ty, &again).expect("to_json output reads back");
    assert!(back.bitwise_eq(&canon(&value)), "{text}");
});
