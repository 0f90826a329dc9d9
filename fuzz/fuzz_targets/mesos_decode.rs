//! Mesos RecordIO decoding: arbitrary bytes, strict and lenient, whole and split at an
//! arbitrary point, must never panic and must give the same outcome either way.
#![no_main]

use hadoop_record::framing::mesos::{MesosDecoder, MesosOptions};
use libfuzzer_sys::fuzz_target;

fn decode(opts: MesosOptions, pieces: &[&[u8]]) -> (Vec<Vec<u8>>, Option<String>) {
    let mut dec = MesosDecoder::new(opts);
    let mut out = Vec::new();
    for piece in pieces {
        for r in dec.feed(piece) {
            match r {
                Ok(r) => out.push(r),
                Err(e) => return (out, Some(format!("{:?}", (e.kind(), e.position())))),
            }
        }
    }
    let end = dec
        .finish()
        .err()
        .map(|e| format!("{:?}", (e.kind(), e.position())));
    (out, end)
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let opts = MesosOptions::default()
        .with_lenient(control & 1 == 1)
        .with_max_record_size(1 << 16);
    let cut = (control as usize * 7) % (input.len() + 1);
    let whole = decode(opts, &[input]);
    let split = decode(opts, &[&input[..cut], &input[cut..]]);
    assert_eq!(whole, split);
});
