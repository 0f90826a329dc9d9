//! A chunk's record table (`u32` LE length, bytes; repeated `num_records` times), and the
//! checks that turn a header plus stored payload into a valid chunk.

use std::ops::Range;

use super::compress::decompress;
use super::recovery::Damage;
use super::{ChunkHeader, Compressor};

/// Appends one record, length-prefixed, to a chunk's raw payload.
#[inline]
pub(crate) fn push_record(raw: &mut Vec<u8>, record: &[u8]) {
    raw.extend_from_slice(&(record.len() as u32).to_le_bytes());
    raw.extend_from_slice(record);
}

/// Walks the record table of a raw payload, checking it holds exactly `num_records` records
/// and nothing after them; `each` gets every record's byte range.
fn walk_records(
    raw: &[u8],
    num_records: u32,
    mut each: impl FnMut(Range<usize>),
) -> Result<(), Damage> {
    let mut pos = 0usize;
    for i in 0..num_records {
        let Some(len) = raw.get(pos..pos + 4) else {
            return Err(Damage::Records(format!(
                "payload of {} bytes ends before record {i} of {num_records}",
                raw.len()
            )));
        };
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        let start = pos + 4;
        if len > raw.len() - start {
            return Err(Damage::Records(format!(
                "record {i} claims {len} bytes, {} remain in the payload",
                raw.len() - start
            )));
        }
        each(start..start + len);
        pos = start + len;
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
/// record count the payload could hold.
pub(crate) fn check_header(header: &ChunkHeader, limit: u64) -> Result<Compressor, Damage> {
    let compressor = header
        .compressor()
        .ok_or(Damage::UnknownCompressor(header.compressor))?;
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

/// Verifies a stored payload against its header (CRC first, as PaddlePaddle's reader does),
/// decompresses it into `scratch` when compressed, checks its record table, and fills
/// `spans` with the records' ranges when given. Returns whether the records live in
/// `scratch` (else in `stored`).
pub(crate) fn open_chunk(
    header: &ChunkHeader,
    compressor: Compressor,
    stored: &[u8],
    limit: u64,
    scratch: &mut Vec<u8>,
    spans: Option<&mut Vec<Range<usize>>>,
) -> Result<bool, Damage> {
    let computed = crc32fast::hash(stored);
    if computed != header.checksum {
        return Err(Damage::Checksum {
            stored: header.checksum,
            computed,
        });
    }
    open_verified(header, compressor, stored, limit, scratch, spans)
}

/// [`open_chunk`] for a payload whose CRC was already checked.
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
