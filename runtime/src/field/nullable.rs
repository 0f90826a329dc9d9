//! `Option<T>` for the types whose Java counterparts may be null: `ustring`, `buffer` and
//! `vector` (`String`, `byte[]` and `List` in Java). Only jute writes null (a length of −1);
//! see [`crate::archive::jute`].

use std::cmp::Ordering;

use super::vector::read_elements;
use super::Field;
use crate::archive::binary::RawInput;
use crate::archive::{NullType, RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// A field type that Java may hold as null, so that `Option<Self>` is a field too: `None`
/// is written as jute's null and read from it.
///
/// ```
/// use hadoop_record::archive::jute::{JuteInput, JuteOutput};
/// use hadoop_record::field::Field;
/// let mut out = JuteOutput::new(Vec::new());
/// None::<String>.write(&mut out, "s").unwrap();
/// Some(vec![Some(b"ab".to_vec()), None]).write(&mut out, "v").unwrap();
/// let bytes = out.into_inner().unwrap();
/// assert_eq!(bytes, b"\xff\xff\xff\xff\0\0\0\x02\0\0\0\x02ab\xff\xff\xff\xff");
/// let mut input = JuteInput::new(&bytes[..]);
/// assert_eq!(Option::<String>::read(&mut input, "s").unwrap(), None);
/// assert_eq!(
///     Option::<Vec<Option<Vec<u8>>>>::read(&mut input, "v").unwrap(),
///     Some(vec![Some(b"ab".to_vec()), None])
/// );
/// ```
#[diagnostic::on_unimplemented(
    message = "`Option<{Self}>` is not a Hadoop record field type: only jute's nullable types can be `None`",
    label = "not nullable",
    note = "Option<T> is supported for String (ustring), Vec<u8> (buffer) and Vec<T> (vector), whose null jute writes as length -1"
)]
pub trait Nullable: Field {
    /// The DDL type a null of this type stands for.
    const NULL: NullType;

    /// Reads a value that may be null.
    fn read_nullable<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Option<Self>>;
}

impl Nullable for String {
    const NULL: NullType = NullType::String;
    fn read_nullable<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Option<Self>> {
        input.read_nullable_string(tag)
    }
}

impl Nullable for Vec<u8> {
    const NULL: NullType = NullType::Buffer;
    fn read_nullable<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Option<Self>> {
        input.read_nullable_buffer(tag)
    }
}

#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
impl Nullable for bytes::Bytes {
    const NULL: NullType = NullType::Buffer;
    fn read_nullable<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Option<Self>> {
        Ok(input.read_nullable_buffer(tag)?.map(bytes::Bytes::from))
    }
}

impl<T: Field> Nullable for Vec<T> {
    const NULL: NullType = NullType::Vector;
    fn read_nullable<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Option<Self>> {
        match input.start_nullable_vector(tag)? {
            Some(index) => read_elements(input, index, tag).map(Some),
            None => Ok(None),
        }
    }
}

/// Null first, as a Java comparator with `Comparator.nullsFirst` would order it (jute's own
/// `compareTo` throws on a null field).
fn nulls_first<T>(a: &Option<T>, b: &Option<T>, cmp: impl Fn(&T, &T) -> Ordering) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => cmp(x, y),
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
    }
}

/// [`nulls_first`] for partial orders.
fn partial_nulls_first<T>(
    a: &Option<T>,
    b: &Option<T>,
    cmp: impl Fn(&T, &T) -> Option<Ordering>,
) -> Option<Ordering> {
    match (a, b) {
        (Some(x), Some(y)) => cmp(x, y),
        _ => Some(nulls_first(a, b, |_, _| Ordering::Equal)),
    }
}

impl<T: Nullable> Field for Option<T> {
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        match self {
            Some(v) => v.write(out, tag),
            None => out.write_null(T::NULL, tag),
        }
    }

    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        T::read_nullable(input, tag)
    }

    fn field_type(schema: &mut SchemaBuilder) -> FieldType {
        T::field_type(schema)
    }

    lifted_comparisons!(nulls_first, partial_nulls_first);

    // Hadoop's binary encoding, which raw comparison works on, holds no null.
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        T::cmp_raw(a, b)
    }

    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        T::skip_raw(input)
    }
}
