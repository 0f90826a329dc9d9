//! What the hand-rolled benchmarks (`harness = false`, not criterion) share: whether this
//! run measures, and their settings from the environment.

use std::str::FromStr;

/// Whether this run measures: `cargo bench` passes `--bench`; `cargo test --benches` runs
/// the same binary without it, and then it should only have been built.
pub fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The setting `name` from the environment, `default` when it is unset or does not parse.
pub fn env_or<T: FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
