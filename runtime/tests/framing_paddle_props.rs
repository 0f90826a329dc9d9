//! PaddlePaddle RecordIO properties: write → read round trips for random records and
//! settings, random access agreeing with sequential reading, and damage never panicking
//! nor inventing records.

mod support;

use std::io::Cursor;

use hadoop_record::framing::paddle::{
    info, PaddleFile, PaddleReadOptions, PaddleReader, PaddleWriteOptions,
};
use proptest::prelude::*;
use support::frames::{paddle_file, paddle_options, payload_mix};

/// Records, some made of the chunk magic's bytes.
fn records() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        payload_mix(4, 50, b"ab\x04\x03\x02\x01", 400, 0..5000),
        0..40,
    )
}

fn settings() -> impl Strategy<Value = PaddleWriteOptions> {
    let sizes = prop_oneof![
        Just(0u64),
        1u64..200,
        Just(PaddleWriteOptions::DEFAULT_MAX_CHUNK_SIZE)
    ];
    paddle_options(sizes, 1..8)
}

/// Whether `sub` appears in `all` in order (not necessarily contiguously).
fn is_subsequence(sub: &[Vec<u8>], all: &[Vec<u8>]) -> bool {
    let mut it = all.iter();
    sub.iter().all(|s| it.any(|a| a == s))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn write_then_read_gives_the_records_back(records in records(), options in settings()) {
        let bytes = paddle_file(&records, options);
        let read = PaddleReadOptions::default().with_layout(options.layout());
        let back: Vec<Vec<u8>> = PaddleReader::with_options(&bytes[..], read)
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(&back, &records);

        let summary = info(&bytes[..], &read).unwrap();
        prop_assert!(summary.is_sound());
        prop_assert_eq!(summary.records, records.len() as u64);
        for c in &summary.chunks {
            if let Some(max) = options.max_chunk_records() {
                prop_assert!(c.header.num_records <= max);
            }
        }

        let mut file = PaddleFile::open(Cursor::new(&bytes), read).unwrap();
        prop_assert_eq!(file.num_records(), records.len() as u64);
        for (i, r) in records.iter().enumerate().rev() {
            prop_assert_eq!(&file.get(i as u64).unwrap(), r);
        }
        let mid = records.len() as u64 / 3;
        let range: Vec<Vec<u8>> = file.range(mid, 5).collect::<Result<_, _>>().unwrap();
        let end = (mid as usize + 5).min(records.len());
        prop_assert_eq!(&range[..], &records[mid as usize..end]);
    }

    #[test]
    fn chunks_respect_the_size_limit(records in records(), max in 0u64..300) {
        let options = PaddleWriteOptions::default().with_max_chunk_size(max);
        let bytes = paddle_file(&records, options);
        let summary = info(&bytes[..], &PaddleReadOptions::default()).unwrap();
        for c in &summary.chunks {
            let record_bytes = c.decompressed_size - 4 * u64::from(c.header.num_records);
            // Over the limit only as a single record (or a record plus empty ones).
            let max_record = records.iter().map(|r| r.len() as u64).max().unwrap_or(0);
            prop_assert!(record_bytes <= max.max(max_record));
        }
    }

    #[test]
    fn damage_never_panics_nor_invents_records(
        records in records(),
        options in settings(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = paddle_file(&records, options);
        if bytes.is_empty() {
            return Ok(());
        }
        for (i, x) in &flips {
            let i = i.index(bytes.len());
            bytes[i] ^= x;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        for recover in [false, true] {
            let read = PaddleReadOptions::default().with_layout(options.layout()).with_recover(recover);
            let mut reader = PaddleReader::with_options(&bytes[..], read);
            let mut good = Vec::new();
            for r in reader.by_ref() {
                match r {
                    Ok(r) => good.push(r),
                    Err(_) => break,
                }
            }
            prop_assert!(reader.next().is_none());
            // The borrowing API sees exactly what the iterator sees.
            let mut by_ref = PaddleReader::with_options(&bytes[..], read);
            let mut borrowed = Vec::new();
            while let Some(r) = by_ref.next_ref() {
                match r {
                    Ok(r) => borrowed.push(r.to_vec()),
                    Err(_) => break,
                }
            }
            prop_assert!(by_ref.next_ref().is_none());
            prop_assert_eq!(&borrowed, &good);
            // CRC-32 guards every chunk: what comes out was written, in order.
            prop_assert!(is_subsequence(&good, &records));
            let summary = info(&bytes[..], &read).unwrap();
            prop_assert_eq!(summary.bytes, bytes.len() as u64);
            if recover {
                prop_assert_eq!(summary.records, good.len() as u64);
            }
        }
    }
}
