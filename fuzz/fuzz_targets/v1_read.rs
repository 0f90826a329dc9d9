//! RecordIO v1 on arbitrary input: no panic, no hang, bounded memory; the incremental
//! decoder fed in pieces agrees with the reader.
#![no_main]

use hadoop_record::framing::v1::{Decoder, Event, V1ReadOptions, V1Reader};
use libfuzzer_sys::fuzz_target;

fn options() -> V1ReadOptions {
    V1ReadOptions::default()
        .with_max_record_size(1 << 20)
        .with_max_header_size(1 << 16)
        .with_deliver_reserved(false)
}

fuzz_target!(|data: &[u8]| {
    let mut from_reader = Vec::new();
    let mut reader_error = None;
    match V1Reader::with_options(data, options()) {
        Ok(reader) => {
            for r in reader {
                match r {
                    Ok(r) => from_reader.push((r.record_type, r.payload)),
                    Err(e) => reader_error = Some(e.to_string()),
                }
            }
        }
        Err(e) => reader_error = Some(e.to_string()),
    }

    let step = data.first().map_or(1, |&b| b as usize % 13 + 1);
    let mut decoder = Decoder::new(options());
    let mut from_decoder = Vec::new();
    let mut decoder_error = None;
    'feed: for mut piece in data.chunks(step) {
        while !piece.is_empty() {
            match decoder.decode(piece) {
                Ok((n, event)) => {
                    piece = &piece[n..];
                    if event == Some(Event::Record) {
                        let t = decoder.record_type().to_string();
                        from_decoder.push((t, decoder.take_payload()));
                    }
                }
                Err(e) => {
                    decoder_error = Some(e.to_string());
                    break 'feed;
                }
            }
        }
    }
    if decoder_error.is_none() {
        decoder_error = decoder.finish().err().map(|e| e.to_string());
    }
    assert_eq!(from_decoder, from_reader);
    assert_eq!(decoder_error, reader_error);
});
