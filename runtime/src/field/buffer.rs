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

impl Field for Vec<u8> {
    #[inline]
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.write_buffer(self, tag)
    }
    #[inline]
    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.read_buffer(tag)
    }
    fn field_type(_: &mut SchemaBuilder) -> FieldType {
        FieldType::Buffer
    }
    #[inline]
    fn cmp_hadoop(&self, other: &Self) -> Ordering {
        buffer_cmp(self, other)
    }
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        let x = raw_buffer(a)?;
        let y = raw_buffer(b)?;
        Ok(buffer_cmp(x, y))
    }
    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        raw_buffer(input).map(drop)
    }
}

#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
impl Field for bytes::Bytes {
    #[inline]
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.write_buffer(self, tag)
    }
    #[inline]
    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        input.read_buffer(tag).map(bytes::Bytes::from)
    }
    fn field_type(_: &mut SchemaBuilder) -> FieldType {
        FieldType::Buffer
    }
    #[inline]
    fn cmp_hadoop(&self, other: &Self) -> Ordering {
        buffer_cmp(self, other)
    }
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        <Vec<u8> as Field>::cmp_raw(a, b)
    }
    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        <Vec<u8> as Field>::skip_raw(input)
    }
}
