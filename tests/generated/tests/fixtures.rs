//! Every fixture file of `tests/fixtures/hadoop-java`, reproduced byte for byte in all three
//! formats by the records `rcc` generated (both layouts), and read back; signatures, DDL
//! module names and Hadoop's comparison as Java has them.

use std::cmp::Ordering;

use fixture_harness::{check_typed_case, hadoop_java, schema, Encoding};
use hadoop_record::{Format, Record, RecordReader, RecordWriter};

/// Runs `$body` with `$T` the generated type (under module `$root`) of the fixture record
/// type named `$name`.
macro_rules! with_type {
    ($root:ident, $name:expr, $T:ident => $body:expr) => {
        match $name {
            "oracle.common.types.Point" => {
                type $T = generated_records::$root::oracle::common::types::Point;
                $body
            }
            "oracle.common.types.Named" => {
                type $T = generated_records::$root::oracle::common::types::Named;
                $body
            }
            "oracle.composite.Inner" => {
                type $T = generated_records::$root::oracle::composite::Inner;
                $body
            }
            "oracle.composite.IntVec" => {
                type $T = generated_records::$root::oracle::composite::IntVec;
                $body
            }
            "oracle.composite.StrVec" => {
                type $T = generated_records::$root::oracle::composite::StrVec;
                $body
            }
            "oracle.composite.Containers" => {
                type $T = generated_records::$root::oracle::composite::Containers;
                $body
            }
            "oracle.composite.Outer" => {
                type $T = generated_records::$root::oracle::composite::Outer;
                $body
            }
            "oracle.prims.ByteRec" => {
                type $T = generated_records::$root::oracle::prims::ByteRec;
                $body
            }
            "oracle.prims.BoolRec" => {
                type $T = generated_records::$root::oracle::prims::BoolRec;
                $body
            }
            "oracle.prims.IntRec" => {
                type $T = generated_records::$root::oracle::prims::IntRec;
                $body
            }
            "oracle.prims.LongRec" => {
                type $T = generated_records::$root::oracle::prims::LongRec;
                $body
            }
            "oracle.prims.FloatRec" => {
                type $T = generated_records::$root::oracle::prims::FloatRec;
                $body
            }
            "oracle.prims.DoubleRec" => {
                type $T = generated_records::$root::oracle::prims::DoubleRec;
                $body
            }
            "oracle.prims.StringRec" => {
                type $T = generated_records::$root::oracle::prims::StringRec;
                $body
            }
            "oracle.prims.BufferRec" => {
                type $T = generated_records::$root::oracle::prims::BufferRec;
                $body
            }
            "oracle.prims.AllPrims" => {
                type $T = generated_records::$root::oracle::prims::AllPrims;
                $body
            }
            other => panic!("no generated type for {other}"),
        }
    };
}

fn read_all<T: Record>(bytes: &[u8], format: Format) -> hadoop_record::Result<Vec<T>> {
    RecordReader::new(bytes, format).records::<T>().collect()
}

fn check_all(encoding: Encoding) {
    let mut cases = 0;
    for case in hadoop_java().cases_in(encoding) {
        with_type!(fixtures, case.record_type.as_str(), T => check_typed_case::<T>(case));
        with_type!(tree, case.record_type.as_str(), T => check_typed_case::<T>(case));
        cases += 1;
    }
    assert_eq!(cases, hadoop_java().cases.len() / 3);
}

#[test]
fn every_fixture_file_byte_for_byte() {
    for encoding in [Encoding::Binary, Encoding::Csv, Encoding::Xml] {
        check_all(encoding);
    }
}

fn check_signature<T: Record>(name: &str, signature: &str) {
    assert_eq!(T::signature(), signature, "{name}");
    let (schema, id) = T::schema();
    assert_eq!(schema.record(id).unwrap().full_name(), name);
}

#[test]
fn signatures_and_module_names_are_hadoops() {
    let signatures = &hadoop_java().signatures;
    assert_eq!(signatures.len(), 16);
    for (name, signature) in signatures {
        with_type!(fixtures, name.as_str(), T => check_signature::<T>(name, signature));
        with_type!(tree, name.as_str(), T => check_signature::<T>(name, signature));
    }
}

fn check_comparison<T: Record>(c: &fixture_harness::Comparison) {
    let (a, b) = c.values();
    let encode = |value| {
        let mut writer = RecordWriter::new(Vec::new(), Format::Binary);
        writer
            .write_value(schema(), fixture_harness::record_id(&c.record_type), &value)
            .unwrap();
        let bytes = writer.into_inner().unwrap();
        read_all::<T>(&bytes, Format::Binary).unwrap().remove(0)
    };
    let (a, b) = (encode(a), encode(b));
    let sign = |o: Ordering| o as i32;
    assert_eq!(sign(a.compare_hadoop(&b)), c.compare_to_sign, "{}", c.label);
    assert_eq!(
        sign(b.compare_hadoop(&a)),
        c.compare_to_reverse_sign,
        "{}",
        c.label
    );
}

#[test]
fn compare_hadoop_agrees_with_javas_compare_to() {
    let comparisons = &hadoop_java().comparisons;
    assert!(!comparisons.is_empty());
    for c in comparisons {
        with_type!(fixtures, c.record_type.as_str(), T => check_comparison::<T>(c));
    }
}
