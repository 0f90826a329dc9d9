//! One deflate block from a run of tokens, encoded as Go's `compress/flate` chooses.
//!
//! Go's rules, all of which show in the bytes:
//!
//! - The end-of-block symbol counts once in the literal/length histogram. A block without
//!   matches still gets a distance code: symbol 0 is counted once, so a one-symbol
//!   distance code is sent (and the fixed-code estimate pays 5 bits for it too).
//! - The block is sent with the fixed code unless the dynamic code is strictly smaller,
//!   counting every bit of the dynamic header. It is stored instead if the raw bytes are at
//!   hand, at most 65535 of them, and `(bytes + 5) × 8` bits is strictly smaller than the
//!   Huffman estimate; the extra bits of lengths and distances are counted only then (they
//!   are the same for both Huffman codes).
//! - Literal/length and distance codes are limited to 15 bits, the code-length code to 7
//!   (see [`huffman`](super::huffman) for how ties are broken). The literal/length and
//!   distance lengths are run-length coded as one sequence, runs crossing from one to the
//!   other: a non-zero length is sent once and then repeated with symbol 16 in runs of up
//!   to 6; zeros go in runs of up to 138 with symbol 18 (11 or more) and 17 (3 to 10);
//!   shorter remainders are sent as they are. Trailing unused code-length codes are
//!   dropped from the header, keeping at least 4.

use super::bits::BitWriter;
use super::huffman::{canonical_codes, fixed_litlen_lengths, Code, CodeBuilder};
use super::token::{
    dist_code, dist_extra, dist_extra_bits, length_code, length_extra, length_extra_bits, Token,
    DIST_SYMBOLS, END_OF_BLOCK, LITLEN_SYMBOLS,
};

/// The order in which code-length code lengths are sent (RFC 1951 §3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Longest stored block.
pub(super) const MAX_STORED: usize = 65535;

/// Encodes blocks, keeping its tables between them.
#[derive(Debug)]
pub(super) struct BlockEncoder {
    litlen_freq: [u32; LITLEN_SYMBOLS],
    dist_freq: [u32; DIST_SYMBOLS],
    litlen_len: [u8; LITLEN_SYMBOLS],
    dist_len: [u8; DIST_SYMBOLS],
    litlen_code: [Code; LITLEN_SYMBOLS],
    dist_code: [Code; DIST_SYMBOLS],
    fixed_litlen_len: [u8; 288],
    fixed_litlen_code: [Code; 288],
    fixed_dist_code: [Code; DIST_SYMBOLS],
    /// The run-length coded code lengths: (code-length symbol, its extra-bits value).
    length_runs: Vec<(u8, u8)>,
    cl_freq: [u32; 19],
    cl_len: [u8; 19],
    cl_code: [Code; 19],
    builder: CodeBuilder,
}

impl Default for BlockEncoder {
    fn default() -> Self {
        let fixed_litlen_len = fixed_litlen_lengths();
        let mut fixed_litlen_code = [Code::default(); 288];
        canonical_codes(&fixed_litlen_len, &mut fixed_litlen_code);
        let mut fixed_dist_code = [Code::default(); DIST_SYMBOLS];
        canonical_codes(&[5; DIST_SYMBOLS], &mut fixed_dist_code);
        BlockEncoder {
            litlen_freq: [0; LITLEN_SYMBOLS],
            dist_freq: [0; DIST_SYMBOLS],
            litlen_len: [0; LITLEN_SYMBOLS],
            dist_len: [0; DIST_SYMBOLS],
            litlen_code: [Code::default(); LITLEN_SYMBOLS],
            dist_code: [Code::default(); DIST_SYMBOLS],
            fixed_litlen_len,
            fixed_litlen_code,
            fixed_dist_code,
            length_runs: Vec::with_capacity(LITLEN_SYMBOLS + DIST_SYMBOLS),
            cl_freq: [0; 19],
            cl_len: [0; 19],
            cl_code: [Code::default(); 19],
            builder: CodeBuilder::default(),
        }
    }
}

/// How a block is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Stored,
    Fixed,
    Dynamic {
        litlen: usize,
        dist: usize,
        cl: usize,
    },
}

impl BlockEncoder {
    /// Writes a non-final block holding `tokens`; `raw` is the input they encode when it is
    /// still available for a stored block (Go drops it once its window has moved past the
    /// block's start).
    pub(super) fn write(&mut self, w: &mut BitWriter<'_>, tokens: &[Token], raw: Option<&[u8]>) {
        match self.choose(tokens, raw) {
            Kind::Stored => {
                let raw = raw.expect("stored blocks have their bytes");
                write_stored_header(w, raw.len() as u32, false);
                w.put_bytes(raw);
            }
            Kind::Fixed => {
                w.put(0b010, 3);
                write_tokens(w, tokens, &self.fixed_litlen_code, &self.fixed_dist_code);
            }
            Kind::Dynamic { litlen, dist, cl } => {
                self.write_dynamic_header(w, litlen, dist, cl);
                write_tokens(w, tokens, &self.litlen_code, &self.dist_code);
            }
        }
    }

    /// Counts the symbols, builds the dynamic codes and picks the cheapest encoding.
    fn choose(&mut self, tokens: &[Token], raw: Option<&[u8]>) -> Kind {
        self.litlen_freq.fill(0);
        self.dist_freq.fill(0);
        for &t in tokens {
            match t.as_match() {
                None => self.litlen_freq[t.byte()] += 1,
                Some((len, dist)) => {
                    self.litlen_freq[257 + length_code(len)] += 1;
                    self.dist_freq[dist_code(dist)] += 1;
                }
            }
        }
        self.litlen_freq[END_OF_BLOCK] += 1;
        let litlen_used = last_used(&self.litlen_freq);
        let mut dist_used = last_used(&self.dist_freq);
        if dist_used == 0 {
            self.dist_freq[0] = 1;
            dist_used = 1;
        }
        self.builder.build(
            &self.litlen_freq,
            15,
            &mut self.litlen_len,
            &mut self.litlen_code,
        );
        self.builder
            .build(&self.dist_freq, 15, &mut self.dist_len, &mut self.dist_code);

        let stored = raw.filter(|raw| raw.len() <= MAX_STORED);
        let extra = if stored.is_some() {
            let lengths: usize = (8..litlen_used.saturating_sub(257))
                .map(|c| self.litlen_freq[257 + c] as usize * length_extra_bits(c) as usize)
                .sum();
            let distances: usize = (4..dist_used)
                .map(|c| self.dist_freq[c] as usize * dist_extra_bits(c) as usize)
                .sum();
            lengths + distances
        } else {
            0
        };

        let fixed_bits = 3
            + weighted(&self.litlen_freq, &self.fixed_litlen_len)
            + 5 * self.dist_freq.iter().map(|&f| f as usize).sum::<usize>()
            + extra;

        self.run_length_code(litlen_used, dist_used);
        self.builder
            .build(&self.cl_freq, 7, &mut self.cl_len, &mut self.cl_code);
        let mut cl_used = 19;
        while cl_used > 4 && self.cl_freq[CODE_LENGTH_ORDER[cl_used - 1]] == 0 {
            cl_used -= 1;
        }
        let dynamic_bits = 3
            + 5
            + 5
            + 4
            + 3 * cl_used
            + weighted(&self.cl_freq, &self.cl_len)
            + 2 * self.cl_freq[16] as usize
            + 3 * self.cl_freq[17] as usize
            + 7 * self.cl_freq[18] as usize
            + weighted(&self.litlen_freq, &self.litlen_len)
            + weighted(&self.dist_freq, &self.dist_len)
            + extra;

        let (kind, bits) = if dynamic_bits < fixed_bits {
            let kind = Kind::Dynamic {
                litlen: litlen_used,
                dist: dist_used,
                cl: cl_used,
            };
            (kind, dynamic_bits)
        } else {
            (Kind::Fixed, fixed_bits)
        };
        match stored {
            Some(raw) if (raw.len() + 5) * 8 < bits => Kind::Stored,
            _ => kind,
        }
    }

    /// Run-length codes the first `litlen` literal/length and `dist` distance code lengths
    /// as one sequence into `length_runs`, counting symbols in `cl_freq`.
    fn run_length_code(&mut self, litlen: usize, dist: usize) {
        self.length_runs.clear();
        self.cl_freq.fill(0);
        let seq = self.litlen_len[..litlen]
            .iter()
            .chain(&self.dist_len[..dist])
            .copied();
        let mut seq = seq.peekable();
        while let Some(len) = seq.next() {
            let mut run = 1;
            while seq.next_if_eq(&len).is_some() {
                run += 1;
            }
            let mut emit = |sym: u8, extra: u8| {
                self.length_runs.push((sym, extra));
                self.cl_freq[sym as usize] += 1;
            };
            if len != 0 {
                emit(len, 0);
                run -= 1;
                while run >= 3 {
                    let n = run.min(6);
                    emit(16, (n - 3) as u8);
                    run -= n;
                }
            } else {
                while run >= 11 {
                    let n = run.min(138);
                    emit(18, (n - 11) as u8);
                    run -= n;
                }
                if run >= 3 {
                    emit(17, (run - 3) as u8);
                    run = 0;
                }
            }
            for _ in 0..run {
                emit(len, 0);
            }
        }
    }

    fn write_dynamic_header(&self, w: &mut BitWriter<'_>, litlen: usize, dist: usize, cl: usize) {
        w.put(0b100, 3);
        w.put((litlen - 257) as u32, 5);
        w.put((dist - 1) as u32, 5);
        w.put((cl - 4) as u32, 4);
        for &sym in &CODE_LENGTH_ORDER[..cl] {
            w.put(u32::from(self.cl_len[sym]), 3);
        }
        for &(sym, extra) in &self.length_runs {
            let code = self.cl_code[sym as usize];
            w.put(u32::from(code.bits), u32::from(code.len));
            match sym {
                16 => w.put(u32::from(extra), 2),
                17 => w.put(u32::from(extra), 3),
                18 => w.put(u32::from(extra), 7),
                _ => {}
            }
        }
    }
}

/// A stored block's header: block type bits, padding to a byte, LEN and NLEN.
pub(super) fn write_stored_header(w: &mut BitWriter<'_>, len: u32, last: bool) {
    w.put(u32::from(last), 3);
    w.align();
    w.put(len, 16);
    w.put(!len & 0xffff, 16);
}

/// One past the last symbol with a non-zero count (0 if none).
fn last_used(freqs: &[u32]) -> usize {
    freqs.iter().rposition(|&f| f != 0).map_or(0, |i| i + 1)
}

/// Σ frequency × code length.
fn weighted(freqs: &[u32], lengths: &[u8]) -> usize {
    freqs
        .iter()
        .zip(lengths)
        .map(|(&f, &l)| f as usize * l as usize)
        .sum()
}

/// The tokens and the end-of-block symbol.
fn write_tokens(w: &mut BitWriter<'_>, tokens: &[Token], litlen: &[Code], dist: &[Code]) {
    for &t in tokens {
        match t.as_match() {
            None => {
                let c = litlen[t.byte()];
                w.put(u32::from(c.bits), u32::from(c.len));
            }
            Some((len, d)) => {
                let lc = length_code(len);
                let c = litlen[257 + lc];
                let (n, v) = length_extra(lc, len);
                w.put(u32::from(c.bits) | v << c.len, u32::from(c.len) + n);
                let dc = dist_code(d);
                let c = dist[dc];
                let (n, v) = dist_extra(dc, d);
                w.put(u32::from(c.bits) | v << c.len, u32::from(c.len) + n);
            }
        }
    }
    let c = litlen[END_OF_BLOCK];
    w.put(u32::from(c.bits), u32::from(c.len));
}
