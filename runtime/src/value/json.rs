//! [`Value`]s as JSON, in the value form of the reference fixtures' manifests:
//! records are objects with fields in declaration order, `long`s outside ±2^53 are decimal
//! strings, floats are `{"value": "<Java text>", "bits": "0x…"}` (the bits authoritative),
//! buffers are lowercase hex, maps are arrays of `[key, value]` pairs.

use serde_json::Value as Json;

use super::Value;
use crate::error::{Error, ErrorKind, Result};
use crate::schema::{FieldType, Schema};

fn schema_error(message: String) -> Error {
    Error::new(ErrorKind::Schema, message)
}

/// Converts JSON in the fixture value form into a [`Value`] of type `ty`.
///
/// Floats and doubles are taken from `bits` when present, else parsed from `value` (or
/// from a plain JSON number or string); longs may be numbers or decimal strings.
pub fn from_json(schema: &Schema, ty: &FieldType, json: &Json) -> Result<Value> {
    let mismatch = || {
        schema_error(format!(
            "expected {} but found JSON {}",
            schema.type_name(ty),
            json_kind(json)
        ))
    };
    Ok(match ty {
        FieldType::Byte => Value::Byte(integer(json, mismatch)?),
        FieldType::Bool => Value::Bool(json.as_bool().ok_or_else(mismatch)?),
        FieldType::Int => Value::Int(integer(json, mismatch)?),
        FieldType::Long => Value::Long(integer(json, mismatch)?),
        FieldType::Float => {
            let bits = float_bits(json, 8)?;
            Value::Float(match bits {
                Some(b) => f32::from_bits(b as u32),
                None => float_text(json)
                    .ok_or_else(mismatch)?
                    .parse()
                    .map_err(|_| mismatch())?,
            })
        }
        FieldType::Double => {
            let bits = float_bits(json, 16)?;
            Value::Double(match bits {
                Some(b) => f64::from_bits(b),
                None => float_text(json)
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
