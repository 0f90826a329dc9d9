//! Java float/double text: any bytes either fail to parse (with an error, never a panic) or
//! parse to a value whose Java text reads back to the same bits.
#![no_main]

use hadoop_record::archive::text::{
    double_to_string, float_to_string, parse_double, parse_float, push_double, MAX_LEN,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = parse_double(data) {
        let text = double_to_string(v);
        assert!(text.len() <= MAX_LEN);
        let back = parse_double(text.as_bytes()).expect("Double.toString text parses");
        assert!(
            back.to_bits() == v.to_bits() || (v.is_nan() && back.is_nan()),
            "{v:e} -> {text} -> {back:e}"
        );
    }
    if let Ok(f) = parse_float(data) {
        let text = float_to_string(f);
        let back = parse_float(text.as_bytes()).expect("Float.toString text parses");
        assert!(
            back.to_bits() == f.to_bits() || (f.is_nan() && back.is_nan()),
            "{f:e} -> {text} -> {back:e}"
        );
        // The CSV path: a float widened, printed as a double, read as a double, cast back.
        let mut widened = Vec::new();
        push_double(&mut widened, f64::from(f));
        let back = parse_double(&widened).expect("widened text parses") as f32;
        assert!(back.to_bits() == f.to_bits() || (f.is_nan() && back.is_nan()));
    }
});
