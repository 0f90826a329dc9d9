//! JSON → [`Value`], driven by the schema: one serde `DeserializeSeed` that both
//! [`from_json`](super::from_json) (over a parsed `serde_json::Value`) and
//! [`JsonReader`](super::JsonReader) (over text, with line and column) use. Written by hand
//! because the type of every JSON value comes from the schema, not from a Rust type; the
//! field path is kept in a [`Trail`] that a failure leaves as it was, so that the error can
//! name the field.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::archive::text::push_float;
use crate::archive::Depth;
use crate::compare::sort_by_java;
use crate::error::{excerpt, Error, ErrorKind, Position};
use crate::schema::{FieldType, Schema};
use crate::value::key_cmp;
use crate::value::Value;

/// `DeserializeSeed` for a seed that is its own [`Visitor`]: it asks the deserializer for
/// the data `$hint` names and visits what comes itself.
macro_rules! seed_visits_itself {
    ($seed:ty, $value:ty, $hint:ident) => {
        impl<'de> DeserializeSeed<'de> for $seed {
            type Value = $value;

            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<$value, D::Error> {
                d.$hint(self)
            }
        }
    };
}

/// Where the reader is: the field path from the record to the value being read, how deeply
/// records, vectors and maps are open (the readers' one nesting rule, [`Depth`]), and the
/// kind of a failure the seed found itself (serde's errors carry only text).
#[derive(Debug)]
pub(super) struct Trail<'s> {
    path: Vec<Step<'s>>,
    depth: Depth,
    kind: Option<ErrorKind>,
}

#[derive(Debug)]
enum Step<'s> {
    Field(&'s str),
    Index(u64),
}

impl Trail<'_> {
    /// At the top, with `depth` counting nesting.
    pub(super) fn new(depth: Depth) -> Self {
        Trail {
            path: Vec::new(),
            depth,
            kind: None,
        }
    }

    /// Opens a record, vector or map: an error past the nesting limit.
    fn enter<E: de::Error>(&mut self) -> Result<(), E> {
        match self.depth.enter() {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(ErrorKind::Limit, e.message())),
        }
    }

    /// A serde error with the message `message`, remembering its `kind`.
    fn fail<E: de::Error>(&mut self, kind: ErrorKind, message: impl fmt::Display) -> E {
        self.kind = Some(kind);
        E::custom(message)
    }

    /// `e` as the runtime's error, with the field path, and at `position` when known.
    pub(super) fn error(&self, e: &serde_json::Error, position: Option<Position>) -> Error {
        use serde_json::error::Category;
        let kind = self.kind.unwrap_or(match e.classify() {
            Category::Io => ErrorKind::Io,
            Category::Eof => ErrorKind::UnexpectedEof,
            Category::Syntax => ErrorKind::Syntax,
            Category::Data => ErrorKind::Schema,
        });
        // serde_json appends the position to the message; it is kept apart here.
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
        let mut error = Error::new(kind, message);
        if let Some(position) = position {
            error = error.at(position);
        }
        // The error keeps its path innermost first.
        for step in self.path.iter().rev() {
            error = match step {
                Step::Field(name) => error.in_field(name),
                Step::Index(i) => error.in_index(*i),
            };
        }
        error
    }
}

/// Reads a value of type `ty`.
pub(super) struct ValueSeed<'s, 't> {
    pub schema: &'s Schema,
    pub ty: &'s FieldType,
    pub trail: &'t mut Trail<'s>,
}

impl<'s> ValueSeed<'s, '_> {
    fn child<'u>(&'u mut self, ty: &'s FieldType) -> ValueSeed<'s, 'u> {
        ValueSeed {
            schema: self.schema,
            ty,
            trail: self.trail,
        }
    }

    fn mismatch<E: de::Error>(&mut self, found: de::Unexpected<'_>) -> E {
        self.trail.kind = Some(ErrorKind::Schema);
        E::invalid_type(found, &Expected(self.schema.name_of(self.ty)))
    }

    /// [`Self::mismatch`] for a string, quoted as a short excerpt whatever its length.
    fn mismatch_str<E: de::Error>(&mut self, found: &str) -> E {
        let quoted = format!("string {}", excerpt(found));
        self.mismatch(de::Unexpected::Other(&quoted))
    }

    /// An integer of type `ty`, from a JSON number or a decimal string.
    fn integer<E: de::Error>(&mut self, wide: i64) -> Result<Value, E> {
        let value = match self.ty {
            FieldType::Byte => i8::try_from(wide).map(Value::Byte).ok(),
            FieldType::Int => i32::try_from(wide).map(Value::Int).ok(),
            FieldType::Long => Some(Value::Long(wide)),
            _ => return Err(self.mismatch(de::Unexpected::Signed(wide))),
        };
        value.ok_or_else(|| {
            let ty = self.schema.name_of(self.ty);
            self.trail.fail(
                ErrorKind::Overflow,
                format!("{wide} is out of range for {ty}"),
            )
        })
    }
}

/// What a value of the schema's type looks like, for serde's messages.
struct Expected(String);

impl de::Expected for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

seed_visits_itself!(ValueSeed<'_, '_>, Value, deserialize_any);

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.schema.name_of(self.ty))
    }

    fn visit_bool<E: de::Error>(mut self, v: bool) -> Result<Value, E> {
        match self.ty {
            FieldType::Bool => Ok(Value::Bool(v)),
            _ => Err(self.mismatch(de::Unexpected::Bool(v))),
        }
    }

    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<Value, E> {
        match self.ty {
            // JSON writes whole numbers without a point; any number is a float's value.
            FieldType::Float => Ok(Value::Float(narrow(v as f64))),
            FieldType::Double => Ok(Value::Double(v as f64)),
            _ => self.integer(v),
        }
    }

    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<Value, E> {
        match (self.ty, i64::try_from(v)) {
            (FieldType::Float, _) => Ok(Value::Float(narrow(v as f64))),
            (FieldType::Double, _) => Ok(Value::Double(v as f64)),
            (_, Ok(v)) => self.integer(v),
            (FieldType::Byte | FieldType::Int | FieldType::Long, Err(_)) => {
                let ty = self.schema.name_of(self.ty);
                Err(self
                    .trail
                    .fail(ErrorKind::Overflow, format!("{v} is out of range for {ty}")))
            }
            _ => Err(self.mismatch(de::Unexpected::Unsigned(v))),
        }
    }

    fn visit_f64<E: de::Error>(mut self, v: f64) -> Result<Value, E> {
        match self.ty {
            FieldType::Float => Ok(Value::Float(narrow(v))),
            FieldType::Double => Ok(Value::Double(v)),
            _ => Err(self.mismatch(de::Unexpected::Float(v))),
        }
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<Value, E> {
        match self.ty {
            FieldType::String => Ok(Value::String(v.to_owned())),
            FieldType::Buffer => {
                hex(v).map_err(|message| self.trail.fail(ErrorKind::Syntax, message))
            }
            // Longs beyond ±2^53 are strings; any integer may be.
            FieldType::Byte | FieldType::Int | FieldType::Long => match v.parse::<i64>() {
                Ok(wide) => self.integer(wide),
                Err(_) => Err(self.mismatch_str(v)),
            },
            // "NaN", "Infinity", "-Infinity", or a number as text (the fixtures' form).
            FieldType::Float => float_text(v)
                .map(Value::Float)
                .ok_or_else(|| self.mismatch_str(v)),
            FieldType::Double => float_text(v)
                .map(Value::Double)
                .ok_or_else(|| self.mismatch_str(v)),
            _ => Err(self.mismatch_str(v)),
        }
    }

    /// JSON `null`: jute's null string, buffer or vector ([`Value::Null`]).
    fn visit_unit<E: de::Error>(mut self) -> Result<Value, E> {
        match self.ty {
            FieldType::String | FieldType::Buffer | FieldType::Vector(_) => Ok(Value::Null),
            _ => Err(self.mismatch(de::Unexpected::Unit)),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        if matches!(self.ty, FieldType::Vector(_) | FieldType::Map(..)) {
            self.trail.enter()?;
        }
        match self.ty {
            FieldType::Vector(element) => loop {
                self.trail.path.push(Step::Index(items.len() as u64));
                match seq.next_element_seed(self.child(element))? {
                    Some(item) => items.push(item),
                    None => break,
                }
                self.trail.path.pop();
            },
            FieldType::Map(key, value) => {
                let mut entries = Vec::new();
                loop {
                    self.trail.path.push(Step::Index(entries.len() as u64));
                    let entry = EntrySeed {
                        schema: self.schema,
                        key,
                        value,
                        trail: &mut *self.trail,
                    };
                    match seq.next_element_seed(entry)? {
                        Some(entry) => entries.push(entry),
                        None => break,
                    }
                    self.trail.path.pop();
                }
                self.trail.path.pop();
                self.trail.depth.leave();
                return Ok(Value::Map(entries));
            }
            _ => return Err(self.mismatch(de::Unexpected::Seq)),
        }
        self.trail.path.pop();
        self.trail.depth.leave();
        Ok(Value::Vector(items))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        match self.ty {
            FieldType::Record(id) => {
                let record = self.schema.record_at(*id);
                self.trail.enter()?;
                let mut fields: Vec<Option<Value>> = vec![None; record.fields.len()];
                loop {
                    let key = FieldSeed {
                        record: &record.name,
                        names: &record.fields,
                        trail: &mut *self.trail,
                    };
                    let Some(i) = map.next_key_seed(key)? else {
                        break;
                    };
                    let def = &record.fields[i];
                    if fields[i].is_some() {
                        return Err(self.trail.fail(
                            ErrorKind::Schema,
                            format!("field `{}` is given twice", def.name),
                        ));
                    }
                    self.trail.path.push(Step::Field(&def.name));
                    fields[i] = Some(map.next_value_seed(self.child(&def.ty))?);
                    self.trail.path.pop();
                }
                let mut values = Vec::with_capacity(fields.len());
                for (def, value) in record.fields.iter().zip(fields) {
                    match value {
                        Some(value) => values.push(value),
                        None => {
                            return Err(self.trail.fail(
                                ErrorKind::Schema,
                                format!("missing field `{}` of {}", def.name, record.name),
                            ))
                        }
                    }
                }
                self.trail.depth.leave();
                Ok(Value::Record(values))
            }
            // The fixtures' form: `{"value": "<Java text>", "bits": "0x…"}`, bits first.
            FieldType::Float | FieldType::Double => {
                let double = matches!(self.ty, FieldType::Double);
                let (mut text, mut bits) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "value" => text = Some(map.next_value::<String>()?),
                        "bits" => bits = Some(map.next_value::<String>()?),
                        _ => {
                            // Failing before the value is read: nothing of it is parsed.
                            return Err(self.trail.fail(
                                ErrorKind::Schema,
                                format!(
                                    "a float is a number or {{\"value\", \"bits\"}}, not {}",
                                    excerpt(&key)
                                ),
                            ));
                        }
                    }
                }
                let digits = if double { 16 } else { 8 };
                if let Some(bits) = bits {
                    let parsed = bits
                        .strip_prefix("0x")
                        .filter(|s| s.len() == digits)
                        .and_then(|s| u64::from_str_radix(s, 16).ok());
                    return match parsed {
                        Some(b) if double => Ok(Value::Double(f64::from_bits(b))),
                        Some(b) => Ok(Value::Float(f32::from_bits(b as u32))),
                        None => Err(self.trail.fail(
                            ErrorKind::Syntax,
                            format!("`bits` must be 0x and {digits} hex digits"),
                        )),
                    };
                }
                match text {
                    Some(text) => self.visit_str(&text),
                    None => Err(self.mismatch(de::Unexpected::Map)),
                }
            }
            // `{"key": value, …}`: a map whose keys are strings, the way people write one.
            FieldType::Map(key, value) if **key == FieldType::String => {
                self.trail.enter()?;
                let entries = self.object_entries(&mut map, value)?;
                self.trail.depth.leave();
                Ok(Value::Map(entries))
            }
            FieldType::Map(..) => {
                let ty = self.schema.name_of(self.ty);
                Err(self.trail.fail(
                    ErrorKind::Schema,
                    format!(
                        "invalid type: map, expected {ty} as an array of [key, value] pairs \
                         (an object is a map only when its keys are ustring)"
                    ),
                ))
            }
            _ => Err(self.mismatch(de::Unexpected::Map)),
        }
    }
}

impl<'s> ValueSeed<'s, '_> {
    /// The entries of a `map<ustring, V>` written as a JSON object, in Java's `TreeMap`
    /// order (strings by UTF-16 code units, as Hadoop writes them) whatever their order in
    /// the text. A key given twice is an error at that key: JSON leaves the meaning of a
    /// duplicate open, and guessing would lose a value silently.
    fn object_entries<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        value: &'s FieldType,
    ) -> Result<Vec<(Value, Value)>, A::Error> {
        let mut entries: Vec<(Value, Value)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                let ty = self.schema.name_of(self.ty);
                return Err(self.trail.fail(
                    ErrorKind::Schema,
                    format!("duplicate key {} in a {ty}", excerpt(&key)),
                ));
            }
            self.trail.path.push(Step::Index(entries.len() as u64));
            let item = map.next_value_seed(self.child(value))?;
            self.trail.path.pop();
            entries.push((Value::String(key), item));
        }
        sort_by_java(&mut entries, |a, b| key_cmp(&a.0, &b.0));
        Ok(entries)
    }
}

/// A map entry: a `[key, value]` array.
struct EntrySeed<'s, 't> {
    schema: &'s Schema,
    key: &'s FieldType,
    value: &'s FieldType,
    trail: &'t mut Trail<'s>,
}

seed_visits_itself!(EntrySeed<'_, '_>, (Value, Value), deserialize_any);

impl<'de> Visitor<'de> for EntrySeed<'_, '_> {
    type Value = (Value, Value);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map entry, a [key, value] array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(Value, Value), A::Error> {
        let key = seq.next_element_seed(ValueSeed {
            schema: self.schema,
            ty: self.key,
            trail: &mut *self.trail,
        })?;
        let value = match key {
            Some(_) => seq.next_element_seed(ValueSeed {
                schema: self.schema,
                ty: self.value,
                trail: &mut *self.trail,
            })?,
            None => None,
        };
        match (key, value, seq.next_element::<Scalar>()?) {
            (Some(key), Some(value), None) => Ok((key, value)),
            _ => Err(self.trail.fail(
                ErrorKind::Schema,
                "a map entry must be a [key, value] array",
            )),
        }
    }
}

/// Whatever follows a map entry's value: a scalar is read (to be refused by the caller), an
/// array or object refused unread. Unlike `IgnoredAny` it never recurses, so JSON nested
/// without end cannot exhaust the stack; every nesting the reader does is counted against
/// the limit.
struct Scalar;

impl<'de> de::Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(Scalar)
    }
}

impl<'de> Visitor<'de> for Scalar {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the end of a [key, value] map entry")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Scalar, E> {
        Ok(Scalar)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Scalar, E> {
        Ok(Scalar)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Scalar, E> {
        Ok(Scalar)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Scalar, E> {
        Ok(Scalar)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Scalar, E> {
        Ok(Scalar)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
        Ok(Scalar)
    }
}

/// A record's field name: its index among the record's fields.
struct FieldSeed<'s, 't> {
    record: &'s str,
    names: &'s [crate::schema::FieldDef],
    trail: &'t mut Trail<'s>,
}

seed_visits_itself!(FieldSeed<'_, '_>, usize, deserialize_str);

impl<'de> Visitor<'de> for FieldSeed<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a field of {}", self.record)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        match self.names.iter().position(|f| f.name == v) {
            Some(i) => Ok(i),
            None => Err(self.trail.fail(
                ErrorKind::Schema,
                format!("{} has no field {}", self.record, excerpt(v)),
            )),
        }
    }
}

/// A float or double from text: `NaN`, `Infinity`, `-Infinity` or a decimal number (parsed
/// straight to the type, so correctly rounded).
fn float_text<F: std::str::FromStr>(text: &str) -> Option<F> {
    match text {
        "NaN" | "Infinity" | "-Infinity" => text.replace("Infinity", "inf").parse().ok(),
        _ if text
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) =>
        {
            text.parse().ok()
        }
        _ => None,
    }
}

/// The float a JSON number stands for, given the double serde_json read it as.
///
/// The number's text is gone by now, and narrowing the double is not always right: the
/// text was rounded once to the double and would be rounded again to the float, which
/// for one float lands on a neighbour (`7.038531E-26`, Java's own JDK-4396272). So a
/// float whose Java text reads as exactly this double wins: the nearest, else one of its
/// two neighbours. For the text [`to_json`](super::to_json) writes this gives back every
/// finite float (checked once for all positive bit patterns, negatives being symmetric:
/// plain narrowing gets exactly one of them wrong); for other text it is the nearest
/// float, or at worst its neighbour.
fn narrow(x: f64) -> f32 {
    let nearest = x as f32;
    let reads_as_x = |f: f32| {
        let mut text = Vec::with_capacity(16);
        push_float(&mut text, f);
        // Java text is ASCII, and Rust's parser rounds correctly, like serde_json's
        // `float_roundtrip`.
        std::str::from_utf8(&text)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            == Some(x)
    };
    if !nearest.is_finite() || reads_as_x(nearest) {
        return nearest;
    }
    [nearest.next_up(), nearest.next_down()]
        .into_iter()
        .find(|&f| f.is_finite() && reads_as_x(f))
        .unwrap_or(nearest)
}

/// A buffer's lowercase (or uppercase) hex digits.
fn hex(text: &str) -> Result<Value, String> {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err("a buffer needs an even number of hex digits".into());
    }
    bytes
        .chunks(2)
        .map(|pair| match (digit(pair[0]), digit(pair[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => Err(format!("{} is not hex", excerpt(text))),
        })
        .collect::<Result<_, _>>()
        .map(Value::Buffer)
}
