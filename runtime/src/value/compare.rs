//! Hadoop's comparisons on [`Value`]s, matching [`crate::field::Field`] on typed values.

use std::cmp::Ordering;

use super::Value;
use crate::compare::{hadoop_cmp, java_f32_total_cmp, java_f64_total_cmp, utf16_cmp};
use crate::field::Field;

/// Hadoop's generated `compareTo` on two values of the same type (spec §6). Values of
/// different variants order by variant, which a schema-checked value never needs.
pub fn compare_hadoop(a: &Value, b: &Value) -> Ordering {
    cmp_with(a, b, false)
}

/// Java's `TreeMap` order of map keys: [`compare_hadoop`] except that float and double keys
/// use Java's total order (`Float.compare`). A record key orders by its `compareTo`, as
/// [`crate::field::Field::key_cmp`] does for typed records: its float fields compare as in
/// [`compare_hadoop`] (so `-0.0` and `0.0` are the same key, as in Java's `TreeMap`).
pub fn key_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Record(_), Value::Record(_)) => cmp_with(a, b, false),
        _ => cmp_with(a, b, true),
    }
}

fn cmp_with(a: &Value, b: &Value, as_key: bool) -> Ordering {
    use Value::*;
    match (a, b) {
        (Byte(x), Byte(y)) => x.cmp(y),
        (Bool(x), Bool(y)) => x.cmp(y),
        (Int(x), Int(y)) => x.cmp(y),
        (Long(x), Long(y)) => x.cmp(y),
        (Float(x), Float(y)) if as_key => java_f32_total_cmp(*x, *y),
        (Float(x), Float(y)) => hadoop_cmp(x, y),
        (Double(x), Double(y)) if as_key => java_f64_total_cmp(*x, *y),
        (Double(x), Double(y)) => hadoop_cmp(x, y),
        (String(x), String(y)) => utf16_cmp(x, y),
        (Buffer(x), Buffer(y)) => x.cmp_hadoop(y),
        (Vector(x), Vector(y)) => {
            sequence(x.iter(), y.iter(), as_key).unwrap_or_else(|| x.len().cmp(&y.len()))
        }
        (Record(x), Record(y)) => sequence(x.iter(), y.iter(), as_key).unwrap_or(Ordering::Equal),
        (Map(x), Map(y)) => {
            let (kx, ky) = (sorted_keys(x), sorted_keys(y));
            sequence(kx.into_iter(), ky.into_iter(), as_key)
                .unwrap_or_else(|| x.len().cmp(&y.len()))
        }
        _ => variant_rank(a).cmp(&variant_rank(b)),
    }
}

fn sequence<'a>(
    a: impl Iterator<Item = &'a Value>,
    b: impl Iterator<Item = &'a Value>,
    as_key: bool,
) -> Option<Ordering> {
    a.zip(b)
        .map(|(x, y)| cmp_with(x, y, as_key))
        .find(|o| o.is_ne())
}

fn sorted_keys(entries: &[(Value, Value)]) -> Vec<&Value> {
    let mut keys: Vec<&Value> = entries.iter().map(|(k, _)| k).collect();
    crate::compare::sort_by_java(&mut keys, |x, y| key_cmp(x, y));
    keys
}

fn variant_rank(v: &Value) -> u8 {
    match v {
        Value::Byte(_) => 0,
        Value::Bool(_) => 1,
        Value::Int(_) => 2,
        Value::Long(_) => 3,
        Value::Float(_) => 4,
        Value::Double(_) => 5,
        Value::String(_) => 6,
        Value::Buffer(_) => 7,
        Value::Vector(_) => 8,
        Value::Map(_) => 9,
        Value::Record(_) => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    #[test]
    fn matches_hadoop_semantics() {
        assert_eq!(compare_hadoop(&Double(-0.0), &Double(0.0)), Ordering::Equal);
        assert_eq!(key_cmp(&Double(-0.0), &Double(0.0)), Ordering::Less);
        // A record key compares with its compareTo, where -0.0 == 0.0.
        assert_eq!(
            key_cmp(&Record(vec![Double(-0.0)]), &Record(vec![Double(0.0)])),
            Ordering::Equal
        );
        assert_eq!(
            compare_hadoop(&Float(f32::NAN), &Float(f32::NAN)),
            Ordering::Greater
        );
        let m1 = Map(vec![
            (Int(2), String("b".into())),
            (Int(1), String("a".into())),
        ]);
        let m2 = Map(vec![
            (Int(1), String("z".into())),
            (Int(2), String("y".into())),
        ]);
        assert_eq!(compare_hadoop(&m1, &m2), Ordering::Equal);
        assert_eq!(
            compare_hadoop(&Vector(vec![Int(1)]), &Vector(vec![Int(1), Int(0)])),
            Ordering::Less
        );
        assert_eq!(
            compare_hadoop(&String("\u{1F600}".into()), &String("\u{FF5E}".into())),
            Ordering::Less
        );
    }
}
