//! Hadoop's zero-compressed variable-length integers (`WritableUtils.writeVLong`).
//!
//! Values in −112..=127 take one byte. Otherwise a marker byte gives the sign and the number
//! `n` of following big-endian bytes: `-113 - n + 1` … for positive values (`8f` for one byte
//! down to `88` for eight) and `-121 - n + 1` … for negative ones (`87` down to `80`), whose
//! payload is the one's complement of the value. Java writes `1024` as `8e 04 00`.

/// Longest encoding: marker plus eight bytes.
pub const MAX_LEN: usize = 9;

/// Encodes `v` into `buf`, returning the number of bytes used (1..=9).
///
/// ```
/// use hadoop_record::archive::binary::vint;
/// let mut buf = [0u8; vint::MAX_LEN];
/// let n = vint::encode(1024, &mut buf);
/// assert_eq!(&buf[..n], &[0x8e, 0x04, 0x00]);
/// ```
#[inline]
pub fn encode(v: i64, buf: &mut [u8; MAX_LEN]) -> usize {
    if (-112..=127).contains(&v) {
        buf[0] = v as u8;
        return 1;
    }
    let (u, base) = if v < 0 {
        (!v as u64, -120i32)
    } else {
        (v as u64, -112i32)
    };
    let n = 8 - (u.leading_zeros() as usize / 8);
    buf[0] = (base - n as i32) as u8;
    let bytes = u.to_be_bytes();
    buf[1..=n].copy_from_slice(&bytes[8 - n..]);
    n + 1
}

/// The number of bytes that follow a marker byte (0 when the marker is the value itself).
#[inline]
pub fn payload_len(marker: u8) -> usize {
    let m = marker as i8;
    if m >= -112 {
        0
    } else if m < -120 {
        (-120 - m as i32) as usize
    } else {
        (-112 - m as i32) as usize
    }
}

/// Decodes the value from a marker byte and its `payload_len(marker)` payload bytes.
/// Non-minimal encodings are accepted, as Java does.
#[inline]
pub fn decode(marker: u8, payload: &[u8]) -> i64 {
    let m = marker as i8;
    if m >= -112 {
        return m as i64;
    }
    let mut u: u64 = 0;
    for &b in payload {
        u = (u << 8) | b as u64;
    }
    if m < -120 {
        !u as i64
    } else {
        u as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: i64) -> Vec<u8> {
        let mut buf = [0u8; MAX_LEN];
        let n = encode(v, &mut buf);
        buf[..n].to_vec()
    }

    fn dec(bytes: &[u8]) -> i64 {
        assert_eq!(payload_len(bytes[0]), bytes.len() - 1, "{bytes:02x?}");
        decode(bytes[0], &bytes[1..])
    }

    /// The worked examples of the spec, all of which appear in the Java fixtures.
    #[test]
    fn java_examples() {
        let cases: &[(i64, &[u8])] = &[
            (0, &[0x00]),
            (127, &[0x7f]),
            (-1, &[0xff]),
            (-112, &[0x90]),
            (-113, &[0x87, 0x70]),
            (128, &[0x8f, 0x80]),
            (255, &[0x8f, 0xff]),
            (-129, &[0x87, 0x80]),
            (-256, &[0x87, 0xff]),
            (256, &[0x8e, 0x01, 0x00]),
            (-257, &[0x86, 0x01, 0x00]),
            (1024, &[0x8e, 0x04, 0x00]),
            (65535, &[0x8e, 0xff, 0xff]),
            (65536, &[0x8d, 0x01, 0x00, 0x00]),
            (1 << 24, &[0x8c, 0x01, 0x00, 0x00, 0x00]),
            (-(1 << 24), &[0x85, 0xff, 0xff, 0xff]),
            (i32::MAX as i64, &[0x8c, 0x7f, 0xff, 0xff, 0xff]),
            (i32::MIN as i64, &[0x84, 0x7f, 0xff, 0xff, 0xff]),
            (1 << 32, &[0x8b, 0x01, 0, 0, 0, 0]),
            (1 << 56, &[0x88, 0x01, 0, 0, 0, 0, 0, 0, 0]),
            (
                i64::MAX,
                &[0x88, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            ),
            (
                i64::MIN,
                &[0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            ),
        ];
        for &(v, bytes) in cases {
            assert_eq!(enc(v), bytes, "encoding {v}");
            assert_eq!(dec(bytes), v, "decoding {bytes:02x?}");
        }
    }

    #[test]
    fn the_classic_documentation_example_reads_as_minus_1025() {
        assert_eq!(dec(&[0x86, 0x04, 0x00]), -1025);
    }

    #[test]
    fn non_minimal_forms_are_read() {
        assert_eq!(dec(&[0x8f, 0x05]), 5);
        assert_eq!(dec(&[0x88, 0, 0, 0, 0, 0, 0, 0, 0x05]), 5);
    }

    #[test]
    fn round_trip_at_every_byte_boundary() {
        for shift in 0..64 {
            for delta in [-1i64, 0, 1] {
                let v = (1i64 << shift).wrapping_add(delta);
                assert_eq!(dec(&enc(v)), v);
                assert_eq!(dec(&enc(!v)), !v);
            }
        }
    }
}
