//! The mapping from Rust types to DDL field types.
//!
//! [`Field`] says how one Rust type is written, read, described, compared and skipped.
//! `#[derive(Record)]` emits nothing but calls to it, field by field, so hand-written and
//! generated types share one mapping: i8 → `byte`, bool → `boolean`, i32 → `int`,
//! i64 → `long`, f32 → `float`, f64 → `double`, String → `ustring`, `Vec<u8>` → `buffer`,
//! `Vec<T>` → `vector<T>`, `BTreeMap`/`HashMap` → `map<K, V>`, `Box<T>` → `T`, records →
//! nested records, and `Option<T>` of `String`, `Vec<u8>` and `Vec<T>` → the same type,
//! which jute may write as null ([`Nullable`]).

/// `impl Field` for a type written whole as one `ustring` or `buffer`: `$write` and `$read`
/// are the archives' methods, `$from` makes the type from what `$read` gives, `$ddl` is the
/// DDL type, `$cmp` Hadoop's order of two values seen as `&$view`, and `$raw` reads one such
/// view from a raw input. `$extra` items go into the impl.
macro_rules! bytes_field {
    (
        $(#[$attr:meta])* $ty:ty, $write:ident, $read:ident, $from:expr, $ddl:ident,
        $cmp:ident(&$view:ty), $raw:ident $(, { $($extra:item)* })?
    ) => {
        $(#[$attr])*
        impl Field for $ty {
            $($($extra)*)?
            #[inline]
            fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
                out.$write(self, tag)
            }
            #[inline]
            fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
                input.$read(tag).map($from)
            }
            fn field_type(_: &mut SchemaBuilder) -> FieldType {
                FieldType::$ddl
            }
            #[inline]
            fn cmp_hadoop(&self, other: &Self) -> Ordering {
                $cmp(self, other)
            }
            fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
                let x: &$view = $raw(a)?;
                let y: &$view = $raw(b)?;
                Ok($cmp(x, y))
            }
            fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
                $raw(input).map(drop)
            }
        }
    };
}

/// The four comparisons of `Field` for a container of `T`s, each of `T`'s own lifted by
/// `$total` (the total orders) or `$partial` (the partial ones): the container orders by its
/// elements the same way in all four.
macro_rules! lifted_comparisons {
    ($total:ident, $partial:ident) => {
        fn cmp_hadoop(&self, other: &Self) -> Ordering {
            $total(self, other, T::cmp_hadoop)
        }

        fn key_cmp(&self, other: &Self) -> Ordering {
            $total(self, other, T::key_cmp)
        }

        fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
            $partial(self, other, T::partial_cmp_hadoop)
        }

        fn partial_cmp_ties(&self, other: &Self) -> Option<Ordering> {
            $partial(self, other, T::partial_cmp_ties)
        }
    };
}

mod boxed;
mod buffer;
mod map;
mod nullable;
mod raw_sequence;
mod scalar;
mod text;
mod vector;

pub use map::MapKey;
pub use nullable::Nullable;
pub use text::check_utf8;
pub(crate) use text::raw_str;

use std::cmp::Ordering;

use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// A Rust type that can be a field of a Hadoop record.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Hadoop record field type",
    label = "unsupported field type",
    note = "supported: i8 (byte), bool (boolean), i32 (int), i64 (long), f32 (float), f64 (double), String (ustring), Vec<u8> (buffer), Vec<T> (vector), BTreeMap<K, V> or HashMap<K, V> (map), Box<T>, Option<T> of String, Vec<u8> and Vec<T> (jute's nullable types), and types that derive `Record`"
)]
pub trait Field: Sized {
    /// Writes the value under `tag`.
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()>;

    /// Reads a value written under `tag`.
    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self>;

    /// The DDL type, registering any record types it refers to.
    fn field_type(schema: &mut SchemaBuilder) -> FieldType;

    /// Hadoop's generated `compareTo` for this type (spec §6).
    fn cmp_hadoop(&self, other: &Self) -> Ordering;

    /// [`Field::cmp_hadoop`] where it is an order: `None` where a NaN takes part, which
    /// Hadoop calls greater than everything in both directions. The first half of a record's
    /// `PartialOrd` ([`crate::compare::partial_cmp`]).
    #[inline]
    fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp_hadoop(other))
    }

    /// Orders two values that [`Field::partial_cmp_hadoop`] calls equal, so that together
    /// they give `Some(Equal)` exactly when the values are `==`: Hadoop's map order ignores
    /// the values (and calls `-0.0` and `0.0` keys equal), so maps, and what holds them,
    /// differ here. `Some(Equal)` for every other type: the default.
    #[inline]
    fn partial_cmp_ties(&self, _other: &Self) -> Option<Ordering> {
        Some(Ordering::Equal)
    }

    /// The order of this type as a `TreeMap` key in Java (the boxed type's `compareTo`):
    /// the order in which map entries are written. Equal to [`Field::cmp_hadoop`] except
    /// for `float`/`double`, where Java's `Float.compare` is a total order.
    fn key_cmp(&self, other: &Self) -> Ordering {
        self.cmp_hadoop(other)
    }

    /// Compares two binary encodings of this type, consuming exactly one value from each
    /// when they compare equal. Agrees with [`Field::cmp_hadoop`] on the decoded values.
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering>;

    /// Skips one binary-encoded value, checking it as the binary reader would.
    fn skip_raw(input: &mut RawInput<'_>) -> Result<()>;

    /// The value of a field the data lacks in a schema-evolution read, when it is a constant
    /// (scalars, strings); `None` reads it from an input that holds only empty values.
    #[doc(hidden)]
    #[inline]
    fn __empty() -> Option<Self> {
        None
    }
}
