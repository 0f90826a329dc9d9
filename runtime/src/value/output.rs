//! [`ValueOutput`]: a [`RecordOutput`] that builds a [`Value`] tree of what is written to
//! it.

use super::Value;
use crate::archive::{NullType, RecordOutput};
use crate::error::{Error, ErrorKind, Result};

/// A [`RecordOutput`] that builds the [`Value`] of what is written to it: what reading the
/// bytes written would give, without the bytes. [`to_value`](super::to_value) takes a typed
/// record's value with it.
///
/// ```
/// use hadoop_record::value::ValueOutput;
/// use hadoop_record::{RecordOutput, Value};
/// let mut out = ValueOutput::new();
/// out.start_record("")?;
/// out.write_int(7, "n")?;
/// out.end_record("")?;
/// assert_eq!(out.into_value(), Some(Value::Record(vec![Value::Int(7)])));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ValueOutput {
    open: Vec<Building>,
    done: Option<Value>,
}

#[derive(Debug)]
enum Building {
    Items(Vec<Value>),
    Record(Vec<Value>),
    Entries(Vec<(Value, Value)>, Option<Value>),
}

impl ValueOutput {
    /// An output that has nothing yet.
    pub fn new() -> Self {
        ValueOutput::default()
    }

    /// The value written, once one whole value is.
    pub fn into_value(self) -> Option<Value> {
        self.done
    }

    fn push(&mut self, v: Value) -> Result<()> {
        match self.open.last_mut() {
            None => self.done = Some(v),
            Some(Building::Items(items) | Building::Record(items)) => items.push(v),
            Some(Building::Entries(entries, key)) => match key.take() {
                Some(k) => entries.push((k, v)),
                None => *key = Some(v),
            },
        }
        Ok(())
    }

    fn close(&mut self) -> Result<()> {
        let v = match self.open.pop() {
            Some(Building::Items(items)) => Value::Vector(items),
            Some(Building::Record(fields)) => Value::Record(fields),
            Some(Building::Entries(entries, _)) => Value::Map(entries),
            None => return Err(Error::new(ErrorKind::Syntax, "nothing to close")),
        };
        self.push(v)
    }
}

/// `RecordOutput` methods that write a scalar as its `Value` variant.
macro_rules! write_scalars {
    ($($write:ident($ty:ty) => $variant:ident),* $(,)?) => {
        $(
            fn $write(&mut self, v: $ty, _tag: &str) -> Result<()> {
                self.push(Value::$variant(v))
            }
        )*
    };
}

impl RecordOutput for ValueOutput {
    write_scalars!(
        write_byte(i8) => Byte,
        write_bool(bool) => Bool,
        write_int(i32) => Int,
        write_long(i64) => Long,
        write_float(f32) => Float,
        write_double(f64) => Double,
    );
    fn write_string(&mut self, v: &str, _tag: &str) -> Result<()> {
        self.push(Value::String(v.to_owned()))
    }
    fn write_buffer(&mut self, v: &[u8], _tag: &str) -> Result<()> {
        self.push(Value::Buffer(v.to_vec()))
    }
    fn start_record(&mut self, _tag: &str) -> Result<()> {
        self.open.push(Building::Record(Vec::new()));
        Ok(())
    }
    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.close()
    }
    fn start_vector(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.open.push(Building::Items(Vec::with_capacity(len)));
        Ok(())
    }
    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.close()
    }
    fn start_map(&mut self, len: usize, _tag: &str) -> Result<()> {
        self.open
            .push(Building::Entries(Vec::with_capacity(len), None));
        Ok(())
    }
    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.close()
    }
    fn write_null(&mut self, _ty: NullType, _tag: &str) -> Result<()> {
        self.push(Value::Null)
    }
}
