//! The client against a real ZooKeeper 3.9.5 server (started here on a loopback port with a
//! temporary data directory, stopped at the end), then the transaction logs and snapshots
//! that server wrote, printed by our readers and compared with ZooKeeper's own tools
//! (`TxnLogToolkit`, `SnapshotFormatter`) on the same files. Skipped only by
//! `HADOOP_RECORD_SKIP_PEERS`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use interop_tests::tools::say;
use interop_tests::zookeeper::ZkPeer;
use zookeeper_client::client::{Client, CreateMode};
use zookeeper_client::datadir::{SnapshotItem, SnapshotReader, TxnLogReader};
use zookeeper_client::{opcode, Code, Error};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn code(result: Result<impl std::fmt::Debug, Error>) -> Code {
    match result {
        Err(e) => e
            .code()
            .unwrap_or_else(|| panic!("not a ZooKeeper error: {e}")),
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

/// One server for the whole binary: client operations, then the files it wrote.
#[test]
fn client_against_a_real_server_and_its_data_directory_against_zookeepers_tools() {
    let Some(peer) = ZkPeer::get() else { return };
    let data = temp_dir("data");
    // A small snapCount makes the server roll its log and take snapshots as it goes.
    let server = peer.start_server(&data, &["-Dzookeeper.snapCount=8"]);
    let addr = server.addr();
    let timeout = Duration::from_secs(10);

    let mut zk = Client::connect(addr, timeout).expect("connect");
    assert_ne!(zk.session_id(), 0);
    zk.ping().expect("ping");
    assert_eq!(
        zk.create("/app", Some(b"v1"), CreateMode::Persistent)
            .unwrap(),
        "/app"
    );
    assert_eq!(
        code(zk.create("/app", None, CreateMode::Persistent)),
        Code::NODE_EXISTS
    );
    let (d, stat) = zk.get_data("/app").unwrap();
    assert_eq!(d.as_deref(), Some(&b"v1"[..]));
    assert_eq!((stat.version, stat.data_length), (0, 2));
    // Java's null data survives the server: created with null, read back as null.
    zk.create("/app/null", None, CreateMode::Persistent)
        .unwrap();
    assert_eq!(zk.get_data("/app/null").unwrap().0, None);
    zk.create("/app/empty", Some(b""), CreateMode::Persistent)
        .unwrap();
    assert_eq!(zk.get_data("/app/empty").unwrap().0, Some(Vec::new()));
    let seq = zk
        .create(
            "/app/seq-",
            Some("ünïcödé ✓".as_bytes()),
            CreateMode::PersistentSequential,
        )
        .unwrap();
    assert_eq!(seq, "/app/seq-0000000002");
    zk.create("/app/eph", Some(b"e"), CreateMode::Ephemeral)
        .unwrap();
    assert_eq!(code(zk.set_data("/app", Some(b"v2"), 7)), Code::BAD_VERSION);
    assert_eq!(zk.set_data("/app", Some(b"v2"), 0).unwrap().version, 1);
    let mut children = zk.get_children("/app").unwrap();
    children.sort();
    assert_eq!(children, ["empty", "eph", "null", "seq-0000000002"]);
    assert_eq!(code(zk.delete("/app", -1)), Code::NOT_EMPTY);
    assert_eq!(code(zk.get_data("/missing")), Code::NO_NODE);
    assert_eq!(code(zk.delete("/app/empty", 3)), Code::BAD_VERSION);
    zk.delete("/app/empty", 0).unwrap();
    assert_eq!(code(zk.get_children("/app/empty")), Code::NO_NODE);
    zk.close().expect("close");

    // The ephemeral node went with the session.
    let mut zk = Client::connect(addr, timeout).unwrap();
    assert_eq!(code(zk.get_data("/app/eph")), Code::NO_NODE);
    zk.close().unwrap();

    // The command line, on the same server.
    let zk_cli = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_zk"))
            .arg("--server")
            .arg(addr.to_string())
            .args(args)
            .output()
            .expect("running zk");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(zk_cli(&["create", "/cli", "from the CLI"]).1, "/cli\n");
    let (status, out, _) = zk_cli(&["get", "/cli"]);
    assert_eq!(status, Some(0));
    assert!(out.starts_with("from the CLI\nczxid="), "{out}");
    assert_eq!(
        zk_cli(&["set", "/cli", "again", "--version", "0"]).1,
        "version=1\n"
    );
    let (status, _, err) = zk_cli(&["create", "/cli"]);
    assert_eq!(
        (status, err.as_str()),
        (Some(2), "zk: create /cli: NODEEXISTS (-110)\n")
    );
    assert!(zk_cli(&["ls", "/"]).1.lines().any(|l| l == "cli"));
    assert!(zk_cli(&["ping"]).1.starts_with("pong"));
    assert_eq!(zk_cli(&["delete", "/cli"]).0, Some(0));
    let (status, _, err) = zk_cli(&["get", "/cli"]);
    assert_eq!(
        (status, err.as_str()),
        (Some(2), "zk: getData /cli: NONODE (-101)\n")
    );

    let dir = server.version_dir();
    server.stop();
    check_data_directory(peer, &dir);
    let _ = std::fs::remove_dir_all(&data);
}

fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    out.sort();
    out
}

fn check_data_directory(peer: &ZkPeer, dir: &Path) {
    let logs = files(dir, "log.");
    let snapshots = files(dir, "snapshot.");
    assert!(logs.len() >= 2, "the server rolled its log: {logs:?}");
    assert!(
        snapshots.len() >= 2,
        "the server took snapshots: {snapshots:?}"
    );
    let mut txns = 0;
    let mut types = BTreeMap::new();
    for log in &logs {
        txns += compare_log(peer, log, &mut types);
    }
    for snapshot in &snapshots {
        compare_snapshot(peer, snapshot);
    }
    say(&format!(
        "{} transaction logs ({txns} transactions: {types:?}) and {} snapshots agree with TxnLogToolkit and SnapshotFormatter",
        logs.len(),
        snapshots.len()
    ));
    for ty in [
        "createSession",
        "create",
        "setData",
        "delete",
        "closeSession",
        "error",
    ] {
        assert!(types.contains_key(ty), "no {ty} transaction in {types:?}");
    }
    check_damage(peer, &logs);
}

/// Our transactions against `TxnLogToolkit`'s lines: session, cxid, zxid and type of each,
/// the header, and the count. Returns the count.
fn compare_log(peer: &ZkPeer, log: &Path, types: &mut BTreeMap<String, usize>) -> usize {
    let bytes = std::fs::read(log).unwrap();
    let reader = TxnLogReader::new(&bytes).unwrap();
    let header = format!(
        "ZooKeeper Transactional Log File with dbid {} txnlog format version {}",
        reader.header().dbid,
        reader.header().version
    );
    let ours: Vec<String> = reader
        .map(|e| {
            let e = e.unwrap_or_else(|e| panic!("{}: {e}", log.display()));
            *types.entry(opcode::name(e.header.r#type)).or_default() += 1;
            format!(
                "session {:#x} cxid {:#x} zxid {:#x} {}",
                e.header.client_id,
                i64::from(e.header.cxid),
                e.header.zxid,
                opcode::name(e.header.r#type)
            )
        })
        .collect();
    let text = peer.tool(
        "org.apache.zookeeper.server.persistence.TxnLogToolkit",
        &[&log.to_string_lossy()],
    );
    let theirs: Vec<String> = text
        .lines()
        .filter_map(|l| l.find(" session 0x").map(|i| &l[i + 1..]))
        .map(|l| l.split(' ').take(7).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        text.lines().next(),
        Some(header.as_str()),
        "{}",
        log.display()
    );
    assert_eq!(ours, theirs, "{}", log.display());
    let eof = format!("EOF reached after {} txns.", ours.len());
    assert!(text.lines().any(|l| l == eof), "{}: {text}", log.display());
    ours.len()
}

/// Our nodes and sessions against `SnapshotFormatter -d`.
fn compare_snapshot(peer: &ZkPeer, snapshot: &Path) {
    let bytes = std::fs::read(snapshot).unwrap();
    let reader = SnapshotReader::new(&bytes).unwrap();
    let mut nodes = BTreeMap::new();
    let mut sessions = Vec::new();
    let mut seals = 0;
    for item in reader {
        match item.unwrap_or_else(|e| panic!("{}: {e}", snapshot.display())) {
            SnapshotItem::Node(n) => {
                let path = if n.path.is_empty() {
                    "/".to_string()
                } else {
                    n.path.clone()
                };
                let s = &n.stat;
                let fields = vec![
                    format!("cZxid = {:#016x}", s.czxid),
                    format!("mZxid = {:#016x}", s.mzxid),
                    format!("pZxid = {:#016x}", s.pzxid),
                    format!("cversion = {}", s.cversion),
                    format!("dataVersion = {}", s.version),
                    format!("aclVersion = {}", s.aversion),
                    format!("ephemeralOwner = {:#016x}", s.ephemeral_owner),
                    format!("data = {}", base64(n.data.as_deref().unwrap_or_default()))
                        .trim_end()
                        .to_string(),
                ];
                nodes.insert(path, fields);
            }
            SnapshotItem::Session { id, timeout } => {
                sessions.push(format!("{id:#016x}, {timeout}"))
            }
            SnapshotItem::Seal { .. } => seals += 1,
            _ => {}
        }
    }
    assert!(seals >= 1, "{}", snapshot.display());
    let text = peer.tool(
        "org.apache.zookeeper.server.SnapshotFormatter",
        &["-d", &snapshot.to_string_lossy()],
    );
    let mut theirs = BTreeMap::new();
    let mut their_sessions = Vec::new();
    let mut in_sessions = false;
    for block in text.split("----\n") {
        let mut lines = block.lines();
        let Some(first) = lines.next() else { continue };
        if first.starts_with("Session Details") {
            in_sessions = true;
            continue;
        }
        if in_sessions || first.starts_with("ZNode Details") || first.starts_with("Last zxid") {
            continue;
        }
        let fields: Vec<String> = lines
            .map(str::trim)
            .filter(|l| !l.starts_with("ctime") && !l.starts_with("mtime"))
            .map(str::to_string)
            .collect();
        theirs.insert(first.to_string(), fields);
    }
    for line in text
        .lines()
        .skip_while(|l| !l.starts_with("Session Details"))
        .skip(1)
    {
        if line.starts_with("0x") {
            // `sid, timeout, ephemeralCount`
            let parts: Vec<&str> = line.split(", ").collect();
            their_sessions.push(format!("{}, {}", parts[0], parts[1]));
        }
    }
    assert_eq!(nodes, theirs, "{}", snapshot.display());
    // DataTree counts the root twice: it is stored under "" and under "/".
    let count = format!("ZNode Details (count={}):", nodes.len() + 1);
    assert!(text.contains(&count), "{}: {text}", snapshot.display());
    sessions.sort();
    their_sessions.sort();
    assert_eq!(sessions, their_sessions, "{}", snapshot.display());
}

/// Standard base64, as `Base64.getEncoder()` writes it.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A checksum mismatch and a torn last entry: reported with their offsets, the entries
/// before them still read; ZooKeeper's own tool flags the same entry.
fn check_damage(peer: &ZkPeer, logs: &[PathBuf]) {
    let (log, bytes) = logs
        .iter()
        .map(|l| (l, std::fs::read(l).unwrap()))
        .max_by_key(|(_, b)| TxnLogReader::new(b).unwrap().count())
        .unwrap();
    let entries: Vec<_> = TxnLogReader::new(&bytes)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(entries.len() >= 3, "{}", log.display());
    let third = entries[2].offset as usize;

    // A flipped byte inside the third entry's payload.
    let mut flipped = bytes.clone();
    flipped[third + 12 + 4] ^= 0x40;
    let read: Vec<_> = TxnLogReader::new(&flipped).unwrap().collect();
    assert_eq!(read.len(), 3);
    assert!(read[..2].iter().all(Result::is_ok));
    match &read[2] {
        Err(Error::Damaged { offset, message }) => {
            assert_eq!(*offset, third as u64);
            assert!(message.starts_with("checksum mismatch"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let dir = temp_dir("damaged");
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("log.1");
    std::fs::write(&damaged, &flipped).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_zk"))
        .arg("print-txnlog")
        .arg(&damaged)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1 + 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("byte {third}: checksum mismatch")),
        "{err}"
    );
    let java = peer.tool(
        "org.apache.zookeeper.server.persistence.TxnLogToolkit",
        &[&damaged.to_string_lossy()],
    );
    assert_eq!(
        java.lines().filter(|l| l.starts_with("CRC ERROR")).count(),
        1,
        "{java}"
    );

    // The file cut inside the third entry: a torn write.
    let cut = &bytes[..third + 20];
    let read: Vec<_> = TxnLogReader::new(cut).unwrap().collect();
    assert_eq!(read.len(), 3);
    match &read[2] {
        Err(Error::Damaged { offset, message }) => {
            assert_eq!(*offset, third as u64);
            assert!(message.starts_with("a truncated entry"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
