//! Hadoop SequenceFile: round trips in every compression and codec, Hadoop's sync and
//! block placement, splits that partition a file exactly, damaged and hostile input
//! (strict and recovering), and the files Hadoop itself wrote (`tests/fixtures/seqfile`).

mod support;

use std::io::Cursor;
use std::path::PathBuf;

use hadoop_record::framing::seqfile::{
    info, writable, Codec, Compression, PayloadKey, SeqReadOptions, SeqReader, SeqWriteOptions,
    SeqWriter, SYNC_INTERVAL,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind, Position};
use proptest::prelude::*;
use support::alloc::{peak_during, Counting};
use support::frames::{until_error, write_frames};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SYNC: [u8; 16] = *b"0123456789abcdef";

fn file<R: AsRef<[u8]>>(records: &[R], options: SeqWriteOptions) -> Vec<u8> {
    write_frames(SeqWriter::new(Vec::new(), options.with_sync(SYNC)), records)
        .into_inner()
        .unwrap()
}

fn read_all(bytes: &[u8], options: SeqReadOptions) -> (Vec<Vec<u8>>, Option<Error>, usize) {
    let mut reader = SeqReader::with_options(bytes, options).unwrap();
    let (out, err) = until_error(reader.by_ref());
    (out, err, reader.skipped().len())
}

/// Every combination of compression type and codec.
fn layouts() -> Vec<(Compression, Codec)> {
    let mut out = vec![(Compression::None, Codec::Deflate)];
    for c in [Compression::Record, Compression::Block] {
        out.extend(Codec::ALL.iter().map(|&codec| (c, codec)));
    }
    out
}

fn records(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| (0..(i * 37) % 300).map(|j| (i * 7 + j / 3) as u8).collect())
        .collect()
}

#[test]
fn every_layout_round_trips_with_both_payload_keys() {
    let recs = records(250);
    for (compression, codec) in layouts() {
        for key in [PayloadKey::Null, PayloadKey::RecordNumber] {
            let o = SeqWriteOptions::new("m.R")
                .with_compression(compression)
                .with_codec(codec)
                .with_payload_key(key)
                .with_block_size(10_000);
            let bytes = file(&recs, o);
            let mut r = SeqReader::new(&bytes[..]).unwrap();
            assert_eq!(r.header().compression, compression);
            let mut n = 0u64;
            while let Some(pair) = r.next_pair() {
                let pair = pair.unwrap();
                assert_eq!(pair.value, recs[n as usize], "{compression:?} {codec:?}");
                match key {
                    PayloadKey::Null => assert!(pair.key.is_empty()),
                    PayloadKey::RecordNumber => {
                        assert_eq!(pair.key, (n as i64).to_be_bytes());
                    }
                }
                n += 1;
            }
            assert_eq!(n, 250, "{compression:?} {codec:?}");
        }
    }
}

#[test]
fn an_empty_file_is_a_header() {
    for (compression, codec) in layouts() {
        let o = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_codec(codec);
        let bytes = file::<&[u8]>(&[], o);
        let r = SeqReader::new(&bytes[..]).unwrap();
        assert_eq!(r.header().len, bytes.len() as u64);
        assert_eq!(r.count(), 0);
    }
}

/// Hadoop 2.10.2: a sync entry before the first record written at or past 2000 bytes after
/// the last one (the header's counting at offset 0); blocks each after a sync entry.
#[test]
fn sync_entries_sit_where_hadoops_writer_puts_them() {
    let recs = vec![vec![5u8; 92]; 100]; // 100-byte records
    let bytes = file(&recs, SeqWriteOptions::new("m.R"));
    let header_len = SeqReader::new(&bytes[..]).unwrap().header().len;
    let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
    let mut expected = Vec::new();
    let (mut pos, mut last) = (header_len, 0u64);
    for _ in 0..100 {
        if pos >= last + SYNC_INTERVAL {
            expected.push(pos);
            pos += 20;
            last = pos;
        }
        pos += 100;
    }
    assert_eq!(i.syncs, expected);
    assert_eq!(pos, bytes.len() as u64);

    let o = SeqWriteOptions::new("m.R")
        .with_compression(Compression::Block)
        .with_block_size(1000);
    let bytes = file(&recs, o);
    let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
    // 10 records of 92 value bytes make 920 bytes, under 1000; the 11th closes a block.
    assert_eq!(
        i.blocks.iter().map(|b| b.records).collect::<Vec<_>>(),
        [11, 11, 11, 11, 11, 11, 11, 11, 11, 1]
    );
    assert_eq!(i.blocks[0].offset, i.header.len);
    assert_eq!(
        i.syncs,
        i.blocks.iter().map(|b| b.offset).collect::<Vec<_>>()
    );
    assert!(i.to_string().contains("100 records in 10 blocks"), "{i}");
}

#[test]
fn metadata_is_written_sorted_and_keys_of_any_class_cross() {
    let o = SeqWriteOptions::new(writable::BYTES_WRITABLE)
        .with_key_class(writable::TEXT)
        .with_metadata("zeta", "1")
        .with_metadata("alpha", "2");
    let mut w = SeqWriter::new(Vec::new(), o.with_sync(SYNC));
    let mut key = Vec::new();
    writable::Writable::Text(b"k".to_vec()).encode(&mut key);
    w.append(&key, &[0, 0, 0, 1, 9]).unwrap();
    w.finish().unwrap();
    let bytes = w.into_inner().unwrap();
    let mut r = SeqReader::new(&bytes[..]).unwrap();
    assert_eq!(r.header().metadata[0].0, b"alpha");
    assert_eq!(r.header().key_class, writable::TEXT);
    let pair = r.next_pair().unwrap().unwrap();
    let key = writable::Writable::decode(writable::TEXT, pair.key)
        .unwrap()
        .unwrap();
    assert_eq!(key.to_string(), "k");
    let value = writable::Writable::decode(writable::BYTES_WRITABLE, pair.value);
    assert_eq!(value.unwrap().unwrap(), writable::Writable::Bytes(vec![9]));
}

/// Reads the records of the splits cut at `cuts` (sorted, in 0..=len).
fn split_records(bytes: &[u8], cuts: &[u64]) -> Vec<Vec<u8>> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(bytes.len() as u64);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let split =
            SeqReader::split(Cursor::new(bytes), w[0], w[1], SeqReadOptions::default()).unwrap();
        for v in split {
            out.push(v.unwrap());
        }
    }
    out
}

#[test]
fn splits_at_any_offset_partition_the_records() {
    let recs = records(50);
    for (compression, codec) in [
        (Compression::None, Codec::Deflate),
        (Compression::Record, Codec::Snappy),
        (Compression::Block, Codec::Deflate),
    ] {
        let o = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_codec(codec)
            .with_sync_interval(300)
            .with_block_size(1000);
        let bytes = file(&recs, o);
        let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
        // Every offset near a boundary (the header's end, each sync entry), every 11th
        // elsewhere.
        let near = |cut: u64| {
            std::iter::once(i.header.len)
                .chain(i.syncs.iter().copied())
                .any(|b| cut.abs_diff(b) <= 24)
        };
        for cut in (0..=bytes.len() as u64).filter(|&c| c % 11 == 0 || near(c)) {
            assert_eq!(
                split_records(&bytes, &[cut]),
                recs,
                "{compression:?} cut at {cut}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_records_round_trip_and_split_anywhere(
        recs in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..400), 0..80),
        layout in 0usize..11,
        interval in 0u64..3000,
        block in 1usize..5000,
        cuts in prop::collection::vec(any::<u64>(), 0..5),
    ) {
        let (compression, codec) = layouts()[layout];
        let o = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_codec(codec)
            .with_sync_interval(interval)
            .with_block_size(block);
        let bytes = file(&recs, o);
        let (back, err, _) = read_all(&bytes, SeqReadOptions::default());
        prop_assert!(err.is_none());
        prop_assert_eq!(&back, &recs);
        let mut cuts: Vec<u64> = cuts.iter().map(|c| c % (bytes.len() as u64 + 1)).collect();
        cuts.sort_unstable();
        prop_assert_eq!(split_records(&bytes, &cuts), recs);
    }

    #[test]
    fn any_bytes_after_a_header_end_in_records_or_one_error(
        tail in prop::collection::vec(any::<u8>(), 0..2000),
        layout in 0usize..11,
        recover in any::<bool>(),
    ) {
        let (compression, codec) = layouts()[layout];
        let mut bytes = file::<&[u8]>(&[], SeqWriteOptions::new("m.R").with_compression(compression).with_codec(codec));
        bytes.extend_from_slice(&tail);
        let mut r = SeqReader::with_options(&bytes[..], SeqReadOptions::default().with_recover(recover)).unwrap();
        let mut errors = 0;
        for item in r.by_ref() {
            if let Err(e) = item {
                errors += 1;
                prop_assert!(e.position().is_some());
            }
        }
        prop_assert!(errors <= 1);
    }
}

#[test]
fn a_cut_file_yields_the_records_before_the_cut_then_the_offset() {
    let recs = records(300);
    for (compression, codec) in layouts() {
        let o = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_codec(codec)
            .with_block_size(4000);
        let bytes = file(&recs, o);
        let cut = bytes.len() * 2 / 3;
        let (got, err, _) = read_all(&bytes[..cut], SeqReadOptions::default());
        let err = err.unwrap_or_else(|| panic!("{compression:?} {codec:?}: no error"));
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "{err}");
        assert_eq!(&recs[..got.len()], &got[..]);
        let Some(Position::Byte(at)) = err.position() else {
            panic!("no offset: {err}")
        };
        assert!(at < cut as u64, "{err}");
        assert_eq!(err.record(), Some(got.len() as u64));
    }
}

#[test]
fn a_damaged_block_is_an_error_strict_and_skipped_recovering() {
    let recs = records(400);
    let o = SeqWriteOptions::new("m.R")
        .with_compression(Compression::Block)
        .with_codec(Codec::Deflate)
        .with_block_size(3000);
    let bytes = file(&recs, o);
    let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
    let victim = &i.blocks[3];
    let mut damaged = bytes.clone();
    // A byte inside the block's compressed values.
    damaged[(victim.offset + victim.stored - 10) as usize] ^= 0x55;
    let (got, err, _) = read_all(&damaged, SeqReadOptions::default());
    let err = err.unwrap();
    assert_eq!(err.position(), Some(Position::Byte(victim.offset)), "{err}");
    let before: u64 = i.blocks[..3].iter().map(|b| b.records).sum();
    assert_eq!(got, recs[..before as usize]);

    let (got, err, skipped) = read_all(&damaged, SeqReadOptions::default().with_recover(true));
    assert!(err.is_none());
    assert_eq!(skipped, 1);
    let mut expected = recs[..before as usize].to_vec();
    expected.extend_from_slice(&recs[(before + victim.records) as usize..]);
    assert_eq!(got, expected);
    let i = info(&damaged[..], &SeqReadOptions::default()).unwrap();
    assert_eq!(i.skipped[0].offset, victim.offset);
    assert_eq!(i.skipped[0].bytes, victim.stored);
    assert!(!i.is_sound());
}

#[test]
fn a_damaged_record_is_skipped_to_the_next_sync_entry() {
    let recs = records(300);
    for compression in [Compression::None, Compression::Record] {
        let o = SeqWriteOptions::new("m.R")
            .with_compression(compression)
            .with_sync_interval(1000);
        let bytes = file(&recs, o);
        let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
        // The record length right after the third sync entry, made negative.
        let at = i.syncs[2] as usize + 20;
        let mut damaged = bytes.clone();
        damaged[at] = 0x80;
        let (got, err, _) = read_all(&damaged, SeqReadOptions::default());
        assert_eq!(err.unwrap().position(), Some(Position::Byte(at as u64)));
        let (rest, err, skipped) = read_all(&damaged, SeqReadOptions::default().with_recover(true));
        assert!(err.is_none());
        assert_eq!(skipped, 1);
        assert_eq!(rest[..got.len()], got[..]);
        // Everything after the fourth sync entry is there.
        let after = split_records(&bytes, &[i.syncs[3]]);
        let tail = SeqReader::split(
            Cursor::new(&bytes),
            i.syncs[3],
            bytes.len() as u64,
            SeqReadOptions::default(),
        )
        .unwrap()
        .count();
        assert_eq!(after.len(), recs.len());
        assert_eq!(rest[rest.len() - tail..], recs[recs.len() - tail..]);
    }
}

#[test]
fn a_wrong_sync_marker_is_corruption() {
    let recs = records(100);
    let bytes = file(&recs, SeqWriteOptions::new("m.R").with_sync_interval(500));
    let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
    let mut damaged = bytes.clone();
    damaged[i.syncs[1] as usize + 10] ^= 1;
    let (_, err, _) = read_all(&damaged, SeqReadOptions::default());
    let err = err.unwrap();
    assert!(err.to_string().contains("wrong sync marker"), "{err}");
    assert_eq!(err.position(), Some(Position::Byte(i.syncs[1])));
}

#[test]
fn huge_claims_allocate_nothing_before_the_bytes_exist() {
    let mut bytes = file::<&[u8]>(&[], SeqWriteOptions::new("m.R"));
    bytes.extend_from_slice(&0x7fff_fff0i32.to_be_bytes());
    bytes.extend_from_slice(&0i32.to_be_bytes());
    bytes.extend_from_slice(b"tiny");
    let ((_, err, _), peak) = peak_during(|| {
        read_all(
            &bytes,
            SeqReadOptions::default().with_max_record_size(u64::MAX),
        )
    });
    assert_eq!(err.unwrap().kind(), ErrorKind::UnexpectedEof);
    assert!(peak < 4 << 20, "{peak} bytes");
    let (_, err, _) = read_all(&bytes, SeqReadOptions::default());
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);

    // A block whose buffers claim 2 GiB each, and a snappy bomb.
    let o = SeqWriteOptions::new("m.R")
        .with_compression(Compression::Block)
        .with_codec(Codec::Snappy);
    let bytes = file(&[vec![0u8; 3_000_000]], o);
    let ((_, err, _), peak) = peak_during(|| {
        read_all(
            &bytes,
            SeqReadOptions::default().with_max_record_size(1 << 20),
        )
    });
    assert_eq!(err.unwrap().kind(), ErrorKind::Limit);
    assert!(peak < 8 << 20, "{peak} bytes");
}

#[test]
fn unsupported_codecs_and_versions_name_themselves() {
    let mut bytes = b"SEQ\x06\x01K\x01V\x01\x01".to_vec();
    let codec = b"org.apache.hadoop.io.compress.ZStandardCodec";
    bytes.push(codec.len() as u8);
    bytes.extend_from_slice(codec);
    bytes.extend_from_slice(&[0; 20]);
    let err = SeqReader::new(&bytes[..]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("ZStandardCodec"), "{err}");
    let err = SeqReader::new(&b"SEQ\x07"[..]).unwrap_err();
    assert!(err.to_string().contains("version 7"), "{err}");
}

/// An old version-4 file (as Hadoop 0.x wrote, by hand): read as Hadoop reads it.
#[test]
fn version_4_record_compressed_files_read() {
    let v6 = file(
        &records(5),
        SeqWriteOptions::new("V").with_compression(Compression::Record),
    );
    let r6 = SeqReader::new(&v6[..]).unwrap();
    let body = &v6[r6.header().len as usize..];
    let mut v4 = b"SEQ\x04\x01K\x01V\x01\x00".to_vec();
    v4.extend_from_slice(&SYNC);
    v4.extend_from_slice(body);
    let (got, err, _) = read_all(&v4, SeqReadOptions::default());
    assert!(err.is_none());
    assert_eq!(got, records(5));
}

// ---- files written by Hadoop itself ----

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seqfile")
}

/// The fixture files, each read whole: the values Hadoop wrote, LongWritable keys 0, 1, ….
#[test]
fn we_read_every_file_hadoop_wrote() {
    let dir = fixtures();
    let values = std::fs::read(dir.join("values.bin")).unwrap();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "seq") {
            names.push(path);
        }
    }
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let mut r = SeqReader::new(&bytes[..]).unwrap();
        let mut joined = Vec::new();
        let mut n = 0i64;
        while let Some(pair) = r.next_pair() {
            let pair = pair.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(pair.key, n.to_be_bytes());
            joined.extend_from_slice(pair.value);
            n += 1;
        }
        assert_eq!(joined, values, "{}", path.display());
        assert!(n > 0);
    }
}

/// Rewritten with the same records, sync marker, metadata and settings, a file is Hadoop's
/// byte for byte — for every codec whose library allows it (see the module docs).
#[test]
fn we_rewrite_hadoops_files_byte_for_byte() {
    let dir = fixtures();
    for (name, identical) in [
        ("none", true),
        ("record-default", cfg!(feature = "zlib")),
        ("block-default", cfg!(feature = "zlib")),
        ("record-bzip2", false),
        ("block-bzip2", false),
        ("record-gzip", cfg!(feature = "zlib")),
        ("block-gzip", cfg!(feature = "zlib")),
        ("record-snappy", false),
        ("block-snappy", false),
        ("record-lz4", cfg!(feature = "lz4")),
        ("block-lz4", cfg!(feature = "lz4")),
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.seq"))).unwrap();
        let ours = rewrite(&bytes);
        if identical {
            let first = ours.iter().zip(&bytes).position(|(a, b)| a != b);
            assert!(
                ours == bytes,
                "{name}: ours differ from Hadoop's at byte {first:?}"
            );
        } else {
            // Hadoop's framing around other compressed bytes: what we write reads back the same.
            let theirs: Vec<_> = SeqReader::new(&bytes[..])
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let back: Vec<_> = SeqReader::new(&ours[..])
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert_eq!(back, theirs, "{name}");
        }
    }
}

/// `bytes` read and written again with its own header's classes, codec, metadata and sync
/// marker (block files were written with `io.seqfile.compress.blocksize` 4096; Hadoop 3's
/// with its own sync interval).
pub fn rewrite(bytes: &[u8]) -> Vec<u8> {
    let mut r = SeqReader::new(bytes).unwrap();
    let h = r.header().clone();
    let hadoop3 = h.codec_class.as_deref().is_some_and(|c| {
        c.ends_with("GzipCodec") || c.ends_with("SnappyCodec") || c.ends_with("Lz4Codec")
    });
    let mut o = SeqWriteOptions::new(h.value_class.clone())
        .with_key_class(h.key_class.clone())
        .with_compression(h.compression)
        .with_sync(h.sync.unwrap())
        .with_block_size(4096)
        .with_sync_interval(if hadoop3 {
            hadoop_record::framing::seqfile::HADOOP3_SYNC_INTERVAL
        } else {
            SYNC_INTERVAL
        });
    if let Some(c) = h.codec().unwrap() {
        o = o.with_codec(c);
    }
    for (k, v) in &h.metadata {
        o = o.with_metadata(k.clone(), v.clone());
    }
    let mut w = SeqWriter::new(Vec::new(), o);
    while let Some(pair) = r.next_pair() {
        let pair = pair.unwrap();
        w.append(pair.key, pair.value).unwrap();
    }
    w.finish().unwrap();
    w.into_inner().unwrap()
}

/// Without its codec features (`default-features = false`) the runtime reads and writes the
/// uncompressed forms, and every codec left out is an `Unsupported` error naming its feature:
/// `tests/lean`, a crate of its own (so that this workspace's features do not unify into
/// it), built and run here.
#[test]
fn lean_builds_report_missing_codecs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("lean");
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--locked", "--manifest-path"])
        .arg(root.join("tests/lean/Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{report}");
    assert_eq!(report.matches("ok: ").count(), 8, "{report}");
}
