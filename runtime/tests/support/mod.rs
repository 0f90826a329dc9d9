//! Helpers shared by the runtime's integration tests, included with `mod support;`.
//! Each test binary uses only part of them, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod alloc;
pub mod frames;
pub mod gozip_inputs;
pub mod truncation;
pub mod values;
