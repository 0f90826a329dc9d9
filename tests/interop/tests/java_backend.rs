//! `rcc -l java` against the real thing: our generated classes, run on Hadoop 2.10.2 and on
//! Hadoop 3's remnant (hadoop-streaming 3.4.2), must behave as the classes Hadoop's own rcc
//! generates: the same bytes in all three encodings (random values both ways, every fixture
//! file), `signature()`, type information, and the exact ints of `compareTo` and `hashCode`,
//! with a raw comparator that agrees with `compareTo` (Hadoop's does not).

mod support;

use std::path::PathBuf;

use fixture_harness::{hadoop_java, Encoding};
use hadoop_record_compiler::backend::java::JavaApi;
use interop_tests::batch::{Answer, Batch, Comparison};
use interop_tests::differential::{
    comparisons_agree_with_ours, peer_reads_and_rewrites_our_bytes, signatures_agree_with_ours,
    we_read_and_rewrite_what_the_peer_writes, Pairs,
};
use interop_tests::java::{Classes, JavaPeer};
use interop_tests::report::{mismatch, Report};
use interop_tests::{encode, seed, FORMATS};

/// Runs `check` against our classes on Hadoop 2.10.2 and on Hadoop 3's remnant, unless the
/// peers are skipped.
fn with_our_classes<T>(check: fn(&'static JavaPeer) -> T) {
    for peer in [JavaPeer::ours(), JavaPeer::ours_hadoop3()]
        .into_iter()
        .flatten()
    {
        check(peer);
    }
}

#[test]
fn hadoop_reads_and_rewrites_our_bytes_through_our_classes() {
    with_our_classes(peer_reads_and_rewrites_our_bytes);
}

#[test]
fn we_read_and_rewrite_what_our_classes_write() {
    with_our_classes(we_read_and_rewrite_what_the_peer_writes);
}

#[test]
fn our_classes_compare_hash_and_raw_compare_as_they_should() {
    with_our_classes(comparisons_agree_with_ours);
}

#[test]
fn our_signatures_are_hadoops() {
    with_our_classes(signatures_agree_with_ours);
}

/// Every fixture file, read by our classes with Hadoop's readers and written again with
/// Hadoop's writers in each encoding, gives the fixture of that encoding.
#[test]
fn our_classes_reproduce_every_fixture_file() {
    let Some(peer) = JavaPeer::ours() else { return };
    let manifest = hadoop_java();
    let float_text = peer.jdk().float_text();
    let mut batch = Batch::new();
    for case in &manifest.cases {
        let encoding = FORMATS
            .iter()
            .position(|f| *f == case.encoding.format())
            .unwrap_or(0);
        let class = peer.class_of(&case.record_type);
        batch.stream(
            class,
            encoding as u8,
            case.values.len() as u32,
            &case.bytes(),
        );
    }
    let answers = peer.run("fixtures", &batch);
    let mut report = Report::new("fixture files through our classes", "");
    for (case, answer) in manifest.cases.iter().zip(&answers) {
        let Answer::Stream(result) = answer else {
            panic!("{answer:?}")
        };
        let stem = case
            .name
            .rsplit_once('.')
            .map_or(case.name.as_str(), |(s, _)| s);
        match result {
            Err(e) => report.check(!case.java_readback.ok, || {
                format!(
                    "{}: our class could not read it with Hadoop's reader: {e}",
                    case.name
                )
            }),
            Ok(written) => {
                for (output, encoding) in [Encoding::Binary, Encoding::Csv, Encoding::Xml]
                    .iter()
                    .enumerate()
                {
                    let ext = match encoding {
                        Encoding::Binary => "binary",
                        Encoding::Csv => "csv",
                        Encoding::Xml => "xml",
                    };
                    let want = manifest.case(&format!("{stem}.{ext}"));
                    let want = Ok(want.bytes_with(float_text));
                    report.check(written[output] == want, || {
                        mismatch(
                            &format!("{}: re-written", case.name),
                            &case.values,
                            output,
                            &want,
                            &written[output],
                        )
                    });
                }
            }
        }
    }
    report.finish(&format!(
        "{} fixture files, each re-written in 3 encodings",
        manifest.cases.len()
    ));
}

/// The manifest's pairs: our classes give the exact ints Java's `compareTo` and `hashCode`
/// gave, and `equals`; our raw comparator agrees with `compareTo`, where Hadoop's gives what
/// the manifest recorded of it (wrong for one-byte records, after nested records, and for
/// strings beyond the BMP).
#[test]
fn manifest_comparisons_hold_and_only_hadoops_raw_comparator_is_wrong() {
    let manifest = hadoop_java();
    for peer in [JavaPeer::ours(), JavaPeer::hadoop()].into_iter().flatten() {
        let mut batch = Batch::new();
        for c in &manifest.comparisons {
            let (a, b) = c.values();
            let id = peer.schema().find(&c.record_type).expect("a fixture type");
            let bin = |v| encode(peer.schema(), id, v, FORMATS[0]).expect("a fixture value");
            batch.compare(peer.class_of(&c.record_type), &bin(&a), &bin(&b), true);
        }
        let answers = peer.run("manifest-comparisons", &batch);
        let ours = peer.classes() != Classes::HadoopRcc;
        let mut raw_wrong = 0;
        for (c, answer) in manifest.comparisons.iter().zip(&answers) {
            let Answer::Compare(Ok(java)) = answer else {
                panic!("{}: {answer:?}", c.label)
            };
            let got = (
                i64::from(java.a_to_b),
                java.a_equals_b,
                Some(java.hash_a),
                Some(java.hash_b),
            );
            let want = (c.compare_to, c.equals, c.hash_code_a, c.hash_code_b);
            assert_eq!(
                got,
                want,
                "{} ({}): {}",
                c.label,
                c.record_type,
                peer.classes().name()
            );
            if ours {
                assert_eq!(
                    java.raw.clone().map(|r| r.map(i32::signum)),
                    Some(Ok(java.a_to_b.signum())),
                    "{}: raw comparator",
                    c.label
                );
            } else {
                let raw = java.raw.clone().and_then(Result::ok).map(i64::from);
                assert_eq!(raw, c.raw_comparator, "{}", c.label);
                raw_wrong +=
                    usize::from(raw.map(i64::signum) != Some(i64::from(java.a_to_b.signum())));
            }
        }
        if !ours {
            assert!(
                raw_wrong > 0,
                "Hadoop's raw comparator was expected to be wrong somewhere"
            );
        }
    }
}

/// On the same random pairs, our classes return exactly the ints Hadoop's return (not only
/// the signs), and on the same seed, the driver's random records written through our classes
/// are byte for byte those written through Hadoop's.
#[test]
fn our_classes_and_hadoops_agree_exactly() {
    let (Some(hadoop), Some(ours)) = (JavaPeer::hadoop(), JavaPeer::ours()) else {
        return;
    };
    let pairs = Pairs::new(hadoop);
    let theirs = pairs.run(hadoop, "exact-hadoop");
    let mine = pairs.run(ours, "exact-ours");
    let mut report = Report::new("our classes vs Hadoop's", format!("seed {}", pairs.seed));
    for (((class, a, b), h), o) in pairs.pairs.iter().zip(&theirs).zip(&mine) {
        let pick = |c: &Comparison| {
            (
                c.a_to_b,
                c.b_to_a,
                c.a_equals_b,
                c.b_equals_a,
                c.hash_a,
                c.hash_b,
            )
        };
        report.check(pick(h) == pick(o), || {
            format!(
                "{class}:\n  a: {a:?}\n  b: {b:?}\n  Hadoop's: {:?}\n  ours:     {:?}",
                pick(h),
                pick(o)
            )
        });
    }
    let seed = seed();
    let mut batch = Batch::new();
    let mut info = Batch::new();
    for (i, (class, _)) in hadoop.types().iter().enumerate() {
        batch.generate(class, seed.wrapping_add(i as u64), 200);
        info.type_info(class);
    }
    for (name, batch) in [("generate", &batch), ("type-info", &info)] {
        let (h, o) = (hadoop.run(name, batch), ours.run(name, batch));
        for ((class, _), (h, o)) in hadoop.types().iter().zip(h.iter().zip(&o)) {
            report.check(h == o, || {
                format!("{class}: {name} differs:\n  Hadoop's {h:?}\n  ours     {o:?}")
            });
        }
    }
    report.finish(&format!(
        "{} pairs, 200 random records and the type info of each of {} types (seed {seed})",
        pairs.pairs.len(),
        hadoop.types().len()
    ));
}

/// Our classes for the schemas `ddl` on `api`, built now and kept for the rest of the run
/// (the checks take a peer that lives as long as the tests).
fn ours_for(ddl: &[PathBuf], api: JavaApi) -> &'static JavaPeer {
    Box::leak(Box::new(JavaPeer::build(ddl, Classes::Ours(api))))
}

fn ddl(name: &str) -> Vec<PathBuf> {
    vec![interop_tests::tools::repo_root()
        .join("tests/interop/ddl")
        .join(name)]
}

/// A check of our classes against Hadoop's runtime.
type Check = fn(&'static JavaPeer);

/// Our classes for the schemas `ddl` compile without a warning on both APIs; on each API of
/// `checked`, they pass `checks`. `what` names them when the peers are skipped.
fn ours_compile_and_behave(what: &str, ddl: &[PathBuf], checked: &[JavaApi], checks: &[Check]) {
    if interop_tests::tools::skipped(what) {
        return;
    }
    for api in [JavaApi::Hadoop2, JavaApi::Hadoop3] {
        if checked.contains(&api) {
            let peer = ours_for(ddl, api);
            for check in checks {
                check(peer);
            }
        } else {
            let built = JavaPeer::try_build(ddl, Classes::Ours(api));
            assert!(built.is_ok(), "{}", built.err().unwrap_or_default());
        }
    }
}

/// The names Hadoop's rcc gets wrong (Java keywords, `Comparator`, names hiding packages,
/// accessors that collide, JDK packages) give classes that compile without a warning on both
/// APIs, and behave: random values cross both ways, comparisons agree.
#[test]
fn awkward_names_compile_and_behave() {
    ours_compile_and_behave(
        "the Java names corpus",
        &ddl("java_names.jr"),
        &[JavaApi::Hadoop2, JavaApi::Hadoop3],
        &[
            peer_reads_and_rewrites_our_bytes,
            |peer| drop(comparisons_agree_with_ours(peer)),
            |peer| signatures_agree_with_ours(peer),
        ],
    );
}

/// The names stress corpus (`compiler/tests/ddl/names/stress.jr`: every word reserved or
/// awkward in Rust, C++ and Java as a field, record and module segment, and names that collide
/// in each language's conventions) compiles warning-free against both APIs, and its classes
/// cross both ways with Hadoop's runtime.
#[test]
fn the_names_stress_corpus_compiles_and_behaves() {
    ours_compile_and_behave(
        "the names stress corpus",
        &[interop_tests::tools::repo_root().join("compiler/tests/ddl/names/stress.jr")],
        &[JavaApi::Hadoop2],
        &[peer_reads_and_rewrites_our_bytes, |peer| {
            signatures_agree_with_ours(peer)
        }],
    );
}

/// Hadoop's rcc output for a class whose fields are all records does not compile; ours does.
#[test]
fn all_record_fields_compile_only_in_ours() {
    if interop_tests::tools::skipped("the all-records class") {
        return;
    }
    let hadoop = JavaPeer::try_build(&ddl("all_records.jr"), Classes::HadoopRcc);
    let Err(e) = hadoop else {
        panic!("Hadoop's rcc output compiled")
    };
    assert!(e.contains("is never thrown"), "{e}");
    let ours = JavaPeer::try_build(&ddl("all_records.jr"), Classes::Ours(JavaApi::Hadoop2));
    assert!(ours.is_ok(), "{}", ours.err().unwrap_or_default());
}

/// Old data read into a newer class (and newer into older) with `setTypeFilter`: our classes
/// read exactly what Hadoop's classes read, in Hadoop's own versioning shapes (`RecRecordOld`
/// and `RecRecordNew` of its test DDL) and ours (`ddl/evolution.jr`: fields added, removed,
/// reordered, renamed, retyped, a nested record changed, element types changed). Type info
/// of every class is Hadoop's too.
#[test]
fn type_filters_read_as_hadoops_do() {
    if interop_tests::tools::skipped("the type filter tests") {
        return;
    }
    let root = interop_tests::tools::repo_root();
    let files = vec![
        root.join("tests/interop/ddl/evolution.jr"),
        root.join("compiler/tests/ddl/hadoop/test.jr"),
    ];
    let hadoop: &'static JavaPeer =
        Box::leak(Box::new(JavaPeer::build(&files, Classes::HadoopRcc)));
    let ours = JavaPeer::build(&files, Classes::Ours(JavaApi::Hadoop2));
    let mut pairs = support::evolution_pairs();
    let (old, _) = support::HADOOP_OLD_NEW;
    pairs.push((old.into(), old.into()));

    let (seed, schema) = (seed(), hadoop.schema());
    let mut batch = Batch::new();
    let mut info = Batch::new();
    for (i, (writer, reader)) in pairs.iter().enumerate() {
        let (w, r) = (schema.find(writer).unwrap(), schema.find(reader).unwrap());
        let strategy = fixture_harness::arb::value(
            schema,
            &hadoop_record::schema::FieldType::Record(w),
            fixture_harness::arb::Arb::java(),
        );
        let values = interop_tests::sample(&strategy, 50, seed.wrapping_add(i as u64));
        let mut data = Vec::new();
        for v in &values {
            data.extend(encode(schema, w, v, FORMATS[0]).expect("a value Java can hold"));
        }
        let empty =
            hadoop_record::Value::empty(schema, &hadoop_record::schema::FieldType::Record(r))
                .expect("a record of the schema");
        let defaults = encode(schema, r, &empty, FORMATS[0]).expect("an empty record");
        batch.filtered(reader, writer, &defaults, &data, values.len() as u32);
    }
    for (class, _) in hadoop.types() {
        info.type_info(class);
    }
    // Hadoop's own classes fail on some of these (a nested record whose layout changed):
    // ours must fail alike, which `h == o` checks.
    let mut failed = 0;
    let mut report = Report::new(
        "type filters: our classes vs Hadoop's",
        format!("seed {seed}"),
    );
    for (name, batch, what) in [
        ("filtered", &batch, &pairs),
        ("type-info", &info, &Vec::new()),
    ] {
        let (h, o) = (hadoop.run(name, batch), ours.run(name, batch));
        for (i, (h, o)) in h.iter().zip(&o).enumerate() {
            let label = what.get(i).map_or_else(
                || hadoop.types()[i].0.clone(),
                |(w, r)| format!("{w} read as {r}"),
            );
            failed += usize::from(matches!(h, Answer::Filtered(Err(_))));
            report.check(h == o, || {
                format!("{label}:\n  Hadoop's {h:?}\n  ours     {o:?}")
            });
        }
    }
    report.finish(&format!(
        "{} writer/reader pairs of 50 records ({failed} of which Hadoop's classes fail to read, \
         as ours do), type info of {} classes (seed {seed})",
        pairs.len(),
        hadoop.types().len()
    ));
}

/// Client code written against Hadoop's generated classes (`java/client/…/ApiClient.java`,
/// using their whole public API) compiles unchanged against ours, without a warning, and
/// prints the same.
#[test]
fn code_written_for_hadoops_classes_compiles_and_runs_against_ours() {
    let (Some(hadoop), Some(ours)) = (JavaPeer::hadoop(), JavaPeer::ours()) else {
        return;
    };
    let client = interop_tests::tools::repo_root()
        .join("tests/interop/java/client/hadooprecord/client/ApiClient.java");
    let dir = interop_tests::tools::work_dir().join("java/client");
    let mut outputs = Vec::new();
    for peer in [hadoop, ours] {
        let classes = dir.join(peer.classes().name().replace([' ', '\'', '(', ')'], "_"));
        let _ = std::fs::remove_dir_all(&classes);
        std::fs::create_dir_all(&classes).unwrap();
        interop_tests::java::javac(
            peer.jdk(),
            std::slice::from_ref(&client),
            peer.classpath(),
            &classes,
            &["-Xlint:all", "-Werror"],
        )
        .unwrap_or_else(|e| {
            panic!(
                "the client does not compile against {}: {e}",
                peer.classes().name()
            )
        });
        let cp = std::env::join_paths(
            std::iter::once(classes.clone()).chain(std::env::split_paths(peer.classpath())),
        )
        .unwrap();
        let out = interop_tests::tools::run(
            std::process::Command::new(peer.jdk().java())
                .arg("-cp")
                .arg(cp)
                .arg("hadooprecord.client.ApiClient"),
        );
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    assert!(outputs[0].contains("LOuter("), "{}", outputs[0]);
    assert_eq!(
        outputs[0], outputs[1],
        "the client printed differently against our classes"
    );
}
