//! Differential tests against Hadoop 2.10.2's own record I/O, on classes Hadoop's own rcc
//! generated for the test schemas (see `interop_tests::java` and `interop_tests::differential`):
//! - random values written by hadoop-record are read by Hadoop's readers and written again by
//!   Hadoop's writers, in all three encodings: the bytes must be ours;
//! - random records Hadoop writes are read by hadoop-record and written again: identical;
//! - `compareTo`, `equals` and `hashCode` agree with ours on random pairs;
//! - `signature()` agrees with ours.

use interop_tests::batch::{Answer, Batch, Comparison};
use interop_tests::differential::{
    comparisons_agree_with_ours, peer_reads_and_rewrites_our_bytes, signatures_agree_with_ours,
    we_read_and_rewrite_what_the_peer_writes,
};
use interop_tests::java::JavaPeer;

/// Runs `check` against the classes Hadoop's rcc generates, unless the peers are skipped.
fn with_hadoop<T>(check: fn(&'static JavaPeer) -> T) {
    if let Some(peer) = JavaPeer::hadoop() {
        check(peer);
    }
}

#[test]
fn hadoop_reads_and_rewrites_our_bytes_identically() {
    with_hadoop(peer_reads_and_rewrites_our_bytes);
}

#[test]
fn we_read_and_rewrite_what_hadoop_writes_identically() {
    with_hadoop(we_read_and_rewrite_what_the_peer_writes);
}

#[test]
fn compare_to_equals_and_hash_code_are_hadoops() {
    with_hadoop(comparisons_agree_with_ours);
}

#[test]
fn signatures_are_hadoops() {
    with_hadoop(signatures_agree_with_ours);
}

/// `PartialOrd` (and `Ord`, where there is no float) of the Rust records `rcc` generates
/// are Hadoop's order: on pairs where Rust's own order would disagree with Java's
/// `compareTo` — supplementary against high-BMP characters, maps (keys first, in UTF-16
/// order), nested records, floats, NaN — Java's `compareTo` says less or greater and we say
/// the same; where it says equal, we say equal exactly when the records are `==` (and order
/// them consistently when they are not); where it contradicts itself (NaN, greater both
/// ways), we say they are unordered.
#[test]
fn generated_records_order_as_hadoops_compare_to() {
    use generated_records::fixtures::oracle::{composite, prims};
    use std::cmp::Ordering::{self, Equal};
    use std::collections::BTreeMap;

    let Some(peer) = JavaPeer::hadoop() else {
        return;
    };
    let mut batch = Batch::new();
    /// What is checked of one pair once Java has answered: the report, or the failure.
    type Check = Box<dyn Fn(&Comparison) -> Result<String, String>>;
    let mut checks: Vec<Check> = Vec::new();
    fn pair<T>(
        peer: &JavaPeer,
        batch: &mut Batch,
        checks: &mut Vec<Check>,
        class: &str,
        a: T,
        b: T,
        total: Option<fn(&T, &T) -> Ordering>,
    ) where
        T: hadoop_record::Record + PartialOrd + PartialEq + std::fmt::Debug + 'static,
    {
        let bin = |r: &T| hadoop_record::to_vec(r, hadoop_record::Format::Binary).unwrap();
        batch.compare(peer.class_of(class), &bin(&a), &bin(&b), false);
        let class = class.to_owned();
        checks.push(Box::new(move |java: &Comparison| {
            let (x, y) = (java.a_to_b.signum(), java.b_to_a.signum());
            let (ours, back) = (a.partial_cmp(&b), b.partial_cmp(&a));
            let ok = match (x, y) {
                (0, 0) if a == b => ours == Some(Equal) && back == Some(Equal),
                (0, 0) => {
                    ours.is_some_and(Ordering::is_ne)
                        && back == ours.map(Ordering::reverse)
                        && a.compare_hadoop(&b) == Equal
                }
                _ if x == -y => ours == Some(x.cmp(&0)) && back == Some(y.cmp(&0)),
                _ => ours.is_none() && back.is_none(),
            };
            let total_ok = total.is_none_or(|cmp| Some(cmp(&a, &b)) == ours);
            let what = format!(
                "{class}: Java says ({x}, {y}), we say ({ours:?}, {back:?})\n  a: {a:?}\n  b: {b:?}"
            );
            if ok && total_ok {
                Ok(what)
            } else {
                Err(what)
            }
        }));
    }
    let string = |s: &str| prims::StringRec { v: s.into() };
    for (a, b) in [
        ("\u{1F600}", "\u{FF5E}"),
        ("a\u{10000}b", "a\u{E000}"),
        ("\u{E000}\u{1F600}", "\u{E000}\u{E000}"),
        ("x", "x"),
        ("", "a"),
    ] {
        let total = Some(Ord::cmp as fn(&prims::StringRec, &prims::StringRec) -> Ordering);
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.prims.StringRec",
            string(a),
            string(b),
            total,
        );
    }
    let float = |v: f32| prims::FloatRec { v };
    let double = |v: f64| prims::DoubleRec { v };
    for (a, b) in [
        (f32::NAN, 1.0),
        (f32::NAN, f32::NAN),
        (-0.0, 0.0),
        (1.0, 2.0),
        (f32::INFINITY, f32::NAN),
    ] {
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.prims.FloatRec",
            float(a),
            float(b),
            None,
        );
        let (a, b) = (f64::from(a), f64::from(b));
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.prims.DoubleRec",
            double(a),
            double(b),
            None,
        );
    }
    let prims = |f: f32, s: &str| prims::AllPrims {
        f,
        s: s.into(),
        ..Default::default()
    };
    for (a, b) in [
        (prims(f32::NAN, "a"), prims(f32::NAN, "b")),
        (prims(1.0, "\u{1F600}"), prims(1.0, "\u{FF5E}")),
        (prims(-0.0, "z"), prims(0.0, "z")),
    ] {
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.prims.AllPrims",
            a,
            b,
            None,
        );
    }
    let inner = |tag: &str, n: i64| composite::Inner { tag: tag.into(), n };
    for (a, b) in [
        (inner("\u{1F600}", 9), inner("\u{FF5E}", 1)),
        (inner("a", 2), inner("a", 1)),
    ] {
        let total = Some(Ord::cmp as fn(&composite::Inner, &composite::Inner) -> Ordering);
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.composite.Inner",
            a,
            b,
            total,
        );
    }
    let strings = |m: &[(&str, i32)]| -> BTreeMap<String, i32> {
        m.iter().map(|&(k, v)| (k.to_owned(), v)).collect()
    };
    let containers =
        |msi: BTreeMap<String, i32>, mlvd: &[(i64, &[f64])], vf: &[f32]| composite::Containers {
            msi,
            mlvd: mlvd.iter().map(|&(k, v)| (k, v.to_vec())).collect(),
            vf: vf.to_vec(),
            ..Default::default()
        };
    for (a, b) in [
        // Keys in UTF-16 order: U+1F600 first; Rust's BTreeMap iterates U+FF5E first.
        (
            containers(strings(&[("\u{1F600}", 1), ("\u{FF5E}", 1)]), &[], &[]),
            containers(strings(&[("\u{FF5E}", 0), ("\u{FFFD}", 0)]), &[], &[]),
        ),
        // Same keys, other values: equal for Hadoop, ordered by the values for Rust.
        (
            containers(strings(&[("a", 1)]), &[], &[]),
            containers(strings(&[("a", 2)]), &[], &[]),
        ),
        (
            containers(BTreeMap::new(), &[(1, &[1.0])], &[]),
            containers(BTreeMap::new(), &[(1, &[2.0])], &[]),
        ),
        // Fewer keys, otherwise the same: smaller.
        (
            containers(strings(&[("a", 1)]), &[], &[]),
            containers(strings(&[("a", 1), ("b", 0)]), &[], &[]),
        ),
        (
            containers(BTreeMap::new(), &[], &[f32::NAN]),
            containers(BTreeMap::new(), &[], &[f32::NAN]),
        ),
        (
            containers(BTreeMap::new(), &[], &[1.5]),
            containers(BTreeMap::new(), &[], &[1.5]),
        ),
    ] {
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.composite.Containers",
            a,
            b,
            None,
        );
    }
    let outer = |tag: &str, msi: &[(&str, i32)], flag: bool| composite::Outer {
        a: inner(tag, 0),
        c: containers(strings(msi), &[], &[]),
        flag,
        ..Default::default()
    };
    for (a, b) in [
        (
            outer("\u{1F600}", &[], false),
            outer("\u{FF5E}", &[], false),
        ),
        // A nested map equal for Hadoop: the later field decides, as in Java.
        (
            outer("t", &[("k", 5)], false),
            outer("t", &[("k", 1)], true),
        ),
        (outer("t", &[("k", 5)], true), outer("t", &[("k", 1)], true)),
    ] {
        pair(
            peer,
            &mut batch,
            &mut checks,
            "oracle.composite.Outer",
            a,
            b,
            None,
        );
    }

    let answers = peer.run("order", &batch);
    assert_eq!(answers.len(), checks.len());
    let mut failures = Vec::new();
    for (answer, check) in answers.iter().zip(&checks) {
        match answer {
            Answer::Compare(Ok(java)) => {
                if let Err(what) = check(java) {
                    failures.push(what);
                }
            }
            other => failures.push(format!("the peer answered {other:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "[interop] {} pairs ordered as Java's compareTo orders them",
        checks.len()
    );
}
