//! Comparing values as Java would.

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
