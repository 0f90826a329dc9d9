//! The independent Python readers (pyarrow and DuckDB, pinned) that check the Parquet files
//! `rcc` writes, and the answers of queries: installed once into a virtual environment
//! under the target directory.
//!
//! They need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Set (not to `0`) to skip the checks that need the peers.
pub const SKIP_VAR: &str = "HADOOP_RECORD_SKIP_PEERS";

/// The cargo target directory, from the path of the test binary that runs
/// (`<target>/<profile>/deps/<test>`).
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors()
        .nth(3)
        .expect("a test binary in <target>/<profile>/deps")
        .to_path_buf()
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
            Some(peers_python(&target_dir()))
        })
        .as_deref()
}

/// Standard output of the peers' `python` running `script` with `args`; a failing script
/// fails the test with its standard error.
pub fn run_script<S: AsRef<OsStr>>(python: &Path, script: &str, args: &[S]) -> String {
    let out = Command::new(python)
        .args(["-c", script])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The pinned independent readers.
pub const PEERS: &str = "pyarrow==26.0.1 duckdb==1.5.6";

/// The Python of `<target>/python-peers` with [`PEERS`], made and installed on the
/// first call (`python3 -m venv`, then pip from PyPI); later calls find it through its
/// marker file. Panics with the fix when Python, venv or PyPI is missing.
pub fn peers_python(target: &Path) -> PathBuf {
    let venv = target.join("python-peers");
    let python = venv.join("bin/python");
    let marker = venv.join("installed.txt");
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(PEERS) {
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
             machine without them, set {SKIP_VAR}=1.)"
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
        .args(PEERS.split(' '))
        .output()
        .expect("pip runs");
    assert!(
        o.status.success(),
        "pip install {PEERS} failed (is PyPI reachable?):\n{}{}\n(To skip the tests \
         that need them, set {SKIP_VAR}=1.)",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(&marker, PEERS).unwrap();
    python
}
