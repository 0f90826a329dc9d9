//! Sync markers: a fresh one per file, and the escape that precedes them in the data.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use super::SYNC_LEN;

/// The `int` that announces a sync entry where a record length would be.
pub(crate) const ESCAPE: [u8; 4] = [0xff; 4];

/// A fresh 16-byte sync marker. Hadoop takes the MD5 of a `java.rmi.server.UID` and the
/// time: any bytes unlikely to occur in the data serve. Here: SipHash with the process's
/// random keys over the time, the process id and a counter (no extra dependency).
///
/// ```
/// use hadoop_record::framing::seqfile::random_sync;
/// assert_ne!(random_sync(), random_sync());
/// ```
pub fn random_sync() -> [u8; SYNC_LEN] {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut out = [0u8; SYNC_LEN];
    for (i, half) in out.chunks_exact_mut(8).enumerate() {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(time);
        h.write_u32(std::process::id());
        h.write_u64(n);
        h.write_usize(i);
        half.copy_from_slice(&h.finish().to_be_bytes());
    }
    out
}

/// The 20 bytes of a sync entry for `sync`.
pub(crate) fn entry(sync: &[u8; SYNC_LEN]) -> [u8; 20] {
    let mut out = [0u8; 20];
    out[..4].copy_from_slice(&ESCAPE);
    out[4..].copy_from_slice(sync);
    out
}
