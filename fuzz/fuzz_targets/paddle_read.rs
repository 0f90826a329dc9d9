//! PaddlePaddle RecordIO reading: arbitrary bytes through the strict and recovering
//! readers, info, and the index with random access; must never panic, and recovery must
//! deliver at least what the strict reader delivered.
#![no_main]

use std::io::Cursor;

use hadoop_record::framing::paddle::{info, Layout, PaddleFile, PaddleReadOptions, PaddleReader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let layout = if control & 1 == 0 { Layout::Go } else { Layout::Cpp };
    // A small cap keeps bombs cheap.
    let options = PaddleReadOptions::default()
        .layout(layout)
        .max_chunk_bytes(1 << 20);
    let strict: Vec<_> = PaddleReader::with_options(input, options).collect();
    let strict_ok = strict.iter().take_while(|r| r.is_ok()).count();
    assert!(strict.iter().skip(strict_ok).count() <= 1, "nothing after an error");

    let recovered = PaddleReader::with_options(input, options.recover(true))
        .collect::<Result<Vec<_>, _>>()
        .expect("recovery reports damage instead of failing");
    assert!(recovered.len() >= strict_ok);

    let summary = info(input, &options).expect("in-memory input cannot fail to read");
    assert_eq!(summary.records, recovered.len() as u64);
    assert_eq!(summary.bytes, input.len() as u64);

    if let Ok(mut file) = PaddleFile::open(Cursor::new(input), options) {
        let n = file.num_records();
        for i in [0, n / 2, n.saturating_sub(1), n] {
            let _ = file.get(i);
        }
        let _ = file.range(n / 3, 4).count();
    }
});
