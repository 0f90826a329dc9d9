//! The reads that go through [`Filters`]: a record as a [`Value`] or into a typed record, and
//! the empty values a field-by-field read ([`ByField`]) gives the fields the data lacks. They
//! are where the filters meet the readers that use them (a [`FilteredInput`], the [`Value`]
//! codec, [`Record`]), so the filters themselves depend on none of those.

use super::by_field::ByField;
use super::filter::Filters;
use super::filtered_input::FilteredInput;
use crate::archive::RecordInput;
use crate::error::Result;
use crate::field::Field;
use crate::record::Record;
use crate::value::{self, Value};

impl Filters {
    /// Reads one record of the reader's type, written under `tag`, as a [`Value`].
    pub fn read_record<I: RecordInput + ?Sized>(&self, input: &mut I, tag: &str) -> Result<Value> {
        if self.identity {
            return value::read_checked(input, &self.schema, &self.root, tag);
        }
        let mut input = FilteredInput::new(input, self, &self.root);
        value::read_checked(&mut input, &self.schema, &self.root, tag)
    }

    /// Reads one record written under `tag` into `T`, whose schema the filters were built
    /// for (a record of another type is an error, not a misread).
    #[inline(always)]
    pub(crate) fn read_typed<T: Record, I: RecordInput + ?Sized>(
        &self,
        input: &mut I,
        tag: &str,
    ) -> Result<T> {
        if self.identity {
            return T::read_from(input, tag);
        }
        if T::__BY_FIELD && self.by_field {
            if let Some(plan) = self.plan(self.reader) {
                return T::__read_by_field(input, tag, &ByField::new(self, plan));
            }
        }
        self.read_through::<T, I>(input, tag)
    }

    /// [`Filters::read_typed`] through a [`FilteredInput`]: out of line, so that the usual
    /// paths above are inlined into the reader's loop.
    #[inline(never)]
    fn read_through<T: Record, I: RecordInput + ?Sized>(
        &self,
        input: &mut I,
        tag: &str,
    ) -> Result<T> {
        T::read_from(&mut FilteredInput::new(input, self, &self.root), tag)
    }
}

impl ByField<'_> {
    /// The empty value of a reader's field the data lacks (`input` is not read).
    #[inline]
    pub fn empty<F: Field, I: RecordInput + ?Sized>(&self, input: &mut I, tag: &str) -> Result<F> {
        match F::__empty() {
            Some(empty) => Ok(empty),
            None => self.read_empty(input, tag),
        }
    }

    #[cold]
    fn read_empty<F: Field, I: RecordInput + ?Sized>(&self, input: &mut I, tag: &str) -> Result<F> {
        F::read(&mut FilteredInput::lacking(input, self.filters), tag)
    }
}
