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
//! [`from_json`] reads it back to the same bits, NaN payloads aside, and so does
//! [`JsonReader`] from text (what `rcc convert --from json` reads), with line and column
//! in its errors. Both go through one schema-driven reader.
//!
//! Both readers also take a map whose keys are `ustring` as a JSON object,
//! `{"a": 1, "b": 2}`, the way people write one: in any key order (the map holds its entries
//! in Hadoop's order, Java's `String.compareTo`, as every writer does), a key given twice
//! being an error. (Over a parsed `serde_json::Value` a duplicate key is already merged by
//! the parser; [`JsonReader`] sees and refuses it.) Pair arrays are read for every map, and
//! written for every map.
//!
//! ```
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::value::json::{from_json, to_json};
//! use hadoop_record::Value;
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType::new("m", "R", vec![
//!     FieldDef::new("d", FieldType::Double),
//!     FieldDef::new("l", FieldType::Long),
//!     FieldDef::new("b", FieldType::Buffer),
//! ]))?;
//! let ty = FieldType::Record(id);
//! let value = Value::Record(vec![Value::Double(1e10), Value::Long(i64::MAX), Value::Buffer(vec![0xca, 0xfe])]);
//! let text = to_json(&schema, &ty, &value)?;
//! assert_eq!(text, r#"{"d": 1.0E10, "l": "9223372036854775807", "b": "cafe"}"#);
//! let back = from_json(&schema, &ty, &serde_json::from_str(&text).unwrap())?;
//! assert!(back.bitwise_eq(&value));
//! # Ok::<(), hadoop_record::Error>(())
//! ```

mod read;
mod reader;

use serde::de::DeserializeSeed;
use serde_json::Value as Json;

use super::Value;
use crate::archive::text::{push_double, push_float};
use crate::archive::{Depth, DEFAULT_MAX_DEPTH};
use crate::error::{Error, ErrorKind, Position, Result};
use crate::schema::{FieldType, Schema};
use read::{Trail, ValueSeed};
pub use reader::JsonReader;

/// The largest magnitude a `long` is written as a JSON number with (2^53): beyond it,
/// readers that hold numbers as doubles would change the value, so it is a string.
const MAX_JSON_INTEGER: i64 = 1 << 53;

/// Writes `value`, of type `ty`, as one line of JSON (see the [module docs](self)).
///
/// A value that does not match the type is an [`ErrorKind::Schema`] error naming the field
/// path, and so is a type that names a record the schema lacks.
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
    schema.check(ty)?;
    write_checked(out, schema, ty, value)
}

/// [`write_json`] of a checked type.
fn write_checked(out: &mut Vec<u8>, schema: &Schema, ty: &FieldType, value: &Value) -> Result<()> {
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
                write_checked(out, schema, element, item).map_err(|e| e.in_index(i as u64))?;
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
                write_checked(out, schema, kt, k)
                    .and_then(|()| {
                        out.extend_from_slice(b", ");
                        write_checked(out, schema, vt, v)
                    })
                    .map_err(|e| e.in_index(i as u64))?;
                out.push(b']');
            }
            out.push(b']');
        }
        (FieldType::Record(id), Value::Record(fields)) => {
            let record = schema.record_at(*id);
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
                write_checked(out, schema, &def.ty, field).map_err(|e| e.in_field(&def.name))?;
            }
            out.push(b'}');
        }
        (ty, value) => {
            return Err(schema_error(format!(
                "expected {} but the value is a {}",
                schema.name_of(ty),
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

/// Parses JSON text for [`from_json`]: errors at line:col, and nesting bounded by the
/// readers' rule ([`Depth`]) rather than by serde_json's fixed 128 levels.
///
/// A value `max_depth` records, vectors and maps deep is written with at most
/// `2 * max_depth + 1` levels of JSON arrays and objects (a map entry is an array in an
/// array, a float may be an object); deeper text is refused with [`ErrorKind::Limit`] before
/// it is parsed, and [`from_json_with_max_depth`] applies the exact limit.
///
/// ```
/// use hadoop_record::value::json::parse;
/// use hadoop_record::{ErrorKind, Position};
/// assert_eq!(parse("[[1], {\"a\": 2}]", 1).unwrap()[1]["a"], 2);
/// let e = parse("[[[[1]]]]", 1).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::Limit);
/// assert_eq!(e.position(), Some(Position::LineCol { line: 1, col: 4 }));
/// let e = parse("[1,\n 2", 512).unwrap_err();
/// assert_eq!(e.position(), Some(Position::LineCol { line: 2, col: 2 }));
/// ```
pub fn parse(text: &str, max_depth: usize) -> Result<Json> {
    let max_levels = max_depth.saturating_mul(2).saturating_add(1);
    if let Some(at) = too_deep(text.as_bytes(), max_levels) {
        let (line, col) = line_col(text.as_bytes(), at);
        return Err(Error::new(
            ErrorKind::Limit,
            format!(
                "JSON nested more than {max_levels} deep, more than a value nested {max_depth} deep is written with"
            ),
        )
        .at(Position::LineCol { line, col }));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // Bounded above: serde_json recurses at most `max_levels` deep.
    de.disable_recursion_limit();
    let json = <Json as serde::Deserialize>::deserialize(&mut de)
        .and_then(|json| de.end().map(|()| json))
        .map_err(|e| {
            // serde_json's messages name no input, only where it is; the position is ours.
            let (line, col) = (e.line(), e.column());
            let text = e.to_string();
            let message = text
                .strip_suffix(&format!(" at line {line} column {col}"))
                .unwrap_or(&text);
            Error::new(ErrorKind::Syntax, message.to_owned()).at(Position::LineCol {
                line: line as u64,
                col: col as u64,
            })
        })?;
    Ok(json)
}

/// The offset of the first `[` or `{` that opens more than `max` levels, outside strings.
fn too_deep(text: &[u8], max: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// 1-based line and column (in bytes) of `offset`.
fn line_col(text: &[u8], offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    (line as u64, (offset - line_start + 1) as u64)
}

/// Converts JSON into a [`Value`] of type `ty`: what [`to_json`] writes, and the fixture
/// manifests' value form.
///
/// Floats and doubles may be JSON numbers, the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"` or a number's text, or `{"value": "<Java text>", "bits": "0x…"}` (the bits
/// win); integers may be numbers or decimal strings; a record's fields may come in any
/// order. Plain numbers are exact (serde_json's `float_roundtrip` feature is on). Errors
/// name the field path; [`JsonReader`] reads from text and adds line and column.
///
/// Records, vectors and maps nested more than [`DEFAULT_MAX_DEPTH`] deep are an
/// [`ErrorKind::Limit`] error, as in every reader ([`Depth`]); a type that names a record
/// the schema lacks is an [`ErrorKind::Schema`] error.
pub fn from_json(schema: &Schema, ty: &FieldType, json: &Json) -> Result<Value> {
    from_json_with_max_depth(schema, ty, json, DEFAULT_MAX_DEPTH)
}

/// [`from_json`] with a nesting limit of `max` records, vectors and maps open at once.
pub fn from_json_with_max_depth(
    schema: &Schema,
    ty: &FieldType,
    json: &Json,
    max: usize,
) -> Result<Value> {
    schema.check(ty)?;
    let mut trail = Trail::new(Depth::new(max));
    let seed = ValueSeed {
        schema,
        ty,
        trail: &mut trail,
    };
    seed.deserialize(json).map_err(|e| trail.error(&e, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{FieldDef, RecordType};

    #[test]
    fn fixture_value_form() {
        let mut s = Schema::new();
        let fields = vec![
            FieldDef::new("l", FieldType::Long),
            FieldDef::new("f", FieldType::Float),
            FieldDef::new("b", FieldType::Buffer),
            FieldDef::new(
                "m",
                FieldType::Map(Box::new(FieldType::Int), Box::new(FieldType::String)),
            ),
        ];
        let id = s.add(RecordType::new("", "R", fields)).unwrap();
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
