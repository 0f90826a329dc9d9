//! A job's lease on a dataset: `_temporary/<query id>.lease`, written before the job's
//! tasks start and refreshed while it runs, so that another job into the same target can
//! tell a live job's staging (it refuses to start) from a dead one's (it finishes or
//! undoes the dead job's commit, then cleans its staging).
//!
//! A lease is live while its process runs, when it was written on this machine (the same
//! host and boot, the same process id and start time), or, written elsewhere, until it
//! expires: [`TTL`] after its last refresh, by the writer's clock.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;

/// How long a lease written on another machine lasts after its last refresh.
pub(crate) const TTL: Duration = Duration::from_secs(60);

/// How often a running job refreshes its lease.
const REFRESH: Duration = Duration::from_secs(10);

/// The extension of a lease's file in `_temporary/`.
pub(crate) const LEASE_EXTENSION: &str = ".lease";

/// The jobs of this process that hold their lease: a lease this process wrote is live
/// while its job is here, not as long as the process (which may run many jobs).
/// By query id and start.
static HELD: Mutex<Option<HashSet<(String, u64)>>> = Mutex::new(None);

fn held() -> std::sync::MutexGuard<'static, Option<HashSet<(String, u64)>>> {
    HELD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a lease says of the job that holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Lease {
    pub query_id: String,
    /// The host's name, for messages.
    pub host: String,
    /// The host's name and boot id: a process id means something on this machine only.
    pub machine: String,
    pub pid: u32,
    /// When the process started, in the kernel's clock ticks since boot (`None` where
    /// `/proc` does not say): a process id used again by another process is not taken
    /// for the job's.
    pub pid_start: Option<u64>,
    /// When the job started and when the lease expires, in milliseconds since the epoch.
    pub started_ms: u64,
    pub expires_ms: u64,
}

impl Lease {
    /// A new lease for the job `query_id`, held by this process.
    pub fn new(query_id: &str) -> Lease {
        let pid = std::process::id();
        let now = now_ms();
        Lease {
            query_id: query_id.to_owned(),
            host: host(),
            machine: machine(),
            pid,
            pid_start: process_start(pid),
            started_ms: now,
            expires_ms: now + TTL.as_millis() as u64,
        }
    }

    /// The same lease, refreshed now.
    pub fn refreshed(&self) -> Lease {
        Lease {
            expires_ms: now_ms() + TTL.as_millis() as u64,
            ..self.clone()
        }
    }

    /// How this process knows its own leases.
    fn key(&self) -> (String, u64) {
        (self.query_id.clone(), self.started_ms)
    }

    /// Whether it was written on this machine.
    pub fn on_this_machine(&self) -> bool {
        self.machine == machine()
    }

    /// Whether the job that holds it may still be running: a job of this process while it
    /// holds the lease; a job of another process on this machine while that process runs
    /// and refreshes the lease; a job elsewhere until the lease expires.
    pub fn live(&self) -> bool {
        let unexpired = now_ms() < self.expires_ms;
        if !self.on_this_machine() || self.pid_start.is_none() {
            return unexpired;
        }
        if self.pid == std::process::id() && process_start(self.pid) == self.pid_start {
            return held().as_ref().is_some_and(|h| h.contains(&self.key()));
        }
        match process_start(std::process::id()) {
            // No /proc to ask: by the clock alone.
            None => unexpired,
            Some(_) => unexpired && process_start(self.pid) == self.pid_start,
        }
    }

    /// The job, for a message: `query Q (process P on H, started S s ago)`.
    pub fn describe(&self) -> String {
        let ago = now_ms().saturating_sub(self.started_ms) / 1000;
        format!(
            "query {} (process {} on {}, started {ago} s ago)",
            self.query_id, self.pid, self.host
        )
    }

    /// When it expires, for a message about a job on another machine: `in N s`.
    pub fn expires_in(&self) -> String {
        let left = self.expires_ms.saturating_sub(now_ms()).div_ceil(1000);
        format!("in {left} s")
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub fn parse(bytes: &[u8]) -> Option<Lease> {
        serde_json::from_slice(bytes).ok()
    }
}

/// A lease held by this process: refreshed in the background until dropped.
pub(crate) struct Held {
    refresher: JoinHandle<()>,
    /// Why the last refresh failed, and since when (milliseconds since the epoch).
    trouble: Arc<Mutex<Option<(String, u64)>>>,
    key: (String, u64),
}

impl Held {
    /// Writes `lease` at `path` of `store`, and keeps refreshing it.
    pub async fn take(
        store: Arc<dyn ObjectStore>,
        path: Path,
        lease: Lease,
    ) -> object_store::Result<Held> {
        store.put(&path, PutPayload::from(lease.to_bytes())).await?;
        held().get_or_insert_with(HashSet::new).insert(lease.key());
        let trouble = Arc::new(Mutex::new(None));
        let seen = trouble.clone();
        let lease_refreshed = lease.clone();
        let refresher = tokio::spawn(async move {
            let lease = lease_refreshed;
            loop {
                tokio::time::sleep(REFRESH).await;
                let put = store.put(&path, lease.refreshed().to_bytes().into()).await;
                let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
                match put {
                    Ok(_) => *seen = None,
                    Err(e) => {
                        let since = seen.as_ref().map_or_else(now_ms, |(_, since)| *since);
                        *seen = Some((e.to_string(), since));
                    }
                }
            }
        });
        Ok(Held {
            refresher,
            trouble,
            key: lease.key(),
        })
    }

    /// Stops refreshing the lease (before it is removed: a refresh must not write it again).
    pub fn stop(&self) {
        self.refresher.abort();
        if let Some(held) = held().as_mut() {
            held.remove(&self.key);
        }
    }

    /// Fails when the lease could not be refreshed for half its life: another job may soon
    /// take this one for dead.
    pub fn check(&self) -> Result<(), String> {
        let trouble = self.trouble.lock().unwrap_or_else(PoisonError::into_inner);
        match &*trouble {
            Some((e, since)) if now_ms().saturating_sub(*since) > TTL.as_millis() as u64 / 2 => {
                Err(format!("the job's lease could not be refreshed: {e}"))
            }
            _ => Ok(()),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.stop();
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "an unknown host".to_owned())
}

/// This machine: its host name and boot id (containers on one kernel share the boot id,
/// not their host names).
fn machine() -> String {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    format!("{}/{}", host(), boot.trim())
}

/// When process `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd field);
/// `None` if there is no such process, or no `/proc`.
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name, in parentheses, may hold spaces: the fields after it count from
    // its closing parenthesis (the 3rd field comes first).
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lease_is_live_while_its_job_holds_it() {
        let store: Arc<dyn ObjectStore> = Arc::new(object_store::memory::InMemory::new());
        let lease = Lease::new("held-q");
        assert!(!lease.live(), "not yet taken");
        let path = Path::from("_temporary/held-q.lease");
        let held = Held::take(store.clone(), path.clone(), lease.clone())
            .await
            .unwrap();
        assert!(lease.live());
        let written = store.get(&path).await.unwrap().bytes().await.unwrap();
        assert_eq!(Lease::parse(&written), Some(lease.clone()));
        assert_eq!(held.check(), Ok(()));
        drop(held);
        assert!(!lease.live(), "the job ended");
    }

    #[test]
    fn a_lease_of_another_process_lives_while_that_process_runs() {
        let lease = Lease::new("q");
        assert_eq!(Lease::parse(&lease.to_bytes()), Some(lease.clone()));
        if lease.pid_start.is_some() {
            // A process that runs (this test's parent, say: its id is not this one's).
            let parent = std::os::unix::process::parent_id();
            let running = Lease {
                pid: parent,
                pid_start: process_start(parent),
                ..lease.clone()
            };
            assert!(running.live());
            let expired = Lease {
                expires_ms: 0,
                ..running.clone()
            };
            assert!(!expired.live(), "running, but no longer refreshed");
            // The same process id, started at another time: another process.
            let other = Lease {
                pid_start: lease.pid_start.map(|s| s + 1),
                ..lease.clone()
            };
            assert!(!other.live());
            // A process that has ended.
            let mut child = std::process::Command::new("true").spawn().unwrap();
            let pid = child.id();
            child.wait().unwrap();
            let ended = Lease {
                pid,
                ..lease.clone()
            };
            assert!(!ended.live());
        }
    }

    #[test]
    fn a_lease_from_another_machine_lives_until_it_expires() {
        let lease = Lease {
            machine: "elsewhere/1".into(),
            ..Lease::new("q")
        };
        assert!(lease.live());
        let expired = Lease {
            expires_ms: now_ms() - 1,
            ..lease.clone()
        };
        assert!(!expired.live());
        assert!(lease.describe().starts_with("query q (process "));
        assert_eq!(lease.expires_in(), "in 60 s");
    }
}
