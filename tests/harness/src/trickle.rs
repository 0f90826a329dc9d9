//! A reader that hands out its bytes a few at a time, to exercise every refill path of the
//! reader above it. It uses nothing but `std`, so that the fuzz targets can include this file
//! too (`#[path]`).

use std::io::Read;

/// Reads `data` in pieces: at most `sizes[0]` bytes in the first read, `sizes[1]` in the
/// second, and so on, starting over after the last size.
pub struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    reads: usize,
}

impl<'a> Trickle<'a> {
    /// At most `n` bytes a read (`n` of 0 reads as an empty file).
    pub fn new(data: &'a [u8], n: usize) -> Self {
        Trickle::cycling(data, vec![n])
    }

    /// At most `sizes[i % sizes.len()]` bytes in the i-th read; no sizes reads as an empty
    /// file.
    pub fn cycling(data: &'a [u8], sizes: Vec<usize>) -> Self {
        Trickle {
            data,
            sizes,
            reads: 0,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(&size) = self.sizes.get(self.reads % self.sizes.len().max(1)) else {
            return Ok(0);
        };
        self.reads += 1;
        let k = size.min(buf.len()).min(self.data.len());
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_follow_the_sizes_and_end_with_the_data() {
        let mut t = Trickle::cycling(b"abcdefgh", vec![1, 3]);
        let mut buf = [0u8; 8];
        let mut pieces = Vec::new();
        loop {
            let n = t.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            pieces.push(buf[..n].to_vec());
        }
        assert_eq!(pieces, [&b"a"[..], b"bcd", b"e", b"fgh"]);
        let mut small = [0u8; 2];
        assert_eq!(Trickle::new(b"abc", 5).read(&mut small).unwrap(), 2);
        assert_eq!(Trickle::new(b"abc", 0).read(&mut buf).unwrap(), 0);
        assert_eq!(Trickle::cycling(b"abc", vec![]).read(&mut buf).unwrap(), 0);
    }
}
