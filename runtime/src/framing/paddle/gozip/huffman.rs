//! Length-limited Huffman codes, built the way Go's `compress/flate` builds them.
//!
//! Optimal codes are not unique when frequencies tie, and the deflate bytes depend on
//! which one is chosen, so the construction is pinned down exactly:
//!
//! - Symbols with frequency 0 get no code. One or two used symbols get length 1 each.
//! - Otherwise the used symbols are ordered by (frequency, symbol) and the code lengths
//!   come from package-merge (Larmore and Hirschberg) with depth limit
//!   `min(max_bits, used - 1)`: level 1 lists the symbols, each higher level merges the
//!   symbols with the pairwise sums ("packages") of the level below, a package going first
//!   when it weighs the same as a symbol. The first `2·used − 2` items of the top level are
//!   taken, each package taken claims the two items it was made of one level down, and a
//!   symbol's length is the number of levels on which it is claimed. (Go computes the same
//!   lists lazily, keeping only their boundary.)
//! - Codes are canonical (RFC 1951 §3.2.2): shorter codes first, and within a length in
//!   symbol order.

/// A Huffman code ready for the bit writer: `bits` is the code bit-reversed (deflate sends
/// Huffman codes most significant bit first into an LSB-first stream), `len` its length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Code {
    pub(super) bits: u16,
    pub(super) len: u8,
}

/// Scratch space for building codes without allocating per block.
#[derive(Debug, Default)]
pub(super) struct CodeBuilder {
    /// Used symbols as `(frequency, symbol)`, then sorted.
    used: Vec<(u32, u16)>,
    /// Every level's merged list, one after the other: an item is `weight << 1 | is_symbol`,
    /// so ordering by value puts a package before a symbol of the same weight.
    items: Vec<u64>,
    /// Where each level starts in `items` (and where the last one ends).
    level_start: Vec<usize>,
}

impl CodeBuilder {
    /// Fills `lengths` (as long as `freqs`) with the code length of each symbol, at most
    /// `max_bits`, and `codes` with the matching canonical codes.
    pub(super) fn build(
        &mut self,
        freqs: &[u32],
        max_bits: u32,
        lengths: &mut [u8],
        codes: &mut [Code],
    ) {
        self.lengths(freqs, max_bits, lengths);
        canonical_codes(lengths, codes);
    }

    fn lengths(&mut self, freqs: &[u32], max_bits: u32, lengths: &mut [u8]) {
        lengths.fill(0);
        self.used.clear();
        self.used.extend(
            freqs
                .iter()
                .enumerate()
                .filter(|&(_, &f)| f != 0)
                .map(|(sym, &f)| (f, sym as u16)),
        );
        let n = self.used.len();
        if n <= 2 {
            for &(_, sym) in &self.used {
                lengths[sym as usize] = 1;
            }
            return;
        }
        self.used.sort_unstable();
        let depth = (max_bits as usize).min(n - 1);

        // Level 1: the symbols alone. Level k: symbols merged with packages of level k−1.
        self.items.clear();
        self.level_start.clear();
        self.level_start.push(0);
        self.items
            .extend(self.used.iter().map(|&(f, _)| u64::from(f) << 1 | 1));
        for _ in 1..depth {
            let below = *self.level_start.last().unwrap()..self.items.len();
            self.level_start.push(self.items.len());
            let pairs = below.len() / 2;
            let (mut s, mut p) = (0, 0);
            while s < n || p < pairs {
                let symbol = self.used.get(s).map(|&(f, _)| u64::from(f) << 1 | 1);
                let package = (p < pairs).then(|| {
                    let a = self.items[below.start + 2 * p] >> 1;
                    let b = self.items[below.start + 2 * p + 1] >> 1;
                    (a + b) << 1
                });
                match (symbol, package) {
                    (Some(sym), Some(pkg)) if sym < pkg => {
                        self.items.push(sym);
                        s += 1;
                    }
                    (Some(sym), None) => {
                        self.items.push(sym);
                        s += 1;
                    }
                    (_, Some(pkg)) => {
                        self.items.push(pkg);
                        p += 1;
                    }
                    (None, None) => break,
                }
            }
        }
        self.level_start.push(self.items.len());

        // Walk down from the top level: `take` items are claimed on each level; the
        // symbols among them (always the lowest-weight ones, a prefix of `used`) each gain
        // one bit of length.
        let mut take = 2 * n - 2;
        for level in (0..depth).rev() {
            let list = &self.items[self.level_start[level]..self.level_start[level + 1]];
            let claimed = &list[..take];
            let symbols = claimed.iter().filter(|&&item| item & 1 == 1).count();
            for &(_, sym) in &self.used[..symbols] {
                lengths[sym as usize] += 1;
            }
            take = 2 * (take - symbols);
        }
        debug_assert_eq!(take, 0);
    }
}

/// Assigns canonical codes for `lengths` (0 = unused symbol).
pub(super) fn canonical_codes(lengths: &[u8], codes: &mut [Code]) {
    let mut count = [0u16; 16];
    for &len in lengths {
        count[len as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (sym, &len) in lengths.iter().enumerate() {
        codes[sym] = if len == 0 {
            Code::default()
        } else {
            let c = next[len as usize];
            next[len as usize] += 1;
            Code {
                bits: c.reverse_bits() >> (16 - len),
                len,
            }
        };
    }
}

/// The fixed literal/length code of RFC 1951 §3.2.6 (all 288 symbols).
pub(super) fn fixed_litlen_lengths() -> [u8; 288] {
    let mut lengths = [8u8; 288];
    lengths[144..256].fill(9);
    lengths[256..280].fill(7);
    lengths
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(freqs: &[u32], max_bits: u32) -> Vec<u8> {
        let mut lengths = vec![0; freqs.len()];
        let mut codes = vec![Code::default(); freqs.len()];
        CodeBuilder::default().build(freqs, max_bits, &mut lengths, &mut codes);
        lengths
    }

    #[test]
    fn few_symbols_get_one_bit() {
        assert_eq!(lengths(&[0, 0, 0], 15), [0, 0, 0]);
        assert_eq!(lengths(&[0, 5, 0], 15), [0, 1, 0]);
        assert_eq!(lengths(&[9, 0, 1], 15), [1, 0, 1]);
    }

    #[test]
    fn unconstrained_codes_are_huffman() {
        // Classic example: weights 1, 1, 2, 4 → lengths 3, 3, 2, 1.
        assert_eq!(lengths(&[1, 1, 2, 4], 15), [3, 3, 2, 1]);
        // Ties: equal weights split evenly.
        assert_eq!(lengths(&[5, 5, 5, 5], 15), [2, 2, 2, 2]);
    }

    #[test]
    fn depth_limit_holds_and_kraft_sum_is_one() {
        // Fibonacci weights would need 19 bits unconstrained.
        let mut freqs = vec![1u32, 1];
        while freqs.len() < 20 {
            let k = freqs.len();
            freqs.push(freqs[k - 1] + freqs[k - 2]);
        }
        for max_bits in [7, 9, 15] {
            let l = lengths(&freqs, max_bits);
            assert!(
                l.iter().all(|&b| (1..=max_bits as u8).contains(&b)),
                "{l:?}"
            );
            let kraft: u64 = l.iter().map(|&b| 1u64 << (15 - b)).sum();
            assert_eq!(kraft, 1 << 15, "{l:?}");
        }
    }

    #[test]
    fn canonical_codes_match_rfc_example() {
        // RFC 1951 §3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) for A..H.
        let l = [3, 3, 3, 3, 3, 2, 4, 4];
        let mut codes = [Code::default(); 8];
        canonical_codes(&l, &mut codes);
        let plain: Vec<u16> = codes
            .iter()
            .map(|c| c.bits.reverse_bits() >> (16 - c.len))
            .collect();
        assert_eq!(
            plain,
            [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111]
        );
    }
}
