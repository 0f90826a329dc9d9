//! The fast path for binary payloads of flat records: every top-level field a number, a
//! boolean, a `ustring` or a `buffer` (decoded or skipped), which is the shape of most
//! event and metric records.
//!
//! The plan is one small `match` per field over a [`RawInput`] on the payload, with no
//! nesting depth, field tags, error paths or skipper calls, and strings copied straight
//! from the payload into their column. It only says whether the payload is exactly one
//! well-formed record; when it is not, the caller takes back what was appended and decodes
//! the payload again on the general path, which finds the same fault and says what and
//! where it is. So both paths accept the same bytes and give the same rows, and errors are
//! the general path's.

use hadoop_record::archive::binary::RawInput;
use hadoop_record::schema::FieldType;

use super::column::Column;
use super::{Step, TopField};

/// One top-level field of a flat record.
#[derive(Debug, Clone, Copy)]
pub(super) enum Flat {
    /// A number or boolean into its column (never [`Step::Column`] or [`Step::Skip`]).
    Read(Step),
    /// A `ustring` into the string column of that index.
    String(usize),
    /// A `buffer` into the binary column of that index.
    Buffer(usize),
    /// An `int` not asked for: still checked to fit 32 bits, as the skipper does.
    SkipInt,
    SkipLong,
    /// A `ustring` or `buffer` not asked for: its length checked, its bytes stepped over
    /// (as the skipper does).
    SkipBytesLen,
    /// Bytes of fixed-size fields not asked for (`byte`, `boolean`, `float`, `double`),
    /// neighbours merged.
    SkipBytes(usize),
}

/// The plan for `fields` read into `columns`, or `None` when a field is not a number, a
/// boolean, a `ustring` or a `buffer`, or is nullable (or there is no field: an empty
/// payload is an error, which the general path reports).
pub(super) fn plan(fields: &[TopField], columns: &[Column]) -> Option<Box<[Flat]>> {
    let mut plan: Vec<Flat> = Vec::with_capacity(fields.len());
    for f in fields {
        let step = match (f.step, &f.ty) {
            (Step::Column(c), _) if columns[c].is_nullable() => return None,
            (Step::Column(c), FieldType::String) => Flat::String(c),
            (Step::Column(c), FieldType::Buffer) => Flat::Buffer(c),
            (Step::Column(_), _) => return None,
            (Step::Skip, FieldType::Int) => Flat::SkipInt,
            (Step::Skip, FieldType::Long) => Flat::SkipLong,
            (Step::Skip, FieldType::Byte | FieldType::Bool) => Flat::SkipBytes(1),
            (Step::Skip, FieldType::Float) => Flat::SkipBytes(4),
            (Step::Skip, FieldType::Double) => Flat::SkipBytes(8),
            (Step::Skip, FieldType::String | FieldType::Buffer) => Flat::SkipBytesLen,
            (Step::Skip, _) => return None,
            (read, _) => Flat::Read(read),
        };
        match (plan.last_mut(), step) {
            (Some(Flat::SkipBytes(n)), Flat::SkipBytes(m)) => *n += m,
            _ => plan.push(step),
        }
    }
    (!plan.is_empty()).then(|| plan.into_boxed_slice())
}

/// Appends the one record of `payload` to `columns` by `plan`; returns the string and
/// buffer bytes it appended. `None` when the payload is not exactly one well-formed record
/// (or a column outgrew its 32-bit offsets); what was appended is then the caller's to take
/// back.
#[inline]
pub(super) fn decode(plan: &[Flat], columns: &mut [Column], payload: &[u8]) -> Option<usize> {
    let mut input = RawInput::new(payload);
    let mut bytes = 0;
    for step in plan {
        match *step {
            Flat::Read(Step::Byte(c)) => columns[c]
                .bytes_mut()
                .push(input.take_array::<1>().ok()?[0] as i8),
            Flat::Read(Step::Bool(c)) => columns[c]
                .bools_mut()
                .append(input.take_array::<1>().ok()?[0] != 0),
            Flat::Read(Step::Int(c)) => columns[c].ints_mut().push(input.read_vint().ok()?),
            Flat::Read(Step::Long(c)) => columns[c].longs_mut().push(input.read_vlong().ok()?),
            Flat::Read(Step::Float(c)) => columns[c]
                .floats_mut()
                .push(f32::from_be_bytes(input.take_array().ok()?)),
            Flat::Read(Step::Double(c)) => columns[c]
                .doubles_mut()
                .push(f64::from_be_bytes(input.take_array().ok()?)),
            Flat::Read(Step::Column(_) | Step::Skip) => return None,
            Flat::String(c) => {
                let s = input.read_str().ok()?;
                bytes += s.len();
                columns[c].strings_mut().push(s.as_bytes()).ok()?;
            }
            Flat::Buffer(c) => {
                let b = input.read_bytes().ok()?;
                bytes += b.len();
                columns[c].buffers_mut().push(b).ok()?;
            }
            Flat::SkipInt => {
                input.read_vint().ok()?;
            }
            Flat::SkipLong => {
                input.read_vlong().ok()?;
            }
            Flat::SkipBytesLen => {
                input.read_bytes().ok()?;
            }
            Flat::SkipBytes(n) => {
                input.take(n).ok()?;
            }
        }
    }
    input.remaining().is_empty().then_some(bytes)
}
