//! Hadoop's order of map keys over Arrow arrays: Java's `compareTo` of the key type, as
//! `hadoop_record::value::key_cmp` orders [`hadoop_record::Value`]s, for the decoder (which
//! puts map entries into that order) and the encoder (which refuses maps out of it).

use std::cmp::Ordering;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type, Int8Type};
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, StringArray, UInt32Array};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType};
use hadoop_record::compare::{
    hadoop_cmp, java_f32_total_cmp, java_f64_total_cmp, sort_by_java, utf16_cmp,
};
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::compare_hadoop;
use hadoop_record::Format;

use crate::recursive;

/// Compares values of one array (or of two arrays of the same type) in Hadoop's order.
pub(crate) struct KeyOrder<'a> {
    kind: Kind<'a>,
    nulls: Option<&'a NullBuffer>,
}

enum Kind<'a> {
    Byte(&'a [i8]),
    Bool(&'a BooleanArray),
    Int(&'a [i32]),
    Long(&'a [i64]),
    /// `total`: Java's `Float.compare` (a key, or inside a vector or map key); otherwise
    /// Hadoop's `compareTo` of a record's field.
    Float(&'a [f32], bool),
    Double(&'a [f64], bool),
    String(&'a StringArray),
    Buffer(&'a BinaryArray),
    /// A vector, or the keys of a map (which are in order already).
    Sequence(&'a [i32], Box<KeyOrder<'a>>),
    Record(Vec<KeyOrder<'a>>),
    /// A recursive record as its bytes.
    Encoded(&'a BinaryArray, &'a Schema, &'a FieldType, Format),
}

impl<'a> KeyOrder<'a> {
    /// The order of `array`, values of Hadoop type `ty`, as map keys; recursive records
    /// are bytes in `format`.
    pub(crate) fn new(
        schema: &'a Schema,
        ty: &'a FieldType,
        array: &'a dyn Array,
        format: Format,
    ) -> Self {
        Self::with(schema, ty, array, true, format)
    }

    fn with(
        schema: &'a Schema,
        ty: &'a FieldType,
        array: &'a dyn Array,
        key: bool,
        format: Format,
    ) -> Self {
        let kind = match (ty, array.data_type()) {
            (FieldType::Byte, _) => Kind::Byte(array.as_primitive::<Int8Type>().values()),
            (FieldType::Bool, _) => Kind::Bool(array.as_boolean()),
            (FieldType::Int, _) => Kind::Int(array.as_primitive::<Int32Type>().values()),
            (FieldType::Long, _) => Kind::Long(array.as_primitive::<Int64Type>().values()),
            (FieldType::Float, _) => Kind::Float(array.as_primitive::<Float32Type>().values(), key),
            (FieldType::Double, _) => {
                Kind::Double(array.as_primitive::<Float64Type>().values(), key)
            }
            (FieldType::String, _) => Kind::String(array.as_string::<i32>()),
            (FieldType::Buffer, _) => Kind::Buffer(array.as_binary::<i32>()),
            (FieldType::Vector(element), _) => {
                let list = array.as_list::<i32>();
                Kind::Sequence(
                    list.value_offsets(),
                    Box::new(Self::with(
                        schema,
                        element,
                        list.values().as_ref(),
                        key,
                        format,
                    )),
                )
            }
            (FieldType::Map(k, _), _) => {
                let map = array.as_map();
                Kind::Sequence(
                    map.value_offsets(),
                    Box::new(Self::with(schema, k, map.keys().as_ref(), key, format)),
                )
            }
            (FieldType::Record(_), DataType::Binary) => {
                Kind::Encoded(array.as_binary::<i32>(), schema, ty, format)
            }
            (FieldType::Record(id), _) => {
                let record = array.as_struct();
                Kind::Record(
                    crate::mapping::record_type(schema, *id)
                        .fields
                        .iter()
                        .zip(record.columns())
                        .map(|(f, c)| Self::with(schema, &f.ty, c.as_ref(), false, format))
                        .collect(),
                )
            }
        };
        KeyOrder {
            kind,
            nulls: array.nulls(),
        }
    }

    /// Value `i` against value `j`. Nulls (jute's) come first.
    pub(crate) fn cmp(&self, i: usize, j: usize) -> Ordering {
        if let Some(nulls) = self.nulls {
            match (nulls.is_null(i), nulls.is_null(j)) {
                (true, true) => return Ordering::Equal,
                (true, false) => return Ordering::Less,
                (false, true) => return Ordering::Greater,
                (false, false) => {}
            }
        }
        match &self.kind {
            Kind::Byte(v) => v[i].cmp(&v[j]),
            Kind::Bool(v) => v.value(i).cmp(&v.value(j)),
            Kind::Int(v) => v[i].cmp(&v[j]),
            Kind::Long(v) => v[i].cmp(&v[j]),
            Kind::Float(v, true) => java_f32_total_cmp(v[i], v[j]),
            Kind::Float(v, false) => hadoop_cmp(&v[i], &v[j]),
            Kind::Double(v, true) => java_f64_total_cmp(v[i], v[j]),
            Kind::Double(v, false) => hadoop_cmp(&v[i], &v[j]),
            Kind::String(v) => utf16_cmp(v.value(i), v.value(j)),
            // Hadoop's `Buffer.compareTo`: unsigned bytes, then length; as slices compare.
            Kind::Buffer(v) => v.value(i).cmp(v.value(j)),
            Kind::Sequence(offsets, items) => {
                let (a, b) = (span(offsets, i), span(offsets, j));
                a.clone()
                    .zip(b.clone())
                    .map(|(x, y)| items.cmp(x, y))
                    .find(|o| o.is_ne())
                    .unwrap_or_else(|| a.len().cmp(&b.len()))
            }
            Kind::Record(fields) => fields
                .iter()
                .map(|f| f.cmp(i, j))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal),
            Kind::Encoded(v, schema, ty, format) => {
                let read = |k: usize| recursive::read(schema, ty, v.value(k), *format).ok();
                match (read(i), read(j)) {
                    (Some(a), Some(b)) => compare_hadoop(&a, &b),
                    // Damaged bytes are reported where they are written; any order here.
                    _ => Ordering::Equal,
                }
            }
        }
    }
}

fn span(offsets: &[i32], i: usize) -> std::ops::Range<usize> {
    offsets[i] as usize..offsets[i + 1] as usize
}

/// The entries of every map (`offsets` into `keys` and `values`, keys of Hadoop type
/// `key_type` of `schema`, recursive records as bytes in `format`) in Hadoop's order, as
/// Java's `TreeMap` holds them: sorted by key, of equal keys the first key with the last
/// value. Returns the arrays as they are when every map is in order already.
pub fn java_order(
    schema: &Schema,
    key_type: &FieldType,
    format: Format,
    offsets: OffsetBuffer<i32>,
    keys: ArrayRef,
    values: ArrayRef,
) -> Result<(OffsetBuffer<i32>, ArrayRef, ArrayRef), ArrowError> {
    let order = KeyOrder::new(schema, key_type, keys.as_ref(), format);
    let in_order = offsets
        .windows(2)
        .all(|w| (w[0] as usize + 1..w[1] as usize).all(|k| order.cmp(k - 1, k).is_lt()));
    if in_order {
        return Ok((offsets, keys, values));
    }
    let mut key_take = Vec::with_capacity(keys.len());
    let mut value_take = Vec::with_capacity(keys.len());
    let mut new_offsets = Vec::with_capacity(offsets.len());
    new_offsets.push(0i32);
    for w in offsets.windows(2) {
        let mut entries: Vec<usize> = (w[0] as usize..w[1] as usize).collect();
        sort_by_java(&mut entries, |&a, &b| order.cmp(a, b));
        let start = key_take.len();
        for e in entries {
            if key_take.len() > start && order.cmp(key_take[key_take.len() - 1] as usize, e).is_eq()
            {
                *value_take.last_mut().expect("an entry before") = e as u32;
            } else {
                key_take.push(e as u32);
                value_take.push(e as u32);
            }
        }
        new_offsets.push(key_take.len() as i32);
    }
    let take = |array: &ArrayRef, indices: Vec<u32>| {
        arrow_select::take::take(array.as_ref(), &UInt32Array::from(indices), None)
    };
    Ok((
        OffsetBuffer::new(ScalarBuffer::from(new_offsets)),
        take(&keys, key_take)?,
        take(&values, value_take)?,
    ))
}
