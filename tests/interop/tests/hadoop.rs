//! Differential tests against Hadoop 2.10.2's own record I/O, on classes Hadoop's own rcc
//! generated for the test schemas (see `interop_tests::java` and `interop_tests::differential`):
//! - random values written by hadoop-record are read by Hadoop's readers and written again by
//!   Hadoop's writers, in all three encodings: the bytes must be ours;
//! - random records Hadoop writes are read by hadoop-record and written again: identical;
//! - `compareTo`, `equals` and `hashCode` agree with ours on random pairs;
//! - `signature()` agrees with ours.

use interop_tests::differential::{
    comparisons_agree_with_ours, peer_reads_and_rewrites_our_bytes, signatures_agree_with_ours,
    we_read_and_rewrite_what_the_peer_writes,
};
use interop_tests::java::JavaPeer;

#[test]
fn hadoop_reads_and_rewrites_our_bytes_identically() {
    if let Some(peer) = JavaPeer::hadoop() {
        peer_reads_and_rewrites_our_bytes(peer);
    }
}

#[test]
fn we_read_and_rewrite_what_hadoop_writes_identically() {
    if let Some(peer) = JavaPeer::hadoop() {
        we_read_and_rewrite_what_the_peer_writes(peer);
    }
}

#[test]
fn compare_to_equals_and_hash_code_are_hadoops() {
    if let Some(peer) = JavaPeer::hadoop() {
        comparisons_agree_with_ours(peer);
    }
}

#[test]
fn signatures_are_hadoops() {
    if let Some(peer) = JavaPeer::hadoop() {
        signatures_agree_with_ours(peer);
    }
}
