//! `rcc frame` and `rcc frame info`, run as the real binary over the framing fixtures
//! (`tests/fixtures/{mesos,paddle,v1}`). Output is checked with the runtime's own readers,
//! so the CLI is tested against the library, not against itself.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use hadoop_record::framing::mesos::MesosReader;
use hadoop_record::framing::paddle::{Layout, PaddleReadOptions, PaddleReader};
use hadoop_record::framing::plasma::PlasmaFormat;
use hadoop_record::framing::v1::V1Reader;
use serde_json::Value as Json;
use support::{
    assert_stderr_contains, assert_stderr_ends_with, command, help_with, listing, rcc_in, stderr,
    Refusals, CRATE_DIR,
};

const TARGETS: [&str; 6] = [
    "mesos",
    "paddle",
    "paddle-cpp",
    "plasma-text",
    "plasma-var",
    "v1",
];

fn fixtures() -> PathBuf {
    Path::new(CRATE_DIR).join("../tests/fixtures")
}

/// Runs `rcc args` in the crate directory with `stdin` as standard input.
fn rcc(args: &[&str], stdin: &[u8]) -> Output {
    rcc_in(CRATE_DIR, args, stdin)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn manifest(framing: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(fixtures().join(framing).join("manifest.json")).unwrap();
    let json: Json = serde_json::from_str(&text).unwrap();
    json["cases"].as_array().unwrap().clone()
}

/// A payload with its v1 record type, if it has one.
type Typed = (Option<String>, Vec<u8>);

/// A fixture file and what it holds.
struct Fixture {
    framing: &'static str,
    file: String,
    bytes: Vec<u8>,
    /// The records a strict reader returns, with their v1 types.
    records: Vec<Typed>,
    /// Whether a strict reader reports an error after the records.
    damaged: bool,
}

fn all_fixtures() -> Vec<Fixture> {
    let mut out = Vec::new();
    for case in manifest("mesos") {
        let outcome = case["strict_decoder_outcome"].as_str().unwrap();
        out.push(Fixture {
            framing: "mesos",
            file: case["file"].as_str().unwrap().into(),
            bytes: Vec::new(),
            records: hex_list(&case["expected_records_hex"]),
            damaged: outcome.contains("error"),
        });
    }
    for case in manifest("paddle") {
        let file = case["file"].as_str().unwrap();
        out.push(Fixture {
            framing: if file.starts_with("cpp_") {
                "paddle-cpp"
            } else {
                "paddle"
            },
            file: file.into(),
            bytes: Vec::new(),
            records: hex_list(&case["expected_records_hex"]),
            damaged: case["expect_error_after_records"].as_bool().unwrap(),
        });
    }
    for case in manifest("v1") {
        out.push(Fixture {
            framing: "v1",
            file: case["file"].as_str().unwrap().into(),
            bytes: Vec::new(),
            records: case["expected_records"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        Some(r["type"].as_str().unwrap().to_owned()),
                        hex(r["hex"].as_str().unwrap()),
                    )
                })
                .collect(),
            damaged: !case["expected_error"].is_null(),
        });
    }
    for f in &mut out {
        let dir = if f.framing == "paddle-cpp" {
            "paddle"
        } else {
            f.framing
        };
        f.bytes = std::fs::read(fixtures().join(dir).join(&f.file)).unwrap();
    }
    out
}

fn hex_list(json: &Json) -> Vec<Typed> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|h| (None, hex(h.as_str().unwrap())))
        .collect()
}

fn path_of(f: &Fixture) -> String {
    let dir = if f.framing == "paddle-cpp" {
        "paddle"
    } else {
        f.framing
    };
    fixtures()
        .join(dir)
        .join(&f.file)
        .to_string_lossy()
        .into_owned()
}

/// Reads `bytes` framed as `framing` with the runtime's readers: the records (with v1
/// types), and whether an error ended them.
fn read_with_library(framing: &str, bytes: &[u8]) -> (Vec<Typed>, bool) {
    fn untyped(it: impl Iterator<Item = hadoop_record::Result<Vec<u8>>>) -> (Vec<Typed>, bool) {
        let mut records = Vec::new();
        for r in it {
            match r {
                Ok(p) => records.push((None, p)),
                Err(_) => return (records, true),
            }
        }
        (records, false)
    }
    match framing {
        "mesos" => untyped(MesosReader::new(bytes)),
        "paddle" => untyped(PaddleReader::new(bytes)),
        "paddle-cpp" => untyped(PaddleReader::with_options(
            bytes,
            PaddleReadOptions::default().with_layout(Layout::Cpp),
        )),
        "v1" => {
            let Ok(reader) = V1Reader::new(bytes) else {
                return (Vec::new(), true);
            };
            let mut records = Vec::new();
            for r in reader {
                match r {
                    Ok(r) => records.push((Some(r.record_type), r.payload)),
                    Err(_) => return (records, true),
                }
            }
            (records, false)
        }
        plasma => untyped(
            plasma
                .parse::<PlasmaFormat>()
                .unwrap()
                .reader(bytes)
                .unwrap(),
        ),
    }
}

fn payloads(records: &[Typed]) -> Vec<Vec<u8>> {
    records.iter().map(|(_, p)| p.clone()).collect()
}

/// The options a conversion to `to` needs.
fn target_args<'a>(from: &str, to: &'a str) -> Vec<&'a str> {
    if to == "v1" && from != "v1" {
        vec!["--to", to, "--record-type", "Rec"]
    } else {
        vec!["--to", to]
    }
}

/// Whether `to` can carry these payloads (plasma-text: no LF; plasma-fixed: one size).
fn carries(to: &str, records: &[Typed]) -> bool {
    match to {
        "plasma-text" => records.iter().all(|(_, p)| !p.contains(&b'\n')),
        _ => true,
    }
}

#[test]
fn every_framing_pair_keeps_payloads() {
    let mut conversions = 0;
    for f in all_fixtures().iter().filter(|f| !f.damaged) {
        let mut targets: Vec<String> = TARGETS.iter().map(|s| s.to_string()).collect();
        if let Some((_, first)) = f.records.first() {
            if !first.is_empty() && f.records.iter().all(|(_, p)| p.len() == first.len()) {
                targets.push(format!("plasma-fixed:{}", first.len()));
            }
        }
        for to in &targets {
            let what = format!("{} ({}) -> {to}", f.file, f.framing);
            let mut args = vec!["frame", "--from", f.framing];
            args.extend(target_args(f.framing, to));
            let out = rcc(&args, &f.bytes);
            if !carries(to, &f.records) {
                // The records before the first one holding a LF are written, then exit 1.
                assert_eq!(out.status.code(), Some(1), "{what}");
                let good = f.records.iter().take_while(|(_, p)| !p.contains(&b'\n'));
                let (read, _) = read_with_library(to, &out.stdout);
                assert_eq!(
                    payloads(&read),
                    payloads(&good.cloned().collect::<Vec<_>>())
                );
                let err = stderr(&out);
                assert!(
                    err.starts_with("error: cannot write as plasma-text: record "),
                    "{what}: {err}"
                );
                assert!(err.contains("cannot contain LF"), "{what}: {err}");
                continue;
            }
            assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
            assert_eq!(stderr(&out), "", "{what}");
            let (read, failed) = read_with_library(to, &out.stdout);
            assert!(!failed, "{what}: output does not read back");
            assert_eq!(payloads(&read), payloads(&f.records), "{what}");
            if to == "v1" {
                for ((t, _), (expected, _)) in read.iter().zip(&f.records) {
                    let expected = expected.as_deref().unwrap_or("Rec");
                    assert_eq!(t.as_deref(), Some(expected), "{what}");
                }
            }

            // And back: the payloads again, through the CLI's reader of `to`.
            let mut back = vec!["frame", "--from", to];
            back.extend(target_args(to, f.framing));
            let again = rcc(&back, &out.stdout);
            assert_eq!(again.status.code(), Some(0), "{what} and back");
            let (read, failed) = read_with_library(f.framing, &again.stdout);
            assert!(!failed);
            assert_eq!(payloads(&read), payloads(&f.records), "{what} and back");
            conversions += 2;
        }
    }
    assert!(conversions > 150, "{conversions}");
}

#[test]
fn round_trips_reproduce_the_reference_bytes() {
    // Mesos: the writer is canonical, so any detour gives back the real encoder's bytes.
    for case in manifest("mesos") {
        if !case["producer"].as_str().unwrap().starts_with("real") {
            continue;
        }
        let file = fixtures()
            .join("mesos")
            .join(case["file"].as_str().unwrap());
        let original = std::fs::read(&file).unwrap();
        for via in ["paddle", "plasma-var", "v1"] {
            let mut args = vec!["frame", "--from", "mesos"];
            args.extend(target_args("mesos", via));
            let there = rcc(&args, &original);
            let back = rcc(&["frame", "--from", via, "--to", "mesos"], &there.stdout);
            assert_eq!(back.status.code(), Some(0));
            assert_eq!(back.stdout, original, "{file:?} via {via}");
        }
    }
    // Paddle: with the Go writer's settings from the manifest, the Go writer's bytes
    // (gzip excepted: flate2's deflate differs from Go's; wangkuiyi's writer frames
    // differently).
    let mut checked = 0;
    for case in manifest("paddle") {
        let name = case["file"].as_str().unwrap();
        let compressor = case["writer_compressor"].as_u64().unwrap();
        if compressor == 2
            || name.starts_with("wangkuiyi")
            || case["expect_error_after_records"] == true
        {
            continue;
        }
        let original = std::fs::read(fixtures().join("paddle").join(name)).unwrap();
        let layout = if name.starts_with("cpp_") {
            "paddle-cpp"
        } else {
            "paddle"
        };
        let mesos = rcc(&["frame", "--from", layout, "--to", "mesos"], &original);
        let mut args = vec!["frame", "--from", "mesos", "--to", layout];
        if layout == "paddle-cpp" {
            // The C++ writer closes chunks by record count; this file has 2 per chunk.
            args.extend(["--chunk-records", "2"]);
        }
        let size;
        if let Some(n) = case["writer_max_chunk_size"].as_i64().filter(|n| *n >= 0) {
            size = n.to_string();
            args.extend(["--chunk-size", &size]);
        }
        if compressor == 1 {
            args.extend(["--compression", "snappy"]);
        }
        let back = rcc(&args, &mesos.stdout);
        assert_eq!(back.status.code(), Some(0), "{name}: {}", stderr(&back));
        assert_eq!(back.stdout, original, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 7);
    // v1 to v1 keeps the header and each record's type.
    for name in [
        "basic.rio",
        "headers_repeated_and_x.rio",
        "binary_body.rio",
        "no_headers_empty_record.rio",
    ] {
        let original = std::fs::read(fixtures().join("v1").join(name)).unwrap();
        let out = rcc(&["frame", "--from", "v1", "--to", "v1"], &original);
        assert_eq!(out.stdout, original, "{name}");
    }
}

#[test]
fn plasma_formats_with_options() {
    let records: Vec<Vec<u8>> = (0..500u32)
        .map(|i| format!("record {i:05} {}", "x".repeat((i % 7) as usize * 90)).into_bytes())
        .collect();
    let mut mesos = Vec::new();
    for r in &records {
        mesos.extend_from_slice(format!("{}\n", r.len()).as_bytes());
        mesos.extend_from_slice(r);
    }
    for extra in [
        &[][..],
        &["--chunk-size", "64"],
        &["--chunk-size", "1K", "--compression", "snappy"],
    ] {
        let mut args = vec!["frame", "--from", "mesos", "--to", "plasma-var"];
        args.extend(extra);
        let var = rcc(&args, &mesos);
        assert_eq!(var.status.code(), Some(0), "{extra:?}: {}", stderr(&var));
        let (read, failed) = read_with_library("plasma-var", &var.stdout);
        assert!(!failed);
        assert_eq!(payloads(&read), records, "{extra:?}");
        let back = rcc(
            &["frame", "--from", "plasma-var", "--to", "mesos"],
            &var.stdout,
        );
        assert_eq!(back.stdout, mesos, "{extra:?}");
    }
    // Fixed-size records: 12 bytes each (no LF, for plasma-text).
    let fixed: Vec<u8> = (b'A'..b'A' + 40).flat_map(|c| [c; 12]).collect();
    let text = rcc(
        &["frame", "--from", "plasma-fixed:12", "--to", "plasma-text"],
        &fixed,
    );
    assert_eq!(text.status.code(), Some(0));
    let (read, _) = read_with_library("plasma-text", &text.stdout);
    assert_eq!(read.len(), 40);
    assert!(read
        .iter()
        .enumerate()
        .all(|(i, (_, p))| *p == [b'A' + i as u8; 12]));
    let back = rcc(
        &["frame", "--from", "plasma-text", "--to", "plasma-fixed:12"],
        &text.stdout,
    );
    assert_eq!(back.stdout, fixed);
    // A record of another size cannot be written as plasma-fixed:N: the ones before it are.
    let wrong = rcc(
        &[
            "frame",
            "--from",
            "plasma-fixed:6",
            "--to",
            "plasma-fixed:12",
        ],
        &fixed,
    );
    assert_eq!(wrong.status.code(), Some(1));
    assert!(wrong.stdout.is_empty());
    assert_eq!(
        stderr(&wrong),
        "error: cannot write as plasma-fixed:12: record 0: payload of 6 bytes in a plasma-fixed:12 file\n"
    );
    // A trailing partial record is damage.
    let cut = rcc(
        &["frame", "--from", "plasma-fixed:12", "--to", "mesos"],
        &fixed[..100],
    );
    assert_eq!(cut.status.code(), Some(1));
    let (read, _) = read_with_library("mesos", &cut.stdout);
    assert_eq!(read.len(), 8);
}

#[test]
fn damaged_input_writes_every_complete_record_then_fails() {
    for f in all_fixtures().iter().filter(|f| f.damaged) {
        for to in ["mesos", "paddle", "v1"] {
            let what = format!("{} -> {to}", f.file);
            let mut args = vec!["frame", "--from", f.framing];
            args.extend(target_args(f.framing, to));
            let out = rcc(&args, &f.bytes);
            assert_eq!(out.status.code(), Some(1), "{what}");
            let (read, failed) = read_with_library(to, &out.stdout);
            assert!(!failed, "{what}: the output itself is sound");
            assert_eq!(payloads(&read), payloads(&f.records), "{what}");
            let err = stderr(&out);
            assert!(
                err.starts_with(&format!("error: damaged {} input: ", f.framing)),
                "{what}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{what}: {err}");
        }
    }
    // The error says where.
    let truncated = std::fs::read(fixtures().join("mesos/truncated_record.recordio")).unwrap();
    let out = rcc(&["frame", "--from", "mesos", "--to", "paddle"], &truncated);
    assert_stderr_contains(&out, "byte 15");
    let corrupt = std::fs::read(fixtures().join("paddle/corrupt_checksum.recordio")).unwrap();
    let out = rcc(&["frame", "--from", "paddle", "--to", "mesos"], &corrupt);
    assert_stderr_contains(&out, "checksum mismatch");
}

#[test]
fn recovery_skips_damaged_chunks_and_says_so() {
    // Three chunks of two records; the middle one's payload gets a flipped byte.
    let mut mesos = Vec::new();
    for i in 0..6 {
        mesos.extend_from_slice(format!("5\nrec-{i}").as_bytes());
    }
    let paddle = rcc(
        &[
            "frame",
            "--from",
            "mesos",
            "--to",
            "paddle",
            "--chunk-size",
            "10",
        ],
        &mesos,
    )
    .stdout;
    let mut damaged = paddle.clone();
    let chunk = paddle.len() / 3;
    damaged[chunk + 25] ^= 0x40;

    let strict = rcc(&["frame", "--from", "paddle", "--to", "mesos"], &damaged);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(strict.stdout, &mesos[..14]);

    let recovered = rcc(
        &["frame", "--from", "paddle", "--to", "mesos", "--recover"],
        &damaged,
    );
    assert_eq!(recovered.status.code(), Some(1));
    let (read, _) = read_with_library("mesos", &recovered.stdout);
    let names: Vec<_> = read
        .iter()
        .map(|(_, p)| String::from_utf8_lossy(p).into_owned())
        .collect();
    assert_eq!(names, ["rec-0", "rec-1", "rec-4", "rec-5"]);
    let err = stderr(&recovered);
    assert_eq!(
        err,
        format!(
            "warning: recovery: skipped {chunk} byte(s) at byte {chunk}: damaged chunk: checksum mismatch: \
             header says 0x{:08x}, payload has 0x{:08x}\n",
            u32::from_le_bytes(paddle[chunk + 4..chunk + 8].try_into().unwrap()),
            crc32(&damaged[chunk + 20..2 * chunk])
        )
        .replace("damaged chunk: ", ""),
    );
}

/// CRC-32 (IEEE), bit by bit: the test's own, independent of the runtime's.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn files_and_standard_streams() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixtures().join("mesos/binary_payloads.recordio");
    let output = dir.path().join("out.paddle");
    let out = rcc(
        &[
            "frame",
            "--from",
            "mesos",
            "--to",
            "paddle",
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"ignored",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let written = std::fs::read(&output).unwrap();
    // `-` is standard input and output.
    let dashes = rcc(
        &["frame", "--from", "mesos", "--to", "paddle", "-", "-"],
        &std::fs::read(&input).unwrap(),
    );
    assert_eq!(dashes.stdout, written);
    let (read, _) = read_with_library("paddle", &written);
    assert_eq!(read.len(), 6);

    // A reader that stops early (`| head`) is no error: exit 0, nothing on stderr.
    let mut mesos = Vec::new();
    for _ in 0..20_000 {
        mesos.extend_from_slice(b"100\n");
        mesos.extend_from_slice(&[b'x'; 100]);
    }
    let mut child = command(
        CRATE_DIR,
        &["frame", "--from", "mesos", "--to", "mesos", "-"],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&mesos);
    });
    let mut head = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
    assert_eq!(&head, b"100\nxxxxxx");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn errors_before_any_work() {
    let refusals = Refusals::new("never.out");
    let mesos = fixtures().join("mesos/empty_records.recordio");
    let mesos = mesos.to_str().unwrap();
    let cases: [(&[&str], &str); 12] = [
        (
            &["--from", "mesoss", "--to", "paddle"],
            "error: --from: unknown framing `mesoss` (expected one of auto, mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, seqfile, v1)\n",
        ),
        (
            &["--from", "mesos", "--to", "plasma-fixed:0"],
            "error: --to: bad framing `plasma-fixed:0`: plasma-fixed needs a record size of at least 1 byte, as in plasma-fixed:16\n",
        ),
        (
            &["--from", "mesos", "--to", "v1"],
            "error: writing v1 needs --record-type TYPE (the type every record is written as)\n",
        ),
        (
            &["--from", "mesos", "--to", "v1", "--record-type", ".idx"],
            "error: --record-type: record type `.idx` is reserved (types starting with `.` belong to the library)\n",
        ),
        (
            &["--from", "mesos", "--to", "mesos", "--compression", "gzip"],
            "error: --compression applies to paddle, paddle-cpp and plasma-var output, not mesos\n",
        ),
        (
            &["--from", "mesos", "--to", "plasma-var", "--compression", "gzip"],
            "error: --compression: unknown plasma-var compression `gzip` (expected none or snappy)\n",
        ),
        (
            &["--from", "mesos", "--to", "paddle", "--compression", "lz4"],
            "error: --compression: unknown compressor `lz4` for paddle (expected none, snappy or gzip)\n",
        ),
        (
            &["--from", "mesos", "--to", "plasma-var", "--chunk-size", "10"],
            "",
        ),
        (
            &["--from", "mesos", "--to", "paddle", "--recover"],
            "error: --recover applies to paddle, paddle-cpp, plasma-var and seqfile input, not mesos\n",
        ),
        (
            &["--from", "mesos", "--to", "paddle", "no/such/input"],
            "",
        ),
        (
            &["--to", "paddle", "--lenient"],
            "error: --lenient applies to mesos input, which is never found from its first bytes: give --from mesos\n",
        ),
        (
            &["--from", "none", "--to", "paddle"],
            "error: --from: unknown framing `none` (expected one of auto, mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, seqfile, v1)\n",
        ),
    ];
    for (args, expected) in cases {
        let mut full = vec!["frame"];
        full.extend(args);
        if !args.contains(&"no/such/input") {
            full.push(mesos);
        }
        full.push(refusals.output());
        let out = rcc(&full, b"");
        refusals.assert_refused(&out, &args);
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        if expected.is_empty() {
            assert!(err.starts_with("error: "), "{err}");
        } else {
            assert_eq!(err, expected, "{args:?}");
        }
    }
    // Writing over the input is refused, and the input is left alone.
    let copy = refusals.dir().join("copy.recordio");
    std::fs::copy(mesos, &copy).unwrap();
    let copy_str = copy.to_str().unwrap();
    let same = rcc(
        &[
            "frame", "--from", "mesos", "--to", "paddle", copy_str, copy_str,
        ],
        b"",
    );
    assert_eq!(same.status.code(), Some(1));
    let copy_real = copy.canonicalize().unwrap();
    assert_eq!(
        stderr(&same),
        format!(
            "error: refusing to write {0}: it is the input {0}; name another file\n",
            copy_real.display()
        )
    );
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(mesos).unwrap());
    let unreadable = rcc(
        &[
            "frame",
            "--from",
            "mesos",
            "--to",
            "paddle",
            "no/such/input",
        ],
        b"",
    );
    assert!(stderr(&unreadable).starts_with("error: cannot read no/such/input: "));
    // Usage errors are clap's, with exit status 2 (--from has a default: auto).
    let usage = rcc(&["frame", "--from", "mesos"], b"");
    assert_eq!(usage.status.code(), Some(2));
    assert!(stderr(&usage).contains("--to <F>"));
}

/// An output file appears whole when the conversion succeeds, with the old file's
/// permissions; a conversion that fails midway leaves the old file and no temporary; an
/// output that would destroy the input is refused.
#[test]
fn outputs_are_replaced_whole_and_never_destroy_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = fixtures().join("mesos/truncated_record.recordio");
    let good = fixtures().join("mesos/binary_payloads.recordio");
    std::fs::copy(&damaged, dir.path().join("damaged.recordio")).unwrap();
    std::fs::copy(&good, dir.path().join("good.recordio")).unwrap();
    let out = dir.path().join("out.paddle");
    std::fs::write(&out, b"the old output").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let frame = |input: &str, output: &str| {
        rcc_in(
            dir.path(),
            &["frame", "--from", "mesos", "--to", "paddle", input, output],
            b"",
        )
    };
    let names = ["damaged.recordio", "good.recordio", "out.paddle"];

    // Damage halfway: the records before it were written, but not over the old file.
    let failed = frame("damaged.recordio", "out.paddle");
    assert_eq!(failed.status.code(), Some(1));
    assert_stderr_contains(&failed, "damaged mesos input");
    assert_eq!(std::fs::read(&out).unwrap(), b"the old output");
    assert_eq!(listing(dir.path()), names);

    // Success: the new file, as standard output gets it, with the old file's mode.
    let done = frame("good.recordio", "out.paddle");
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let piped = rcc(
        &["frame", "--from", "mesos", "--to", "paddle"],
        &std::fs::read(&good).unwrap(),
    );
    assert_eq!(std::fs::read(&out).unwrap(), piped.stdout);
    assert_eq!(listing(dir.path()), names);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
    }

    // The working directory, or the input by another name: refused, nothing touched.
    let real = dir.path().canonicalize().unwrap();
    let before: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.path().join(n)).unwrap())
        .collect();
    let cwd = frame("good.recordio", ".");
    assert_eq!(
        stderr(&cwd),
        format!(
            "error: refusing to write {0}: it is the working directory {0}; name another file\n",
            real.display()
        )
    );
    let same = frame("good.recordio", "./sub/../good.recordio");
    assert_eq!(same.status.code(), Some(1));
    assert_stderr_contains(
        &same,
        &format!("it is the input {}", real.join("good.recordio").display()),
    );
    assert_eq!(listing(dir.path()), names);
    for (name, bytes) in names.iter().zip(&before) {
        assert_eq!(
            &std::fs::read(dir.path().join(name)).unwrap(),
            bytes,
            "{name}"
        );
    }
}

#[test]
fn help_has_examples() {
    let text = help_with(
        &["frame", "--help"],
        &[
            "Examples:\n  rcc frame --to mesos part-00000",
            "plasma-fixed:N",
            "Framing of the input: auto (the default",
        ],
    );
    // What --from finds when it is left out.
    let auto = "--from auto (the default) finds seqfile (SEQ and a version byte), paddle and \
                paddle-cpp (the chunk magic 04 03 02 01, the layout the first header reads \
                well in), plasma-var (PMRV) and v1 (RecordIO v) from the first bytes of the \
                input; mesos, plasma-text and plasma-fixed:N are never guessed";
    assert!(text.replace('\n', " ").contains(auto), "{text}");
    let text = help_with(
        &["frame", "info", "--help"],
        &["Examples:\n  rcc frame info data.paddle"],
    );
    assert!(text.replace('\n', " ").contains(auto), "{text}");
}

/// Without --from (auto, the default) each fixture's framing is found from its first bytes,
/// in a file and from a pipe: rcc frame and rcc frame info do what they do with the framing
/// named. Mesos, which is never guessed, and an empty file are errors that say what to give.
#[test]
fn framings_are_found_from_the_first_bytes() {
    let mut found = 0;
    for f in all_fixtures() {
        let path = path_of(&f);
        let is_found = f.framing != "mesos" && !f.bytes.is_empty();
        for (file, stdin) in [(Some(path.as_str()), &[][..]), (None, &f.bytes[..])] {
            let what = format!(
                "{} ({}) from {}",
                f.file,
                f.framing,
                file.unwrap_or("a pipe")
            );
            let mut auto = vec!["frame", "--to", "mesos"];
            auto.extend(file);
            let out = rcc(&auto, stdin);
            if is_found {
                let mut named = vec!["frame", "--from", f.framing, "--to", "mesos"];
                named.extend(file);
                let want = rcc(&named, stdin);
                assert_eq!(out.status.code(), want.status.code(), "{what}");
                assert_eq!(stderr(&out), stderr(&want), "{what}");
                assert_eq!(out.stdout, want.stdout, "{what}");
                let (read, _) = read_with_library("mesos", &out.stdout);
                assert_eq!(payloads(&read), payloads(&f.records), "{what}");
                found += 1;
                continue;
            }
            assert_eq!(out.status.code(), Some(1), "{what}");
            assert!(out.stdout.is_empty(), "{what}");
            let name = file.unwrap_or("standard input");
            let cannot = format!(
                "error: cannot tell the framing of {name} from its first bytes (seqfile, paddle, \
                 paddle-cpp, plasma-var and v1 are found so): "
            );
            // A stream cut short still looks like Mesos; one whose lengths are bad does not.
            let hint = if f.framing == "mesos" && !f.file.starts_with("invalid_") {
                "it looks like Mesos RecordIO (a length line, then that many bytes): give --from mesos\n"
            } else {
                "give --from F (mesos, plasma-text, plasma-fixed:N are never guessed)\n"
            };
            assert_eq!(stderr(&out), format!("{cannot}{hint}"), "{what}");
        }
        if is_found {
            let info = rcc(&["frame", "info", &path], b"");
            let named = rcc(&["frame", "info", "--from", f.framing, &path], b"");
            assert_eq!(info.stdout, named.stdout, "{}", f.file);
            assert_eq!(info.status.code(), named.status.code(), "{}", f.file);
        }
    }
    assert_eq!(
        found,
        2 * 19,
        "paddle (10), paddle-cpp (1) and v1 (9) fixtures, but empty_file"
    );

    // A SequenceFile and a plasma-var file, as rcc writes them.
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures().join("mesos/scheduler_events_json.recordio");
    let source = source.to_str().unwrap();
    let (events, _) = read_with_library("mesos", &std::fs::read(source).unwrap());
    for to in ["seqfile", "plasma-var"] {
        let path = dir.path().join(to);
        let path = path.to_str().unwrap();
        let mut args = vec!["frame", "--from", "mesos", "--to", to];
        if to == "seqfile" {
            args.extend(["--record-type", "events.Event"]);
        }
        args.extend([source, path]);
        assert_eq!(rcc(&args, b"").status.code(), Some(0));
        let back = rcc(&["frame", "--to", "mesos", path], b"");
        assert_eq!(back.status.code(), Some(0), "{to}: {}", stderr(&back));
        let (read, _) = read_with_library("mesos", &back.stdout);
        assert_eq!(payloads(&read), payloads(&events), "{to}");
    }
}

/// A framing named that the input's first bytes contradict is refused before any output is
/// made: the message says what the input is and what to give.
#[test]
fn a_named_framing_the_first_bytes_contradict_is_refused() {
    let refusals = Refusals::new("never.out");
    let out_str = refusals.output();
    let path = |p: &str| fixtures().join(p).to_string_lossy().into_owned();
    let pvar = refusals.dir().join("events.pvar");
    let pvar = pvar.to_str().unwrap();
    let source = path("mesos/empty_records.recordio");
    let made = rcc(
        &[
            "frame",
            "--from",
            "mesos",
            "--to",
            "plasma-var",
            &source,
            pvar,
        ],
        b"",
    );
    assert_eq!(made.status.code(), Some(0));
    let cases = [
        (
            "seqfile/none.seq".to_owned(),
            "paddle",
            "a SequenceFile (SEQ, version 6)",
            "seqfile",
        ),
        (
            "paddle/cpp_layout_nocomp.recordio".to_owned(),
            "paddle",
            "a Paddle file in the C++ layout",
            "paddle-cpp",
        ),
        (
            "paddle/single_chunk_nocomp.recordio".to_owned(),
            "paddle-cpp",
            "a Paddle file (Go layout)",
            "paddle",
        ),
        (
            "v1/basic.rio".to_owned(),
            "mesos",
            "a RecordIO v1 file (RecordIO v…)",
            "v1",
        ),
        (
            pvar.to_owned(),
            "plasma-text",
            "a plasma-var file (PMRV, version 1)",
            "plasma-var",
        ),
    ];
    for (file, named, what, give) in cases {
        let file = if file.starts_with('/') {
            file
        } else {
            path(&file)
        };
        let message = |name: &str| {
            format!(
                "error: {name}: this is {what}, not {named}: give --from {give} (or leave --from \
                 out)\n"
            )
        };
        let out = rcc(
            &["frame", "--from", named, "--to", "mesos", &file, out_str],
            b"",
        );
        refusals.assert_refused(&out, &file);
        assert_eq!(stderr(&out), message(&file), "{file}");
        let bytes = std::fs::read(&file).unwrap();
        let piped = rcc(&["frame", "--from", named, "--to", "mesos"], &bytes);
        assert_eq!(stderr(&piped), message("standard input"), "{file}");
        assert!(piped.stdout.is_empty());
        let info = rcc(&["frame", "info", "--from", named, &file], b"");
        assert_eq!(info.status.code(), Some(1), "{file}");
        assert_eq!(stderr(&info), message(&file), "{file}");
    }
}

/// Errors that have a remedy name it: --recover for damaged chunks, blocks and records,
/// --lenient for Mesos lengths with a sign, blanks or CR.
#[test]
fn decoding_errors_name_their_remedy() {
    let corrupt = std::fs::read(fixtures().join("paddle/corrupt_checksum.recordio")).unwrap();
    let out = rcc(&["frame", "--to", "mesos"], &corrupt);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_ends_with(&out, ": give --recover to skip the damage and read on\n");
    let saved = rcc(&["frame", "--to", "mesos", "--recover"], &corrupt);
    assert_eq!(saved.status.code(), Some(1));
    assert!(
        !stderr(&saved).contains("give --recover"),
        "{}",
        stderr(&saved)
    );
    assert!(!saved.stdout.is_empty());

    // A SequenceFile's block that does not decompress.
    let mut seq = std::fs::read(fixtures().join("seqfile/block-default.seq")).unwrap();
    let middle = seq.len() / 2;
    for b in &mut seq[middle..middle + 16] {
        *b ^= 0x5a;
    }
    let out = rcc(&["frame", "--to", "mesos"], &seq);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: damaged seqfile input: "), "{err}");
    assert!(
        err.ends_with(": give --recover to skip the damage and read on\n"),
        "{err}"
    );

    // Mesos lengths as mesos-go and Mesos' Python decoder take them.
    for input in [&b"+5\nhello"[..], b"5\r\nhello", b" 5\nhello"] {
        let out = rcc(&["frame", "--from", "mesos", "--to", "paddle"], input);
        assert_eq!(out.status.code(), Some(1), "{input:?}");
        assert_stderr_ends_with(
            &out,
            ": give --lenient to accept a sign, blanks and CR around lengths, as mesos-go \
                 and Mesos' Python decoder do\n",
        );
        let lenient = rcc(
            &["frame", "--from", "mesos", "--lenient", "--to", "mesos"],
            input,
        );
        assert_eq!(lenient.status.code(), Some(0), "{}", stderr(&lenient));
        assert_eq!(lenient.stdout, b"5\nhello");
    }
}

/// `rcc frame info` on a fixture: stdout, then stderr and the exit status.
fn info(framing: &str, path: &str) -> String {
    let out = rcc(&["frame", "info", "--from", framing, path], b"");
    format!(
        "{}--- stderr (exit {}) ---\n{}",
        String::from_utf8_lossy(&out.stdout),
        out.status.code().unwrap(),
        stderr(&out).replace(path, "FILE")
    )
}

#[test]
fn info_on_fixtures() {
    for f in all_fixtures() {
        let report = info(f.framing, &path_of(&f));
        let exit = if f.damaged { 1 } else { 0 };
        assert!(
            report.contains(&format!("(exit {exit})")),
            "{}: {report}",
            f.file
        );
        assert_eq!(
            report.contains("status: ok"),
            !f.damaged && f.framing != "mesos" && !f.framing.starts_with("paddle"),
            "{}: {report}",
            f.file
        );
        let name = format!("frame_info_{}_{}", f.framing, f.file.replace('.', "_"));
        insta::assert_snapshot!(name, report);
    }
    // The plasma formats, from files the CLI writes.
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures().join("mesos/scheduler_events_json.recordio");
    let source = source.to_str().unwrap();
    for (to, extra) in [
        ("plasma-text", &[][..]),
        (
            "plasma-var",
            &["--chunk-size", "256", "--compression", "snappy"][..],
        ),
    ] {
        let path = dir.path().join(to);
        let path = path.to_str().unwrap();
        let mut args = vec!["frame", "--from", "mesos", "--to", to];
        args.extend(extra);
        args.extend([source, path]);
        assert_eq!(rcc(&args, b"").status.code(), Some(0));
        insta::assert_snapshot!(format!("frame_info_{to}"), info(to, path));
    }
    // A plasma-var file with a damaged chunk in the middle.
    let path = dir.path().join("plasma-var");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[256 + 40] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let report = info("plasma-var", path.to_str().unwrap());
    assert!(!report.contains("status: ok"), "{report}");
    insta::assert_snapshot!("frame_info_plasma-var_damaged", report);
    let fixed = dir.path().join("fixed");
    std::fs::write(&fixed, [7u8; 50]).unwrap();
    insta::assert_snapshot!(
        "frame_info_plasma-fixed",
        info("plasma-fixed:16", fixed.to_str().unwrap())
    );
    // Errors.
    let out = rcc(&["frame", "info", "--from", "zip", source], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: --from: unknown framing `zip`"));
    let out = rcc(&["frame", "info", "--from", "mesos", "no/such/file"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: cannot read no/such/file: "));
}
