//! The buffers of one column and the plan that fills them: chosen once from the Arrow field
//! of the mapping (and so from the schema), then filled value by value with one `match` per
//! value and statically dispatched calls on the input.
//!
//! Buffers are plain vectors (Arrow's builders cannot be cut back), so that a record that
//! fails halfway is taken back out with [`Column::truncate`].

use std::mem;
use std::sync::Arc;

use arrow_array::builder::make_view;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type, Int8Type};
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, ListArray, MapArray, PrimitiveArray, StringArray,
    StringViewArray, StructArray,
};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, FieldRef, Fields};
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::{value, Error, ErrorKind, Format, RecordInput, Result};

use crate::mapping::recursive_encoding;
use crate::{order, recursive};

/// Bytes of strings and buffers a batch holds before [`super::BatchDecoder::is_full`] says
/// so, whatever the row count: Arrow's `Utf8`, `Binary` and `List` offsets are 32-bit.
pub(crate) const BYTES_PER_BATCH: usize = 1 << 30;

/// One column (or nested child): what it holds, and its validity when it may be null.
#[derive(Debug)]
pub(crate) struct Column {
    kind: Kind,
    /// Present for the nullable `ustring`, `buffer` and `vector` of jute.
    validity: Option<BooleanBufferBuilder>,
    field: FieldRef,
}

#[derive(Debug)]
enum Kind {
    Byte(Vec<i8>),
    Bool(BooleanBufferBuilder),
    Int(Vec<i32>),
    Long(Vec<i64>),
    Float(Vec<f32>),
    Double(Vec<f64>),
    String(Bytes),
    Buffer(Bytes),
    Vector {
        offsets: Vec<i32>,
        items: Box<Column>,
    },
    Map {
        offsets: Vec<i32>,
        keys: Box<Column>,
        values: Box<Column>,
        entries: FieldRef,
        /// For putting the entries into Hadoop's order.
        key_type: FieldType,
        recursive: Format,
    },
    Record {
        fields: Vec<Column>,
        names: Box<[String]>,
        len: usize,
    },
    /// A recursive record reference: each value the record's bytes in `format`.
    Encoded {
        bytes: Bytes,
        record: RecordId,
        format: Format,
    },
}

/// The values of a `Utf8`, `Binary` or `Utf8View` column: their bytes, and where each
/// value lies in them.
#[derive(Debug)]
pub(crate) struct Bytes {
    ends: Ends,
    values: Vec<u8>,
}

/// The longest value a `Utf8View` view holds itself (Arrow's format).
const INLINE_VIEW: usize = 12;

#[derive(Debug)]
enum Ends {
    /// `Utf8` and `Binary`: the end of each value, after a leading 0.
    Offsets(Vec<i32>),
    /// `Utf8View`: each value's view, which holds a value of up to 12 bytes itself, and of a
    /// longer one its length, first bytes and offset in `values`. A value taken back leaves
    /// its bytes in `values`, unreferenced (as views allow).
    Views(Vec<u128>),
}

impl Bytes {
    fn new() -> Self {
        Bytes {
            ends: Ends::Offsets(vec![0]),
            values: Vec::new(),
        }
    }

    fn views() -> Self {
        Bytes {
            ends: Ends::Views(Vec::new()),
            values: Vec::new(),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Result<()> {
        match &mut self.ends {
            Ends::Offsets(offsets) => {
                self.values.extend_from_slice(bytes);
                offsets.push(offset(self.values.len())?);
            }
            Ends::Views(views) => {
                let at = self.values.len();
                if bytes.len() > INLINE_VIEW {
                    self.values.extend_from_slice(bytes);
                    offset(self.values.len())?;
                }
                // The offset fits: the values' end was just checked to.
                views.push(make_view(bytes, 0, at as u32));
            }
        }
        Ok(())
    }

    /// Ends the value being appended (a null when nothing was).
    #[inline]
    fn close(&mut self) -> Result<()> {
        match &mut self.ends {
            Ends::Offsets(offsets) => offsets.push(offset(self.values.len())?),
            Ends::Views(views) => views.push(make_view(&[], 0, 0)),
        }
        Ok(())
    }

    fn len(&self) -> usize {
        match &self.ends {
            Ends::Offsets(offsets) => offsets.len() - 1,
            Ends::Views(views) => views.len(),
        }
    }

    fn reserve(&mut self, values: usize) {
        match &mut self.ends {
            Ends::Offsets(offsets) => offsets.reserve(values),
            Ends::Views(views) => views.reserve(values),
        }
    }

    /// Keeps the first `len` values (when there are more).
    fn truncate(&mut self, len: usize) {
        if self.len() <= len {
            return;
        }
        match &mut self.ends {
            Ends::Offsets(offsets) => {
                offsets.truncate(len + 1);
                self.values.truncate(offsets[len] as usize);
            }
            Ends::Views(views) => views.truncate(len),
        }
    }

    /// The values as a `Utf8` or `Utf8View` array, leaving the column empty.
    ///
    /// # Safety
    /// Every value must have been appended from a `&str` (or be an empty null).
    unsafe fn take_strings(&mut self, nulls: Option<NullBuffer>) -> ArrayRef {
        let values = Buffer::from_vec(mem::take(&mut self.values));
        // SAFETY: the values are valid UTF-8 (the caller's promise), and each offset or view
        // is where a whole value was put.
        match &mut self.ends {
            Ends::Offsets(offsets) => {
                let offsets = take_offsets(offsets);
                Arc::new(unsafe { StringArray::new_unchecked(offsets, values, nulls) })
            }
            Ends::Views(views) => {
                let views = ScalarBuffer::from(mem::take(views));
                let buffers = if values.is_empty() {
                    vec![]
                } else {
                    vec![values]
                };
                Arc::new(unsafe { StringViewArray::new_unchecked(views, buffers, nulls) })
            }
        }
    }

    /// The offsets and bytes of a `Binary` column, leaving it empty.
    fn take(&mut self) -> (OffsetBuffer<i32>, Buffer) {
        let Ends::Offsets(offsets) = &mut self.ends else {
            unreachable!("only strings are held as views")
        };
        // The offsets start at 0 and never decrease: pushed as the values grew.
        (
            take_offsets(offsets),
            Buffer::from_vec(mem::take(&mut self.values)),
        )
    }
}

/// A 32-bit Arrow offset, or the error that says the batch outgrew it.
#[inline]
fn offset(len: usize) -> Result<i32> {
    i32::try_from(len).map_err(|_| {
        Error::new(
            ErrorKind::Limit,
            "a batch holds more than 2 GiB in one column (Arrow's 32-bit offsets): use a \
             smaller batch size",
        )
    })
}

/// The buffer of a number, boolean, string or buffer column, for the decoder's top-level
/// plans, which know the column's kind.
macro_rules! leaf {
    ($name:ident, $variant:ident, $ty:ty) => {
        #[inline(always)]
        pub(crate) fn $name(&mut self) -> &mut $ty {
            match &mut self.kind {
                Kind::$variant(v) => v,
                _ => unreachable!("the plan matches the column"),
            }
        }
    };
}

/// What decoding needs besides the column: the schema (for recursive references) and the
/// running count of string and buffer bytes.
pub(crate) struct Context<'a> {
    pub schema: &'a Schema,
    pub bytes: usize,
}

impl Column {
    /// The plan and empty buffers for a value of type `ty` mapped to `field`; recursive
    /// records are held as bytes in `recursive`.
    pub(crate) fn new(
        schema: &Schema,
        ty: &FieldType,
        field: FieldRef,
        recursive: Format,
    ) -> Column {
        let kind = match (ty, field.data_type()) {
            (FieldType::Byte, _) => Kind::Byte(Vec::new()),
            (FieldType::Bool, _) => Kind::Bool(BooleanBufferBuilder::new(0)),
            (FieldType::Int, _) => Kind::Int(Vec::new()),
            (FieldType::Long, _) => Kind::Long(Vec::new()),
            (FieldType::Float, _) => Kind::Float(Vec::new()),
            (FieldType::Double, _) => Kind::Double(Vec::new()),
            (FieldType::String, DataType::Utf8View) => Kind::String(Bytes::views()),
            (FieldType::String, _) => Kind::String(Bytes::new()),
            (FieldType::Buffer, _) => Kind::Buffer(Bytes::new()),
            (FieldType::Vector(element), DataType::List(item)) => Kind::Vector {
                offsets: vec![0],
                items: Box::new(Column::new(schema, element, item.clone(), recursive)),
            },
            (FieldType::Map(k, v), DataType::Map(entries, _)) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("the mapping's map entries are a struct")
                };
                Kind::Map {
                    offsets: vec![0],
                    keys: Box::new(Column::new(schema, k, kv[0].clone(), recursive)),
                    values: Box::new(Column::new(schema, v, kv[1].clone(), recursive)),
                    entries: entries.clone(),
                    key_type: (**k).clone(),
                    recursive,
                }
            }
            (FieldType::Record(id), DataType::Binary) => Kind::Encoded {
                bytes: Bytes::new(),
                record: *id,
                format: recursive_encoding(&field).unwrap_or(recursive),
            },
            (FieldType::Record(id), DataType::Struct(fields)) => {
                let record = crate::mapping::record_type(schema, *id);
                Kind::Record {
                    fields: record
                        .fields
                        .iter()
                        .zip(fields.iter())
                        .map(|(def, f)| Column::new(schema, &def.ty, f.clone(), recursive))
                        .collect(),
                    names: record.fields.iter().map(|f| f.name.clone()).collect(),
                    len: 0,
                }
            }
            (ty, dt) => unreachable!("the mapping maps {ty:?} to {dt}"),
        };
        let validity = field.is_nullable().then(|| BooleanBufferBuilder::new(0));
        Column {
            kind,
            validity,
            field,
        }
    }

    leaf!(bytes_mut, Byte, Vec<i8>);
    leaf!(bools_mut, Bool, BooleanBufferBuilder);
    leaf!(ints_mut, Int, Vec<i32>);
    leaf!(longs_mut, Long, Vec<i64>);
    leaf!(floats_mut, Float, Vec<f32>);
    leaf!(doubles_mut, Double, Vec<f64>);
    leaf!(strings_mut, String, Bytes);
    leaf!(buffers_mut, Buffer, Bytes);

    /// Whether the column may hold nulls (jute's nullable `ustring`, `buffer`, `vector`).
    pub(crate) fn is_nullable(&self) -> bool {
        self.validity.is_some()
    }

    /// Decodes one value written under `tag` and appends it. The numbers and booleans are
    /// decoded here, inlined into the caller's loop; the rest out of line.
    #[inline(always)]
    pub(crate) fn decode<I: RecordInput + ?Sized>(
        &mut self,
        input: &mut I,
        tag: &str,
        cx: &mut Context<'_>,
    ) -> Result<()> {
        match &mut self.kind {
            Kind::Byte(v) => v.push(input.read_byte(tag)?),
            Kind::Bool(v) => v.append(input.read_bool(tag)?),
            Kind::Int(v) => v.push(input.read_int(tag)?),
            Kind::Long(v) => v.push(input.read_long(tag)?),
            Kind::Float(v) => v.push(input.read_float(tag)?),
            Kind::Double(v) => v.push(input.read_double(tag)?),
            _ => return self.decode_other(input, tag, cx),
        }
        Ok(())
    }

    /// [`Column::decode`] of strings, buffers, containers, records and nulls.
    #[inline(never)]
    fn decode_other<I: RecordInput + ?Sized>(
        &mut self,
        input: &mut I,
        tag: &str,
        cx: &mut Context<'_>,
    ) -> Result<()> {
        if let Some(validity) = &mut self.validity {
            return decode_nullable(&mut self.kind, validity, input, tag, cx);
        }
        match &mut self.kind {
            Kind::String(b) => {
                let s = input.read_string(tag)?;
                cx.bytes += s.len();
                b.push(s.as_bytes())?;
            }
            Kind::Buffer(b) => {
                let v = input.read_buffer(tag)?;
                cx.bytes += v.len();
                b.push(&v)?;
            }
            Kind::Vector { offsets, items } => {
                let index = input.start_vector(tag)?;
                decode_items(offsets, items, index, input, tag, cx)?;
            }
            Kind::Map {
                offsets,
                keys,
                values,
                ..
            } => decode_map(offsets, keys, values, input, tag, cx)?,
            Kind::Record { fields, names, len } => {
                decode_record(fields, names, input, tag, cx)?;
                *len += 1;
            }
            Kind::Encoded {
                bytes,
                record,
                format,
            } => decode_encoded(bytes, *record, *format, input, tag, cx)?,
            Kind::Byte(_)
            | Kind::Bool(_)
            | Kind::Int(_)
            | Kind::Long(_)
            | Kind::Float(_)
            | Kind::Double(_) => unreachable!("decoded inline"),
        }
        Ok(())
    }

    /// Makes room for `rows` more values (of a top-level column, whose row count is known).
    pub(crate) fn reserve(&mut self, rows: usize) {
        match &mut self.kind {
            Kind::Byte(v) => v.reserve(rows),
            Kind::Bool(v) => v.reserve(rows),
            Kind::Int(v) => v.reserve(rows),
            Kind::Long(v) => v.reserve(rows),
            Kind::Float(v) => v.reserve(rows),
            Kind::Double(v) => v.reserve(rows),
            Kind::String(b) | Kind::Buffer(b) | Kind::Encoded { bytes: b, .. } => b.reserve(rows),
            Kind::Vector { offsets, .. } | Kind::Map { offsets, .. } => offsets.reserve(rows),
            Kind::Record { fields, .. } => fields.iter_mut().for_each(|f| f.reserve(rows)),
        }
        if let Some(v) = &mut self.validity {
            v.reserve(rows);
        }
    }

    /// Values held.
    pub(crate) fn len(&self) -> usize {
        match &self.kind {
            Kind::Byte(v) => v.len(),
            Kind::Bool(v) => v.len(),
            Kind::Int(v) => v.len(),
            Kind::Long(v) => v.len(),
            Kind::Float(v) => v.len(),
            Kind::Double(v) => v.len(),
            Kind::String(b) | Kind::Buffer(b) | Kind::Encoded { bytes: b, .. } => b.len(),
            Kind::Vector { offsets, .. } | Kind::Map { offsets, .. } => offsets.len() - 1,
            Kind::Record { len, .. } => *len,
        }
    }

    /// Keeps the first `len` values, dropping what a failed record left.
    pub(crate) fn truncate(&mut self, len: usize) {
        if let Some(validity) = &mut self.validity {
            validity.truncate(len.min(validity.len()));
        }
        match &mut self.kind {
            Kind::Byte(v) => v.truncate(len),
            Kind::Bool(v) => v.truncate(len.min(v.len())),
            Kind::Int(v) => v.truncate(len),
            Kind::Long(v) => v.truncate(len),
            Kind::Float(v) => v.truncate(len),
            Kind::Double(v) => v.truncate(len),
            Kind::String(b) | Kind::Buffer(b) | Kind::Encoded { bytes: b, .. } => b.truncate(len),
            Kind::Vector { offsets, items } => {
                if offsets.len() > len + 1 {
                    offsets.truncate(len + 1);
                }
                items.truncate(offsets[offsets.len() - 1] as usize);
            }
            Kind::Map {
                offsets,
                keys,
                values,
                ..
            } => {
                if offsets.len() > len + 1 {
                    offsets.truncate(len + 1);
                }
                let entries = offsets[offsets.len() - 1] as usize;
                keys.truncate(entries);
                values.truncate(entries);
            }
            Kind::Record {
                fields, len: held, ..
            } => {
                *held = (*held).min(len);
                for f in fields {
                    f.truncate(*held);
                }
            }
        }
    }

    /// The values as an Arrow array, leaving the column empty.
    pub(crate) fn finish(&mut self, schema: &Schema) -> Result<ArrayRef, ArrowError> {
        let nulls = self.validity.as_mut().map(|v| NullBuffer::new(v.finish()));
        let array: ArrayRef = match &mut self.kind {
            Kind::Byte(v) => Arc::new(primitive::<Int8Type>(v)),
            Kind::Bool(v) => Arc::new(BooleanArray::new(v.finish(), None)),
            Kind::Int(v) => Arc::new(primitive::<Int32Type>(v)),
            Kind::Long(v) => Arc::new(primitive::<Int64Type>(v)),
            Kind::Float(v) => Arc::new(primitive::<Float32Type>(v)),
            Kind::Double(v) => Arc::new(primitive::<Float64Type>(v)),
            // SAFETY: every value of a string column was appended from a `&str` (or is an
            // empty null).
            Kind::String(b) => unsafe { b.take_strings(nulls) },
            Kind::Buffer(b) | Kind::Encoded { bytes: b, .. } => {
                let (offsets, values) = b.take();
                Arc::new(BinaryArray::try_new(offsets, values, nulls)?)
            }
            Kind::Vector { offsets, items } => {
                let offsets = take_offsets(offsets);
                let values = items.finish(schema)?;
                Arc::new(ListArray::try_new(
                    items.field.clone(),
                    offsets,
                    values,
                    nulls,
                )?)
            }
            Kind::Map {
                offsets,
                keys,
                values,
                entries,
                key_type,
                recursive,
            } => {
                let offsets = take_offsets(offsets);
                let (k, v) = (keys.finish(schema)?, values.finish(schema)?);
                let (offsets, k, v) =
                    order::java_order(schema, key_type, *recursive, offsets, k, v)?;
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("map entries are a struct")
                };
                let entries_array = StructArray::try_new(kv.clone(), vec![k, v], None)?;
                Arc::new(MapArray::try_new(
                    entries.clone(),
                    offsets,
                    entries_array,
                    nulls,
                    false,
                )?)
            }
            Kind::Record { fields, len, .. } => {
                let arrays = fields
                    .iter_mut()
                    .map(|f| f.finish(schema))
                    .collect::<Result<Vec<_>, _>>()?;
                let DataType::Struct(struct_fields) = self.field.data_type() else {
                    unreachable!("a record column is a struct")
                };
                let len = mem::take(len);
                Arc::new(struct_array(struct_fields.clone(), arrays, len)?)
            }
        };
        Ok(array)
    }
}

/// A struct array of `len` rows, also when the record has no fields.
pub(crate) fn struct_array(
    fields: Fields,
    arrays: Vec<ArrayRef>,
    len: usize,
) -> Result<StructArray, ArrowError> {
    StructArray::try_new_with_length(fields, arrays, None, len)
}

fn primitive<T: arrow_array::ArrowPrimitiveType>(v: &mut Vec<T::Native>) -> PrimitiveArray<T> {
    PrimitiveArray::new(ScalarBuffer::from(mem::take(v)), None)
}

fn take_offsets(offsets: &mut Vec<i32>) -> OffsetBuffer<i32> {
    OffsetBuffer::new(ScalarBuffer::from(mem::replace(offsets, vec![0])))
}

/// A value of jute's nullable `ustring`, `buffer` or `vector`.
#[inline(never)]
fn decode_nullable<I: RecordInput + ?Sized>(
    kind: &mut Kind,
    validity: &mut BooleanBufferBuilder,
    input: &mut I,
    tag: &str,
    cx: &mut Context<'_>,
) -> Result<()> {
    let present = match kind {
        Kind::String(b) => match input.read_nullable_string(tag)? {
            Some(s) => {
                cx.bytes += s.len();
                b.push(s.as_bytes())?;
                true
            }
            None => b.close().map(|()| false)?,
        },
        Kind::Buffer(b) => match input.read_nullable_buffer(tag)? {
            Some(v) => {
                cx.bytes += v.len();
                b.push(&v)?;
                true
            }
            None => b.close().map(|()| false)?,
        },
        Kind::Vector { offsets, items } => match input.start_nullable_vector(tag)? {
            Some(index) => {
                decode_items(offsets, items, index, input, tag, cx)?;
                true
            }
            None => {
                let end = offsets[offsets.len() - 1];
                offsets.push(end);
                false
            }
        },
        _ => unreachable!("only ustring, buffer and vector are nullable"),
    };
    validity.append(present);
    Ok(())
}

#[inline(never)]
fn decode_items<I: RecordInput + ?Sized>(
    offsets: &mut Vec<i32>,
    items: &mut Column,
    mut index: hadoop_record::Index,
    input: &mut I,
    tag: &str,
    cx: &mut Context<'_>,
) -> Result<()> {
    let mut i = 0u64;
    while input.next_element(&mut index)? {
        items.decode(input, tag, cx).map_err(|e| e.in_index(i))?;
        i += 1;
    }
    input.end_vector(tag)?;
    offsets.push(offset(items.len())?);
    Ok(())
}

#[inline(never)]
fn decode_map<I: RecordInput + ?Sized>(
    offsets: &mut Vec<i32>,
    keys: &mut Column,
    values: &mut Column,
    input: &mut I,
    tag: &str,
    cx: &mut Context<'_>,
) -> Result<()> {
    let mut index = input.start_map(tag)?;
    let mut i = 0u64;
    while input.next_element(&mut index)? {
        keys.decode(input, tag, cx)
            .and_then(|()| values.decode(input, tag, cx))
            .map_err(|e| e.in_index(i))?;
        i += 1;
    }
    input.end_map(tag)?;
    offsets.push(offset(keys.len())?);
    Ok(())
}

#[inline(never)]
fn decode_record<I: RecordInput + ?Sized>(
    fields: &mut [Column],
    names: &[String],
    input: &mut I,
    tag: &str,
    cx: &mut Context<'_>,
) -> Result<()> {
    input.start_record(tag)?;
    for (column, name) in fields.iter_mut().zip(names.iter()) {
        column
            .decode(input, name, cx)
            .map_err(|e| e.in_field(name))?;
    }
    input.end_record(tag)
}

/// A recursive reference: the record read through the schema-driven codec (so its maps are
/// in Hadoop's order, as the runtime writes them) and written in `format`.
#[inline(never)]
fn decode_encoded<I: RecordInput + ?Sized>(
    bytes: &mut Bytes,
    record: RecordId,
    format: Format,
    input: &mut I,
    tag: &str,
    cx: &mut Context<'_>,
) -> Result<()> {
    let value = value::read_record(input, cx.schema, record, tag)?;
    let encoded = recursive::write(cx.schema, record, &value, format)?;
    cx.bytes += encoded.len();
    bytes.push(&encoded)
}
