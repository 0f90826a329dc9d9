//! Java's canonical bits of floating-point values, as `DataOutput.writeFloat`/`writeDouble`
//! write them, `Float.compare`/`Double.compare` order them and `hashCode` hashes them.

/// The one NaN of `Float.floatToIntBits`.
const FLOAT_NAN: u32 = 0x7fc0_0000;
/// The one NaN of `Double.doubleToLongBits`.
const DOUBLE_NAN: u64 = 0x7ff8_0000_0000_0000;

/// `Float.floatToIntBits`: every NaN is `0x7fc00000`.
#[inline]
pub(crate) fn float_to_int_bits(f: f32) -> u32 {
    if f.is_nan() {
        FLOAT_NAN
    } else {
        f.to_bits()
    }
}

/// `Double.doubleToLongBits`: every NaN is `0x7ff8000000000000`.
#[inline]
pub(crate) fn double_to_long_bits(d: f64) -> u64 {
    if d.is_nan() {
        DOUBLE_NAN
    } else {
        d.to_bits()
    }
}
