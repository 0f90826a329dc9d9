//! Hand-written typed records for the fixture schemas (`tests/fixtures/hadoop-java/*.jr`),
//! for tests that go through `Record` impls rather than the schema-driven codec. The
//! `record!` macro writes what `#[derive(Record)]` would: a struct, its `Record` impl (with
//! the field path added to errors), `Field` via `record_field!`, and a conversion to `Value`
//! for comparison with the manifest.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use hadoop_record::value::key_cmp;
use hadoop_record::Value;

/// Typed value → the schema-driven form, maps in Java's key order.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! scalar_to_value {
    ($($ty:ty => $variant:ident),*) => {
        $(impl ToValue for $ty {
            fn to_value(&self) -> Value {
                Value::$variant(self.clone())
            }
        })*
    };
}

scalar_to_value!(i8 => Byte, bool => Bool, i32 => Int, i64 => Long, f32 => Float, f64 => Double,
    String => String, Vec<u8> => Buffer);

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        Value::Vector(self.iter().map(ToValue::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Box<T> {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

fn map_value<'a, K: ToValue + 'a, V: ToValue + 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) -> Value {
    let mut entries: Vec<(Value, Value)> =
        entries.map(|(k, v)| (k.to_value(), v.to_value())).collect();
    entries.sort_by(|a, b| key_cmp(&a.0, &b.0));
    Value::Map(entries)
}

impl<K: ToValue, V: ToValue> ToValue for BTreeMap<K, V> {
    fn to_value(&self) -> Value {
        map_value(self.iter())
    }
}

impl<K: ToValue, V: ToValue, S> ToValue for HashMap<K, V, S> {
    fn to_value(&self) -> Value {
        map_value(self.iter())
    }
}

/// A record struct with DDL field names, as `#[derive(Record)]` would implement it.
#[macro_export]
macro_rules! record {
    ($name:ident { $($field:ident : $ty:ty = $ddl:literal),+ $(,)? }) => {
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name {
            $(pub $field: $ty),+
        }

        impl hadoop_record::Record for $name {
            fn type_name() -> &'static str {
                stringify!($name)
            }
            fn write_to<O: hadoop_record::RecordOutput + ?Sized>(
                &self,
                out: &mut O,
                tag: &str,
            ) -> hadoop_record::Result<()> {
                out.start_record(tag)?;
                $(hadoop_record::field::Field::write(&self.$field, out, $ddl)
                    .map_err(|e| e.in_field($ddl))?;)+
                out.end_record(tag)
            }
            fn read_from<I: hadoop_record::RecordInput + ?Sized>(
                input: &mut I,
                tag: &str,
            ) -> hadoop_record::Result<Self> {
                input.start_record(tag)?;
                $(let $field = <$ty as hadoop_record::field::Field>::read(input, $ddl)
                    .map_err(|e| e.in_field($ddl))?;)+
                input.end_record(tag)?;
                Ok($name { $($field),+ })
            }
            fn compare_hadoop(&self, other: &Self) -> std::cmp::Ordering {
                std::cmp::Ordering::Equal
                    $(.then_with(|| hadoop_record::field::Field::cmp_hadoop(&self.$field, &other.$field)))+
            }
            fn describe(
                schema: &mut hadoop_record::schema::SchemaBuilder,
            ) -> hadoop_record::schema::RecordId {
                schema.record::<Self>(stringify!($name), |s| {
                    vec![$(hadoop_record::schema::FieldDef::new(
                        $ddl,
                        <$ty as hadoop_record::field::Field>::field_type(s),
                    )),+]
                })
            }
        }

        hadoop_record::record_field!($name);

        impl $crate::fixture_records::ToValue for $name {
            fn to_value(&self) -> hadoop_record::Value {
                hadoop_record::Value::Record(vec![$($crate::fixture_records::ToValue::to_value(&self.$field)),+])
            }
        }
    };
}

record!(Point {
    x: i32 = "x",
    y: i32 = "y"
});
record!(Named {
    name: String = "name",
    at: Point = "where"
});
record!(ByteRec { v: i8 = "v" });
record!(BoolRec { v: bool = "v" });
record!(IntRec { v: i32 = "v" });
record!(LongRec { v: i64 = "v" });
record!(FloatRec { v: f32 = "v" });
record!(DoubleRec { v: f64 = "v" });
record!(StringRec { v: String = "v" });
record!(BufferRec { v: Vec<u8> = "v" });
record!(AllPrims {
    b: i8 = "b",
    z: bool = "z",
    i: i32 = "i",
    l: i64 = "l",
    f: f32 = "f",
    d: f64 = "d",
    s: String = "s",
    buf: Vec<u8> = "buf",
});
record!(Inner {
    tag: String = "tag",
    n: i64 = "n"
});
record!(IntVec { v: Vec<i32> = "v" });
record!(StrVec { v: Vec<String> = "v" });
record!(Containers {
    vi: Vec<i32> = "vi",
    vs: Vec<String> = "vs",
    vvi: Vec<Vec<i32>> = "vvi",
    msi: BTreeMap<String, i32> = "msi",
    mis: HashMap<i32, String> = "mis",
    vrec: Vec<Inner> = "vrec",
    mrec: BTreeMap<String, Inner> = "mrec",
    pt: Point = "pt",
    inner: Inner = "inner",
    vb: Vec<Vec<u8>> = "vb",
    mlvd: BTreeMap<i64, Vec<f64>> = "mlvd",
    vz: Vec<bool> = "vz",
    vf: Vec<f32> = "vf",
});
record!(Outer {
    a: Inner = "a",
    c: Containers = "c",
    n: Named = "n",
    flag: bool = "flag",
});

/// Runs `$body` with the type alias `$t` set to the typed record of a fixture record type
/// (`oracle.prims.IntRec` → `IntRec`).
#[macro_export]
macro_rules! with_fixture_type {
    ($record_type:expr, $t:ident => $body:block) => {{
        use $crate::fixture_records::*;
        // Each typed record is named for its record class: the table lists each name once.
        $crate::with_fixture_type!(@match $record_type.rsplit('.').next().unwrap(), $t => $body;
            Point, Named, ByteRec, BoolRec, IntRec, LongRec, FloatRec, DoubleRec, StringRec,
            BufferRec, AllPrims, Inner, IntVec, StrVec, Containers, Outer)
    }};
    (@match $name:expr, $t:ident => $body:block; $($ty:ident),+) => {
        match $name {
            $(stringify!($ty) => { type $t = $ty; $body })+
            other => panic!("no typed record for {other}"),
        }
    };
}

/// The default `Outer` as a value whose `flag` (a boolean) holds an int: a record that
/// fails to encode midway, at `Outer.flag`.
pub fn outer_with_bad_flag() -> Value {
    let mut broken = Outer::default().to_value();
    if let Value::Record(fields) = &mut broken {
        fields[3] = Value::Int(1);
    }
    broken
}
