//! Finding the peers' tool chains, the shared build directory, and running programs with
//! errors that say what to do.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Set to `1` to skip every test against a real implementation (for machines without a JDK,
/// Maven or Go). CI never sets it.
pub const SKIP_VAR: &str = "HADOOP_RECORD_SKIP_PEERS";

/// Whether the peer tests are to be skipped; says so on the terminal when they are.
pub fn skipped(what: &str) -> bool {
    let skip = std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0");
    if skip {
        say(&format!("SKIPPED {what}: {SKIP_VAR} is set"));
    }
    skip
}

/// What `cell` holds, made by `build` on first use; `None` when the tests against `what` are
/// [`skipped`].
pub fn once<T>(
    cell: &'static OnceLock<Option<T>>,
    what: &str,
    build: impl FnOnce() -> T,
) -> Option<&'static T> {
    cell.get_or_init(|| (!skipped(what)).then(build)).as_ref()
}

/// Writes a line to the terminal even when the test harness captures output (it captures
/// `print!`/`eprint!` only), so the log of a passing run shows what was compared.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "[interop] {line}");
}

/// The repository's root directory.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `<target>/interop`: where the peers are built, next to the test binaries
/// (`<target>/debug/deps/…`), or `HADOOP_RECORD_INTEROP_DIR`.
pub fn work_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HADOOP_RECORD_INTEROP_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    // <target>/<profile>/deps/<binary>
    exe.ancestors()
        .nth(3)
        .map(|target| target.join("interop"))
        .unwrap_or_else(|| repo_root().join("target/interop"))
}

/// Runs `f` holding an exclusive lock on `dir/.lock`, so that test binaries running at the
/// same time build a peer once.
pub fn locked<T>(dir: &Path, f: impl FnOnce() -> T) -> T {
    fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let lock = File::create(dir.join(".lock")).expect("the peers' lock file");
    lock.lock().expect("locking the peers' build directory");
    let out = f();
    drop(lock);
    out
}

/// `program` if it runs (`program ARG` exits at all), else a panic naming the fix.
pub fn require(program: &Path, arg: &str, fix: &str) {
    if Command::new(program).arg(arg).output().is_err() {
        panic!(
            "`{}` was not found, and the tests against the real implementations need it.\n\
             Fix: {fix}\n\
             (To skip these tests on a machine without it, set {SKIP_VAR}=1.)",
            program.display()
        );
    }
}

/// Runs `cmd`; panics with its command line and output unless it succeeds.
pub fn run(cmd: &mut Command) -> Output {
    try_run(cmd).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `cmd`; its command line and output as the error unless it succeeds.
pub fn try_run(cmd: &mut Command) -> Result<Output, String> {
    let out = cmd.output().map_err(|e| format!("running {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out)
}

/// Runs a peer on a request: writes `request` to `dir/<name>.req`, runs `peer REQ RESP`
/// and returns the response's bytes. The request stays, so that a failure can be replayed;
/// the response, up to gigabytes a run and answered again by a replay, is removed once read
/// (CI's disk is shared and finite).
pub fn run_batch(peer: &mut Command, dir: &Path, name: &str, request: &[u8]) -> Vec<u8> {
    let req = dir.join(format!("{name}.req"));
    let resp = dir.join(format!("{name}.resp"));
    fs::write(&req, request).unwrap_or_else(|e| panic!("writing {}: {e}", req.display()));
    run(peer.arg(&req).arg(&resp));
    let response = fs::read(&resp).unwrap_or_else(|e| panic!("reading {}: {e}", resp.display()));
    // A response left behind costs only disk.
    let _ = fs::remove_file(&resp);
    response
}

/// A stable key of the files' contents (FNV-1a), to know when a build is stale.
pub fn content_key(files: &[PathBuf], extra: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in files {
        feed(f.to_string_lossy().as_bytes());
        feed(&fs::read(f).unwrap_or_else(|e| panic!("reading {}: {e}", f.display())));
    }
    feed(extra.as_bytes());
    format!("{h:016x}")
}

/// The files below `dir` whose names end in `suffix`, sorted.
pub fn files_below(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("listing {}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
