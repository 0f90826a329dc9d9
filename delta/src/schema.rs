//! A query result's columns as a Delta table's schema, and the check that a result fits an
//! existing table: the Hadoop→Arrow mapping of `--to parquet` (byte, buffer, vectors, maps,
//! nested records) as Delta's types.

use std::sync::Arc;

use datafusion::arrow::datatypes::{Field, Schema, SchemaRef};
use datafusion::common::{plan_datafusion_err, plan_err, Result};
use deltalake_core::kernel::engine::arrow_conversion::{TryIntoArrow, TryIntoKernel};
use deltalake_core::kernel::{DataType, StructType};

/// The Delta schema of a result's columns `schema` (their metadata left behind).
pub(crate) fn delta_schema(schema: &SchemaRef) -> Result<StructType> {
    let plain = Schema::new(
        schema
            .fields()
            .iter()
            .map(|f| plain_field(f))
            .collect::<Vec<_>>(),
    );
    (&plain)
        .try_into_kernel()
        .map_err(|e| plan_datafusion_err!("the result's columns cannot be a Delta table's: {e}"))
}

/// `field` without metadata, at every depth.
fn plain_field(field: &Field) -> Field {
    use datafusion::arrow::datatypes::DataType as A;
    let data_type = match field.data_type() {
        A::Struct(fields) => A::Struct(fields.iter().map(|f| Arc::new(plain_field(f))).collect()),
        A::List(item) => A::List(Arc::new(plain_field(item))),
        A::LargeList(item) => A::LargeList(Arc::new(plain_field(item))),
        A::Map(entries, sorted) => A::Map(Arc::new(plain_field(entries)), *sorted),
        other => other.clone(),
    };
    Field::new(field.name(), data_type, field.is_nullable())
}

/// The Arrow schema of a Delta schema.
pub(crate) fn arrow_schema(schema: &StructType) -> Result<SchemaRef> {
    let arrow: Schema = schema
        .try_into_arrow()
        .map_err(|e| plan_datafusion_err!("a Delta schema Arrow cannot hold: {e}"))?;
    Ok(Arc::new(arrow))
}

/// Refuses a result whose columns `result` (a Delta schema) do not fit the table's
/// `table`, naming the column and both types: the same names, each of the same type
/// (nullability aside).
pub(crate) fn check_fits(url: &str, table: &StructType, result: &StructType) -> Result<()> {
    for field in result.fields() {
        match table.field(field.name()) {
            None => {
                let columns: Vec<&str> = table.fields().map(|f| f.name().as_str()).collect();
                return plan_err!(
                    "the result does not fit the Delta table {url}: the table has no column `{}` \
                     (its columns: {})",
                    field.name(),
                    columns.join(", ")
                );
            }
            Some(have) if !same_type(have.data_type(), field.data_type()) => {
                return plan_err!(
                    "the result does not fit the Delta table {url}: column `{}` is {} in the \
                     table and {} in the result",
                    field.name(),
                    have.data_type(),
                    field.data_type()
                );
            }
            Some(_) => {}
        }
    }
    if let Some(missing) = table.fields().find(|f| result.field(f.name()).is_none()) {
        return plan_err!(
            "the result does not fit the Delta table {url}: it has no column `{}` ({}), which \
             the table has",
            missing.name(),
            missing.data_type()
        );
    }
    Ok(())
}

/// Whether two Delta types are the same, nullability aside.
fn same_type(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::Struct(a), DataType::Struct(b)) => {
            a.fields().len() == b.fields().len()
                && a.fields()
                    .zip(b.fields())
                    .all(|(a, b)| a.name() == b.name() && same_type(a.data_type(), b.data_type()))
        }
        (DataType::Array(a), DataType::Array(b)) => same_type(a.element_type(), b.element_type()),
        (DataType::Map(a), DataType::Map(b)) => {
            same_type(a.key_type(), b.key_type()) && same_type(a.value_type(), b.value_type())
        }
        (a, b) => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::datatypes::DataType as A;

    fn schema(fields: Vec<Field>) -> StructType {
        delta_schema(&Arc::new(Schema::new(fields))).unwrap()
    }

    #[test]
    fn hadoop_types_are_delta_types_and_mismatches_are_named() {
        let place = A::Struct(
            vec![
                Field::new("city", A::Utf8, true),
                Field::new("zip", A::Int32, false),
            ]
            .into(),
        );
        let table = schema(vec![
            Field::new("b", A::Int8, false),
            Field::new("id", A::Int64, false),
            Field::new("blob", A::Binary, true),
            Field::new(
                "tags",
                A::List(Arc::new(Field::new("item", A::Utf8, true))),
                true,
            ),
            Field::new("origin", place.clone(), true),
        ]);
        let json = serde_json::to_value(&table).unwrap();
        let types: Vec<String> = json["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["type"].to_string())
            .collect();
        assert_eq!(types[0], "\"byte\"");
        assert_eq!(types[1], "\"long\"");
        assert_eq!(types[2], "\"binary\"");
        assert!(types[3].contains("\"array\""), "{}", types[3]);
        assert!(types[4].contains("\"struct\""), "{}", types[4]);
        let url = "s3://lake/t/";
        check_fits(url, &table, &table).unwrap();
        let narrower = schema(vec![
            Field::new("b", A::Int8, true),
            Field::new("id", A::Int32, false),
            Field::new("blob", A::Binary, true),
            Field::new(
                "tags",
                A::List(Arc::new(Field::new("item", A::Utf8, true))),
                true,
            ),
            Field::new("origin", place, true),
        ]);
        let e = check_fits(url, &table, &narrower).unwrap_err().to_string();
        assert!(
            e.contains("column `id` is long in the table and integer in the result"),
            "{e}"
        );
        let extra = schema(vec![Field::new("x", A::Utf8, true)]);
        let e = check_fits(url, &table, &extra).unwrap_err().to_string();
        assert!(e.contains("the table has no column `x`"), "{e}");
        let fewer = schema(vec![Field::new("b", A::Int8, true)]);
        let e = check_fits(url, &table, &fewer).unwrap_err().to_string();
        assert!(e.contains("it has no column `id` (long)"), "{e}");
        assert!(arrow_schema(&table).is_ok());
    }
}
