//! `map<K, V>` as `BTreeMap`/`HashMap`, always written in Java's `TreeMap` key order.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use super::{raw_sequence, Field};
use crate::archive::binary::RawInput;
use crate::archive::{RecordInput, RecordOutput};
use crate::error::Result;
use crate::schema::{FieldType, SchemaBuilder};

/// A map key ordered as Java's `TreeMap` orders it ([`Field::key_cmp`]), for key types that
/// have no (or a different) Rust `Ord`: `BTreeMap<MapKey<f64>, String>` holds a DDL
/// `map<double, ustring>`.
///
/// ```
/// use std::collections::BTreeMap;
/// use hadoop_record::field::MapKey;
/// let mut m = BTreeMap::new();
/// m.insert(MapKey(0.5f64), "half");
/// m.insert(MapKey(-0.0f64), "minus zero");
/// assert_eq!(m.keys().next(), Some(&MapKey(-0.0)));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct MapKey<T>(pub T);

impl<T: Field> PartialEq for MapKey<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.key_cmp(&other.0).is_eq()
    }
}

impl<T: Field> Eq for MapKey<T> {}

impl<T: Field> PartialOrd for MapKey<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Field> Ord for MapKey<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.key_cmp(&other.0)
    }
}

impl<T: Field> Field for MapKey<T> {
    #[inline]
    fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
        self.0.write(out, tag)
    }
    #[inline]
    fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
        T::read(input, tag).map(MapKey)
    }
    fn field_type(schema: &mut SchemaBuilder) -> FieldType {
        T::field_type(schema)
    }
    fn cmp_hadoop(&self, other: &Self) -> Ordering {
        self.0.cmp_hadoop(&other.0)
    }
    fn key_cmp(&self, other: &Self) -> Ordering {
        self.0.key_cmp(&other.0)
    }
    // `==` on a `MapKey` is the key order, which calls NaN equal to NaN: so does this.
    fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
        self.0
            .partial_cmp_hadoop(&other.0)
            .or_else(|| self.key_cmp(other).is_eq().then_some(Ordering::Equal))
    }
    fn partial_cmp_ties(&self, other: &Self) -> Option<Ordering> {
        Some(self.key_cmp(other))
    }
    fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
        T::cmp_raw(a, b)
    }
    fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
        T::skip_raw(input)
    }
}

/// Entries in Java's key order: the map's own iteration order when that already agrees
/// (checked in one pass, no allocation), otherwise sorted references.
fn java_ordered<'a, K: Field + 'a, V: 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)> + Clone,
) -> impl Iterator<Item = (&'a K, &'a V)> {
    let mut previous: Option<&K> = None;
    let in_order = entries.clone().all(|(k, _)| {
        let ok = previous.is_none_or(|p| p.key_cmp(k).is_lt());
        previous = Some(k);
        ok
    });
    let sorted = (!in_order).then(|| {
        let mut v: Vec<_> = entries.clone().collect();
        crate::compare::sort_by_java(&mut v, |a, b| a.0.key_cmp(b.0));
        v.into_iter()
    });
    let direct = in_order.then_some(entries);
    direct
        .into_iter()
        .flatten()
        .chain(sorted.into_iter().flatten())
}

fn write_map<'a, K: Field + 'a, V: Field + 'a, O: RecordOutput + ?Sized>(
    len: usize,
    entries: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    out: &mut O,
    tag: &str,
) -> Result<()> {
    out.start_map(len, tag)?;
    for (i, (k, v)) in java_ordered(entries).enumerate() {
        k.write(out, tag)
            .and_then(|()| v.write(out, tag))
            .map_err(|e| e.in_index(i as u64))?;
    }
    out.end_map(tag)
}

fn read_map<K: Field, V: Field, I: RecordInput + ?Sized>(
    input: &mut I,
    tag: &str,
    mut insert: impl FnMut(K, V),
) -> Result<()> {
    let mut index = input.start_map(tag)?;
    let mut i = 0u64;
    while input.next_element(&mut index)? {
        let k = K::read(input, tag).map_err(|e| e.in_index(i))?;
        let v = V::read(input, tag).map_err(|e| e.in_index(i))?;
        // Java's TreeMap.put: a repeated key replaces the earlier value.
        insert(k, v);
        i += 1;
    }
    input.end_map(tag)
}

/// Hadoop's map `compareTo`: the keys only, both in ascending order, then the sizes.
fn compare_maps<'a, K: Field + 'a, V: 'a>(
    a: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    b: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    len_a: usize,
    len_b: usize,
) -> Ordering {
    java_ordered(a)
        .zip(java_ordered(b))
        .map(|((x, _), (y, _))| x.cmp_hadoop(y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| len_a.cmp(&len_b))
}

/// [`compare_maps`] where it is an order (see [`Field::partial_cmp_hadoop`]). Two keys that
/// Hadoop cannot order but that are the same `TreeMap` key (NaN and NaN) count as equal, so
/// that maps that are `==` compare equal.
fn partial_compare_maps<'a, K: Field + 'a, V: 'a>(
    a: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    b: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    len_a: usize,
    len_b: usize,
) -> Option<Ordering> {
    java_ordered(a)
        .zip(java_ordered(b))
        .map(|((x, _), (y, _))| {
            x.partial_cmp_hadoop(y)
                .or_else(|| x.key_cmp(y).is_eq().then_some(Ordering::Equal))
        })
        .find(|o| *o != Some(Ordering::Equal))
        .unwrap_or_else(|| Some(len_a.cmp(&len_b)))
}

/// Orders maps that [`partial_compare_maps`] calls equal: entry by entry, the keys as
/// `TreeMap` keys (`-0.0` before `0.0`), then the values in full
/// ([`crate::compare::partial_cmp`]).
fn compare_map_ties<'a, K: Field + 'a, V: Field + 'a>(
    a: impl Iterator<Item = (&'a K, &'a V)> + Clone,
    b: impl Iterator<Item = (&'a K, &'a V)> + Clone,
) -> Option<Ordering> {
    java_ordered(a)
        .zip(java_ordered(b))
        .map(|((kx, vx), (ky, vy))| match kx.key_cmp(ky) {
            Ordering::Equal => crate::compare::partial_cmp(vx, vy),
            o => Some(o),
        })
        .find(|o| *o != Some(Ordering::Equal))
        .unwrap_or(Some(Ordering::Equal))
}

/// Raw maps compare entry by entry by their keys alone; the values of equal keys are skipped.
fn compare_raw_maps<K: Field, V: Field>(
    a: &mut RawInput<'_>,
    b: &mut RawInput<'_>,
) -> Result<Ordering> {
    raw_sequence::compare(a, b, |a, b| {
        let o = K::cmp_raw(a, b)?;
        if o.is_eq() {
            V::skip_raw(a)?;
            V::skip_raw(b)?;
        }
        Ok(o)
    })
}

fn skip_raw_map<K: Field, V: Field>(input: &mut RawInput<'_>) -> Result<()> {
    raw_sequence::skip(input, |input| {
        K::skip_raw(input).and_then(|()| V::skip_raw(input))
    })
}

/// `impl Field` for a map type, `$new` making an empty one to read into.
macro_rules! map_field {
    ([$($generics:tt)*] $ty:ty, $new:expr) => {
        impl<$($generics)*> Field for $ty {
            fn write<O: RecordOutput + ?Sized>(&self, out: &mut O, tag: &str) -> Result<()> {
                write_map(self.len(), self.iter(), out, tag)
            }
            fn read<I: RecordInput + ?Sized>(input: &mut I, tag: &str) -> Result<Self> {
                let mut map = $new;
                read_map(input, tag, |k, v| {
                    map.insert(k, v);
                })?;
                Ok(map)
            }
            fn field_type(schema: &mut SchemaBuilder) -> FieldType {
                FieldType::Map(
                    Box::new(K::field_type(schema)),
                    Box::new(V::field_type(schema)),
                )
            }
            fn cmp_hadoop(&self, other: &Self) -> Ordering {
                compare_maps(self.iter(), other.iter(), self.len(), other.len())
            }
            fn partial_cmp_hadoop(&self, other: &Self) -> Option<Ordering> {
                partial_compare_maps(self.iter(), other.iter(), self.len(), other.len())
            }
            fn partial_cmp_ties(&self, other: &Self) -> Option<Ordering> {
                compare_map_ties(self.iter(), other.iter())
            }
            fn cmp_raw(a: &mut RawInput<'_>, b: &mut RawInput<'_>) -> Result<Ordering> {
                compare_raw_maps::<K, V>(a, b)
            }
            fn skip_raw(input: &mut RawInput<'_>) -> Result<()> {
                skip_raw_map::<K, V>(input)
            }
        }
    };
}

map_field!([K: Field + Ord, V: Field] BTreeMap<K, V>, BTreeMap::new());
map_field!(
    [K: Field + Eq + Hash, V: Field, S: BuildHasher + Default] HashMap<K, V, S>,
    HashMap::with_hasher(S::default())
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_keys_follow_utf16_order() {
        let mut m = BTreeMap::new();
        m.insert("\u{FF5E}".to_string(), 1);
        m.insert("\u{1F600}".to_string(), 2);
        m.insert("a".to_string(), 3);
        let keys: Vec<_> = java_ordered(m.iter()).map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "\u{1F600}", "\u{FF5E}"]);
    }

    #[test]
    fn map_compare_ignores_values() {
        let a = BTreeMap::from([(1, "x".to_string())]);
        let b = BTreeMap::from([(1, "y".to_string())]);
        assert_eq!(a.cmp_hadoop(&b), Ordering::Equal);
        let c = BTreeMap::from([(1, "x".to_string()), (2, "x".to_string())]);
        assert_eq!(a.cmp_hadoop(&c), Ordering::Less);
        let h: HashMap<i32, String> = HashMap::from([(2, String::new()), (1, String::new())]);
        assert_eq!(
            h.cmp_hadoop(&HashMap::from([(1, String::new())])),
            Ordering::Greater
        );
    }
}
