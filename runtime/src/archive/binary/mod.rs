//! Hadoop's binary encoding (`BinaryRecordOutput` / `BinaryRecordInput`).

mod cursor;
mod input;
mod output;
pub mod vint;

pub use cursor::RawInput;
pub use input::BinaryInput;
pub use output::BinaryOutput;
