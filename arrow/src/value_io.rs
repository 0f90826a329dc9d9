//! Records that are [`Value`]s already (read from JSON, or through a type filter), fed to
//! the decoder, and rows taken out as `Value`s (for JSON): an archive over a value tree in
//! each direction, so that nothing passes through an encoding that could not hold it
//! (Hadoop's binary refuses U+FFFE, jute's strings lose supplementary characters, only jute
//! has nulls).

use std::slice;

use hadoop_record::archive::NullType;
use hadoop_record::{Error, ErrorKind, Index, Position, RecordInput, RecordOutput, Result, Value};

/// Reads one value tree as a record.
pub(crate) struct ValueInput<'a> {
    root: Option<&'a Value>,
    open: Vec<Open<'a>>,
}

enum Open<'a> {
    Items(slice::Iter<'a, Value>),
    Entries(slice::Iter<'a, (Value, Value)>, Option<&'a Value>),
}

impl<'a> ValueInput<'a> {
    pub(crate) fn new(value: &'a Value) -> Self {
        ValueInput {
            root: Some(value),
            open: Vec::new(),
        }
    }

    fn next(&mut self, what: &str) -> Result<&'a Value> {
        let next = match self.open.last_mut() {
            None => self.root.take(),
            Some(Open::Items(items)) => items.next(),
            Some(Open::Entries(entries, pending)) => match pending.take() {
                Some(value) => Some(value),
                None => entries.next().map(|(k, v)| {
                    *pending = Some(v);
                    k
                }),
            },
        };
        next.ok_or_else(|| mismatch(format!("expected {what}, found nothing")))
    }
}

fn mismatch(message: String) -> Error {
    Error::new(ErrorKind::Schema, message)
}

fn wrong(what: &str, v: &Value) -> Error {
    mismatch(format!("expected {what}, found a {}", v.type_name()))
}

macro_rules! read_scalar {
    ($name:ident, $ty:ty, $variant:ident, $what:literal) => {
        fn $name(&mut self, _tag: &str) -> Result<$ty> {
            match self.next($what)? {
                Value::$variant(v) => Ok(v.clone()),
                v => Err(wrong($what, v)),
            }
        }
    };
}

impl RecordInput for ValueInput<'_> {
    read_scalar!(read_byte, i8, Byte, "a byte");
    read_scalar!(read_bool, bool, Bool, "a boolean");
    read_scalar!(read_int, i32, Int, "an int");
    read_scalar!(read_long, i64, Long, "a long");
    read_scalar!(read_float, f32, Float, "a float");
    read_scalar!(read_double, f64, Double, "a double");
    read_scalar!(read_string, String, String, "a ustring");
    read_scalar!(read_buffer, Vec<u8>, Buffer, "a buffer");

    fn read_nullable_string(&mut self, _tag: &str) -> Result<Option<String>> {
        match self.next("a ustring")? {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            v => Err(wrong("a ustring", v)),
        }
    }

    fn read_nullable_buffer(&mut self, _tag: &str) -> Result<Option<Vec<u8>>> {
        match self.next("a buffer")? {
            Value::Null => Ok(None),
            Value::Buffer(b) => Ok(Some(b.clone())),
            v => Err(wrong("a buffer", v)),
        }
    }

    fn start_record(&mut self, _tag: &str) -> Result<()> {
        match self.next("a record")? {
            Value::Record(fields) => {
                self.open.push(Open::Items(fields.iter()));
                Ok(())
            }
            v => Err(wrong("a record", v)),
        }
    }

    fn end_record(&mut self, _tag: &str) -> Result<()> {
        self.open.pop();
        Ok(())
    }

    fn start_vector(&mut self, tag: &str) -> Result<Index> {
        self.start_nullable_vector(tag)?
            .ok_or_else(|| mismatch("expected a vector, found a null".into()))
    }

    fn start_nullable_vector(&mut self, _tag: &str) -> Result<Option<Index>> {
        match self.next("a vector")? {
            Value::Null => Ok(None),
            Value::Vector(items) => {
                self.open.push(Open::Items(items.iter()));
                Ok(Some(Index::counted(items.len() as u64, items.len())))
            }
            v => Err(wrong("a vector", v)),
        }
    }

    fn end_vector(&mut self, _tag: &str) -> Result<()> {
        self.open.pop();
        Ok(())
    }

    fn start_map(&mut self, _tag: &str) -> Result<Index> {
        match self.next("a map")? {
            Value::Map(entries) => {
                self.open.push(Open::Entries(entries.iter(), None));
                Ok(Index::counted(entries.len() as u64, entries.len()))
            }
            v => Err(wrong("a map", v)),
        }
    }

    fn end_map(&mut self, _tag: &str) -> Result<()> {
        self.open.pop();
        Ok(())
    }

    fn next_element(&mut self, index: &mut Index) -> Result<bool> {
        Ok(index.take_one())
    }

    fn at_end(&mut self) -> Result<bool> {
        Ok(self.root.is_none() && self.open.is_empty())
    }

    fn position(&self) -> Position {
        Position::Byte(0)
    }
}

/// Builds the value tree of what is written to it.
#[derive(Default)]
pub(crate) struct ValueOutput {
    open: Vec<Building>,
    done: Option<Value>,
}

enum Building {
    Items(Vec<Value>),
    Record(Vec<Value>),
    Entries(Vec<(Value, Value)>, Option<Value>),
}

impl ValueOutput {
    /// The value written.
    pub(crate) fn into_value(self) -> Option<Value> {
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

impl RecordOutput for ValueOutput {
    fn write_byte(&mut self, v: i8, _tag: &str) -> Result<()> {
        self.push(Value::Byte(v))
    }
    fn write_bool(&mut self, v: bool, _tag: &str) -> Result<()> {
        self.push(Value::Bool(v))
    }
    fn write_int(&mut self, v: i32, _tag: &str) -> Result<()> {
        self.push(Value::Int(v))
    }
    fn write_long(&mut self, v: i64, _tag: &str) -> Result<()> {
        self.push(Value::Long(v))
    }
    fn write_float(&mut self, v: f32, _tag: &str) -> Result<()> {
        self.push(Value::Float(v))
    }
    fn write_double(&mut self, v: f64, _tag: &str) -> Result<()> {
        self.push(Value::Double(v))
    }
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
