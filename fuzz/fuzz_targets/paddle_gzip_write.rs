//! PaddlePaddle gzip writing: arbitrary bytes cut into records (the first byte picks the
//! record size), written as gzip chunks by our Go-compatible encoder and read back with
//! flate2; the records must come back unchanged and the encoder must never panic.
#![no_main]

use hadoop_record::framing::paddle::{Compressor, PaddleReader, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::FrameWrite;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let size = 1 + usize::from(control) * 97;
    let records: Vec<&[u8]> = input.chunks(size).collect();
    let options = PaddleWriteOptions::default()
        .with_compressor(Compressor::Gzip)
        .with_max_chunk_size(if control & 1 == 0 { 4096 } else { 1 << 20 });
    let mut w = PaddleWriter::with_options(Vec::new(), options);
    for r in &records {
        w.write_payload(r).unwrap();
    }
    w.finish().unwrap();
    let file = w.into_inner().expect("writing to memory");
    let back: Vec<Vec<u8>> = PaddleReader::new(&file[..]).map(Result::unwrap).collect();
    assert_eq!(back, records);
});
