//! proptest strategies for schema-driven [`Value`]s, shared by the runtime's property tests
//! and the differential tests against the real implementations (`tests/interop`).
//!
//! ```
//! use fixture_harness::arb::{self, Arb};
//! use hadoop_record::schema::FieldType;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let ty = FieldType::Record(fixture_harness::record_id("oracle.composite.Outer"));
//! let strategy = arb::value(fixture_harness::schema(), &ty, Arb::java());
//! let mut runner = TestRunner::deterministic();
//! let value = strategy.new_tree(&mut runner).unwrap().current();
//! # let _ = value;
//! ```

use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::key_cmp;
use hadoop_record::Value;
use proptest::collection::vec;
use proptest::prelude::*;

/// What values to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arb {
    /// Strings may hold U+FFFE and U+FFFF, which Hadoop's binary writer refuses.
    pub nonchars: bool,
    /// Maps as Java holds them: distinct keys (by [`key_cmp`]) in `TreeMap` order.
    /// Otherwise entries come in any order and keys may repeat.
    pub java_maps: bool,
    /// Now and then a large vector, map, buffer or string (hundreds of elements, kilobytes).
    pub large: bool,
    /// Values from a handful per type, so that equal values and equal prefixes are common
    /// (for comparisons).
    pub narrow: bool,
    /// Now and then [`Value::Null`] for a string, buffer or vector (never a map key): the
    /// nulls of ZooKeeper's jute.
    pub nulls: bool,
}

impl Arb {
    /// Values Java can hold: maps in `TreeMap` form, no U+FFFE/U+FFFF, small containers.
    pub const fn java() -> Self {
        Arb {
            nonchars: false,
            java_maps: true,
            large: false,
            narrow: false,
            nulls: false,
        }
    }

    /// Any value the runtime accepts: maps in any order with repeated keys allowed.
    pub const fn any() -> Self {
        Arb {
            nonchars: true,
            java_maps: false,
            large: false,
            narrow: false,
            nulls: false,
        }
    }

    /// With or without jute's nulls.
    pub const fn nulls(self, nulls: bool) -> Self {
        Arb { nulls, ..self }
    }

    /// With or without U+FFFE/U+FFFF in strings.
    pub const fn nonchars(self, nonchars: bool) -> Self {
        Arb { nonchars, ..self }
    }

    /// With occasional large containers, buffers and strings.
    pub const fn large(self) -> Self {
        Arb {
            large: true,
            ..self
        }
    }

    /// From a handful of values per type.
    pub const fn narrow(self) -> Self {
        Arb {
            narrow: true,
            ..self
        }
    }
}

/// Characters every CSV and XML escape class is made of, and the UTF-16 corner cases.
const SPECIAL: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    '\u{1}',
    '\u{1f}',
    ',',
    '}',
    '{',
    '%',
    '\'',
    '#',
    '<',
    '>',
    '&',
    '"',
    '\\',
    'a',
    'é',
    '\u{7ff}',
    '\u{800}',
    '\u{FF5E}',
    '\u{FFFD}',
    '\u{E000}',
    '😀',
    '\u{10000}',
    '\u{10FFFF}',
];

/// Strings of any characters, biased to the CSV and XML escape classes, UTF-16 corner cases
/// and `]]>`; U+FFFE/U+FFFF only with `nonchars`.
pub fn text(nonchars: bool) -> BoxedStrategy<String> {
    text_of(nonchars, 0..12)
}

fn text_of(nonchars: bool, len: std::ops::Range<usize>) -> BoxedStrategy<String> {
    let piece = prop_oneof![
        4 => any::<char>().prop_map(String::from),
        4 => prop::sample::select(SPECIAL).prop_map(String::from),
        1 => Just("]]>".to_string()),
    ];
    vec(piece, len)
        .prop_map(move |pieces| {
            let s: String = pieces.concat();
            if nonchars {
                s
            } else {
                s.replace(['\u{FFFE}', '\u{FFFF}'], "?")
            }
        })
        .boxed()
}

/// Any `i64`, with every length of Hadoop's variable-length encoding equally likely, and
/// the boundaries between lengths (and ±2^53, where JSON numbers stop being exact).
pub fn long() -> BoxedStrategy<i64> {
    let edges: Vec<i64> = [
        0,
        127,
        128,
        255,
        256,
        65_535,
        65_536,
        1 << 24,
        1 << 31,
        1 << 53,
    ]
    .iter()
    .flat_map(|&e: &i64| [e, e - 1, e + 1, -e, -e - 1])
    .chain([
        -112,
        -113,
        i64::MAX,
        i64::MIN,
        i32::MAX.into(),
        i32::MIN.into(),
    ])
    .collect();
    prop_oneof![
        1 => prop::sample::select(edges),
        4 => (0u32..=8, any::<u64>(), any::<bool>()).prop_map(|(bytes, bits, negative)| {
            let v = if bytes == 0 { 0 } else { (bits >> (64 - 8 * bytes)) as i64 };
            if negative { !v } else { v }
        }),
    ]
    .boxed()
}

/// Any `i32`, every vint length as likely (see [`long`]).
pub fn int() -> BoxedStrategy<i32> {
    long().prop_map(|v| v as i32).boxed()
}

/// Any `f32`: every bit pattern (NaN payloads, subnormals, −0.0), the usual values, and
/// the edges of Java's float text (plain notation from 10^-3 to below 10^7).
pub fn float() -> BoxedStrategy<f32> {
    floating(
        any::<u32>().prop_map(f32::from_bits),
        vec![1.0e-45, 1.0e7, 9_999_999.0, 1.0e-3, 9.999e-4, f32::MAX],
        (-1000i32..1000, 0u32..12).prop_map(|(n, s)| n as f32 / (1u32 << s) as f32),
    )
}

/// Any `f64`, as [`float`].
pub fn double() -> BoxedStrategy<f64> {
    floating(
        any::<u64>().prop_map(f64::from_bits),
        vec![5e-324, 1.0e7, 9_999_999.999_999_998, 1.0e-3, 1.0e23, 2e23],
        (-1000i32..1000, 0u32..20).prop_map(|(n, s)| f64::from(n) / f64::from(1u32 << s)),
    )
}

/// The mix of [`float`] and [`double`]: any bit pattern, any value as proptest picks it, one
/// of the `edges`, or a short binary fraction (which Java prints in few digits).
fn floating<T: Arbitrary + Clone + 'static>(
    bits: impl Strategy<Value = T> + 'static,
    edges: Vec<T>,
    fractions: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![bits, any::<T>(), prop::sample::select(edges), fractions].boxed()
}

/// A value of type `ty` in `schema`.
pub fn value(schema: &'static Schema, ty: &FieldType, arb: Arb) -> BoxedStrategy<Value> {
    value_at(schema, ty, arb, 0)
}

fn value_at(schema: &'static Schema, ty: &FieldType, arb: Arb, depth: u32) -> BoxedStrategy<Value> {
    if arb.nulls
        && matches!(
            ty,
            FieldType::String | FieldType::Buffer | FieldType::Vector(_)
        )
    {
        let inner = non_null_at(schema, ty, arb, depth);
        return prop_oneof![1 => Just(Value::Null), 4 => inner].boxed();
    }
    non_null_at(schema, ty, arb, depth)
}

fn non_null_at(
    schema: &'static Schema,
    ty: &FieldType,
    arb: Arb,
    depth: u32,
) -> BoxedStrategy<Value> {
    if arb.narrow {
        if let Some(s) = narrow_primitive(ty) {
            return s;
        }
    }
    // Deep down, containers are empty: this also keeps recursive types (a record holding a
    // vector of itself) from building strategies without end.
    match ty {
        FieldType::Vector(_) if depth > 5 => return Just(Value::Vector(Vec::new())).boxed(),
        FieldType::Map(..) if depth > 5 => return Just(Value::Map(Vec::new())).boxed(),
        _ => {}
    }
    match ty {
        FieldType::Byte => any::<i8>().prop_map(Value::Byte).boxed(),
        FieldType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        FieldType::Int => int().prop_map(Value::Int).boxed(),
        FieldType::Long => long().prop_map(Value::Long).boxed(),
        FieldType::Float => float().prop_map(Value::Float).boxed(),
        FieldType::Double => double().prop_map(Value::Double).boxed(),
        FieldType::String if arb.large && depth <= 1 => prop_oneof![
            100 => text(arb.nonchars),
            1 => text_of(arb.nonchars, 200..2000),
        ]
        .prop_map(Value::String)
        .boxed(),
        FieldType::String => text(arb.nonchars).prop_map(Value::String).boxed(),
        FieldType::Buffer if arb.large && depth <= 1 => prop_oneof![
            100 => vec(any::<u8>(), 0..12),
            1 => vec(any::<u8>(), 1000..4096),
        ]
        .prop_map(Value::Buffer)
        .boxed(),
        FieldType::Buffer => vec(any::<u8>(), 0..12).prop_map(Value::Buffer).boxed(),
        FieldType::Vector(element) => sized(value_at(schema, element, arb, depth + 1), arb, depth)
            .prop_map(Value::Vector)
            .boxed(),
        FieldType::Map(k, v) => {
            // Java's TreeMap holds no null key.
            let entry = (
                value_at(schema, k, arb.nulls(false), depth + 1),
                value_at(schema, v, arb, depth + 1),
            );
            let java = arb.java_maps;
            sized(entry, arb, depth)
                .prop_map(move |mut entries| {
                    if java {
                        java_map(&mut entries);
                    }
                    Value::Map(entries)
                })
                .boxed()
        }
        FieldType::Record(id) => schema
            .record(*id)
            .expect("a record of the schema")
            .fields
            .iter()
            .map(|f| value_at(schema, &f.ty, arb, depth + 1))
            .collect::<Vec<_>>()
            .prop_map(Value::Record)
            .boxed(),
    }
}

/// Vectors of `element` as long as a vector or map at `depth` may be.
fn sized<S: Strategy + 'static>(element: S, arb: Arb, depth: u32) -> BoxedStrategy<Vec<S::Value>>
where
    S::Value: std::fmt::Debug,
{
    match depth {
        0..=1 if arb.large => {
            let element = element.boxed();
            prop_oneof![150 => vec(element.clone(), 0..4), 1 => vec(element, 100..300)].boxed()
        }
        0..=2 => vec(element, 0..4).boxed(),
        _ => vec(element, 0..2).boxed(),
    }
}

/// Puts `entries` into a Java `TreeMap`'s form: ascending by [`key_cmp`], and where keys are
/// equal, the first key with the last value (as `TreeMap.put` keeps them).
pub fn java_map(entries: &mut Vec<(Value, Value)>) {
    // Insertion, not `sort_by`: a record key holding NaN does not compare consistently
    // (Java's compareTo calls NaN greater both ways), which `sort_by` may panic on.
    let mut out: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
    for (k, v) in entries.drain(..) {
        if let Some(same) = out.iter_mut().find(|(k2, _)| key_cmp(&k, k2).is_eq()) {
            same.1 = v;
            continue;
        }
        let at = out
            .iter()
            .position(|(k2, _)| key_cmp(&k, k2).is_lt())
            .unwrap_or(out.len());
        out.insert(at, (k, v));
    }
    *entries = out;
}

fn narrow_primitive(ty: &FieldType) -> Option<BoxedStrategy<Value>> {
    Some(match ty {
        FieldType::Byte => (-2i8..=2).prop_map(Value::Byte).boxed(),
        FieldType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        FieldType::Int => (-2i32..=2).prop_map(Value::Int).boxed(),
        FieldType::Long => (-2i64..=2).prop_map(Value::Long).boxed(),
        FieldType::Float => prop::sample::select(vec![0.0f32, -0.0, 1.0, -1.0, f32::NAN])
            .prop_map(Value::Float)
            .boxed(),
        FieldType::Double => prop::sample::select(vec![0.0f64, -0.0, 1.0, -1.0, f64::NAN])
            .prop_map(Value::Double)
            .boxed(),
        FieldType::String => {
            prop::sample::select(vec!["", "a", "b", "ab", "\u{1F600}", "\u{FF5E}"])
                .prop_map(|s| Value::String(s.to_string()))
                .boxed()
        }
        FieldType::Buffer => {
            prop::sample::select(vec![&b""[..], b"\x00", b"\x01", b"\xff", b"\x00\x01"])
                .prop_map(|b| Value::Buffer(b.to_vec()))
                .boxed()
        }
        _ => return None,
    })
}

/// Knuth's MMIX linear congruential generator started at `seed`: the state after each
/// step. For tests that want many cheap, reproducible numbers outside a proptest runner.
pub fn lcg(seed: u64) -> impl Iterator<Item = u64> {
    std::iter::successors(Some(seed), |x| {
        Some(
            x.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    })
    .skip(1)
}
