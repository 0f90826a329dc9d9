//! `zk`: a small ZooKeeper command line on the generated protocol types.
//!
//! ```text
//! zk --server 127.0.0.1:2181 create /app "some data"
//! zk --server 127.0.0.1:2181 get /app
//! zk --server 127.0.0.1:2181 set /app "new data" --version 0
//! zk --server 127.0.0.1:2181 ls /
//! zk --server 127.0.0.1:2181 delete /app
//! zk --server 127.0.0.1:2181 ping
//! zk print-txnlog data/version-2/log.100000001
//! zk print-snapshot data/version-2/snapshot.0
//! ```
//!
//! A server's error is printed with ZooKeeper's name and code (`NONODE (-101)`) and the exit
//! status is 2; damaged files print what was read, then the damage with its byte offset, and
//! exit with 1.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use zookeeper_client::client::{Client, CreateMode};
use zookeeper_client::datadir::{node_json, txn_entry_json, SnapshotReader, TxnLogReader};
use zookeeper_client::server::persistence::FileHeader;
use zookeeper_client::Error;

/// A small ZooKeeper client, and a printer of ZooKeeper's transaction logs and snapshots.
#[derive(Debug, Parser)]
#[command(name = "zk", version)]
struct Cli {
    /// The server, HOST:PORT
    #[arg(long, default_value = "127.0.0.1:2181", global = true)]
    server: String,

    /// Session timeout in milliseconds
    #[arg(long, default_value_t = 10_000, global = true)]
    timeout_ms: u64,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a node (with no DATA: Java's null)
    Create {
        path: String,
        data: Option<String>,
        /// Ephemeral: gone when the session ends
        #[arg(long)]
        ephemeral: bool,
        /// Sequential: a counter is appended to the name
        #[arg(long)]
        sequential: bool,
    },
    /// Print a node's data (UTF-8, lossy) and its stat
    Get { path: String },
    /// Set a node's data
    Set {
        path: String,
        data: String,
        /// Only if the node has this version (-1: any)
        #[arg(long, default_value_t = -1, allow_hyphen_values = true)]
        version: i32,
    },
    /// List a node's children
    Ls { path: String },
    /// Delete a node
    Delete {
        path: String,
        /// Only if the node has this version (-1: any)
        #[arg(long, default_value_t = -1, allow_hyphen_values = true)]
        version: i32,
    },
    /// Ping the server
    Ping,
    /// Print a transaction log (log.*): one JSON object per transaction
    PrintTxnlog { file: PathBuf },
    /// Print a snapshot (snapshot.*): one JSON object per session, ACL list, node and seal
    PrintSnapshot { file: PathBuf },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::PrintTxnlog { file } => return print_file(&file, print_txnlog),
        Command::PrintSnapshot { file } => return print_file(&file, print_snapshot),
        command => client_command(&cli.server, Duration::from_millis(cli.timeout_ms), command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zk: {e}");
            ExitCode::from(if e.code().is_some() { 2 } else { 1 })
        }
    }
}

fn client_command(server: &str, timeout: Duration, command: Command) -> Result<(), Error> {
    let mut zk = Client::connect(server, timeout)?;
    match command {
        Command::Create {
            path,
            data,
            ephemeral,
            sequential,
        } => {
            let mode = match (ephemeral, sequential) {
                (false, false) => CreateMode::Persistent,
                (true, false) => CreateMode::Ephemeral,
                (false, true) => CreateMode::PersistentSequential,
                (true, true) => CreateMode::EphemeralSequential,
            };
            println!(
                "{}",
                zk.create(&path, data.as_deref().map(str::as_bytes), mode)?
            );
        }
        Command::Get { path } => {
            let (data, stat) = zk.get_data(&path)?;
            match data {
                Some(d) => println!("{}", String::from_utf8_lossy(&d)),
                None => println!("null"),
            }
            println!(
                "czxid={:#x} mzxid={:#x} pzxid={:#x} version={} cversion={} aversion={} ephemeralOwner={:#x} dataLength={} numChildren={}",
                stat.czxid, stat.mzxid, stat.pzxid, stat.version, stat.cversion, stat.aversion,
                stat.ephemeral_owner, stat.data_length, stat.num_children
            );
        }
        Command::Set {
            path,
            data,
            version,
        } => {
            let stat = zk.set_data(&path, Some(data.as_bytes()), version)?;
            println!("version={}", stat.version);
        }
        Command::Ls { path } => {
            for child in zk.get_children(&path)? {
                println!("{child}");
            }
        }
        Command::Delete { path, version } => zk.delete(&path, version)?,
        Command::Ping => {
            zk.ping()?;
            println!("pong (session {:#x})", zk.session_id());
        }
        Command::PrintTxnlog { .. } | Command::PrintSnapshot { .. } => unreachable!(),
    }
    zk.close()
}

/// Reads `file` and prints it with `print`; exit status 1 on damage (after what was read).
fn print_file(file: &std::path::Path, print: fn(&[u8]) -> Result<(), Error>) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("zk: {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    match print(&bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zk: {}: {e}", file.display());
            ExitCode::FAILURE
        }
    }
}

fn print_txnlog(bytes: &[u8]) -> Result<(), Error> {
    let reader = TxnLogReader::new(bytes)?;
    print_header("ZKLG", reader.header());
    print_items(reader, txn_entry_json)
}

fn print_snapshot(bytes: &[u8]) -> Result<(), Error> {
    let reader = SnapshotReader::new(bytes)?;
    print_header("ZKSN", reader.header());
    print_items(reader, node_json)
}

/// The first line of `print-txnlog` and `print-snapshot`: the file header.
fn print_header(magic: &str, h: &FileHeader) {
    println!(
        "{}",
        serde_json::json!({ "magic": magic, "version": h.version, "dbid": h.dbid })
    );
}

/// A line of JSON for each item, up to the first error.
fn print_items<T>(
    items: impl Iterator<Item = Result<T, Error>>,
    json: fn(&T) -> String,
) -> Result<(), Error> {
    for item in items {
        println!("{}", json(&item?));
    }
    Ok(())
}
