//! Which records of a chunk a split `[start, end)` takes: each record placed at its share
//! of its chunk. Shared by the split constructor, which finds a split's first record, and
//! the reader, which stops at its last.

use std::ops::Range;

use super::header::{ChunkHeader, HEADER_LEN};

/// The records of the chunk at `offset` that belong to the split `[start, end)`, by index.
///
/// Record `k` of a chunk of `n` records spanning `len` bytes (header included) is placed at
/// `offset + k * len / n` (rounded down): its share of the chunk. A split takes the records
/// placed inside it, so a chunk larger than a split is shared between splits (each reads and
/// checks the whole chunk) and splits of a file with few large chunks stay even. Compressed
/// chunks split the same way: the rule needs no record's position in the file. Not used
/// by splits that take whole chunks ([`PaddleReadOptions::whole_chunks`], recovering).
///
/// [`PaddleReadOptions::whole_chunks`]: super::PaddleReadOptions::whole_chunks
pub(super) fn record_window(offset: u64, header: &ChunkHeader, start: u64, end: u64) -> Range<u32> {
    let len = HEADER_LEN as u128 + u128::from(header.compressed_size);
    let n = header.num_records;
    // The first k placed at or after `x`: ceil((x - offset) * n / len), within 0..=n.
    let first_at = |x: u64| -> u32 {
        let Some(into) = x.checked_sub(offset) else {
            return 0;
        };
        let into = u128::from(into);
        if into >= len {
            return n;
        }
        (into * u128::from(n)).div_ceil(len) as u32
    };
    first_at(start)..first_at(end).max(first_at(start))
}
