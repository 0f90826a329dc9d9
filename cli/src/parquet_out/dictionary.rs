//! Which of a Parquet file's columns are dictionary-encoded, decided on its first batch as
//! parquet-mr decides on its first page: a column keeps its dictionary only when the
//! dictionary and the indices into it would be smaller than the values written plainly.
//!
//! Written by hand because the Parquet writer (arrow-rs) has no such test: it builds every
//! column's dictionary until the dictionary reaches its size limit (1 MiB), so a column of
//! distinct numbers, ids or timestamps hashes a few hundred thousand values per row group
//! into a table it then drops — a tenth of the time of writing such records.

use std::collections::HashSet;

use arrow_array::cast::AsArray;
use arrow_array::{Array, OffsetSizeTrait, RecordBatch};
use arrow_schema::DataType;
use parquet::file::properties::WriterPropertiesBuilder;
use parquet::schema::types::ColumnPath;

/// Fewer values than this say too little: the writer's own default stays.
const ENOUGH: usize = 1024;

/// `builder` with the dictionary turned off for the top-level columns of `batch` whose
/// values would not be smaller dictionary-encoded.
pub(crate) fn choose(
    builder: WriterPropertiesBuilder,
    batch: &RecordBatch,
) -> WriterPropertiesBuilder {
    let schema = batch.schema();
    schema
        .fields()
        .iter()
        .zip(batch.columns())
        .filter(|(_, column)| worth_no_dictionary(column.as_ref()))
        .fold(builder, |builder, (field, _)| {
            builder.set_column_dictionary_enabled(ColumnPath::from(field.name().as_str()), false)
        })
}

/// Whether `column`'s values are too varied for a dictionary to pay: `d` distinct values
/// of `w` bytes on average among `n`, kept as `d·w` bytes of dictionary and `n` indices of
/// `d`'s bit width, against `n·w` bytes plainly. Only plain numbers and byte strings are
/// judged (the writer has no dictionary for booleans; nested columns keep the default).
fn worth_no_dictionary(column: &dyn Array) -> bool {
    let Some((n, distinct, bytes)) = distinct_values(column) else {
        return false;
    };
    if n < ENOUGH {
        return false;
    }
    let width = bytes as f64 / n as f64;
    let bits = (usize::BITS - distinct.leading_zeros()).max(1) as f64;
    let dictionary = distinct as f64 * width + n as f64 * bits / 8.0;
    dictionary >= n as f64 * width
}

/// The UTF-8 bytes of the non-null strings of `column`, a string array with offsets `O`.
fn string_bytes<O: OffsetSizeTrait>(column: &dyn Array) -> impl Iterator<Item = &[u8]> {
    column.as_string::<O>().iter().flatten().map(str::as_bytes)
}

/// The non-null values of `column`, how many of them differ, and their plain size in bytes
/// (a byte string's with its 4-byte length); `None` for a type not judged.
fn distinct_values(column: &dyn Array) -> Option<(usize, usize, usize)> {
    let data = column.to_data();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let (n, bytes) = match column.data_type() {
        DataType::Utf8 => tally(&mut seen, string_bytes::<i32>(column), 4),
        DataType::LargeUtf8 => tally(&mut seen, string_bytes::<i64>(column), 4),
        DataType::Utf8View => tally(
            &mut seen,
            column.as_string_view().iter().flatten().map(str::as_bytes),
            4,
        ),
        DataType::Binary => tally(&mut seen, column.as_binary::<i32>().iter().flatten(), 4),
        DataType::LargeBinary => tally(&mut seen, column.as_binary::<i64>().iter().flatten(), 4),
        DataType::BinaryView => tally(&mut seen, column.as_binary_view().iter().flatten(), 4),
        ty if ty.is_primitive() => {
            let width = ty.primitive_width()?;
            let start = data.offset() * width;
            let values = data.buffers().first()?.as_slice();
            let values = values.get(start..start + data.len() * width)?;
            let valid = (0..data.len()).filter(|&i| data.is_valid(i));
            tally(
                &mut seen,
                valid.map(|i| &values[i * width..(i + 1) * width]),
                0,
            )
        }
        _ => return None,
    };
    Some((n, seen.len(), bytes))
}

/// Counts `values` into `seen`: how many, and their bytes with `prefix` bytes each.
fn tally<'a>(
    seen: &mut HashSet<&'a [u8]>,
    values: impl Iterator<Item = &'a [u8]>,
    prefix: usize,
) -> (usize, usize) {
    let (mut n, mut bytes) = (0, 0);
    for value in values {
        n += 1;
        bytes += value.len() + prefix;
        seen.insert(value);
    }
    (n, bytes)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Float64Array, Int64Array, StringArray, StringViewArray};
    use parquet::file::properties::WriterProperties;

    use super::*;

    fn dictionary_kept(batch: &RecordBatch) -> Vec<bool> {
        let properties = choose(WriterProperties::builder(), batch).build();
        let schema = batch.schema();
        schema
            .fields()
            .iter()
            .map(|f| properties.dictionary_enabled(&ColumnPath::from(f.name().as_str())))
            .collect()
    }

    #[test]
    fn varied_columns_lose_their_dictionary_repeated_ones_keep_it() {
        let n = 8192;
        let words = ["alpha", "bravo", "charlie/x", "delta?q"];
        let batch = RecordBatch::try_from_iter([
            ("id", Arc::new(Int64Array::from_iter_values(0..n)) as _),
            (
                "day",
                Arc::new(Int64Array::from_iter_values((0..n).map(|i| i / 1000))) as _,
            ),
            (
                "x",
                Arc::new(Float64Array::from_iter_values(
                    (0..n).map(|i| i as f64 * 0.1),
                )) as _,
            ),
            (
                "word",
                Arc::new(StringViewArray::from_iter_values(
                    (0..n).map(|i| words[i as usize % 4]),
                )) as _,
            ),
            (
                "key",
                Arc::new(StringArray::from_iter_values(
                    (0..n).map(|i| format!("key-{i}")),
                )) as _,
            ),
        ])
        .unwrap();
        assert_eq!(dictionary_kept(&batch), [false, true, false, true, false]);
    }

    #[test]
    fn few_values_and_nulls_keep_the_default() {
        let few = RecordBatch::try_from_iter([(
            "id",
            Arc::new(Int64Array::from_iter_values(0..100)) as _,
        )])
        .unwrap();
        assert_eq!(dictionary_kept(&few), [true]);
        // Nulls are not values: 2000 rows, 100 of them distinct numbers.
        let sparse = Int64Array::from_iter((0..2000).map(|i| (i % 20 == 0).then_some(i)));
        let sparse = RecordBatch::try_from_iter([("n", Arc::new(sparse) as _)]).unwrap();
        assert_eq!(dictionary_kept(&sparse), [true]);
        // 1500 distinct numbers between 1500 nulls: counted as values, the nulls would
        // repeat one value often enough for a dictionary to pay.
        let half = Int64Array::from_iter((0..3000).map(|i| (i % 2 == 1).then_some(i)));
        let half = RecordBatch::try_from_iter([("n", Arc::new(half) as _)]).unwrap();
        assert_eq!(dictionary_kept(&half), [false]);
        // A slice judges its own values: distinct numbers, then one repeated.
        let sliced = Int64Array::from_iter_values((0..4096).map(|i| i.min(2048))).slice(2048, 2048);
        let sliced = RecordBatch::try_from_iter([("n", Arc::new(sliced) as _)]).unwrap();
        assert_eq!(dictionary_kept(&sliced), [true]);
    }
}
