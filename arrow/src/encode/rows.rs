//! [`Rows`]: a checked batch, written one record per row through any [`RecordOutput`].

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type, Int8Type};
use arrow_array::{Array, ArrayRef, BinaryArray, RecordBatch, StringArray};
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, SchemaRef};
use hadoop_record::archive::NullType;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::ValueOutput;
use hadoop_record::{Error, ErrorKind, Format, RecordOutput, RecordWriter, Result, Value};

use super::conform::struct_children;
use super::{EncodeOptions, Visit};
use crate::mapping::MappingOptions;
use crate::order::KeyOrder;
use crate::recursive;

/// The rows of a batch checked against a record type, ready to write.
#[derive(Debug)]
pub struct Rows {
    schema: Arc<Schema>,
    type_name: Arc<str>,
    fields: Vec<Src>,
    names: Vec<String>,
    len: usize,
}

impl Rows {
    pub(super) fn new(
        schema: Arc<Schema>,
        record: RecordId,
        type_name: Arc<str>,
        expected: &SchemaRef,
        batch: &RecordBatch,
        options: EncodeOptions,
    ) -> Result<Rows> {
        let def = crate::mapping::record_type(&schema, record);
        let columns = struct_children(&schema, record, expected.fields(), &batch.clone().into())?;
        let mapping = MappingOptions::default().with_nullable(options.nullable);
        let mut built = Vec::with_capacity(columns.len());
        for (f, array) in def.fields.iter().zip(&columns) {
            built.push(Src::new(&schema, &f.ty, array, mapping).map_err(|e| e.in_field(&f.name))?);
        }
        Ok(Rows {
            names: def.fields.iter().map(|f| f.name.clone()).collect(),
            fields: built,
            len: batch.num_rows(),
            type_name,
            schema,
        })
    }

    /// Rows in the batch.
    pub fn num_rows(&self) -> usize {
        self.len
    }

    /// Writes row `row` as one top-level record to `out`. Errors carry the field path below
    /// the record (`tags[2]`); [`Rows::write_to`] adds the record number and type name.
    pub fn write_row<O: RecordOutput + ?Sized>(&self, row: usize, out: &mut O) -> Result<()> {
        out.start_record("")?;
        for (src, name) in self.fields.iter().zip(&self.names) {
            src.write(&self.schema, row, out, name)
                .map_err(|e| e.in_field(name))?;
        }
        out.end_record("")
    }

    /// Row `row` as a [`Value`] (as the runtime would read the record its row writes).
    pub fn value(&self, row: usize) -> Result<Value> {
        let mut out = ValueOutput::new();
        self.write_row(row, &mut out)
            .map_err(|e| e.in_field(&self.type_name))?;
        Ok(out.into_value().expect("a record was written"))
    }

    /// Writes row `row` through `writer`, with its errors and clean-up: the writer's record
    /// number and the field path rooted at the type name.
    pub fn write_to<W: Write>(&self, row: usize, writer: &mut RecordWriter<W>) -> Result<()> {
        writer.write_visit(&self.type_name, &mut Visit { rows: self, row })
    }
}

/// One column, downcast once, with what writing it needs.
#[derive(Debug)]
struct Src {
    kind: Kind,
    /// Present when the column holds nulls.
    nulls: Option<NullBuffer>,
    /// What a null stands for where the type can be null (jute's nullable types).
    null_type: Option<NullType>,
    /// The Hadoop type, for messages.
    type_name: String,
}

#[derive(Debug)]
enum Kind {
    Byte(ScalarBuffer<i8>),
    Bool(BooleanBuffer),
    Int(ScalarBuffer<i32>),
    Long(ScalarBuffer<i64>),
    Float(ScalarBuffer<f32>),
    Double(ScalarBuffer<f64>),
    String(StringArray),
    Buffer(BinaryArray),
    Vector {
        offsets: OffsetBuffer<i32>,
        items: Box<Src>,
    },
    Map {
        offsets: OffsetBuffer<i32>,
        keys: Box<Src>,
        values: Box<Src>,
        /// Maps whose keys are out of order: map → (first bad entry, how it compares with
        /// the entry before it).
        bad: HashMap<usize, (usize, std::cmp::Ordering)>,
    },
    Record {
        fields: Vec<Src>,
        names: Vec<String>,
    },
    Encoded {
        bytes: BinaryArray,
        ty: FieldType,
        format: Format,
    },
}

impl Src {
    /// `array`, already conformed to the mapping of `ty`.
    fn new(
        schema: &Schema,
        ty: &FieldType,
        array: &ArrayRef,
        mapping: MappingOptions,
    ) -> Result<Src> {
        let kind = match ty {
            FieldType::Byte => Kind::Byte(array.as_primitive::<Int8Type>().values().clone()),
            FieldType::Bool => Kind::Bool(array.as_boolean().values().clone()),
            FieldType::Int => Kind::Int(array.as_primitive::<Int32Type>().values().clone()),
            FieldType::Long => Kind::Long(array.as_primitive::<Int64Type>().values().clone()),
            FieldType::Float => Kind::Float(array.as_primitive::<Float32Type>().values().clone()),
            FieldType::Double => Kind::Double(array.as_primitive::<Float64Type>().values().clone()),
            FieldType::String => Kind::String(array.as_string::<i32>().clone()),
            FieldType::Buffer => Kind::Buffer(array.as_binary::<i32>().clone()),
            FieldType::Vector(element) => {
                let list = array.as_list::<i32>();
                Kind::Vector {
                    offsets: list.offsets().clone(),
                    items: Box::new(Src::new(schema, element, list.values(), mapping)?),
                }
            }
            FieldType::Map(k, v) => {
                let map = array.as_map();
                let order =
                    KeyOrder::new(schema, k, map.keys().as_ref(), mapping.recursive_encoding());
                let mut bad = HashMap::new();
                for (m, w) in map.value_offsets().windows(2).enumerate() {
                    for e in w[0] as usize + 1..w[1] as usize {
                        // `is_gt`, not `is_lt` of the reverse: keys with NaN fields compare
                        // greater both ways in Java, and a TreeMap keeps them in insertion order.
                        let o = order.cmp(e, e - 1);
                        if !o.is_gt() {
                            bad.insert(m, (e - w[0] as usize, o));
                            break;
                        }
                    }
                }
                Kind::Map {
                    offsets: map.offsets().clone(),
                    keys: Box::new(Src::new(schema, k, map.keys(), mapping)?),
                    values: Box::new(Src::new(schema, v, map.values(), mapping)?),
                    bad,
                }
            }
            FieldType::Record(id) if array.data_type() == &DataType::Binary => Kind::Encoded {
                bytes: array.as_binary::<i32>().clone(),
                ty: FieldType::Record(*id),
                format: mapping.recursive_encoding(),
            },
            FieldType::Record(id) => {
                let record = array.as_struct();
                let def = crate::mapping::record_type(schema, *id);
                let mut fields = Vec::with_capacity(def.fields.len());
                for (f, column) in def.fields.iter().zip(record.columns()) {
                    fields.push(
                        Src::new(schema, &f.ty, column, mapping)
                            .map_err(|e| e.in_field(&f.name))?,
                    );
                }
                Kind::Record {
                    fields,
                    names: def.fields.iter().map(|f| f.name.clone()).collect(),
                }
            }
        };
        let null_type = match ty {
            _ if !crate::mapping::is_nullable(ty, mapping) => None,
            FieldType::String => Some(NullType::String),
            FieldType::Buffer => Some(NullType::Buffer),
            _ => Some(NullType::Vector),
        };
        Ok(Src {
            kind,
            nulls: array.nulls().filter(|n| n.null_count() > 0).cloned(),
            null_type,
            type_name: crate::mapping::type_name(schema, ty),
        })
    }

    /// Writes value `i` under `tag`.
    fn write<O: RecordOutput + ?Sized>(
        &self,
        schema: &Schema,
        i: usize,
        out: &mut O,
        tag: &str,
    ) -> Result<()> {
        if self.nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            return self.write_null(out, tag);
        }
        match &self.kind {
            Kind::Byte(v) => out.write_byte(v[i], tag),
            Kind::Bool(v) => out.write_bool(v.value(i), tag),
            Kind::Int(v) => out.write_int(v[i], tag),
            Kind::Long(v) => out.write_long(v[i], tag),
            Kind::Float(v) => out.write_float(v[i], tag),
            Kind::Double(v) => out.write_double(v[i], tag),
            Kind::String(v) => out.write_string(v.value(i), tag),
            Kind::Buffer(v) => out.write_buffer(v.value(i), tag),
            Kind::Vector { offsets, items } => {
                let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
                out.start_vector(end - start, tag)?;
                for (n, item) in (start..end).enumerate() {
                    items
                        .write(schema, item, out, tag)
                        .map_err(|e| e.in_index(n as u64))?;
                }
                out.end_vector(tag)
            }
            Kind::Map {
                offsets,
                keys,
                values,
                bad,
            } => {
                if let Some(&(entry, order)) = bad.get(&i) {
                    return Err(unordered(entry, order));
                }
                let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
                out.start_map(end - start, tag)?;
                for (n, entry) in (start..end).enumerate() {
                    keys.write(schema, entry, out, tag)
                        .and_then(|()| values.write(schema, entry, out, tag))
                        .map_err(|e| e.in_index(n as u64))?;
                }
                out.end_map(tag)
            }
            Kind::Record { fields, names } => {
                out.start_record(tag)?;
                for (f, name) in fields.iter().zip(names) {
                    f.write(schema, i, out, name)
                        .map_err(|e| e.in_field(name))?;
                }
                out.end_record(tag)
            }
            Kind::Encoded { bytes, ty, format } => {
                recursive::transcode(schema, ty, bytes.value(i), *format, out, tag)
            }
        }
    }

    #[cold]
    fn write_null<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        match self.null_type {
            Some(ty) => out.write_null(ty, tag),
            None => Err(Error::new(
                ErrorKind::Schema,
                format!(
                    "a null, which Hadoop's {} cannot hold (Hadoop has no nulls)",
                    self.type_name
                ),
            )),
        }
    }
}

#[cold]
fn unordered(entry: usize, order: std::cmp::Ordering) -> Error {
    let what = if order.is_eq() {
        "its key equals the one before it (Java's compareTo): a Hadoop map holds each key once"
    } else {
        "its key sorts before the one before it: a Hadoop map's entries are in its key order \
         (Java's compareTo)"
    };
    Error::new(ErrorKind::Schema, what).in_index(entry as u64)
}
