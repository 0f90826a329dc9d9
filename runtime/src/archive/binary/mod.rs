//! Hadoop's binary encoding (`BinaryRecordOutput` / `BinaryRecordInput`).

mod cursor;
pub mod vint;

pub use cursor::RawInput;
