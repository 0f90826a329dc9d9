//! Plasma var-size format: the documented bytes, round trips, splits, damage and recovery.

mod support;

use std::io::Cursor;

use hadoop_record::framing::plasma::var::{capacity, ChunkHeader, HEADER_LEN};
use hadoop_record::framing::plasma::{
    var_info, Compression, VarInfo, VarReadOptions, VarReader, VarWriteOptions, VarWriter,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind, Position};
use support::frames::{until_error, var_file};

/// CRC-32 (IEEE, reflected 0xEDB88320), bit by bit: an independent check of the
/// algorithm docs/plasma-var-format.md names.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn small(chunk_size: u32) -> VarWriteOptions {
    VarWriteOptions::default()
        .with_chunk_size(chunk_size)
        .with_compression(Compression::None)
}

fn strict(file: &[u8]) -> (Vec<Vec<u8>>, Option<Error>) {
    until_error(VarReader::new(file))
}

/// The records of a file a strict reader reads without error.
fn sound(file: &[u8]) -> Vec<Vec<u8>> {
    let (records, err) = strict(file);
    assert!(err.is_none(), "{err:?}");
    records
}

fn header(
    is_final: bool,
    chunk_size: u32,
    stored: &[u8],
    payload_size: u32,
    first: Option<u32>,
    compression: u8,
) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(b"PMRV");
    h.push(1);
    h.push(is_final as u8);
    h.push(compression);
    h.push(1);
    h.extend_from_slice(&chunk_size.to_be_bytes());
    h.extend_from_slice(&(stored.len() as u32).to_be_bytes());
    h.extend_from_slice(&payload_size.to_be_bytes());
    h.extend_from_slice(&first.unwrap_or(u32::MAX).to_be_bytes());
    h.extend_from_slice(&crc32(stored).to_be_bytes());
    let crc = crc32(&h);
    h.extend_from_slice(&crc.to_be_bytes());
    h
}

/// What `var_info` says of `file`, once asserted that every chunk is compressed with
/// `compression`.
fn all_chunks(file: &[u8], compression: Compression) -> VarInfo {
    let info = var_info(file, VarReadOptions::default());
    assert!(info
        .chunks
        .iter()
        .all(|c| c.header.unwrap().compression == compression));
    info
}

#[test]
fn a_small_file_has_exactly_the_documented_bytes() {
    // Two records, 64-byte chunks (32 payload bytes each): the stream is
    // 02 "hi" 28 "x"*40 (44 bytes), cut after 32 bytes; the final chunk ends after its payload.
    let records = vec![b"hi".to_vec(), vec![b'x'; 40]];
    let file = var_file(&records, small(64));
    let mut stream = vec![2, b'h', b'i', 40];
    stream.extend_from_slice(&[b'x'; 40]);
    let mut expected = header(false, 64, &stream[..32], 32, Some(0), 0);
    expected.extend_from_slice(&stream[..32]);
    expected.extend(header(true, 64, &stream[32..], 12, None, 0));
    expected.extend_from_slice(&stream[32..]);
    assert_eq!(file, expected);
    assert_eq!(sound(&file), records);
}

#[test]
fn the_long_length_form_is_ff_and_a_big_endian_u64() {
    let file = var_file(&[vec![1; 254], vec![2; 255]], VarWriteOptions::default());
    assert_eq!(file[32], 254);
    let long = 32 + 1 + 254;
    assert_eq!(&file[long..long + 9], &[0xff, 0, 0, 0, 0, 0, 0, 0, 0xff]);
    assert_eq!(file.len(), 32 + 1 + 254 + 9 + 255);
}

#[test]
fn round_trips_across_chunk_sizes_and_compression() {
    let mut records: Vec<Vec<u8>> = Vec::new();
    for (i, len) in [
        0usize, 1, 254, 255, 256, 1000, 0, 70_000, 3, 200_000, 31, 32, 33,
    ]
    .into_iter()
    .enumerate()
    {
        records.push((0..len).map(|j| ((i * 7 + j / 13) % 251) as u8).collect());
    }
    for chunk_size in [64, 65, 100, 1024, 65536] {
        for compression in [Compression::None, Compression::Snappy] {
            let options = VarWriteOptions::default()
                .with_chunk_size(chunk_size)
                .with_compression(compression);
            let file = var_file(&records, options);
            let (got, err) = strict(&file);
            assert!(err.is_none(), "{chunk_size} {compression:?}: {err:?}");
            assert_eq!(got, records, "{chunk_size} {compression:?}");
            // Every chunk but the last fills its slot.
            let slots = file.len().div_ceil(chunk_size as usize);
            let info = var_info(&file[..], VarReadOptions::default());
            assert_eq!(info.chunks.len(), slots);
            assert!(info.is_sound(), "{info}");
            assert!(info.to_string().ends_with("status: ok\n"), "{info}");
            assert_eq!(info.records, records.len() as u64);
        }
    }
}

#[test]
fn snappy_packs_compressible_data_into_fewer_chunks() {
    let records: Vec<Vec<u8>> = (0..2000)
        .map(|i| format!("record number {i:06} ").repeat(5).into_bytes())
        .collect();
    let plain = var_file(&records, small(4096));
    let packed = var_file(
        &records,
        VarWriteOptions::default()
            .with_chunk_size(4096)
            .with_compression(Compression::Snappy),
    );
    assert!(
        packed.len() * 3 < plain.len(),
        "{} vs {}",
        packed.len(),
        plain.len()
    );
    assert_eq!(strict(&packed).0, records);
    let info = all_chunks(&packed, Compression::Snappy);
    // No chunk unpacks to more than 16 times its capacity.
    for c in &info.chunks {
        let h = c.header.unwrap();
        assert!(h.payload_size as u64 <= 16 * capacity(4096) as u64);
    }

    // Incompressible data is stored as is.
    let mut x = 0x1234_5678u32;
    let noise: Vec<Vec<u8>> = (0..20)
        .map(|_| {
            (0..3000)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect()
        })
        .collect();
    let file = var_file(
        &noise,
        VarWriteOptions::default()
            .with_chunk_size(4096)
            .with_compression(Compression::Snappy),
    );
    assert_eq!(strict(&file).0, noise);
    all_chunks(&file, Compression::None);
}

#[test]
fn empty_files() {
    let file = var_file::<Vec<u8>>(&[], VarWriteOptions::default());
    assert_eq!(file, header(true, 65536, &[], 0, None, 0));
    assert!(sound(&file).is_empty());
    assert!(sound(&[]).is_empty());
    let split =
        VarReader::split(Cursor::new(Vec::new()), 0, 100, VarReadOptions::default()).unwrap();
    let (records, err) = until_error(split);
    assert!(records.is_empty() && err.is_none());
}

#[test]
fn writing_after_finish_pads_the_short_chunk() {
    let mut w = VarWriter::new(Vec::new(), small(64)).unwrap();
    w.write_payload(b"one").unwrap();
    w.finish().unwrap();
    w.finish().unwrap(); // Nothing new: nothing written.
    assert_eq!(w.chunks(), 1);
    w.write_payload(b"two").unwrap();
    w.finish().unwrap();
    let file = w.into_inner().unwrap();
    assert_eq!(file.len(), 64 + 32 + 4);
    assert!(file[32 + 4..64].iter().all(|&b| b == 0));
    assert_eq!(strict(&file).0, [b"one", b"two"]);
}

#[test]
fn a_record_ending_on_a_chunk_boundary_is_followed_by_an_empty_final_chunk() {
    let file = var_file(&[vec![9; 31]], small(64));
    assert_eq!(file.len(), 64 + 32);
    assert_eq!(&file[64..], &header(true, 64, &[], 0, None, 0)[..]);
    assert_eq!(strict(&file).0, [vec![9; 31]]);
}

#[test]
fn every_truncation_gives_the_complete_records_then_an_error() {
    let records: Vec<Vec<u8>> = [5usize, 300, 0, 40, 1, 100]
        .iter()
        .map(|&n| vec![n as u8; n])
        .collect();
    for compression in [Compression::None, Compression::Snappy] {
        let file = var_file(
            &records,
            VarWriteOptions::default()
                .with_chunk_size(96)
                .with_compression(compression),
        );
        for cut in 1..file.len() {
            let (got, err) = strict(&file[..cut]);
            assert!(records.starts_with(&got), "cut {cut}");
            let e = err.unwrap_or_else(|| panic!("cut {cut}: no error"));
            match e.position() {
                Some(Position::Byte(p)) => assert!(p <= cut as u64, "cut {cut}: {e}"),
                other => panic!("cut {cut}: {other:?}"),
            }
            // A recovering reader stops at the cut without an error, reporting a skip.
            let mut reader =
                VarReader::with_options(&file[..cut], VarReadOptions::default().with_recover(true));
            let (again, err) = until_error(reader.by_ref());
            if cut < HEADER_LEN {
                // Without a whole first header the chunk size is unknown: no recovery.
                assert_eq!(err.unwrap().kind(), ErrorKind::UnexpectedEof);
                continue;
            }
            assert!(err.is_none(), "cut {cut}: {err:?}");
            assert!(
                got.len() <= again.len() && records.starts_with(&again),
                "cut {cut}"
            );
            assert!(!reader.skipped().is_empty(), "cut {cut}");
        }
    }
}

fn sample() -> (Vec<Vec<u8>>, Vec<u8>) {
    // 64-byte chunks, records of 10 bytes (11 with prefix): chunk k holds stream bytes
    // 32k..32k+32.
    let records: Vec<Vec<u8>> = (0..20u8).map(|i| vec![i; 10]).collect();
    let file = var_file(&records, small(64));
    (records, file)
}

#[test]
fn a_bad_payload_checksum_is_reported_and_recovery_skips_the_chunk() {
    let (records, mut file) = sample();
    // Damage a payload byte of chunk 2 (stream bytes 64..96).
    file[2 * 64 + HEADER_LEN + 5] ^= 1;
    let (got, err) = strict(&file);
    // Records fully inside chunks 0 and 1 (stream bytes < 64) come first: 0..=4.
    assert_eq!(got, records[..5]);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::Checksum);
    assert_eq!(e.position(), Some(Position::Byte(128)));
    assert!(e.to_string().contains("chunk at byte 128"), "{e}");

    let mut reader =
        VarReader::with_options(&file[..], VarReadOptions::default().with_recover(true));
    let (got, err) = until_error(reader.by_ref());
    assert!(err.is_none());
    // Record 5 (stream 55..66) and those starting in chunk 2 (66..96: 6, 7, 8) are lost;
    // chunk 3 starts mid-record 8 (88..99), its first record is 9 at stream 99.
    let expected: Vec<Vec<u8>> = records[..5].iter().chain(&records[9..]).cloned().collect();
    assert_eq!(got, expected);
    assert_eq!(reader.skipped().len(), 1);
    let skip = &reader.skipped()[0];
    assert_eq!((skip.offset, skip.len), (128, 64));
    assert!(skip.reason.contains("checksum"), "{}", skip.reason);

    let info = var_info(&file[..], VarReadOptions::default());
    assert_eq!(info.records, 16);
    assert!(!info.is_sound());
    let text = info.to_string();
    assert!(text.contains("checksums: 6 ok, 1 mismatched"), "{text}");
    assert!(
        text.contains("recovery skips bytes 128..192 (64 bytes)"),
        "{text}"
    );
    // A damaged file never reads as ok.
    assert!(!text.contains("status: ok"), "{text}");
    assert!(
        text.ends_with(
            "status: damaged (1 byte range(s) lost; a strict reader stops at the first)\n"
        ),
        "{text}"
    );
}

#[test]
fn a_damaged_header_is_reported_and_recovery_resynchronises() {
    let (records, mut file) = sample();
    file[64 + 9] ^= 0x40; // chunk 1's chunk-size field
    let (got, err) = strict(&file);
    assert_eq!(got, records[..2]);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::Checksum);
    assert_eq!(e.position(), Some(Position::Byte(64 + 28)));
    let options = VarReadOptions::default().with_recover(true);
    let (got, err) = until_error(VarReader::with_options(&file[..], options));
    assert!(err.is_none());
    // Chunk 1 (stream 32..64) is lost: records 2 (22..33) to 5 (55..66); chunk 2's first
    // record is 6 at stream 66.
    let expected: Vec<Vec<u8>> = records[..2].iter().chain(&records[6..]).cloned().collect();
    assert_eq!(got, expected);
}

#[test]
fn a_damaged_first_header_is_recoverable_only_with_a_known_chunk_size() {
    let (records, mut file) = sample();
    file[0] = b'X';
    let options = VarReadOptions::default().with_recover(true);
    let (got, err) = until_error(VarReader::with_options(&file[..], options));
    assert!(got.is_empty());
    assert_eq!(err.unwrap().kind(), ErrorKind::Syntax);
    let options = options.with_chunk_size(Some(64));
    let (got, err) = until_error(VarReader::with_options(&file[..], options));
    assert!(err.is_none());
    assert_eq!(got, records[3..]);
}

#[test]
fn headers_claiming_more_than_the_input_holds_fail_without_allocating_it() {
    // A 1 GiB chunk claiming a full payload, in a 40-byte file.
    let mut file = header(true, 1 << 30, &[], 0, None, 0);
    let stored_size = (1u32 << 30) - 32;
    file[12..16].copy_from_slice(&stored_size.to_be_bytes());
    file[16..20].copy_from_slice(&stored_size.to_be_bytes());
    let crc = crc32(&file[..28]);
    file[28..32].copy_from_slice(&crc.to_be_bytes());
    file.extend_from_slice(&[0; 8]);
    let (got, err) = strict(&file);
    assert!(got.is_empty());
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(0)));
    assert!(
        e.to_string().contains("8 of 1073741792 payload bytes"),
        "{e}"
    );
}

#[test]
fn a_snappy_chunk_claiming_more_than_snappy_can_expand_is_refused_before_unpacking() {
    // A 1 GiB slot lets the header claim up to 4 GiB of payload; 5 stored bytes (a snappy
    // preamble saying 2^32-1, then one byte) cannot unpack to that: snappy expands at
    // most 64 bytes per 3 stored. Refused from the header, before any allocation.
    let stored = [0xff, 0xff, 0xff, 0xff, 0x0f, 0x00];
    let mut file = header(true, 1 << 30, &stored, u32::MAX, Some(0), 1);
    file.extend_from_slice(&stored);
    let (got, err) = strict(&file);
    assert!(got.is_empty());
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.position(), Some(Position::Byte(16)));
    assert!(e.to_string().contains("payload size 4294967295"), "{e}");
    // The bound is snappy's real one: 3 stored bytes per 64 (plus the preamble) is
    // accepted when the data really expands that much.
    let raw = vec![0u8; 60_000];
    let mut stream = vec![0xff];
    stream.extend_from_slice(&((raw.len() - 9) as u64).to_be_bytes());
    stream.extend_from_slice(&raw[9..]);
    let packed_stream = snap::raw::Encoder::new().compress_vec(&stream).unwrap();
    assert!(
        packed_stream.len() * 20 < stream.len(),
        "{}",
        packed_stream.len()
    );
    let mut file = header(true, 4096, &packed_stream, stream.len() as u32, Some(0), 1);
    file.extend_from_slice(&packed_stream);
    assert_eq!(sound(&file), [raw[9..].to_vec()]);
}

#[test]
fn record_lengths_are_checked_before_anything_is_allocated() {
    let mut stream = vec![0xff];
    stream.extend_from_slice(&u64::MAX.to_be_bytes());
    stream.extend_from_slice(b"abc");
    let mut file = header(true, 64, &stream, stream.len() as u32, Some(0), 0);
    file.extend_from_slice(&stream);
    let (_, err) = strict(&file);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.position(), Some(Position::Byte(32)));

    // A length within the limit but past the end of the file.
    let mut stream = vec![0xff];
    stream.extend_from_slice(&1_000_000u64.to_be_bytes());
    let mut file = header(true, 64, &stream, stream.len() as u32, Some(0), 0);
    file.extend_from_slice(&stream);
    let e = strict(&file).1.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(32)));

    // The 9-byte form for a short length is not canonical.
    let mut stream = vec![0xff];
    stream.extend_from_slice(&3u64.to_be_bytes());
    stream.extend_from_slice(b"abc");
    let mut file = header(true, 64, &stream, stream.len() as u32, Some(0), 0);
    file.extend_from_slice(&stream);
    let e = strict(&file).1.unwrap();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().contains("9-byte form"), "{e}");
}

#[test]
fn first_record_offsets_must_agree_with_the_record_stream() {
    // Chunk 1 claims a record starts at 5, but record 0 (length 40) runs to stream 41 = 9.
    let mut stream = vec![40];
    stream.extend_from_slice(&[7; 40]);
    stream.push(0); // a second, empty record at stream 41
    let mut file = header(false, 64, &stream[..32], 32, Some(0), 0);
    file.extend_from_slice(&stream[..32]);
    file.extend(header(true, 64, &stream[32..], 10, Some(5), 0));
    file.extend_from_slice(&stream[32..]);
    let e = strict(&file).1.unwrap();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.position(), Some(Position::Byte(64)));
    assert!(e.to_string().contains("inconsistent"), "{e}");

    // The first chunk of a file must start with a record.
    let mut file = header(true, 64, b"\x01a\x00", 3, Some(2), 0);
    file.extend_from_slice(b"\x01a\x00");
    assert_eq!(strict(&file).1.unwrap().position(), Some(Position::Byte(0)));
}

#[test]
fn unknown_header_values_are_refused() {
    let good = header(true, 64, &[], 0, None, 0);
    for (at, value, kind) in [
        (4usize, 2u8, ErrorKind::Unsupported), // version
        (5, 0x02, ErrorKind::Unsupported),     // flags
        (6, 7, ErrorKind::Unsupported),        // compression
        (7, 2, ErrorKind::Unsupported),        // checksum algorithm
    ] {
        let mut bad = good.clone();
        bad[at] = value;
        let crc = crc32(&bad[..28]);
        bad[28..32].copy_from_slice(&crc.to_be_bytes());
        let raw: [u8; HEADER_LEN] = bad[..].try_into().unwrap();
        let e = ChunkHeader::decode(&raw, 0).unwrap_err();
        assert_eq!(e.kind(), kind, "byte {at}: {e}");
        assert_eq!(e.position(), Some(Position::Byte(at as u64)));
    }
    assert!(VarWriter::new(Vec::new(), small(63)).is_err());
    assert!(VarWriter::new(Vec::new(), small((1 << 30) + 1)).is_err());
}

#[test]
fn a_file_cut_on_a_chunk_boundary_is_noticed() {
    // One 31-byte record (32 with its length) per 64-byte chunk.
    let records: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 31]).collect();
    let file = var_file(&records, small(64));
    let (got, err) = strict(&file[..128]);
    assert_eq!(got, records[..2]);
    let e = err.unwrap();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(e.position(), Some(Position::Byte(128)));
    assert!(e.to_string().contains("not marked final"), "{e}");
    // Cut inside a record, the error names the record's start.
    let e = strict(&file[..150]).1.unwrap();
    assert_eq!(e.position(), Some(Position::Byte(128)));
    let e = strict(&file[..64 + 40]).1.unwrap();
    assert_eq!(e.position(), Some(Position::Byte(64)));
    assert!(e.to_string().contains("8 of 32 payload bytes"), "{e}");
}

fn split(file: &[u8], start: u64, end: u64) -> Vec<Vec<u8>> {
    let (records, err) = until_error(
        VarReader::split(Cursor::new(file), start, end, VarReadOptions::default()).unwrap(),
    );
    assert!(err.is_none(), "[{start}, {end}): {err:?}");
    records
}

#[test]
fn splits_hold_the_records_starting_in_their_chunks() {
    let (records, file) = sample();
    // Records start at stream 11k; chunk k covers stream 32k..32k+32.
    assert_eq!(split(&file, 0, 64), records[..3]); // 0, 11, 22
    assert_eq!(split(&file, 64, 128), records[3..6]); // 33, 44, 55
    assert_eq!(split(&file, 128, 192), records[6..9]); // 66, 77, 88
    assert_eq!(split(&file, 0, 1), records[..3]);
    // An unaligned start begins at the next chunk.
    assert_eq!(split(&file, 1, 128), records[3..6]);
    assert_eq!(split(&file, 64, 65), records[3..6]);
    assert_eq!(split(&file, 100, 128), vec![] as Vec<Vec<u8>>);
    assert_eq!(split(&file, 10_000, 20_000), vec![] as Vec<Vec<u8>>);
    for size in [64u64, 128, 192, 1000, 1, 7, 100] {
        let mut got = Vec::new();
        let mut start = 0;
        while start < file.len() as u64 {
            got.extend(split(&file, start, start + size));
            start += size;
        }
        assert_eq!(got, records, "split size {size}");
    }
}

#[test]
fn a_split_whose_chunks_only_continue_a_record_is_empty() {
    let records = vec![vec![1; 10], vec![2; 500], vec![3; 10]];
    let file = var_file(&records, small(64));
    // Record 1 runs over stream 11..520: chunks 1..=15 hold no record start.
    assert_eq!(split(&file, 0, 64), records[..2]);
    assert_eq!(split(&file, 64, 64 * 16), vec![] as Vec<Vec<u8>>);
    assert_eq!(split(&file, 64 * 16, 64 * 17), records[2..]);
}
