//! `rcc sql` over a Paddle file in HDFS (a MiniDFSCluster on loopback: NameNode and two
//! DataNodes in one JVM, replication 2, files in Hadoop's default 128 MiB blocks unless
//! their writer chooses), in one run:
//!
//! - **scan**: the file stored twice, in 1 MiB blocks (the tests' size) and in Hadoop's
//!   default 128 MiB, read by `rcc sql` against the same scan of the local file, and by a
//!   two-executor Ballista cluster over each HDFS copy, alternating;
//! - **write**: every record written back into HDFS as a Parquet dataset (`--to parquet -o
//!   hdfs://…/dir/`, two partitions) by a one-executor and by a two-executor cluster, one
//!   task slot per executor (each stands for a machine; this one has two cores), alternating.
//!
//! `cargo bench -p hadoop-record-sql-cli --bench hdfs` (`HDFS_BENCH_RECORDS`, default
//! 4,000,000; `HDFS_BENCH_WRITE_RECORDS`, default 16,000,000; `HDFS_BENCH_ROUNDS`, default
//! 7; `HDFS_BENCH_WARMUP`, the HDFS scans run first, untimed, default 10;
//! `HDFS_BENCH_PHASES`, default `scan,write`). Prints the
//! median wall time of each, and the CPU time (user + system) of the `rcc-sql` process for
//! the local and HDFS scans, of the executors and of HDFS's JVM for the writes. Not
//! criterion: each sample is a whole process, and the MiniDFSCluster is the harness's.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use fixture_harness::bench::env_or;
use interop_tests::hdfs::MiniHdfs;
use support::cluster::{run, Cluster};
use support::RCC_SQL;

const RCC_CONVERT: &str = env!("CARGO_BIN_EXE_rcc-convert");
/// Hadoop's default `dfs.blocksize`.
const DEFAULT_BLOCK_SIZE: u64 = 128 << 20;
const DDL: &str = "module hadooprecord.hdfs { class Hit { ustring url; long n; } }";
const QUERY: &str =
    "SELECT url, count(*) AS n, sum(n) AS total FROM records GROUP BY url ORDER BY url";

/// User + system CPU time of the children waited for so far.
fn children_cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// `rcc-sql` over the bench's Paddle files of hits in `dir`, in two partitions, `--to` `to`.
fn over_hits(dir: &Path, to: &str) -> Command {
    let mut command = Command::new(RCC_SQL);
    command
        .current_dir(dir)
        .args(["--schema", "hit.jr", "--type", "hadooprecord.hdfs.Hit"]);
    command.args(["--in-framing", "paddle", "--partitions", "2", "--to", to]);
    command
}

/// Runs `rcc-sql` over `files`; its output, wall and CPU time.
fn scan(dir: &Path, cluster: Option<&str>, files: &str) -> (String, Duration, Duration) {
    let mut command = over_hits(dir, "csv");
    if let Some(url) = cluster {
        command.args(["--cluster", url]);
    }
    let cpu = children_cpu();
    let started = Instant::now();
    command.args([QUERY, files]);
    let out = run(command);
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        wall,
        children_cpu() - cpu,
    )
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // Files whose writer does not choose come in Hadoop's default blocks, as in a cluster in
    // service (the test binaries' cluster has 1 MiB): the datasets the write phase writes.
    let Some(hdfs) = MiniHdfs::start_with_block_size(DEFAULT_BLOCK_SIZE) else {
        return;
    };
    let hdfs = &hdfs;
    let records = env_or("HDFS_BENCH_RECORDS", 4_000_000u64);
    let rounds = env_or("HDFS_BENCH_ROUNDS", 7u64) as usize;
    let dir = interop_tests::tools::work_dir().join("hdfs-bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hit.jr"), DDL).unwrap();
    let paddle = paddle_file(&dir, records);
    let size = std::fs::metadata(&paddle).unwrap().len();
    // The file twice: in the test cluster's 1 MiB blocks (46 for the default records), and
    // in Hadoop's default 128 MiB blocks, which clusters in service mostly keep.
    let mut copies = vec![];
    for (path, block_size) in [
        ("/bench/hits.paddle", 1 << 20),
        ("/bench/hits-128m.paddle", DEFAULT_BLOCK_SIZE),
    ] {
        let blocks = hdfs.put(&paddle, path, Some(block_size));
        let label = format!("{} MiB blocks", block_size >> 20);
        println!("{label}: {blocks} blocks");
        copies.push((label, hdfs.url_of(path)));
    }
    let local = paddle.to_str().unwrap();
    let phases = std::env::var("HDFS_BENCH_PHASES").unwrap_or_else(|_| "scan,write".into());
    let phases: Vec<&str> = phases.split(',').collect();
    if phases.contains(&"scan") {
        scan_phase(&dir, local, &copies, size, rounds);
    }
    if phases.contains(&"write") {
        // A cluster's job: large enough that its fixed costs (planning, scheduling, the
        // commit's renames) do not hide how the writing scales.
        let records = env_or("HDFS_BENCH_WRITE_RECORDS", 16_000_000u64);
        let paddle = paddle_file(&dir, records);
        let size = std::fs::metadata(&paddle).unwrap().len();
        let path = format!("/bench/write-{records}.paddle");
        hdfs.put(&paddle, &path, Some(DEFAULT_BLOCK_SIZE));
        write_phase(hdfs, &dir, &hdfs.url_of(&path), records, size, rounds);
    }
}

/// The bench's Paddle file of `records` records in `dir`, made once with `rcc convert`.
fn paddle_file(dir: &Path, records: u64) -> std::path::PathBuf {
    let paddle = dir.join(format!("hits-{records}.paddle"));
    if !paddle.exists() {
        let mut csv = std::io::BufWriter::new(std::fs::File::create(dir.join("hits.csv")).unwrap());
        for i in 0..records {
            writeln!(csv, "'u{},{i}", i % 97).unwrap();
        }
        csv.into_inner().unwrap();
        let status = Command::new(RCC_CONVERT)
            .current_dir(dir)
            .args([
                "--schema",
                "hit.jr",
                "--type",
                "hadooprecord.hdfs.Hit",
                "--from",
                "csv",
            ])
            .args(["--to", "binary", "--out-framing", "paddle", "hits.csv"])
            .arg(&paddle)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::remove_file(dir.join("hits.csv")).unwrap();
    }
    paddle
}

/// `rcc sql` and a two-executor cluster over the HDFS copies, against the local file.
fn scan_phase(dir: &Path, local: &str, copies: &[(String, String)], size: u64, rounds: usize) {
    let records = env_or("HDFS_BENCH_RECORDS", 4_000_000u64);
    let cluster = Cluster::start(&[], &[]);
    // Each case: its name, whether it runs on the cluster, the files.
    let mut cases: Vec<(String, bool, &str)> = vec![("local file, rcc sql".into(), false, local)];
    for (label, url) in copies {
        cases.push((format!("hdfs://, {label}, rcc sql"), false, url));
        cases.push((format!("hdfs://, {label}, 2-executor cluster"), true, url));
    }

    let (expected, _, _) = scan(dir, None, local);
    // A DataNode in service has compiled its hot paths: the MiniDFSCluster's JVM, just
    // started, is given the time to (its JIT otherwise shares the cores with the scans).
    let warm_up = env_or("HDFS_BENCH_WARMUP", 10u64);
    for _ in 0..warm_up {
        for (_, url) in copies {
            assert_eq!(scan(dir, None, url).0, expected);
        }
    }
    let mut times = vec![(vec![], vec![]); cases.len()];
    for _ in 0..rounds {
        for ((_, on_cluster, files), (walls, cpus)) in cases.iter().zip(&mut times) {
            let url = on_cluster.then_some(cluster.url.as_str());
            let (out, wall, cpu) = scan(dir, url, files);
            assert_eq!(out, expected);
            walls.push(wall);
            cpus.push(cpu);
        }
    }
    drop(cluster);
    let mb = size as f64 / 1e6;
    println!("{records} records, {mb:.1} MB Paddle file; median of {rounds}");
    println!("| scan | wall | MB/s | rcc-sql CPU | vs local |");
    println!("| --- | --- | --- | --- | --- |");
    let medians: Vec<_> = times
        .into_iter()
        .map(|(walls, cpus)| (median(walls), median(cpus)))
        .collect();
    let local_wall = medians[0].0;
    for ((name, on_cluster, _), (wall, cpu)) in cases.iter().zip(medians) {
        // A cluster's scan runs in its executors, not in the `rcc-sql` process.
        let cpu = if *on_cluster {
            "—".into()
        } else {
            format!("{:.2} s", cpu.as_secs_f64())
        };
        println!(
            "| {name} | {:.2} s | {:.0} | {cpu} | {:.2}× |",
            wall.as_secs_f64(),
            mb / wall.as_secs_f64(),
            local_wall.as_secs_f64() / wall.as_secs_f64()
        );
    }
}

/// Every record of `input` written into HDFS as a Parquet dataset by a one-executor and a
/// two-executor cluster of one task slot per executor.
fn write_phase(hdfs: &MiniHdfs, dir: &Path, input: &str, records: u64, size: u64, rounds: usize) {
    const TARGET: &str = "/bench/written";
    let one = Cluster::start_sized(1, 1, &[], &[]);
    let two = Cluster::start_sized(2, 1, &[], &[]);
    let clusters = [("1 executor", &one), ("2 executors", &two)];
    let target = format!("{}/", hdfs.url_of(TARGET));
    // Per cluster and run: wall time, then the CPU time of the machine, of the executors and
    // of HDFS's JVM.
    let mut samples = vec![vec![]; clusters.len()];
    // Round 0 warms up, untimed.
    for round in 0..=rounds {
        for ((_, cluster), samples) in clusters.iter().zip(&mut samples) {
            let mut command = over_hits(dir, "parquet");
            command.args([
                "--overwrite",
                "--cluster",
                &cluster.url,
                "-o",
                &target,
                "SELECT * FROM records",
                input,
            ]);
            let executors = || -> Duration {
                let pids = cluster.executors.iter().map(|e| e.child.id());
                pids.map(process_cpu).sum()
            };
            let cpu = || [machine_cpu(), executors(), process_cpu(hdfs.pid())];
            let (started, before) = (Instant::now(), cpu());
            let out = run(command);
            let (wall, after) = (started.elapsed(), cpu());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let written = hdfs.list(TARGET);
            let parts = written
                .iter()
                .filter(|(name, _)| name.ends_with(".parquet"))
                .count();
            assert!(
                parts == 2 && written.iter().any(|(name, _)| name.ends_with("_SUCCESS")),
                "the dataset: {written:?}"
            );
            if round > 0 {
                let [machine, executors, jvm] = [0, 1, 2].map(|i| after[i] - before[i]);
                samples.push([wall, machine, executors, jvm]);
            }
        }
    }
    for executor in &two.executors {
        assert!(
            executor.stderr().contains(" wrote "),
            "both executors write part files:\n{}",
            executor.stderr()
        );
    }
    let names = clusters.map(|(name, _)| name);
    drop((one, two));
    let mb = size as f64 / 1e6;
    println!();
    println!(
        "{records} records ({mb:.1} MB Paddle in 128 MiB blocks) written into HDFS as \
         Parquet, 2 partitions, one task slot per executor; median of {rounds}"
    );
    println!("| cluster | wall | MB/s | speed-up | CPU: executors | HDFS | machine (cores busy) |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let medians: Vec<[Duration; 4]> = samples
        .into_iter()
        .map(|runs| [0, 1, 2, 3].map(|i| median(runs.iter().map(|run| run[i]).collect())))
        .collect();
    for (name, [wall, machine, executors, jvm]) in names.iter().zip(&medians) {
        let secs = |d: &Duration| d.as_secs_f64();
        println!(
            "| {name} | {:.2} s | {:.0} | {:.2}× | {:.2} s | {:.2} s | {:.2} s ({:.1}) |",
            secs(wall),
            mb / secs(wall),
            secs(&medians[0][0]) / secs(wall),
            secs(executors),
            secs(jvm),
            secs(machine),
            secs(machine) / secs(wall)
        );
    }
    // Two executors and HDFS share two cores: the job cannot end before their CPU time, spread
    // over both, is spent.
    let [_, _, executors, jvm] = medians[1];
    let floor = (executors + jvm).as_secs_f64() / 2.0;
    println!(
        "On two cores, two executors need at least {floor:.2} s: at most {:.2}× one executor.",
        medians[0][0].as_secs_f64() / floor
    );
}

/// The CPU time (user + system) process `pid` has spent so far, from `/proc/PID/stat`;
/// zero once it is gone.
fn process_cpu(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name, which ends with the last `)`: utime and stime
    // are the 12th and 13th.
    let fields = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = fields
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    ticks_to_duration(ticks)
}

/// The CPU time the whole machine has spent busy (every process, HDFS's JVM too), from
/// `/proc/stat`: what bounds a cluster that shares its cores with the store.
fn machine_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
    let busy: u64 = ticks
        .iter()
        .take(8)
        .enumerate()
        .filter(|(i, _)| *i != 3 && *i != 4)
        .map(|(_, t)| t)
        .sum();
    ticks_to_duration(busy)
}

/// Clock ticks (`/proc`'s unit of CPU time) as a duration.
fn ticks_to_duration(ticks: u64) -> Duration {
    // SAFETY: sysconf only reads a constant of the system.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_micros(ticks * 1_000_000 / hz)
}
