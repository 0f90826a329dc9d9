//! Reading that retries when a read is interrupted by a signal, as `read_exact` and
//! `read_to_end` do internally but a single `read` does not.

use std::io::{ErrorKind, Read, Result};

/// Reads into `buf` once, retrying while the read is interrupted: the bytes read, 0 at the end
/// of input (or for an empty `buf`).
#[inline]
pub(crate) fn read_some<R: Read + ?Sized>(reader: &mut R, buf: &mut [u8]) -> Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Reads once into `buf[*end..]`, as [`read_some`] does, and moves `end` past the bytes read:
/// whether any came. At the end of the input it sets `eof` instead.
#[inline]
pub(crate) fn read_more<R: Read + ?Sized>(
    reader: &mut R,
    buf: &mut [u8],
    end: &mut usize,
    eof: &mut bool,
) -> Result<bool> {
    match read_some(reader, &mut buf[*end..])? {
        0 => {
            *eof = true;
            Ok(false)
        }
        n => {
            *end += n;
            Ok(true)
        }
    }
}
