//! The independent Python readers (pyarrow and DuckDB, pinned) that check the Parquet files
//! `rcc` writes: installed once into a virtual environment under the target directory.
//!
//! They need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Set (not to `0`) to skip the checks that need the peers.
pub const SKIP_VAR: &str = fixture_harness::SKIP_PEERS_VAR;

/// The cargo target directory, from the `rcc` binary's path (`<target>/<profile>/rcc`).
pub fn target_dir() -> PathBuf {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_rcc"));
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// The Python with the pinned peers, installed once into `<target>/python-peers`; `None`
/// when the peers are skipped. Test binaries run one after another, and the `OnceLock`
/// makes the tests of one binary wait for one installation.
pub fn python() -> Option<&'static Path> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            if std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0") {
                eprintln!("SKIPPED the pyarrow and DuckDB checks: {SKIP_VAR} is set");
                return None;
            }
            Some(fixture_harness::peers_python(&target_dir()))
        })
        .as_deref()
}
