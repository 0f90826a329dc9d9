//! `Box<T>` is transparent: it maps to whatever `T` maps to (and makes recursive records
//! possible).

use std::cmp::Ordering;

use super::Field;
use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

impl<T: Field> Field for Box<T> {
    #[inline]
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        (**self).write(out, tag)
    }
    #[inline]
    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        T::read(input, tag).map(Box::new)
    }
    fn field_type(schema: &mut SchemaBuilder) -> FieldType {
        T::field_type(schema)
    }
    #[inline]
    fn cmp_hadoop(&self, other: &Self) -> Ordering {
        (**self).cmp_hadoop(other)
    }
    #[inline]
    fn key_cmp(&self, other: &Self) -> Ordering {
        (**self).key_cmp(other)
    }
    #[inline]
    fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
        (**self).partial_cmp_hadoop(other)
    }
    #[inline]
    fn partial_cmp_ties(&self, other: &Self) -> Option<Ordering> {
        (**self).partial_cmp_ties(other)
    }
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        T::cmp_raw(a, b)
    }
    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        T::skip_raw(input)
    }
}
