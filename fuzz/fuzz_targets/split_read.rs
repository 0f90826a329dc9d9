//! `framing::split` on arbitrary input, for the framings whose range readers are their own
//! (Paddle strict and recovering, both layouts; RecordIO v1; CSV lines): no panic, no hang,
//! and when a whole-file read is clean, any two ranges cut at an arbitrary point deliver
//! exactly its records. A recovering Paddle read must agree whatever the input. Every read
//! is made twice, through `Read` and of the input held in memory, which must agree.
#![no_main]

use std::io::{Cursor, Read};

use bytes::Bytes;
use hadoop_record::framing::paddle::{Layout, PaddleReadOptions};
use hadoop_record::framing::split::{Framing, Split};
use hadoop_record::framing::v1::V1ReadOptions;
use hadoop_record::framing::BufferPool;
use hadoop_record::Format;

use libfuzzer_sys::fuzz_target;

/// The records of `range` (a stream counts as one record), and whether an error ended it:
/// the same whether the reader reads `data` or holds it in memory.
fn read(
    framing: Framing,
    format: Format,
    data: &[u8],
    start: u64,
    end: u64,
) -> (Vec<Vec<u8>>, bool) {
    let through_read = framing.open_range(format, Cursor::new(data), start..end);
    let pool = BufferPool::new(1);
    let held =
        framing.open_range_in_memory(format, Bytes::copy_from_slice(data), start..end, &pool);
    let (a, b) = (records(through_read), records(held));
    assert_eq!(
        a, b,
        "{framing} {start}..{end}: through Read, held in memory"
    );
    a
}

/// What a range reader delivers.
fn records(split: hadoop_record::Result<Split>) -> (Vec<Vec<u8>>, bool) {
    let Ok(split) = split else {
        return (Vec::new(), true);
    };
    let mut out = Vec::new();
    match split {
        Split::Payloads(mut payloads) => {
            while let Some(p) = payloads.next_payload() {
                match p {
                    Ok(p) => out.push(p.to_vec()),
                    Err(_) => return (out, true),
                }
            }
        }
        Split::Stream(mut reader) => {
            let mut bytes = Vec::new();
            reader.read_to_end(&mut bytes).unwrap();
            out.push(bytes);
        }
    }
    (out, false)
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let small = 1 << 20;
    let paddle = |layout, recover| {
        Framing::Paddle(
            PaddleReadOptions::default()
                .with_layout(layout)
                .with_recover(recover)
                .with_max_chunk_bytes(small),
        )
    };
    let (framing, format, exact) = match selector % 5 {
        0 => (paddle(Layout::Go, false), Format::Binary, false),
        1 => (paddle(Layout::Cpp, false), Format::Binary, false),
        2 => (paddle(Layout::Go, true), Format::Binary, true),
        3 => {
            let options = V1ReadOptions::default()
                .with_max_record_size(small)
                .with_max_header_size(4096);
            (Framing::V1(options), Format::Binary, false)
        }
        _ => (Framing::None, Format::Csv, false),
    };
    let cut = (selector as u64 >> 3).wrapping_mul(0x9e37_79b9) % (rest.len() as u64 + 1);
    let (whole, failed) = read(framing, format, rest, 0, u64::MAX);
    let (mut parts, first_failed) = read(framing, format, rest, 0, cut);
    let (second, second_failed) = read(framing, format, rest, cut, u64::MAX);
    parts.extend(second);
    if exact || !failed {
        assert!(!first_failed && !second_failed || failed);
        assert_eq!(parts, whole);
    }
});
