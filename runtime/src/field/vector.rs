//! `vector<T>` as `Vec<T>`.

use std::cmp::Ordering;

use super::{raw_sequence, Field};
use crate::archive::binary::RawInput;
use crate::archive::{Index, RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// Element-wise over the common prefix, then the shorter first (Hadoop's vector compare).
pub(crate) fn lexicographic<T>(a: &[T], b: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| cmp(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

/// [`lexicographic`] for partial orders: the first element pair that is not
/// `Some(Equal)` decides, `None` included.
pub(crate) fn partial_lexicographic<T>(
    a: &[T],
    b: &[T],
    cmp: impl Fn(&T, &T) -> Option<Ordering>,
) -> Option<Ordering> {
    a.iter()
        .zip(b)
        .map(|(x, y)| cmp(x, y))
        .find(|o| *o != Some(Ordering::Equal))
        .unwrap_or_else(|| Some(a.len().cmp(&b.len())))
}

/// The elements of a vector started with `index`, and its end.
pub(crate) fn read_elements<T: Field, I: RecordInput + ?Sized>(
    input: &mut I,
    mut index: Index,
    tag: &str,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(index.size_hint());
    while input.next_element(&mut index)? {
        let element = T::read(input, tag).map_err(|e| e.in_index(out.len() as u64))?;
        out.push(element);
    }
    input.end_vector(tag)?;
    Ok(out)
}

impl<T: Field> Field for Vec<T> {
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        out.start_vector(self.len(), tag)?;
        for (i, element) in self.iter().enumerate() {
            element.write(out, tag).map_err(|e| e.in_index(i as u64))?;
        }
        out.end_vector(tag)
    }

    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        let index = input.start_vector(tag)?;
        read_elements(input, index, tag)
    }

    fn field_type(schema: &mut SchemaBuilder) -> FieldType {
        FieldType::Vector(Box::new(T::field_type(schema)))
    }

    lifted_comparisons!(lexicographic, partial_lexicographic);

    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        raw_sequence::compare(a, b, T::cmp_raw)
    }

    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        raw_sequence::skip(input, T::skip_raw)
    }
}
