//! Hadoop's CSV encoding (`CsvRecordOutput` / `CsvRecordInput`).

mod input;
mod output;

pub use input::CsvInput;
pub use output::CsvOutput;
