//! Delta Lake's independent readers (and a writer) as test peers: Spark with delta-spark,
//! Delta's reference implementation; the `deltalake` Python package (delta-rs); Polars'
//! `read_delta`.
//!
//! Fetched once into the target directory, pinned:
//! - `<target>/python-delta-peers`: a virtual environment with [`DELTA_PEERS`] from PyPI
//!   (about 90 s and 450 MB the first time, pyspark being most of it);
//! - `<target>/delta-jars`: [`DELTA_JARS`] from Maven Central, through `mvn
//!   dependency:copy` (about 10 s), given to Spark as `spark.jars` (Spark's own `--packages`
//!   resolver is not used).
//!
//! Spark runs on a JDK 17 or 21 ([`spark_java_home`]), started once per test binary
//! ([`DeltaPeers::run_spark`]): its start and first queries cost seconds (its JIT compiler
//! is kept to its quick tier, which halves them). Without Python, venv, Maven or a
//! JDK the tests fail with the fix; `HADOOP_RECORD_SKIP_PEERS=1` skips them instead.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::peers::{run_script, skipped, target_dir, venv_python, SKIP_VAR};

/// The pinned Python peers: pyspark 4.0.1 (Spark 4.0, Scala 2.13, which delta-spark 4.0.0
/// is built for), deltalake (delta-rs's Python package, which reads into pyarrow) and
/// Polars (`read_delta` through deltalake).
pub const DELTA_PEERS: &str = "pyspark==4.0.1 deltalake==1.6.6 polars==2.1.0 pyarrow==26.0.1";

/// The Maven coordinates of Delta's jars for Spark 4.0 (Scala 2.13).
pub const DELTA_JARS: [&str; 2] = [
    "io.delta:delta-spark_2.13:4.0.0",
    "io.delta:delta-storage:4.0.0",
];

/// The Maven plugin that copies them, pinned.
const COPY_GOAL: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy";

/// The JDK versions Spark 4.0 runs on.
const SPARK_JDKS: std::ops::RangeInclusive<u32> = 17..=21;

const JAVA_FIX: &str = "install a JDK 17 or 21 and Maven (Debian: `apt-get install \
     openjdk-17-jdk-headless maven`), or point JAVA_HOME at a JDK 17 or 21";

/// The peers, ready: the venv's Python, Delta's jars, a JDK for Spark, and Spark itself
/// once [`DeltaPeers::run_spark`] first needs it.
pub struct DeltaPeers {
    python: PathBuf,
    jars: Vec<PathBuf>,
    java_home: PathBuf,
    spark: Mutex<Option<SparkServer>>,
}

/// The peers, fetched on the first call; `None` when the peers are skipped
/// ([`SKIP_VAR`]).
pub fn delta_peers() -> Option<&'static DeltaPeers> {
    static PEERS: OnceLock<Option<DeltaPeers>> = OnceLock::new();
    PEERS
        .get_or_init(|| {
            let what = "the Delta Lake checks (Spark with delta-spark, deltalake, Polars)";
            if skipped(what) {
                return None;
            }
            let target = target_dir();
            Some(DeltaPeers {
                python: venv_python(&target, "python-delta-peers", DELTA_PEERS, what),
                java_home: spark_java_home(),
                jars: delta_jars(&target.join("delta-jars")),
                spark: Mutex::new(None),
            })
        })
        .as_ref()
}

impl DeltaPeers {
    /// The venv's Python, with deltalake, Polars and pyarrow.
    pub fn python(&self) -> &Path {
        &self.python
    }

    /// Standard output of the venv's Python running `script` with `args` (no Spark); a
    /// failing script fails the test with its standard error.
    pub fn run_python<S: AsRef<OsStr>>(&self, script: &str, args: &[S]) -> String {
        run_script(&self.python, script, args)
    }

    /// What `script` prints, run in the Spark of this test binary (started on the first
    /// call, then kept: one script at a time) with the globals `spark`, a SparkSession
    /// configured for Delta (`local[2]`, two shuffle partitions, UTC, no UI), and `args`,
    /// the list of `args`. A script that raises fails the test with its traceback.
    pub fn run_spark(&self, script: &str, args: &[&str]) -> String {
        let mut spark = self.spark.lock().unwrap_or_else(PoisonError::into_inner);
        let server = spark.get_or_insert_with(|| start_script_server(self));
        run_script_in(server, script, args)
    }
}

/// `JAVA_HOME` when it holds a JDK Spark 4.0 runs on (17 to 21), otherwise the oldest such
/// under `/usr/lib/jvm`. Panics with the fix when there is none.
pub fn spark_java_home() -> PathBuf {
    let mut homes: Vec<PathBuf> = std::env::var_os("JAVA_HOME")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/jvm")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((java_feature(&e.path())?, e.path())))
        .collect();
    found.sort();
    homes.extend(found.into_iter().map(|(_, home)| home));
    homes
        .into_iter()
        .find(|home| java_feature(home).is_some_and(|f| SPARK_JDKS.contains(&f)))
        .unwrap_or_else(|| {
            panic!(
                "no JDK 17 to 21 was found (JAVA_HOME, /usr/lib/jvm), and Spark 4.0 needs one.\n\
                 Fix: {JAVA_FIX}.\n(To skip the tests that need it, set {SKIP_VAR}=1.)"
            )
        })
}

/// The feature version of the Java at `home` (`JAVA_VERSION` of its `release` file), if it
/// has `bin/java`.
fn java_feature(home: &Path) -> Option<u32> {
    if !home.join("bin/java").is_file() {
        return None;
    }
    let release = std::fs::read_to_string(home.join("release")).ok()?;
    let version = release
        .lines()
        .find_map(|l| l.strip_prefix("JAVA_VERSION="))?
        .trim_matches('"');
    version.split(['.', '-', '+']).next()?.parse().ok()
}

/// The jars of [`DELTA_JARS`] in `dir`, copied there by Maven (from `~/.m2`, downloaded
/// from Maven Central the first time) unless they are there already. Each is copied into a
/// scratch directory first and renamed into place, so that an interrupted fetch leaves no
/// partial jar.
pub fn delta_jars(dir: &Path) -> Vec<PathBuf> {
    let jar = |coordinates: &str| {
        let [_, artifact, version]: [&str; 3] = coordinates
            .split(':')
            .collect::<Vec<_>>()
            .try_into()
            .expect("group:artifact:version");
        dir.join(format!("{artifact}-{version}.jar"))
    };
    let jars: Vec<PathBuf> = DELTA_JARS.iter().map(|c| jar(c)).collect();
    if jars.iter().all(|j| j.is_file()) {
        return jars;
    }
    let scratch = dir.join(format!(".fetch-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("the jars' directory");
    for (coordinates, jar) in DELTA_JARS.iter().zip(&jars) {
        let out = Command::new("mvn")
            .args(["-q", "-B", COPY_GOAL])
            .arg(format!("-Dartifact={coordinates}"))
            .arg(format!("-DoutputDirectory={}", scratch.display()))
            .current_dir(&scratch)
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!(
                "mvn could not fetch {coordinates} (is Maven Central reachable?):\n{}{}\n\
                 (To skip the tests that need it, set {SKIP_VAR}=1.)",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => panic!(
                "`mvn` does not run ({e}), and the Delta jars for Spark are fetched with it.\n\
                 Fix: {JAVA_FIX}.\n(To skip the tests that need it, set {SKIP_VAR}=1.)"
            ),
        }
        let fetched = scratch.join(jar.file_name().expect("a jar's name"));
        std::fs::rename(&fetched, jar)
            .unwrap_or_else(|e| panic!("{} to {}: {e}", fetched.display(), jar.display()));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    jars
}

/// The Python of a Spark server: it makes `spark`, a SparkSession with Delta's jars and
/// extensions (`master`, named `app`, `config` besides the loopback, scratch and quiet
/// settings every server needs), then runs `serve`, which answers the requests on its
/// standard input (JSON lines) with JSON lines written to `answers` and flushed, the first
/// saying it is ready. `answers` is a copy of the standard output taken before Spark
/// starts; the standard output itself then goes to the standard error (the log), where
/// the JVM's chatter belongs.
pub fn spark_server_script(
    master: &str,
    app: &str,
    config: &[(&str, &str)],
    serve: &str,
) -> String {
    let config: String = config
        .iter()
        .map(|(key, value)| format!("    .config({key:?}, {value:?})\n"))
        .collect();
    format!(
        r#"
import contextlib, io, json, os, shutil, sys, time, traceback
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
from pyspark.sql import SparkSession
jars, scratch = sys.argv[1], sys.argv[2]
spark = (
    SparkSession.builder.master({master:?})
    .appName({app:?})
    .config("spark.jars", jars)
    .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
    .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
{config}    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.local.dir", scratch)
    .config("spark.sql.warehouse.dir", os.path.join(scratch, "warehouse"))
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
{serve}"#
    )
}

/// What serves [`DeltaPeers::run_spark`]: each request (the script and its arguments) is
/// answered with what it printed, or its traceback.
const RUN_SCRIPTS: &str = r#"
answers.write(json.dumps({"ready": spark.version}) + "\n")
answers.flush()
for line in sys.stdin:
    request = json.loads(line)
    printed = io.StringIO()
    answer = {"ok": True}
    try:
        with contextlib.redirect_stdout(printed):
            code = compile(request["script"], "<delta peer script>", "exec")
            exec(code, {"spark": spark, "args": request["args"], "__name__": "__peer__"})
    except BaseException:
        answer = {"ok": False, "error": traceback.format_exc()}
    answer["out"] = printed.getvalue()
    answers.write(json.dumps(answer) + "\n")
    answers.flush()
"#;

/// A running Spark server ([`spark_server_script`]), its scratch directory (its local
/// directory and warehouse, its log) its own. Dropped, its standard input closes and it
/// ends, pyspark's JVM with the Python that started it; its scratch directory is removed.
/// The test binaries' server is never dropped: it ends with them.
pub struct SparkServer {
    child: Child,
    requests: Option<ChildStdin>,
    answers: BufReader<ChildStdout>,
    log: PathBuf,
    scratch: PathBuf,
}

impl SparkServer {
    /// Starts `script` with the peers' Python, Delta's jars and the JDK, in `scratch`
    /// (emptied first); answers the server and its first answer (that it is ready), which
    /// takes tens of seconds.
    pub fn start(
        peers: &DeltaPeers,
        script: &str,
        scratch: PathBuf,
    ) -> (SparkServer, serde_json::Value) {
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).expect("Spark's scratch directory");
        let log = scratch.join("spark.log");
        let jars: Vec<String> = peers.jars.iter().map(|j| j.display().to_string()).collect();
        let mut child = Command::new(&peers.python)
            .args(["-u", "-c", script])
            .arg(jars.join(","))
            .arg(&scratch)
            .env("JAVA_HOME", &peers.java_home)
            .env("PYSPARK_PYTHON", &peers.python)
            .env("SPARK_LOCAL_IP", "127.0.0.1")
            .env_remove("SPARK_HOME")
            .env_remove("PYSPARK_SUBMIT_ARGS")
            .current_dir(&scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("Spark's log"))
            .spawn()
            .expect("the peers' Python starts");
        let mut server = SparkServer {
            requests: child.stdin.take(),
            answers: BufReader::new(child.stdout.take().expect("a pipe")),
            child,
            log,
            scratch,
        };
        let ready = server.answer();
        (server, ready)
    }

    /// Spark's log.
    pub fn log(&self) -> &Path {
        &self.log
    }

    /// The server's answer to `request`.
    pub fn ask(&mut self, request: &serde_json::Value) -> serde_json::Value {
        let requests = self.requests.as_mut().expect("a pipe");
        writeln!(requests, "{request}")
            .and_then(|()| requests.flush())
            .expect("Spark takes the request");
        self.answer()
    }

    /// The next answer of the server; panics with the end of its log when it has ended.
    fn answer(&mut self) -> serde_json::Value {
        let mut line = String::new();
        let read = self.answers.read_line(&mut line);
        if !matches!(read, Ok(n) if n > 0) {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            let lines: Vec<&str> = log.lines().collect();
            let tail = lines[lines.len().saturating_sub(60)..].join("\n");
            panic!(
                "Spark ended ({read:?}); the end of its log ({}):\n{tail}",
                self.log.display()
            );
        }
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("Spark's answer {line:?}: {e}"))
    }
}

impl Drop for SparkServer {
    fn drop(&mut self) {
        self.requests.take();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// A traceback from Spark without the JVM's stack frames: the Python frames, the error and
/// what caused it are enough.
pub fn spark_traceback(error: &str) -> String {
    let lines: Vec<&str> = error
        .lines()
        .filter(|l| !l.trim_start().starts_with("at ") && !l.contains("... "))
        .collect();
    lines.join("\n")
}

/// The server of [`DeltaPeers::run_spark`]: `local[2]` and two partitions everywhere (small
/// tables), UTC, the JIT compiler kept to its quick tier and the serial collector (a
/// quick start).
fn start_script_server(peers: &DeltaPeers) -> SparkServer {
    let script = spark_server_script(
        "local[2]",
        "hadoop-record delta peers",
        &[
            ("spark.sql.shuffle.partitions", "2"),
            ("spark.default.parallelism", "2"),
            ("spark.databricks.delta.snapshotPartitions", "2"),
            ("spark.sql.session.timeZone", "UTC"),
            (
                "spark.driver.extraJavaOptions",
                "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
            ),
        ],
        RUN_SCRIPTS,
    );
    let scratch = target_dir()
        .join("delta-spark")
        .join(std::process::id().to_string());
    SparkServer::start(peers, &script, scratch).0
}

/// Runs `script` with `args` in `server`; what it printed. A script that raises fails the
/// test with its traceback.
fn run_script_in(server: &mut SparkServer, script: &str, args: &[&str]) -> String {
    let answer = server.ask(&serde_json::json!({"script": script, "args": args}));
    let out = answer["out"].as_str().unwrap_or_default().to_owned();
    if answer["ok"] != true {
        panic!(
            "the Spark script failed:\n{}\nit printed:\n{out}\n(Spark's log: {})",
            spark_traceback(answer["error"].as_str().unwrap_or_default()),
            server.log().display()
        );
    }
    out
}
