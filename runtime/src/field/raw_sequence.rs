//! Vectors and maps in Hadoop's binary encoding, compared and skipped without decoding: a
//! length, then the elements (a map's entries, key then value).

use std::cmp::Ordering;

use crate::archive::binary::RawInput;
use crate::error::Result;

/// Compares two encoded sequences: `element` on each pair of elements in turn (it reads one
/// element from each input, whole when they compare equal) until a pair differs, then the
/// shorter first. Each sequence counts towards its input's nesting limit; an error names the
/// element's index.
pub(super) fn compare(
    a: &mut RawInput<'_>,
    b: &mut RawInput<'_>,
    mut element: impl FnMut(&mut RawInput<'_>, &mut RawInput<'_>) -> Result<Ordering>,
) -> Result<Ordering> {
    a.enter()?;
    b.enter()?;
    let na = a.read_len()?;
    let nb = b.read_len()?;
    let o = 'compare: {
        for i in 0..na.min(nb) {
            let o = element(a, b).map_err(|e| e.in_index(i as u64))?;
            if o.is_ne() {
                break 'compare o;
            }
        }
        na.cmp(&nb)
    };
    a.leave();
    b.leave();
    Ok(o)
}

/// Reads past an encoded sequence, `element` reading past each element. It counts towards
/// the input's nesting limit; an error names the element's index.
pub(super) fn skip(
    input: &mut RawInput<'_>,
    mut element: impl FnMut(&mut RawInput<'_>) -> Result<()>,
) -> Result<()> {
    input.enter()?;
    let n = input.read_len()?;
    for i in 0..n {
        element(input).map_err(|e| e.in_index(i as u64))?;
    }
    input.leave();
    Ok(())
}
