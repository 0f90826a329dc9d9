//! Differential tests against Go implementations (see `interop_tests::go`): mesos-go's
//! RecordIO reader and writer, and Paddle's chunk layout over Go's crc32, snappy and gzip.
//! Random record sets go both ways; where our readers are deliberately more forgiving (or
//! stricter) than Go's, a test says so with both outcomes.

use hadoop_record::framing::mesos::{MesosOptions, MesosReader, MesosWriter};
use hadoop_record::framing::paddle::{
    Compressor, PaddleReadOptions, PaddleReader, PaddleWriteOptions, PaddleWriter,
};
use hadoop_record::framing::FrameWrite;
use interop_tests::go::{GoAnswer, GoBatch, GoPeer, GoRead};
use interop_tests::report::Report;
use interop_tests::{cases, sample, seed};
use proptest::collection::vec;
use proptest::prelude::*;

/// Records: mostly small, some binary, some text with digits and LFs (which look like
/// Mesos length lines), now and then empty or tens of kilobytes.
fn records() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let record = prop_oneof![
        6 => vec(any::<u8>(), 0..64),
        3 => vec(prop::sample::select(b"0123456789\n \t+ab{}".to_vec()), 0..40),
        1 => Just(Vec::new()),
        1 => (0u8..4, 1000usize..70_000).prop_map(|(k, n)| match k {
            0 => vec![b'x'; n],
            1 => (0..n).map(|i| (i * 7 % 251) as u8).collect(),
            2 => b"0123456789\n".iter().cycle().take(n).copied().collect(),
            _ => (0..n).map(|i| (i as u32).wrapping_mul(2_654_435_761).to_be_bytes()[0]).collect(),
        }),
    ];
    vec(record, 0..40)
}

/// `records` framed by `writer`.
fn framed<W: FrameWrite>(mut writer: W, records: &[Vec<u8>]) -> W {
    for r in records {
        writer.write_payload(r).expect("writing to memory");
    }
    writer.finish().expect("writing to memory");
    writer
}

fn mesos_bytes(records: &[Vec<u8>]) -> Vec<u8> {
    framed(MesosWriter::new(Vec::new()), records)
        .into_inner()
        .unwrap()
}

/// What our Mesos reader returns: the records, and the error that ended it.
fn our_mesos(file: &[u8], options: MesosOptions) -> GoRead {
    GoRead::collect(MesosReader::with_options(file, options))
}

fn go_read(answer: &GoAnswer) -> &GoRead {
    match answer {
        GoAnswer::Read(r) => r,
        other => panic!("expected a read, got {other:?}"),
    }
}

fn go_written(answer: &GoAnswer) -> &[u8] {
    match answer {
        GoAnswer::Written(w) => w,
        other => panic!("expected bytes, got {other:?}"),
    }
}

fn non_empty(records: &[Vec<u8>]) -> Vec<Vec<u8>> {
    records.iter().filter(|r| !r.is_empty()).cloned().collect()
}

/// A framing both Go and we write and read, for [`both_ways`].
struct Framing<S> {
    /// Go's side, for messages.
    go: &'static str,
    /// Our bytes of a record set, written with the settings `S`.
    ours: fn(&[Vec<u8>], &S) -> Vec<u8>,
    /// Asks Go to read a file of ours, then to write the set it holds.
    ask: fn(&mut GoBatch, &[u8], &[Vec<u8>], &S),
    /// What our strict reader reads of Go's bytes.
    read: fn(&[u8]) -> GoRead,
    /// The records Go reads of a set.
    go_reads: fn(&[Vec<u8>]) -> Vec<Vec<u8>>,
}

/// Random record sets both ways through `framing`: Go reads each set as we write it, writes
/// it byte for byte as we do, and we read Go's bytes back as the set.
fn both_ways<S: std::fmt::Debug>(
    peer: &GoPeer,
    run: &str,
    framing: &Framing<S>,
    inputs: &[(Vec<Vec<u8>>, S)],
    report: &mut Report,
) {
    let mut batch = GoBatch::default();
    for (set, settings) in inputs {
        (framing.ask)(&mut batch, &(framing.ours)(set, settings), set, settings);
    }
    let answers = peer.run(run, &batch);
    let go_side = framing.go;
    for ((set, settings), pair) in inputs.iter().zip(answers.chunks(2)) {
        let ours = (framing.ours)(set, settings);
        let go = go_read(&pair[0]);
        report.check(
            go.records == (framing.go_reads)(set) && go.error.is_none(),
            || {
                format!(
                    "{go_side} read our {} records ({settings:?}) as {go:?}",
                    set.len()
                )
            },
        );
        let theirs = go_written(&pair[1]);
        report.check(theirs == ours, || {
            let at = ours.iter().zip(theirs).position(|(a, b)| a != b);
            format!(
                "{go_side} wrote {} records ({settings:?}) differently: {} vs {} bytes, first \
                 difference at {at:?}",
                set.len(),
                ours.len(),
                theirs.len()
            )
        });
        let back = (framing.read)(theirs);
        report.check(back.records == *set && back.error.is_none(), || {
            format!(
                "we read {go_side}'s bytes of {} records ({settings:?}) as {back:?}",
                set.len()
            )
        });
    }
}

/// Mesos RecordIO, which has no settings; mesos-go skips empty records (a deliberate
/// difference: we deliver them).
const MESOS: Framing<()> = Framing {
    go: "mesos-go",
    ours: |set, ()| mesos_bytes(set),
    ask: |batch, file, set, ()| {
        batch.mesos_read(file);
        batch.mesos_write(set);
    },
    read: |file| our_mesos(file, MesosOptions::default()),
    go_reads: non_empty,
};

/// `count` random inputs from `strategy` (unless `HADOOP_RECORD_INTEROP_CASES` says
/// otherwise), checked against the Go peer by `check` in a report titled `title`; `check`
/// says what the inputs were, for the summary.
fn random_checks<T>(
    title: &str,
    strategy: impl Strategy<Value = T>,
    count: usize,
    check: impl FnOnce(&GoPeer, &[T], &mut Report) -> &'static str,
) {
    let Some(peer) = GoPeer::get() else { return };
    let seed = seed();
    let inputs = sample(&strategy, cases(count), seed);
    let mut report = Report::new(title, format!("seed {seed}"));
    let what = check(peer, &inputs, &mut report);
    report.finish(&format!("{} {what} (seed {seed})", inputs.len()));
}

#[test]
fn mesos_go_and_we_read_and_write_the_same_streams() {
    random_checks(
        "Mesos RecordIO vs mesos-go",
        (records(), Just(())),
        400,
        |peer, sets, report| {
            both_ways(peer, "mesos", &MESOS, sets, report);
            "random record sets both ways"
        },
    );
}

/// A length line as mesos-go accepts it: ASCII blanks around the digits (it trims them).
fn noisy_length_lines() -> impl Strategy<Value = (Vec<Vec<u8>>, Vec<u8>)> {
    let blanks = || vec(prop::sample::select(b" \t\r\x0b\x0c".to_vec()), 0..3);
    (vec((vec(any::<u8>(), 1..20), blanks(), blanks()), 0..10)).prop_map(|frames| {
        let mut file = Vec::new();
        let mut records = Vec::new();
        for (data, before, after) in frames {
            file.extend_from_slice(&before);
            file.extend_from_slice(data.len().to_string().as_bytes());
            file.extend_from_slice(&after);
            file.push(b'\n');
            file.extend_from_slice(&data);
            records.push(data);
        }
        (records, file)
    })
}

#[test]
fn our_lenient_mesos_reader_accepts_what_mesos_go_accepts() {
    random_checks(
        "lenient Mesos length lines vs mesos-go",
        noisy_length_lines(),
        400,
        |peer, inputs, report| {
            let mut batch = GoBatch::default();
            for (_, file) in inputs {
                batch.mesos_read(file);
            }
            let answers = peer.run("mesos-lenient", &batch);
            for ((records, file), answer) in inputs.iter().zip(&answers) {
                let go = go_read(answer);
                let lenient = our_mesos(file, MesosOptions::default().with_lenient(true));
                report.check(go.records == *records && go.error.is_none(), || {
                    format!("mesos-go read {file:?} as {go:?}")
                });
                report.check(lenient == *go, || {
                    format!("lenient, we read {file:?} as {lenient:?}; mesos-go as {go:?}")
                });
            }
            "streams with blanks around the lengths"
        },
    );
}

#[test]
fn where_our_mesos_reader_differs_from_mesos_go() {
    let Some(peer) = GoPeer::get() else { return };
    let cases: [(&[u8], &str); 4] = [
        // Empty records: we deliver them (as Mesos' own stout and Python decoders do);
        // mesos-go skips them silently.
        (b"0\n3\nabc0\n", "empty records"),
        // Blanks around a length: mesos-go trims them; strict we refuse, lenient we accept.
        (b" 3 \nabc", "blanks around a length"),
        // A stream cut inside a length line: mesos-go says nothing when two or more bytes of
        // it are buffered; we report the truncation.
        (b"3\nabc12", "cut inside a length line"),
        // A stream cut inside a record: both report it.
        (b"3\nabc5\nab", "cut inside a record"),
    ];
    let mut batch = GoBatch::default();
    for (file, _) in cases {
        batch.mesos_read(file);
    }
    let answers = peer.run("mesos-differences", &batch);
    let go: Vec<&GoRead> = answers.iter().map(go_read).collect();
    let strict: Vec<GoRead> = cases
        .iter()
        .map(|(f, _)| our_mesos(f, MesosOptions::default()))
        .collect();
    let lenient = our_mesos(cases[1].0, MesosOptions::default().with_lenient(true));
    let recs = |rs: &[&[u8]]| rs.iter().map(|r| r.to_vec()).collect::<Vec<_>>();

    assert_eq!(go[0].records, recs(&[b"abc"]), "{}", cases[0].1);
    assert_eq!(
        strict[0].records,
        recs(&[b"", b"abc", b""]),
        "{}",
        cases[0].1
    );
    assert!(go[0].error.is_none() && strict[0].error.is_none());

    assert_eq!(
        (&go[1].records, &go[1].error),
        (&recs(&[b"abc"]), &None),
        "{}",
        cases[1].1
    );
    assert!(
        strict[1].records.is_empty() && strict[1].error.is_some(),
        "{}",
        cases[1].1
    );
    assert_eq!(lenient, *go[1], "{}", cases[1].1);

    assert_eq!(
        (&go[2].records, &go[2].error),
        (&recs(&[b"abc"]), &None),
        "{}",
        cases[2].1
    );
    assert_eq!(strict[2].records, recs(&[b"abc"]), "{}", cases[2].1);
    assert!(
        strict[2]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("byte 5")),
        "{:?}",
        strict[2]
    );

    assert_eq!(go[3].records, recs(&[b"abc"]), "{}", cases[3].1);
    assert!(
        go[3].error.is_some() && strict[3].error.is_some(),
        "{go:?} {strict:?}"
    );
    assert_eq!(strict[3].records, recs(&[b"abc"]));
}

/// Writer settings: Paddle's `maxChunkSize` (-1: its 32 MiB default) and the compressor.
fn paddle_settings() -> impl Strategy<Value = (i32, Compressor)> {
    (
        prop_oneof![Just(-1), Just(0), 1i32..200, 1000i32..70_000],
        prop::sample::select(vec![Compressor::None, Compressor::Snappy, Compressor::Gzip]),
    )
}

fn paddle_bytes(records: &[Vec<u8>], (max, compressor): (i32, Compressor)) -> Vec<u8> {
    let max = u64::try_from(max).unwrap_or(PaddleWriteOptions::DEFAULT_MAX_CHUNK_SIZE);
    let options = PaddleWriteOptions::default()
        .with_compressor(compressor)
        .with_max_chunk_size(max);
    framed(PaddleWriter::with_options(Vec::new(), options), records)
        .into_inner()
        .unwrap()
}

fn our_paddle(file: &[u8], options: PaddleReadOptions) -> GoRead {
    GoRead::collect(PaddleReader::with_options(file, options))
}

/// Paddle's chunks, with the writer's settings; Go reads every record.
const PADDLE: Framing<(i32, Compressor)> = Framing {
    go: "Go",
    ours: |set, settings| paddle_bytes(set, *settings),
    ask: |batch, file, set, (max, compressor)| {
        batch.paddle_read(file);
        batch.paddle_write(set, *max, compressor.id() as u8);
    },
    read: |file| our_paddle(file, PaddleReadOptions::default()),
    go_reads: <[Vec<u8>]>::to_vec,
};

#[test]
fn paddle_files_are_byte_identical_with_gos_writer_and_read_by_go() {
    random_checks(
        "Paddle RecordIO vs Go",
        (records(), paddle_settings()),
        300,
        |peer, inputs, report| {
            both_ways(peer, "paddle", &PADDLE, inputs, report);
            "random record sets, every compressor, both ways"
        },
    );
}

#[test]
fn where_our_paddle_reader_is_more_forgiving_than_gos() {
    let Some(peer) = GoPeer::get() else { return };
    // Three chunks of two records; a byte of the second chunk's payload flipped.
    let records: Vec<Vec<u8>> = (0..6u8).map(|i| vec![b'a' + i; 5]).collect();
    let mut file = paddle_bytes(&records, (10, Compressor::None));
    let second_payload = 20 + (2 * 9) + 20 + 3;
    file[second_payload] ^= 0xff;
    let mut batch = GoBatch::default();
    batch.paddle_read(&file);
    let answers = peer.run("paddle-differences", &batch);
    let go = go_read(&answers[0]);
    // Go stops at the damaged chunk with a checksum error.
    assert_eq!(go.records, records[..2], "{go:?}");
    assert!(go.error.is_some(), "{go:?}");
    // So do we, strictly; recovering, we skip the damaged chunk and read on.
    let strict = our_paddle(&file, PaddleReadOptions::default());
    assert_eq!(strict.records, records[..2]);
    assert!(strict.error.is_some());
    let recovered = our_paddle(&file, PaddleReadOptions::default().with_recover(true));
    assert_eq!(recovered.records, [&records[..2], &records[4..]].concat());
    assert_eq!(recovered.error, None);
}
