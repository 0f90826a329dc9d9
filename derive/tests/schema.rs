//! The schema the derive describes: Hadoop's signatures and the fixture schemas.

mod fixture_types;

use fixture_harness::{hadoop_java, schema as fixture_schema};
use hadoop_record::schema::Schema;
use hadoop_record::Record;

#[test]
fn signatures_equal_the_manifest() {
    let signatures = &hadoop_java().signatures;
    assert_eq!(signatures.len(), 16);
    for (record_type, want) in signatures {
        let got = with_fixture_type!(record_type.as_str(), T => T::signature());
        assert_eq!(got, want.as_str(), "{record_type}");
    }
}

/// Every record type a struct describes (itself and what it refers to) is the fixture
/// schema's record of the same `module.Name`, field for field.
#[test]
fn schemas_equal_the_fixture_schemas() {
    for record_type in hadoop_java().signatures.keys() {
        let (schema, id) = with_fixture_type!(record_type.as_str(), T => T::schema());
        assert_eq!(schema.record(id).unwrap().full_name(), *record_type);
        let simple = record_type.rsplit('.').next().unwrap();
        let type_name = with_fixture_type!(record_type.as_str(), T => T::type_name());
        assert_eq!(type_name, simple);
        for record in schema.records() {
            let theirs = fixture_schema()
                .find(&record.full_name())
                .unwrap_or_else(|| panic!("{} not in the fixture schema", record.full_name()));
            assert_eq!(
                fields(&schema, record),
                fields(fixture_schema(), fixture_schema().record(theirs).unwrap()),
                "{}",
                record.full_name()
            );
        }
    }
}

fn fields(schema: &Schema, record: &hadoop_record::schema::RecordType) -> Vec<(String, String)> {
    record
        .fields
        .iter()
        .map(|f| (f.name.clone(), schema.type_name(&f.ty).unwrap()))
        .collect()
}

/// Each type is registered once however often it is referred to.
#[test]
fn shared_types_are_registered_once() {
    let (schema, _) = fixture_types::composite::Outer::schema();
    let names: Vec<_> = schema.records().iter().map(|r| r.full_name()).collect();
    assert_eq!(
        names,
        [
            "oracle.composite.Outer",
            "oracle.composite.Inner",
            "oracle.composite.Containers",
            "oracle.common.types.Point",
            "oracle.common.types.Named",
        ]
    );
}
