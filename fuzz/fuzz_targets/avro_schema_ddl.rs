//! `rcc sql --from avro` without `--schema`: an Avro file's schema (any JSON text) turned
//! into DDL. Anything may be refused, cleanly; nothing panics, and DDL that comes out goes
//! through the compiler (which may still refuse a name, e.g. a DDL keyword) without a panic.
#![no_main]

use hadoop_record_compiler::{load_with, LoadOptions, MemoryFileSystem};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((ddl, record)) = hadoop_record_avro::ddl_of_schema(text) else {
        return;
    };
    assert!(
        record.contains('.'),
        "{record}: a record type is module.Class"
    );
    let mut fs = MemoryFileSystem::new();
    fs.insert("schema.jr", ddl.as_bytes());
    let _ = load_with(&fs, &["schema.jr"], &LoadOptions::default());
});
