//! PaddlePaddle RecordIO under hostile and damaged input: huge claimed sizes, compression
//! bombs, lying record counts, and recovery that skips damage and resynchronises.

mod support;

use std::io::{Cursor, Write};

use hadoop_record::framing::paddle::{
    info, ChunkHeader, Compressor, Damage, Layout, PaddleFile, PaddleIndex, PaddleReadOptions,
    PaddleReader, PaddleWriteOptions, HEADER_LEN,
};
use hadoop_record::{Error, ErrorKind, Position};
use support::frames::{paddle_file, until_error};
use support::gozip_inputs::chunk_payload;

fn read_all(bytes: &[u8], options: PaddleReadOptions) -> (Vec<Vec<u8>>, Option<Error>, usize) {
    let mut reader = PaddleReader::with_options(bytes, options);
    let (out, err) = until_error(reader.by_ref());
    (out, err, reader.skipped().len())
}

/// A chunk with a hand-made header and payload.
fn chunk(header: ChunkHeader, payload: &[u8]) -> Vec<u8> {
    let mut out = header.to_bytes(Layout::Go).to_vec();
    out.extend_from_slice(payload);
    out
}

/// The header of an uncompressed chunk of `num_records` whose payload is `payload`.
fn stored_header(payload: &[u8], num_records: u32) -> ChunkHeader {
    ChunkHeader {
        checksum: crc32fast::hash(payload),
        compressor: 0,
        compressed_size: payload.len() as u32,
        num_records,
    }
}

fn file(records: &[&[u8]], options: PaddleWriteOptions) -> Vec<u8> {
    paddle_file(records, options)
}

#[test]
fn a_4_gib_payload_claim_in_a_30_byte_file() {
    let header = ChunkHeader {
        checksum: 0,
        compressor: 0,
        compressed_size: u32::MAX,
        num_records: 1,
    };
    let bytes = chunk(header, b"0123456789");
    assert_eq!(bytes.len(), 30);
    // Over the default 64 MiB cap: refused from the header alone.
    let (records, err, _) = read_all(&bytes, PaddleReadOptions::default());
    assert!(records.is_empty());
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert_eq!(err.position(), Some(Position::Byte(0)));
    // With the cap lifted, the read still only grows with the 10 bytes present.
    let options = PaddleReadOptions::default().with_max_chunk_bytes(u64::MAX);
    let (_, err, _) = read_all(&bytes, options);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert!(err.to_string().contains("10 of 4294967295 bytes"), "{err}");
    // The index sees that the payload runs past the end of the file.
    let err = PaddleIndex::load(&mut Cursor::new(&bytes), &options).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn a_record_count_the_payload_cannot_hold() {
    let raw = chunk_payload::<&[u8]>(&[b"abc"]);
    let header = stored_header(&raw, u32::MAX);
    let (_, err, _) = read_all(&chunk(header, &raw), PaddleReadOptions::default());
    assert_eq!(err.unwrap().kind(), ErrorKind::Syntax);
    // A record length past the end of the chunk.
    let mut raw = chunk_payload::<&[u8]>(&[b"abc"]);
    raw[0] = 200;
    let header = stored_header(&raw, 1);
    let (_, err, _) = read_all(&chunk(header, &raw), PaddleReadOptions::default());
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert!(err.to_string().contains("claims 200 bytes"), "{err}");
    // Bytes after the last record.
    let mut raw = chunk_payload::<&[u8]>(&[b"abc"]);
    raw.push(0);
    let header = stored_header(&raw, 1);
    let (records, err, _) = read_all(&chunk(header, &raw), PaddleReadOptions::default());
    assert!(records.is_empty(), "no record of a bad chunk is handed out");
    assert_eq!(err.unwrap().kind(), ErrorKind::Syntax);
    // Not after the error either (found by fuzzing: the record table was half parsed).
    let everything: Vec<_> = PaddleReader::new(&chunk(header, &raw)[..]).collect();
    assert_eq!(everything.len(), 1);
    assert!(everything[0].is_err());
    let options = PaddleReadOptions::default().with_recover(true);
    let everything: Vec<_> =
        PaddleReader::with_options(&chunk(header, &raw)[..], options).collect();
    assert!(everything.is_empty());
    // An unknown compressor.
    let header = ChunkHeader {
        compressor: 7,
        ..header
    };
    let (_, err, _) = read_all(&chunk(header, &raw), PaddleReadOptions::default());
    assert_eq!(err.unwrap().kind(), ErrorKind::Unsupported);
}

fn bomb(compressor: Compressor, size: usize) -> Vec<u8> {
    let mut raw = Vec::with_capacity(size + 4);
    raw.extend_from_slice(&(size as u32).to_le_bytes());
    raw.resize(size + 4, 0);
    let mut stored = Vec::new();
    match compressor {
        Compressor::Snappy => {
            let mut enc = snap::write::FrameEncoder::new(&mut stored);
            enc.write_all(&raw).unwrap();
            enc.flush().unwrap();
        }
        Compressor::Gzip => {
            let mut enc = flate2::write::GzEncoder::new(&mut stored, flate2::Compression::best());
            enc.write_all(&raw).unwrap();
            enc.finish().unwrap();
        }
        Compressor::None => unreachable!(),
    }
    let header = ChunkHeader {
        compressor: compressor.id(),
        ..stored_header(&stored, 1)
    };
    chunk(header, &stored)
}

#[test]
fn compression_bombs_stop_at_the_cap() {
    for compressor in [Compressor::Snappy, Compressor::Gzip] {
        // 8 MiB of zeros against a 1 MiB cap.
        let bytes = bomb(compressor, 8 << 20);
        let options = PaddleReadOptions::default().with_max_chunk_bytes(1 << 20);
        let (records, err, _) = read_all(&bytes, options);
        assert!(records.is_empty());
        let err = err.unwrap();
        assert_eq!(err.kind(), ErrorKind::Limit, "{compressor:?}: {err}");
        assert!(err.to_string().contains("decompressed payload"), "{err}");
        // The same chunk is fine once the cap allows it.
        let options = PaddleReadOptions::default().with_max_chunk_bytes(9 << 20);
        let (records, err, _) = read_all(&bytes, options);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(records[0].len(), 8 << 20);
    }
    // A gzip bomb of 128 MiB of zeros (about 128 KiB stored) against the default cap.
    let bytes = bomb(Compressor::Gzip, 128 << 20);
    assert!(bytes.len() < 1 << 20);
    let (_, err, _) = read_all(&bytes, PaddleReadOptions::default());
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);
    let mut f = PaddleFile::open(Cursor::new(&bytes), PaddleReadOptions::default()).unwrap();
    assert_eq!(f.get(0).unwrap_err().kind(), ErrorKind::Limit);
}

#[test]
fn corrupt_compressed_payloads_are_reported() {
    for compressor in [Compressor::Snappy, Compressor::Gzip] {
        let options = PaddleWriteOptions::default().with_compressor(compressor);
        let mut bytes = file(&[b"hello hello hello hello", b"world"], options);
        // Flip a byte inside the compressed data and fix the CRC, so only the
        // decompressor (or its inner checksum) can notice.
        let last = bytes.len() - 6;
        bytes[last] ^= 0x55;
        let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
        bytes[4..8].copy_from_slice(&crc.to_le_bytes());
        let (records, err, _) = read_all(&bytes, PaddleReadOptions::default());
        assert!(records.is_empty());
        assert_eq!(err.unwrap().kind(), ErrorKind::Syntax, "{compressor:?}");
    }
}

/// Three chunks of two records each, uncompressed or compressed.
fn three_chunks(compressor: Compressor) -> (Vec<u8>, Vec<u64>) {
    let options = PaddleWriteOptions::default()
        .with_compressor(compressor)
        .with_max_chunk_size(4);
    let bytes = file(&[b"a1", b"a2", b"b1", b"b2", b"c1", b"c2"], options);
    let index = PaddleIndex::load(&mut Cursor::new(&bytes), &Default::default()).unwrap();
    let offsets = index.chunks().iter().map(|c| c.offset).collect::<Vec<_>>();
    assert_eq!(offsets.len(), 3);
    (bytes, offsets)
}

#[test]
fn recovery_skips_a_bad_middle_chunk_and_carries_on() {
    for compressor in [Compressor::None, Compressor::Snappy, Compressor::Gzip] {
        let (mut bytes, offsets) = three_chunks(compressor);
        let last_payload_byte = offsets[2] as usize - 1;
        bytes[last_payload_byte] ^= 1;
        let (records, err, _) = read_all(&bytes, PaddleReadOptions::default());
        assert_eq!(records, [b"a1".to_vec(), b"a2".to_vec()]);
        assert_eq!(err.unwrap().kind(), ErrorKind::Checksum);

        let mut reader =
            PaddleReader::with_options(&bytes[..], PaddleReadOptions::default().with_recover(true));
        let records: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
        assert_eq!(records, [&b"a1"[..], b"a2", b"c1", b"c2"], "{compressor:?}");
        let skipped = reader.skipped();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].offset, offsets[1]);
        assert_eq!(skipped[0].bytes, offsets[2] - offsets[1]);
        assert!(matches!(skipped[0].reason, Damage::Checksum { .. }));
        assert_eq!(skipped[0].header.unwrap().num_records, 2);

        // Random access: strict indexing lists the bad chunk (headers only) and fails on
        // it; recovering indexing leaves it out.
        let mut file = PaddleFile::open(Cursor::new(&bytes), Default::default()).unwrap();
        assert_eq!(file.num_records(), 6);
        assert_eq!(file.get(2).unwrap_err().kind(), ErrorKind::Checksum);
        assert_eq!(file.get(4).unwrap(), b"c1");
        let options = PaddleReadOptions::default().with_recover(true);
        let mut file = PaddleFile::open(Cursor::new(&bytes), options).unwrap();
        assert_eq!(file.num_records(), 4);
        assert_eq!(file.index().chunks()[1].offset, offsets[2]);
        let all: Vec<_> = file.range(0, 10).map(Result::unwrap).collect();
        assert_eq!(all, records);
    }
}

#[test]
fn recovery_resyncs_when_a_size_field_swallows_the_next_chunks() {
    let (mut bytes, offsets) = three_chunks(Compressor::None);
    // Chunk 0 claims a payload that runs to the end of the file.
    let size = (bytes.len() - HEADER_LEN) as u32;
    bytes[12..16].copy_from_slice(&size.to_le_bytes());
    let (records, err, _) = read_all(&bytes, PaddleReadOptions::default());
    assert!(records.is_empty());
    assert_eq!(err.unwrap().position(), Some(Position::Byte(0)));
    let mut reader =
        PaddleReader::with_options(&bytes[..], PaddleReadOptions::default().with_recover(true));
    let records: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!(records, [&b"b1"[..], b"b2", b"c1", b"c2"]);
    assert_eq!(reader.skipped().len(), 1);
    assert_eq!(reader.skipped()[0].offset, 0);
    assert_eq!(reader.skipped()[0].bytes, offsets[1]);
}

#[test]
fn recovery_skips_garbage_and_false_magic_between_chunks() {
    let (bytes, offsets) = three_chunks(Compressor::Snappy);
    let mut damaged = bytes[..offsets[1] as usize].to_vec();
    // Garbage with a false magic number followed by a plausible but wrong header.
    let garbage: &[u8] = &[
        0xde, 0xad, 4, 3, 2, 1, 9, 9, 9, 9, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xff,
    ];
    damaged.extend_from_slice(garbage);
    damaged.extend_from_slice(&bytes[offsets[1] as usize..]);
    let (records, err, _) = read_all(&damaged, PaddleReadOptions::default());
    assert_eq!(records.len(), 2);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!(err.position(), Some(Position::Byte(offsets[1])));

    let options = PaddleReadOptions::default().with_recover(true);
    let (records, err, skipped) = read_all(&damaged, options);
    assert!(err.is_none());
    assert_eq!(records.len(), 6);
    assert_eq!(skipped, 1);
    let summary = info(&damaged[..], &options).unwrap();
    assert_eq!(summary.chunks.len(), 3);
    assert_eq!(summary.chunks[1].offset, offsets[1] + garbage.len() as u64);
    assert_eq!(summary.skipped[0].offset, offsets[1]);
    assert_eq!(summary.skipped[0].bytes, garbage.len() as u64);
    assert!(matches!(
        summary.skipped[0].reason,
        Damage::BadMagic { found: 0x0304_adde }
    ));
    assert!(
        summary.to_string().contains("skipped 23 byte(s) at byte"),
        "{summary}"
    );
}

#[test]
fn recovery_of_a_file_that_is_all_garbage() {
    let garbage: Vec<u8> = (0..10_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let options = PaddleReadOptions::default().with_recover(true);
    let (records, err, skipped) = read_all(&garbage, options);
    assert!(records.is_empty() && err.is_none());
    assert_eq!(skipped, 1);
    let summary = info(&garbage[..], &options).unwrap();
    assert_eq!(summary.skipped[0].bytes, garbage.len() as u64);
    // Magic numbers everywhere, none valid.
    let magics: Vec<u8> = [4u8, 3, 2, 1].repeat(5000);
    let (records, err, skipped) = read_all(&magics, options);
    assert!(records.is_empty() && err.is_none());
    assert_eq!(skipped, 1);
}

/// Recovery tries every magic number as a chunk start; forged headers there may claim
/// large payloads. Checking each claim by hashing it would be quadratic (this file took
/// hours); range CRCs from checkpoints make it linear.
#[test]
fn recovery_stays_linear_when_every_offset_claims_a_big_chunk() {
    let n = 200_000usize;
    let claim = (n / 2 * HEADER_LEN) as u32; // half of the headers have their payload
    let forged = ChunkHeader {
        checksum: 1,
        compressor: 0,
        compressed_size: claim,
        num_records: 1,
    };
    let mut bytes = file(&[b"first"], PaddleWriteOptions::default());
    for _ in 0..n {
        bytes.extend_from_slice(&forged.to_bytes(Layout::Go));
    }
    let tail = file(&[b"last"], PaddleWriteOptions::default());
    bytes.extend_from_slice(&tail);
    let options = PaddleReadOptions::default().with_recover(true);
    let summary = info(&bytes[..], &options).unwrap();
    assert_eq!(summary.records, 2);
    assert_eq!(summary.skipped.len(), 1);
    assert_eq!(summary.skipped[0].bytes, (n * HEADER_LEN) as u64);
    assert_eq!(summary.chunks[1].offset, (bytes.len() - tail.len()) as u64);
    let (records, err, skipped) = read_all(&bytes, options);
    assert_eq!(records, [b"first".to_vec(), b"last".to_vec()]);
    assert!(err.is_none());
    assert_eq!(skipped, 1);
}

/// A chunk whose CRC matches but whose content is bad is skipped whole: the CRC vouches
/// for its extent. (Forged chunks nested in each other's payloads, each with a valid CRC,
/// would otherwise each be unpacked at every offset.)
#[test]
fn a_chunk_with_a_valid_crc_but_a_bad_record_table_is_skipped_whole() {
    // Chunk A's payload holds a complete chunk B, but A's record table is bad (a record
    // length past its end).
    let inner = file(&[b"inner"], PaddleWriteOptions::default());
    let mut payload = 1000u32.to_le_bytes().to_vec();
    payload.extend_from_slice(&inner);
    let outer = stored_header(&payload, 1);
    let mut bytes = chunk(outer, &payload);
    let after = file(&[b"after"], PaddleWriteOptions::default());
    bytes.extend_from_slice(&after);
    let options = PaddleReadOptions::default().with_recover(true);
    let mut reader = PaddleReader::with_options(&bytes[..], options);
    let records: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!(records, [b"after".to_vec()], "the nested chunk is not read");
    let skipped = reader.skipped();
    assert_eq!(skipped.len(), 1);
    assert_eq!(
        (skipped[0].offset, skipped[0].bytes),
        (0, (bytes.len() - after.len()) as u64)
    );
    assert!(
        matches!(skipped[0].reason, Damage::Records(_)),
        "{:?}",
        skipped[0].reason
    );
    // Strict: the same damage, as an error at the chunk.
    let (records, err, _) = read_all(&bytes, PaddleReadOptions::default());
    assert!(records.is_empty());
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!(err.position(), Some(Position::Byte(0)));
}
