//! LZ77 with hash chains and lazy matching, making the same choices as Go's
//! `compress/flate` at levels 4 to 9, and cutting blocks where Go cuts them.
//!
//! The facts that decide the bytes:
//!
//! - Every position with 4 bytes ahead is hashed on those 4 bytes (read big-endian,
//!   multiplied by `0x1e35a7bd`, top 17 bits) into chains. Collisions stay in the chains
//!   and cost tries, so the hash is Go's exactly.
//! - At each position the chain is searched, newest candidate first, for matches longer
//!   than 3 bytes (whatever the held match's length): at most `chain` candidates,
//!   stopping at a match of `nice` bytes or at the window edge; the first of equally long
//!   matches wins. A 4-byte match counts only within 4096 bytes. The search is skipped
//!   when the previous position already holds a match of `lazy` bytes or more, or when
//!   fewer bytes remain than that match's length.
//! - Lazy evaluation: a match found at position p is emitted only if the search at p + 1
//!   finds nothing longer; otherwise p becomes a literal and p + 1's match is held. After
//!   an emitted match, the positions it covers are hashed (those with 4 bytes ahead) and
//!   matching resumes past it with nothing held.
//! - Candidates must lie within 32 KiB and inside Go's sliding window. Go keeps 64 KiB of
//!   input in a buffer and, whenever fewer than 262 unprocessed bytes remain in it while
//!   more input waits, slides it by 32 KiB; positions that slid out cannot be matched even
//!   when nearer than 32 KiB. Here the whole input is in memory, so the window is only a
//!   number that moves on the same schedule.
//! - A block is written every 16384 tokens and at the end. It may be stored only if it
//!   starts inside the window at that moment and is at most 65535 bytes. Close adds an
//!   empty final stored block.

use super::bits::BitWriter;
use super::block::{write_stored_header, BlockEncoder};
use super::token::{Token, MAX_DISTANCE, MAX_MATCH, MIN_MATCH};
use super::Level;

/// Go's buffer holds two windows; it slides when less than this much input is left in it.
const MIN_LOOKAHEAD: usize = MIN_MATCH + 1 + MAX_MATCH;
/// Tokens per block.
const MAX_TOKENS: usize = 1 << 14;
/// A 4-byte match farther than this is not worth it.
const MAX_SHORT_DISTANCE: usize = 4096;
const HASH_BITS: u32 = 17;
const HASH_MULTIPLIER: u32 = 0x1e35_a7bd;
const WINDOW_MASK: usize = MAX_DISTANCE - 1;

/// Hash chains over absolute input positions.
///
/// A position `p` is stored as `p + bias` (a `u32`); 0 means empty. Every value below
/// `bias` is stale, so a new input only raises `bias` past the old values instead of
/// clearing 576 KiB of tables, and a long input rebases the tables before the values
/// outgrow `limit`.
struct Chains {
    /// Most recent position for each hash value.
    head: Box<[u32]>,
    /// For each position modulo 32 KiB, how far back the previous position with the same
    /// hash is; 0 if there is none or it is more than 32 KiB back (then it is out of reach
    /// of every later search too). Relative, so half the size and never renumbered.
    prev: Box<[u16]>,
    bias: i64,
    /// The first bias free for the next input.
    next_bias: i64,
    /// Values are kept at or below this.
    limit: i64,
}

impl std::fmt::Debug for Chains {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The tables are too big to print.
        f.debug_struct("Chains")
            .field("bias", &self.bias)
            .field("next_bias", &self.next_bias)
            .finish_non_exhaustive()
    }
}

impl Chains {
    fn new() -> Self {
        Chains {
            head: vec![0; 1 << HASH_BITS].into_boxed_slice(),
            prev: vec![0; MAX_DISTANCE].into_boxed_slice(),
            bias: 1,
            next_bias: 1,
            limit: 1 << 31,
        }
    }

    /// Makes every stored position stale, for a new input of `len` bytes.
    fn start(&mut self, len: usize) {
        let window = (2 * MAX_DISTANCE).min(len) as i64;
        if self.next_bias + window > self.limit {
            self.head.fill(0);
            self.prev.fill(0);
            self.next_bias = 1;
        }
        self.bias = self.next_bias;
    }

    /// Records that the input ended at `len`: its values become stale for the next one.
    fn finish(&mut self, len: usize) {
        self.next_bias = self.bias + len as i64 + 1;
    }

    /// Keeps stored values under `limit` as the window moves: once the window's end would
    /// pass it, positions before `base` (out of reach anyway) are dropped and the rest
    /// renumbered so that `base` is stored as 1.
    fn keep_in_range(&mut self, base: usize, window_end: usize) {
        if window_end as i64 + self.bias <= self.limit {
            return;
        }
        let delta = base as i64 + self.bias - 1;
        for v in self.head.iter_mut() {
            *v = if i64::from(*v) > delta {
                (i64::from(*v) - delta) as u32
            } else {
                0
            };
        }
        self.bias -= delta;
    }

    #[inline(always)]
    fn stored(&self, pos: usize) -> i64 {
        pos as i64 + self.bias
    }

    #[inline(always)]
    fn position(&self, value: u32) -> usize {
        (i64::from(value) - self.bias) as usize
    }

    /// Adds `pos` (which has 4 bytes ahead) to its chain; returns the previous head.
    #[inline(always)]
    fn insert(&mut self, data: &[u8], pos: usize) -> u32 {
        let quad = quad_at(data, pos).swap_bytes();
        let h = (quad.wrapping_mul(HASH_MULTIPLIER) >> (32 - HASH_BITS)) as usize;
        let old = self.head[h];
        let back = self.stored(pos) - i64::from(old);
        self.prev[pos & WINDOW_MASK] = if old != 0 && back <= MAX_DISTANCE as i64 {
            back as u16
        } else {
            0
        };
        self.head[h] = self.stored(pos) as u32;
        old
    }

    /// The longest match for `pos` along the chain starting at `head` (a valid entry), as
    /// `(length, distance)`; candidates must be at or after `lowest`.
    #[inline]
    fn longest_match(
        &self,
        data: &[u8],
        pos: usize,
        head: u32,
        lowest: usize,
        level: &Level,
    ) -> Option<(usize, usize)> {
        let max_len = (data.len() - pos).min(MAX_MATCH);
        let nice = level.nice.min(max_len);
        let mut best = MIN_MATCH;
        let mut found = None;
        let mut cand = self.position(head);
        let mut tries = level.chain;
        // A candidate can beat `best` only if it agrees on the bytes up to and including
        // `best`; checking the four ending there first skips most losers cheaply.
        let mut tail = quad_at(data, pos + best - 3);
        loop {
            if quad_at(data, cand + best - 3) == tail {
                let len = match_length(data, cand, pos, max_len);
                if len > best && (len > MIN_MATCH + 1 || pos - cand <= MAX_SHORT_DISTANCE) {
                    best = len;
                    found = Some((len, pos - cand));
                    if len >= nice {
                        break;
                    }
                    tail = quad_at(data, pos + best - 3);
                }
            }
            // The slot of a candidate exactly one window back already belongs to `pos`.
            if cand + MAX_DISTANCE == pos {
                break;
            }
            tries -= 1;
            if tries == 0 {
                break;
            }
            let back = usize::from(self.prev[cand & WINDOW_MASK]);
            if back == 0 || cand - lowest < back {
                break;
            }
            cand -= back;
        }
        found
    }
}

#[inline(always)]
fn quad_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}

/// How many bytes at `a` and `b` (`a < b`) agree, up to `max` (`b + max` within `data`).
#[inline(always)]
fn match_length(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    let (x, y) = (&data[a..a + max], &data[b..b + max]);
    let mut k = 0;
    while k + 8 <= max {
        let diff = u64::from_le_bytes(x[k..k + 8].try_into().unwrap())
            ^ u64::from_le_bytes(y[k..k + 8].try_into().unwrap());
        if diff != 0 {
            return k + (diff.trailing_zeros() / 8) as usize;
        }
        k += 8;
    }
    while k < max && x[k] == y[k] {
        k += 1;
    }
    k
}

/// The deflate encoder: matcher state and block encoder, reusable across inputs.
#[derive(Debug)]
pub(super) struct Deflater {
    chains: Chains,
    blocks: BlockEncoder,
    tokens: Vec<Token>,
}

impl Deflater {
    pub(super) fn new() -> Self {
        Deflater {
            chains: Chains::new(),
            blocks: BlockEncoder::default(),
            tokens: Vec::with_capacity(MAX_TOKENS),
        }
    }

    /// Lowers the rebasing threshold, so tests can cross it with small inputs.
    #[cfg(test)]
    pub(super) fn set_position_limit(&mut self, limit: u32) {
        self.chains.limit = i64::from(limit);
        self.chains.next_bias = self.chains.next_bias.min(i64::from(limit));
    }

    /// Appends the raw deflate stream for `data` (all of it, then Close) to `out`.
    pub(super) fn deflate(&mut self, data: &[u8], level: &Level, out: &mut Vec<u8>) {
        let mut w = BitWriter::new(out);
        let n = data.len();
        self.chains.start(n);
        self.tokens.clear();
        // Go's buffer: input before `base` has slid out, input from `window_end` on is not
        // in it yet.
        let mut base = 0;
        let mut window_end = n.min(2 * MAX_DISTANCE);
        let mut block_start = 0;
        let mut index = 0;
        // A literal at `index - 1` not yet emitted, and the match found there.
        let mut held = false;
        let mut held_len = MIN_MATCH;
        let mut held_dist = 0;

        while index < n {
            if window_end < n && window_end - index < MIN_LOOKAHEAD {
                base += MAX_DISTANCE;
                window_end = (window_end + MAX_DISTANCE).min(n);
                self.chains.keep_in_range(base, window_end);
            }
            let remaining = n - index;
            let lowest = base.max(index.saturating_sub(MAX_DISTANCE));
            let mut cur = None;
            if remaining > MIN_MATCH {
                let head = self.chains.insert(data, index);
                if i64::from(head) >= self.chains.stored(lowest)
                    && remaining > held_len
                    && held_len < level.lazy
                {
                    cur = self.chains.longest_match(data, index, head, lowest, level);
                }
            }
            let cur_len = cur.map_or(MIN_MATCH, |(len, _)| len);

            if held_len > MIN_MATCH && cur_len <= held_len {
                // The held match wins: emit it; it started at index - 1.
                self.tokens.push(Token::matched(held_len, held_dist));
                let next = index + held_len - 1;
                for p in index + 1..next.min(n.saturating_sub(MIN_MATCH)) {
                    self.chains.insert(data, p);
                }
                index = next;
                held = false;
                held_len = MIN_MATCH;
            } else {
                if held {
                    self.tokens.push(Token::literal(data[index - 1]));
                }
                held = true;
                (held_len, held_dist) = cur.unwrap_or((MIN_MATCH, 0));
                index += 1;
            }
            if self.tokens.len() == MAX_TOKENS {
                // Everything before `index - held` is in the tokens.
                let end = index - usize::from(held);
                self.flush(&mut w, data, block_start, base, end);
                block_start = end;
            }
        }
        if held {
            self.tokens.push(Token::literal(data[n - 1]));
        }
        if !self.tokens.is_empty() {
            self.flush(&mut w, data, block_start, base, n);
        }
        self.chains.finish(n);
        write_stored_header(&mut w, 0, true);
        w.align();
    }

    /// Writes the pending tokens, covering `data[start..end]`, as one block.
    fn flush(&mut self, w: &mut BitWriter<'_>, data: &[u8], start: usize, base: usize, end: usize) {
        let raw = (start >= base).then(|| &data[start..end]);
        self.blocks.write(w, &self.tokens, raw);
        self.tokens.clear();
    }
}
