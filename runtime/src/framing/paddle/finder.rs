//! Finding chunks in a window of the stream: the push-style core of the recovering std
//! reader and of the tokio codec. It looks at whatever bytes the caller has, says which
//! chunk (header and CRC checked) starts where, or how many more bytes it needs, and, when
//! recovering, scans damaged stretches for the next valid chunk.
//!
//! Recovery is linear in the input, however it is forged. Scanning tries every magic
//! number as a chunk start, and a forged header may claim a payload of up to the size cap
//! at every one of them; checking each claim by hashing its payload would cost the claim
//! size per candidate, quadratic in all. Instead a [`RangeCrc`] keeps CRC-32 checkpoints of
//! the stream every [`STEP`] bytes, so the CRC of any claimed range costs at most `2 × STEP`
//! bytes of hashing plus a combine. A chunk whose CRC matches but whose payload is still bad
//! (a record table or compressed stream that does not parse) is skipped as a whole: the CRC
//! vouches for its extent, and decompressing is the one cost paid per candidate.

use std::collections::VecDeque;

use memchr::memmem;

use super::chunk::check_header;
use super::header::{HEADER_LEN, MAGIC_BYTES};
use super::recovery::{Damage, Skipped};
use super::{ChunkHeader, Compressor, PaddleReadOptions};

/// Distance between CRC checkpoints: the most bytes hashed to find one end of a range.
const STEP: u64 = 1024;

/// CRC-32 of any byte range of the stream from checkpoints, without rehashing the range.
///
/// `checkpoints[k]` is the CRC-32 of the stream from `origin` to `start + k × STEP`. The
/// CRC of `[a, b)` follows from the prefix CRCs `P(a)` and `P(b)`: appending `b - a` bytes
/// to a CRC state is linear, so `crc(a..b) = P(b) ^ shift(P(a), b - a)`, where `shift`
/// appends zeros (crc32fast's `combine` with an all-zero CRC).
#[derive(Debug)]
struct RangeCrc {
    /// Stream offset of `checkpoints[0]`.
    start: u64,
    checkpoints: VecDeque<u32>,
}

impl RangeCrc {
    fn at(origin: u64) -> Self {
        RangeCrc {
            start: origin,
            checkpoints: VecDeque::from([0]),
        }
    }

    /// Drops the checkpoints no longer needed once nothing before `pos` is asked for.
    fn forget_before(&mut self, pos: u64) {
        while self.checkpoints.len() > 1 && self.start + STEP <= pos {
            self.checkpoints.pop_front();
            self.start += STEP;
        }
    }

    /// The CRC-32 of the stream from the origin to `x`; `buf` holds the stream from
    /// `base` (at most `start`) to at least `x`.
    fn prefix(&mut self, buf: &[u8], base: u64, x: u64) -> u32 {
        debug_assert!(base <= self.start && self.start <= x);
        let k = ((x - self.start) / STEP) as usize;
        while self.checkpoints.len() <= k {
            let i = self.checkpoints.len() - 1;
            let from = (self.start + i as u64 * STEP - base) as usize;
            let mut h = crc32fast::Hasher::new_with_initial(self.checkpoints[i]);
            h.update(&buf[from..from + STEP as usize]);
            self.checkpoints.push_back(h.finalize());
        }
        let from = (self.start + k as u64 * STEP - base) as usize;
        let mut h = crc32fast::Hasher::new_with_initial(self.checkpoints[k]);
        h.update(&buf[from..(x - base) as usize]);
        h.finalize()
    }

    /// The CRC-32 of the stream range `[a, b)`.
    fn range(&mut self, buf: &[u8], base: u64, a: u64, b: u64) -> u32 {
        let pa = self.prefix(buf, base, a);
        let pb = self.prefix(buf, base, b);
        let mut shifted = crc32fast::Hasher::new_with_initial(pa);
        shifted.combine(&crc32fast::Hasher::new_with_initial_len(0, b - a));
        pb ^ shifted.finalize()
    }
}

/// What [`ChunkFinder::find`] found.
#[derive(Debug)]
pub(crate) enum Found {
    /// A chunk whose header and CRC check out: `len` bytes (header included) at stream
    /// offset `offset`. The caller opens it, then calls [`ChunkFinder::accept`] or
    /// [`ChunkFinder::reject`].
    Chunk {
        offset: u64,
        len: usize,
        header: ChunkHeader,
        compressor: Compressor,
    },
    /// (Strict mode) the chunk at `offset` is damaged; the finder is done. (The strict std
    /// reader has its own path; the codec reports these.)
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    Damaged { offset: u64, damage: Damage },
    /// More input is needed: at least `want` bytes from stream offset `keep`. Bytes before
    /// `keep` are no longer needed.
    More { keep: u64, want: usize },
    /// The input ended; (recovering mode) with the damaged stretch it ended in, if any.
    End { skipped: Option<Skipped> },
}

/// What [`ChunkFinder::examine`] made of the bytes at one offset.
enum Verdict {
    Chunk(ChunkHeader, Compressor, usize),
    Bad(Damage, Option<ChunkHeader>),
    /// This many bytes from the offset are needed to decide.
    More(usize),
    End,
}

/// The chunk finder; see the module documentation.
#[derive(Debug)]
pub(crate) struct ChunkFinder {
    options: PaddleReadOptions,
    /// Where the next chunk is expected or, inside a damaged stretch, the next offset to
    /// try as one.
    pos: u64,
    /// (Recovering) the damaged stretch being skipped: its start, its first damage and the
    /// header there, if any.
    damaged: Option<(u64, Damage, Option<ChunkHeader>)>,
    /// The chunk handed out and not yet accepted or rejected: offset, length, header.
    handed: Option<(u64, u64, ChunkHeader)>,
    crc: RangeCrc,
    failed: bool,
}

impl ChunkFinder {
    /// A finder whose first chunk is expected at stream offset `offset`.
    pub(crate) fn at(options: PaddleReadOptions, offset: u64) -> Self {
        ChunkFinder {
            options,
            pos: offset,
            damaged: None,
            handed: None,
            crc: RangeCrc::at(offset),
            failed: false,
        }
    }

    /// Looks for the next chunk in `buf`, which holds the stream from offset `base` on (at
    /// least from the last `keep`, at most up to where the input ends when `eof`).
    pub(crate) fn find(&mut self, buf: &[u8], base: u64, eof: bool) -> Found {
        debug_assert!(
            self.handed.is_none(),
            "accept or reject the last chunk first"
        );
        if self.failed {
            return Found::End { skipped: None };
        }
        let end = base + buf.len() as u64;
        loop {
            debug_assert!(base <= self.pos && self.pos <= end);
            let at = (self.pos - base) as usize;
            if self.damaged.is_none() {
                // A chunk is expected here.
                match self.examine(buf, base, eof) {
                    Verdict::Chunk(header, compressor, len) => {
                        return self.hand(header, compressor, len)
                    }
                    Verdict::More(want) => return self.more(want),
                    Verdict::End => return Found::End { skipped: None },
                    Verdict::Bad(damage, header) => {
                        if !self.options.recover {
                            self.failed = true;
                            return Found::Damaged {
                                offset: self.pos,
                                damage,
                            };
                        }
                        self.damaged = Some((self.pos, damage, header));
                        self.pos += 1;
                    }
                }
                continue;
            }
            // Inside a damaged stretch: try the next magic number.
            match memmem::find(&buf[at..], &MAGIC_BYTES) {
                None if eof => {
                    self.pos = end;
                    return Found::End {
                        skipped: self.close(end),
                    };
                }
                None => {
                    // Keep the last 3 bytes: a magic number may straddle the refill.
                    self.pos = self
                        .pos
                        .max(end.saturating_sub(MAGIC_BYTES.len() as u64 - 1));
                    return self.more(HEADER_LEN);
                }
                Some(i) => {
                    self.pos += i as u64;
                    match self.examine(buf, base, eof) {
                        Verdict::Chunk(header, compressor, len) => {
                            return self.hand(header, compressor, len)
                        }
                        Verdict::More(want) => return self.more(want),
                        Verdict::Bad(..) | Verdict::End => self.pos += 1,
                    }
                }
            }
        }
    }

    /// The chunk handed out by `find` opened well: returns the damaged stretch it ends.
    pub(crate) fn accept(&mut self) -> Option<Skipped> {
        let (offset, len, _) = self.handed.take().expect("a chunk was handed out");
        let skipped = self.close(offset);
        self.jump(offset + len);
        skipped
    }

    /// The chunk handed out by `find` did not open (its CRC matched, so its extent is
    /// trusted and it is skipped whole). In strict mode the finder is done.
    pub(crate) fn reject(&mut self, damage: Damage) {
        let (offset, len, header) = self.handed.take().expect("a chunk was handed out");
        if !self.options.recover {
            self.failed = true;
            return;
        }
        self.damaged.get_or_insert((offset, damage, Some(header)));
        self.jump(offset + len);
    }

    /// Moves past a chunk; checkpoints restart there (the caller drops what precedes it).
    fn jump(&mut self, to: u64) {
        self.pos = to;
        self.crc = RangeCrc::at(to);
    }

    fn hand(&mut self, header: ChunkHeader, compressor: Compressor, len: usize) -> Found {
        self.handed = Some((self.pos, len as u64, header));
        Found::Chunk {
            offset: self.pos,
            len,
            header,
            compressor,
        }
    }

    fn more(&mut self, want: usize) -> Found {
        self.crc.forget_before(self.pos);
        // Keep from the first checkpoint still needed (it is never past `pos`).
        let keep = self.crc.start.min(self.pos);
        Found::More {
            keep,
            want: (self.pos - keep) as usize + want,
        }
    }

    /// Ends the damaged stretch (if any) at `end`.
    fn close(&mut self, end: u64) -> Option<Skipped> {
        self.damaged.take().map(|(offset, reason, header)| Skipped {
            offset,
            bytes: end - offset,
            reason,
            header,
        })
    }

    /// Checks the chunk that would start at `pos`, exactly as the strict std reader does:
    /// magic, a whole header, the header's fields, a whole payload, its CRC.
    fn examine(&mut self, buf: &[u8], base: u64, eof: bool) -> Verdict {
        let at = (self.pos - base) as usize;
        let avail = &buf[at..];
        if avail.is_empty() {
            return if eof {
                Verdict::End
            } else {
                Verdict::More(HEADER_LEN)
            };
        }
        let n = avail.len().min(MAGIC_BYTES.len());
        if avail[..n] != MAGIC_BYTES[..n] {
            if n < MAGIC_BYTES.len() && !eof {
                // The std reader reports the four bytes found: wait for them.
                return Verdict::More(HEADER_LEN);
            }
            let mut found = [0u8; 4];
            found[..n].copy_from_slice(&avail[..n]);
            let found = u32::from_le_bytes(found);
            return Verdict::Bad(Damage::BadMagic { found }, None);
        }
        let Some(raw) = avail.first_chunk::<HEADER_LEN>() else {
            if eof {
                let have = avail.len() as u64;
                return Verdict::Bad(Damage::TruncatedHeader { have }, None);
            }
            return Verdict::More(HEADER_LEN);
        };
        let header = ChunkHeader::parse(raw, self.options.layout).expect("magic checked");
        let compressor =
            match check_header(&header, self.options.layout, self.options.max_chunk_bytes) {
                Ok(c) => c,
                Err(damage) => return Verdict::Bad(damage, Some(header)),
            };
        let len = HEADER_LEN + header.compressed_size as usize;
        if avail.len() < len {
            if eof {
                let damage = Damage::TruncatedPayload {
                    have: (avail.len() - HEADER_LEN) as u64,
                    want: header.compressed_size.into(),
                };
                return Verdict::Bad(damage, Some(header));
            }
            return Verdict::More(len);
        }
        let computed = if self.options.recover {
            let payload = self.pos + HEADER_LEN as u64;
            self.crc.range(
                buf,
                base,
                payload,
                payload + u64::from(header.compressed_size),
            )
        } else {
            crc32fast::hash(&avail[HEADER_LEN..len])
        };
        if computed != header.checksum {
            let damage = Damage::Checksum {
                stored: header.checksum,
                computed,
            };
            return Verdict::Bad(damage, Some(header));
        }
        Verdict::Chunk(header, compressor, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_crcs_agree_with_hashing_the_range() {
        let data: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for origin in [0u64, 1, 700] {
            let mut crc = RangeCrc::at(origin);
            let buf = &data[origin as usize..];
            for (a, b) in [
                (0, 0),
                (0, 1),
                (3, 1500),
                (1023, 1025),
                (2047, 4999),
                (4999, 4999),
            ] {
                let (a, b) = (origin + a, (origin + b).min(data.len() as u64));
                if a > b {
                    continue;
                }
                let want = crc32fast::hash(&data[a as usize..b as usize]);
                assert_eq!(crc.range(buf, origin, a, b), want, "{origin} {a}..{b}");
            }
            // Forgetting checkpoints keeps later ranges right.
            crc.forget_before(origin + 3000);
            let base = crc.start;
            let buf = &data[base as usize..];
            let (a, b) = (origin + 3100, data.len() as u64);
            let want = crc32fast::hash(&data[a as usize..b as usize]);
            assert_eq!(crc.range(buf, base, a, b), want);
        }
    }
}
