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
//! write a partitioned Delta table, committed once per job, and read its versions (exactly
//! the files each names); an executor killed during a Delta append: one version more with
//! every row once, or none. Every process started here is killed and waited for when its
//! guard drops, also when an assertion fails. The processes are the companions themselves
//! (`rcc-cluster`, `rcc-sql`), which `rcc` runs (`cli/tests/cli.rs`).

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use support::cluster::{
    executor_args, free_port, outcome, path, same_answer, sql, sql_in, wait_for, Cluster, Process,
    PATIENCE,
};
use support::web::{work_in, Work, BY_URL};
use support::{
    assert_stderr_contains, csv_query, delta_version_csv, files_below, first_row, ok, stderr,
    stdout, tree, words,
};

/// A fresh work directory `name` of `n` records, and them as the Paddle file `file`.
fn paddle_work(name: &str, n: i64, file: &str) -> (Work, PathBuf) {
    let work = work_in("cli-cluster", name, n);
    let paddle = work.paddle(file);
    (work, paddle)
}

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
    // Avro: a dataset the executors write (deflate blocks), read back on the cluster as
    // the records it came from: the answers as of the v1 file's.
    let (ds, target) = small.out_dir("avro");
    let out = sql(
        &small,
        Some(url),
        &[
            "--in-framing",
            "v1",
            "--partitions",
            "2",
            "--to",
            "avro",
            "-o",
            &target,
            "SELECT * FROM records",
            path(&v1),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(ds.join("_SUCCESS").exists());
    let parts = format!("{}/*.avro", ds.display());
    let from_avro = same_answer(
        &small,
        url,
        &["--from", "avro", "--to", "csv", BY_URL, &parts],
    );
    assert_eq!(from_avro, answer);
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
    // ORDER BY over a UNION ALL: Ballista answers some rows more than once, so it is
    // refused, naming the ways around; with a LIMIT the cluster gives the local answer.
    let union = "SELECT url, id FROM records WHERE id % 2 = 0 UNION ALL \
                 SELECT url, id FROM records WHERE id % 2 = 1 ORDER BY id";
    let out = sql(&small, Some(url), &["--in-framing", "v1", union, path(&v1)]);
    assert!(!out.status.success());
    assert_stderr_contains(&out, "without --cluster, or give the ORDER BY a LIMIT");
    let window = "SELECT id, row_number() OVER (ORDER BY id) AS r FROM \
                  (SELECT id FROM records UNION ALL SELECT id FROM records)";
    let out = sql(
        &small,
        Some(url),
        &["--in-framing", "v1", window, path(&v1)],
    );
    assert!(!out.status.success());
    assert_stderr_contains(&out, "ORDER BY or a window function over a UNION ALL");
    let limited = format!("{union} LIMIT 1000");
    let answer = same_answer(
        &small,
        url,
        &["--in-framing", "v1", "--to", "csv", &limited, path(&v1)],
    );
    assert_eq!(answer.lines().count(), 501, "{answer}");

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
    let (work, paddle) = paddle_work("absent", 10, "hits.paddle");
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
    assert_stderr_contains(&out, "df://nowhere");

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
    let (work, paddle) = paddle_work("kill", 250_000, "big.paddle");
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
    let (work, paddle) = paddle_work("kill-write", 250_000, "big.paddle");
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
    let victim = cluster.kill_first_writer();
    let remote = remote.join().unwrap();
    let (rows, names) = csv_dataset(&target);
    let survivor = cluster.executors[1 - victim].stderr();
    eprintln!(
        "the job {}; the survivor wrote:\n{}",
        outcome(&remote),
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
    let (work, paddle) = paddle_work("kill-client", 250_000, "big.paddle");
    let target = work.dir.join("out");
    let mut child = work
        .paddle_sql_command()
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
        files_below(dir)
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
        !files_below(&staging).is_empty(),
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
    assert!(
        !staging.exists(),
        "left behind: {:?}",
        files_below(&staging)
    );
}

/// `rcc sql` arguments that write `query` over the Paddle file `paddle`, with `flags`
/// (`--partitions N`), as a version of the Delta table `target` (`--mode mode`) laid out by
/// the columns `by`.
fn delta_write<'a>(
    paddle: &'a str,
    flags: &'a str,
    mode: &'a str,
    by: &'a str,
    target: &'a str,
    query: &'a str,
) -> Vec<&'a str> {
    let mut args = words("--in-framing paddle");
    args.extend(words(flags));
    args.extend(["--to", "delta", "--mode", mode]);
    args.extend(["--partition-by", by, "-o", target]);
    args.extend([query, paddle]);
    args
}

#[test]
fn executors_write_a_partitioned_delta_table_committed_once() {
    let (work, paddle) = paddle_work("delta", 2_000, "hits.paddle");
    let cluster = Cluster::start(&[], &[]);
    let (table, target) = work.out_dir("hits");
    let write = |mode: &str| {
        let query = "SELECT id, bytes, url, ok FROM records";
        let args = delta_write(path(&paddle), "--partitions 4", mode, "ok", &target, query);
        sql(&work, Some(cluster.url.as_str()), &args)
    };
    let made = write("error");
    assert!(made.status.success(), "{}", stderr(&made));
    assert_stderr_contains(&made, "wrote version 0");
    let appended = write("append");
    assert!(appended.status.success(), "{}", stderr(&appended));
    // Each version's rows once: the local answer over the records, twice.
    let query = "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(bytes) AS b FROM records";
    let count = |version: &str| {
        ok(sql(
            &work,
            None,
            &delta_version_csv(version, query, &target),
        ))
    };
    let local = sql(
        &work,
        None,
        &csv_query("paddle", None, query, &[path(&paddle)]),
    );
    let once = stdout(&local);
    assert_eq!(count("0"), once);
    let twice = once.replace(&once.lines().nth(1).unwrap().to_owned(), &{
        let v = first_row(&once);
        format!("{},{},{}", v[0] * 2, v[1], v[2] * 2)
    });
    assert_eq!(count("1"), twice);
    // The executors wrote the part files, straight into the partition directories.
    let parts: Vec<String> = tree(&table)
        .into_iter()
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

/// The Parquet files below `dir` (a table's), their paths in it.
fn parquet_files(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    tree(dir)
        .into_iter()
        .filter(|p| p.ends_with(".parquet") && !p.starts_with("_delta_log"))
        .collect()
}

/// The Parquet files of the table `dir` that the executors read (their task lines' input
/// partitions) while `run` ran, their paths in it.
fn parquet_read(
    cluster: &Cluster,
    dir: &std::path::Path,
    run: impl FnOnce(),
) -> std::collections::BTreeSet<String> {
    let before: Vec<usize> = cluster.executors.iter().map(|e| e.tasks().len()).collect();
    run();
    let prefix = format!("{}/", dir.display());
    let mut read = std::collections::BTreeSet::new();
    for (e, before) in cluster.executors.iter().zip(before) {
        for task in &e.tasks()[before..] {
            // `[/DIR/ok=true/url=é,%27%25}/part-….parquet 0..N, …]`: a path may hold a
            // comma.
            for (at, _) in task.match_indices(&prefix) {
                let rest = &task[at + prefix.len()..];
                let end = rest.find(".parquet ").unwrap() + ".parquet".len();
                read.insert(rest[..end].to_owned());
            }
        }
    }
    read
}

/// `rcc sql --cluster --from delta`: the executors read the Parquet files of the version
/// asked, exactly those the log names (not the files an overwrite removed, nor those of a
/// later append), with the partition values the log gives (Hive escapes in them), and
/// answer as `rcc sql` does locally, also joined with record files.
#[test]
fn the_executors_read_a_delta_tables_versions() {
    let (work, paddle) = paddle_work("delta-read", 2_000, "hits.paddle");
    let cluster = Cluster::start(&[], &[]);
    let url = cluster.url.as_str();
    let (table, target) = work.out_dir("lake");
    // Version 0 (partitioned by ok and url, whose values need Hive escapes: `é,'%}`), an
    // append written by the executors, an overwrite.
    let write = |cluster: Option<&str>, mode: &str, filter: &str| {
        let query = format!("SELECT * FROM records WHERE {filter}");
        let args = delta_write(path(&paddle), "", mode, "ok,url", &target, &query);
        let out = sql(&work, cluster, &args);
        assert!(out.status.success(), "{mode}: {}", stderr(&out));
        parquet_files(&table)
    };
    let v0 = write(None, "error", "id < 1200");
    let v1 = write(Some(url), "append", "id >= 1200");
    let v2 = write(None, "overwrite", "id % 3 = 0");
    let v2: std::collections::BTreeSet<String> = v2.difference(&v1).cloned().collect();
    let v1: std::collections::BTreeSet<String> = v1.difference(&v0).cloned().collect();
    assert!(v0.len() >= 8 && v1.len() >= 8 && v2.len() >= 8, "{v0:?}");

    let by_group = "SELECT url, ok, count(*) AS n, sum(bytes) AS b, min(id) AS lo, \
                    max(id) AS hi, sum(cardinality(tags)) AS t, sum(origin['zip']) AS z, \
                    sum(score) AS s FROM records GROUP BY url, ok ORDER BY url, ok";
    let total = |answer: &str| -> i64 {
        answer
            .lines()
            .skip(1)
            // n, the 7th column from the right (a url may hold a comma).
            .map(|l| l.rsplit(',').nth(6).unwrap())
            .map(|n| n.parse::<i64>().unwrap())
            .sum()
    };
    for (version, files, rows) in [
        (None, &v2, 667),
        (Some("0"), &v0, 1200),
        (Some("1"), &v0.union(&v1).cloned().collect(), 2000),
    ] {
        let mut args = vec!["--from", "delta", "--to", "csv"];
        args.extend(version.map(|v| ["--version", v]).into_iter().flatten());
        args.extend([by_group, target.as_str()]);
        let read = parquet_read(&cluster, &table, || {
            let answer = same_answer(&work, url, &args);
            assert_eq!(answer.lines().count(), 9, "{version:?}: {answer}");
            assert_eq!(total(&answer), rows, "{version:?}: {answer}");
        });
        assert_eq!(&read, files, "version {version:?}: the files read");
    }
    // Every column, nested ones too, as JSON.
    same_answer(
        &work,
        url,
        &[
            "--from",
            "delta",
            "--to",
            "json",
            "SELECT * FROM records WHERE id % 101 = 0 ORDER BY id",
            &target,
        ],
    );
    // Partition values that need Hive escapes, as the log gives them; a filter that no
    // row passes.
    let escaped = "SELECT id, url FROM records WHERE url = 'é,''%}' AND ok ORDER BY id";
    let answer = same_answer(
        &work,
        url,
        &["--from", "delta", "--to", "csv", escaped, &target],
    );
    assert!(answer.starts_with("id,url\n15,\"é,'%}\"\n"), "{answer}");
    for query in [
        "SELECT count(*) AS n FROM records WHERE url = 'nowhere'",
        "SELECT id, tags FROM records WHERE url = 'nowhere' ORDER BY id",
    ] {
        same_answer(
            &work,
            url,
            &["--from", "delta", "--to", "csv", query, &target],
        );
    }

    // Record files joined with the table's version 0, on the cluster.
    let join = "SELECT h.url, count(*) AS n, sum(l.bytes) AS b, sum(h.origin['zip']) AS z, \
                sum(l.origin['zip']) AS lz FROM hits h JOIN lake l ON h.id = l.id \
                WHERE h.id % 2 = 0 GROUP BY h.url ORDER BY h.url";
    let answer = same_answer(
        &work,
        url,
        &[
            "--in-framing",
            "paddle",
            "--to",
            "csv",
            join,
            "--table",
            "hits",
            path(&paddle),
            "--table",
            "lake",
            "--from",
            "delta",
            "--version",
            "0",
            &target,
        ],
    );
    assert!(answer.starts_with("url,n,b,z,lz\na.com,300,"), "{answer}");
}

/// The Parquet files of the table `dir` that readers could mistake for its own: those
/// under no hidden directory (`_temporary/`, `_delta_log/`), their paths in it.
fn visible_parquet(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    parquet_files(dir)
        .into_iter()
        .filter(|p| !p.split('/').any(|s| s.starts_with(['_', '.'])))
        .collect()
}

/// The versions of the Delta table `dir` (its log's entries), and the files its latest
/// version names (its log's adds less its removes), their paths in it.
fn delta_log(dir: &std::path::Path) -> (Vec<u64>, std::collections::BTreeSet<String>) {
    let log = dir.join("_delta_log");
    let mut entries: Vec<(u64, std::path::PathBuf)> = std::fs::read_dir(&log)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_str().unwrap().parse().unwrap(), p))
        .collect();
    entries.sort();
    // The log's paths are URI references, relative to the table.
    let base = url::Url::from_directory_path(dir).unwrap();
    let in_table = |path: &str| {
        let file = base.join(path).unwrap().to_file_path().unwrap();
        file.strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    let mut files = std::collections::BTreeSet::new();
    for (_, entry) in &entries {
        for line in std::fs::read_to_string(entry).unwrap().lines() {
            let action: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(path) = action["add"]["path"].as_str() {
                files.insert(in_table(path));
            }
            if let Some(path) = action["remove"]["path"].as_str() {
                files.remove(&in_table(path));
            }
        }
    }
    (entries.into_iter().map(|(v, _)| v).collect(), files)
}

/// An executor killed (SIGKILL) while the executors write a Delta table's new version
/// (`--to delta --mode append`, partitioned): Ballista runs its tasks again on the other
/// executor, and the client commits one attempt of each partition: the table gains exactly
/// one version, whose rows are the query's, each once; or the job fails and the table keeps
/// its version and files. Either way the part files no log entry names (the killed
/// attempt's) are in no version: readers do not see them, and none lies among the table's
/// visible files.
#[test]
fn an_executor_killed_during_a_delta_write_adds_one_version_or_none() {
    let (work, paddle) = paddle_work("kill-delta", 250_000, "big.paddle");
    let (table, target) = work.out_dir("lake");
    // Slow enough (seconds per task) that the kill lands while the tasks write.
    let query = "SELECT id, url, ok, length(repeat(url, 200)) AS l FROM records";
    let write = |cluster: Option<&str>, mode: &str, query: &str| {
        let args = delta_write(path(&paddle), "--partitions 4", mode, "ok", &target, query);
        let args: Vec<String> = args.into_iter().map(String::from).collect();
        let (dir, cluster) = (work.dir.clone(), cluster.map(str::to_owned));
        move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            sql_in(&dir, cluster.as_deref(), &args)
        }
    };
    let read = |version: Option<&str>, query: &str| {
        let mut args = vec!["--from", "delta", "--to", "csv"];
        args.extend(version.map(|v| ["--version", v]).into_iter().flatten());
        args.extend([query, target.as_str()]);
        let out = sql(&work, None, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let summary = "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(l) AS l FROM records";
    // Version 0, written locally: the rows with id < 1000.
    let made = write(None, "error", &format!("{query} WHERE id < 1000"))();
    assert!(made.status.success(), "{}", stderr(&made));
    let before = (read(None, summary), visible_parquet(&table));
    assert_eq!(before.0, "n,ids,l\n1000,1000,1000000\n");

    // The append, on a cluster that loses an executor once it has written a part file (its
    // attempt stays in the staging directory; the task runs again on the other executor).
    let mut cluster = Cluster::start_quick_to_lose();
    let remote = std::thread::spawn(write(Some(&cluster.url), "append", query));
    let victim = cluster.kill_first_writer();
    let remote = remote.join().unwrap();
    let (versions, named) = delta_log(&table);
    let visible = visible_parquet(&table);
    eprintln!(
        "the job {}: versions {versions:?}; files in no version: {:?}",
        outcome(&remote),
        parquet_files(&table).difference(&named).collect::<Vec<_>>()
    );
    assert_eq!(visible, named, "the visible part files are the version's");
    // The partitions each executor wrote part files of (`partition 1 wrote file://…`).
    let wrote = |e: &Process| -> std::collections::BTreeSet<String> {
        e.stderr()
            .lines()
            .filter_map(|l| l.strip_prefix("partition "))
            .filter_map(|l| l.split_once(" wrote "))
            .map(|(partition, _)| partition.to_owned())
            .collect()
    };
    let (killed, other) = (
        wrote(&cluster.executors[victim]),
        wrote(&cluster.executors[1 - victim]),
    );
    assert!(!killed.is_empty());
    if remote.status.success() {
        assert_eq!(versions, [0, 1], "one version more");
        // Two attempts of a partition wrote files: the commit took one.
        assert!(
            killed.is_subset(&other),
            "the killed executor's partitions {killed:?} were not written again: {other:?}"
        );
        assert_stderr_contains(&remote, "wrote version 1 of the Delta table");
        // The appended rows each once, as the query gives them; version 0's rows twice.
        let local = sql(
            &work,
            None,
            &csv_query(
                "paddle",
                None,
                "SELECT count(*) AS n, count(DISTINCT id) AS ids, \
                 sum(length(repeat(url, 200))) AS l FROM records WHERE id >= 1000",
                &[path(&paddle)],
            ),
        );
        assert!(local.status.success(), "{}", stderr(&local));
        for version in [None, Some("1")] {
            let appended = read(version, &format!("{summary} WHERE id >= 1000"));
            assert_eq!(appended, stdout(&local), "{version:?}");
            let wrong = read(
                version,
                "SELECT id, count(*) AS n FROM records GROUP BY id \
                 HAVING count(*) <> CASE WHEN id < 1000 THEN 2 ELSE 1 END",
            );
            assert_eq!(
                wrong, "id,n\n",
                "rows not there exactly as often as written"
            );
            assert_eq!(read(version, summary), "n,ids,l\n251000,250000,251000000\n");
        }
        assert!(before.1.is_subset(&visible), "version 0's files stay");
    } else {
        assert_eq!(versions, [0], "no version more: {}", stderr(&remote));
        assert_eq!(read(None, summary), before.0);
        assert_eq!(visible, before.1, "the failed job's files were removed");
    }
    // Version 0 reads as it did.
    assert_eq!(read(Some("0"), summary), before.0);
    let scheduler = cluster.scheduler.stderr();
    assert!(scheduler.contains("lost Executor"), "{scheduler}");
}
