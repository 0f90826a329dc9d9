//! [`ValueInput`]: a [`RecordInput`] that reads back a [`Value`] tree, so that a typed
//! record (or any reader of records) can read a value (its strings and buffers moved out,
//! not copied).

use std::vec::IntoIter;

use super::Value;
use crate::archive::{Index, RecordInput};
use crate::error::{Error, ErrorKind, Position, Result};

/// A [`RecordInput`] over one [`Value`]: what reading the bytes of the value gives, without
/// the bytes, so that nothing passes through an encoding that could not hold it (Hadoop's
/// binary refuses U+FFFE, only jute has nulls). Records, vectors and maps are entered as the
/// reader opens them; a value of another kind than the one asked for is an
/// [`ErrorKind::Schema`] error. [`from_value`](super::from_value) reads a typed record with
/// it.
///
/// ```
/// use hadoop_record::value::ValueInput;
/// use hadoop_record::{RecordInput, Value};
/// let mut input = ValueInput::new(Value::Record(vec![Value::Int(7), Value::from("x")]));
/// input.start_record("")?;
/// assert_eq!(input.read_int("n")?, 7);
/// assert!(input.read_long("s").is_err(), "a ustring is no long");
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug)]
pub struct ValueInput {
    /// The value itself, until it is read.
    root: Option<Value>,
    /// The values still to read at each open level, innermost last.
    open: Vec<Level>,
}

#[derive(Debug)]
enum Level {
    /// A record's fields or a vector's elements.
    Values(IntoIter<Value>),
    /// A map's entries, with the value of the entry whose key was read.
    Entries(IntoIter<(Value, Value)>, Option<Value>),
}

impl ValueInput {
    /// Reads `value`.
    pub fn new(value: Value) -> Self {
        ValueInput {
            root: Some(value),
            open: Vec::new(),
        }
    }

    /// Reads the fields of a record whose start was already read.
    pub(crate) fn inside_record(fields: Vec<Value>) -> Self {
        ValueInput {
            root: None,
            open: vec![Level::Values(fields.into_iter())],
        }
    }

    /// Whether all of the value has been read (every record, vector and map opened
    /// closed again).
    pub fn is_done(&self) -> bool {
        self.root.is_none() && self.open.is_empty()
    }

    fn next(&mut self, what: &'static str) -> Result<Value> {
        let next = match self.open.last_mut() {
            Some(Level::Values(values)) => values.next(),
            Some(Level::Entries(entries, value)) => match value.take() {
                Some(v) => Some(v),
                None => entries.next().map(|(k, v)| {
                    *value = Some(v);
                    k
                }),
            },
            None => self.root.take(),
        };
        next.ok_or_else(|| mismatch(what, "nothing"))
    }

    fn close(&mut self, what: &'static str) -> Result<()> {
        let rest = match self.open.pop() {
            Some(Level::Values(mut values)) => values.next().is_some(),
            Some(Level::Entries(mut entries, value)) => value.is_some() || entries.next().is_some(),
            None => return Err(mismatch(what, "nothing")),
        };
        if rest {
            return Err(mismatch(what, "more values"));
        }
        Ok(())
    }
}

#[cold]
fn mismatch(expected: &str, found: &str) -> Error {
    Error::new(
        ErrorKind::Schema,
        format!("expected {expected} but the value holds {found}"),
    )
}

/// The read of one kind of scalar: the variant's content, or a mismatch.
macro_rules! scalar {
    ($name:ident, $ty:ty, $variant:ident, $what:literal) => {
        fn $name(&mut self, _tag: &str) -> Result<$ty> {
            match self.next($what)? {
                Value::$variant(v) => Ok(v),
                other => Err(mismatch($what, other.type_name())),
            }
        }
    };
}

impl RecordInput for ValueInput {
    scalar!(read_byte, i8, Byte, "a byte");
    scalar!(read_bool, bool, Bool, "a boolean");
    scalar!(read_int, i32, Int, "an int");
    scalar!(read_long, i64, Long, "a long");
    scalar!(read_float, f32, Float, "a float");
    scalar!(read_double, f64, Double, "a double");
    scalar!(read_string, String, String, "a ustring");
    scalar!(read_buffer, Vec<u8>, Buffer, "a buffer");

    fn read_nullable_string(&mut self, _tag: &str) -> Result<Option<String>> {
        match self.next("a ustring")? {
            Value::Null => Ok(None),
            Value::String(v) => Ok(Some(v)),
            other => Err(mismatch("a ustring", other.type_name())),
        }
    }

    fn read_nullable_buffer(&mut self, _tag: &str) -> Result<Option<Vec<u8>>> {
        match self.next("a buffer")? {
            Value::Null => Ok(None),
            Value::Buffer(v) => Ok(Some(v)),
            other => Err(mismatch("a buffer", other.type_name())),
        }
    }

    fn start_record(&mut self, _tag: &str) -> Result<()> {
        match self.next("a record")? {
            Value::Record(fields) => {
                self.open.push(Level::Values(fields.into_iter()));
                Ok(())
            }
            other => Err(mismatch("a record", other.type_name())),
        }
    }

    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.close("the end of a record")
    }

    fn start_vector(&mut self, tag: &str) -> Result<Index> {
        self.start_nullable_vector(tag)?
            .ok_or_else(|| mismatch("a vector", "null"))
    }

    fn start_nullable_vector(&mut self, _tag: &str) -> Result<Option<Index>> {
        match self.next("a vector")? {
            Value::Null => Ok(None),
            Value::Vector(items) => {
                let index = Index::counted(items.len() as u64, items.len());
                self.open.push(Level::Values(items.into_iter()));
                Ok(Some(index))
            }
            other => Err(mismatch("a vector", other.type_name())),
        }
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.close("the end of a vector")
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        match self.next("a map")? {
            Value::Map(entries) => {
                let index = Index::counted(entries.len() as u64, entries.len());
                self.open.push(Level::Entries(entries.into_iter(), None));
                Ok(index)
            }
            other => Err(mismatch("a map", other.type_name())),
        }
    }

    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.close("the end of a map")
    }

    fn next_element(&mut self, index: &mut Index) -> Result<bool> {
        Ok(index.take_one())
    }

    fn at_end(&mut self) -> Result<bool> {
        Ok(self.is_done())
    }

    fn position(&self) -> Position {
        Position::Byte(0)
    }
}
