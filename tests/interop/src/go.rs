//! The Go test peer (`tests/interop/go`): mesos-go's RecordIO reader and writer, and Paddle's
//! chunk layout over Go's real crc32, snappy and gzip. Built once with `go build` (modules
//! from the Go module proxy, pinned in `go.sum`), answering a whole [`GoBatch`] per run.

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use crate::tools::{self, locked, require, run, run_batch, say};
use crate::wire::Request;

/// Records, then how reading ended: `None` at a clean end, else the Go error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoRead {
    pub records: Vec<Vec<u8>>,
    pub error: Option<String>,
}

impl GoRead {
    /// What one of our framing readers returned, in the same form.
    pub fn collect<E: std::fmt::Display>(
        items: impl IntoIterator<Item = Result<Vec<u8>, E>>,
    ) -> Self {
        let mut read = GoRead {
            records: Vec::new(),
            error: None,
        };
        for item in items {
            match item {
                Ok(r) => read.records.push(r),
                Err(e) => read.error = Some(e.to_string()),
            }
        }
        read
    }
}

/// The answer to one operation of a [`GoBatch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoAnswer {
    /// What a reader returned.
    Read(GoRead),
    /// The bytes a writer wrote.
    Written(Vec<u8>),
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Read,
    Write,
}

/// Operations for one run of the Go peer (none by default); the protocol is described in
/// `go/main.go`.
#[derive(Debug, Clone)]
pub struct GoBatch(Request<Op>);

impl Default for GoBatch {
    fn default() -> Self {
        GoBatch(Request::new(b"HRGO", None))
    }
}

impl GoBatch {
    /// Read `file` with mesos-go's `recordio.NewReader`.
    pub fn mesos_read(&mut self, file: &[u8]) {
        self.0.op(1, Op::Read);
        self.0.blob(file);
    }

    /// Write `records` with mesos-go's `recordio.NewWriter`.
    pub fn mesos_write(&mut self, records: &[Vec<u8>]) {
        self.0.op(2, Op::Write);
        self.records(records);
    }

    /// Read `file` as Paddle's Go scanner does, with Go's decompressors.
    pub fn paddle_read(&mut self, file: &[u8]) {
        self.0.op(3, Op::Read);
        self.0.blob(file);
    }

    /// Write `records` as Paddle's Go writer does (`max_chunk_size` < 0: its 32 MiB
    /// default; compressor 0 none, 1 snappy, 2 gzip).
    pub fn paddle_write(&mut self, records: &[Vec<u8>], max_chunk_size: i32, compressor: u8) {
        self.0.op(4, Op::Write);
        self.0.put(&max_chunk_size.to_be_bytes());
        self.0.put(&[compressor]);
        self.records(records);
    }

    fn records(&mut self, records: &[Vec<u8>]) {
        let n = u32::try_from(records.len()).expect("fewer than 2^32 records");
        self.0.put(&n.to_be_bytes());
        for r in records {
            self.0.blob(r);
        }
    }

    fn answers(&self, response: &[u8]) -> Result<Vec<GoAnswer>, String> {
        self.0.answers(response, |r, op| {
            Ok(match op {
                Op::Write => GoAnswer::Written(r.blob()?),
                Op::Read => {
                    let n = r.int()?;
                    let records = (0..n).map(|_| r.blob()).collect::<Result<_, String>>()?;
                    let error = match r.byte()? {
                        0 => None,
                        _ => Some(r.string()?),
                    };
                    GoAnswer::Read(GoRead { records, error })
                }
            })
        })
    }
}

/// The built Go peer.
pub struct GoPeer {
    binary: PathBuf,
    runs: PathBuf,
}

const GO_FIX: &str = "install Go 1.21 or later (Debian: `apt-get install golang`)";

impl GoPeer {
    /// The peer, built on first use; `None` when the peer tests are skipped.
    pub fn get() -> Option<&'static GoPeer> {
        static PEER: OnceLock<Option<GoPeer>> = OnceLock::new();
        tools::once(
            &PEER,
            "the tests against the Go implementations",
            GoPeer::build,
        )
    }

    fn build() -> GoPeer {
        let go = PathBuf::from("go");
        require(&go, "version", GO_FIX);
        let source = tools::repo_root().join("tests/interop/go");
        let work = tools::work_dir().join("go");
        let binary = work.join("gopeer");
        locked(&work, || {
            say("building the Go peer (go build; modules from the Go module proxy)");
            // `go build` is incremental: a no-op when nothing changed.
            run(Command::new(&go)
                .args(["build", "-o"])
                .arg(&binary)
                .arg(".")
                .current_dir(&source));
        });
        let runs = work.join("runs");
        fs::create_dir_all(&runs).expect("the Go peer's runs directory");
        GoPeer { binary, runs }
    }

    /// Runs `batch` in one process; the files stay in `<target>/interop/go/runs/<name>.*`.
    pub fn run(&self, name: &str, batch: &GoBatch) -> Vec<GoAnswer> {
        let response = run_batch(
            &mut Command::new(&self.binary),
            &self.runs,
            name,
            batch.0.bytes(),
        );
        batch
            .answers(&response)
            .unwrap_or_else(|e| panic!("the Go peer's answer to {name}: {e}"))
    }
}
