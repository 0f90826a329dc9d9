//! Strings as ZooKeeper's jute writes and reads them.
//!
//! `BinaryOutputArchive.stringToByteBuffer` encodes each UTF-16 `char` on its own in one to
//! three bytes. For text inside the Basic Multilingual Plane that is UTF-8; a character beyond
//! it is a surrogate pair in Java, so it becomes two three-byte sequences (`ed a0..af xx`,
//! `ed b0..bf xx`, as CESU-8 has it) instead of UTF-8's four bytes.
//!
//! `BinaryInputArchive.readString` is `new String(bytes, UTF_8)`: Java's UTF-8 decoder, which
//! turns malformed input into U+FFFD rather than failing. It decodes a three-byte surrogate as
//! malformed (one U+FFFD for its three bytes), so a character beyond the BMP that jute wrote
//! reads back as two U+FFFD — in ZooKeeper as here. Its rules for how many bytes one U+FFFD
//! replaces are its own (not the "maximal subpart" of `String::from_utf8_lossy`), so they are
//! written out below, after `sun.nio.cs.UTF_8.Decoder`.

/// U+FFFD, what Java's decoder puts for malformed input.
const REPL: char = '\u{FFFD}';

/// `s` as jute's writer encodes it: UTF-8, except that a character beyond U+FFFF becomes its
/// two UTF-16 surrogates, three bytes each.
pub(crate) fn encode(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    // Only a four-byte UTF-8 sequence (lead byte f0..f4) is written differently.
    if !bytes.iter().any(|&b| b >= 0xf0) {
        out.extend_from_slice(bytes);
        return;
    }
    out.reserve(bytes.len() + bytes.len() / 2);
    let mut units = [0u16; 2];
    for c in s.chars() {
        if (c as u32) < 0x10000 {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        } else {
            for &unit in c.encode_utf16(&mut units).iter() {
                out.extend_from_slice(&[
                    0xe0 | (unit >> 12) as u8,
                    0x80 | ((unit >> 6) & 0x3f) as u8,
                    0x80 | (unit & 0x3f) as u8,
                ]);
            }
        }
    }
}

/// How many bytes [`encode`] writes for `s`.
pub(crate) fn encoded_len(s: &str) -> usize {
    // Each four-byte sequence becomes six bytes.
    s.len() + 2 * s.as_bytes().iter().filter(|&&b| b >= 0xf0).count()
}

/// `bytes` as Java's `new String(bytes, UTF_8)` decodes them: valid UTF-8 as it is, each
/// malformed sequence as U+FFFD by Java's rules.
pub(crate) fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => decode_java(e.as_bytes()),
    }
}

fn is_continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

/// Java's `UTF_8.Decoder` with `CodingErrorAction.REPLACE`, byte for byte.
fn decode_java(src: &[u8]) -> String {
    let mut out = String::with_capacity(src.len() + 2);
    let n = src.len();
    let mut i = 0;
    while i < n {
        let b1 = src[i];
        let left = n - i;
        match b1 {
            0x00..=0x7f => {
                out.push(b1 as char);
                i += 1;
            }
            // Two bytes (c0 and c1 would be overlong: malformed below).
            0xc2..=0xdf => {
                if left < 2 {
                    // Input ends inside the sequence: one U+FFFD for what is left.
                    out.push(REPL);
                    break;
                }
                let b2 = src[i + 1];
                if !is_continuation(b2) {
                    out.push(REPL);
                    i += 1;
                } else {
                    let c = (u32::from(b1 & 0x1f) << 6) | u32::from(b2 & 0x3f);
                    out.push(char::from_u32(c).unwrap_or(REPL));
                    i += 2;
                }
            }
            0xe0..=0xef => {
                let malformed3_2 =
                    |b2: u8| (b1 == 0xe0 && b2 & 0xe0 == 0x80) || !is_continuation(b2);
                if left < 3 {
                    if left > 1 && malformed3_2(src[i + 1]) {
                        out.push(REPL);
                        i += 1;
                        continue;
                    }
                    out.push(REPL);
                    break;
                }
                let (b2, b3) = (src[i + 1], src[i + 2]);
                if malformed3_2(b2) || !is_continuation(b3) {
                    // `malformed3`: one byte when the second is already wrong, else two.
                    out.push(REPL);
                    i += if malformed3_2(b2) { 1 } else { 2 };
                    continue;
                }
                let c = (u32::from(b1 & 0x0f) << 12)
                    | (u32::from(b2 & 0x3f) << 6)
                    | u32::from(b3 & 0x3f);
                // A surrogate (ed a0..bf xx) is malformed as a whole: one U+FFFD.
                out.push(char::from_u32(c).unwrap_or(REPL));
                i += 3;
            }
            0xf0..=0xf7 => {
                let malformed4_2 = |b2: u8| {
                    (b1 == 0xf0 && !(0x90..=0xbf).contains(&b2))
                        || (b1 == 0xf4 && b2 & 0xf0 != 0x80)
                        || !is_continuation(b2)
                };
                if left < 4 {
                    if b1 > 0xf4 || (left > 1 && malformed4_2(src[i + 1])) {
                        out.push(REPL);
                        i += 1;
                        continue;
                    }
                    if left > 2 && !is_continuation(src[i + 2]) {
                        out.push(REPL);
                        i += 2;
                        continue;
                    }
                    out.push(REPL);
                    break;
                }
                let (b2, b3, b4) = (src[i + 1], src[i + 2], src[i + 3]);
                let c = (u32::from(b1 & 0x07) << 18)
                    | (u32::from(b2 & 0x3f) << 12)
                    | (u32::from(b3 & 0x3f) << 6)
                    | u32::from(b4 & 0x3f);
                let well_formed = is_continuation(b2)
                    && is_continuation(b3)
                    && is_continuation(b4)
                    && (0x10000..=0x10ffff).contains(&c);
                if well_formed {
                    out.push(char::from_u32(c).unwrap_or(REPL));
                    i += 4;
                    continue;
                }
                // `malformed4`: how many bytes the U+FFFD stands for.
                out.push(REPL);
                i += if b1 > 0xf4 || malformed4_2(b2) {
                    1
                } else if !is_continuation(b3) {
                    2
                } else {
                    3
                };
            }
            // A stray continuation byte, c0, c1, f8..ff.
            _ => {
                out.push(REPL);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        encode(s, &mut out);
        assert_eq!(out.len(), encoded_len(s), "{s:?}");
        out
    }

    #[test]
    fn beyond_the_bmp_is_two_three_byte_surrogates() {
        assert_eq!(enc("h\u{e9}\u{20ac}"), "h\u{e9}\u{20ac}".as_bytes());
        assert_eq!(enc("\0"), [0]);
        // U+1F600 is d83d de00 in UTF-16.
        assert_eq!(
            enc("a\u{1F600}b"),
            [b'a', 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, b'b']
        );
    }

    #[test]
    fn java_reads_its_own_surrogates_as_replacement_characters() {
        assert_eq!(decode(enc("a\u{1F600}b")), "a\u{FFFD}\u{FFFD}b");
        assert_eq!(decode("\u{1F600}".as_bytes().to_vec()), "\u{1F600}");
    }

    #[test]
    fn malformed_input_is_replaced_as_java_replaces_it() {
        let cases: &[(&[u8], &str)] = &[
            (&[0xc3], "\u{FFFD}"),
            (&[0xc3, b'a'], "\u{FFFD}a"),
            (&[0xc0, 0x80], "\u{FFFD}\u{FFFD}"),
            (&[0xe2, 0x82], "\u{FFFD}"),
            (&[0xe2, b'a'], "\u{FFFD}a"),
            (&[0xe0, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
            (&[0xe2, 0x82, b'a'], "\u{FFFD}a"),
            (&[0xf0, 0x9f, 0x98], "\u{FFFD}"),
            (&[0xf0, 0x9f, b'a', b'b'], "\u{FFFD}ab"),
            (
                &[0xf5, 0x80, 0x80, 0x80],
                "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}",
            ),
            (&[0xff, b'x'], "\u{FFFD}x"),
        ];
        for &(bytes, want) in cases {
            assert_eq!(decode(bytes.to_vec()), want, "{bytes:02x?}");
        }
    }
}
