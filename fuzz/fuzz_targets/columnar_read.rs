//! The `--from parquet|arrow` path over arbitrary bytes: an Arrow IPC file or a Parquet file
//! (the first byte picks which, and the record type), its batches checked against the
//! mapping and written as records. Anything may be refused, cleanly; nothing of ours panics,
//! and what is written reads back.
//!
//! arrow-rs's readers panic on some damaged files (`unimplemented!` for an unknown type in an
//! IPC schema): `rcc convert` catches those (`convert/columnar.rs`, `guarded`) and reports
//! the file as damaged, and so does this target around the same calls; a panic anywhere
//! else still fails the run.
#![no_main]

#[path = "../../runtime/tests/fixture_records/mod.rs"]
mod fixture_records;

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::RecordBatch;
use fixture_records::{AllPrims, Containers, Outer};
use hadoop_record::{Format, Record, RecordReader, RecordWriter};
use hadoop_record_arrow::{BatchEncoder, EncodeOptions};

/// `f`, a call into arrow-rs's readers; `None` when it panics (see above).
fn guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.ok()
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let (schema, id) = match (pick / 2) % 3 {
        0 => Outer::schema(),
        1 => Containers::schema(),
        _ => AllPrims::schema(),
    };
    let read = guarded(|| -> Vec<RecordBatch> {
        if pick % 2 == 0 {
            let Ok(reader) = hadoop_record_arrow::ipc::open_file(Cursor::new(file)) else {
                return Vec::new();
            };
            reader.map_while(Result::ok).collect()
        } else {
            let bytes = bytes::Bytes::copy_from_slice(file);
            let Ok(builder) =
                parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes)
            else {
                return Vec::new();
            };
            let Ok(reader) = builder.with_batch_size(64).build() else {
                return Vec::new();
            };
            reader.map_while(Result::ok).collect()
        }
    });
    let Some(batches) = read else {
        return;
    };
    let schema = Arc::new(schema);
    let mut encoder = BatchEncoder::new(schema.clone(), id, EncodeOptions::default()).unwrap();
    let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
    let mut written = 0;
    for batch in &batches {
        let before = writer.records_written();
        let result = encoder.write_batch(batch, &mut writer);
        written += writer.records_written() - before;
        if let Err(e) = result {
            assert!(!e.to_string().is_empty());
            break;
        }
    }
    let bytes = writer.into_inner().unwrap();
    let mut reader = RecordReader::new(&bytes[..], Format::Binary);
    let mut back = 0;
    while reader
        .read_value(&schema, id)
        .expect("what was written reads back")
        .is_some()
    {
        back += 1;
    }
    assert_eq!(back, written);
});
