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
}

/// The plan of record `id` of `hadoop` against `avro`'s root type, when the two are the same
/// type to the letter: the same fields in the same order with the same names, each of the
/// Avro type that `rcc -l avro` gives its DDL type. `None` for anything else, which the
/// Arrow way reads (Avro's schema resolution: reordered, missing or promoted fields), and
/// for what it alone handles: maps (Java's key order), recursive records, vectors of values
/// of no bytes (a count the bytes do not bound), nesting deeper than the readers' limit.
///
/// A record inside a record is its fields in both encodings, so its ops are the outer
/// record's own (one dispatch less a field); the plan's records are those of vectors and
/// the top.
pub(crate) fn plan(hadoop: &Hadoop, id: RecordId, avro: &Schema) -> Option<Op> {
    let op = matched(
        hadoop,
        &FieldType::Record(id),
        avro,
        &avro.root,
        &mut Vec::new(),
        1,
    )?;
    (op.width() > 0).then_some(op)
}

/// The op of `ty` against `at`, `depth` records and vectors deep (itself included).
fn matched(
    hadoop: &Hadoop,
    ty: &FieldType,
    avro: &Schema,
    at: &Type,
    open: &mut Vec<RecordId>,
    depth: usize,
) -> Option<Op> {
    if depth > DEFAULT_MAX_DEPTH {
        return None;
    }
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
            let item = matched(hadoop, item, avro, items, open, depth + 1)?;
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
            let mut ops = Vec::with_capacity(fields.len());
            for (h, a) in record.fields.iter().zip(fields) {
                let op = (h.name == a.name)
                    .then(|| matched(hadoop, &h.ty, avro, &a.ty, open, depth + 1))
                    .flatten();
                match op {
                    Some(Op::Record(inner)) => ops.extend(inner.into_vec()),
                    Some(op) => ops.push(op),
                    None => {
                        open.pop();
                        return None;
                    }
                }
            }
            open.pop();
            Op::Record(ops.into_boxed_slice())
        }
        _ => return None,
    })
}
