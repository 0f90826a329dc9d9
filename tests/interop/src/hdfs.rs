//! Apache Hadoop 3.4.2's HDFS as a test peer (`java/hdfs/pom.xml`): `MiniDFSCluster`, a real
//! NameNode and two real DataNodes in one JVM on loopback ports chosen at run time, with 1 MiB
//! blocks (so that test files span blocks) and replication 2. Its driver
//! (`java/hdfs/src/main/java/hadooprecord/hdfs/Driver.java`) also writes and reads
//! SequenceFiles there with Hadoop's own `SequenceFile.Writer` and `Reader`, copies files in
//! and out, and stops a DataNode on request.
//!
//! One cluster serves a whole test binary ([`MiniHdfs::get`]); it shuts down when the
//! binary exits (the driver stops when its standard input closes).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout, Stdio};
use std::sync::{Mutex, OnceLock};

use crate::java::{driver_classpath, hdfs_jdk};
use crate::tools::{self, say};

/// A running MiniDFSCluster and the pipe to its driver.
pub struct MiniHdfs {
    url: String,
    /// The JVM's process id.
    pid: u32,
    pipe: Mutex<(ChildStdin, BufReader<ChildStdout>)>,
    log: PathBuf,
}

impl MiniHdfs {
    /// The cluster of this test binary, started on first use; `None` when the peer tests
    /// are skipped.
    pub fn get() -> Option<&'static MiniHdfs> {
        static CLUSTER: OnceLock<Option<MiniHdfs>> = OnceLock::new();
        CLUSTER.get_or_init(|| MiniHdfs::start(None)).as_ref()
    }

    /// A cluster of the caller's own, not the binary's shared one, whose files come in
    /// blocks of `block_size` bytes where their writer does not choose (as a cluster in
    /// service, whose `dfs.blocksize` is 128 MiB, writes them); `None` when the peer tests
    /// are skipped. It shuts down when dropped.
    pub fn start_with_block_size(block_size: u64) -> Option<MiniHdfs> {
        MiniHdfs::start(Some(block_size))
    }

    /// A cluster whose default block size is `block_size` (1 MiB if `None`), unless the
    /// peer tests are skipped.
    fn start(block_size: Option<u64>) -> Option<MiniHdfs> {
        if tools::skipped("the tests against HDFS (MiniDFSCluster)") {
            return None;
        }
        let jdk = hdfs_jdk();
        let (work, classpath) =
            driver_classpath(&jdk, "hdfs", "the HDFS driver against Hadoop 3.4.2");
        let base = work.join("runs").join(std::process::id().to_string());
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).expect("the cluster's directory");
        let log = base.with_extension("log");
        let mut child = jdk
            .command(&classpath)
            .arg("-Xmx1g")
            .arg("hadooprecord.hdfs.Driver")
            .arg(&base)
            .args(block_size.map(|n| n.to_string()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(fs::File::create(&log).expect("the cluster's log file"))
            .spawn()
            .expect("starting the MiniDFSCluster");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        let Some(url) = line.trim().strip_prefix("ready ") else {
            let _ = child.kill();
            panic!(
                "the MiniDFSCluster did not start ({}):\n{}",
                line.trim(),
                tail(&fs::read_to_string(&log).unwrap_or_default())
            );
        };
        say(&format!(
            "HDFS 3.4.2 MiniDFSCluster (1 NameNode, 2 DataNodes, {} MiB blocks) at {url} (JDK {}, log {})",
            block_size.unwrap_or(1 << 20) >> 20,
            jdk.feature,
            log.display()
        ));
        // The driver exits when the test binary does (its standard input closes), and the
        // child is not waited for: a test binary ends with its statics alive.
        let pid = child.id();
        std::mem::forget(child);
        Some(MiniHdfs {
            url: url.to_owned(),
            pid,
            pipe: Mutex::new((stdin, stdout)),
            log,
        })
    }

    /// The NameNode's URL, `hdfs://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The process id of the JVM that runs the cluster (NameNode and DataNodes), to see
    /// what it costs.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// `path` (absolute, `/data/a.seq`) as a URL.
    pub fn url_of(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// Sends one command (`Driver.java` lists them) and returns its answer after `ok`;
    /// panics with the driver's error.
    pub fn command(&self, command: &str) -> String {
        self.try_command(command).unwrap_or_else(|e| {
            panic!(
                "HDFS driver: `{command}` failed: {e}\n{}",
                tail(&fs::read_to_string(&self.log).unwrap_or_default())
            )
        })
    }

    /// Sends one command and returns its answer after `ok`, or the driver's error.
    pub fn try_command(&self, command: &str) -> Result<String, String> {
        let mut pipe = self.pipe.lock().unwrap_or_else(|e| e.into_inner());
        let (stdin, stdout) = &mut *pipe;
        writeln!(stdin, "{command}").expect("the HDFS driver takes a command");
        stdin.flush().expect("the HDFS driver takes a command");
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the HDFS driver answers");
        match line.trim_end().strip_prefix("ok") {
            Some(answer) => Ok(answer.trim_start().to_owned()),
            None => Err(line.trim().to_owned()),
        }
    }

    /// Copies the local file `local` to `path` in HDFS with Hadoop's client, in blocks of
    /// the cluster's default size or of `block_size` bytes (a multiple of 512, as `hdfs dfs -D
    /// dfs.blocksize=N -put` writes them); the number of blocks it takes.
    pub fn put(&self, local: &std::path::Path, path: &str, block_size: Option<u64>) -> usize {
        let size = block_size.map_or(String::new(), |n| format!(" {n}"));
        let answer = self.command(&format!("put {} {path}{size}", local.display()));
        answer.parse().expect("a block count")
    }

    /// The files below `dir`, hidden ones too, with their sizes, as Hadoop lists them.
    pub fn list(&self, dir: &str) -> Vec<(String, u64)> {
        self.command(&format!("list {dir}"))
            .split_whitespace()
            .map(|entry| {
                let (name, size) = entry.rsplit_once(':').expect("NAME:SIZE");
                (name.to_owned(), size.parse().expect("a size"))
            })
            .collect()
    }
}

/// The last lines of a log, for a failure message.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}
