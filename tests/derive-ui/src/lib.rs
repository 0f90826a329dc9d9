//! The compile errors of `#[derive(Record)]`: see `tests/ui.rs`.
