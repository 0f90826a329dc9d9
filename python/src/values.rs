//! `decode` and `encode`: records as Python values, one mapping both ways — `ustring` str,
//! `buffer` bytes, `byte`/`int`/`long` int, `float`/`double` float, `boolean` bool,
//! `vector` list, `map` dict, record dict (fields in declaration order), jute's null None.

use std::io::Cursor;

use hadoop_record::archive::FloatText;
use hadoop_record::schema::{FieldType, RecordId, Schema};
use hadoop_record::value::json::{write_json, JsonReader};
use hadoop_record::{RecordReader, RecordWriter, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};

use crate::errors::{from_record, record_error, Facts};
use crate::options::{self, resolve, Encoding};

/// Decodes every record in `data`.
#[pyfunction]
#[pyo3(signature = (data, schema, r#type, encoding="binary", *, include=None))]
pub(crate) fn decode(
    py: Python<'_>,
    data: &[u8],
    schema: &Bound<'_, PyAny>,
    r#type: &str,
    encoding: &str,
    include: Option<Vec<std::path::PathBuf>>,
) -> PyResult<Py<PyList>> {
    let encoding = Encoding::parse(encoding)?;
    let (schema, id) = resolve(schema, include, r#type)?;
    let values = py.detach(|| read_all(data, &schema, id, encoding));
    let values = values.map_err(|e| from_record(&e, None))?;
    let list = PyList::empty(py);
    for value in &values {
        list.append(to_py(py, &schema, &FieldType::Record(id), value)?)?;
    }
    Ok(list.unbind())
}

fn read_all(
    data: &[u8],
    schema: &Schema,
    id: RecordId,
    encoding: Encoding,
) -> hadoop_record::Result<Vec<Value>> {
    let mut values = Vec::new();
    match encoding {
        Encoding::Records(format) => {
            let mut reader = RecordReader::from_slice(data, format);
            while let Some(value) = reader.read_value(schema, id)? {
                values.push(value);
            }
        }
        Encoding::Json => {
            let mut reader = JsonReader::new(Cursor::new(data));
            while let Some(value) = reader.read_value(schema, id)? {
                values.push(value);
            }
        }
    }
    Ok(values)
}

/// Encodes `records` (dicts) back to back.
#[pyfunction]
#[pyo3(signature = (records, schema, r#type, encoding="binary", *, include=None, float_text=None))]
pub(crate) fn encode<'py>(
    py: Python<'py>,
    records: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    r#type: &str,
    encoding: &str,
    include: Option<Vec<std::path::PathBuf>>,
    float_text: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let encoding = Encoding::parse(encoding)?;
    let float_text = options::float_text(float_text, encoding)?;
    let (schema, id) = resolve(schema, include, r#type)?;
    let mut values = Vec::new();
    for (n, record) in records.try_iter()?.enumerate() {
        let record = record?;
        let mut path = schema
            .record(id)
            .map(|r| r.name.clone())
            .unwrap_or_default();
        let value = from_py(&record, &schema, &FieldType::Record(id), &mut path).map_err(|e| {
            let facts = Facts {
                record: Some(n as u64),
                path: e.path.clone(),
                ..Facts::default()
            };
            record_error(format!("record {n}, in {}: {}", e.path, e.message), facts)
        })?;
        values.push(value);
    }
    let bytes = py.detach(|| write_all(&values, &schema, id, encoding, float_text));
    let bytes = bytes.map_err(|e| from_record(&e, None))?;
    Ok(PyBytes::new(py, &bytes))
}

fn write_all(
    values: &[Value],
    schema: &Schema,
    id: RecordId,
    encoding: Encoding,
    float_text: FloatText,
) -> hadoop_record::Result<Vec<u8>> {
    match encoding {
        Encoding::Records(format) => {
            let mut writer = RecordWriter::new(Vec::new(), format).with_float_text(float_text);
            for value in values {
                writer.write_value(schema, id, value)?;
            }
            Ok(writer.into_inner()?)
        }
        Encoding::Json => {
            let mut out = Vec::new();
            for (n, value) in values.iter().enumerate() {
                write_json(&mut out, schema, &FieldType::Record(id), value)
                    .map_err(|e| e.in_record(n as u64))?;
                out.push(b'\n');
            }
            Ok(out)
        }
    }
}

/// `value`, of type `ty`, as a Python object.
pub(crate) fn to_py(
    py: Python<'_>,
    schema: &Schema,
    ty: &FieldType,
    value: &Value,
) -> PyResult<Py<PyAny>> {
    Ok(match (ty, value) {
        (_, Value::Null) => py.None(),
        (_, Value::Byte(v)) => v.into_pyobject(py)?.into_any().unbind(),
        (_, Value::Bool(v)) => PyBool::new(py, *v).to_owned().into_any().unbind(),
        (_, Value::Int(v)) => v.into_pyobject(py)?.into_any().unbind(),
        (_, Value::Long(v)) => v.into_pyobject(py)?.into_any().unbind(),
        (_, Value::Float(v)) => f64::from(*v).into_pyobject(py)?.into_any().unbind(),
        (_, Value::Double(v)) => v.into_pyobject(py)?.into_any().unbind(),
        (_, Value::String(v)) => PyString::new(py, v).into_any().unbind(),
        (_, Value::Buffer(v)) => PyBytes::new(py, v).into_any().unbind(),
        (FieldType::Vector(item), Value::Vector(items)) => {
            let list = PyList::empty(py);
            for v in items {
                list.append(to_py(py, schema, item, v)?)?;
            }
            list.into_any().unbind()
        }
        (FieldType::Map(k, v), Value::Map(entries)) => {
            let dict = PyDict::new(py);
            for (key, value) in entries {
                dict.set_item(to_py(py, schema, k, key)?, to_py(py, schema, v, value)?)?;
            }
            dict.into_any().unbind()
        }
        (FieldType::Record(id), Value::Record(fields)) => {
            let dict = PyDict::new(py);
            let record = schema
                .record(*id)
                .ok_or_else(|| PyValueError::new_err(format!("no record {id:?} in the schema")))?;
            for (def, v) in record.fields.iter().zip(fields) {
                dict.set_item(&def.name, to_py(py, schema, &def.ty, v)?)?;
            }
            dict.into_any().unbind()
        }
        (ty, _) => {
            return Err(PyValueError::new_err(format!(
                "a value that is not a {}",
                schema.type_name(ty).unwrap_or_default()
            )))
        }
    })
}

/// Why a Python object is not a value of a field.
pub(crate) struct Mismatch {
    pub path: String,
    pub message: String,
}

/// `obj` as a value of type `ty`; `path` names where it is (`Hit.origin.city`).
pub(crate) fn from_py(
    obj: &Bound<'_, PyAny>,
    schema: &Schema,
    ty: &FieldType,
    path: &mut String,
) -> Result<Value, Mismatch> {
    let fail = |path: &str, message: String| Mismatch {
        path: path.to_owned(),
        message,
    };
    let expected = |path: &str, what: &str| {
        let got = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string());
        fail(path, format!("expected {what}, got {got}"))
    };
    if obj.is_none() {
        return match ty {
            FieldType::String | FieldType::Buffer | FieldType::Vector(_) => Ok(Value::Null),
            _ => Err(fail(
                path,
                format!(
                    "None where a {} is needed",
                    schema.type_name(ty).unwrap_or_default()
                ),
            )),
        };
    }
    let integer = |path: &str, what: &str| -> Result<i64, Mismatch> {
        if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
            return Err(expected(path, "int"));
        }
        obj.extract::<i64>()
            .map_err(|_| fail(path, format!("{obj} does not fit in a {what}")))
    };
    let out_of_range =
        |path: &str, v: i64, what: &str| fail(path, format!("{v} does not fit in a {what}"));
    Ok(match ty {
        FieldType::Byte => {
            let v = integer(path, "byte")?;
            Value::Byte(i8::try_from(v).map_err(|_| out_of_range(path, v, "byte"))?)
        }
        FieldType::Int => {
            let v = integer(path, "int")?;
            Value::Int(i32::try_from(v).map_err(|_| out_of_range(path, v, "int"))?)
        }
        FieldType::Long => Value::Long(integer(path, "long")?),
        FieldType::Bool => match obj.cast::<PyBool>() {
            Ok(b) => Value::Bool(b.is_true()),
            Err(_) => return Err(expected(path, "bool")),
        },
        FieldType::Float | FieldType::Double => {
            let v = if obj.is_instance_of::<PyFloat>()
                || (obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>())
            {
                obj.extract::<f64>()
                    .map_err(|_| fail(path, format!("{obj} is not a float")))?
            } else {
                return Err(expected(path, "float"));
            };
            if *ty == FieldType::Float {
                Value::Float(v as f32)
            } else {
                Value::Double(v)
            }
        }
        FieldType::String => match obj.cast::<PyString>() {
            Ok(s) => Value::String(
                s.to_cow()
                    .map_err(|_| fail(path, "a str that is not valid Unicode".into()))?
                    .into_owned(),
            ),
            Err(_) => return Err(expected(path, "str")),
        },
        FieldType::Buffer => {
            if let Ok(b) = obj.cast::<PyBytes>() {
                Value::Buffer(b.as_bytes().to_vec())
            } else if let Ok(b) = obj.cast::<PyByteArray>() {
                Value::Buffer(b.to_vec())
            } else if obj.hasattr("tobytes").unwrap_or(false) && !obj.is_instance_of::<PyString>() {
                // memoryview and other buffers.
                let bytes = obj
                    .call_method0("tobytes")
                    .and_then(|b| b.extract::<Vec<u8>>())
                    .map_err(|_| expected(path, "bytes"))?;
                Value::Buffer(bytes)
            } else {
                return Err(expected(path, "bytes"));
            }
        }
        FieldType::Vector(item) => {
            if obj.is_instance_of::<PyString>()
                || obj.is_instance_of::<PyBytes>()
                || obj.is_instance_of::<PyDict>()
            {
                return Err(expected(path, "list"));
            }
            let items = obj.try_iter().map_err(|_| expected(path, "list"))?;
            let mut out = Vec::new();
            for (i, v) in items.enumerate() {
                let v = v.map_err(|e| fail(path, e.to_string()))?;
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                out.push(from_py(&v, schema, item, path)?);
                path.truncate(len);
            }
            Value::Vector(out)
        }
        FieldType::Map(k, v) => {
            let dict = obj.cast::<PyDict>().map_err(|_| expected(path, "dict"))?;
            let mut out = Vec::with_capacity(dict.len());
            for (key, value) in dict.iter() {
                let len = path.len();
                path.push_str(&format!("[{key}]"));
                let key = from_py(&key, schema, k, path)?;
                let value = from_py(&value, schema, v, path)?;
                path.truncate(len);
                out.push((key, value));
            }
            Value::Map(out)
        }
        FieldType::Record(id) => {
            let dict = obj.cast::<PyDict>().map_err(|_| expected(path, "dict"))?;
            let record = schema
                .record(*id)
                .ok_or_else(|| fail(path, format!("no record {id:?} in the schema")))?;
            let mut fields = Vec::with_capacity(record.fields.len());
            for def in &record.fields {
                let len = path.len();
                path.push('.');
                path.push_str(&def.name);
                let value = dict
                    .get_item(&def.name)
                    .map_err(|e| fail(path, e.to_string()))?
                    .ok_or_else(|| fail(path, "missing field".into()))?;
                fields.push(from_py(&value, schema, &def.ty, path)?);
                path.truncate(len);
            }
            if dict.len() > record.fields.len() {
                let unknown: Vec<String> = dict
                    .keys()
                    .iter()
                    .map(|k| k.to_string())
                    .filter(|k| !record.fields.iter().any(|f| &f.name == k))
                    .collect();
                return Err(fail(
                    path,
                    format!(
                        "unknown field(s) {} ({} has {})",
                        unknown.join(", "),
                        record.full_name(),
                        record
                            .fields
                            .iter()
                            .map(|f| f.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            Value::Record(fields)
        }
    })
}
