//! Running `rcc cluster` and `rcc sql` for the cluster's tests (`cluster.rs`, `storage.rs`):
//! child processes killed and waited for when their guards drop, also when an assertion
//! fails. The processes are the companions themselves (`rcc-cluster`, `rcc-sql`), which
//! `rcc` runs (`cli/tests/cli.rs`).

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::web::Work;
use super::{stderr, stdout, RCC_CLUSTER, RCC_SQL};

/// How long anything may take before the test gives up (not a timing assertion: a guard
/// against hanging).
pub const PATIENCE: Duration = Duration::from_secs(90);

/// What `found` finds, asked again every `pause` until it finds something; past
/// [`PATIENCE`] the test fails with `what` (what was not seen).
pub fn wait_for<T>(what: &str, pause: Duration, mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(found) = found() {
            return found;
        }
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(pause);
    }
}

/// A free loopback port: bound, then released for the child to take.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child `rcc-cluster` process, killed and waited for when dropped; its standard error collected
/// line by line.
pub struct Process {
    pub name: String,
    pub child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    new_line: Receiver<String>,
}

impl Process {
    pub fn start<S: AsRef<std::ffi::OsStr>>(name: &str, args: &[S]) -> Process {
        let mut child = Command::new(RCC_CLUSTER)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rcc starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (send, new_line) = channel();
        let err = child.stderr.take().unwrap();
        let collected = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                collected.lock().unwrap().push(line.clone());
                let _ = send.send(line);
            }
        });
        Process {
            name: name.to_owned(),
            child,
            lines,
            new_line,
        }
    }

    /// Waits for a line of standard error that `want` accepts; panics with what was
    /// written if the process ends or [`PATIENCE`] runs out first.
    pub fn wait_for(&mut self, want: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self
                .new_line
                .recv_timeout(left.min(Duration::from_millis(200)))
            {
                Ok(line) if want(&line) => return line,
                Ok(_) => {}
                Err(_) if Instant::now() >= deadline => {
                    panic!("{}: gave up waiting:\n{}", self.name, self.stderr())
                }
                Err(_) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        // The reader thread may still hold the last lines.
                        std::thread::sleep(Duration::from_millis(100));
                        while let Ok(line) = self.new_line.try_recv() {
                            if want(&line) {
                                return line;
                            }
                        }
                        panic!("{} ended ({status}):\n{}", self.name, self.stderr());
                    }
                }
            }
        }
    }

    pub fn stderr(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    /// The task lines written so far.
    pub fn tasks(&self) -> Vec<String> {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.starts_with("task "))
            .cloned()
            .collect()
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A scheduler and its executors (two, unless sized) on fresh loopback ports.
pub struct Cluster {
    pub url: String,
    // Executors first: dropped (killed) before the scheduler.
    pub executors: Vec<Process>,
    pub scheduler: Process,
}

impl Cluster {
    /// `scheduler_args` and `executor_args` are added to the processes' command lines.
    pub fn start(scheduler_args: &[&str], executor_extra: &[&str]) -> Cluster {
        Cluster::start_sized(2, 2, scheduler_args, executor_extra)
    }

    /// A scheduler and `executors` executors of `slots` task slots each.
    pub fn start_sized(
        executors: usize,
        slots: usize,
        scheduler_args: &[&str],
        executor_extra: &[&str],
    ) -> Cluster {
        let port = free_port().to_string();
        let mut args = vec![
            "scheduler",
            "--bind-host",
            "127.0.0.1",
            "--bind-port",
            &port,
        ];
        args.extend_from_slice(scheduler_args);
        let mut scheduler = Process::start("scheduler", &args);
        scheduler.wait_for(|l| l.contains("listening on 127.0.0.1:"));
        let mut started = Vec::new();
        for i in 0..executors {
            let mut args = executor_args(&port);
            args.extend(["--concurrent-tasks".to_owned(), slots.to_string()]);
            args.extend(executor_extra.iter().map(|a| a.to_string()));
            let mut executor = Process::start(&format!("executor {i}"), &args);
            executor.wait_for(|l| l.contains("listening on"));
            started.push(executor);
        }
        Cluster {
            url: format!("df://127.0.0.1:{port}"),
            executors: started,
            scheduler,
        }
    }
}

impl Cluster {
    /// A cluster whose scheduler declares an executor lost 5 s after its heartbeats
    /// (one a second) stop; Ballista's default is 180 s.
    pub fn start_quick_to_lose() -> Cluster {
        Cluster::start_quick_to_lose_with(&[])
    }

    /// [`Cluster::start_quick_to_lose`], every process also given `extra` (`--s3-endpoint`).
    pub fn start_quick_to_lose_with(extra: &[&str]) -> Cluster {
        let scheduler = [
            "--executor-timeout-seconds",
            "5",
            "--expire-dead-executor-interval-seconds",
            "1",
        ];
        let executor = ["--executor-heartbeat-interval-seconds", "1"];
        Cluster::start(&[&scheduler, extra].concat(), &[&executor, extra].concat())
    }

    /// Kills the first executor seen to have written a part file (waiting for one), and
    /// answers its index.
    pub fn kill_first_writer(&mut self) -> usize {
        let victim = wait_for("no part written", Duration::from_millis(5), || {
            self.executors
                .iter()
                .position(|e| e.stderr().contains(" wrote file://"))
        });
        self.executors[victim].kill();
        victim
    }
}

/// How the job of `out` ended, for a test's log: `succeeded` or `failed`.
pub fn outcome(out: &Output) -> &'static str {
    if out.status.success() {
        "succeeded"
    } else {
        "failed"
    }
}

/// `rcc cluster executor` for the scheduler on loopback port `scheduler_port`, on fresh
/// loopback ports.
pub fn executor_args(scheduler_port: &str) -> Vec<String> {
    let (flight, grpc) = (free_port().to_string(), free_port().to_string());
    [
        "executor",
        "--scheduler-host",
        "127.0.0.1",
        "--scheduler-port",
        scheduler_port,
        "--bind-host",
        "127.0.0.1",
        "--bind-port",
        &flight,
        "--bind-grpc-port",
        &grpc,
    ]
    .map(String::from)
    .to_vec()
}

/// Runs `command` to the end, killing it if it outlives [`PATIENCE`].
pub fn run(mut command: Command) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rcc runs");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// `rcc sql` on `work`'s records, locally or (`cluster`) on a cluster.
pub fn sql(work: &Work, cluster: Option<&str>, args: &[&str]) -> Output {
    sql_in(&work.dir, cluster, args)
}

/// `rcc sql` on the `web.Hit` records of `dir`.
pub fn sql_in(dir: &Path, cluster: Option<&str>, args: &[&str]) -> Output {
    let ddl = dir.join("web.jr");
    let mut command = Command::new(RCC_SQL);
    command
        .current_dir(dir)
        .args(["--schema", ddl.to_str().unwrap(), "--type", "web.Hit"]);
    if let Some(url) = cluster {
        command.args(["--cluster", url]);
    }
    command.args(args);
    run(command)
}

/// The same query locally and on the cluster: both succeed with the same output.
pub fn same_answer(work: &Work, url: &str, args: &[&str]) -> String {
    let local = sql(work, None, args);
    assert!(local.status.success(), "local {args:?}: {}", stderr(&local));
    let remote = sql(work, Some(url), args);
    assert!(
        remote.status.success(),
        "cluster {args:?}: {}",
        stderr(&remote)
    );
    assert_eq!(stdout(&remote), stdout(&local), "{args:?}");
    assert_eq!(stderr(&remote), "", "{args:?}");
    stdout(&local)
}

pub fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
