//! [`FilteredInput`]: data written with a writer's type information, read through
//! [`Filters`] as if it had been written with the reader's schema. Whatever reads the
//! reader's type from it — a typed record's `read_from`, the schema-driven [`Value`] codec —
//! sees the reader's fields in the reader's order.

use std::ops::Range;

use super::filter::{skip, Filters, Plan, Step};
use super::FieldTypeInfo;
use crate::archive::{Index, RecordInput, DEFAULT_MAX_DEPTH};
use crate::error::{Error, ErrorKind, Position, Result};
use crate::schema::{FieldDef, FieldType, RecordId};
use crate::value::{self, Value, ValueInput};

/// A [`RecordInput`] over `input` that applies `filters`.
///
/// It follows the reader's schema as the reader walks it, one value at a time. A record
/// with a filter whose fields the writer wrote in the reader's order (the usual case:
/// fields added and removed) is read straight from the input: before each reader field,
/// the writer's fields the reader lacks are skipped, and a field the data lacks reads as its
/// empty value without touching the input. A record whose fields were reordered is read
/// whole first, by the same rules, and its values handed out in the reader's order. Values
/// without a filtered record below them are read as written.
pub(crate) struct FilteredInput<'f, 'i, I: ?Sized> {
    input: &'i mut I,
    filters: &'f Filters,
    /// Records, vectors and maps open in a value read as written (no filter below).
    through: usize,
    /// Records, vectors and maps open in a value the data lacks (all empty).
    empty: usize,
    /// Where the reader is in the innermost record, vector or map it follows.
    frame: Frame<'f>,
    /// The frames it left to enter the current one, innermost last.
    outer: Vec<Frame<'f>>,
}

/// What the reader is in.
enum Frame<'f> {
    /// A record with a filter whose fields come in the reader's order, and the next reader
    /// field.
    Filtered {
        fields: &'f [FieldDef],
        written: &'f [FieldTypeInfo],
        steps: &'f [Step],
        tail: &'f Range<usize>,
        next: usize,
    },
    /// Nothing yet: the first value read is of this type.
    Start(&'f FieldType),
    /// Past the one value it was made for.
    Done,
    /// A record without a filter that holds one: read as written, field by field.
    Plain { fields: &'f [FieldDef], next: usize },
    /// A vector of values that hold a filtered record.
    Vector(&'f FieldType),
    /// A map whose keys or values hold a filtered record; `true` when a value is next.
    Map(&'f FieldType, &'f FieldType, bool),
    /// A record with a filter whose fields were reordered: read, being handed out.
    Replay(ValueInput),
}

/// Where one value comes from.
enum Source {
    Input,
    Empty,
    Replay,
}

/// What a record, vector or map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Record,
    Vector,
    Map,
}

impl Kind {
    fn of(ty: &FieldType) -> Option<Kind> {
        match ty {
            FieldType::Record(_) => Some(Kind::Record),
            FieldType::Vector(_) => Some(Kind::Vector),
            FieldType::Map(..) => Some(Kind::Map),
            _ => None,
        }
    }
}

/// How a record, vector or map is read.
enum Opened<'f> {
    /// As written: the input's.
    Through,
    /// The data lacks it: empty.
    Empty,
    /// Part of a replayed record.
    Replay,
    /// From the input, and followed: of this type.
    Follow(&'f FieldType),
}

/// What ending a record, vector or map closes.
enum Closing {
    /// Nothing of the input's: it was empty or replayed.
    Served,
    /// The input's, within a value read as written.
    Input,
    /// The input's, and the frame that followed it.
    Frame(Kind),
}

impl<'f, 'i, I: RecordInput + ?Sized> FilteredInput<'f, 'i, I> {
    /// Reads one value of type `ty` (of the filters' schema) from `input`.
    #[inline(always)]
    pub(crate) fn new(input: &'i mut I, filters: &'f Filters, ty: &'f FieldType) -> Self {
        FilteredInput {
            input,
            filters,
            through: 0,
            empty: 0,
            frame: Frame::Start(ty),
            outer: Vec::new(),
        }
    }

    /// Reads one value the data lacks: every read is empty, `input` is not touched.
    pub(crate) fn lacking(input: &'i mut I, filters: &'f Filters) -> Self {
        FilteredInput {
            input,
            filters,
            through: 0,
            empty: 1,
            frame: Frame::Done,
            outer: Vec::new(),
        }
    }

    /// Where the next value, a scalar of type `scalar`, comes from.
    #[inline(always)]
    fn scalar(&mut self, scalar: &FieldType, what: &'static str) -> Result<Source> {
        if (self.through | self.empty) == 0 {
            // The fast path: a field of a filtered record.
            if let Frame::Filtered {
                written,
                steps,
                next,
                ..
            } = &mut self.frame
            {
                let Some(step) = steps.get(*next) else {
                    return Err(too_many());
                };
                *next += 1;
                if !step.skip.is_empty() {
                    skip_fields(self.input, &written[step.skip.clone()])?;
                }
                if step.kind != std::mem::discriminant(scalar) {
                    return Err(not_a(what));
                }
                return Ok(if step.present {
                    Source::Input
                } else {
                    Source::Empty
                });
            }
        }
        self.scalar_elsewhere(scalar, what)
    }

    /// [`FilteredInput::scalar`] anywhere but in a filtered record.
    #[inline(never)]
    fn scalar_elsewhere(&mut self, scalar: &FieldType, what: &str) -> Result<Source> {
        if self.through != 0 {
            return Ok(Source::Input);
        }
        if self.empty != 0 {
            return Ok(Source::Empty);
        }
        if let Frame::Replay(_) = self.frame {
            return Ok(Source::Replay);
        }
        let (ty, present) = self.slot()?;
        if std::mem::discriminant(ty) != std::mem::discriminant(scalar) {
            return Err(mismatch(ty, what));
        }
        Ok(if present {
            Source::Input
        } else {
            Source::Empty
        })
    }

    /// The type of the next value the reader reads, and whether the data holds it.
    #[inline]
    fn slot(&mut self) -> Result<(&'f FieldType, bool)> {
        match &mut self.frame {
            Frame::Filtered {
                fields,
                written,
                steps,
                next,
                ..
            } => {
                let j = *next;
                let (Some(def), Some(step)) = (fields.get(j), steps.get(j)) else {
                    return Err(too_many());
                };
                *next = j + 1;
                if !step.skip.is_empty() {
                    skip_fields(self.input, &written[step.skip.clone()])?;
                }
                Ok((&def.ty, step.present))
            }
            Frame::Start(ty) => {
                let ty = *ty;
                self.frame = Frame::Done;
                Ok((ty, true))
            }
            Frame::Plain { fields, next } => {
                let def = fields.get(*next).ok_or_else(too_many)?;
                *next += 1;
                Ok((&def.ty, true))
            }
            Frame::Vector(element) => Ok((element, true)),
            Frame::Map(key, value, value_next) => {
                let ty = if *value_next { *value } else { *key };
                *value_next = !*value_next;
                Ok((ty, true))
            }
            Frame::Done | Frame::Replay(_) => Err(too_many()),
        }
    }

    /// Where the next value, a record, vector or map of `kind`, comes from.
    #[inline]
    fn open(&mut self, kind: Kind) -> Result<Opened<'f>> {
        if self.through != 0 {
            return Ok(Opened::Through);
        }
        if self.empty != 0 {
            self.enter_empty()?;
            return Ok(Opened::Empty);
        }
        if let Frame::Replay(_) = self.frame {
            return Ok(Opened::Replay);
        }
        let (ty, present) = self.slot()?;
        if Kind::of(ty) != Some(kind) {
            return Err(mismatch(ty, kind.name()));
        }
        if !present {
            self.enter_empty()?;
            return Ok(Opened::Empty);
        }
        Ok(Opened::Follow(ty))
    }

    /// Opens a record, vector or map the data lacks; within the nesting limit, so that a
    /// record that holds itself (not through a vector or map) is an error, not an overflow.
    fn enter_empty(&mut self) -> Result<()> {
        if self.empty >= DEFAULT_MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("an empty value nests more than {DEFAULT_MAX_DEPTH} levels deep"),
            ));
        }
        self.empty += 1;
        Ok(())
    }

    /// Starts following `frame` (the current one is kept to go back to).
    #[inline]
    fn push(&mut self, frame: Frame<'f>) {
        match std::mem::replace(&mut self.frame, frame) {
            Frame::Done => {}
            outer => self.outer.push(outer),
        }
    }

    /// Goes back to the frame the current one was entered from.
    #[inline]
    fn pop(&mut self) {
        self.frame = self.outer.pop().unwrap_or(Frame::Done);
    }

    fn replay(&mut self) -> Result<&mut ValueInput> {
        match &mut self.frame {
            Frame::Replay(values) => Ok(values),
            _ => Err(too_many()),
        }
    }

    /// After the start of record `id` was read from the input: the frame that follows its
    /// fields, or `None` when it is read as written.
    #[inline(always)]
    fn record_frame(&mut self, id: RecordId, tag: &str) -> Result<Option<Frame<'f>>> {
        let filters: &'f Filters = self.filters;
        let fields = &filters.schema().record_at(id).fields;
        Ok(match filters.plan(id) {
            Some(Plan {
                fields: written,
                in_order: Some(in_order),
                ..
            }) => Some(Frame::Filtered {
                fields,
                written,
                steps: &in_order.steps,
                tail: &in_order.tail,
                next: 0,
            }),
            Some(plan) => {
                let values = self.read_reordered(fields, plan, tag)?;
                Some(Frame::Replay(ValueInput::inside_record(values)))
            }
            None if filters.filtered_in(&FieldType::Record(id)) => {
                Some(Frame::Plain { fields, next: 0 })
            }
            None => None,
        })
    }

    /// Reads the rest of a record whose writer's fields are not in the reader's order, end
    /// included: each into its reader field (a later one of the same field replacing an
    /// earlier), or skipped; the fields the data lacks empty.
    #[cold]
    fn read_reordered(
        &mut self,
        fields: &'f [FieldDef],
        plan: &Plan,
        tag: &str,
    ) -> Result<Vec<Value>> {
        let schema = self.filters.schema();
        let mut values: Vec<Option<Value>> = vec![None; fields.len()];
        for (written, target) in plan.fields.iter().zip(&plan.targets) {
            match target {
                Some(j) => {
                    let def = &fields[*j];
                    let mut inner = FilteredInput::new(&mut *self.input, self.filters, &def.ty);
                    let value = value::read_checked(&mut inner, schema, &def.ty, &def.name)
                        .map_err(|e| e.in_field(&written.name))?;
                    values[*j] = Some(value);
                }
                None => skip_fields(self.input, std::slice::from_ref(written))?,
            }
        }
        self.input.end_record(tag)?;
        let mut depth = crate::archive::Depth::default();
        let filled = values.into_iter().zip(fields).map(|(v, def)| match v {
            Some(v) => Ok(v),
            None => Value::empty_of(schema, &def.ty, &mut depth),
        });
        filled.collect()
    }

    /// Ends a record, vector or map; `replayed` ends it in a replayed record.
    #[inline]
    fn close(
        &mut self,
        tag: &str,
        replayed: fn(&mut ValueInput, &str) -> Result<()>,
    ) -> Result<Closing> {
        if self.through != 0 {
            self.through -= 1;
            return Ok(Closing::Input);
        }
        if self.empty != 0 {
            self.empty -= 1;
            return Ok(Closing::Served);
        }
        match &mut self.frame {
            Frame::Replay(values) => {
                replayed(values, tag)?;
                if values.is_done() {
                    self.pop();
                }
                Ok(Closing::Served)
            }
            // (Filtered records end in `end_record`.)
            Frame::Filtered { .. } | Frame::Plain { .. } => Ok(Closing::Frame(Kind::Record)),
            Frame::Vector(_) => Ok(Closing::Frame(Kind::Vector)),
            Frame::Map(..) => Ok(Closing::Frame(Kind::Map)),
            Frame::Start(_) | Frame::Done => Err(too_many()),
        }
    }

    /// [`FilteredInput::close`] of a `kind`, then the input's end with `input_end`.
    #[inline]
    fn end(
        &mut self,
        kind: Kind,
        tag: &str,
        replayed: fn(&mut ValueInput, &str) -> Result<()>,
        input_end: fn(&mut I, &str) -> Result<()>,
    ) -> Result<()> {
        match self.close(tag, replayed)? {
            Closing::Served => Ok(()),
            Closing::Input => input_end(self.input, tag),
            Closing::Frame(open) if open == kind => {
                input_end(self.input, tag)?;
                self.pop();
                Ok(())
            }
            Closing::Frame(open) => Err(Error::new(
                ErrorKind::Schema,
                format!("the reader ends a {} inside a {}", kind.name(), open.name()),
            )),
        }
    }

    /// Starts a vector; `nullable`: jute's null vector is `None` (else the input's error).
    fn open_vector(&mut self, tag: &str, nullable: bool) -> Result<Option<Index>> {
        let read = |input: &mut I| {
            if nullable {
                input.start_nullable_vector(tag)
            } else {
                input.start_vector(tag).map(Some)
            }
        };
        match self.open(Kind::Vector)? {
            Opened::Through => {
                let index = read(self.input)?;
                self.through += usize::from(index.is_some());
                Ok(index)
            }
            Opened::Empty => Ok(Some(Index::counted(0, 0))),
            Opened::Replay if nullable => self.replay()?.start_nullable_vector(tag),
            Opened::Replay => self.replay()?.start_vector(tag).map(Some),
            Opened::Follow(ty) => {
                let index = read(self.input)?;
                if let (Some(_), FieldType::Vector(element)) = (index, ty) {
                    if self.filters.filtered_in(element) {
                        self.push(Frame::Vector(element));
                    } else {
                        self.through = 1;
                    }
                }
                Ok(index)
            }
        }
    }
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Record => "a record",
            Kind::Vector => "a vector",
            Kind::Map => "a map",
        }
    }
}

/// Skips the writer's fields `fields`.
#[cold]
#[inline(never)]
fn skip_fields<I: RecordInput + ?Sized>(input: &mut I, fields: &[FieldTypeInfo]) -> Result<()> {
    for field in fields {
        skip(input, &field.type_id, &field.name).map_err(|e| e.in_field(&field.name))?;
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn not_a(what: &str) -> Error {
    Error::new(
        ErrorKind::Schema,
        format!("the reader reads {what} where its schema has another type"),
    )
}

#[cold]
#[inline(never)]
fn too_many() -> Error {
    Error::new(
        ErrorKind::Schema,
        "the reader reads more values than its schema has",
    )
}

#[cold]
fn mismatch(expected: &FieldType, read: &str) -> Error {
    Error::new(
        ErrorKind::Schema,
        format!("the schema has a {expected:?} where the reader reads {read}"),
    )
}

/// The read of one kind of scalar.
macro_rules! scalar {
    ($name:ident, $ty:ty, $scalar:expr, $what:literal, $empty:expr) => {
        #[inline(always)]
        fn $name(&mut self, tag: &str) -> Result<$ty> {
            match self.scalar(&$scalar, $what)? {
                Source::Input => self.input.$name(tag),
                Source::Empty => Ok($empty),
                Source::Replay => self.replay()?.$name(tag),
            }
        }
    };
}

impl<I: RecordInput + ?Sized> RecordInput for FilteredInput<'_, '_, I> {
    scalar!(read_byte, i8, FieldType::Byte, "a byte", 0);
    scalar!(read_bool, bool, FieldType::Bool, "a boolean", false);
    scalar!(read_int, i32, FieldType::Int, "an int", 0);
    scalar!(read_long, i64, FieldType::Long, "a long", 0);
    scalar!(read_float, f32, FieldType::Float, "a float", 0.0);
    scalar!(read_double, f64, FieldType::Double, "a double", 0.0);
    scalar!(
        read_string,
        String,
        FieldType::String,
        "a ustring",
        String::new()
    );
    scalar!(
        read_buffer,
        Vec<u8>,
        FieldType::Buffer,
        "a buffer",
        Vec::new()
    );
    scalar!(
        read_nullable_string,
        Option<String>,
        FieldType::String,
        "a ustring",
        Some(String::new())
    );
    scalar!(
        read_nullable_buffer,
        Option<Vec<u8>>,
        FieldType::Buffer,
        "a buffer",
        Some(Vec::new())
    );
    scalar!(skip_string, (), FieldType::String, "a ustring", ());
    scalar!(skip_buffer, (), FieldType::Buffer, "a buffer", ());

    #[inline]
    fn start_record(&mut self, tag: &str) -> Result<()> {
        if let Frame::Start(FieldType::Record(id)) = self.frame {
            // The record a read starts with: its frame replaces the start, nothing to go
            // back to.
            self.input.start_record(tag)?;
            self.frame = match self.record_frame(*id, tag)? {
                Some(frame) => frame,
                None => {
                    self.through = 1;
                    Frame::Done
                }
            };
            return Ok(());
        }
        match self.open(Kind::Record)? {
            Opened::Through => {
                self.input.start_record(tag)?;
                self.through += 1;
                Ok(())
            }
            Opened::Empty => Ok(()),
            Opened::Replay => self.replay()?.start_record(tag),
            Opened::Follow(ty) => {
                self.input.start_record(tag)?;
                let FieldType::Record(id) = ty else {
                    return Err(mismatch(ty, "a record"));
                };
                match self.record_frame(*id, tag)? {
                    Some(frame) => self.push(frame),
                    None => self.through = 1,
                }
                Ok(())
            }
        }
    }

    #[inline]
    fn end_record(&mut self, tag: &str) -> Result<()> {
        if (self.through | self.empty) == 0 {
            if let Frame::Filtered { written, tail, .. } = &self.frame {
                // The fast path: the end of a filtered record.
                if !tail.is_empty() {
                    skip_fields(self.input, &written[(*tail).clone()])?;
                }
                self.input.end_record(tag)?;
                self.pop();
                return Ok(());
            }
        }
        self.end(Kind::Record, tag, ValueInput::end_record, I::end_record)
    }

    fn start_vector(&mut self, tag: &str) -> Result<Index> {
        let index = self.open_vector(tag, false)?;
        Ok(index.unwrap_or_else(|| Index::counted(0, 0)))
    }

    fn start_nullable_vector(&mut self, tag: &str) -> Result<Option<Index>> {
        self.open_vector(tag, true)
    }

    fn end_vector(&mut self, tag: &str) -> Result<()> {
        self.end(Kind::Vector, tag, ValueInput::end_vector, I::end_vector)
    }

    fn start_map(&mut self, tag: &str) -> Result<Index> {
        match self.open(Kind::Map)? {
            Opened::Through => {
                let index = self.input.start_map(tag)?;
                self.through += 1;
                Ok(index)
            }
            Opened::Empty => Ok(Index::counted(0, 0)),
            Opened::Replay => self.replay()?.start_map(tag),
            Opened::Follow(ty) => {
                let index = self.input.start_map(tag)?;
                match ty {
                    FieldType::Map(key, value) if self.filters.filtered_in(ty) => {
                        self.push(Frame::Map(key, value, false));
                    }
                    _ => self.through = 1,
                }
                Ok(index)
            }
        }
    }

    fn end_map(&mut self, tag: &str) -> Result<()> {
        self.end(Kind::Map, tag, ValueInput::end_map, I::end_map)
    }

    fn next_element(&mut self, index: &mut Index) -> Result<bool> {
        if self.through != 0 {
            return self.input.next_element(index);
        }
        if self.empty != 0 {
            return Ok(index.take_one());
        }
        match &mut self.frame {
            Frame::Replay(values) => values.next_element(index),
            _ => self.input.next_element(index),
        }
    }

    fn at_end(&mut self) -> Result<bool> {
        self.input.at_end()
    }

    fn position(&self) -> Position {
        self.input.position()
    }
}
