//! The independent Python readers (pyarrow and DuckDB, pinned) that check the Parquet files
//! `rcc` writes, and the answers of queries: installed once into a virtual environment
//! under the target directory; and moto, whose server mode is a local S3-compatible store.
//!
//! They need `python3` with `venv` and network access to PyPI the first time;
//! `HADOOP_RECORD_SKIP_PEERS=1` skips only the tests that use them.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::process::{assert_success, stdout};

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
    installed_once(&PYTHON, "the pyarrow and DuckDB checks", |_| {
        peers_python(&target_dir())
    })
}

/// The Python `install` makes (given what needs it), made once per test binary in `cell`;
/// `None`, said once, when the peers are skipped.
fn installed_once(
    cell: &'static OnceLock<Option<PathBuf>>,
    what: &str,
    install: impl FnOnce(&str) -> PathBuf,
) -> Option<&'static Path> {
    cell.get_or_init(|| (!skipped(what)).then(|| install(what)))
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
    assert_success(&out, "the peers' python");
    stdout(&out)
}

/// The pinned independent readers.
pub const PEERS: &str = "pyarrow==26.0.1 duckdb==1.5.6";

/// The Python of `<target>/python-peers` with [`PEERS`], made and installed on the
/// first call (`python3 -m venv`, then pip from PyPI); later calls find it through its
/// marker file. Panics with the fix when Python, venv or PyPI is missing.
pub fn peers_python(target: &Path) -> PathBuf {
    venv_python(
        target,
        "python-peers",
        PEERS,
        "the comparisons with pyarrow and DuckDB",
    )
}

/// moto, pinned: its server mode is the S3-compatible store of the storage tests.
pub const MOTO: &str = "moto[server]==5.2.5";

/// The Python with [`MOTO`], installed once into `<target>/python-moto`; `None` when the
/// peers are skipped.
pub fn moto_python() -> Option<&'static Path> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    installed_once(&PYTHON, "the S3 checks (moto)", |what| {
        venv_python(&target_dir(), "python-moto", MOTO, what)
    })
}

/// fastavro, pinned, with what its snappy (cramjam) and zstandard (backports.zstd, before
/// Python 3.14) codecs need: the Python Avro implementation that reads and writes the
/// container files of `hadoop-record-avro`.
pub const FASTAVRO: &str = "fastavro==1.13.1 cramjam==2.14.0 backports.zstd==1.8.0";

/// The Python with [`FASTAVRO`], installed once into `<target>/python-fastavro`; `None` when
/// the peers are skipped.
pub fn fastavro_python() -> Option<&'static Path> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    installed_once(&PYTHON, "the fastavro checks", |what| {
        venv_python(&target_dir(), "python-fastavro", FASTAVRO, what)
    })
}

/// moto's S3 server on a loopback port (started with [`moto_python`]'s Python), its
/// requests logged to a file; killed on drop.
pub struct MotoServer {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
    python: PathBuf,
}

impl MotoServer {
    /// Starts moto's server with `python`, its log (one line per request) at `log`.
    pub fn start(python: &Path, log: &Path) -> MotoServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free loopback port");
        let child = Command::new(python)
            .args([
                "-m",
                "moto.server",
                "-H",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(log).expect("moto's log"))
            .spawn()
            .expect("moto's server starts");
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "moto did not listen"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        MotoServer {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            python: python.to_owned(),
        }
    }

    /// Creates `bucket` with boto3 (moto's dependency).
    pub fn create_bucket(&self, bucket: &str) {
        self.run_boto(&format!("c.create_bucket(Bucket='{bucket}')"));
    }

    /// Python lines that import boto3 (and `sys`, `time`) and make `c` a client of this
    /// server, for a script to start with.
    pub fn boto_client(&self) -> String {
        format!(
            "import boto3, sys, time\n\
             c = boto3.client('s3', endpoint_url='{}', aws_access_key_id='k', \
             aws_secret_access_key='s', region_name='us-east-1')\n",
            self.endpoint
        )
    }

    /// Runs `script` after [`MotoServer::boto_client`]'s lines; its standard output.
    pub fn run_boto(&self, script: &str) -> String {
        let script = format!("{}{script}", self.boto_client());
        run_script(&self.python, &script, &[] as &[&str])
    }

    /// The environment of an AWS client of this server: its endpoint, credentials, region.
    pub fn client_env(&self) -> [(&'static str, &str); 4] {
        [
            ("AWS_ENDPOINT_URL", self.endpoint.as_str()),
            ("AWS_ACCESS_KEY_ID", "k"),
            ("AWS_SECRET_ACCESS_KEY", "s"),
            ("AWS_REGION", "us-east-1"),
        ]
    }
}

impl Drop for MotoServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether the peers are skipped ([`SKIP_VAR`]); says so, naming `what` is skipped.
pub(crate) fn skipped(what: &str) -> bool {
    let skip = std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0");
    if skip {
        eprintln!("SKIPPED {what}: {SKIP_VAR} is set");
    }
    skip
}

/// The Python of the virtual environment `<target>/<name>` with `packages` (space-separated
/// pins), made and installed on the first call (`python3 -m venv`, then pip from PyPI);
/// later calls find it through its marker file. Panics with the fix when Python, venv or
/// PyPI is missing (`what` names what needs them).
pub(crate) fn venv_python(target: &Path, name: &str, packages: &str, what: &str) -> PathBuf {
    let venv = target.join(name);
    let python = venv.join("bin/python");
    let marker = venv.join("installed.txt");
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(packages) {
        return python;
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output();
    match made {
        Ok(o) if o.status.success() => {}
        other => panic!(
            "python3 -m venv failed ({other:?}); {what} need Python 3 with venv and pip.\n\
             Fix: install python3 and python3-venv (Debian: apt-get install python3 \
             python3-venv).\n(To skip the tests that need them on a machine without them, \
             set {SKIP_VAR}=1.)"
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
        "pip install {packages} failed (is PyPI reachable?):\n{}{}\n(To skip the tests \
         that need them, set {SKIP_VAR}=1.)",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(&marker, packages).unwrap();
    python
}
