//! How far scans have got: bytes read from record files, shared with whoever shows it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Bytes read by the scans of a [`RecordFormat`](crate::RecordFormat), and records decoded.
/// Counters only go up; a reader polls them (a progress bar).
#[derive(Debug, Default)]
pub struct ScanProgress {
    bytes: AtomicU64,
    records: AtomicU64,
    total: AtomicU64,
    skipped: Mutex<Vec<String>>,
    warnings: Mutex<Vec<String>>,
}

impl ScanProgress {
    /// Bytes read from the files so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// The size of the files of the tables registered with the format, in bytes (a scan may
    /// read less, when it needs only part, or more, when ranges read headers before them).
    pub fn total_bytes(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    pub(crate) fn add_total(&self, bytes: u64) {
        self.total.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Records decoded so far.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }

    /// What recovering readers (`FramingOptions::recover`) skipped of damaged files, one
    /// line each, `FILE: skipped N byte(s) at byte O: why`, in the order ranges finished.
    pub fn skipped(&self) -> Vec<String> {
        self.skipped.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub(crate) fn add_skipped(&self, file: &str, skipped: Vec<String>) {
        if skipped.is_empty() {
            return;
        }
        if let Ok(mut all) = self.skipped.lock() {
            all.extend(skipped.into_iter().map(|s| format!("{file}: {s}")));
        }
    }

    /// What the files of the tables registered with the format may not be as they are read
    /// (`FILE is a SequenceFile of a.B values, read as c.D: …`), one line each; nothing is
    /// wrong with them as files.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.lock().map(|w| w.clone()).unwrap_or_default()
    }

    pub(crate) fn add_warning(&self, warning: String) {
        if let Ok(mut all) = self.warnings.lock() {
            all.push(warning);
        }
    }

    pub(crate) fn add(&self, bytes: u64, records: u64) {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.records.fetch_add(records, Ordering::Relaxed);
    }
}
