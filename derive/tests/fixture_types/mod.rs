//! Hand-written structs with `#[derive(Record)]` for every record type of the fixture
//! schemas (`tests/fixtures/hadoop-java/*.jr`), using the mapping's variety on purpose:
//! raw identifiers (`r#where`), renamed fields and structs, `Box`, `HashMap`,
//! `bytes::Bytes`, `Vec<f32>`, nested vectors and maps.

#![allow(dead_code)]

/// `module oracle.common.types`
pub mod common {
    use hadoop_record::Record;

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.common.types")]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.common.types")]
    pub struct Named {
        pub name: String,
        /// A Rust keyword as a DDL field name.
        pub r#where: Point,
    }
}

/// `module oracle.prims`
pub mod prims {
    use hadoop_record::Record;

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct ByteRec {
        pub v: i8,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct BoolRec {
        pub v: bool,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct IntRec {
        pub v: i32,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct LongRec {
        pub v: i64,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct FloatRec {
        pub v: f32,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct DoubleRec {
        pub v: f64,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct StringRec {
        pub v: String,
    }

    /// `buffer` as `bytes::Bytes` (the runtime's `bytes` feature).
    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct BufferRec {
        pub v: bytes::Bytes,
    }

    /// Every field renamed: the DDL names must appear exactly so in XML and signatures.
    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.prims")]
    pub struct AllPrims {
        #[record(name = "b")]
        pub byte: i8,
        #[record(name = "z")]
        pub boolean: bool,
        #[record(name = "i")]
        pub int: i32,
        #[record(name = "l")]
        pub long: i64,
        #[record(name = "f")]
        pub float: f32,
        #[record(name = "d")]
        pub double: f64,
        #[record(name = "s")]
        pub string: String,
        pub buf: Vec<u8>,
    }
}

/// `module oracle.composite`
pub mod composite {
    use std::collections::{BTreeMap, HashMap};

    use hadoop_record::Record;

    use super::common::{Named, Point};

    /// Renamed struct: the Rust name differs from the record type name.
    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(name = "Inner", module = "oracle.composite")]
    pub struct InnerRecord {
        pub tag: String,
        pub n: i64,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.composite")]
    pub struct IntVec {
        pub v: Vec<i32>,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.composite")]
    pub struct StrVec {
        pub v: Vec<String>,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.composite")]
    pub struct Containers {
        pub vi: Vec<i32>,
        pub vs: Vec<String>,
        pub vvi: Vec<Vec<i32>>,
        /// Rust orders these keys by UTF-8, Java by UTF-16: written in Java's order anyway.
        pub msi: BTreeMap<String, i32>,
        /// A `HashMap` has no order of its own: written in Java's order.
        pub mis: HashMap<i32, String>,
        pub vrec: Vec<InnerRecord>,
        pub mrec: BTreeMap<String, InnerRecord>,
        pub pt: Point,
        pub inner: Box<InnerRecord>,
        pub vb: Vec<bytes::Bytes>,
        pub mlvd: BTreeMap<i64, Vec<f64>>,
        pub vz: Vec<bool>,
        pub vf: Vec<f32>,
    }

    #[derive(Record, Debug, Clone, PartialEq, Default)]
    #[record(module = "oracle.composite")]
    pub struct Outer {
        pub a: InnerRecord,
        pub c: Box<Containers>,
        pub n: Named,
        pub flag: bool,
    }
}

/// Calls `$body` with `$T` bound to the struct of a fixture record type
/// (`module.Class`); panics on an unknown type.
#[macro_export]
macro_rules! with_fixture_type {
    ($record_type:expr, $T:ident => $body:expr) => {{
        use $crate::fixture_types::{common::*, composite::*, prims::*};
        // Each struct is named for its record class but `InnerRecord`, which its attribute
        // names `Inner`: the table lists each name once.
        type Inner = InnerRecord;
        $crate::with_fixture_type!(@match $record_type, $T => $body;
            "oracle.common.types" [Point, Named],
            "oracle.prims" [ByteRec, BoolRec, IntRec, LongRec, FloatRec, DoubleRec, StringRec,
                BufferRec, AllPrims],
            "oracle.composite" [Inner, IntVec, StrVec, Containers, Outer])
    }};
    (@match $name:expr, $T:ident => $body:expr; $($module:literal [$($ty:ident),+]),+) => {
        match $name {
            $($(concat!($module, ".", stringify!($ty)) => { type $T = $ty; $body })+)+
            other => panic!("no struct for fixture record type {other}"),
        }
    };
}
