//! Snappy and gzip chunks byte-identical to the Go writer's, checked against vectors
//! produced by Go (see tests/data/README.md). Snappy: random, text, runs and mixed records
//! from 0 to 300000 bytes, across the 64 KiB frame boundary. Gzip: the chunk-shaped
//! vectors of `gozip_vectors.jsonl`, written through `PaddleWriter` (the encoder's own
//! tests check every vector). Whole files: `paddle_go_writer.jsonl`, PaddlePaddle's writer
//! with every compressor and many chunk sizes (empty records, exact fits, records larger
//! than the limit, hundreds of chunks, MiB records).

use hadoop_record::framing::paddle::{
    ChunkHeader, Compressor, Layout, PaddleReader, PaddleWriteOptions, PaddleWriter, HEADER_LEN,
};
use hadoop_record::framing::FrameWrite;
use support::gozip_inputs::{self, generate};

mod support;

const VECTORS: &str = include_str!("data/paddle_go_snappy.jsonl");
const GZIP_VECTORS: &str = include_str!("data/gozip_vectors.jsonl");
const WRITER_VECTORS: &str = include_str!("data/paddle_go_writer.jsonl");

#[test]
fn snappy_chunks_match_go_byte_for_byte() {
    let mut checked = 0;
    for line in VECTORS.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let kind = v["kind"].as_str().unwrap();
        let size = v["size"].as_u64().unwrap() as usize;
        let record = generate(kind, size, v["seed"].as_u64().unwrap());
        assert_eq!(
            u64::from(crc32fast::hash(&record)),
            v["record_crc32"].as_u64().unwrap(),
            "generator differs from Go's for {line}"
        );
        let options = PaddleWriteOptions::default().with_compressor(Compressor::Snappy);
        let mut w = PaddleWriter::with_options(Vec::new(), options);
        w.write_payload(&record).unwrap();
        w.finish().unwrap();
        let file = w.into_inner().unwrap();
        let header =
            ChunkHeader::parse(file[..HEADER_LEN].try_into().unwrap(), Layout::Go).unwrap();
        assert_eq!(
            (
                u64::from(header.checksum),
                u64::from(header.compressed_size)
            ),
            (
                v["checksum"].as_u64().unwrap(),
                v["compressed_size"].as_u64().unwrap()
            ),
            "{line}"
        );
        let back: Vec<Vec<u8>> = PaddleReader::new(&file[..]).map(Result::unwrap).collect();
        assert_eq!(back, [record]);
        checked += 1;
    }
    assert_eq!(checked, 52);
}

#[test]
fn gzip_chunks_match_go_byte_for_byte() {
    let mut checked = 0;
    // One writer for all the chunks: the encoder it keeps must not carry state over.
    let options = PaddleWriteOptions::default().with_compressor(Compressor::Gzip);
    let mut w = PaddleWriter::with_options(Vec::new(), options);
    let mut expected = Vec::new();
    for v in gozip_inputs::vectors(GZIP_VECTORS) {
        let Some(records) = v.record_set() else {
            continue;
        };
        assert_eq!(v.level, -1, "PaddlePaddle writes at the default level");
        let payload = gozip_inputs::chunk_payload(&records);
        assert_eq!(
            (payload.len(), crc32fast::hash(&payload)),
            (v.input_size, v.input_crc32),
            "generator differs from Go's for {}",
            v.line
        );
        for r in &records {
            w.write_payload(r).unwrap();
        }
        w.flush_chunk().unwrap();
        expected.push((v.line, records));
        checked += 1;
    }
    w.finish().unwrap();
    let file = w.into_inner().unwrap();
    let mut at = 0;
    for (line, records) in &expected {
        let header =
            ChunkHeader::parse(file[at..at + HEADER_LEN].try_into().unwrap(), Layout::Go).unwrap();
        let v = gozip_inputs::vectors(line).pop().unwrap();
        assert_eq!(
            (
                header.compressor,
                header.num_records as usize,
                header.compressed_size as usize,
                header.checksum
            ),
            (2, records.len(), v.gzip_size, v.gzip_crc32),
            "{line}"
        );
        at += HEADER_LEN + header.compressed_size as usize;
    }
    assert_eq!(at, file.len());
    let back: Vec<Vec<u8>> = PaddleReader::new(&file[..]).map(Result::unwrap).collect();
    assert_eq!(
        back,
        expected
            .into_iter()
            .flat_map(|(_, r)| r)
            .collect::<Vec<_>>()
    );
    assert_eq!(checked, 8);
}

#[test]
fn whole_files_match_the_go_writer_for_every_setting() {
    let mut checked = 0;
    let mut cache: Option<(String, Vec<Vec<u8>>)> = None;
    for line in WRITER_VECTORS.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let set = v["set"].as_str().unwrap().to_owned();
        if cache.as_ref().is_none_or(|(name, _)| *name != set) {
            let kinds: Vec<&str> = v["kinds"].as_str().unwrap().split(',').collect();
            let sizes: Vec<usize> = v["sizes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap() as usize)
                .collect();
            let seed = v["seed"].as_u64().unwrap();
            let records: Vec<Vec<u8>> = (0..v["count"].as_u64().unwrap() as usize)
                .map(|i| {
                    generate(
                        kinds[i % kinds.len()],
                        sizes[i % sizes.len()],
                        seed + i as u64,
                    )
                })
                .collect();
            let mut all = crc32fast::Hasher::new();
            records.iter().for_each(|r| all.update(r));
            assert_eq!(
                u64::from(all.finalize()),
                v["records_crc32"].as_u64().unwrap(),
                "generator differs from Go's for {set}"
            );
            cache = Some((set.clone(), records));
        }
        let records = &cache.as_ref().unwrap().1;
        let max = v["max_chunk_size"].as_i64().unwrap();
        let mut options = PaddleWriteOptions::default().with_compressor(
            Compressor::from_id(v["compressor"].as_u64().unwrap() as u32).unwrap(),
        );
        if max >= 0 {
            options = options.with_max_chunk_size(max as u64);
        }
        let mut w = PaddleWriter::with_options(Vec::new(), options);
        for r in records {
            w.write_payload(r).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(w.chunks(), v["chunks"].as_u64().unwrap(), "{line}");
        let file = w.into_inner().unwrap();
        assert_eq!(
            (file.len() as u64, u64::from(crc32fast::hash(&file))),
            (
                v["file_size"].as_u64().unwrap(),
                v["file_crc32"].as_u64().unwrap()
            ),
            "{line}"
        );
        let back: Vec<Vec<u8>> = PaddleReader::new(&file[..]).map(Result::unwrap).collect();
        assert_eq!(&back, records, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 84);
}
