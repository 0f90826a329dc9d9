//! glibc's allocator, told to keep the buffers of up to 32 MiB it is given back (Parquet's
//! pages and the scans' batches, allocated and freed all the time) instead of mapping and
//! unmapping each of them: a fifth of a dataset write's time went to those page faults.
//! Larger buffers stay mappings of their own, which glibc grows in place (`mremap`) — what
//! an HDFS block read into one buffer needs; mimalloc, tried first, copies them instead
//! and made such a read two and a half times slower.

/// Sets the thresholds; call first in `main`, before any thread starts.
pub fn tune() {
    // SAFETY: mallopt changes the allocator's parameters; no allocation is in flight.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}
