//! Comparing values as Java would.

use hadoop_record::value::key_cmp;
use hadoop_record::Value;

/// `v` with every NaN made the canonical one, as Java's writers make it (and as `NaN` text
/// and JSON read back), so that `bitwise_eq` compares the values Java would compare.
pub fn canon(v: &Value) -> Value {
    match v {
        Value::Float(f) if f.is_nan() => Value::Float(f32::NAN),
        Value::Double(d) if d.is_nan() => Value::Double(f64::NAN),
        Value::Vector(items) => Value::Vector(items.iter().map(canon).collect()),
        Value::Record(items) => Value::Record(items.iter().map(canon).collect()),
        Value::Map(entries) => {
            Value::Map(entries.iter().map(|(k, v)| (canon(k), canon(v))).collect())
        }
        v => v.clone(),
    }
}

/// What `v` reads back as once written: NaNs canonical (see [`canon`]) and map entries in
/// Java's `TreeMap` order, equal keys merged as `TreeMap.put` merges them (the first key
/// stays, with the last value).
pub fn read_back(v: &Value) -> Value {
    match v {
        Value::Vector(items) => Value::Vector(items.iter().map(read_back).collect()),
        Value::Record(fields) => Value::Record(fields.iter().map(read_back).collect()),
        Value::Map(entries) => {
            let mut sorted: Vec<(Value, Value)> = entries
                .iter()
                .map(|(k, v)| (read_back(k), read_back(v)))
                .collect();
            // Stable: of equal keys, the order of insertion stays.
            sorted.sort_by(|a, b| key_cmp(&a.0, &b.0));
            let mut out: Vec<(Value, Value)> = Vec::new();
            for (k, v) in sorted {
                match out.last_mut() {
                    Some(last) if key_cmp(&last.0, &k).is_eq() => last.1 = v,
                    _ => out.push((k, v)),
                }
            }
            Value::Map(out)
        }
        v => canon(v),
    }
}
