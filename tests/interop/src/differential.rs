//! The differential checks every [`JavaPeer`] runs (Hadoop's rcc classes, and ours for each
//! Hadoop API): random values both ways in all three encodings, streams, `compareTo`,
//! `equals`, `hashCode` and the raw comparator, and `signature()`.

use fixture_harness::arb::{self, Arb};
use hadoop_record::archive::FloatText;
use hadoop_record::schema::FieldType;
use hadoop_record::value::{compare_hadoop, equals_hadoop, hash_hadoop};
use hadoop_record::{RecordWriter, Value};
use proptest::prelude::{prop_oneof, Just, Strategy};

use crate::batch::{Answer, Batch, Comparison, ReadOutcome, Written};
use crate::java::{Classes, JavaPeer};
use crate::report::{mismatch, same_output, show, Report, ENCODINGS};
use crate::{cases, decode, encode, encode_all, encode_text, sample, seed, FORMATS};

/// Whether the peer lacks what `written` needed (Hadoop 3's remnant has no XML writer and
/// no CSV or XML reader); such results are not compared.
fn unsupported(peer: &JavaPeer, result: &Result<impl Sized, String>) -> bool {
    !peer.has_text_formats() && matches!(result, Err(e) if e.contains("unsupported"))
}

/// Random values per record type: 1,000 through Hadoop's classes (the reference), 400
/// through ours (checked against Hadoop's classes and the fixtures besides), unless
/// `HADOOP_RECORD_INTEROP_CASES` says otherwise.
fn per_type(peer: &JavaPeer) -> usize {
    cases(if peer.classes() == Classes::HadoopRcc {
        1000
    } else {
        400
    })
}

/// Random values of every record type, written by hadoop-record in binary, CSV and XML, are
/// read by the peer's readers and written again by its writers: the bytes must be ours.
pub fn peer_reads_and_rewrites_our_bytes(peer: &'static JavaPeer) {
    let (seed, per_type) = (seed(), per_type(peer));
    let schema = peer.schema();
    // Our text as the peer's JDK prints floats: then every byte must agree.
    let float_text = peer.jdk().float_text();
    let mut batch = Batch::new();
    let mut sent = Vec::new();
    for (i, (class, id)) in peer.types().iter().enumerate() {
        let arb = Arb::java().large().nonchars(true);
        let strategy = arb::value(schema, &FieldType::Record(*id), arb);
        for value in sample(&strategy, per_type, seed.wrapping_add(i as u64)) {
            let ours = encode_all(schema, *id, &value, float_text);
            let inputs = [0, 1, 2].map(|e| ours[e].as_ref().ok().map(Vec::as_slice));
            batch.round_trip(class, inputs);
            sent.push((class, value, ours));
        }
    }
    let answers = peer.run("round-trip", &batch);
    let title = format!("Rust → {} → Rust", peer.classes().name());
    let mut report = Report::new(&title, peer.reproduce(seed, "round-trip"));
    for ((class, value, ours), answer) in sent.iter().zip(&answers) {
        let Answer::RoundTrip(outcomes) = answer else {
            panic!("{answer:?}")
        };
        for (input, outcome) in outcomes.iter().enumerate() {
            let what =
                |detail: &str| format!("{class}: Java read our {} and {detail}", ENCODINGS[input]);
            match outcome {
                ReadOutcome::Absent => report.check(ours[input].is_err(), || what("found nothing")),
                ReadOutcome::Failed(e) => report.check(
                    java_cannot_read(input, &ours[input])
                        || unsupported(peer, &Err::<(), _>(e.clone())),
                    || {
                        let theirs = Err(e.clone());
                        mismatch(
                            &what(&format!("failed: {e}")),
                            value,
                            input,
                            &ours[input],
                            &theirs,
                        )
                    },
                ),
                ReadOutcome::Read { unread, written } => {
                    report.check(unread.unwrap_or(0) == 0, || {
                        format!(
                            "{}: {unread:?} bytes unread\n  value: {value:?}",
                            what("left bytes")
                        )
                    });
                    for (output, theirs) in written.iter().enumerate() {
                        if unsupported(peer, theirs) {
                            continue;
                        }
                        report.check(same_output(&ours[output], theirs), || {
                            let d = format!("wrote {} differently", ENCODINGS[output]);
                            mismatch(&what(&d), value, output, &ours[output], theirs)
                        });
                    }
                }
            }
        }
    }
    streams_are_records_back_to_back(&mut report, peer, &sent, &answers, float_text);
    report.finish(&format!(
        "{} values of {} record types, each sent in 3 encodings and re-written in 3, plus streams (seed {seed}, JDK {})",
        sent.len(),
        peer.types().len(),
        peer.jdk().feature
    ));
}

/// Several records in one stream, which Hadoop's XML reader cannot read (one document per
/// record): our stream writer's bytes must be the peer's records back to back, in every
/// encoding.
fn streams_are_records_back_to_back(
    report: &mut Report,
    peer: &JavaPeer,
    sent: &[(&String, Value, [Written; 3])],
    answers: &[Answer],
    float_text: FloatText,
) {
    for (class, id) in peer.types() {
        let values: Vec<(&Value, &Answer)> = sent
            .iter()
            .zip(answers)
            .filter(|((c, _, ours), _)| *c == class && ours[0].is_ok())
            .map(|((_, v, _), a)| (v, a))
            .take(4)
            .collect();
        for (encoding, format) in FORMATS.iter().enumerate() {
            let mut writer = RecordWriter::new(Vec::new(), *format).with_float_text(float_text);
            let mut theirs: Written = Ok(Vec::new());
            for (value, answer) in &values {
                writer
                    .write_value(peer.schema(), *id, value)
                    .expect("a value written before");
                if let Answer::RoundTrip(outcomes) = answer {
                    if let ReadOutcome::Read { written, .. } = &outcomes[0] {
                        theirs = match (theirs, &written[encoding]) {
                            (Ok(mut all), Ok(one)) => {
                                all.extend_from_slice(one);
                                Ok(all)
                            }
                            (Ok(_), Err(e)) => Err(e.clone()),
                            (e, _) => e,
                        };
                    }
                }
            }
            if unsupported(peer, &theirs) {
                continue;
            }
            let ours = writer.into_inner().map_err(|e| e.to_string());
            report.check(same_output(&ours, &theirs), || {
                let what = format!("{class}: a stream of {} records", values.len());
                let shown: Vec<&Value> = values.iter().map(|v| v.0).collect();
                mismatch(&what, &shown, encoding, &ours, &theirs)
            });
        }
    }
}

/// The cases Hadoop's own reader cannot read what its own writer wrote (see
/// tests/fixtures/hadoop-java/README.md): XML holding `]]>`, which XmlRecordOutput leaves
/// unescaped, so the document is ill-formed.
fn java_cannot_read(input: usize, ours: &Written) -> bool {
    input == 2
        && ours
            .as_ref()
            .is_ok_and(|x| x.windows(3).any(|w| w == b"]]>"))
}

/// Random records the peer's generator builds and writes in three encodings are read by
/// hadoop-record and written again: identical bytes.
pub fn we_read_and_rewrite_what_the_peer_writes(peer: &JavaPeer) {
    let (seed, per_type) = (seed(), per_type(peer));
    let schema = peer.schema();
    let mut batch = Batch::new();
    for (i, (class, _)) in peer.types().iter().enumerate() {
        batch.generate(class, seed.wrapping_add(i as u64), per_type as u32);
    }
    let answers = peer.run("java-writes", &batch);
    let float_text = peer.jdk().float_text();
    let title = format!("{} → Rust → bytes", peer.classes().name());
    let mut report = Report::new(&title, peer.reproduce(seed, "java-writes"));
    let mut records = 0;
    for ((class, id), answer) in peer.types().iter().zip(&answers) {
        let Answer::Generated(all) = answer else {
            panic!("{answer:?}")
        };
        for theirs in all {
            records += 1;
            for (input, written) in theirs.iter().enumerate() {
                // Hadoop's binary writer refuses U+FFFE/U+FFFF; then so must ours, below.
                let Ok(bytes) = written else { continue };
                let value = match decode(schema, *id, bytes, FORMATS[input]) {
                    Ok(v) => v,
                    Err(e) => {
                        report.check(false, || {
                            let what = format!(
                                "{class}: we could not read Java's {}: {e}",
                                ENCODINGS[input]
                            );
                            format!("{what}\n  Java: {}", show(input, written, None))
                        });
                        continue;
                    }
                };
                // The binary form is the reference value: everything is re-written from it.
                let outputs: Vec<usize> = if input == 0 {
                    vec![0, 1, 2]
                } else {
                    vec![input]
                };
                for output in outputs {
                    if unsupported(peer, &theirs[output]) {
                        continue;
                    }
                    let ours = encode_text(schema, *id, &value, FORMATS[output], float_text);
                    report.check(same_output(&ours, &theirs[output]), || {
                        let what = format!(
                            "{class}: we read Java's {} and wrote {} differently",
                            ENCODINGS[input], ENCODINGS[output]
                        );
                        mismatch(&what, &value, output, &ours, &theirs[output])
                    });
                }
            }
        }
    }
    report.finish(&format!(
        "{records} records of {} types written by Java in 3 encodings (seed {seed}, JDK {})",
        peer.types().len(),
        peer.jdk().feature
    ));
}

/// Random pairs of every record type (many with equal prefixes) and their binary forms, and
/// what the peer's classes said of them.
pub struct Pairs {
    pub seed: u64,
    pub pairs: Vec<(String, Value, Value)>,
    pub batch: Batch,
}

impl Pairs {
    /// Pairs per record type of `peer`'s schemas (as many as random values, see `per_type`).
    pub fn new(peer: &'static JavaPeer) -> Pairs {
        let (seed, per_type) = (seed(), per_type(peer));
        let schema = peer.schema();
        let mut batch = Batch::new();
        let mut pairs = Vec::new();
        // Only our raw comparators are checked on random pairs (Hadoop's are known wrong).
        let raw = peer.classes() != Classes::HadoopRcc;
        for (i, (class, id)) in peer.types().iter().enumerate() {
            let ty = FieldType::Record(*id);
            // Narrow values make equal fields (and so later fields deciding) common; a pair
            // of the same value checks equality itself.
            let narrow = arb::value(schema, &ty, Arb::java().narrow());
            let wide = arb::value(schema, &ty, Arb::java());
            let strategy = (
                prop_oneof![narrow.clone(), wide],
                prop_oneof![3 => narrow.prop_map(Some), 1 => Just(None)],
            );
            for (a, b) in sample(&strategy, per_type, seed.wrapping_add(i as u64)) {
                let b = b.unwrap_or_else(|| a.clone());
                let bin = |v| encode(schema, *id, v, FORMATS[0]).expect("a value Java can hold");
                batch.compare(class, &bin(&a), &bin(&b), raw);
                pairs.push((class.clone(), a, b));
            }
        }
        Pairs { seed, pairs, batch }
    }

    /// The peer's comparisons, one per pair.
    pub fn run(&self, peer: &JavaPeer, name: &str) -> Vec<Comparison> {
        peer.run(name, &self.batch)
            .into_iter()
            .zip(&self.pairs)
            .map(|(answer, (class, ..))| match answer {
                Answer::Compare(Ok(c)) => c,
                other => panic!("{class}: {other:?}"),
            })
            .collect()
    }
}

/// `compareTo` (both ways), `equals` (both ways) and the exact `hashCode`s agree with
/// `compare_hadoop`, `equals_hadoop` and `hash_hadoop`. For our classes, the raw comparator
/// agrees with `compareTo` too (Hadoop's does not: see `java_backend.rs`, `manifest_comparisons_hold_and_only_hadoops_raw_comparator_is_wrong`).
pub fn comparisons_agree_with_ours(peer: &'static JavaPeer) -> (Pairs, Vec<Comparison>) {
    let pairs = Pairs::new(peer);
    let answers = pairs.run(peer, "compare");
    let title = format!("compareTo/equals/hashCode of {}", peer.classes().name());
    let mut report = Report::new(
        &title,
        format!("Repeat with HADOOP_RECORD_INTEROP_SEED={}", pairs.seed),
    );
    let raw_too = peer.classes() != Classes::HadoopRcc;
    for ((class, a, b), java) in pairs.pairs.iter().zip(&answers) {
        let ours = (
            compare_hadoop(a, b),
            compare_hadoop(b, a),
            equals_hadoop(a, b),
            equals_hadoop(b, a),
            hash_hadoop(a),
            hash_hadoop(b),
        );
        let theirs = (
            java.a_to_b.cmp(&0),
            java.b_to_a.cmp(&0),
            java.a_equals_b,
            java.b_equals_a,
            java.hash_a,
            java.hash_b,
        );
        report.check(ours == theirs, || {
            format!(
                "{class}: (a.compareTo(b), b.compareTo(a), a.equals(b), b.equals(a), a.hashCode(), b.hashCode())\n  \
                 a: {a:?}\n  b: {b:?}\n  ours: {ours:?}\n  Java: {theirs:?}"
            )
        });
        if raw_too {
            let raw = java.raw.as_ref().map(|r| r.as_ref().map(|r| r.signum()));
            report.check(raw == Some(Ok(java.a_to_b.signum())), || {
                format!(
                    "{class}: the raw comparator says {:?} where compareTo says {}\n  a: {a:?}\n  b: {b:?}",
                    java.raw, java.a_to_b
                )
            });
        }
    }
    report.finish(&format!(
        "{} pairs of {} record types{} (seed {})",
        pairs.pairs.len(),
        peer.types().len(),
        if raw_too {
            ", raw comparator included"
        } else {
            ""
        },
        pairs.seed
    ));
    (pairs, answers)
}

/// `signature()` of every class is ours.
pub fn signatures_agree_with_ours(peer: &JavaPeer) {
    let mut batch = Batch::new();
    for (class, _) in peer.types() {
        batch.signature(class);
    }
    let answers = peer.run("signatures", &batch);
    let mut report = Report::new(format!("signature() of {}", peer.classes().name()), "");
    for ((class, id), answer) in peer.types().iter().zip(&answers) {
        let ours = peer
            .schema()
            .signature(*id)
            .map_or_else(|e| e.to_string(), String::from);
        report.check(*answer == Answer::Signature(ours.clone()), || {
            format!("{class}: ours {ours:?}, Java's {answer:?}")
        });
    }
    report.finish(&format!("{} record types", peer.types().len()));
}
