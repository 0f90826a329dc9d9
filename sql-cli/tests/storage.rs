//! Records where Hadoop keeps them, against the real stores started here:
//!
//! - HDFS: Hadoop 3.4.2's `MiniDFSCluster` (a NameNode and two DataNodes in one JVM on
//!   loopback ports, 1 MiB blocks, replication 2; `interop_tests::hdfs`). SequenceFiles
//!   written there by Hadoop's own `SequenceFile.Writer` are queried by `rcc sql` from
//!   `hdfs://` URLs (directory, glob) with the answer of the same files copied to local disk
//!   and of the records' generator; files `rcc` writes there are read back by Hadoop's
//!   `SequenceFile.Reader`; a failed write leaves no file; a two-executor cluster started
//!   here reads them with no shared file system; a DataNode stopped in the middle of a read
//!   is survived through the other replica.
//! - S3: moto's server mode (pinned, in a virtual environment under the target directory)
//!   with `AWS_ENDPOINT_URL` pointing at it: writes, lists, globs and ranged reads.
//! - HDFS name services from `HADOOP_CONF_DIR`'s `hdfs-site.xml`; a write killed half way
//!   leaves no file under its name.
//! - Faults: a NameNode or S3 endpoint that accepts connections and never answers fails
//!   naming its URL; a missing file names its URL.
//! - Datasets (`-o hdfs://…/DIR/`, `-o s3://…/DIR/`), flat and Hive-partitioned, written by
//!   local threads and by a two-executor cluster straight into the stores, read back by
//!   pyarrow and DuckDB; a non-empty target refused; a damaged record leaves nothing
//!   visible and no pending multipart upload; an executor killed while it uploads to S3
//!   leaves no pending multipart upload either, nor does an earlier job's killed client
//!   (the job aborts them).
//! - The user guide (`docs/guide/`): every command of every chapter prints what the chapter
//!   shows, those of "HDFS and S3" against the stores started here.
//! - `--help` says how stores are configured (`HADOOP_CONF_DIR`, `AWS_*`, `--s3-endpoint`).
//!
//! `HADOOP_RECORD_SKIP_PEERS=1` skips the tests that need Java or Python (not the faults').

#[path = "support/guide.rs"]
mod guide;
mod support;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{OnceLock, RwLock};
use std::time::{Duration, Instant};

use fixture_harness::peers::{moto_python, target_dir, MotoServer};
use interop_tests::hdfs::MiniHdfs;
use support::cluster::{outcome, run, wait_for, Cluster, PATIENCE};
use support::{
    assert_stderr_contains, csv_query, delta_version_csv, first_row, ok, stderr, stdout, words,
};

/// The records Hadoop's driver writes: `Hit { ustring url; long n; }`, url `u{i % 97}`,
/// n = i.
const HIT_DDL: &str = "module hadooprecord.hdfs { class Hit { ustring url; long n; } }";
const BY_URL: &str =
    "SELECT url, count(*) AS n, sum(n) AS total FROM records GROUP BY url ORDER BY url";

/// The answer of [`BY_URL`] over files of `counts` records each, computed from the
/// generator.
fn by_url(counts: &[u64]) -> String {
    let mut rows = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for &count in counts {
        for i in 0..count {
            let row = rows.entry(format!("u{}", i % 97)).or_default();
            row.0 += 1;
            row.1 += i;
        }
    }
    let mut csv = String::from("url,n,total\n");
    for (url, (n, total)) in rows {
        csv.push_str(&format!("{url},{n},{total}\n"));
    }
    csv
}

/// Tests read under a read lock; the one that stops a DataNode takes the write lock.
static DATANODES: RwLock<()> = RwLock::new(());

/// `seq/plain.seq` with 64 bytes in its middle damaged, put in HDFS as `dir_in_hdfs` +
/// `plain.seq` (a copy in `dir`): a job over it fails at a record. The directory's URL.
fn damaged_in_hdfs(hdfs: &MiniHdfs, local: &Path, dir: &Path, dir_in_hdfs: &str) -> String {
    let mut bytes = std::fs::read(local.join("seq/plain.seq")).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x55;
    }
    std::fs::write(dir.join("damaged.seq"), &bytes).unwrap();
    hdfs.put(
        &dir.join("damaged.seq"),
        &format!("{dir_in_hdfs}plain.seq"),
        None,
    );
    hdfs.url_of(dir_in_hdfs)
}

/// A folder for a test's local files, with the DDL.
fn work(name: &str) -> PathBuf {
    let dir = target_dir().join("storage-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hit.jr"), HIT_DDL).unwrap();
    dir
}

/// Record counts of the SequenceFiles Hadoop writes into `/seq` (once per binary): an
/// uncompressed one of four 1 MiB blocks, and a block-compressed one.
const SEQ_FILES: [(&str, u64, &str); 2] = [
    ("plain.seq", 150_000, "none"),
    ("block.seq", 200_000, "block"),
];

/// The cluster with Hadoop's SequenceFiles in `/seq`, and a local copy of them.
fn hdfs_with_files() -> Option<(&'static MiniHdfs, &'static Path)> {
    static LOCAL: OnceLock<PathBuf> = OnceLock::new();
    let hdfs = MiniHdfs::get()?;
    let local = LOCAL.get_or_init(|| {
        let dir = work("hadoop-wrote");
        std::fs::create_dir_all(dir.join("seq")).unwrap();
        for (name, count, codec) in SEQ_FILES {
            hdfs.command(&format!("seqwrite /seq/{name} {count} {codec}"));
            let copy = dir.join("seq").join(name);
            hdfs.command(&format!("get /seq/{name} {}", copy.display()));
        }
        dir
    });
    Some((hdfs, local))
}

/// `rcc COMMAND` over `Hit` records (`hit.jr` in the working folder), then `args`.
fn hit<'a>(command: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let hit = ["--schema", "hit.jr", "--type", "hadooprecord.hdfs.Hit"];
    [&[command][..], &hit, args].concat()
}

/// `rcc frame --from FROM --to TO` and `args` (options, then input and output).
fn frame<'a>(from: &'a str, to: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    [&["frame", "--from", from, "--to", to][..], args].concat()
}

/// `rcc sql` over `Hit` records (`hit.jr` in `dir`), on a cluster if `cluster`.
fn sql(dir: &Path, cluster: Option<&str>, args: &[&str]) -> Output {
    let cluster = cluster.map_or(vec![], |url| vec!["--cluster", url]);
    rcc(dir, &[], &hit("sql", &[&cluster[..], args].concat()))
}

/// `rcc args` in `dir` with `env` set.
fn rcc(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new(support::rcc());
    command
        .current_dir(dir)
        .args(args)
        .envs(env.iter().copied());
    run(command)
}

#[test]
fn sequence_files_hadoop_wrote_to_hdfs_answer_as_their_local_copies() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, local)) = hdfs_with_files() else {
        return;
    };
    let expected = by_url(&SEQ_FILES.map(|(_, n, _)| n));
    let dir = work("hdfs-sql");
    let local_files = local.join("seq").display().to_string();
    for files in [hdfs.url_of("/seq/"), hdfs.url_of("/seq/*.seq"), local_files] {
        let args = csv_query("seqfile", Some("4"), BY_URL, &[&files]);
        assert_eq!(ok(sql(&dir, None, &args)), expected, "{files}");
    }
    // One multi-block file alone, by one thread and by four (ranges split at sync entries,
    // each fetched alone).
    for partitions in ["1", "4"] {
        let out = sql(
            &dir,
            None,
            &csv_query(
                "seqfile",
                Some(partitions),
                "SELECT count(*) AS n, sum(n) AS total, count(DISTINCT n) AS distinct_n FROM records",
                &[&hdfs.url_of("/seq/plain.seq")],
            ),
        );
        assert_eq!(ok(&out), "n,total,distinct_n\n150000,11249925000,150000\n");
    }
}

#[test]
fn hdfs_name_services_come_from_hadoop_conf_dir() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, _)) = hdfs_with_files() else {
        return;
    };
    let dir = work("hdfs-name-service");
    // A name service `records` whose one NameNode is the MiniDFSCluster's, as an
    // operator's hdfs-site.xml says it (an HA pair lists two).
    let address = hdfs.url().trim_start_matches("hdfs://");
    let conf = dir.join("conf");
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::write(
        conf.join("core-site.xml"),
        "<configuration></configuration>\n",
    )
    .unwrap();
    std::fs::write(
        conf.join("hdfs-site.xml"),
        format!(
            "<configuration>\n\
             <property><name>dfs.nameservices</name><value>records</value></property>\n\
             <property><name>dfs.ha.namenodes.records</name><value>nn1</value></property>\n\
             <property><name>dfs.namenode.rpc-address.records.nn1</name>\
             <value>{address}</value></property>\n\
             </configuration>\n"
        ),
    )
    .unwrap();
    let env = [("HADOOP_CONF_DIR", conf.to_str().unwrap())];
    let out = rcc(
        &dir,
        &env,
        &hit(
            "sql",
            &csv_query("seqfile", None, BY_URL, &["hdfs://records/seq/plain.seq"]),
        ),
    );
    assert_eq!(ok(&out), by_url(&[150_000]));
    let info = ok(rcc(
        &dir,
        &env,
        &[
            "frame",
            "info",
            "--from",
            "seqfile",
            "hdfs://records/seq/block.seq",
        ],
    ));
    assert!(info.contains("200000 records"), "{info}");
}

#[test]
fn rcc_writes_whole_files_to_hdfs_that_hadoop_reads() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, _)) = hdfs_with_files() else {
        return;
    };
    let dir = work("hdfs-write");
    // SequenceFile to SequenceFile, HDFS to HDFS: Hadoop's reader gets every record.
    let copy = hdfs.url_of("/out/copy.seq");
    ok(rcc(
        &dir,
        &[],
        &frame(
            "seqfile",
            "seqfile",
            &[
                "--seqfile-compression",
                "block",
                &hdfs.url_of("/seq/plain.seq"),
                &copy,
            ],
        ),
    ));
    let read = hdfs.command("seqread /out/copy.seq");
    let mut words = read.split(' ');
    assert_eq!(words.next(), Some("150000"));
    assert_eq!(words.next(), Some("11249925000"));
    assert!(
        words.next().unwrap().starts_with("u0=1547,u1=1547,"),
        "{read}"
    );
    let info = ok(rcc(
        &dir,
        &[],
        &["frame", "info", "--from", "seqfile", &copy],
    ));
    assert!(info.contains("150000 records"), "{info}");
    assert!(
        info.contains("value class: hadooprecord.hdfs.Hit"),
        "{info}"
    );

    // Records to a Paddle file in HDFS, queried there.
    let paddle = hdfs.url_of("/out/hits.paddle");
    ok(rcc(
        &dir,
        &[],
        &hit(
            "convert",
            &[
                "--from",
                "binary",
                "--to",
                "binary",
                "--in-framing",
                "seqfile",
                "--out-framing",
                "paddle",
                &hdfs.url_of("/seq/block.seq"),
                &paddle,
            ],
        ),
    ));
    let out = sql(
        &dir,
        None,
        &["--in-framing", "paddle", "--to", "csv", BY_URL, &paddle],
    );
    assert_eq!(ok(&out), by_url(&[200_000]));

    // A conversion that fails half way (damaged input) leaves no file under any name.
    let local = dir.join("hits.paddle");
    ok(rcc(
        &dir,
        &[],
        &frame("paddle", "paddle", &[&paddle, local.to_str().unwrap()]),
    ));
    let bytes = std::fs::read(&local).unwrap();

    // A write killed half way (SIGKILL: no clean-up at all) leaves no file under its name,
    // only Hadoop's kind of leftover: a hidden temporary file.
    let mut command = Command::new(support::rcc());
    command
        .current_dir(&dir)
        .args(["frame", "--from", "paddle", "--to", "paddle", "-"])
        .arg(hdfs.url_of("/killed/hits.paddle"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut input, &bytes[..bytes.len() / 2]).unwrap();
    let below = |dir: &str| {
        hdfs.list("/")
            .into_iter()
            .filter(|(name, _)| name.starts_with(dir))
            .collect::<Vec<_>>()
    };
    wait_for(
        "rcc wrote nothing to HDFS",
        Duration::from_millis(100),
        || (!below("/killed/").is_empty()).then_some(()),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    drop(input);
    let left = below("/killed/");
    assert!(
        left.iter().all(|(name, _)| name.starts_with("/killed/.")),
        "{left:?}"
    );

    std::fs::write(&local, &bytes[..bytes.len() / 2]).unwrap();
    let out = rcc(
        &dir,
        &[],
        &frame(
            "paddle",
            "mesos",
            &[local.to_str().unwrap(), &hdfs.url_of("/failed/hits.mesos")],
        ),
    );
    assert!(!out.status.success());
    assert_stderr_contains(&out, "damaged paddle input");
    assert_eq!(hdfs.list("/failed"), vec![], "nothing under /failed");

    // A missing file is named by its URL.
    let missing = hdfs.url_of("/seq/missing.seq");
    let out = rcc(&dir, &[], &["frame", "info", "--from", "seqfile", &missing]);
    assert!(!out.status.success());
    assert_stderr_contains(&out, &format!("cannot read {missing}"));
    let out = sql(
        &dir,
        None,
        &["--in-framing", "seqfile", "SELECT 1", &missing],
    );
    assert_stderr_contains(&out, &format!("{missing}: no such file"));
}

#[test]
fn a_two_executor_cluster_reads_hdfs_with_no_shared_file_system() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, local)) = hdfs_with_files() else {
        return;
    };
    // The executors' working folder holds no record file.
    let dir = work("hdfs-cluster");
    let cluster = Cluster::start(&[], &[]);
    let files = hdfs.url_of("/seq/");
    let remote = sql(
        &dir,
        Some(&cluster.url),
        &csv_query("seqfile", Some("4"), BY_URL, &[&files]),
    );
    assert_eq!(ok(&remote), by_url(&SEQ_FILES.map(|(_, n, _)| n)));
    let local_files = local.join("seq").display().to_string();
    let local_args = csv_query("seqfile", Some("4"), BY_URL, &[&local_files]);
    assert_eq!(ok(sql(&dir, None, &local_args)), stdout(&remote));
    // Both executors scanned byte ranges of the multi-block file.
    for executor in &cluster.executors {
        let tasks = executor.tasks();
        assert!(
            tasks.iter().any(|t| t.contains("/seq/plain.seq ")),
            "an executor read no range of the HDFS file: {tasks:?}"
        );
    }
}

#[test]
fn a_datanode_stopped_in_the_middle_of_a_read_is_survived() {
    let _alone = DATANODES.write().unwrap();
    let Some(hdfs) = MiniHdfs::get() else {
        return;
    };
    // 14 blocks, each on both DataNodes: rcc fetches 8 MiB, then waits on the pipe.
    let count = 600_000u64;
    hdfs.command(&format!("seqwrite /big/big.seq {count} none"));
    let dir = work("hdfs-datanode");
    let mut child = Command::new(support::rcc())
        .current_dir(&dir)
        .args(hit(
            "convert",
            &[
                "--from",
                "binary",
                "--to",
                "csv",
                "--in-framing",
                "seqfile",
                &hdfs.url_of("/big/big.seq"),
            ],
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = 0u64;
    let mut total = 0u64;
    let mut line = String::new();
    let mut read_line = |out: &mut std::io::BufReader<_>| {
        use std::io::BufRead;
        line.clear();
        let n = out.read_line(&mut line).unwrap();
        (n > 0).then(|| {
            line.trim_end()
                .rsplit(',')
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
    };
    for _ in 0..1000 {
        total += read_line(&mut out).expect("the first records");
        lines += 1;
    }
    hdfs.command("stopdn 0");
    while let Some(n) = read_line(&mut out) {
        total += n;
        lines += 1;
    }
    let status = wait(&mut child);
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    hdfs.command("restartdn");
    assert!(status.success(), "{err}");
    assert_eq!((lines, total), (count, count * (count - 1) / 2));
}

/// Waits for `child`, killing it after a minute and a half.
fn wait(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("rcc hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_help_says_how_stores_are_configured() {
    let dir = work("help");
    for command in ["sql", "frame", "convert"] {
        let help = ok(rcc(&dir, &[], &[command, "--help"]));
        for word in [
            "hdfs://NAMENODE:PORT/path",
            "s3://BUCKET/key",
            "HADOOP_CONF_DIR",
            "AWS_ACCESS_KEY_ID",
            "AWS_REGION",
            "AWS_ENDPOINT_URL",
            "--s3-endpoint <URL>",
        ] {
            assert!(
                help.contains(word),
                "rcc {command} --help lacks {word}:\n{help}"
            );
        }
        // Directories and globs are promised only where they are read (rcc sql).
        assert_eq!(
            help.contains("directories") && help.contains("globs"),
            command == "sql",
            "rcc {command} --help:\n{help}"
        );
    }
}

#[test]
fn stores_that_do_not_answer_fail_naming_their_url() {
    // A listener that never accepts: connections complete, requests get no answer.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let dir = work("silent");
    let namenode = format!("hdfs://127.0.0.1:{port}");
    let endpoint = format!("http://127.0.0.1:{port}");
    let s3 = [
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ACCESS_KEY_ID", "k"),
        ("AWS_SECRET_ACCESS_KEY", "s"),
    ];
    for (env, url) in [
        (&[][..], format!("{namenode}/logs/")),
        (&s3[..], "s3://logs/hits/".into()),
    ] {
        let started = Instant::now();
        let out = rcc(&dir, env, &hit("sql", &["SELECT 1", &url]));
        assert!(!out.status.success());
        let err = stderr(&out);
        let store = url.trim_end_matches("logs/hits/").trim_end_matches("logs/");
        assert!(err.contains(store.trim_end_matches('/')), "{url}: {err}");
        assert!(
            err.contains("no answer within 20 s")
                || err.contains("timed out")
                || err.contains("timeout"),
            "{url}: {err}"
        );
        // A guard against hanging, not a measurement: the deadline is 20 s.
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{url}: {:?}",
            started.elapsed()
        );
    }
    drop(silent);
}

#[test]
fn s3_reads_writes_lists_globs_and_ranges() {
    let Some(python) = moto_python() else {
        return;
    };
    let dir = work("s3");
    let moto = MotoServer::start(python, &dir.join("moto.log"));
    moto.create_bucket("logs");
    let env = moto.client_env();
    // Paddle files of Hit records written locally by rcc, then to S3 by rcc.
    let csv: String = (0..120_000u64)
        .map(|i| format!("'u{},{i}\n", i % 97))
        .collect();
    std::fs::write(dir.join("hits.csv"), &csv).unwrap();
    let convert = hit(
        "convert",
        &words("--from csv --to binary --out-framing paddle hits.csv"),
    );
    ok(rcc(&dir, &[], &[&convert[..], &["local.paddle"]].concat()));
    for name in ["a", "b"] {
        let url = format!("s3://logs/hits/{name}.paddle");
        ok(rcc(
            &dir,
            &env,
            &frame("paddle", "paddle", &["local.paddle", &url]),
        ));
    }
    // --s3-endpoint instead of AWS_ENDPOINT_URL.
    let flag = [("AWS_ACCESS_KEY_ID", "k"), ("AWS_SECRET_ACCESS_KEY", "s")];
    ok(rcc(
        &dir,
        &flag,
        &frame(
            "paddle",
            "paddle",
            &[
                "--s3-endpoint",
                &moto.endpoint,
                "local.paddle",
                "s3://logs/other/c.paddle",
            ],
        ),
    ));
    // A glob over a listing, each file read in four ranges.
    let query = hit("sql", &csv_query("paddle", Some("4"), BY_URL, &[]));
    let out = rcc(
        &dir,
        &env,
        &[&query[..], &["s3://logs/hits/*.paddle"]].concat(),
    );
    assert_eq!(ok(&out), by_url(&[120_000, 120_000]));
    std::fs::create_dir_all(dir.join("two")).unwrap();
    for name in ["two/a.paddle", "two/b.paddle"] {
        std::fs::copy(dir.join("local.paddle"), dir.join(name)).unwrap();
    }
    let out = rcc(&dir, &[], &[&query[..], &["two/"]].concat());
    assert_eq!(ok(&out), by_url(&[120_000, 120_000]));
    let out = rcc(
        &dir,
        &flag,
        &[
            &query[..],
            &["--s3-endpoint", &moto.endpoint, "s3://logs/other/"],
        ]
        .concat(),
    );
    assert_eq!(ok(&out), by_url(&[120_000]));
    // Ranged reads: moto answered 206 (Partial Content) to gets of the files.
    let log = std::fs::read_to_string(dir.join("moto.log")).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("GET /logs/hits/a.paddle") && l.contains(" 206 ")),
        "{log}"
    );
    // Read back from S3 byte for byte.
    ok(rcc(
        &dir,
        &env,
        &frame(
            "paddle",
            "paddle",
            &["s3://logs/hits/a.paddle", "back.paddle"],
        ),
    ));
    assert_eq!(
        std::fs::read(dir.join("back.paddle")).unwrap(),
        std::fs::read(dir.join("local.paddle")).unwrap()
    );
    // Avro: a dataset written into S3 by two threads, then queried there through a glob
    // (each file read whole), with the answers of the records it came from.
    let to_avro = [
        "--in-framing",
        "paddle",
        "--partitions",
        "2",
        "--to",
        "avro",
        "-o",
        "s3://logs/avro/",
        "SELECT * FROM records",
        "local.paddle",
    ];
    ok(rcc(&dir, &env, &hit("sql", &to_avro)));
    let from_avro = [
        "--from",
        "avro",
        "--to",
        "csv",
        BY_URL,
        "s3://logs/avro/*.avro",
    ];
    assert_eq!(
        ok(rcc(&dir, &env, &hit("sql", &from_avro))),
        by_url(&[120_000])
    );
    // A failed conversion leaves nothing; a missing key is named.
    let bytes = std::fs::read(dir.join("local.paddle")).unwrap();
    std::fs::write(dir.join("cut.paddle"), &bytes[..bytes.len() / 2]).unwrap();
    let out = rcc(
        &dir,
        &env,
        &frame(
            "paddle",
            "mesos",
            &["cut.paddle", "s3://logs/failed/x.mesos"],
        ),
    );
    assert!(!out.status.success());
    let out = rcc(
        &dir,
        &env,
        &hit(
            "sql",
            &["--in-framing", "mesos", "SELECT 1", "s3://logs/failed/"],
        ),
    );
    assert_stderr_contains(&out, "s3://logs/failed/: no such file");
    let out = rcc(
        &dir,
        &env,
        &[
            "frame",
            "info",
            "--from",
            "paddle",
            "s3://logs/hits/missing.paddle",
        ],
    );
    assert_stderr_contains(&out, "cannot read s3://logs/hits/missing.paddle");
}

/// What pyarrow's datasets (Hive partitioning) and DuckDB read from the dataset at
/// `argv[1]` (a local directory, or `s3://…` read by pyarrow through `argv[3]`, the S3
/// endpoint, then copied here for DuckDB): `url,n,total` rows in order, once per reader.
const READ_BACK: &str = r#"
import os, sys, duckdb, pyarrow.dataset as ds, pyarrow.fs as pafs
path, fmt = sys.argv[1], sys.argv[2]
fs = None
if path.startswith("s3://"):
    fs = pafs.S3FileSystem(endpoint_override=sys.argv[3], access_key="k", secret_key="s",
                           region="us-east-1", scheme="http")
    local = sys.argv[4]
    os.makedirs(local, exist_ok=True)
    pafs.copy_files(path[len("s3://"):], local, source_filesystem=fs)
    path, fs = path[len("s3://"):], fs
else:
    local = path
rows = ds.dataset(path, format=fmt, partitioning="hive", filesystem=fs).to_table().to_pylist()
print("url,n,total")
for r in sorted(rows, key=lambda r: r["url"]):
    print(f"{r['url']},{r['n']},{r['total']}")
print("url,n,total")
for r in duckdb.sql(f"""SELECT url, n, total FROM read_{fmt}('{local}/**/*.{fmt}',
        hive_partitioning = true) ORDER BY url""").fetchall():
    print(",".join(str(x) for x in r))
"#;

/// The files of an HDFS directory, relative to it (hidden ones too); none if it is missing.
fn hdfs_files(hdfs: &MiniHdfs, dir: &str) -> Vec<String> {
    let Ok(listed) = hdfs.try_command(&format!("list {dir}")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = listed
        .split_whitespace()
        .map(|entry| {
            let (path, _) = entry.rsplit_once(':').expect("NAME:SIZE");
            path.strip_prefix(dir)
                .unwrap_or(path)
                .trim_start_matches('/')
                .to_owned()
        })
        .collect();
    names.sort();
    names
}

/// Checks a committed dataset's files: `_SUCCESS` (empty) and `parts` part files of one
/// query id in `dirs` (Hive directories, or the top), and nothing staged.
fn assert_committed(files: &[String], dirs: &[&str], ext: &str) {
    assert!(files.contains(&"_SUCCESS".to_owned()), "{files:?}");
    assert!(
        files.iter().all(|f| !f.starts_with("_temporary")),
        "{files:?}"
    );
    let parts: Vec<&String> = files.iter().filter(|f| *f != "_SUCCESS").collect();
    assert!(!parts.is_empty(), "{files:?}");
    let id = |f: &str| {
        f.rsplit('/')
            .next()
            .unwrap()
            .split('-')
            .nth(2)
            .map(str::to_owned)
    };
    for part in &parts {
        let (dir, name) = part.rsplit_once('/').unwrap_or(("", part));
        assert!(dirs.contains(&dir), "{part} outside {dirs:?}");
        assert!(
            name.starts_with("part-") && name.ends_with(&format!(".{ext}")),
            "{part}"
        );
        assert_eq!(id(part), id(parts[0]), "one query id: {files:?}");
    }
}

/// `-o hdfs://…/DIR/` and `-o s3://…/DIR/`: datasets written straight into the stores by
/// the local threads and, with `--cluster`, by both executors (each names the part files
/// it writes), flat and partitioned, read back by pyarrow and DuckDB as the query's answer;
/// a non-empty target is refused and kept; a damaged input record leaves nothing visible.
#[test]
fn datasets_are_written_into_hdfs_and_s3_by_local_threads_and_by_the_cluster() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, local)) = hdfs_with_files() else {
        return;
    };
    let (Some(moto_py), Some(peers)) = (moto_python(), fixture_harness::peers::python()) else {
        return;
    };
    let dir = work("datasets");
    let moto = MotoServer::start(moto_py, &dir.join("moto.log"));
    moto.create_bucket("lake");
    let env = moto.client_env();
    let s3 = ["--s3-endpoint", moto.endpoint.as_str()];
    let cluster = Cluster::start(&s3, &s3);
    let input = hdfs.url_of("/seq/");
    let expected = by_url(&SEQ_FILES.map(|(_, n, _)| n));
    // No ORDER BY: the aggregation's four partitions are written as they are.
    let flat = BY_URL.replace(" ORDER BY url", "");
    let by_len = "SELECT url, count(*) AS n, sum(n) AS total, length(url) AS len FROM records \
                  GROUP BY url";
    let write = |cluster_url: Option<&str>, query: &str, target: &str, extra: &[&str]| {
        let mut args = vec![
            "--in-framing",
            "seqfile",
            "--partitions",
            "4",
            "--to",
            "parquet",
        ];
        args.extend_from_slice(extra);
        args.extend(["-o", target, query, input.as_str()]);
        let cluster_args = cluster_url.map_or(vec![], |url| vec!["--cluster", url]);
        rcc(
            &dir,
            &env,
            &hit("sql", &[&cluster_args[..], &args].concat()),
        )
    };
    for (on, cluster_url) in [("local", None), ("cluster", Some(cluster.url.as_str()))] {
        for (layout, query, extra, dirs) in [
            ("flat", flat.as_str(), &[][..], &[""][..]),
            (
                "by-len",
                by_len,
                &["--partition-by", "len"][..],
                &["len=2", "len=3"][..],
            ),
        ] {
            // HDFS: listed by Hadoop, copied here, read back.
            let path = format!("/lake/{on}-{layout}");
            ok(write(
                cluster_url,
                query,
                &hdfs.url_of(&format!("{path}/")),
                extra,
            ));
            let files = hdfs_files(hdfs, &path);
            assert_committed(&files, dirs, "parquet");
            let copy = dir.join(format!("hdfs-{on}-{layout}"));
            hdfs.command(&format!("get {path} {}", copy.display()));
            let read = fixture_harness::peers::run_script(
                peers,
                READ_BACK,
                &[copy.to_str().unwrap(), "parquet"],
            );
            assert_eq!(read, format!("{expected}{expected}"), "hdfs {on} {layout}");
            // S3: read by pyarrow from there.
            let url = format!("s3://lake/{on}-{layout}/");
            ok(write(cluster_url, query, &url, extra));
            let copy = dir.join(format!("s3-{on}-{layout}"));
            let read = fixture_harness::peers::run_script(
                peers,
                READ_BACK,
                &[
                    &url[..url.len() - 1],
                    "parquet",
                    &moto.endpoint,
                    copy.to_str().unwrap(),
                ],
            );
            assert_eq!(read, format!("{expected}{expected}"), "s3 {on} {layout}");
        }
    }
    // Avro: the executors write a dataset into HDFS, which reads back (locally, and on the
    // cluster) as the records it came from.
    let avro = hdfs.url_of("/lake/avro/");
    let args = [
        "--cluster",
        cluster.url.as_str(),
        "--in-framing",
        "seqfile",
        "--partitions",
        "4",
        "--to",
        "avro",
        "-o",
        &avro,
        "SELECT * FROM records",
        &input,
    ];
    ok(rcc(&dir, &env, &hit("sql", &args)));
    assert_committed(&hdfs_files(hdfs, "/lake/avro"), &[""], "avro");
    let glob = format!("{avro}*.avro");
    for cluster_args in [&[][..], &["--cluster", cluster.url.as_str()][..]] {
        let from = [
            cluster_args,
            &["--from", "avro", "--to", "csv", BY_URL, &glob],
        ]
        .concat();
        assert_eq!(ok(rcc(&dir, &env, &hit("sql", &from))), expected);
    }
    // Both executors wrote part files, and named them.
    for executor in &cluster.executors {
        let stderr = executor.stderr();
        assert!(
            stderr
                .lines()
                .any(|l| l.contains(" wrote hdfs://") && l.contains("/part-")),
            "{}: no part written to HDFS:\n{stderr}",
            executor.name
        );
        assert!(
            stderr.lines().any(|l| l.contains(" wrote s3://lake/")),
            "{}: no part written to S3:\n{stderr}",
            executor.name
        );
    }

    // -o URL without a trailing `/`: one file, written whole.
    let one = hdfs.url_of("/lake/one.csv");
    let args = [
        "--in-framing",
        "seqfile",
        "--to",
        "csv",
        "-o",
        &one,
        BY_URL,
        &input,
    ];
    ok(rcc(&dir, &env, &hit("sql", &args)));
    assert_eq!(hdfs_files(hdfs, "/lake/one.csv"), [""]);
    hdfs.command(&format!(
        "get /lake/one.csv {}",
        dir.join("one.csv").display()
    ));
    assert_eq!(
        std::fs::read_to_string(dir.join("one.csv")).unwrap(),
        expected
    );

    // SequenceFiles of Hit records, read back by Hadoop's SequenceFile.Reader through the
    // class `rcc -l java` generates.
    let total: u64 = SEQ_FILES.iter().map(|(_, n, _)| n).sum();
    let sum: u64 = SEQ_FILES.iter().map(|(_, n, _)| n * (n - 1) / 2).sum();
    for (on, cluster_url) in [("local", None), ("cluster", Some(cluster.url.as_str()))] {
        let path = format!("/lake/records-{on}");
        let records = [
            "--to",
            "records",
            "--out-framing",
            "seqfile",
            "--seqfile-compression",
            "block",
        ];
        let mut args = vec!["--in-framing", "seqfile", "--partitions", "4"];
        args.extend_from_slice(&records);
        let target = hdfs.url_of(&format!("{path}/"));
        args.extend(["-o", &target, "SELECT url, n FROM records", input.as_str()]);
        let cluster_args = cluster_url.map_or(vec![], |url| vec!["--cluster", url]);
        ok(rcc(
            &dir,
            &env,
            &hit("sql", &[&cluster_args[..], &args].concat()),
        ));
        let files = hdfs_files(hdfs, &path);
        assert_committed(&files, &[""], "seq");
        let (mut read, mut read_sum) = (0, 0);
        for part in files.iter().filter(|f| f.ends_with(".seq")) {
            let answer = hdfs.command(&format!("seqread {path}/{part}"));
            let mut words = answer.split_whitespace();
            read += words.next().unwrap().parse::<u64>().unwrap();
            read_sum += words.next().unwrap().parse::<u64>().unwrap();
        }
        assert_eq!((read, read_sum), (total, sum), "{on}: {files:?}");
    }

    // A target that is not empty: refused on the cluster too, its contents kept.
    let before = hdfs_files(hdfs, "/lake/local-flat");
    let out = write(
        Some(&cluster.url),
        &flat,
        &hdfs.url_of("/lake/local-flat/"),
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_stderr_contains(&out, "exists and is not empty: give --overwrite");
    assert_eq!(hdfs_files(hdfs, "/lake/local-flat"), before);
    ok(write(
        Some(&cluster.url),
        &flat,
        &hdfs.url_of("/lake/local-flat/"),
        &["--overwrite"],
    ));
    let after = hdfs_files(hdfs, "/lake/local-flat");
    assert_committed(&after, &[""], "parquet");
    assert!(
        after.iter().all(|f| f == "_SUCCESS" || !before.contains(f)),
        "{after:?}"
    );

    // A damaged record fails the job, locally and on the cluster: nothing visible.
    let damaged = damaged_in_hdfs(hdfs, local, &dir, "/damaged/");
    for (on, cluster_url) in [("local", None), ("cluster", Some(cluster.url.as_str()))] {
        for target in [
            hdfs.url_of(&format!("/failed/{on}/")),
            format!("s3://lake/failed-{on}/"),
        ] {
            let cluster_args = cluster_url.map_or(vec![], |url| vec!["--cluster", url]);
            let args = [
                "--in-framing",
                "seqfile",
                "--to",
                "parquet",
                "-o",
                target.as_str(),
                "SELECT * FROM records",
                damaged.as_str(),
            ];
            let out = rcc(
                &dir,
                &env,
                &hit("sql", &[&cluster_args[..], &args].concat()),
            );
            assert_eq!(out.status.code(), Some(1), "{target}: {}", stderr(&out));
            assert_stderr_contains(&out, "plain.seq");
        }
        assert_eq!(
            hdfs_files(hdfs, &format!("/failed/{on}")),
            Vec::<String>::new()
        );
    }
    let listed = moto.run_boto(
        "print(sorted(o['Key'] for o in c.list_objects_v2(Bucket='lake', Prefix='failed')\
         .get('Contents', [])))\n\
         print(c.list_multipart_uploads(Bucket='lake').get('Uploads', []))",
    );
    assert_eq!(listed, "[]\n[]\n");
}

/// An executor killed (SIGKILL) while its tasks upload part files to S3: S3 keeps their
/// multipart uploads (and bills their parts) until someone aborts them, and the dead
/// executor cannot. The job, whether it succeeds through the other executor or fails,
/// aborts every upload left under `_temporary/` (its own, and one an earlier job's killed
/// client left): none is pending afterwards, and the dataset holds every row once or
/// nothing.
#[test]
fn an_executor_killed_while_it_uploads_to_s3_leaves_no_pending_upload() {
    let Some(moto_py) = moto_python() else {
        return;
    };
    let work = support::web::work_in("storage", "s3-kill", 250_000);
    let paddle = work.paddle("big.paddle");
    let moto = MotoServer::start(moto_py, &work.dir.join("moto.log"));
    moto.create_bucket("lake");
    let mut cluster = Cluster::start_quick_to_lose_with(&["--s3-endpoint", &moto.endpoint]);
    // Slow enough (seconds per task) that the kill lands while the tasks upload.
    let query = "SELECT id, url, length(repeat(url, 200)) AS l FROM records";
    let boto = "def pending():\n    \
        return c.list_multipart_uploads(Bucket='lake', Prefix='killed/').get('Uploads', [])\n";
    // What an earlier job whose client was killed left: an upload pending, a staged file.
    moto.run_boto(&format!(
        "{boto}gone = 'killed/_temporary/gone/attempt-0-0/part-00000-gone.csv'\n\
             u = c.create_multipart_upload(Bucket='lake', Key=gone)['UploadId']\n\
             c.upload_part(Bucket='lake', Key=gone, UploadId=u, PartNumber=1, Body=b'id')\n\
             c.put_object(Bucket='lake', \
             Key='killed/_temporary/gone/attempt-1-0/part-00001-gone.csv', Body=b'id\\n')"
    ));
    let (dir, cluster_url) = (work.dir.clone(), cluster.url.clone());
    let env = moto
        .client_env()
        .map(|(name, value)| (name, value.to_owned()));
    let paddle_arg = paddle.to_str().unwrap().to_owned();
    let remote = std::thread::spawn(move || {
        let mut command = Command::new(support::RCC_SQL);
        command
            .current_dir(&dir)
            .args(["--schema", "web.jr", "--type", "web.Hit", "--cluster"])
            .arg(&cluster_url)
            .args(["--in-framing", "paddle", "--partitions", "4", "--to", "csv"])
            .args(["-o", "s3://lake/killed/", query, &paddle_arg])
            .envs(env);
        run(command)
    });
    // Every task has begun its upload (two slots on each executor): whichever executor
    // is killed has uploads in progress.
    let seen = moto.run_boto(&format!(
        "{boto}deadline = time.time() + 120\n\
             ours = lambda: [u for u in pending() if '/gone/' not in u['Key']]\n\
             while len(ours()) < 4 and time.time() < deadline:\n    time.sleep(0.05)\n\
             print(len(ours()))"
    ));
    cluster.executors[0].kill();
    assert!(
        seen.trim().parse::<usize>().unwrap() >= 4,
        "the tasks' uploads were not seen: {seen}"
    );
    let remote = remote.join().unwrap();
    let listed = moto.run_boto(&format!(
        "{boto}print(len(pending()))\n\
             keys = [o['Key'] for o in c.list_objects_v2(Bucket='lake', Prefix='killed/')\
             .get('Contents', [])]\n\
             print(' '.join(sorted(k.split('/', 1)[1] for k in keys)))\n\
             parts = [k for k in keys if k.endswith('.csv') and '/_' not in k]\n\
             print(sum(len(c.get_object(Bucket='lake', Key=k)['Body'].read().decode()\
             .splitlines()) - 1 for k in parts))"
    ));
    let lines: Vec<&str> = listed.lines().collect();
    let [pending, names, rows] = lines[..] else {
        panic!("{listed}");
    };
    assert_eq!(
        pending,
        "0",
        "uploads left pending; the job: {}",
        stderr(&remote)
    );
    let names: Vec<&str> = names.split_whitespace().collect();
    eprintln!("the job {}: {names:?}", outcome(&remote));
    if remote.status.success() {
        assert!(names.contains(&"_SUCCESS"), "{names:?}");
        assert!(
            !names.iter().any(|n| n.starts_with("_temporary")),
            "{names:?}"
        );
        assert_eq!(rows, "250000", "every row exactly once");
    } else {
        assert!(
            names.iter().all(|n| n.starts_with('_')),
            "a failed job left {names:?}: {}",
            stderr(&remote)
        );
        assert!(!names.contains(&"_SUCCESS"), "{names:?}");
    }
}

/// A dataset's directory in HDFS or S3 (moto), looked at through object_store.
struct Peek {
    runtime: tokio::runtime::Runtime,
    store: std::sync::Arc<dyn hadoop_record_storage::object_store::ObjectStore>,
    dir: hadoop_record_storage::object_store::path::Path,
}

impl Peek {
    fn new(url: &str, endpoint: &str) -> Peek {
        let parsed = url::Url::parse(url).unwrap();
        let options = hadoop_record_storage::StorageOptions::default()
            .with_s3_endpoint(Some(endpoint.to_owned()));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let store: std::sync::Arc<dyn hadoop_record_storage::object_store::ObjectStore> =
            match parsed.scheme() {
                // moto's keys, which this process does not have in its environment.
                "s3" => std::sync::Arc::new(
                    hadoop_record_storage::object_store::aws::AmazonS3Builder::new()
                        .with_bucket_name(parsed.host_str().unwrap())
                        .with_endpoint(endpoint)
                        .with_allow_http(true)
                        .with_access_key_id("k")
                        .with_secret_access_key("s")
                        .with_region("us-east-1")
                        .build()
                        .unwrap(),
                ),
                _ => {
                    let _entered = runtime.enter();
                    hadoop_record_storage::open_store(&parsed, &options).unwrap()
                }
            };
        let dir =
            hadoop_record_storage::object_store::path::Path::from_url_path(parsed.path()).unwrap();
        Peek {
            runtime,
            store,
            dir,
        }
    }

    /// Every object under the directory, by its path relative to it, read whole.
    fn objects(&self) -> std::collections::BTreeMap<String, Vec<u8>> {
        use futures::TryStreamExt;
        use hadoop_record_storage::object_store::ObjectStoreExt;
        self.runtime.block_on(async {
            let mut listed = self.store.list(Some(&self.dir));
            let mut objects = std::collections::BTreeMap::new();
            while let Some(meta) = listed.try_next().await.unwrap() {
                let got = self.store.get(&meta.location).await.unwrap();
                let relative = meta.location.as_ref()[self.dir.as_ref().len() + 1..].to_owned();
                objects.insert(relative, got.bytes().await.unwrap().to_vec());
            }
            objects
        })
    }

    /// The journal of a commit under way (`_temporary/<query>/_commit.json`), if any.
    fn journal(&self) -> Option<serde_json::Value> {
        use hadoop_record_storage::object_store::ObjectStoreExt;
        self.runtime.block_on(async {
            let staging = self.dir.clone().join("_temporary");
            let listed = self.store.list_with_delimiter(Some(&staging)).await.ok()?;
            for job in listed.common_prefixes {
                if let Ok(got) = self.store.get(&job.join("_commit.json")).await {
                    let bytes = got.bytes().await.ok()?;
                    return serde_json::from_slice(&bytes).ok();
                }
            }
            None
        })
    }
}

/// What readers see of a dataset: its visible files, and whether `_SUCCESS` is there.
fn visible(objects: &std::collections::BTreeMap<String, Vec<u8>>) -> (Vec<String>, bool) {
    let files = objects
        .keys()
        .filter(|p| {
            !p.split('/')
                .any(|s| s.starts_with('_') || s.starts_with('.'))
        })
        .cloned()
        .collect();
    (files, objects.contains_key("_SUCCESS"))
}

/// Overwrites that lose nothing, in HDFS and in S3 (moto): a part file larger than an
/// upload part is committed by completing its multipart upload (no CopyObject in moto's
/// request log; a multipart ETag); an overwrite whose input is damaged leaves the old
/// dataset byte for byte, `_SUCCESS` included; a client SIGKILLed during its job commit
/// (once the commit's journal is written) leaves every old or every new file where it
/// belongs, and the next job into the target finishes that commit before its own.
#[test]
fn overwrites_keep_the_old_dataset_until_the_new_one_is_whole_in_hdfs_and_s3() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, local)) = hdfs_with_files() else {
        return;
    };
    let Some(moto_py) = moto_python() else {
        return;
    };
    let dir = work("overwrites");
    let moto = MotoServer::start(moto_py, &dir.join("moto.log"));
    moto.create_bucket("lake");
    let env = moto.client_env();
    let input = hdfs.url_of("/seq/");

    // A 20 MB part file: a multipart upload of several parts, completed at the commit.
    let big = "SELECT url, n, repeat(url, 60) AS pad FROM records WHERE n < 60000";
    let args = [
        "--in-framing",
        "seqfile",
        "--partitions",
        "1",
        "--to",
        "csv",
        "-o",
        "s3://lake/big/",
        big,
        &input,
    ];
    ok(rcc(&dir, &env, &hit("sql", &args)));
    let log = std::fs::read_to_string(dir.join("moto.log")).unwrap();
    let requests: Vec<&str> = log.lines().filter(|l| l.contains("/lake/big/")).collect();
    assert!(
        requests
            .iter()
            .any(|l| l.contains("POST /lake/big/part-") && l.contains("uploadId=")),
        "no upload completed:\n{}",
        requests.join("\n")
    );
    for line in &requests {
        // A CopyObject (or a PutObject) of a part is a PUT without an upload's id.
        let put_whole = line.contains("\"PUT /lake/big/part-") && !line.contains("uploadId=");
        assert!(!put_whole, "a part was copied or put whole: {line}");
    }
    let etags = moto.run_boto(
        "for o in c.list_objects_v2(Bucket='lake', Prefix='big/')['Contents']:\n    \
         print(o['Key'], o['Size'], o['ETag'])\n\
         print(len(c.list_multipart_uploads(Bucket='lake').get('Uploads', [])))",
    );
    let part = etags
        .lines()
        .find(|l| l.starts_with("big/part-"))
        .unwrap_or_else(|| panic!("{etags}"));
    let (size, etag) = part.split_once(' ').unwrap().1.split_once(' ').unwrap();
    assert!(size.parse::<u64>().unwrap() > 10 << 20, "{part}");
    let parts: u32 = etag
        .trim_matches('"')
        .rsplit_once('-')
        .map(|(_, n)| n.parse().unwrap())
        .unwrap_or_else(|| panic!("not a multipart ETag: {part}"));
    assert!(parts >= 2, "{part}");
    assert!(etags.ends_with("\n0\n"), "uploads left pending: {etags}");

    // A damaged record, for jobs that fail.
    let damaged = damaged_in_hdfs(hdfs, local, &dir, "/overwrites-damaged/");

    // Records laid out by 50 values of b (the old ones: 25), a part file each per partition.
    let write = |target: &str, query: &str, from: &str| -> Output {
        let args = [
            "--in-framing",
            "seqfile",
            "--partitions",
            "4",
            "--to",
            "records",
            "--partition-by",
            "b",
            "--overwrite",
            "-o",
            target,
            query,
            from,
        ];
        rcc(&dir, &env, &hit("sql", &args))
    };
    let old = "SELECT url, n, n % 50 AS b FROM records WHERE n % 2 = 0";
    let new = "SELECT url, n, n % 50 AS b FROM records";
    let count = |target: &str| -> String {
        let glob = format!("{target}*/*.bin");
        let args = [
            "SELECT count(*) AS c, sum(n) AS s FROM records",
            glob.as_str(),
        ];
        let out = rcc(
            &dir,
            &env,
            &hit("sql", &[&["--to", "csv"][..], &args].concat()),
        );
        if !out.status.success() {
            let files = Peek::new(target, &moto.endpoint).objects();
            panic!(
                "{}: {:?}",
                stderr(&out),
                files.keys().take(20).collect::<Vec<_>>()
            );
        }
        stdout(&out)
    };
    let answer = |query: &str| {
        let args = [
            "--in-framing",
            "seqfile",
            "--to",
            "csv",
            query,
            input.as_str(),
        ];
        ok(rcc(&dir, &env, &hit("sql", &args)))
    };
    let counted = "SELECT count(*) AS c, sum(n) AS s FROM records";
    let (old_answer, new_answer) = (
        answer(&format!("{counted} WHERE n % 2 = 0")),
        answer(counted),
    );
    for target in [
        hdfs.url_of("/overwrites/"),
        "s3://lake/overwrites/".to_owned(),
    ] {
        ok(write(&target, old, &input));
        assert_eq!(count(&target), old_answer, "{target}");
        let peek = Peek::new(&target, &moto.endpoint);
        let before = peek.objects();
        let (files, success) = visible(&before);
        assert!(success && files.len() == 100, "{target}: {files:?}");

        // An overwrite that fails: the old dataset as it was, byte for byte.
        let out = write(&target, new, &damaged);
        assert_eq!(out.status.code(), Some(1), "{target}: {}", stderr(&out));
        assert_stderr_contains(&out, "plain.seq");
        assert!(
            peek.objects() == before,
            "{target}: the failed overwrite changed the dataset"
        );

        // The client killed during its commit: the commit's journal seen, then SIGKILL.
        let mut command = Command::new(support::rcc());
        let args = [
            "--in-framing",
            "seqfile",
            "--partitions",
            "4",
            "--to",
            "records",
            "--partition-by",
            "b",
            "--overwrite",
            "-o",
            &target,
            new,
            &input,
        ];
        command
            .current_dir(&dir)
            .args(hit("sql", &args))
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        let started = Instant::now();
        let journal = loop {
            if let Some(journal) = peek.journal() {
                child.kill().unwrap();
                break journal;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "{target}: the job ended before its commit was seen"
            );
            assert!(started.elapsed() < PATIENCE, "{target}: no commit seen");
        };
        child.wait().unwrap();
        let after = peek.objects();
        let (now, success) = visible(&after);
        let (old_files, _) = visible(&before);
        let new_files: Vec<String> = journal["new"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["file"].as_str().unwrap().to_owned())
            .collect();
        let all_old = old_files.iter().all(|f| after.get(f) == before.get(f));
        let all_new = new_files.iter().all(|f| now.contains(f));
        assert!(
            all_old || all_new,
            "{target}: neither dataset is whole: {now:?}"
        );
        if success {
            let only_old = now == old_files;
            let mut sorted_new = new_files.clone();
            sorted_new.sort();
            assert!(
                only_old || now == sorted_new,
                "{target}: a mix with _SUCCESS"
            );
        }

        // The next job finishes the killed one's commit, then fails on its own input: the
        // killed job's dataset, whole.
        let out = write(&target, old, &damaged);
        assert_eq!(out.status.code(), Some(1), "{target}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("note: finished the commit of query"),
            "{target}: {}",
            stderr(&out)
        );
        let recovered = peek.objects();
        let (files, success) = visible(&recovered);
        assert!(success, "{target}: {files:?}");
        assert!(
            files.iter().all(|f| new_files.contains(f)),
            "{target}: {files:?}"
        );
        assert_eq!(count(&target), new_answer, "{target}");
        assert!(
            recovered.keys().all(|k| !k.starts_with("_temporary")),
            "{target}: {:?}",
            recovered
                .keys()
                .filter(|k| k.starts_with('_'))
                .collect::<Vec<_>>()
        );
    }
    let pending =
        moto.run_boto("print(len(c.list_multipart_uploads(Bucket='lake').get('Uploads', [])))");
    assert_eq!(pending.trim(), "0");
}

/// Delta tables in S3 (moto, with its conditional puts) and in HDFS (MiniDFSCluster),
/// written from SequenceFiles in HDFS: made, appended, read back by `--from delta` at each
/// version; a job that meets a damaged record fails and the table keeps its version, with
/// no file of the failed job left in it.
#[test]
fn delta_tables_in_s3_and_hdfs_keep_their_version_when_a_job_fails() {
    let _shared = DATANODES.read().unwrap();
    let Some((hdfs, local)) = hdfs_with_files() else {
        return;
    };
    let Some(moto_py) = moto_python() else {
        return;
    };
    let dir = work("delta");
    let moto = MotoServer::start(moto_py, &dir.join("moto.log"));
    moto.create_bucket("lake");
    let env = moto.client_env();
    let input = hdfs.url_of("/seq/");
    let damaged = damaged_in_hdfs(hdfs, local, &dir, "/delta-damaged/");
    let query = "SELECT url, n, n % 4 AS b FROM records";
    let expected = ok(rcc(
        &dir,
        &env,
        &hit(
            "sql",
            &[
                "--in-framing",
                "seqfile",
                "--to",
                "csv",
                "SELECT count(*) AS c, sum(n) AS s FROM records",
                &input,
            ],
        ),
    ));
    let doubled = {
        let row = first_row(&expected);
        format!("c,s\n{},{}\n", row[0] * 2, row[1] * 2)
    };
    let hdfs_table = hdfs.url_of("/lake/delta-hits/");
    for target in ["s3://lake/delta-hits/", hdfs_table.as_str()] {
        let write = |mode: &str, from: &str| {
            let args = [
                "--in-framing",
                "seqfile",
                "--partitions",
                "2",
                "--to",
                "delta",
                "--mode",
                mode,
                "--partition-by",
                "b",
                "-o",
                target,
                query,
                from,
            ];
            rcc(&dir, &env, &hit("sql", &args))
        };
        let count = |version: &str| {
            let query = "SELECT count(*) AS c, sum(n) AS s FROM records";
            let args = [&["sql"][..], &delta_version_csv(version, query, target)].concat();
            ok(rcc(&dir, &env, &args))
        };
        ok(write("error", &input));
        ok(write("append", &input));
        assert_eq!(count("0"), expected, "{target}");
        assert_eq!(count("1"), doubled, "{target}");
        let failed = write("append", &damaged);
        assert!(!failed.status.success(), "{target}");
        // No version 2, and the table reads as version 1 did.
        let latest = ok(rcc(
            &dir,
            &env,
            &[
                "sql",
                "--from",
                "delta",
                "--to",
                "csv",
                "SELECT count(*) AS c, sum(n) AS s FROM records",
                target,
            ],
        ));
        assert_eq!(latest, doubled, "{target}");
        let missing = rcc(
            &dir,
            &env,
            &[
                "sql",
                "--from",
                "delta",
                "--version",
                "2",
                "SELECT 1",
                target,
            ],
        );
        assert!(
            stderr(&missing).contains("there is no version 2: the latest is 1"),
            "{target}: {}",
            stderr(&missing)
        );
    }
    // The failed jobs left no part file in either table: every file is in a version.
    let objects = moto.run_boto(
        "print(sum(1 for o in c.list_objects_v2(Bucket='lake', Prefix='delta-hits/')['Contents'] \
         if o['Key'].endswith('.parquet')))\n\
         print(len(c.list_multipart_uploads(Bucket='lake').get('Uploads', [])))",
    );
    let vacuum = ok(rcc(
        &dir,
        &env,
        &[
            "delta",
            "vacuum",
            "--retain-hours",
            "0",
            "--no-retention-check",
            "--dry-run",
            "s3://lake/delta-hits/",
        ],
    ));
    assert_eq!(vacuum, "", "files of no version: {vacuum} ({objects})");
    assert!(
        objects.ends_with("\n0\n"),
        "uploads left pending: {objects}"
    );
    let vacuum = ok(rcc(
        &dir,
        &env,
        &[
            "delta",
            "vacuum",
            "--retain-hours",
            "0",
            "--no-retention-check",
            "--dry-run",
            &hdfs_table,
        ],
    ));
    assert_eq!(vacuum, "", "files of no version in HDFS: {vacuum}");
}

/// Every command of the user guide prints what the guide shows (`support/guide.rs` says
/// how a chapter runs); the chapter on HDFS and S3 runs against the stores started here, as
/// `hdfs://namenode:8020` and an S3 bucket `lake` (skipped with the peers).
#[test]
fn the_guide_s_commands_print_what_it_shows() {
    let dir = work("guide");
    let moto = moto_python().map(|python| {
        let moto = MotoServer::start(python, &dir.join("moto.log"));
        moto.create_bucket("lake");
        moto
    });
    let hdfs = moto.as_ref().and_then(|_| MiniHdfs::get());
    let mut failures = Vec::new();
    for chapter in guide::chapters() {
        // The cluster's ports the guide names, each a free one here: the other tests of this
        // binary (and the system's ephemeral ports, where 50050 lies) may hold them.
        let ports: Vec<(&str, String)> = ["50050", "50051", "50052", "50150", "50151", "50152"]
            .into_iter()
            .map(|named| (named, free_port().to_string()))
            .collect();
        let mut setting = guide::Setting {
            bin: support::rcc().parent().unwrap(),
            env: Vec::new(),
            addresses: ports.iter().map(|(n, r)| (*n, r.as_str())).collect(),
        };
        if guide::uses_stores(&chapter) {
            let (Some(moto), Some(hdfs)) = (&moto, hdfs) else {
                eprintln!("skipped {} (no HDFS and S3 peers)", chapter.display());
                continue;
            };
            setting.env.extend(moto.client_env());
            setting.addresses.push(("hdfs://namenode:8020", hdfs.url()));
        }
        let name = chapter.file_stem().unwrap().to_string_lossy().into_owned();
        failures.extend(guide::run_chapter(&chapter, &dir.join(name), &setting));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A loopback port free at the time of asking.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}
