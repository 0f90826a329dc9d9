//! Hadoop's generated `hashCode` on [`Value`]s: the exact `int` Java returns, so that a
//! Rust producer can partition records as Hadoop's `HashPartitioner` does.

use super::Value;
use crate::java_bits::{double_to_long_bits, float_to_int_bits};

/// The `hashCode()` of Hadoop's generated class for a record value (spec §6), or of the
/// field for any other value.
///
/// A record starts at 17 and folds each field in with `37 * result + h`, where a boolean
/// field gives `true → 0, false → 1` and the other fields their Java hash. Vectors hash as
/// `ArrayList`, maps as `TreeMap` (the sum of `key ^ value` over entries), strings as
/// `String` (UTF-16 code units), buffers as Hadoop's `Buffer` (`31 * h + signed byte`,
/// from 1). Elements of vectors and maps are Java's boxed values (`Boolean`: 1231/1237).
///
/// ```
/// use hadoop_record::value::hash_hadoop;
/// use hadoop_record::Value::*;
/// // oracle.common.types.Point{x: 1, y: 2}: 37 * (37 * 17 + 1) + 2
/// assert_eq!(hash_hadoop(&Record(vec![Int(1), Int(2)])), 23312);
/// assert_eq!(hash_hadoop(&String("ab".into())), "ab".chars().fold(0, |h, c| 31 * h + c as i32));
/// ```
pub fn hash_hadoop(value: &Value) -> i32 {
    hash_with(value, false)
}

/// `boxed`: the value sits in a vector or map, where Java hashes the boxed object.
fn hash_with(value: &Value, boxed: bool) -> i32 {
    match value {
        Value::Byte(b) => i32::from(*b),
        Value::Bool(z) if boxed => {
            if *z {
                1231
            } else {
                1237
            }
        }
        Value::Bool(z) => i32::from(!*z),
        Value::Int(i) => *i,
        Value::Long(l) => long_hash(*l),
        Value::Float(f) => float_to_int_bits(*f) as i32,
        Value::Double(d) => long_hash(double_to_long_bits(*d) as i64),
        Value::String(s) => s.encode_utf16().fold(0i32, |h, unit| {
            h.wrapping_mul(31).wrapping_add(i32::from(unit))
        }),
        Value::Buffer(b) => b.iter().fold(1i32, |h, &byte| {
            h.wrapping_mul(31).wrapping_add(i32::from(byte as i8))
        }),
        Value::Vector(items) => items.iter().fold(1i32, |h, item| {
            h.wrapping_mul(31).wrapping_add(hash_with(item, true))
        }),
        Value::Map(entries) => entries.iter().fold(0i32, |h, (k, v)| {
            h.wrapping_add(hash_with(k, true) ^ hash_with(v, true))
        }),
        Value::Record(fields) => fields.iter().fold(17i32, |h, field| {
            h.wrapping_mul(37).wrapping_add(hash_with(field, false))
        }),
        // `Objects.hashCode(null)`.
        Value::Null => 0,
    }
}

/// `(int) (v ^ (v >>> 32))`, Java's `Long.hashCode`.
fn long_hash(v: i64) -> i32 {
    (v ^ ((v as u64) >> 32) as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    #[test]
    fn javas_boxed_and_field_hashes() {
        // Field booleans: true → 0; boxed: Boolean.hashCode.
        assert_eq!(hash_hadoop(&Record(vec![Bool(true)])), 37 * 17);
        assert_eq!(hash_hadoop(&Record(vec![Bool(false)])), 37 * 17 + 1);
        assert_eq!(hash_hadoop(&Vector(vec![Bool(true)])), 31 + 1231);
        assert_eq!(hash_hadoop(&Long(-1)), 0);
        assert_eq!(hash_hadoop(&Long(1 << 32)), 1);
        assert_eq!(hash_hadoop(&Double(1.0)), 1_072_693_248);
        assert_eq!(
            hash_hadoop(&Float(f32::from_bits(0x7f80_0001))),
            0x7fc0_0000
        );
        assert_eq!(hash_hadoop(&Buffer(vec![0xff])), 31 - 1);
        // U+1F600 hashes as its two surrogates.
        assert_eq!(
            hash_hadoop(&String("\u{1F600}".into())),
            0xD83D * 31 + 0xDE00
        );
        // TreeMap: the sum over entries of key ^ value.
        let m = Map(vec![(Int(3), String("a".into())), (Int(5), Int(6))]);
        assert_eq!(hash_hadoop(&m), (3 ^ 97) + (5 ^ 6));
    }
}
