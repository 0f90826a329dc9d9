//! Plasma readers on arbitrary input: no panic, no hang, bounded memory; split reading of
//! a var file never yields a record the whole read does not.
#![no_main]

use std::io::Cursor;

use hadoop_record::framing::plasma::{
    FixedReader, TextOptions, TextReader, VarReadOptions, VarReader,
};
use libfuzzer_sys::fuzz_target;

fn drain<I: Iterator<Item = hadoop_record::Result<Vec<u8>>>>(it: I) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for r in it {
        match r {
            Ok(r) => out.push(r),
            Err(_) => break,
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let small = TextOptions::default()
        .with_max_record_size(1 << 16)
        .with_allow_unterminated(selector & 0x10 != 0);
    match selector % 4 {
        0 => {
            let whole = drain(TextReader::with_options(rest, small));
            // Two splits at an arbitrary point partition what a sound read gives.
            let cut = (selector as u64 * 7) % (rest.len() as u64 + 1);
            let mut parts = drain(TextReader::split(Cursor::new(rest), 0, cut, small).unwrap());
            parts.extend(drain(
                TextReader::split(Cursor::new(rest), cut, u64::MAX, small).unwrap(),
            ));
            if TextReader::with_options(rest, small).all(|r| r.is_ok()) {
                assert_eq!(parts, whole);
            }
        }
        1 => {
            let size = (selector as usize >> 2) % 17 + 1;
            drain(FixedReader::new(rest, size).unwrap());
            drain(FixedReader::split(Cursor::new(rest), size, 3, 40).unwrap());
        }
        _ => {
            let options = VarReadOptions::default()
                .with_max_record_size(1 << 20)
                .with_recover(selector % 4 == 3)
                .with_chunk_size(None);
            let whole = drain(VarReader::with_options(rest, options));
            if let Ok(split) = VarReader::split(Cursor::new(rest), 64, 64 * 4, options) {
                let part = drain(split);
                if !options.recover() && VarReader::new(rest).all(|r| r.is_ok()) {
                    for r in &part {
                        assert!(whole.contains(r));
                    }
                }
            }
        }
    }
});
