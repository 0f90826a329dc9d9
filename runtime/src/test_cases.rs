//! Table-driven unit tests: one check run over many inputs, the failing input named once
//! here rather than in every assert of every check.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// Runs `check` on each input in turn. When it panics, prints which input failed (escaped,
/// as a byte-string literal: `b"SEQ\x06"`), then lets the panic go on: the asserts inside
/// `check` need not name the input themselves.
pub(crate) fn check_each_input(inputs: &[&[u8]], mut check: impl FnMut(&[u8])) {
    for &input in inputs {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(input))) {
            eprintln!("failing input: b\"{}\"", input.escape_ascii());
            resume_unwind(panic);
        }
    }
}
