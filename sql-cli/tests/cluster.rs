//! `rcc cluster` and `rcc sql --cluster`: a Ballista scheduler and two executors started
//! here as child processes, on loopback ports chosen at run time, answer queries over record
//! files exactly as `rcc sql` does locally; a query gets as many partitions as the
//! executors have task slots, one task each, handed to both executors (their task lines on
//! standard error say so), also when a stage has fewer; an absent scheduler is a clear
//! error naming its address; an executor killed during a query: Ballista runs its tasks
//! again on the other executor once the killed one misses its heartbeats, and the query
//! succeeds with the same answer; an executor killed after it wrote part files of a
//! dataset: its tasks run again on the other, and the dataset holds each row once; `rcc sql`
//! killed half way through a write leaves no `_SUCCESS` and nothing visible; the executors
//! write a partitioned Delta table, committed once per job. Every process started here is killed and waited
//! for when its guard drops, also when an assertion fails. The processes are the
//! companions themselves (`rcc-cluster`, `rcc-sql`), which `rcc` runs (`cli/tests/cli.rs`).

mod support;

use std::time::{Duration, Instant};

use support::cluster::{
    executor_args, free_port, path, same_answer, sql, sql_in, wait_for, Cluster, Process, PATIENCE,
};
use support::web::{work_in, BY_URL};
use support::{csv_query, stderr, stdout};

#[test]
fn cluster_answers_are_the_local_answers_and_splits_spread() {
    // 250,000 records, ~12 MB of Paddle: above DataFusion's 10 MiB, so split into ranges.
    let big = work_in("cli-cluster", "answers", 250_000);
    let small = work_in("cli-cluster", "answers-small", 500);
    let cluster = Cluster::start(&[], &[]);
    let url = cluster.url.as_str();

    let paddle = big.paddle("big.paddle");
    assert!(std::fs::metadata(&paddle).unwrap().len() > 10 << 20);
    // The small records, also in the big one's directory, in v1 and Paddle.
    let v1 = small.v1("small.v1");
    let small_paddle = small.paddle("small.paddle");
    let (v1_copy, paddle_copy) = (big.dir.join("small.v1"), big.dir.join("small-2.paddle"));
    std::fs::copy(&v1, &v1_copy).unwrap();
    std::fs::copy(&small_paddle, &paddle_copy).unwrap();

    // v1 framing: group by, output as CSV and as a table.
    let answer = same_answer(
        &small,
        url,
        &["--in-framing", "v1", "--to", "csv", BY_URL, path(&v1)],
    );
    assert!(
        answer.starts_with("url,n,bytes,oks,tags\na.com,125,"),
        "{answer}"
    );
    same_answer(
        &small,
        url,
        &[
            "--in-framing",
            "v1",
            "SELECT origin['city'] AS city, count(*) AS n, max(score) AS top FROM records \
             GROUP BY city ORDER BY city",
            path(&v1),
        ],
    );
    // Nested values as JSON, a filter, a limit.
    same_answer(
        &small,
        url,
        &[
            "--in-framing",
            "paddle",
            "--to",
            "json",
            "SELECT id, tags, counts, origin FROM records WHERE id % 97 = 3 ORDER BY id LIMIT 4",
            path(&small_paddle),
        ],
    );
    // SQL's binary-string functions: the scheduler and the executors have the client's.
    let answer = same_answer(
        &small,
        url,
        &[
            "--in-framing",
            "v1",
            "--to",
            "csv",
            "SELECT DISTINCT url, octet_length(b) AS octets, length(b) AS len, \
             position(X'2e' IN b) AS dot, encode(substring(b FROM 2 FOR 3), 'hex') AS sub \
             FROM (SELECT url, CAST(url AS BYTEA) AS b FROM records) ORDER BY url",
            path(&v1),
        ],
    );
    assert_eq!(
        answer,
        "url,octets,len,dot,sub\na.com,5,5,2,2e636f\nb.org,5,5,2,2e6f72\nc.net,5,5,2,2e6e65\n\
         \"é,'%}\",6,6,0,a92c27\n"
    );

    // Three Paddle files, one large, with no --partitions: as many partitions as the two
    // executors have task slots (2 × 2), one task each, on both executors; the large file
    // read in ranges.
    let files = [path(&paddle), path(&paddle_copy), path(&small_paddle)];
    let mut args = vec!["--in-framing", "paddle", "--to", "csv", BY_URL];
    args.extend_from_slice(&files);
    let scans = scans_of(&cluster, || {
        let answer = same_answer(&big, url, &args);
        assert!(answer.contains("\nb.org,62750,"), "{answer}");
    });
    assert_eq!(scans.iter().map(Vec::len).sum::<usize>(), 4, "{scans:?}");
    assert!(scans.iter().flatten().all(|t| t.matches('[').count() == 1));
    let ranges_of_big = scans
        .iter()
        .flatten()
        .filter(|t| t.contains("big.paddle "))
        .count();
    assert!(
        ranges_of_big >= 2,
        "big.paddle is read in ranges: {scans:?}"
    );

    // A small stage still spreads: two partitions, one on each executor.
    let mut args = vec!["--in-framing", "paddle", "--partitions", "2", BY_URL];
    args.extend_from_slice(&files);
    let scans = scans_of(&cluster, || {
        same_answer(&big, url, &args);
    });
    assert_eq!(
        scans.iter().map(Vec::len).collect::<Vec<_>>(),
        [1, 1],
        "{scans:?}"
    );
}

/// Per executor, the scan tasks (those that read files) it logged while `run` ran; each
/// executor must have run at least one.
fn scans_of(cluster: &Cluster, run: impl FnOnce()) -> Vec<Vec<String>> {
    let before: Vec<usize> = cluster.executors.iter().map(|e| e.tasks().len()).collect();
    run();
    let scans: Vec<Vec<String>> = cluster
        .executors
        .iter()
        .zip(before)
        .map(|(e, before)| {
            let tasks = e.tasks()[before..].to_vec();
            let scans: Vec<String> = tasks
                .into_iter()
                .filter(|t| t.contains(".paddle "))
                .collect();
            assert!(
                !scans.is_empty(),
                "{} ran no task over a file:\n{}",
                e.name,
                e.stderr()
            );
            scans
        })
        .collect();
    scans
}

#[test]
fn an_absent_scheduler_is_a_clear_error() {
    let work = work_in("cli-cluster", "absent", 10);
    let paddle = work.paddle("hits.paddle");
    let port = free_port();
    let url = format!("df://127.0.0.1:{port}");
    let out = sql(
        &work,
        Some(&url),
        &["--in-framing", "paddle", BY_URL, path(&paddle)],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: cannot reach the Ballista scheduler at 127.0.0.1:{port}: "
        )),
        "{err}"
    );
    assert_eq!(stdout(&out), "");

    // A bad address is named too.
    let out = sql(
        &work,
        Some("df://nowhere"),
        &["--in-framing", "paddle", BY_URL, path(&paddle)],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("df://nowhere"), "{}", stderr(&out));

    // An executor without a scheduler stops with the same message.
    let mut executor = Process::start("executor", &executor_args(&port.to_string()));
    let line = executor.wait_for(|l| l.starts_with("error: "));
    assert!(
        line.contains(&format!(
            "cannot reach the Ballista scheduler at 127.0.0.1:{port}"
        )),
        "{line}"
    );
}

/// An executor killed (SIGKILL) while it runs a task of a query: the scheduler declares it
/// lost once its heartbeats stop (here after 5 s; Ballista's default is 180 s), runs the
/// task again on the other executor, and the query succeeds with the local answer.
#[test]
fn an_executor_killed_during_a_query_is_survived() {
    let work = work_in("cli-cluster", "kill", 250_000);
    let paddle = work.paddle("big.paddle");
    let mut cluster = Cluster::start_quick_to_lose();
    // Slow enough (seconds per task) that the kill lands while the task runs.
    let query = "SELECT url, count(*) AS n, sum(length(repeat(url, 200))) AS l \
                 FROM records GROUP BY url ORDER BY url";
    let args: Vec<String> = csv_query("paddle", Some("4"), query, &[path(&paddle)])
        .into_iter()
        .map(String::from)
        .collect();
    fn args_of(args: &[String]) -> Vec<&str> {
        args.iter().map(String::as_str).collect()
    }
    let local = sql(&work, None, &args_of(&args));
    assert!(local.status.success(), "{}", stderr(&local));

    let (dir, url) = (work.dir.clone(), cluster.url.clone());
    let remote = std::thread::spawn(move || sql_in(&dir, Some(&url), &args_of(&args)));
    // Whichever executor starts a task over the file first is killed at once.
    let (victim, line) = wait_for("no task started", Duration::from_millis(10), || {
        cluster.executors.iter().enumerate().find_map(|(i, e)| {
            e.tasks()
                .into_iter()
                .find(|t| t.contains("big.paddle"))
                .map(|t| (i, t))
        })
    });
    cluster.executors[victim].kill();
    let remote = remote.join().unwrap();
    assert!(remote.status.success(), "{}", stderr(&remote));
    assert_eq!(stdout(&remote), stdout(&local));

    // The killed task's file ranges were read again by the survivor.
    let ranges = &line[line.find("input partitions").unwrap()..line.find(", output").unwrap()];
    let survivor = &cluster.executors[1 - victim];
    assert!(
        survivor.tasks().iter().any(|t| t.contains(ranges)),
        "{ranges} not run again:\n{}",
        survivor.stderr()
    );
    let scheduler = cluster.scheduler.stderr();
    assert!(scheduler.contains("lost Executor"), "{scheduler}");
}

/// The rows of a dataset of CSV part files (headers left out), sorted, and its file names.
fn csv_dataset(dir: &std::path::Path) -> (Vec<String>, Vec<String>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut rows = Vec::new();
    for name in names.iter().filter(|n| n.ends_with(".csv")) {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        rows.extend(text.lines().skip(1).map(str::to_owned));
    }
    rows.sort();
    (rows, names)
}

/// An executor killed (SIGKILL) while it writes part files of a dataset: Ballista runs its
/// tasks again on the other executor, and the dataset holds every row exactly once (the
/// commit takes one attempt of each partition), or the job fails and nothing is visible.
#[test]
fn an_executor_killed_during_a_write_leaves_every_row_once_or_nothing() {
    let work = work_in("cli-cluster", "kill-write", 250_000);
    let paddle = work.paddle("big.paddle");
    let mut cluster = Cluster::start_quick_to_lose();
    // Slow enough (seconds per task) that the kill lands while the tasks write.
    let query = "SELECT id, url, length(repeat(url, 200)) AS l FROM records";
    let local = sql(
        &work,
        None,
        &csv_query("paddle", Some("4"), query, &[path(&paddle)]),
    );
    assert!(local.status.success(), "{}", stderr(&local));
    let mut expected: Vec<String> = stdout(&local).lines().skip(1).map(str::to_owned).collect();
    expected.sort();

    let target = work.dir.join("out");
    let args: Vec<String> = [
        "--in-framing",
        "paddle",
        "--partitions",
        "4",
        "--to",
        "csv",
        "-o",
        &format!("{}/", target.display()),
        query,
        path(&paddle),
    ]
    .map(String::from)
    .to_vec();
    let (dir, url) = (work.dir.clone(), cluster.url.clone());
    let remote = std::thread::spawn(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        sql_in(&dir, Some(&url), &args)
    });
    // Killed once it has written a part file: its attempt stays in the staging directory,
    // and the task runs again on the other executor.
    let victim = wait_for("no part written", Duration::from_millis(5), || {
        cluster
            .executors
            .iter()
            .position(|e| e.stderr().contains(" wrote file://"))
    });
    cluster.executors[victim].kill();
    let remote = remote.join().unwrap();
    let (rows, names) = csv_dataset(&target);
    let survivor = cluster.executors[1 - victim].stderr();
    eprintln!(
        "the job {}; the survivor wrote:\n{}",
        if remote.status.success() {
            "succeeded"
        } else {
            "failed"
        },
        survivor
            .lines()
            .filter(|l| l.contains(" wrote "))
            .collect::<Vec<_>>()
            .join("\n")
    );
    if remote.status.success() {
        assert!(names.contains(&"_SUCCESS".to_owned()), "{names:?}");
        assert!(!names.contains(&"_temporary".to_owned()), "{names:?}");
        assert_eq!(rows.len(), expected.len(), "every row exactly once");
        assert!(rows == expected, "the dataset's rows are the query's");
    } else {
        assert!(
            names
                .iter()
                .all(|n| n.starts_with('_') || n.starts_with('.')),
            "a failed job left {names:?}: {}",
            stderr(&remote)
        );
        assert!(!names.contains(&"_SUCCESS".to_owned()), "{names:?}");
    }
    let scheduler = cluster.scheduler.stderr();
    assert!(scheduler.contains("lost Executor"), "{scheduler}");
}

/// `rcc sql -o DIR/` killed (SIGKILL) half way through its write: no `_SUCCESS`, no part
/// file under a visible name (what it wrote stays under the hidden `_temporary/`). The
/// same job run again commits the whole dataset and removes what the killed one left.
#[test]
fn a_write_killed_half_way_leaves_no_success_and_nothing_visible() {
    let work = work_in("cli-cluster", "kill-client", 250_000);
    let paddle = work.paddle("big.paddle");
    let target = work.dir.join("out");
    let mut child = std::process::Command::new(support::RCC_SQL)
        .current_dir(&work.dir)
        .args([
            "--schema",
            "web.jr",
            "--type",
            "web.Hit",
            "--in-framing",
            "paddle",
        ])
        .args(["--partitions", "2", "--to", "csv", "-o"])
        .arg(format!("{}/", target.display()))
        .args([
            "SELECT id, url, length(repeat(url, 200)) AS l FROM records",
            path(&paddle),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once a part file is being written.
    let staging = target.join("_temporary");
    let deadline = Instant::now() + PATIENCE;
    let writing = |dir: &std::path::Path| {
        walk(dir)
            .iter()
            .any(|f| f.to_string_lossy().contains("part-"))
    };
    while !writing(&staging) {
        assert!(Instant::now() < deadline, "no part file started");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the write ended before the kill"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (_, names) = csv_dataset(&target);
    assert!(!names.contains(&"_SUCCESS".to_owned()), "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with('_')),
        "visible after the kill: {names:?}"
    );
    assert!(
        !walk(&staging).is_empty(),
        "the killed job left nothing to clean up"
    );

    // Hidden leftovers do not make the target "not empty"; the next job removes them.
    let out = sql_in(
        &work.dir,
        None,
        &[
            "--in-framing",
            "paddle",
            "--partitions",
            "2",
            "--to",
            "csv",
            "-o",
            &format!("{}/", target.display()),
            "SELECT id FROM records",
            path(&paddle),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (rows, names) = csv_dataset(&target);
    assert_eq!(rows.len(), 250_000, "{names:?}");
    assert!(names.contains(&"_SUCCESS".to_owned()), "{names:?}");
    assert!(!staging.exists(), "left behind: {:?}", walk(&staging));
}

/// The files below `dir`, at any depth.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn executors_write_a_partitioned_delta_table_committed_once() {
    let work = work_in("cli-cluster", "delta", 2_000);
    let paddle = work.paddle("hits.paddle");
    let cluster = Cluster::start(&[], &[]);
    let table = work.dir.join("hits");
    let target = format!("{}/", table.display());
    let write = |mode: &str| {
        sql(
            &work,
            Some(cluster.url.as_str()),
            &[
                "--in-framing",
                "paddle",
                "--partitions",
                "4",
                "--to",
                "delta",
                "--mode",
                mode,
                "--partition-by",
                "ok",
                "-o",
                &target,
                "SELECT id, bytes, url, ok FROM records",
                path(&paddle),
            ],
        )
    };
    let made = write("error");
    assert!(made.status.success(), "{}", stderr(&made));
    assert!(
        stderr(&made).contains("wrote version 0"),
        "{}",
        stderr(&made)
    );
    let appended = write("append");
    assert!(appended.status.success(), "{}", stderr(&appended));
    // Each version's rows once: the local answer over the records, twice.
    let count = |version: &str| {
        let out = sql(
            &work,
            None,
            &[
                "--from",
                "delta",
                "--version",
                version,
                "--to",
                "csv",
                "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(bytes) AS b FROM records",
                &target,
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let local = sql(
        &work,
        None,
        &csv_query(
            "paddle",
            None,
            "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(bytes) AS b FROM records",
            &[path(&paddle)],
        ),
    );
    let once = stdout(&local);
    assert_eq!(count("0"), once);
    let twice = once.replace(&once.lines().nth(1).unwrap().to_owned(), &{
        let v: Vec<i64> = once
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        format!("{},{},{}", v[0] * 2, v[1], v[2] * 2)
    });
    assert_eq!(count("1"), twice);
    // The executors wrote the part files, straight into the partition directories.
    let parts: Vec<String> = walk(&table)
        .into_iter()
        .map(|p| p.strip_prefix(&table).unwrap().display().to_string())
        .filter(|p| p.ends_with(".parquet"))
        .collect();
    assert!(
        parts
            .iter()
            .all(|p| p.starts_with("ok=true/part-") || p.starts_with("ok=false/part-")),
        "{parts:?}"
    );
    assert!(parts.len() >= 4, "{parts:?}");
}
