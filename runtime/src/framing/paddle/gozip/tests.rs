//! The encoder against output of Go's `compress/gzip`, and round trips through flate2.

use std::io::Read;

use proptest::prelude::*;

use super::matcher::Deflater;
use super::{GoGzip, Level};

#[path = "../../../../tests/support/gozip_inputs.rs"]
#[allow(dead_code)]
mod inputs;

const VECTORS: &str = include_str!("../../../../tests/data/gozip_vectors.jsonl");

fn gzip(data: &[u8], level: Level) -> Vec<u8> {
    let mut out = Vec::new();
    GoGzip::new(level).compress(data, &mut out);
    out
}

fn gunzip(gz: &[u8]) -> Vec<u8> {
    let mut back = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut back)
        .expect("valid gzip");
    back
}

#[test]
fn every_go_vector_is_byte_identical() {
    let vectors = inputs::vectors(VECTORS);
    assert_eq!(vectors.len(), 263);
    // One encoder for all: reuse must not change the output.
    let mut encoder = GoGzip::new(Level::DEFAULT);
    let mut mismatches = Vec::new();
    for v in &vectors {
        let input = v.input();
        assert_eq!(
            (input.len(), crc32fast::hash(&input)),
            (v.input_size, v.input_crc32),
            "generator differs from Go's for {}",
            v.line
        );
        let level = if v.level == -1 {
            Level::DEFAULT
        } else {
            Level::go(v.level as u8).unwrap()
        };
        encoder.level = level;
        let mut out = Vec::new();
        encoder.compress(&input, &mut out);
        if (out.len(), crc32fast::hash(&out)) != (v.gzip_size, v.gzip_crc32) {
            mismatches.push(format!("{} (ours: {} bytes)", v.line, out.len()));
        }
        assert_eq!(gunzip(&out), input, "{}", v.line);
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn small_inputs_match_go_exactly() {
    // Go 1.19: gzip.NewWriter, Write, Close.
    let cases: [(&[u8], &str); 3] = [
        (b"", "1f8b08000000000000ff010000ffff0000000000000000"),
        (b"a", "1f8b08000000000000ff4a04040000ffff43beb7e801000000"),
        (
            b"hello hello hello hello",
            "1f8b08000000000000ffca48cdc9c957c02001010000ffffe3513d8d17000000",
        ),
    ];
    for (input, hex) in cases {
        let out: String = gzip(input, Level::DEFAULT)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(out, hex, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn reuse_and_rebasing_do_not_change_the_output() {
    let inputs: Vec<Vec<u8>> = [("text", 300_000), ("echo", 200_000), ("segments", 150_000)]
        .iter()
        .enumerate()
        .map(|(i, &(kind, n))| inputs::generate(kind, n, i as u64 + 100))
        .collect();
    let fresh: Vec<Vec<u8>> = inputs.iter().map(|d| gzip(d, Level::DEFAULT)).collect();
    // A limit this low forces renumbering every few windows and clearing between inputs.
    let mut low = Deflater::new();
    low.set_position_limit(1 << 17);
    let mut reused = GoGzip::new(Level::DEFAULT);
    for _ in 0..2 {
        for (input, expected) in inputs.iter().zip(&fresh) {
            let mut out = Vec::new();
            reused.compress(input, &mut out);
            assert_eq!(&out, expected);
            let mut raw = Vec::new();
            low.deflate(input, &Level::DEFAULT, &mut raw);
            assert_eq!(raw[..], expected[10..expected.len() - 8]);
        }
    }
}

/// Inputs with structure: runs, repeats at all distances, small alphabets, noise.
fn structured() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        (any::<u8>(), 1..2000usize).prop_map(|(b, n)| vec![b; n]),
        prop::collection::vec(0u8..4, 0..3000),
        (1..40_000usize, 3..600usize).prop_map(|(back, len)| {
            // Marker for "copy from `back` bytes ago", expanded below.
            let mut m = vec![0xff, 0xfe, 0xfd];
            m.extend_from_slice(&(back as u32).to_le_bytes());
            m.extend_from_slice(&(len as u32).to_le_bytes());
            m
        }),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| {
        let mut out = Vec::new();
        for p in pieces {
            if p.len() == 11 && p[..3] == [0xff, 0xfe, 0xfd] && !out.is_empty() {
                let back =
                    (u32::from_le_bytes(p[3..7].try_into().unwrap()) as usize).min(out.len());
                let len = u32::from_le_bytes(p[7..11].try_into().unwrap()) as usize;
                let start = out.len() - back;
                for i in 0..len {
                    out.push(out[start + i]);
                }
            } else {
                out.extend_from_slice(&p);
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_input_decodes_back(data in prop::collection::vec(any::<u8>(), 0..5000)) {
        prop_assert_eq!(gunzip(&gzip(&data, Level::DEFAULT)), data);
    }

    #[test]
    fn structured_input_decodes_back(data in structured(), level in 4u8..=9) {
        let gz = gzip(&data, Level::go(level).unwrap());
        prop_assert_eq!(gunzip(&gz), data);
    }
}
