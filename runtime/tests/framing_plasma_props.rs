//! Property tests for the Plasma formats: write → read round trips, and splits of random
//! sizes that together deliver every record exactly once.

mod support;

use std::io::Cursor;

use bytes::BytesMut;
use hadoop_record::framing::plasma::{
    Compression, FixedReader, FixedWriter, TextCodec, TextOptions, TextReader, TextWriter,
    VarReadOptions, VarReader, VarWriteOptions,
};
use hadoop_record::framing::FrameWrite;
use proptest::prelude::*;
use support::frames::var_file;
use tokio_util::codec::Decoder;

fn collect<I: Iterator<Item = hadoop_record::Result<Vec<u8>>>>(it: I) -> Vec<Vec<u8>> {
    it.map(|r| r.unwrap()).collect()
}

/// Reads `file` split into ranges of `size` bytes with `open(start, end)`.
fn by_splits<I: Iterator<Item = hadoop_record::Result<Vec<u8>>>>(
    len: usize,
    size: u64,
    mut open: impl FnMut(u64, u64) -> I,
) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < len as u64 {
        out.extend(collect(open(start, start + size)));
        start += size;
    }
    out
}

fn is_subsequence(part: &[Vec<u8>], whole: &[Vec<u8>]) -> bool {
    let mut it = whole.iter();
    part.iter().all(|p| it.any(|w| w == p))
}

fn line() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>().prop_filter("no LF", |b| *b != b'\n'), 0..20)
}

fn payload() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..40),
        1 => prop::collection::vec(any::<u8>(), 250..600),
        1 => (0usize..700, any::<u8>()).prop_map(|(n, b)| vec![b; n]),
    ]
}

fn var_options() -> impl Strategy<Value = VarWriteOptions> {
    (64u32..300, prop::bool::ANY).prop_map(|(chunk_size, snappy)| {
        VarWriteOptions::default()
            .with_chunk_size(chunk_size)
            .with_compression(if snappy {
                Compression::Snappy
            } else {
                Compression::None
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn text_splits_partition_the_records(
        records in prop::collection::vec(line(), 0..30),
        size in 1u64..60,
    ) {
        let mut w = TextWriter::new(Vec::new());
        for r in &records {
            w.write_payload(r).unwrap();
        }
        let file = w.into_inner().unwrap();
        prop_assert_eq!(&collect(TextReader::new(&file[..])), &records);
        let got = by_splits(file.len(), size, |s, e| {
            TextReader::split(Cursor::new(&file), s, e, TextOptions::default()).unwrap()
        });
        prop_assert_eq!(got, records);
    }

    #[test]
    fn text_codec_is_blind_to_how_input_is_cut(
        records in prop::collection::vec(line(), 0..20),
        cuts in prop::collection::vec(1usize..10, 0..40),
    ) {
        let mut file = Vec::new();
        for r in &records {
            file.extend_from_slice(r);
            file.push(b'\n');
        }
        let mut codec = TextCodec::default();
        let mut buf = BytesMut::new();
        let mut got = Vec::new();
        let mut rest = &file[..];
        let mut cuts = cuts.into_iter().cycle();
        while !rest.is_empty() {
            let n = cuts.next().unwrap_or(1).min(rest.len());
            buf.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            while let Some(r) = codec.decode(&mut buf).unwrap() {
                got.push(r.to_vec());
            }
        }
        prop_assert!(codec.decode_eof(&mut buf).unwrap().is_none());
        prop_assert_eq!(got, records);
    }

    #[test]
    fn fixed_splits_partition_the_records(
        size in 1usize..10,
        count in 0usize..30,
        seed in any::<u8>(),
        split in 1u64..100,
    ) {
        let records: Vec<Vec<u8>> =
            (0..count).map(|i| (0..size).map(|j| seed ^ (i * 31 + j) as u8).collect()).collect();
        let mut w = FixedWriter::new(Vec::new(), size).unwrap();
        for r in &records {
            w.write_payload(r).unwrap();
        }
        let file = w.into_inner().unwrap();
        prop_assert_eq!(&collect(FixedReader::new(&file[..], size).unwrap()), &records);
        let got = by_splits(file.len(), split, |s, e| {
            FixedReader::split(Cursor::new(&file), size, s, e).unwrap()
        });
        prop_assert_eq!(got, records);
    }

    #[test]
    fn var_round_trips_and_splits_partition_the_records(
        records in prop::collection::vec(payload(), 0..40),
        options in var_options(),
        chunks_per_split in 1u64..5,
        odd_split in 1u64..1000,
    ) {
        let file = var_file(&records, options);
        prop_assert_eq!(&collect(VarReader::new(&file[..])), &records);
        for size in [chunks_per_split * options.chunk_size() as u64, odd_split] {
            let got = by_splits(file.len(), size, |s, e| {
                VarReader::split(Cursor::new(&file), s, e, VarReadOptions::default()).unwrap()
            });
            prop_assert_eq!(&got, &records, "split size {}", size);
        }
    }

    #[test]
    fn var_damage_never_yields_a_record_that_was_not_written(
        records in prop::collection::vec(payload(), 1..30),
        options in var_options(),
        at in any::<prop::sample::Index>(),
        bit in 0u8..8,
    ) {
        let mut file = var_file(&records, options);
        let i = at.index(file.len());
        file[i] ^= 1 << bit;
        let mut strict = Vec::new();
        let mut failed = false;
        for r in VarReader::new(&file[..]) {
            match r {
                Ok(r) => strict.push(r),
                Err(_) => failed = true,
            }
        }
        prop_assert!(records.starts_with(&strict));
        prop_assert!(failed || strict == records);
        let recovering = VarReader::with_options(
            &file[..],
            VarReadOptions::default().with_recover(true),
        );
        let mut got = Vec::new();
        for r in recovering {
            match r {
                Ok(r) => got.push(r),
                // Only a damaged first header (unknown chunk size) stops recovery.
                Err(_) => prop_assert!(i < 32),
            }
        }
        prop_assert!(is_subsequence(&got, &records));
        prop_assert!(got.len() >= strict.len());
    }
}
