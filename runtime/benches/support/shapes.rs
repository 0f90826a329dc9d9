//! The record shapes of the archive benchmarks (BENCHMARKS.md), as field values: small
//! {int, long, boolean, double}, text {two 40-character ASCII ustrings, int} and bulk
//! {4096 random bytes, long}. Shared by `benches/archives.rs` and the C++ runtime's
//! benchmark (`compiler/benches/cpp_runtime.rs`), so that both measure the same records.

use super::Rng;

/// `(i, l, z, d)` of `n` small records: ints and longs of every encoded length, doubles of
/// 16–17 significant digits.
pub fn small(n: usize) -> Vec<(i32, i64, bool, f64)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| {
            let r = rng.next();
            (
                // A mix of one- to five-byte ints and longer longs.
                (r as i32) >> (r % 31),
                (rng.next() as i64) >> (r % 63),
                r & 1 == 1,
                (rng.next() >> 11) as f64 / (1u64 << 40) as f64,
            )
        })
        .collect()
}

/// `(a, b, n)` of `n` text records: two sentences of 40 ASCII characters and an int.
pub fn text(n: usize) -> Vec<(String, String, i32)> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    ];
    let sentence = |rng: &mut Rng| {
        let mut s = String::with_capacity(48);
        while s.len() < 36 {
            s.push_str(words[(rng.next() % 8) as usize]);
            s.push(' ');
        }
        s.truncate(40);
        s
    };
    (0..n)
        .map(|_| {
            (
                sentence(&mut rng),
                sentence(&mut rng),
                rng.next() as i32 >> 8,
            )
        })
        .collect()
}

/// `(data, n)` of `n` bulk records: 4096 random bytes and the record's number.
pub fn bulk(n: usize) -> Vec<(Vec<u8>, i64)> {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    (0..n)
        .map(|i| ((0..4096).map(|_| rng.next() as u8).collect(), i as i64))
        .collect()
}
