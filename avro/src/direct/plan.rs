//! The plan of a direct transcoding: the record type's fields, in order, each with the one
//! Avro type of `rcc -l avro`'s schema that encodes it.

use hadoop_record::archive::DEFAULT_MAX_DEPTH;
use hadoop_record::schema::{FieldType, RecordId, Schema as Hadoop};

use crate::schema::{NamedKind, Schema, Type};

/// One value's way between Hadoop's binary encoding and Avro's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Bool,
    /// A Hadoop `byte`: an Avro `int` in −128..=127.
    Byte,
    Int,
    Long,
    Float,
    Double,
    String,
    Bytes,
    /// A `vector` as an Avro `array`.
    Vector(Box<Op>),
    /// A record's fields, in order.
    Record(Box<[Op]>),
}

impl Op {
    /// The least number of bytes a value takes, in either encoding.
    fn width(&self) -> usize {
        match self {
            Op::Float => 4,
            Op::Double => 8,
            Op::Record(fields) => fields.iter().map(Op::width).sum(),
            _ => 1,
        }
    }

    /// How many records and vectors are open at once inside this value, itself included.
    fn depth(&self) -> usize {
        match self {
            Op::Vector(item) => 1 + item.depth(),
            Op::Record(fields) => 1 + fields.iter().map(Op::depth).max().unwrap_or(0),
            _ => 0,
        }
    }
}

/// The plan of record `id` of `hadoop` against `avro`'s root type, when the two are the same
/// type to the letter: the same fields in the same order with the same names, each of the
/// Avro type that `rcc -l avro` gives its DDL type. `None` for anything else, which the
/// Arrow way reads (Avro's schema resolution: reordered, missing or promoted fields), and
/// for what it alone handles: maps (Java's key order), recursive records, vectors of values
/// of no bytes (a count the bytes do not bound), nesting deeper than the readers' limit.
pub(crate) fn plan(hadoop: &Hadoop, id: RecordId, avro: &Schema) -> Option<Op> {
    let op = matched(
        hadoop,
        &FieldType::Record(id),
        avro,
        &avro.root,
        &mut Vec::new(),
    )?;
    (op.width() > 0 && op.depth() <= DEFAULT_MAX_DEPTH).then_some(op)
}

fn matched(
    hadoop: &Hadoop,
    ty: &FieldType,
    avro: &Schema,
    at: &Type,
    open: &mut Vec<RecordId>,
) -> Option<Op> {
    Some(match (ty, at) {
        (FieldType::Bool, Type::Boolean) => Op::Bool,
        (FieldType::Byte, Type::Int) => Op::Byte,
        (FieldType::Int, Type::Int) => Op::Int,
        (FieldType::Long, Type::Long) => Op::Long,
        (FieldType::Float, Type::Float) => Op::Float,
        (FieldType::Double, Type::Double) => Op::Double,
        (FieldType::String, Type::String) => Op::String,
        (FieldType::Buffer, Type::Bytes) => Op::Bytes,
        (
            FieldType::Vector(item),
            Type::Array {
                items,
                hadoop_map: false,
            },
        ) => {
            let item = matched(hadoop, item, avro, items, open)?;
            if item.width() == 0 {
                return None;
            }
            Op::Vector(Box::new(item))
        }
        (FieldType::Record(id), Type::Named(i)) => {
            let NamedKind::Record(fields) = &avro.named[*i].kind else {
                return None;
            };
            let record = hadoop.record(*id)?;
            if open.contains(id) || record.fields.len() != fields.len() {
                return None;
            }
            open.push(*id);
            let ops = record
                .fields
                .iter()
                .zip(fields)
                .map(|(h, a)| {
                    (h.name == a.name)
                        .then(|| matched(hadoop, &h.ty, avro, &a.ty, open))
                        .flatten()
                })
                .collect::<Option<Vec<Op>>>();
            open.pop();
            Op::Record(ops?.into_boxed_slice())
        }
        _ => return None,
    })
}
