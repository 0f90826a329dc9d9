//! The DDL toolchain's commands: `rcc fmt` and `rcc describe`.

mod describe;
mod fmt;
