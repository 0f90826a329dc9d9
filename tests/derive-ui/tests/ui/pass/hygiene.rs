//! Generated code refers to nothing by a bare name: these shadowing items change nothing,
//! and it raises no warning.
#![deny(warnings, missing_docs, unused_qualifications, unused_results)]
#![forbid(unsafe_code)]

use hadoop_record::Record;

#[allow(dead_code)]
struct Ok;
#[allow(dead_code)]
struct Err;
#[allow(dead_code)]
struct Vec;
#[allow(dead_code)]
struct Ordering;
#[allow(dead_code)]
type Result = ();
#[allow(dead_code)]
mod std {}
// A unit struct named like a binding would turn that binding into a pattern.
#[allow(dead_code, non_camel_case_types)]
struct e;
#[allow(dead_code, non_camel_case_types)]
struct out;
#[allow(dead_code)]
mod hadoop_record_shadow {}

/// A record whose field names are also names used inside the generated code.
#[derive(Record)]
pub struct Shadowing {
    /// -
    pub out: i32,
    /// -
    pub input: i32,
    /// -
    pub tag: String,
    /// -
    pub schema: bool,
    /// -
    pub other: i64,
    /// -
    pub e: f64,
}

fn main() {
    ::std::assert_eq!(Shadowing::signature().as_str(), "LShadowing(iiszld)");
}
