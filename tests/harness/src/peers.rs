//! The independent Python readers (pyarrow and DuckDB, pinned) that check the Parquet files
//! `rcc` writes, and the answers of queries: installed once into a virtual environment
//! under the target directory; and moto, whose server mode is a local S3-compatible store.
//!
//! They need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The pinned independent readers.
pub const PEERS: &str = "pyarrow==26.0.1 duckdb==1.5.6";
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
        .get_or_init(|| venv("python-peers", PEERS, "the pyarrow and DuckDB checks"))
        .as_deref()
}

/// moto, pinned: its server mode is the S3-compatible store of the storage tests.
pub const MOTO: &str = "moto[server]==5.2.5";

/// The Python with [`MOTO`], installed once into `<target>/python-moto`; `None` when the
/// peers are skipped.
pub fn moto_python() -> Option<&'static Path> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    PYTHON
        .get_or_init(|| venv("python-moto", MOTO, "the S3 checks (moto)"))
        .as_deref()
}

/// A virtual environment `<target>/<name>` with `packages` (space-separated pins) installed
/// once; `None` when the peers are skipped (`what` says what is skipped).
fn venv(name: &str, packages: &str, what: &str) -> Option<PathBuf> {
    if std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0") {
        eprintln!("SKIPPED {what}: {SKIP_VAR} is set");
        return None;
    }
    let venv = target_dir().join(name);
    let python = venv.join("bin/python");
    let marker = venv.join("installed.txt");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(packages) {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .output();
        match made {
            Ok(o) if o.status.success() => {}
            other => panic!(
                "python3 -m venv failed ({other:?}); {what} need Python 3 with venv and pip.\n\
                 Fix: install python3 and python3-venv (Debian: apt-get install python3 \
                 python3-venv).\n(To skip these tests on a machine without them, set \
                 {SKIP_VAR}=1.)"
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
            .args(packages.split(' '))
            .output()
            .expect("pip runs");
        assert!(
            o.status.success(),
            "pip install {packages} failed (is PyPI reachable?):\n{}{}\n(To skip these \
             tests, set {SKIP_VAR}=1.)",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::write(&marker, packages).unwrap();
    }
    Some(python)
}
