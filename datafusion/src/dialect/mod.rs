//! Query results as text in `rcc`'s JSON dialect, the one `rcc convert --to json` writes
//! ([`hadoop_record::value::json`]) and `rcc convert --from json` reads back into the same
//! records: [`JsonLinesWriter`] (one object per row) and [`FlatCsvWriter`] (CSV whose nested
//! records are dotted columns and whose vectors and maps are JSON cells).
//!
//! A column read from a record field carries its Hadoop type (field metadata
//! [`TYPE_KEY`]), whose Arrow type the one mapping
//! of [`hadoop_record_arrow::mapping`] fixes; each value is written as its Hadoop type is:
//!
//! | Hadoop (Arrow) | JSON |
//! | --- | --- |
//! | `byte`, `int` (`Int8`, `Int32`) | a number |
//! | `long` (`Int64`) | a number, a decimal string beyond ±2^53 (`"9007199254740993"`) |
//! | `float`, `double` (`Float32`, `Float64`) | Java's text (`1.0E10`, `-0.0`); `"NaN"`, `"Infinity"`, `"-Infinity"` |
//! | `boolean` | `true`, `false` |
//! | `ustring` | a string |
//! | `buffer` (`Binary`) | lowercase hex, `"cafe"` |
//! | `vector` (`List`) | an array |
//! | `map` (`Map`) | an array of `[key, value]` pairs, whatever the key type |
//! | record (`Struct`) | an object, fields in declaration order |
//!
//! Columns the query computes have no Hadoop type and are written by their Arrow type in the
//! same way: other integers as numbers (64-bit ones as `long`s), `Float16` as a `float`,
//! decimals as numbers, dates, times and durations as strings of their ISO text,
//! dictionaries as their values, nulls as `null`. A record type that holds itself reaches
//! SQL as Hadoop bytes (see [`hadoop_record_arrow::mapping`]), which JSON cannot spell
//! without the DDL: such a column is refused when the writer starts, before anything is
//! written.
//!
//! ```
//! use std::sync::Arc;
//! use datafusion::arrow::array::{Float64Array, Int64Array, RecordBatch};
//! use hadoop_record_datafusion::dialect::JsonLinesWriter;
//! let batch = RecordBatch::try_from_iter([
//!     ("n", Arc::new(Int64Array::from(vec![1, i64::MAX])) as _),
//!     ("d", Arc::new(Float64Array::from(vec![1e10, f64::NAN])) as _),
//! ])?;
//! let mut writer = JsonLinesWriter::new(Vec::new(), batch.schema())?;
//! writer.write(&batch)?;
//! assert_eq!(
//!     writer.finish()?,
//!     b"{\"n\": 1, \"d\": 1.0E10}\n{\"n\": \"9223372036854775807\", \"d\": \"NaN\"}\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod csv;
mod lines;

use std::io::Write as _;

use datafusion::arrow::array::{
    Array, ArrayAccessor, ArrayRef, ArrowPrimitiveType, AsArray, BooleanArray, FixedSizeListArray,
    OffsetSizeTrait, PrimitiveArray, StringArray,
};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::compute::{can_cast_types, cast};
use datafusion::arrow::datatypes::{
    ArrowNativeType, DataType, Field, Fields, Float16Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use hadoop_record::archive::text::{push_double, push_float};
use hadoop_record_arrow::mapping::{recursive_encoding, TYPE_KEY};

pub use self::csv::FlatCsvWriter;
pub use lines::JsonLinesWriter;

/// The largest magnitude written as a JSON number by a 64-bit integer column (2^53), as
/// `rcc convert` writes a `long`: readers that hold numbers as doubles would change larger
/// ones, which are written as decimal strings.
const MAX_JSON_INTEGER: i128 = 1 << 53;

/// Writes the value at a row of an array.
trait Encode: Send {
    /// Appends the value at row `i` (never null) to `out`.
    fn encode(&self, i: usize, out: &mut Vec<u8>);
}

/// The values of one array in the dialect: `null` where it is null.
struct Encoder {
    nulls: Option<NullBuffer>,
    inner: Box<dyn Encode>,
}

impl Encoder {
    /// Appends the value at row `i` to `out`.
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        if self.nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            out.extend_from_slice(b"null");
        } else {
            self.inner.encode(i, out);
        }
    }

    fn new(array: &dyn Array, inner: impl Encode + 'static) -> Self {
        Encoder {
            nulls: array.nulls().cloned(),
            inner: Box::new(inner),
        }
    }
}

/// Checks that columns `fields` can be written, as [`encoder`] would find when given their
/// values: an error names the first column that cannot.
fn check(fields: &Fields) -> Result<(), String> {
    for field in fields {
        let empty = datafusion::arrow::array::new_empty_array(field.data_type());
        encoder(field, &empty, field.name())?;
    }
    Ok(())
}

/// The encoder of `array`, the values of column (or nested field) `field`, whose place in
/// the result `path` names for errors.
fn encoder(field: &Field, array: &ArrayRef, path: &str) -> Result<Encoder, String> {
    if let Some(encoding) = recursive_encoding(field) {
        let ty = field.metadata().get(TYPE_KEY).map_or("a", String::as_str);
        return Err(format!(
            "{path} holds {ty} records, of a type that contains itself, which SQL reads as \
             Hadoop {encoding} bytes: they cannot be written as JSON or CSV without their \
             DDL; select the fields inside them, or write records or Parquet"
        ));
    }
    let a = array.as_ref();
    Ok(match array.data_type() {
        DataType::Null => Encoder {
            nulls: None,
            inner: Box::new(Null),
        },
        DataType::Boolean => Encoder::new(a, Bools(a.as_boolean().clone())),
        DataType::Int8 => Encoder::new(a, Ints(a.as_primitive::<Int8Type>().clone())),
        DataType::Int16 => Encoder::new(a, Ints(a.as_primitive::<Int16Type>().clone())),
        DataType::Int32 => Encoder::new(a, Ints(a.as_primitive::<Int32Type>().clone())),
        DataType::UInt8 => Encoder::new(a, Ints(a.as_primitive::<UInt8Type>().clone())),
        DataType::UInt16 => Encoder::new(a, Ints(a.as_primitive::<UInt16Type>().clone())),
        DataType::UInt32 => Encoder::new(a, Ints(a.as_primitive::<UInt32Type>().clone())),
        DataType::Int64 => Encoder::new(a, Longs(a.as_primitive::<Int64Type>().clone())),
        DataType::UInt64 => Encoder::new(a, Longs(a.as_primitive::<UInt64Type>().clone())),
        DataType::Float16 => Encoder::new(a, Halfs(a.as_primitive::<Float16Type>().clone())),
        DataType::Float32 => Encoder::new(a, Floats(a.as_primitive::<Float32Type>().clone())),
        DataType::Float64 => Encoder::new(a, Doubles(a.as_primitive::<Float64Type>().clone())),
        DataType::Utf8 => Encoder::new(a, Text(a.as_string::<i32>().clone())),
        DataType::LargeUtf8 => Encoder::new(a, Text(a.as_string::<i64>().clone())),
        DataType::Utf8View => Encoder::new(a, Text(a.as_string_view().clone())),
        DataType::Binary => Encoder::new(a, Hex(a.as_binary::<i32>().clone())),
        DataType::LargeBinary => Encoder::new(a, Hex(a.as_binary::<i64>().clone())),
        DataType::BinaryView => Encoder::new(a, Hex(a.as_binary_view().clone())),
        DataType::FixedSizeBinary(_) => Encoder::new(a, Hex(a.as_fixed_size_binary().clone())),
        DataType::List(item) => list(a.as_list::<i32>(), item, path)?,
        DataType::LargeList(item) => list(a.as_list::<i64>(), item, path)?,
        DataType::FixedSizeList(item, _) => {
            let list = a.as_fixed_size_list();
            let items = encoder(item, list.values(), &format!("{path}[]"))?;
            Encoder::new(
                a,
                FixedList {
                    list: list.clone(),
                    items,
                },
            )
        }
        DataType::Map(_, _) => {
            let map = a.as_map();
            let (key, value) = map.entries_fields();
            let keys = encoder(key, map.keys(), &format!("{path}.key"))?;
            let values = encoder(value, map.values(), &format!("{path}.value"))?;
            Encoder::new(
                a,
                Pairs {
                    offsets: map.offsets().clone(),
                    keys,
                    values,
                },
            )
        }
        DataType::Struct(fields) => {
            let record = a.as_struct();
            Encoder::new(a, object(fields, record.columns(), Some(path))?)
        }
        DataType::Decimal32(..)
        | DataType::Decimal64(..)
        | DataType::Decimal128(..)
        | DataType::Decimal256(..) => {
            let text = cast_to(array, &DataType::Utf8, path)?;
            Encoder::new(&text, Bare(text.as_string::<i32>().clone()))
        }
        // Encoded forms: written as the values they stand for.
        DataType::Dictionary(_, value) => plain(field, array, value, path)?,
        DataType::RunEndEncoded(_, values) => plain(field, array, values.data_type(), path)?,
        DataType::ListView(item) => plain(field, array, &DataType::List(item.clone()), path)?,
        DataType::LargeListView(item) => {
            plain(field, array, &DataType::LargeList(item.clone()), path)?
        }
        // Dates, times, durations, intervals: their ISO text.
        other if !other.is_nested() && can_cast_types(other, &DataType::Utf8) => {
            let text = cast_to(array, &DataType::Utf8, path)?;
            Encoder::new(&text, Text(text.as_string::<i32>().clone()))
        }
        other => return Err(format!("{path} is of type {other}, which JSON cannot hold")),
    })
}

/// The encoder of the values of `array` recast as `ty` (a dictionary's values, a list
/// view's list).
fn plain(field: &Field, array: &ArrayRef, ty: &DataType, path: &str) -> Result<Encoder, String> {
    let values = cast_to(array, ty, path)?;
    encoder(&field.clone().with_data_type(ty.clone()), &values, path)
}

fn cast_to(array: &ArrayRef, ty: &DataType, path: &str) -> Result<ArrayRef, String> {
    cast(array, ty).map_err(|e| format!("{path}: cannot write its {}: {e}", array.data_type()))
}

fn list<O: OffsetSizeTrait>(
    list: &datafusion::arrow::array::GenericListArray<O>,
    item: &Field,
    path: &str,
) -> Result<Encoder, String> {
    let items = encoder(item, list.values(), &format!("{path}[]"))?;
    Ok(Encoder::new(
        list,
        List {
            offsets: list.offsets().clone(),
            items,
        },
    ))
}

/// The encoder of a record whose fields `fields` have the values `columns`: the fields of
/// a struct (`path` its name) or the columns of a batch (`None`).
fn object(fields: &Fields, columns: &[ArrayRef], path: Option<&str>) -> Result<Object, String> {
    let fields = fields
        .iter()
        .zip(columns)
        .map(|(field, column)| {
            let name = match path {
                Some(path) => format!("{path}.{}", field.name()),
                None => field.name().clone(),
            };
            let mut key = serde_json::to_vec(field.name()).map_err(|e| e.to_string())?;
            key.extend_from_slice(b": ");
            Ok((key, encoder(field, column, &name)?))
        })
        .collect::<Result<_, String>>()?;
    Ok(Object { fields })
}

/// `null`.
struct Null;

impl Encode for Null {
    fn encode(&self, _: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(b"null");
    }
}

struct Bools(BooleanArray);

impl Encode for Bools {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(if self.0.value(i) { b"true" } else { b"false" });
    }
}

/// Integers that a double holds: JSON numbers.
struct Ints<T: ArrowPrimitiveType>(PrimitiveArray<T>);

impl<T: ArrowPrimitiveType> Encode for Ints<T>
where
    T::Native: std::fmt::Display,
{
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        push_display(out, self.0.value(i));
    }
}

/// 64-bit integers, as `long`s: JSON numbers within ±2^53, decimal strings beyond.
struct Longs<T: ArrowPrimitiveType>(PrimitiveArray<T>);

impl<T: ArrowPrimitiveType> Encode for Longs<T>
where
    T::Native: std::fmt::Display + Into<i128>,
{
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let v = self.0.value(i);
        if (-MAX_JSON_INTEGER..=MAX_JSON_INTEGER).contains(&v.into()) {
            push_display(out, v);
        } else {
            out.push(b'"');
            push_display(out, v);
            out.push(b'"');
        }
    }
}

/// Appends `v`'s text.
fn push_display(out: &mut Vec<u8>, v: impl std::fmt::Display) {
    // Writing into a Vec cannot fail.
    let _ = write!(out, "{v}");
}

/// `Float.toString`, or the string of a value JSON has no number for.
fn push_f32(out: &mut Vec<u8>, v: f32) {
    if v.is_finite() {
        push_float(out, v);
    } else {
        non_finite(out, v.is_nan(), v.is_sign_negative());
    }
}

/// `"NaN"`, `"Infinity"` or `"-Infinity"`, as `rcc convert --to json` writes them.
fn non_finite(out: &mut Vec<u8>, nan: bool, negative: bool) {
    out.extend_from_slice(match (nan, negative) {
        (true, _) => b"\"NaN\"",
        (false, false) => b"\"Infinity\"",
        (false, true) => b"\"-Infinity\"",
    });
}

struct Halfs(PrimitiveArray<Float16Type>);

impl Encode for Halfs {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        push_f32(out, self.0.value(i).to_f32());
    }
}

struct Floats(PrimitiveArray<Float32Type>);

impl Encode for Floats {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        push_f32(out, self.0.value(i));
    }
}

struct Doubles(PrimitiveArray<Float64Type>);

impl Encode for Doubles {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let v = self.0.value(i);
        if v.is_finite() {
            push_double(out, v);
        } else {
            non_finite(out, v.is_nan(), v.is_sign_negative());
        }
    }
}

/// Strings, escaped as JSON escapes them.
struct Text<A>(A);

impl<A: Send> Encode for Text<A>
where
    for<'a> &'a A: ArrayAccessor<Item = &'a str>,
{
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let text = (&self.0).value(i);
        // Serializing a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

/// Text that is already a JSON number (a decimal's).
struct Bare(StringArray);

impl Encode for Bare {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.value(i).as_bytes());
    }
}

/// Bytes as a string of lowercase hex.
struct Hex<A>(A);

impl<A: Send> Encode for Hex<A>
where
    for<'a> &'a A: ArrayAccessor<Item = &'a [u8]>,
{
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = (&self.0).value(i);
        out.reserve(bytes.len() * 2 + 2);
        out.push(b'"');
        for b in bytes {
            out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
        out.push(b'"');
    }
}

/// Appends `[a, b, …]`: the items `range` of `items`.
fn push_items(out: &mut Vec<u8>, items: &Encoder, range: std::ops::Range<usize>) {
    out.push(b'[');
    for (n, j) in range.enumerate() {
        if n > 0 {
            out.extend_from_slice(b", ");
        }
        items.encode(j, out);
    }
    out.push(b']');
}

struct List<O: OffsetSizeTrait> {
    offsets: OffsetBuffer<O>,
    items: Encoder,
}

impl<O: OffsetSizeTrait> Encode for List<O> {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let (start, end) = (self.offsets[i].as_usize(), self.offsets[i + 1].as_usize());
        push_items(out, &self.items, start..end);
    }
}

struct FixedList {
    list: FixedSizeListArray,
    items: Encoder,
}

impl Encode for FixedList {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let start = self.list.value_offset(i) as usize;
        let len = self.list.value_length() as usize;
        push_items(out, &self.items, start..start + len);
    }
}

/// A map: `[[key, value], …]`, as `rcc convert` writes every map.
struct Pairs {
    offsets: OffsetBuffer<i32>,
    keys: Encoder,
    values: Encoder,
}

impl Encode for Pairs {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        let (start, end) = (self.offsets[i].as_usize(), self.offsets[i + 1].as_usize());
        out.push(b'[');
        for j in start..end {
            if j > start {
                out.extend_from_slice(b", ");
            }
            out.push(b'[');
            self.keys.encode(j, out);
            out.extend_from_slice(b", ");
            self.values.encode(j, out);
            out.push(b']');
        }
        out.push(b']');
    }
}

/// A record: `{"name": value, …}`, fields in their order.
struct Object {
    /// Each field's `"name": ` and its values.
    fields: Vec<(Vec<u8>, Encoder)>,
}

impl Encode for Object {
    fn encode(&self, i: usize, out: &mut Vec<u8>) {
        out.push(b'{');
        for (n, (key, values)) in self.fields.iter().enumerate() {
            if n > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(key);
            values.encode(i, out);
        }
        out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use datafusion::arrow::array::{
        BinaryArray, Date32Array, Float32Array, Int32Array, Int64Array, MapBuilder, StringBuilder,
        StructArray, UInt64Array,
    };
    use datafusion::arrow::array::{Int32Builder, ListArray, RecordBatch};
    use datafusion::arrow::datatypes::Int32Type;

    use super::*;

    fn lines(batch: &RecordBatch) -> String {
        let mut w = JsonLinesWriter::new(Vec::new(), batch.schema()).unwrap();
        w.write(batch).unwrap();
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    #[test]
    fn values_are_written_as_rcc_convert_writes_them() {
        let mut map = MapBuilder::new(None, Int32Builder::new(), StringBuilder::new());
        map.keys().append_value(-3);
        map.values().append_value("x\"y");
        map.append(true).unwrap();
        map.append(false).unwrap();
        let list = ListArray::from_iter_primitive::<Int32Type, _, _>([
            Some(vec![Some(1), None]),
            Some(vec![]),
        ]);
        let place = StructArray::from(vec![
            (
                Arc::new(Field::new("zip", DataType::Int32, false)),
                Arc::new(Int32Array::from(vec![7, 8])) as ArrayRef,
            ),
            (
                Arc::new(Field::new("b", DataType::Binary, false)),
                Arc::new(BinaryArray::from_vec(vec![&[0xca, 0xfe], &[]])) as ArrayRef,
            ),
        ]);
        let batch = RecordBatch::try_from_iter([
            (
                "l",
                Arc::new(Int64Array::from(vec![1 << 53, -(1 << 53) - 1])) as ArrayRef,
            ),
            ("u", Arc::new(UInt64Array::from(vec![0, u64::MAX])) as _),
            (
                "f",
                Arc::new(Float32Array::from(vec![0.1, f32::NEG_INFINITY])) as _,
            ),
            ("m", Arc::new(map.finish()) as _),
            ("v", Arc::new(list) as _),
            ("p", Arc::new(place) as _),
            ("day", Arc::new(Date32Array::from(vec![0, 1])) as _),
        ])
        .unwrap();
        assert_eq!(
            lines(&batch),
            "{\"l\": 9007199254740992, \"u\": 0, \"f\": 0.1, \"m\": [[-3, \"x\\\"y\"]], \
             \"v\": [1, null], \"p\": {\"zip\": 7, \"b\": \"cafe\"}, \"day\": \"1970-01-01\"}\n\
             {\"l\": \"-9007199254740993\", \"u\": \"18446744073709551615\", \"f\": \"-Infinity\", \
             \"m\": null, \"v\": [], \"p\": {\"zip\": 8, \"b\": \"\"}, \"day\": \"1970-01-02\"}\n"
        );
        // A slice starts where it says.
        assert!(lines(&batch.slice(1, 1)).starts_with("{\"l\": \"-9007199254740993\""));
    }
}
