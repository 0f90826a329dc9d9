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
        // Null first, as `Comparator.nullsFirst` orders it (jute's `compareTo` throws).
        (Null, Null) => Ordering::Equal,
        (Null, _) => Ordering::Less,
        (_, Null) => Ordering::Greater,
        _ => variant_rank(a).cmp(&variant_rank(b)),
    }
}

/// Hadoop's generated `equals` on two values of the same type (spec §6).
///
/// A record's numeric fields compare with `==` (NaN differs from itself, −0.0 equals 0.0),
/// while vector and map elements compare as Java's boxed values do (`Float.equals`: NaN
/// equals NaN, −0.0 differs from 0.0). Maps are equal when they hold the same keys (by
/// [`key_cmp`], as `TreeMap.get` finds them) with equal values; unlike [`compare_hadoop`],
/// values count.
///
/// ```
/// use hadoop_record::value::equals_hadoop;
/// use hadoop_record::Value::*;
/// assert!(!equals_hadoop(&Record(vec![Double(f64::NAN)]), &Record(vec![Double(f64::NAN)])));
/// assert!(equals_hadoop(&Vector(vec![Double(f64::NAN)]), &Vector(vec![Double(f64::NAN)])));
/// assert!(equals_hadoop(&Record(vec![Double(-0.0)]), &Record(vec![Double(0.0)])));
/// ```
pub fn equals_hadoop(a: &Value, b: &Value) -> bool {
    eq_with(a, b, false)
}

/// `boxed`: the value sits in a vector or map, where Java compares `Float`/`Double` objects.
fn eq_with(a: &Value, b: &Value, boxed: bool) -> bool {
    use Value::*;
    match (a, b) {
        (Float(x), Float(y)) if boxed => java_f32_total_cmp(*x, *y).is_eq(),
        (Float(x), Float(y)) => x == y,
        (Double(x), Double(y)) if boxed => java_f64_total_cmp(*x, *y).is_eq(),
        (Double(x), Double(y)) => x == y,
        (Vector(x), Vector(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| eq_with(x, y, true))
        }
        (Record(x), Record(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| eq_with(x, y, false))
        }
        (Map(x), Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.iter()
                        .find(|(k2, _)| key_cmp(k, k2).is_eq())
                        .is_some_and(|(_, v2)| eq_with(v, v2, true))
                })
        }
        _ => a == b,
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
        Value::Null => 11,
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

    #[test]
    fn equality_is_javas() {
        // Map values count for equals though compareTo ignores them.
        let m1 = Map(vec![(Int(1), String("a".into()))]);
        let m2 = Map(vec![(Int(1), String("b".into()))]);
        assert_eq!(compare_hadoop(&m1, &m2), Ordering::Equal);
        assert!(!equals_hadoop(&m1, &m2));
        // Entry order does not matter; keys are found as TreeMap.get finds them.
        let m3 = Map(vec![(Float(0.0), Int(1)), (Float(-0.0), Int(2))]);
        let m4 = Map(vec![(Float(-0.0), Int(2)), (Float(0.0), Int(1))]);
        assert!(equals_hadoop(&m3, &m4));
        let m5 = Map(vec![(Float(0.0), Int(2)), (Float(-0.0), Int(1))]);
        assert!(!equals_hadoop(&m3, &m5));
        // A record key holding NaN is never found, so such maps are never equal.
        let nan_key = || Map(vec![(Record(vec![Double(f64::NAN)]), Int(0))]);
        assert!(!equals_hadoop(&nan_key(), &nan_key()));
        assert!(!equals_hadoop(
            &Vector(vec![Float(0.0)]),
            &Vector(vec![Float(-0.0)])
        ));
        assert!(!equals_hadoop(
            &Vector(vec![Int(1)]),
            &Vector(vec![Int(1), Int(1)])
        ));
    }
}
