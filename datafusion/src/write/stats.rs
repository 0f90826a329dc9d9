//! [`FileStats`]: what a part file holds, column by column (its rows; each leaf column's
//! nulls, least and greatest value), as table formats record it for data skipping — Delta
//! Lake's `numRecords`, `nullCount`, `minValues`, `maxValues` (which `hadoop-record-delta`
//! makes of these). Collected by the task that
//! writes the file, batch by batch, and carried in its answer as JSON.
//!
//! Conservative, as readers skip files by it: a bound that is not certain is left out (a
//! float column with a NaN, a string longer than [`STRING_PREFIX`] gets a greatest value
//! above every string with its prefix), so a reader may read more, never less.

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute;
use datafusion::arrow::datatypes::{
    DataType, Date32Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimeUnit, TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// The leaf columns given bounds and nulls, in schema order, as Delta Lake's writers do
/// (`delta.dataSkippingNumIndexedCols`, 32 by default).
pub const INDEXED_COLUMNS: usize = 32;

/// The characters a string bound keeps, as Delta Lake's writers do.
pub const STRING_PREFIX: usize = 32;

/// A part file's statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileStats {
    /// Its rows.
    pub rows: u64,
    /// Its leaf columns (at most [`INDEXED_COLUMNS`]), by path: a nested record's field is
    /// its record's path and its own name.
    pub columns: Vec<ColumnStats>,
}

/// One leaf column's statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ColumnStats {
    /// The column's path: its name, or its record's fields' names down to it.
    pub path: Vec<String>,
    /// Its null values (a list or a map counts as one value).
    pub nulls: u64,
    /// Its least and greatest values, as JSON (numbers, strings, dates as `YYYY-MM-DD`,
    /// timestamps as `YYYY-MM-DDTHH:MM:SS.sssZ`); `None` where unknown or not kept.
    pub min: Option<Json>,
    pub max: Option<Json>,
    /// Whether a bound was given up (a NaN, a type without order): no bound then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    unbounded: bool,
}

impl FileStats {
    /// Adds `batch`'s rows.
    pub fn add(&mut self, batch: &RecordBatch) {
        self.rows += batch.num_rows() as u64;
        let mut leaves = Vec::new();
        for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
            collect_leaves(vec![field.name().clone()], column, &mut leaves);
        }
        leaves.truncate(INDEXED_COLUMNS);
        if self.columns.is_empty() {
            self.columns = leaves
                .iter()
                .map(|(path, _)| ColumnStats {
                    path: path.clone(),
                    ..ColumnStats::default()
                })
                .collect();
        }
        for (stats, (_, column)) in self.columns.iter_mut().zip(&leaves) {
            stats.add(column);
        }
    }

    /// As JSON text, for a task's answer.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// From a task's answer.
    pub fn from_json(text: &str) -> Option<FileStats> {
        serde_json::from_str(text).ok()
    }
}

/// The leaf columns of `column` (named `path`): itself, or a record's fields' leaves.
fn collect_leaves(path: Vec<String>, column: &ArrayRef, leaves: &mut Vec<(Vec<String>, ArrayRef)>) {
    match column.data_type() {
        DataType::Struct(fields) => {
            let record = column.as_struct();
            for (field, child) in fields.iter().zip(record.columns()) {
                let mut inner = path.clone();
                inner.push(field.name().clone());
                // A null record's fields are null, whatever its children hold.
                let child = match record.nulls() {
                    Some(nulls) if nulls.null_count() > 0 => {
                        let merged = datafusion::arrow::buffer::NullBuffer::union(
                            Some(nulls),
                            child.nulls(),
                        );
                        let data = child.to_data().into_builder().nulls(merged).build();
                        data.map(datafusion::arrow::array::make_array)
                            .unwrap_or_else(|_| child.clone())
                    }
                    _ => child.clone(),
                };
                collect_leaves(inner, &child, leaves);
            }
        }
        _ => leaves.push((path, column.clone())),
    }
}

impl ColumnStats {
    fn add(&mut self, column: &ArrayRef) {
        self.nulls += column.logical_null_count() as u64;
        if self.unbounded {
            return;
        }
        let Some((min, max)) = bounds(column) else {
            // All null: no values to bound (the bounds so far stand).
            if column.logical_null_count() == column.len() {
                return;
            }
            self.unbounded = true;
            self.min = None;
            self.max = None;
            return;
        };
        if self.min.as_ref().is_none_or(|old| less(&min, old)) {
            self.min = Some(min);
        }
        if self.max.as_ref().is_none_or(|old| less(old, &max)) {
            self.max = Some(max);
        }
    }
}

/// Whether bound `a` is below bound `b` (both of one column, so of one JSON kind).
fn less(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(a), Json::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a < b,
            _ => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a < b,
                _ => a.as_f64().unwrap_or(f64::NAN) < b.as_f64().unwrap_or(f64::NAN),
            },
        },
        // Strings, dates and timestamps: their text orders as their values (UTF-8 bytes).
        (Json::String(a), Json::String(b)) => a.as_bytes() < b.as_bytes(),
        _ => false,
    }
}

/// The least and greatest non-null values of `column`, as JSON; `None` for a column
/// without any, or of a type given no bounds (booleans, bytes, lists, maps), or holding a
/// NaN.
fn bounds(column: &ArrayRef) -> Option<(Json, Json)> {
    macro_rules! int {
        ($t:ty) => {{
            let array = column.as_primitive::<$t>();
            Some((
                Json::from(compute::min(array)?),
                Json::from(compute::max(array)?),
            ))
        }};
    }
    macro_rules! float {
        ($t:ty) => {{
            let array = column.as_primitive::<$t>();
            if array.iter().flatten().any(|v| v.is_nan()) {
                return None;
            }
            let min = f64::from(compute::min(array)?);
            let max = f64::from(compute::max(array)?);
            Some((json_float(min)?, json_float(max)?))
        }};
    }
    match column.data_type() {
        DataType::Int8 => int!(Int8Type),
        DataType::Int16 => int!(Int16Type),
        DataType::Int32 => int!(Int32Type),
        DataType::Int64 => int!(Int64Type),
        DataType::UInt8 => int!(UInt8Type),
        DataType::UInt16 => int!(UInt16Type),
        DataType::UInt32 => int!(UInt32Type),
        DataType::UInt64 => int!(UInt64Type),
        DataType::Float32 => float!(Float32Type),
        DataType::Float64 => float!(Float64Type),
        DataType::Utf8 => strings(
            compute::min_string(column.as_string::<i32>())?,
            compute::max_string(column.as_string::<i32>())?,
        ),
        DataType::LargeUtf8 => strings(
            compute::min_string(column.as_string::<i64>())?,
            compute::max_string(column.as_string::<i64>())?,
        ),
        DataType::Utf8View => strings(
            compute::min_string_view(column.as_string_view())?,
            compute::max_string_view(column.as_string_view())?,
        ),
        DataType::Date32 => {
            let array = column.as_primitive::<Date32Type>();
            let day = |d: i32| {
                chrono::NaiveDate::from_num_days_from_ce_opt(d + 719_163)
                    .map(|d| Json::from(d.format("%Y-%m-%d").to_string()))
            };
            Some((day(compute::min(array)?)?, day(compute::max(array)?)?))
        }
        DataType::Timestamp(unit, _) => {
            let micros = |v: i64| match unit {
                TimeUnit::Second => v.checked_mul(1_000_000),
                TimeUnit::Millisecond => v.checked_mul(1_000),
                TimeUnit::Microsecond => Some(v),
                // Bounds in milliseconds: the least rounded down, the greatest up.
                TimeUnit::Nanosecond => Some(v.div_euclid(1_000)),
            };
            let (min, max) = match unit {
                TimeUnit::Second => timestamps::<TimestampSecondType>(column)?,
                TimeUnit::Millisecond => timestamps::<TimestampMillisecondType>(column)?,
                TimeUnit::Microsecond => timestamps::<TimestampMicrosecondType>(column)?,
                TimeUnit::Nanosecond => timestamps::<TimestampNanosecondType>(column)?,
            };
            // Delta's timestamps are text of milliseconds: the least rounded down, the
            // greatest rounded up.
            let text = |micros: i64, up: bool| {
                let millis = if up {
                    micros.div_euclid(1_000) + i64::from(micros.rem_euclid(1_000) != 0)
                } else {
                    micros.div_euclid(1_000)
                };
                chrono::DateTime::from_timestamp_millis(millis)
                    .map(|t| Json::from(t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()))
            };
            Some((text(micros(min)?, false)?, text(micros(max)?, true)?))
        }
        _ => None,
    }
}

fn timestamps<T>(column: &ArrayRef) -> Option<(i64, i64)>
where
    T: datafusion::arrow::datatypes::ArrowPrimitiveType<Native = i64>,
{
    let array = column.as_primitive::<T>();
    Some((compute::min(array)?, compute::max(array)?))
}

/// A float as a JSON number (`None` for infinities, which JSON cannot hold).
fn json_float(value: f64) -> Option<Json> {
    serde_json::Number::from_f64(value).map(Json::Number)
}

/// String bounds kept to [`STRING_PREFIX`] characters: the least cut (still at most every
/// value), the greatest cut and followed by U+10FFFF (still at least every value with that
/// prefix: its UTF-8 bytes are above every other character's).
fn strings(min: &str, max: &str) -> Option<(Json, Json)> {
    let cut = |s: &str| s.char_indices().nth(STRING_PREFIX).map(|(i, _)| i);
    let min = match cut(min) {
        Some(end) => min[..end].to_owned(),
        None => min.to_owned(),
    };
    let max = match cut(max) {
        Some(end) => format!("{}\u{10FFFF}", &max[..end]),
        None => max.to_owned(),
    };
    Some((Json::from(min), Json::from(max)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::array::{
        BooleanArray, Float64Array, Int32Array, ListArray, StringArray, StructArray,
    };
    use datafusion::arrow::datatypes::{Field, Int32Type as I32};
    use std::sync::Arc;

    fn batch(ids: Vec<Option<i32>>, names: Vec<Option<&str>>, scores: Vec<f64>) -> RecordBatch {
        let city = StringArray::from(names.clone());
        let place = StructArray::from(vec![(
            Arc::new(Field::new("city", DataType::Utf8, true)),
            Arc::new(city) as ArrayRef,
        )]);
        let tags = ListArray::from_iter_primitive::<I32, _, _>(
            ids.iter().map(|i| i.map(|i| vec![Some(i)])),
        );
        let n = ids.len();
        RecordBatch::try_from_iter([
            ("id", Arc::new(Int32Array::from(ids)) as ArrayRef),
            ("name", Arc::new(StringArray::from(names)) as ArrayRef),
            ("score", Arc::new(Float64Array::from(scores)) as ArrayRef),
            (
                "ok",
                Arc::new(BooleanArray::from(vec![true; n])) as ArrayRef,
            ),
            ("origin", Arc::new(place) as ArrayRef),
            ("tags", Arc::new(tags) as ArrayRef),
        ])
        .unwrap()
    }

    #[test]
    fn statistics_cover_every_batch() {
        let mut stats = FileStats::default();
        stats.add(&batch(
            vec![Some(5), None],
            vec![Some("Oslo"), None],
            vec![1.5, -2.0],
        ));
        stats.add(&batch(vec![Some(-3)], vec![Some("Lima")], vec![0.0]));
        let text = stats.to_json();
        assert_eq!(FileStats::from_json(&text), Some(stats.clone()));
        assert_eq!(stats.rows, 3);
        let seen: Vec<(String, u64, Option<Json>, Option<Json>)> = stats
            .columns
            .iter()
            .map(|c| (c.path.join("."), c.nulls, c.min.clone(), c.max.clone()))
            .collect();
        let j = |v: serde_json::Value| Some(v);
        assert_eq!(
            seen,
            [
                ("id".into(), 1, j((-3).into()), j(5.into())),
                ("name".into(), 1, j("Lima".into()), j("Oslo".into())),
                ("score".into(), 0, j((-2.0).into()), j(1.5.into())),
                ("ok".into(), 0, None, None),
                ("origin.city".into(), 1, j("Lima".into()), j("Oslo".into())),
                ("tags".into(), 1, None, None),
            ]
        );
    }

    #[test]
    fn uncertain_bounds_are_left_out() {
        let mut stats = FileStats::default();
        stats.add(&batch(vec![Some(1)], vec![Some("a")], vec![f64::NAN]));
        stats.add(&batch(vec![Some(2)], vec![Some("b")], vec![3.0]));
        let score = &stats.columns[2];
        assert_eq!((score.min.clone(), score.max.clone()), (None, None));
        let long = "x".repeat(40);
        let (min, max) = strings(&long, &long).unwrap();
        assert_eq!(min, Json::from("x".repeat(32)));
        assert_eq!(max, Json::from(format!("{}\u{10FFFF}", "x".repeat(32))));
        assert!(less(&Json::from(long.clone()), &max) && !less(&Json::from(long), &min));
    }

    #[test]
    fn only_the_first_indexed_columns_are_kept() {
        let columns: Vec<(String, ArrayRef)> = (0..40)
            .map(|i| {
                (
                    format!("c{i}"),
                    Arc::new(Int32Array::from(vec![i])) as ArrayRef,
                )
            })
            .collect();
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let mut stats = FileStats::default();
        stats.add(&batch);
        assert_eq!(stats.columns.len(), INDEXED_COLUMNS);
        assert_eq!(stats.columns[31].path, ["c31"]);
    }
}
