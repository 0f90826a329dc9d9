//! PaddlePaddle RecordIO reading: arbitrary bytes through the strict and recovering
//! readers, info, and the index with random access; must never panic, and recovery must
//! deliver at least what the strict reader delivered. The tokio codec, fed the bytes in
//! pieces, must agree with the std reader in both modes (records, error, skipped).
#![no_main]

use std::io::Cursor;

use bytes::BytesMut;
use hadoop_record::framing::paddle::{
    info, Layout, PaddleCodec, PaddleFile, PaddleReadOptions, PaddleReader, PaddleWriteOptions,
};
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::Decoder;

/// Records, the error as text, and the skipped stretches as text.
type Outcome = (Vec<Vec<u8>>, Option<String>, Vec<String>);

fn std_read(input: &[u8], options: PaddleReadOptions) -> Outcome {
    let mut reader = PaddleReader::with_options(input, options);
    let mut records = Vec::new();
    let mut err = None;
    for r in reader.by_ref() {
        match r {
            Ok(r) => records.push(r),
            Err(e) => err = Some(format!("{:?} {e}", e.kind())),
        }
    }
    let skipped = reader.skipped().iter().map(ToString::to_string).collect();
    (records, err, skipped)
}

fn codec_read(input: &[u8], options: PaddleReadOptions, piece: usize) -> Outcome {
    let mut codec = PaddleCodec::new(options, PaddleWriteOptions::default());
    let mut buf = BytesMut::new();
    let mut records = Vec::new();
    let skipped = |c: &PaddleCodec| c.skipped().iter().map(ToString::to_string).collect();
    for part in input.chunks(piece) {
        buf.extend_from_slice(part);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(r)) => records.push(r.to_vec()),
                Ok(None) => break,
                Err(e) => {
                    return (
                        records,
                        Some(format!("{:?} {e}", e.kind())),
                        skipped(&codec),
                    )
                }
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(r)) => records.push(r.to_vec()),
            Ok(None) => return (records, None, skipped(&codec)),
            Err(e) => {
                return (
                    records,
                    Some(format!("{:?} {e}", e.kind())),
                    skipped(&codec),
                )
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, input)) = data.split_first() else {
        return;
    };
    let layout = if control & 1 == 0 {
        Layout::Go
    } else {
        Layout::Cpp
    };
    // A small cap keeps bombs cheap.
    let options = PaddleReadOptions::default()
        .with_layout(layout)
        .with_max_chunk_bytes(1 << 20);
    let strict: Vec<_> = PaddleReader::with_options(input, options).collect();
    let strict_ok = strict.iter().take_while(|r| r.is_ok()).count();
    assert!(
        strict.iter().skip(strict_ok).count() <= 1,
        "nothing after an error"
    );

    let recovered = PaddleReader::with_options(input, options.with_recover(true))
        .collect::<Result<Vec<_>, _>>()
        .expect("recovery reports damage instead of failing");
    assert!(recovered.len() >= strict_ok);

    let summary = info(input, &options).expect("in-memory input cannot fail to read");
    assert_eq!(summary.records, recovered.len() as u64);
    assert_eq!(summary.bytes, input.len() as u64);

    let piece = usize::from(control >> 1).max(1);
    for options in [options, options.with_recover(true)] {
        assert_eq!(codec_read(input, options, piece), std_read(input, options));
    }

    if let Ok(mut file) = PaddleFile::open(Cursor::new(input), options) {
        let n = file.num_records();
        for i in [0, n / 2, n.saturating_sub(1), n] {
            let _ = file.get(i);
        }
        let _ = file.range(n / 3, 4).count();
    }
});
