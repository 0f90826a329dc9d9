//! The deflate bit stream: values are packed least significant bit first, Huffman codes
//! arrive already bit-reversed (see `huffman::Code`).

/// Appends bits to a byte vector.
pub(super) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    /// Pending bits, the oldest in the lowest positions; fewer than 32 between calls.
    acc: u64,
    count: u32,
}

impl<'a> BitWriter<'a> {
    pub(super) fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter {
            out,
            acc: 0,
            count: 0,
        }
    }

    /// Appends the low `n` bits of `value` (`n` ≤ 32, higher bits of `value` zero).
    #[inline(always)]
    pub(super) fn put(&mut self, value: u32, n: u32) {
        debug_assert!(n <= 32 && (n == 32 || value >> n == 0));
        self.acc |= u64::from(value) << self.count;
        self.count += n;
        if self.count >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.count -= 32;
        }
    }

    /// Pads with zero bits to a byte boundary and moves every whole byte to the output.
    pub(super) fn align(&mut self) {
        let bytes = self.count.div_ceil(8);
        self.out
            .extend_from_slice(&self.acc.to_le_bytes()[..bytes as usize]);
        self.acc = 0;
        self.count = 0;
    }

    /// Appends raw bytes; the stream must be byte-aligned (after [`BitWriter::align`] or a
    /// whole number of bytes since).
    pub(super) fn put_bytes(&mut self, bytes: &[u8]) {
        debug_assert!(self.count.is_multiple_of(8));
        self.align();
        self.out.extend_from_slice(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_packed_lsb_first() {
        let mut out = Vec::new();
        let mut w = BitWriter::new(&mut out);
        w.put(0b1, 1);
        w.put(0b10, 2);
        w.put(0b11111, 5); // first byte: 11111 10 1
        w.put(0x1234, 16);
        w.put(0xdead_beef, 32);
        w.put(0b101, 3);
        w.align();
        w.put_bytes(b"xy");
        assert_eq!(
            out,
            [
                0b1111_1101,
                0x34,
                0x12,
                0xef,
                0xbe,
                0xad,
                0xde,
                0b101,
                b'x',
                b'y'
            ]
        );
    }
}
