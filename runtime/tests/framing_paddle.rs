//! PaddlePaddle chunked RecordIO against the reference fixtures: reading, byte-identical
//! writing, the index, random access, info, and truncation at every offset.

mod support;

use std::io::Cursor;

use hadoop_record::framing::paddle::{
    info, ChunkHeader, Compressor, Damage, Layout, PaddleFile, PaddleIndex, PaddleReadOptions,
    PaddleReader, PaddleWriteOptions, PaddleWriter, HEADER_LEN,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Error, ErrorKind, Position};
use support::frames::{hex_list, manifest_cases, paddle_file, until_error};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/paddle");

/// (offset, checksum, compressor, compressed_size, num_records)
type ChunkRow = (u64, u32, u32, u32, u32);

/// A chunk as the manifest lists it.
fn chunk_row(offset: u64, h: ChunkHeader) -> ChunkRow {
    (
        offset,
        h.checksum,
        h.compressor,
        h.compressed_size,
        h.num_records,
    )
}

#[derive(Debug)]
struct Case {
    file: String,
    bytes: Vec<u8>,
    layout: Layout,
    written: Vec<Vec<u8>>,
    expected: Vec<Vec<u8>>,
    expect_error: bool,
    /// (max_chunk_size, compressor) for PaddlePaddle's Go writer; `None` for other writers.
    go_writer: Option<(i64, u32)>,
    chunks: Option<Vec<ChunkRow>>,
}

fn cases() -> Vec<Case> {
    let cases: Vec<Case> = manifest_cases(FIXTURES, |c| {
        let file = c["file"].as_str().unwrap().to_owned();
        let producer = c["producer"].as_str().unwrap();
        let go_writer = producer
            .starts_with("real implementation: github.com/PaddlePaddle/recordio")
            .then(|| {
                (
                    c["writer_max_chunk_size"].as_i64().unwrap(),
                    c["writer_compressor"].as_u64().unwrap() as u32,
                )
            });
        let chunks = c["chunks"].as_array().map(|a| {
            a.iter()
                .map(|ch| {
                    let f = |k: &str| ch[k].as_u64().unwrap();
                    (
                        f("offset"),
                        f("checksum_crc32_ieee") as u32,
                        f("compressor") as u32,
                        f("compressed_size") as u32,
                        f("num_records") as u32,
                    )
                })
                .collect()
        });
        Case {
            bytes: std::fs::read(format!("{FIXTURES}/{file}")).unwrap(),
            layout: if file.starts_with("cpp_") {
                Layout::Cpp
            } else {
                Layout::Go
            },
            written: hex_list(&c["records_hex"]),
            expected: hex_list(&c["expected_records_hex"]),
            expect_error: c["expect_error_after_records"].as_bool().unwrap(),
            go_writer,
            chunks,
            file,
        }
    });
    assert_eq!(cases.len(), 11, "every fixture in the manifest");
    cases
}

fn read_all(bytes: &[u8], options: PaddleReadOptions) -> (Vec<Vec<u8>>, Option<Error>) {
    let mut reader = PaddleReader::with_options(bytes, options);
    let out = until_error(reader.by_ref());
    assert!(reader.next().is_none(), "nothing after the end or an error");
    out
}

fn go_options(max_chunk_size: i64, compressor: u32) -> PaddleWriteOptions {
    let mut o =
        PaddleWriteOptions::default().with_compressor(Compressor::from_id(compressor).unwrap());
    if max_chunk_size >= 0 {
        o = o.with_max_chunk_size(max_chunk_size as u64);
    }
    o
}

#[test]
fn fixtures_read_as_the_manifest_says() {
    for case in cases() {
        let options = PaddleReadOptions::default().with_layout(case.layout);
        let (records, err) = read_all(&case.bytes, options);
        assert_eq!(records, case.expected, "{}", case.file);
        assert_eq!(err.is_some(), case.expect_error, "{}: {err:?}", case.file);
    }
    // The cut and the flipped byte are reported where the damaged chunk starts.
    let damaged = [
        (
            "truncated_last_chunk.recordio",
            ErrorKind::UnexpectedEof,
            64,
            "9 of 12 bytes",
        ),
        (
            "corrupt_checksum.recordio",
            ErrorKind::Checksum,
            32,
            "0xbdc8753c",
        ),
    ];
    for (name, kind, at, says) in damaged {
        let case = cases().into_iter().find(|c| c.file == name).unwrap();
        let err = read_all(&case.bytes, Default::default()).1.unwrap();
        assert_eq!(err.kind(), kind, "{name}");
        assert_eq!(err.position(), Some(Position::Byte(at)), "{name}");
        assert!(err.to_string().contains(says), "{name}: {err}");
    }
}

/// The fixture the C++ writer made.
fn cpp_fixture() -> Case {
    cases()
        .into_iter()
        .find(|c| c.layout == Layout::Cpp)
        .unwrap()
}

#[test]
fn the_go_layout_misreads_the_cpp_fixture() {
    let case = cpp_fixture();
    let (records, err) = read_all(&case.bytes, PaddleReadOptions::default());
    assert!(records.is_empty());
    assert!(err.is_some());
}

#[test]
fn writer_is_byte_identical_to_the_go_writer() {
    let mut identical = 0;
    for case in cases() {
        let Some((max, comp)) = case.go_writer else {
            continue;
        };
        let ours = paddle_file(&case.written, go_options(max, comp));
        match case.file.as_str() {
            // Written by Go, then cut short by 3 bytes.
            "truncated_last_chunk.recordio" => {
                assert_eq!(ours.len(), case.bytes.len() + 3);
                assert_eq!(ours[..case.bytes.len()], case.bytes[..]);
            }
            // Written by Go, then one payload byte of chunk 2 flipped.
            "corrupt_checksum.recordio" => {
                let diff: Vec<usize> = (0..ours.len())
                    .filter(|&i| ours[i] != case.bytes[i])
                    .collect();
                assert_eq!(ours.len(), case.bytes.len());
                assert_eq!(diff.len(), 1, "{diff:?}");
                assert!(diff[0] >= 32 + HEADER_LEN);
            }
            _ => {
                assert_eq!(ours, case.bytes, "{}", case.file);
                identical += 1;
            }
        }
    }
    // single_chunk_nocomp, many_chunks_nocomp, snappy_single_chunk, gzip_single_chunk,
    // empty_records, one_record_per_chunk, empty_file.
    assert_eq!(identical, 7);
}

#[test]
fn cpp_layout_writer_matches_the_cpp_fixture() {
    let case = cpp_fixture();
    let options = PaddleWriteOptions::cpp().with_max_chunk_records(Some(2));
    assert_eq!(paddle_file(&case.written, options), case.bytes);
    let first =
        ChunkHeader::parse(case.bytes[..HEADER_LEN].try_into().unwrap(), Layout::Cpp).unwrap();
    assert_eq!(first.num_records, 2);
    assert_eq!(first.compressor(), Some(Compressor::None));
}

#[test]
fn cpp_writer_closes_chunks_by_record_count_alone() {
    // 1001 records of 34 000 bytes: more than Go's 32 MiB in the first 1000, which the C++
    // writer still puts in one chunk.
    let record = vec![7u8; 34_000];
    let mut w = PaddleWriter::with_options(Vec::new(), PaddleWriteOptions::cpp());
    for _ in 0..1001 {
        w.write_payload(&record).unwrap();
    }
    w.finish().unwrap();
    let file = w.into_inner().unwrap();
    let options = PaddleReadOptions::default()
        .with_layout(Layout::Cpp)
        .with_max_chunk_bytes(64 << 20);
    let index = PaddleIndex::load(&mut Cursor::new(&file), &options).unwrap();
    let counts: Vec<u32> = index
        .chunks()
        .iter()
        .map(|c| c.header.num_records)
        .collect();
    assert_eq!(counts, [1000, 1]);
}

#[test]
fn index_and_info_match_the_manifest_chunks() {
    for case in cases() {
        let options = PaddleReadOptions::default().with_layout(case.layout);
        let summary = info(&case.bytes[..], &options).unwrap();
        assert_eq!(summary.is_sound(), !case.expect_error, "{}", case.file);
        assert_eq!(summary.records, case.expected.len() as u64, "{}", case.file);
        assert_eq!(summary.bytes, case.bytes.len() as u64);
        let Some(chunks) = &case.chunks else {
            continue;
        };
        let good: Vec<_> = summary
            .chunks
            .iter()
            .map(|c| chunk_row(c.offset, c.header))
            .collect();
        // Sound chunks are all the manifest's chunks but the damaged last one.
        let sound = if case.expect_error {
            chunks.len() - 1
        } else {
            chunks.len()
        };
        assert_eq!(good, chunks[..sound], "{}", case.file);
        if case.expect_error {
            let s = &summary.skipped[0];
            assert_eq!(s.offset, chunks[sound].0);
            assert_eq!(s.offset + s.bytes, case.bytes.len() as u64);
        }
        let text = summary.to_string();
        let records = match summary.records {
            1 => "1 record,".to_owned(),
            n => format!("{n} records,"),
        };
        assert!(text.contains(&records), "{text}");

        let index = PaddleIndex::load(&mut Cursor::new(&case.bytes), &options);
        if case.file == "truncated_last_chunk.recordio" {
            let err = index.unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
            assert_eq!(err.position(), Some(Position::Byte(64)));
            continue;
        }
        // The index reads headers only: the corrupt chunk is still listed.
        let index = index.unwrap();
        let listed: Vec<_> = index
            .chunks()
            .iter()
            .map(|c| chunk_row(c.offset, c.header))
            .collect();
        assert_eq!(&listed, chunks, "{}", case.file);
    }
}

/// A `Read + Seek` that counts the bytes read through it (in a counter the test keeps).
struct Counting<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: std::io::Read> std::io::Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl<R: std::io::Seek> std::io::Seek for Counting<R> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn the_index_reads_headers_only_and_random_access_one_chunk() {
    let records: Vec<Vec<u8>> = (0..200u32).map(|i| vec![i as u8; 1000]).collect();
    let file = paddle_file(
        &records,
        PaddleWriteOptions::default().with_max_chunk_size(10_000),
    );
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut input = Counting {
        inner: Cursor::new(&file),
        read: read.clone(),
    };
    let index = PaddleIndex::load(&mut input, &PaddleReadOptions::default()).unwrap();
    assert_eq!(index.chunks().len(), 20);
    assert_eq!(index.num_records(), 200);
    assert_eq!(read.get(), 20 * HEADER_LEN as u64, "20 headers, no payload");
    // Record 123 costs its chunk's payload, and a second lookup in it nothing more.
    let mut file = PaddleFile::open(input, PaddleReadOptions::default()).unwrap();
    let before = read.get();
    assert_eq!(file.get(123).unwrap(), records[123]);
    assert_eq!(file.get(129).unwrap(), records[129]);
    assert_eq!(read.get() - before, 10 * (4 + 1000));
    // A range across chunks loads each chunk once.
    let before = read.get();
    let got: Vec<_> = file.range(95, 20).map(Result::unwrap).collect();
    assert_eq!(got, records[95..115]);
    assert_eq!(read.get() - before, 3 * 10 * (4 + 1000));
}

#[test]
fn random_access_by_number_and_range() {
    for case in cases().into_iter().filter(|c| !c.expect_error) {
        let options = PaddleReadOptions::default().with_layout(case.layout);
        let mut file = PaddleFile::open(Cursor::new(&case.bytes), options).unwrap();
        let n = case.expected.len() as u64;
        assert_eq!(file.num_records(), n);
        // Backwards, to defeat the one-chunk cache.
        for i in (0..n).rev() {
            assert_eq!(
                file.get(i).unwrap(),
                case.expected[i as usize],
                "{} #{i}",
                case.file
            );
        }
        assert_eq!(file.get(n).unwrap_err().kind(), ErrorKind::Limit);
        for start in 0..=n {
            for len in 0..=n + 1 {
                let got: Vec<_> = file.range(start, len).map(Result::unwrap).collect();
                let end = (start + len).min(n) as usize;
                assert_eq!(got, case.expected[start as usize..end], "{}", case.file);
            }
        }
    }
    // A damaged chunk fails only the records in it.
    let case = cases()
        .into_iter()
        .find(|c| c.file == "corrupt_checksum.recordio")
        .unwrap();
    let mut file = PaddleFile::open(Cursor::new(&case.bytes), Default::default()).unwrap();
    assert_eq!(file.get(1).unwrap_err().kind(), ErrorKind::Checksum);
    assert_eq!(file.get(0).unwrap(), case.expected[0]);
    let range: Vec<_> = file.range(0, 5).collect();
    assert_eq!(range.len(), 2);
    assert!(range[1].is_err());
}

/// Chunk boundaries of a sound file, from its manifest-free index.
fn chunk_ends(bytes: &[u8], layout: Layout) -> Vec<(u64, u64, usize)> {
    let options = PaddleReadOptions::default().with_layout(layout);
    let index = PaddleIndex::load(&mut Cursor::new(bytes), &options).unwrap();
    let mut records = 0;
    index
        .chunks()
        .iter()
        .map(|c| {
            records += c.header.num_records as usize;
            let end = c.offset + HEADER_LEN as u64 + u64::from(c.header.compressed_size);
            (c.offset, end, records)
        })
        .collect()
}

#[test]
fn truncation_at_every_offset_of_every_fixture() {
    for case in cases().into_iter().filter(|c| !c.expect_error) {
        let chunks = chunk_ends(&case.bytes, case.layout);
        for cut in 0..=case.bytes.len() {
            let cut64 = cut as u64;
            let complete = chunks.iter().rfind(|c| c.1 <= cut64);
            let records = complete.map_or(0, |c| c.2);
            let boundary = cut == 0 || complete.is_some_and(|c| c.1 == cut64);
            let damaged_at = complete.map_or(0, |c| c.1);
            for recover in [false, true] {
                let options = PaddleReadOptions::default()
                    .with_layout(case.layout)
                    .with_recover(recover);
                let mut reader = PaddleReader::with_options(&case.bytes[..cut], options);
                let got: Vec<_> = reader.by_ref().collect();
                let ok: Vec<_> = got
                    .iter()
                    .filter_map(|r| r.as_ref().ok())
                    .cloned()
                    .collect();
                assert_eq!(ok, case.expected[..records], "{} cut at {cut}", case.file);
                let errors: Vec<_> = got.iter().filter_map(|r| r.as_ref().err()).collect();
                if boundary {
                    assert!(errors.is_empty() && reader.skipped().is_empty());
                } else if recover {
                    assert!(errors.is_empty(), "{} cut at {cut}: {errors:?}", case.file);
                    let skipped = reader.skipped();
                    assert_eq!(skipped.len(), 1, "{} cut at {cut}", case.file);
                    assert_eq!(skipped[0].offset, damaged_at);
                    assert_eq!(skipped[0].offset + skipped[0].bytes, cut64);
                } else {
                    assert_eq!(errors.len(), 1, "{} cut at {cut}", case.file);
                    assert!(got.last().unwrap().is_err(), "the error comes last");
                    assert_eq!(errors[0].kind(), ErrorKind::UnexpectedEof);
                    assert_eq!(errors[0].position(), Some(Position::Byte(damaged_at)));
                }
            }
        }
    }
}

#[test]
fn truncating_the_damaged_fixtures_never_panics_nor_invents_records() {
    for case in cases().into_iter().filter(|c| c.expect_error) {
        for cut in 0..=case.bytes.len() {
            for recover in [false, true] {
                let options = PaddleReadOptions::default().with_recover(recover);
                let (records, err) = read_all(&case.bytes[..cut], options);
                assert!(
                    case.expected.starts_with(&records),
                    "{} cut at {cut}",
                    case.file
                );
                if let Some(err) = err {
                    assert!(!recover);
                    let Some(Position::Byte(at)) = err.position() else {
                        panic!("{} cut at {cut}: no offset in {err}", case.file);
                    };
                    assert!(at < cut as u64);
                }
            }
        }
    }
}

#[test]
fn trailing_partial_header_is_an_error_not_a_phantom_chunk() {
    let case = cases()
        .into_iter()
        .find(|c| c.file == "single_chunk_nocomp.recordio")
        .unwrap();
    // The Go readers see the magic plus zeros as an empty chunk and report nothing.
    let mut bytes = case.bytes.clone();
    bytes.extend_from_slice(&[4, 3, 2, 1, 0, 0, 0]);
    let (records, err) = read_all(&bytes, Default::default());
    assert_eq!(records, case.expected);
    let err = err.unwrap();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(
        err.position(),
        Some(Position::Byte(case.bytes.len() as u64))
    );

    let mut reader =
        PaddleReader::with_options(&bytes[..], PaddleReadOptions::default().with_recover(true));
    assert_eq!(reader.by_ref().count(), case.expected.len());
    assert_eq!(reader.skipped().len(), 1);
    assert_eq!(
        reader.skipped()[0].reason,
        Damage::TruncatedHeader { have: 7 }
    );
}
