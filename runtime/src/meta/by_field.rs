//! [`ByField`]: a filtered record read straight into a derived record, one writer's field at
//! a time, in the writer's order. `#[derive(Record)]` generates the loop
//! (`Record::__read_by_field`); this is what it calls. It serves records whose fields hold
//! no filtered record (the usual case), in any order: reordered fields cost nothing extra,
//! where a `FilteredInput` would read them whole into a `Value` first. The empty values of
//! the fields the data lacks are read through one (`meta::read`).

use super::filter::{skip, Filters, Plan};
use super::FieldTypeInfo;
use crate::archive::RecordInput;
use crate::error::Result;

/// One record type's filter, as a derived `__read_by_field` follows it: the writer's fields,
/// each with the index of the reader's field it is read into, or none (skipped). Fields the
/// data lacks read as their empty values.
#[doc(hidden)]
pub struct ByField<'f> {
    pub(super) filters: &'f Filters,
    plan: &'f Plan,
}

impl<'f> ByField<'f> {
    pub(crate) fn new(filters: &'f Filters, plan: &'f Plan) -> Self {
        ByField { filters, plan }
    }

    /// The writer's fields in the writer's order, each with the reader's field it fills.
    #[inline(always)]
    pub fn steps(&self) -> impl Iterator<Item = (&'f FieldTypeInfo, Option<usize>)> + 'f {
        let plan: &'f Plan = self.plan;
        plan.fields.iter().zip(plan.targets.iter().copied())
    }

    /// Reads past a writer's field the reader lacks.
    #[inline]
    pub fn skip<I: RecordInput + ?Sized>(
        &self,
        input: &mut I,
        field: &FieldTypeInfo,
    ) -> Result<()> {
        skip(input, &field.type_id, &field.name).map_err(|e| e.in_field(&field.name))
    }
}
