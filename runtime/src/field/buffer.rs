//! `buffer` as `Vec<u8>` (and `bytes::Bytes` with the `bytes` feature).

use std::cmp::Ordering;

use super::Field;
use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// Hadoop's `Buffer.compareTo`: unsigned bytes, then the shorter first.
#[inline]
fn buffer_cmp(a: &[u8], b: &[u8]) -> Ordering {
    a.cmp(b)
}

fn raw_buffer<'a>(input: &mut RawInput<'a>) -> Result<&'a [u8]> {
    let n = input.read_len()?;
    input.take(n)
}

bytes_field!(
    Vec<u8>,
    write_buffer,
    read_buffer,
    std::convert::identity,
    Buffer,
    buffer_cmp(&[u8]),
    raw_buffer
);
bytes_field!(
    #[cfg(feature = "bytes")]
    #[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
    bytes::Bytes,
    write_buffer,
    read_buffer,
    bytes::Bytes::from,
    Buffer,
    buffer_cmp(&[u8]),
    raw_buffer
);
