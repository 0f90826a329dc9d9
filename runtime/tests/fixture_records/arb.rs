//! Property-test strategies for the fixture records, apart from `fixture_records` because
//! the fuzz targets include that module and have no proptest.

use proptest::prelude::*;

use crate::fixture_records::AllPrims;

/// Any `AllPrims` for property tests: any numbers, `s` from `text`, `buf` from `buffers`.
pub fn arb_all_prims(
    text: impl Strategy<Value = String>,
    buffers: impl Strategy<Value = Vec<u8>>,
) -> impl Strategy<Value = AllPrims> {
    (
        any::<i8>(),
        any::<bool>(),
        any::<i32>(),
        any::<i64>(),
        any::<f32>(),
        any::<f64>(),
        text,
        buffers,
    )
        .prop_map(|(b, z, i, l, f, d, s, buf)| AllPrims {
            b,
            z,
            i,
            l,
            f,
            d,
            s,
            buf,
        })
}
