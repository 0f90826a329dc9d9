//! Numbers and booleans.

use std::cmp::Ordering;

use super::Field;
use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::compare::{hadoop_cmp, java_f32_total_cmp, java_f64_total_cmp};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// Implements [`Field`] for a scalar: its archive methods, DDL type, raw decoder and
/// Java's `TreeMap` key order. A `float` one is partially ordered (NaN is unordered).
macro_rules! scalar {
    ($ty:ty, $write:ident, $read:ident, $ddl:ident, |$raw:ident| $decode:expr, $key_cmp:expr) => {
        scalar!(@impl $ty, $write, $read, $ddl, |$raw| $decode, $key_cmp, {});
    };
    (float $ty:ty, $write:ident, $read:ident, $ddl:ident, |$raw:ident| $decode:expr, $key_cmp:expr) => {
        scalar!(@impl $ty, $write, $read, $ddl, |$raw| $decode, $key_cmp, {
            #[inline]
            fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
                self.partial_cmp(other)
            }
        });
    };
    (@impl $ty:ty, $write:ident, $read:ident, $ddl:ident, |$raw:ident| $decode:expr, $key_cmp:expr, {$($extra:item)*}) => {
        impl Field for $ty {
            #[inline]
            fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
                out.$write(*self, tag)
            }
            #[inline]
            fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
                input.$read(tag)
            }
            fn field_type(_: &mut SchemaBuilder) -> FieldType {
                FieldType::$ddl
            }
            #[inline]
            fn cmp_hadoop(&self, other: &Self) -> Ordering {
                hadoop_cmp(self, other)
            }
            #[inline]
            fn key_cmp(&self, other: &Self) -> Ordering {
                $key_cmp(*self, *other)
            }
            $($extra)*
            #[inline]
            fn __empty() -> Option<Self> {
                Some(<$ty>::default())
            }
            #[inline]
            fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
                let decode = |$raw: &mut RawInput<'_>| -> Result<$ty> { $decode };
                let x = decode(a)?;
                let y = decode(b)?;
                Ok(hadoop_cmp(&x, &y))
            }
            #[inline]
            fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
                let decode = |$raw: &mut RawInput<'_>| -> Result<$ty> { $decode };
                decode(input).map(drop)
            }
        }
    };
}

fn total<T: Ord>(a: T, b: T) -> Ordering {
    a.cmp(&b)
}

scalar!(
    i8,
    write_byte,
    read_byte,
    Byte,
    |r| Ok(r.take_array::<1>()?[0] as i8),
    total
);
scalar!(
    bool,
    write_bool,
    read_bool,
    Bool,
    |r| Ok(r.take_array::<1>()?[0] != 0),
    total
);
scalar!(i32, write_int, read_int, Int, |r| r.read_vint(), total);
scalar!(i64, write_long, read_long, Long, |r| r.read_vlong(), total);
scalar!(
    float f32,
    write_float,
    read_float,
    Float,
    |r| Ok(f32::from_be_bytes(r.take_array()?)),
    java_f32_total_cmp
);
scalar!(
    float f64,
    write_double,
    read_double,
    Double,
    |r| Ok(f64::from_be_bytes(r.take_array()?)),
    java_f64_total_cmp
);
