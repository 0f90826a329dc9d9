//! Apache ZooKeeper 3.9.5 as a test peer (`java/zookeeper/pom.xml`): a real standalone server,
//! ZooKeeper's own tools, and a driver (`java/zookeeper/src/main/java/hadooprecord/zookeeper`)
//! that reads and writes batches of `zookeeper.jute` records with ZooKeeper's jute runtime in
//! one JVM. It runs on [`zookeeper_jdk`], a JDK ZooKeeper supports.

use std::fs;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::java::{driver_classpath, zookeeper_jdk, Jdk};
use crate::tools::{self, run, run_batch, say};
use crate::wire::Request;

/// ZooKeeper's jar and tools, and our jute driver compiled against them.
pub struct ZkPeer {
    jdk: Jdk,
    classpath: String,
    runs: PathBuf,
}

impl ZkPeer {
    /// The peer, built once per test binary; `None` when the peer tests are skipped.
    pub fn get() -> Option<&'static ZkPeer> {
        static PEER: OnceLock<Option<ZkPeer>> = OnceLock::new();
        tools::once(&PEER, "the tests against Apache ZooKeeper", ZkPeer::build)
    }

    fn build() -> ZkPeer {
        let jdk = zookeeper_jdk();
        let (work, classpath) =
            driver_classpath(&jdk, "zookeeper", "the jute driver against ZooKeeper 3.9.5");
        let runs = work.join("runs");
        fs::create_dir_all(&runs).expect("the runs directory");
        ZkPeer {
            jdk,
            classpath,
            runs,
        }
    }

    /// The JDK ZooKeeper runs on.
    pub fn jdk(&self) -> &Jdk {
        &self.jdk
    }

    /// `java -cp <ZooKeeper> CLASS ARGS…` with the tools' logging quiet; its standard output.
    pub fn tool(&self, class: &str, args: &[&str]) -> String {
        let out = run(self
            .jdk
            .command(&self.classpath)
            .arg("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
            .arg("-Duser.timezone=UTC")
            .arg(class)
            .args(args));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs `batch` in one JVM (the request stays in
    /// `<target>/interop/zookeeper/runs/<name>.req`).
    pub fn run(&self, name: &str, batch: &JuteBatch) -> Vec<JuteAnswer> {
        let mut driver = self.jdk.command(&self.classpath);
        driver.arg("hadooprecord.zookeeper.JuteDriver");
        let response = run_batch(&mut driver, &self.runs, name, batch.0.bytes());
        batch
            .answers(&response)
            .unwrap_or_else(|e| panic!("the jute driver's answer to {name}: {e}"))
    }

    /// Starts a standalone server on a free loopback port with its data in `data_dir`
    /// (`extra`: more `-D` settings); returns once it accepts connections.
    pub fn start_server(&self, data_dir: &Path, extra: &[&str]) -> ZkServer {
        fs::create_dir_all(data_dir).expect("the server's data directory");
        let port = free_port();
        let log = data_dir.with_extension("log");
        let mut child = self
            .jdk
            .command(&self.classpath)
            .args([
                "-Dzookeeper.admin.enableServer=false",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            ])
            .args(extra)
            .arg("org.apache.zookeeper.server.ZooKeeperServerMain")
            .arg(port.to_string())
            .arg(data_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).expect("the server's log file"))
            .spawn()
            .expect("starting ZooKeeper");
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let started = Instant::now();
        loop {
            if serving(addr) {
                break;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "ZooKeeper exited ({status}) before it listened:\n{}",
                    fs::read_to_string(&log).unwrap_or_default()
                );
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("ZooKeeper did not listen on {addr} within a minute");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        say(&format!(
            "ZooKeeper 3.9.5 is serving {} on {addr} (JDK {})",
            data_dir.display(),
            self.jdk.feature
        ));
        ZkServer {
            child,
            addr,
            data_dir: data_dir.to_path_buf(),
        }
    }
}

/// Whether the server at `addr` serves requests: its `srvr` four-letter command (the one
/// ZooKeeper enables by default) answers with its version once it does, and a listening port
/// alone does not mean that.
fn serving(addr: SocketAddr) -> bool {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut answer = String::new();
    stream.write_all(b"srvr").is_ok()
        && stream.read_to_string(&mut answer).is_ok()
        && answer.contains("Zookeeper version")
}

/// A port nobody listens on now (the kernel's choice).
fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A running server: stopped (its process killed and waited for) on drop or by
/// [`ZkServer::stop`].
pub struct ZkServer {
    child: Child,
    addr: SocketAddr,
    data_dir: PathBuf,
}

impl ZkServer {
    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its `version-2` directory, where the logs and snapshots are.
    pub fn version_dir(&self) -> PathBuf {
        self.data_dir.join("version-2")
    }

    /// Stops the server.
    pub fn stop(mut self) {
        self.kill();
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ZkServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Bytes the driver wrote, or what its reader threw.
pub type Written = Result<Vec<u8>, String>;

/// The answer to one operation of a [`JuteBatch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JuteAnswer {
    /// To [`JuteBatch::round_trip`]: unread bytes and what Java wrote back, or the error.
    RoundTrip(Result<(u32, Vec<u8>), String>),
    /// To [`JuteBatch::signature`].
    Signature(String),
    /// To [`JuteBatch::generate`]: each record as Java wrote it.
    Generated(Vec<Vec<u8>>),
    /// To [`JuteBatch::string`]: what `readString` then `writeString` gave.
    String(Written),
}

#[derive(Debug, Clone, Copy)]
enum Op {
    RoundTrip,
    Signature,
    Generate(u32),
    String,
}

/// Operations for one run of the jute driver (none by default; `JuteDriver.java` documents
/// the protocol).
pub struct JuteBatch(Request<Op>);

impl Default for JuteBatch {
    fn default() -> Self {
        JuteBatch(Request::new(b"ZKJT", Some(1)))
    }
}

impl JuteBatch {
    /// Java reads one record of `class` from `bytes` and writes it back.
    pub fn round_trip(&mut self, class: &str, bytes: &[u8]) {
        self.0.op(1, Op::RoundTrip);
        self.0.blob(class.as_bytes());
        self.0.blob(bytes);
    }

    /// `class.signature()`.
    pub fn signature(&mut self, class: &str) {
        self.0.op(2, Op::Signature);
        self.0.blob(class.as_bytes());
    }

    /// `count` random records of `class`, seeded with `seed`.
    pub fn generate(&mut self, class: &str, seed: u64, count: u32) {
        self.0.op(3, Op::Generate(count));
        self.0.blob(class.as_bytes());
        self.0.put(&seed.to_be_bytes());
        self.0.put(&count.to_be_bytes());
    }

    /// Java's `readString` of `bytes` (the string's bytes, without the length), written back
    /// with `writeString`.
    pub fn string(&mut self, bytes: &[u8]) {
        self.0.op(4, Op::String);
        self.0.blob(bytes);
    }

    fn answers(&self, response: &[u8]) -> Result<Vec<JuteAnswer>, String> {
        self.0.answers(response, |r, op| {
            Ok(match op {
                Op::RoundTrip => {
                    JuteAnswer::RoundTrip(r.or_error(|r| Ok((r.int()? as u32, r.blob()?)))?)
                }
                Op::Signature => JuteAnswer::Signature(r.string()?),
                Op::Generate(n) => {
                    JuteAnswer::Generated((0..*n).map(|_| r.blob()).collect::<Result<_, _>>()?)
                }
                Op::String => JuteAnswer::String(r.or_error(|r| r.blob())?),
            })
        })
    }
}
