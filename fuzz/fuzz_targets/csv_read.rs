//! `RecordReader` over arbitrary bytes in Hadoop's CSV format, typed and schema-driven.
#![no_main]

#[path = "archive_common.rs"]
mod archive_common;
#[path = "../../runtime/tests/fixture_records/mod.rs"]
mod fixture_records;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    archive_common::run(data, hadoop_record::Format::Csv);
});
