//! A chunk's record table (`u32` LE length, bytes; repeated `num_records` times), and the
//! checks that turn a header plus stored payload into a valid chunk.

use std::ops::Range;

use super::compress::decompress;
use super::recovery::Damage;
use super::{ChunkHeader, Compressor, Layout};

/// Appends one record, length-prefixed, to a chunk's raw payload.
#[inline]
pub(crate) fn push_record(raw: &mut Vec<u8>, record: &[u8]) {
    raw.extend_from_slice(&(record.len() as u32).to_le_bytes());
    raw.extend_from_slice(record);
}

/// Where a walk of a record table stands: the index of the next record and the offset of
/// its length.
#[derive(Debug, Default, Clone, Copy)]
struct Walk {
    pos: usize,
    index: u32,
}

impl Walk {
    /// Steps over the records that lie wholly inside `raw` (the payload's bytes so far, or
    /// all of them), handing each one's byte range to `each`: never fails, stops where the
    /// table cannot go on ([`walk_from`] says why).
    #[inline]
    fn advance(&mut self, raw: &[u8], num_records: u32, mut each: impl FnMut(Range<usize>)) {
        while self.index < num_records {
            let Some(len) = raw.get(self.pos..self.pos + 4) else {
                break;
            };
            let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
            let start = self.pos + 4;
            if len > raw.len() - start {
                break;
            }
            each(start..start + len);
            self.pos = start + len;
            self.index += 1;
        }
    }
}

/// Walks the record table of a raw payload, checking it holds exactly `num_records` records
/// and nothing after them; `each` gets every record's byte range.
fn walk_records(
    raw: &[u8],
    num_records: u32,
    each: impl FnMut(Range<usize>),
) -> Result<(), Damage> {
    walk_from(raw, num_records, Walk::default(), each)
}

/// [`walk_records`] from where `from` stands (`each` gets the records from there on).
fn walk_from(
    raw: &[u8],
    num_records: u32,
    mut walk: Walk,
    each: impl FnMut(Range<usize>),
) -> Result<(), Damage> {
    walk.advance(raw, num_records, each);
    let (i, pos) = (walk.index, walk.pos);
    if i < num_records {
        return Err(Damage::Records(match raw.get(pos..pos + 4) {
            None => format!(
                "payload of {} bytes ends before record {i} of {num_records}",
                raw.len()
            ),
            Some(len) => format!(
                "record {i} claims {} bytes, {} remain in the payload",
                u32::from_le_bytes(len.try_into().unwrap()),
                raw.len() - pos - 4
            ),
        }));
    }
    if pos != raw.len() {
        return Err(Damage::Records(format!(
            "{} byte(s) after the last of {num_records} records",
            raw.len() - pos
        )));
    }
    Ok(())
}

/// [`walk_records`], returning the records' byte ranges (into `spans`, cleared first), for
/// readers that index records.
fn record_spans(raw: &[u8], num_records: u32, spans: &mut Vec<Range<usize>>) -> Result<(), Damage> {
    spans.clear();
    // Every record takes at least 4 bytes, so this reservation is bounded by the payload.
    spans.reserve((num_records as usize).min(raw.len() / 4));
    walk_records(raw, num_records, |span| spans.push(span))
}

/// The record at `*pos` of a raw payload whose table [`walk_records`] checked, moving `pos`
/// past it: how sequential readers step through a chunk without a table of ranges. `None`
/// only at the end of the payload.
#[inline]
pub(crate) fn next_record<'a>(raw: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    let len = u32::from_le_bytes(raw.get(*pos..*pos + 4)?.try_into().ok()?) as usize;
    let record = raw.get(*pos + 4..(*pos + 4).checked_add(len)?)?;
    *pos += 4 + len;
    Some(record)
}

/// Checks what a header alone can tell: a known compressor, sizes within `limit`, and a
/// record count the payload could hold. An unknown compressor in a header that reads well
/// in the other layout than `layout` is [`Damage::OtherLayout`].
pub(crate) fn check_header(
    header: &ChunkHeader,
    layout: Layout,
    limit: u64,
) -> Result<Compressor, Damage> {
    let compressor = header.compressor().ok_or_else(|| {
        let other = match layout {
            Layout::Go => Layout::Cpp,
            Layout::Cpp => Layout::Go,
        };
        match ChunkHeader::parse(&header.to_bytes(layout), other) {
            Some(h) if h.compressor().is_some() => Damage::OtherLayout {
                id: header.compressor,
                layout: other,
            },
            _ => Damage::UnknownCompressor(header.compressor),
        }
    })?;
    if u64::from(header.compressed_size) > limit {
        return Err(Damage::TooLarge {
            what: "stored payload",
            size: header.compressed_size.into(),
            limit,
        });
    }
    // Each record needs a 4-byte length: the (decompressed) payload must hold them.
    let min_raw = 4 * u64::from(header.num_records);
    let room = match compressor {
        Compressor::None => u64::from(header.compressed_size),
        _ => limit,
    };
    if min_raw > room {
        return Err(Damage::Records(format!(
            "{} records need at least {min_raw} bytes, the payload can hold {room}",
            header.num_records
        )));
    }
    Ok(compressor)
}

/// Whether the CRC-32 of a stored payload is the one its header holds: the first check on
/// a payload, as in PaddlePaddle's reader, before [`open_verified`].
pub(crate) fn verify_crc(header: &ChunkHeader, stored: &[u8]) -> Result<(), Damage> {
    check_crc(header, crc32fast::hash(stored))
}

/// Whether the payload's CRC-32, `computed`, is the one its header holds.
fn check_crc(header: &ChunkHeader, computed: u32) -> Result<(), Damage> {
    if computed == header.checksum {
        Ok(())
    } else {
        Err(Damage::Checksum {
            stored: header.checksum,
            computed,
        })
    }
}

/// The checks [`verify_crc`] and [`open_verified`] make, made while a stored payload arrives piece by piece, so
/// that each piece is checked while it is still in cache: its CRC-32 and, uncompressed,
/// its record table as far as the bytes go. [`Arrival::open`] finishes them.
#[derive(Debug)]
pub(crate) struct Arrival {
    crc: crc32fast::Hasher,
    num_records: u32,
    /// `None` for a compressed payload, whose table is walked once decompressed.
    walk: Option<Walk>,
}

impl Arrival {
    pub(crate) fn new(header: &ChunkHeader, compressor: Compressor) -> Self {
        Arrival {
            crc: crc32fast::Hasher::new(),
            num_records: header.num_records,
            walk: (compressor == Compressor::None).then(Walk::default),
        }
    }

    /// The payload so far is `stored`; its last `new` bytes just arrived.
    #[inline]
    pub(crate) fn arrived(&mut self, stored: &[u8], new: usize) {
        self.crc.update(&stored[stored.len() - new..]);
        if let Some(walk) = &mut self.walk {
            walk.advance(stored, self.num_records, drop);
        }
    }

    /// [`open_verified`] of the whole payload, `stored`, all of which has arrived, its CRC
    /// checked.
    pub(crate) fn open(
        self,
        header: &ChunkHeader,
        compressor: Compressor,
        stored: &[u8],
        limit: u64,
        scratch: &mut Vec<u8>,
    ) -> Result<bool, Damage> {
        check_crc(header, self.crc.finalize())?;
        match self.walk {
            Some(walk) => walk_from(stored, header.num_records, walk, drop).map(|()| false),
            None => open_verified(header, compressor, stored, limit, scratch, None),
        }
    }
}

/// Opens a stored payload whose CRC was checked ([`verify_crc`]): decompresses it into
/// `scratch` when compressed, checks its record table, and fills `spans` with the records'
/// ranges when given. Returns whether the records live in `scratch` (else in `stored`).
pub(crate) fn open_verified(
    header: &ChunkHeader,
    compressor: Compressor,
    stored: &[u8],
    limit: u64,
    scratch: &mut Vec<u8>,
    spans: Option<&mut Vec<Range<usize>>>,
) -> Result<bool, Damage> {
    let in_scratch = compressor != Compressor::None;
    let raw = if in_scratch {
        decompress(compressor, stored, limit, scratch)?;
        &scratch[..]
    } else {
        stored
    };
    match spans {
        Some(spans) => record_spans(raw, header.num_records, spans)?,
        None => walk_records(raw, header.num_records, drop)?,
    }
    Ok(in_scratch)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A raw payload of records of the given lengths, then `tail` (extra bytes, or cut).
    fn table(lengths: &[u8], tail: i8) -> Vec<u8> {
        let mut raw = Vec::new();
        for (i, &len) in lengths.iter().enumerate() {
            push_record(&mut raw, &vec![i as u8; len.into()]);
        }
        match tail {
            t if t >= 0 => raw.extend(std::iter::repeat_n(7, t as usize)),
            t => raw.truncate(raw.len().saturating_sub(t.unsigned_abs().into())),
        }
        raw
    }

    proptest! {
        /// Checked piece by piece as it arrives, any payload gets exactly the verdict of
        /// checking it whole: CRC first, then the record table, with the same message.
        #[test]
        fn checks_on_arrival_are_the_whole_payloads(
            lengths in prop::collection::vec(0u8..40, 0..30),
            tail in -6i8..6,
            claimed in prop::option::of(0u32..40),
            bad_crc in any::<bool>(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            let raw = table(&lengths, tail);
            let header = ChunkHeader {
                checksum: crc32fast::hash(&raw) ^ u32::from(bad_crc),
                compressor: 0,
                compressed_size: raw.len() as u32,
                num_records: claimed.unwrap_or(lengths.len() as u32),
            };
            let whole = verify_crc(&header, &raw)
                .and_then(|()| open_verified(&header, Compressor::None, &raw, u64::MAX, &mut Vec::new(), None));
            let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(raw.len() + 1)).collect();
            cuts.push(raw.len());
            cuts.sort_unstable();
            let mut arrival = Arrival::new(&header, Compressor::None);
            let mut at = 0;
            for cut in cuts {
                if cut > at {
                    arrival.arrived(&raw[..cut], cut - at);
                    at = cut;
                }
            }
            let arrived = arrival.open(&header, Compressor::None, &raw, u64::MAX, &mut Vec::new());
            prop_assert_eq!(format!("{arrived:?}"), format!("{whole:?}"));
        }
    }
}
