//! Checks a block's bytes against the writer's schema before arrow-avro decodes them: the
//! block holds exactly its records (no byte short or over), every length and count is backed
//! by the bytes that follow, strings are UTF-8, union and enum indexes are in range. Finds
//! where each record ends, and says precisely where a record is damaged (record, byte, field).
//!
//! A count of values of zero width (`null`, a record without fields) is backed by no bytes
//! at all; a block may hold [`FREE_VALUES`] of them beyond its length in bytes.

use crate::schema::{NamedKind, Schema, Type};

/// How many zero-width values a block may hold beyond its length in bytes.
pub(crate) const FREE_VALUES: usize = 1 << 16;

/// Where each of the block's `count` records ends in `data`; an error naming the record,
/// the byte offset in the block's (decompressed) data and the field path otherwise.
pub(crate) fn record_ends(schema: &Schema, data: &[u8], count: u64) -> Result<Vec<usize>, String> {
    let mut walk = Walk {
        schema,
        data,
        pos: 0,
        budget: data.len().saturating_add(FREE_VALUES),
        path: Vec::new(),
    };
    walk.values(count, schema.width(&schema.root), "records")
        .map_err(|m| format!("the block's record count {count}: {m}"))?;
    let mut ends = Vec::with_capacity(count as usize);
    for record in 0..count {
        let start = walk.pos;
        walk.value(&schema.root).map_err(|m| {
            let within = if walk.path.is_empty() {
                String::new()
            } else {
                let path: String = walk.path.iter().map(Step::to_string).collect();
                format!(", field {path}")
            };
            format!(
                "record {record} of the block (starting at byte {start} of its data){within}, \
                 byte {}: {m}",
                walk.pos
            )
        })?;
        ends.push(walk.pos);
    }
    if walk.pos != data.len() {
        return Err(format!(
            "the block's {count} records end at byte {} of its {} bytes of data (its record \
             count or data is damaged)",
            walk.pos,
            data.len()
        ));
    }
    Ok(ends)
}

struct Walk<'a> {
    schema: &'a Schema,
    data: &'a [u8],
    pos: usize,
    /// Values the block may still hold beyond the bytes that back them.
    budget: usize,
    /// The field path of the value being read, for messages (`.tags`, `[3]`): kept as steps
    /// and spelled only for an error, as formatting it for every field of every record cost
    /// more than the check itself.
    path: Vec<Step<'a>>,
}

/// One step of a field path.
enum Step<'a> {
    Field(&'a str),
    Item(u64),
    Entry(u64),
}

impl std::fmt::Display for Step<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Field(name) => write!(f, ".{name}"),
            Step::Item(i) => write!(f, "[{i}]"),
            Step::Entry(i) => write!(f, "[entry {i}]"),
        }
    }
}

impl<'a> Walk<'a> {
    fn left(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Checks that `count` values of least width `width` can follow.
    fn values(&mut self, count: u64, width: usize, what: &str) -> Result<(), String> {
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        if width == 0 {
            if count > self.budget {
                return Err(format!(
                    "{count} {what} of zero width, more than a block may hold"
                ));
            }
            self.budget -= count;
        } else if count.saturating_mul(width) > self.left() {
            return Err(format!(
                "{count} {what} of at least {width} bytes each, but {} bytes follow",
                self.left()
            ));
        }
        Ok(())
    }

    fn long(&mut self) -> Result<i64, String> {
        let mut n: u64 = 0;
        for i in 0..10 {
            let Some(&b) = self.data.get(self.pos) else {
                return Err("the data ends inside a number".into());
            };
            self.pos += 1;
            if i == 9 && b > 1 {
                break;
            }
            n |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok((n >> 1) as i64 ^ -((n & 1) as i64));
            }
        }
        Err("a long of more than 64 bits".into())
    }

    fn int(&mut self) -> Result<i32, String> {
        let v = self.long()?;
        i32::try_from(v).map_err(|_| format!("an int out of range ({v})"))
    }

    fn skip(&mut self, n: usize, what: &str) -> Result<&[u8], String> {
        if n > self.left() {
            return Err(format!(
                "{what} of {n} bytes, but {} bytes follow",
                self.left()
            ));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    fn length(&mut self, what: &str) -> Result<usize, String> {
        let len = self.long()?;
        usize::try_from(len).map_err(|_| format!("{what} of negative length {len}"))
    }

    fn string(&mut self) -> Result<(), String> {
        let len = self.length("a string")?;
        let bytes = self.skip(len, "a string")?;
        std::str::from_utf8(bytes).map_err(|e| format!("a string that is not UTF-8 ({e})"))?;
        Ok(())
    }

    fn value(&mut self, ty: &'a Type) -> Result<(), String> {
        match ty {
            Type::Null => Ok(()),
            Type::Boolean => match self.skip(1, "a boolean")?[0] {
                0 | 1 => Ok(()),
                b => Err(format!("a boolean byte {b}, not 0 or 1")),
            },
            Type::Int => self.int().map(drop),
            Type::Long => self.long().map(drop),
            Type::Float => self.skip(4, "a float").map(drop),
            Type::Double => self.skip(8, "a double").map(drop),
            Type::Bytes => {
                let len = self.length("bytes")?;
                self.skip(len, "bytes").map(drop)
            }
            Type::String => self.string(),
            Type::Array { items, .. } => {
                let width = self.schema.width(items);
                self.blocks(width, |walk, i| {
                    walk.path.push(Step::Item(i));
                    walk.value(items)?;
                    walk.path.pop();
                    Ok(())
                })
            }
            Type::Map(values) => {
                let width = 1 + self.schema.width(values);
                self.blocks(width, |walk, i| {
                    walk.string()?;
                    walk.path.push(Step::Entry(i));
                    walk.value(values)?;
                    walk.path.pop();
                    Ok(())
                })
            }
            Type::Union(branches) => {
                let at = self.pos;
                let branch = self.long()?;
                let Some(ty) = usize::try_from(branch).ok().and_then(|b| branches.get(b)) else {
                    self.pos = at;
                    return Err(format!(
                        "union branch {branch} of a union of {}",
                        branches.len()
                    ));
                };
                self.value(ty)
            }
            Type::Named(i) => match &self.schema.named[*i].kind {
                NamedKind::Record(fields) => {
                    for field in fields {
                        self.path.push(Step::Field(&field.name));
                        self.value(&field.ty)?;
                        self.path.pop();
                    }
                    Ok(())
                }
                NamedKind::Enum(symbols) => {
                    let at = self.pos;
                    let index = self.int()?;
                    if usize::try_from(index).map_or(true, |i| i >= symbols.len()) {
                        self.pos = at;
                        return Err(format!("enum symbol {index} of {}", symbols.len()));
                    }
                    Ok(())
                }
                NamedKind::Fixed(size) => self.skip(*size, "a fixed").map(drop),
            },
        }
    }

    /// The blocks of an array or map: counts (a negative one followed by the block's byte
    /// length) until a zero, each item read by `item` (with its index).
    fn blocks(
        &mut self,
        width: usize,
        mut item: impl FnMut(&mut Self, u64) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut index = 0u64;
        loop {
            let count = self.long()?;
            if count == 0 {
                return Ok(());
            }
            let sized = if count < 0 {
                let size = self.length("an array or map block")?;
                if size > self.left() {
                    return Err(format!(
                        "an array or map block of {size} bytes, but {} bytes follow",
                        self.left()
                    ));
                }
                Some((self.pos, size))
            } else {
                None
            };
            let count = count.unsigned_abs();
            self.values(count, width, "array or map items")?;
            for _ in 0..count {
                item(self, index)?;
                index += 1;
            }
            if let Some((start, size)) = sized {
                if self.pos - start != size {
                    return Err(format!(
                        "an array or map block states {size} bytes but its items take {}",
                        self.pos - start
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Schema {
        Schema::parse(
            r#"{"type": "record", "name": "R", "fields": [
                {"name": "s", "type": "string"},
                {"name": "v", "type": {"type": "array", "items": "long"}},
                {"name": "e", "type": {"type": "array",
                    "items": {"type": "record", "name": "E", "fields": []}}}
            ]}"#,
        )
        .unwrap()
    }

    #[test]
    fn records_end_where_their_bytes_do() {
        // "ab", [1, 2] (a block of 2 items in 2 bytes), []; then "", [], [E, E]
        let data = [4, b'a', b'b', 3, 4, 2, 4, 0, 0, 0, 0, 4, 0];
        assert_eq!(record_ends(&schema(), &data, 2).unwrap(), vec![9, 13]);
        let e = record_ends(&schema(), &data, 1).unwrap_err();
        assert!(e.contains("end at byte 9 of its 13"), "{e}");
        let mut short = data;
        short[4] = 2;
        let e = record_ends(&schema(), &short, 2).unwrap_err();
        assert!(e.contains("states 1 bytes but its items take 2"), "{e}");
        let e = record_ends(&schema(), &data[..12], 2).unwrap_err();
        assert!(e.contains("record 1") && e.contains("field .e"), "{e}");
    }

    #[test]
    fn counts_the_bytes_cannot_back_are_refused() {
        let mut data = vec![0, 0xfe, 0xff, 0xff, 0xff, 0x0f];
        let e = record_ends(&schema(), &data, 1).unwrap_err();
        assert!(e.contains("of at least 1 bytes each"), "{e}");
        // 2^31 empty records in an array.
        data = vec![0, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 0];
        let e = record_ends(&schema(), &data, 1).unwrap_err();
        assert!(e.contains("of zero width"), "{e}");
        let e = record_ends(&schema(), &[], u64::MAX).unwrap_err();
        assert!(e.contains("record count"), "{e}");
        let e = record_ends(&schema(), &[2, 0xff, 0, 0], 1).unwrap_err();
        assert!(e.contains("not UTF-8") && e.contains("field .s"), "{e}");
    }
}
