//! Spark with delta-spark writing Delta tables, for scale: the venv, the Delta jars and the
//! JDK the tests use (fixture-harness's `delta_peers`), but a Spark of its own, configured
//! for throughput rather than for the tests' quick start (the JIT compiler's every tier, the
//! JVM's default collector, a 4 GiB heap, every core: `local[*]`).

use std::path::Path;
use std::time::Duration;

use fixture_harness::delta_peers::{
    delta_peers, spark_server_script, spark_traceback, SparkServer,
};

use super::Timing;

/// What serves [`Spark::write`]: for each request (a JSON line: the Parquet files to read,
/// the table to write, its partition columns) it writes the table anew and answers with the
/// write's wall time and the CPU time it took (the JVM's, from `/proc`, and this Python's).
const WRITE: &str = r#"
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

/// Spark serving [`WRITE`]; it ends when dropped.
pub struct Spark {
    server: SparkServer,
    /// Spark's version.
    pub version: String,
    /// Its default parallelism (the cores of `local[*]`).
    pub cores: u64,
}

impl Spark {
    /// Spark, started (tens of seconds) in `dir/spark`; `None` when the Delta peers are
    /// skipped (`HADOOP_RECORD_SKIP_PEERS`). Panics with the fix when they cannot be fetched.
    pub fn start(dir: &Path) -> Option<Spark> {
        let script = spark_server_script(
            "local[*]",
            "hadoop-record delta write bench",
            &[("spark.driver.memory", "4g")],
            WRITE,
        );
        let (server, ready) = SparkServer::start(delta_peers()?, &script, dir.join("spark"));
        Some(Spark {
            server,
            version: ready["ready"].as_str().unwrap_or_default().to_owned(),
            cores: ready["cores"].as_u64().unwrap_or_default(),
        })
    }

    /// `spark.read.parquet(src).write.format("delta")[.partitionBy(…)].save(out)`, `out`
    /// removed first; the time it took.
    pub fn write(&mut self, src: &Path, out: &Path, partition_by: &[&str]) -> Timing {
        let answer = self.server.ask(&serde_json::json!({
            "src": src.display().to_string(),
            "out": out.display().to_string(),
            "partition_by": partition_by,
        }));
        if let Some(error) = answer["error"].as_str() {
            panic!(
                "Spark's write failed:\n{}\n(its log: {})",
                spark_traceback(error),
                self.server.log().display()
            );
        }
        let seconds = |key: &str| Duration::from_secs_f64(answer[key].as_f64().unwrap());
        Timing {
            wall: seconds("wall"),
            cpu: seconds("cpu"),
        }
    }
}
