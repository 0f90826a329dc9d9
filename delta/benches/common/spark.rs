//! Spark with delta-spark writing Delta tables, for scale: the venv, the Delta jars and the
//! JDK the tests use (fixture-harness's `delta_peers`), but a Spark of its own, configured
//! for throughput rather than for the tests' quick start (the JIT compiler's every tier, the
//! JVM's default collector, a 4 GiB heap, every core: `local[*]`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use fixture_harness::delta_peers::{delta_jars, delta_peers, spark_java_home};
use fixture_harness::peers::target_dir;

use super::Timing;

/// The Python that serves [`Spark::write`]: it makes the SparkSession, says it is ready,
/// then for each request (a JSON line: the Parquet files to read, the table to write, its
/// partition columns) writes the table anew and answers with the write's wall time and the
/// CPU time it took (the JVM's, from `/proc`, and this Python's). Its answers go through a
/// copy of the standard output taken before Spark starts; the standard output itself then
/// goes to the standard error (the log), where the JVM's chatter belongs.
const SERVER: &str = r#"
import json, os, shutil, sys, time, traceback
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
from pyspark.sql import SparkSession
jars, scratch = sys.argv[1], sys.argv[2]
spark = (
    SparkSession.builder.master("local[*]")
    .appName("hadoop-record delta write bench")
    .config("spark.jars", jars)
    .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
    .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
    .config("spark.driver.memory", "4g")
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.local.dir", scratch)
    .config("spark.sql.warehouse.dir", os.path.join(scratch, "warehouse"))
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
jvm = spark._jvm.java.lang.ProcessHandle.current().pid()
tick = os.sysconf("SC_CLK_TCK")

def cpu():
    # utime and stime, fields 14 and 15 of /proc/PID/stat (after the command's parentheses).
    with open(f"/proc/{jvm}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    own = os.times()
    return (int(fields[11]) + int(fields[12])) / tick + own.user + own.system

answers.write(json.dumps({"ready": spark.version, "cores": spark.sparkContext.defaultParallelism}) + "\n")
answers.flush()
for line in sys.stdin:
    request = json.loads(line)
    shutil.rmtree(request["out"], ignore_errors=True)
    try:
        cpu0, wall0 = cpu(), time.perf_counter()
        writer = spark.read.parquet(request["src"]).write.format("delta")
        if request["partition_by"]:
            writer = writer.partitionBy(*request["partition_by"])
        writer.save(request["out"])
        answer = {"wall": time.perf_counter() - wall0, "cpu": cpu() - cpu0}
    except BaseException:
        answer = {"error": traceback.format_exc()}
    answers.write(json.dumps(answer) + "\n")
    answers.flush()
"#;

/// The running [`SERVER`]; it ends when dropped (its standard input closes, and pyspark's
/// JVM ends with the Python that started it).
pub struct Spark {
    child: Child,
    requests: Option<ChildStdin>,
    answers: BufReader<ChildStdout>,
    log: PathBuf,
    scratch: PathBuf,
    /// Spark's version.
    pub version: String,
    /// Its default parallelism (the cores of `local[*]`).
    pub cores: u64,
}

impl Spark {
    /// Spark, started (tens of seconds); `None` when the Delta peers are skipped
    /// (`HADOOP_RECORD_SKIP_PEERS`). Panics with the fix when they cannot be fetched.
    pub fn start(dir: &Path) -> Option<Spark> {
        let peers = delta_peers()?;
        let jars: Vec<String> = delta_jars(&target_dir().join("delta-jars"))
            .iter()
            .map(|j| j.display().to_string())
            .collect();
        let scratch = dir.join("spark");
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).unwrap();
        let log = scratch.join("spark.log");
        let mut child = Command::new(peers.python())
            .args(["-u", "-c", SERVER])
            .arg(jars.join(","))
            .arg(&scratch)
            .env("JAVA_HOME", spark_java_home())
            .env("PYSPARK_PYTHON", peers.python())
            .env("SPARK_LOCAL_IP", "127.0.0.1")
            .env_remove("SPARK_HOME")
            .env_remove("PYSPARK_SUBMIT_ARGS")
            .current_dir(&scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("the peers' Python starts");
        let mut spark = Spark {
            requests: child.stdin.take(),
            answers: BufReader::new(child.stdout.take().unwrap()),
            child,
            log,
            scratch,
            version: String::new(),
            cores: 0,
        };
        let ready = spark.answer();
        spark.version = ready["ready"].as_str().unwrap_or_default().to_owned();
        spark.cores = ready["cores"].as_u64().unwrap_or_default();
        Some(spark)
    }

    /// `spark.read.parquet(src).write.format("delta")[.partitionBy(…)].save(out)`, `out`
    /// removed first; the time it took.
    pub fn write(&mut self, src: &Path, out: &Path, partition_by: &[&str]) -> Timing {
        let request = serde_json::json!({
            "src": src.display().to_string(),
            "out": out.display().to_string(),
            "partition_by": partition_by,
        });
        let requests = self.requests.as_mut().unwrap();
        writeln!(requests, "{request}").unwrap();
        requests.flush().unwrap();
        let answer = self.answer();
        if let Some(error) = answer["error"].as_str() {
            // A JVM error's traceback holds its whole stack: the rest is enough.
            let lines: Vec<&str> = error
                .lines()
                .filter(|l| !l.trim_start().starts_with("at ") && !l.contains("... "))
                .collect();
            panic!(
                "Spark's write failed:\n{}\n(its log: {})",
                lines.join("\n"),
                self.log.display()
            );
        }
        let seconds = |key: &str| Duration::from_secs_f64(answer[key].as_f64().unwrap());
        Timing {
            wall: seconds("wall"),
            cpu: seconds("cpu"),
        }
    }

    /// The server's next answer; panics with the end of its log when it has ended.
    fn answer(&mut self) -> serde_json::Value {
        let mut line = String::new();
        let read = self.answers.read_line(&mut line);
        if !matches!(read, Ok(n) if n > 0) {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            let lines: Vec<&str> = log.lines().collect();
            panic!(
                "Spark ended ({read:?}); the end of its log ({}):\n{}",
                self.log.display(),
                lines[lines.len().saturating_sub(60)..].join("\n")
            );
        }
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("Spark's answer {line:?}: {e}"))
    }
}

impl Drop for Spark {
    fn drop(&mut self) {
        // Its standard input closed, the server ends, and the JVM with it.
        self.requests.take();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}
