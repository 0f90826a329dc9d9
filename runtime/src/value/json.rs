//! [`Value`]s as JSON.
//!
//! [`from_json`] reads the value form of the reference fixtures' manifests: records are
//! objects with fields in declaration order, `long`s outside ±2^53 are decimal strings,
//! floats are `{"value": "<Java text>", "bits": "0x…"}` (the bits authoritative), buffers
//! are lowercase hex, maps are arrays of `[key, value]` pairs.
//!
//! [`to_json`] writes the same form made for people (what `rcc convert --to json` prints):
//! one line, floats and doubles as plain JSON numbers in Java's text (`1.0E10`, `-0.0`),
//! non-finite ones as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, strings as UTF-8.
//! [`from_json`] reads it back to the same bits, NaN payloads aside.
//!
//! ```
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::value::json::{from_json, to_json};
//! use hadoop_record::Value;
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType {
//!     module: "m".into(),
//!     name: "R".into(),
//!     fields: vec![
//!         FieldDef::new("d", FieldType::Double),
//!         FieldDef::new("l", FieldType::Long),
//!         FieldDef::new("b", FieldType::Buffer),
//!     ],
//! });
//! let ty = FieldType::Record(id);
//! let value = Value::Record(vec![Value::Double(1e10), Value::Long(i64::MAX), Value::Buffer(vec![0xca, 0xfe])]);
//! let text = to_json(&schema, &ty, &value)?;
//! assert_eq!(text, r#"{"d": 1.0E10, "l": "9223372036854775807", "b": "cafe"}"#);
//! let back = from_json(&schema, &ty, &serde_json::from_str(&text).unwrap())?;
//! assert!(back.bitwise_eq(&value));
//! # Ok::<(), hadoop_record::Error>(())
//! ```

use serde_json::Value as Json;

use super::Value;
use crate::archive::text::{push_double, push_float};
use crate::error::{Error, ErrorKind, Result};
use crate::schema::{FieldType, Schema};

/// The largest magnitude a `long` is written as a JSON number with (2^53): beyond it,
/// readers that hold numbers as doubles would change the value, so it is a string.
const MAX_JSON_INTEGER: i64 = 1 << 53;

/// Writes `value`, of type `ty`, as one line of JSON (see the [module docs](self)).
///
/// A value that does not match the type is an [`ErrorKind::Schema`] error naming the field
/// path.
pub fn to_json(schema: &Schema, ty: &FieldType, value: &Value) -> Result<String> {
    let mut out = Vec::new();
    write_json(&mut out, schema, ty, value)?;
    // Only UTF-8 is ever written: ASCII punctuation, Java float text, hex, and strings
    // escaped by serde_json.
    String::from_utf8(out).map_err(|_| Error::new(ErrorKind::Encoding, "JSON is not UTF-8"))
}

/// Appends `value`, of type `ty`, to `out` as one line of JSON, without a line end; see
/// [`to_json`].
pub fn write_json(out: &mut Vec<u8>, schema: &Schema, ty: &FieldType, value: &Value) -> Result<()> {
    use std::io::Write as _;
    match (ty, value) {
        (FieldType::Byte, Value::Byte(v)) => write!(out, "{v}")?,
        (FieldType::Bool, Value::Bool(v)) => write!(out, "{v}")?,
        (FieldType::Int, Value::Int(v)) => write!(out, "{v}")?,
        (FieldType::Long, Value::Long(v)) => {
            if (-MAX_JSON_INTEGER..=MAX_JSON_INTEGER).contains(v) {
                write!(out, "{v}")?;
            } else {
                write!(out, "\"{v}\"")?;
            }
        }
        (FieldType::Float, Value::Float(v)) => {
            if v.is_finite() {
                push_float(out, *v);
            } else {
                non_finite(out, v.is_nan(), v.is_sign_negative());
            }
        }
        (FieldType::Double, Value::Double(v)) => {
            if v.is_finite() {
                push_double(out, *v);
            } else {
                non_finite(out, v.is_nan(), v.is_sign_negative());
            }
        }
        (FieldType::String | FieldType::Buffer | FieldType::Vector(_), Value::Null) => {
            out.extend_from_slice(b"null");
        }
        (FieldType::String, Value::String(v)) => {
            serde_json::to_writer(&mut *out, v.as_str())
                .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        }
        (FieldType::Buffer, Value::Buffer(v)) => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.reserve(v.len() * 2 + 2);
            out.push(b'"');
            for b in v {
                out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
            }
            out.push(b'"');
        }
        (FieldType::Vector(element), Value::Vector(items)) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                write_json(out, schema, element, item).map_err(|e| e.in_index(i as u64))?;
            }
            out.push(b']');
        }
        (FieldType::Map(kt, vt), Value::Map(entries)) => {
            out.push(b'[');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                out.push(b'[');
                write_json(out, schema, kt, k)
                    .and_then(|()| {
                        out.extend_from_slice(b", ");
                        write_json(out, schema, vt, v)
                    })
                    .map_err(|e| e.in_index(i as u64))?;
                out.push(b']');
            }
            out.push(b']');
        }
        (FieldType::Record(id), Value::Record(fields)) => {
            let record = schema.record(*id);
            if fields.len() != record.fields.len() {
                return Err(schema_error(format!(
                    "{} has {} fields but the value has {}",
                    record.name,
                    record.fields.len(),
                    fields.len()
                )));
            }
            out.push(b'{');
            for (i, (def, field)) in record.fields.iter().zip(fields).enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                serde_json::to_writer(&mut *out, def.name.as_str())
                    .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
                out.extend_from_slice(b": ");
                write_json(out, schema, &def.ty, field).map_err(|e| e.in_field(&def.name))?;
            }
            out.push(b'}');
        }
        (ty, value) => {
            return Err(schema_error(format!(
                "expected {} but the value is a {}",
                schema.type_name(ty),
                value.type_name()
            )))
        }
    }
    Ok(())
}

/// `"NaN"`, `"Infinity"` or `"-Infinity"`: JSON has no numbers for them.
fn non_finite(out: &mut Vec<u8>, nan: bool, negative: bool) {
    out.extend_from_slice(match (nan, negative) {
        (true, _) => b"\"NaN\"",
        (false, false) => b"\"Infinity\"",
        (false, true) => b"\"-Infinity\"",
    });
}

fn schema_error(message: String) -> Error {
    Error::new(ErrorKind::Schema, message)
}

/// Converts JSON in the fixture value form into a [`Value`] of type `ty`.
///
/// Floats and doubles are taken from `bits` when present, else parsed from `value` (or
/// from a plain JSON number or string: `"NaN"`, `"Infinity"`, `"-Infinity"`); longs may be
/// numbers or decimal strings. Plain numbers are exact when serde_json's
/// `float_roundtrip` feature is on (the `json` feature turns it on).
pub fn from_json(schema: &Schema, ty: &FieldType, json: &Json) -> Result<Value> {
    let mismatch = || {
        schema_error(format!(
            "expected {} but found JSON {}",
            schema.type_name(ty),
            json_kind(json)
        ))
    };
    if json.is_null()
        && matches!(
            ty,
            FieldType::String | FieldType::Buffer | FieldType::Vector(_)
        )
    {
        return Ok(Value::Null);
    }
    Ok(match ty {
        FieldType::Byte => Value::Byte(integer(json, mismatch)?),
        FieldType::Bool => Value::Bool(json.as_bool().ok_or_else(mismatch)?),
        FieldType::Int => Value::Int(integer(json, mismatch)?),
        FieldType::Long => Value::Long(integer(json, mismatch)?),
        FieldType::Float => {
            let bits = float_bits(json, 8)?;
            Value::Float(match (bits, json) {
                (Some(b), _) => f32::from_bits(b as u32),
                (None, Json::Number(n)) => narrow(n.as_f64().ok_or_else(mismatch)?),
                (None, _) => float_text(json)
                    .ok_or_else(mismatch)?
                    .parse()
                    .map_err(|_| mismatch())?,
            })
        }
        FieldType::Double => {
            let bits = float_bits(json, 16)?;
            Value::Double(match (bits, json) {
                (Some(b), _) => f64::from_bits(b),
                (None, Json::Number(n)) => n.as_f64().ok_or_else(mismatch)?,
                (None, _) => float_text(json)
                    .ok_or_else(mismatch)?
                    .parse()
                    .map_err(|_| mismatch())?,
            })
        }
        FieldType::String => Value::String(json.as_str().ok_or_else(mismatch)?.to_owned()),
        FieldType::Buffer => Value::Buffer(hex(json.as_str().ok_or_else(mismatch)?)?),
        FieldType::Vector(element) => Value::Vector(
            json.as_array()
                .ok_or_else(mismatch)?
                .iter()
                .enumerate()
                .map(|(i, item)| from_json(schema, element, item).map_err(|e| e.in_index(i as u64)))
                .collect::<Result<_>>()?,
        ),
        FieldType::Map(kt, vt) => Value::Map(
            json.as_array()
                .ok_or_else(mismatch)?
                .iter()
                .enumerate()
                .map(|(i, pair)| {
                    let pair = match pair.as_array().map(Vec::as_slice) {
                        Some([k, v]) => (k, v),
                        _ => {
                            return Err(schema_error(
                                "a map entry must be a [key, value] array".into(),
                            ))
                        }
                    };
                    Ok((
                        from_json(schema, kt, pair.0)?,
                        from_json(schema, vt, pair.1)?,
                    ))
                    .map_err(|e: Error| e.in_index(i as u64))
                })
                .collect::<Result<_>>()?,
        ),
        FieldType::Record(id) => {
            let record = schema.record(*id);
            let object = json.as_object().ok_or_else(mismatch)?;
            if let Some(unknown) = object
                .keys()
                .find(|k| !record.fields.iter().any(|f| &f.name == *k))
            {
                return Err(schema_error(format!(
                    "{} has no field `{unknown}`",
                    record.name
                )));
            }
            Value::Record(
                record
                    .fields
                    .iter()
                    .map(|def| {
                        let field = object
                            .get(&def.name)
                            .ok_or_else(|| schema_error(format!("missing field `{}`", def.name)))?;
                        from_json(schema, &def.ty, field).map_err(|e| e.in_field(&def.name))
                    })
                    .collect::<Result<_>>()?,
            )
        }
    })
}

/// The float a JSON number stands for, given the double serde_json read it as.
///
/// The number's text is gone by now, and narrowing the double is not always right: the
/// text was rounded once to the double and would be rounded again to the float, which
/// for one float lands on a neighbour (`7.038531E-26`, Java's own JDK-4396272). So a
/// float whose Java text reads as exactly this double wins: the nearest, else one of its
/// two neighbours. For the text [`to_json`] writes this gives back every finite float
/// (checked once for all positive bit patterns, negatives being symmetric: plain
/// narrowing gets exactly one of them wrong); for other text it is the nearest float, or
/// at worst its neighbour.
fn narrow(x: f64) -> f32 {
    let nearest = x as f32;
    let reads_as_x = |f: f32| {
        let mut text = Vec::with_capacity(16);
        push_float(&mut text, f);
        // Java text is ASCII, and Rust's parser rounds correctly, like serde_json's
        // `float_roundtrip`.
        std::str::from_utf8(&text)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            == Some(x)
    };
    if !nearest.is_finite() || reads_as_x(nearest) {
        return nearest;
    }
    [nearest.next_up(), nearest.next_down()]
        .into_iter()
        .find(|&f| f.is_finite() && reads_as_x(f))
        .unwrap_or(nearest)
}

fn json_kind(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn integer<T: TryFrom<i64>>(json: &Json, mismatch: impl Fn() -> Error) -> Result<T> {
    let wide = match json {
        Json::Number(n) => n.as_i64(),
        Json::String(s) => s.parse::<i64>().ok(),
        _ => None,
    }
    .ok_or_else(&mismatch)?;
    T::try_from(wide).map_err(|_| {
        Error::new(ErrorKind::Overflow, format!("{wide} is out of range")).with_source(mismatch())
    })
}

fn float_bits(json: &Json, digits: usize) -> Result<Option<u64>> {
    let Some(bits) = json.get("bits") else {
        return Ok(None);
    };
    bits.as_str()
        .and_then(|s| s.strip_prefix("0x"))
        .filter(|s| s.len() == digits)
        .and_then(|s| u64::from_str_radix(s, 16).ok())
        .map(Some)
        .ok_or_else(|| schema_error(format!("`bits` must be 0x and {digits} hex digits")))
}

fn float_text(json: &Json) -> Option<String> {
    match json {
        Json::Number(n) => Some(n.to_string()),
        Json::String(s) => Some(s.clone()),
        Json::Object(o) => o.get("value")?.as_str().map(str::to_owned),
        _ => None,
    }
}

fn hex(text: &str) -> Result<Vec<u8>> {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(schema_error(
            "a buffer needs an even number of hex digits".into(),
        ));
    }
    bytes
        .chunks(2)
        .map(|pair| match (digit(pair[0]), digit(pair[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => Err(schema_error(format!("`{text}` is not hex"))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{FieldDef, RecordType};

    #[test]
    fn fixture_value_form() {
        let mut s = Schema::new();
        let id = s.add(RecordType {
            module: String::new(),
            name: "R".into(),
            fields: vec![
                FieldDef::new("l", FieldType::Long),
                FieldDef::new("f", FieldType::Float),
                FieldDef::new("b", FieldType::Buffer),
                FieldDef::new(
                    "m",
                    FieldType::Map(Box::new(FieldType::Int), Box::new(FieldType::String)),
                ),
            ],
        });
        let json: Json = serde_json::from_str(
            r#"{"l": "9223372036854775807", "f": {"value": "NaN", "bits": "0x7fc00001"},
                "b": "00ff", "m": [[1, "a"]]}"#,
        )
        .unwrap();
        let v = from_json(&s, &FieldType::Record(id), &json).unwrap();
        let Value::Record(fields) = v else { panic!() };
        assert_eq!(fields[0], Value::Long(i64::MAX));
        assert!(matches!(fields[1], Value::Float(f) if f.to_bits() == 0x7fc0_0001));
        assert_eq!(fields[2], Value::Buffer(vec![0, 255]));
        assert_eq!(
            fields[3],
            Value::Map(vec![(Value::Int(1), Value::String("a".into()))])
        );

        let bad: Json = serde_json::from_str(r#"{"l": 1, "f": 1.5, "b": "0g", "m": []}"#).unwrap();
        let e = from_json(&s, &FieldType::Record(id), &bad).unwrap_err();
        assert_eq!(e.path(), "b");
    }
}
