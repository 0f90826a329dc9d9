//! The pinned Python peers (pyarrow and DuckDB) that tests and benches compare with,
//! installed once into a virtual environment under the cargo target directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned independent readers.
pub const PYTHON_PEERS: &str = "pyarrow==26.0.1 duckdb==1.5.6";

/// Set (not to `0`) to skip the tests that need live peers.
pub const SKIP_PEERS_VAR: &str = "HADOOP_RECORD_SKIP_PEERS";

/// The Python of `<target>/python-peers` with [`PYTHON_PEERS`], made and installed on the
/// first call (`python3 -m venv`, then pip from PyPI); later calls find it through its
/// marker file. Panics with the fix when Python, venv or PyPI is missing.
pub fn peers_python(target: &Path) -> PathBuf {
    let venv = target.join("python-peers");
    let python = venv.join("bin/python");
    let marker = venv.join("installed.txt");
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(PYTHON_PEERS) {
        return python;
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output();
    match made {
        Ok(o) if o.status.success() => {}
        other => panic!(
            "python3 -m venv failed ({other:?}); the comparisons with pyarrow and DuckDB need \
             Python 3 with venv and pip.\nFix: install python3 and python3-venv (Debian: \
             apt-get install python3 python3-venv).\n(To skip the tests that need them on a \
             machine without them, set {SKIP_PEERS_VAR}=1.)"
        ),
    }
    let o = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(PYTHON_PEERS.split(' '))
        .output()
        .expect("pip runs");
    assert!(
        o.status.success(),
        "pip install {PYTHON_PEERS} failed (is PyPI reachable?):\n{}{}\n(To skip the tests \
         that need them, set {SKIP_PEERS_VAR}=1.)",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(&marker, PYTHON_PEERS).unwrap();
    python
}
