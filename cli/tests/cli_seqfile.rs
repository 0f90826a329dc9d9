//! `seqfile` on the command line: `rcc frame` both ways with every compression, codec and
//! key, `rcc frame info --from seqfile`, `--recover`, `rcc convert --in-framing/--out-framing
//! seqfile` and `--key-type`, run as the real binary over the files Hadoop wrote
//! (`tests/fixtures/seqfile`) and checked with the runtime's own readers.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use hadoop_record::framing::mesos::{MesosReader, MesosWriter};
use hadoop_record::framing::seqfile::{
    info, writable, Codec, Compression, SeqReadOptions, SeqReader, SeqWriteOptions, SeqWriter,
};
use hadoop_record::framing::FrameWrite;
use hadoop_record::{Format, RecordReader, RecordWriter, Value};
use support::{assert_stderr_contains, convert_args, rcc_in, stderr, stdout, CRATE_DIR};

fn fixtures() -> PathBuf {
    Path::new(CRATE_DIR).join("../tests/fixtures/seqfile")
}

fn schema() -> String {
    Path::new(CRATE_DIR)
        .join("../tests/fixtures/hadoop-java/composite.jr")
        .display()
        .to_string()
}

fn rcc(args: &[&str]) -> Output {
    rcc_in(CRATE_DIR, args, b"")
}

/// `rcc frame` with its options written as one string (split on spaces), from `input` to
/// `output`.
fn frame(options: &str, input: &Path, output: &Path) -> Output {
    let mut args = vec!["frame"];
    args.extend(options.split(' '));
    args.extend([path(input), path(output)]);
    rcc(&args)
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_seqfile");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The 60 records of the fixtures, each in Hadoop's binary encoding.
fn records() -> Vec<Vec<u8>> {
    let bytes = std::fs::read(fixtures().join("values.bin")).unwrap();
    let model = support::load_in_crate_dir(&["../tests/fixtures/hadoop-java/composite.jr"]);
    let schema = model.to_schema().into_schema();
    let id = schema.find("oracle.composite.Outer").unwrap();
    let mut reader = RecordReader::from_slice(&bytes, Format::Binary);
    let mut out = Vec::new();
    while let Some(value) = reader.read_value(&schema, id).unwrap() {
        let mut w = RecordWriter::new(Vec::new(), Format::Binary);
        w.write_value(&schema, id, &value).unwrap();
        out.push(w.into_inner().unwrap());
    }
    assert_eq!(out.len(), 60);
    out
}

fn mesos_payloads(file: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(file).unwrap();
    MesosReader::new(&bytes[..]).map(Result::unwrap).collect()
}

/// A file's records as (key, value) bytes.
type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

fn seq_values(file: &Path) -> (SeqReader<std::io::Cursor<Vec<u8>>>, Pairs) {
    let bytes = std::fs::read(file).unwrap();
    let mut reader = SeqReader::new(std::io::Cursor::new(bytes)).unwrap();
    let mut pairs = Vec::new();
    while let Some(pair) = reader.next_pair() {
        let pair = pair.unwrap();
        pairs.push((pair.key.to_vec(), pair.value.to_vec()));
    }
    (reader, pairs)
}

fn ok(out: &Output) {
    assert!(out.status.success(), "rcc failed: {}", stderr(out));
}

#[test]
fn every_hadoop_file_frames_into_its_values() {
    let expected = records();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_none_or(|e| e != "seq") {
            continue;
        }
        let out_file = tmp(&format!(
            "{}.rio",
            file.file_stem().unwrap().to_str().unwrap()
        ));
        ok(&frame("--from seqfile --to mesos", &file, &out_file));
        assert_eq!(mesos_payloads(&out_file), expected, "{}", file.display());
    }
}

#[test]
fn framing_into_seqfile_with_every_compression_codec_and_key() {
    let expected = records();
    let rio = tmp("in.rio");
    let mut w = MesosWriter::new(Vec::new());
    for r in &expected {
        w.write_payload(r).unwrap();
    }
    w.finish().unwrap();
    std::fs::write(&rio, w.into_inner().unwrap()).unwrap();
    let mut cases = vec![("none", None)];
    for c in ["record", "block"] {
        cases.extend(Codec::ALL.iter().map(|&codec| (c, Some(codec))));
    }
    for (compression, codec) in cases {
        for key in [None, Some("long")] {
            let out_file = tmp(&format!("{compression}-{codec:?}-{key:?}.seq"));
            let mut args = vec![
                "frame",
                "--from",
                "mesos",
                "--to",
                "seqfile",
                "--record-type",
                "oracle.composite.Outer",
                "--seqfile-compression",
                compression,
            ];
            if let Some(codec) = codec {
                args.extend(["--seqfile-codec", codec.name()]);
            }
            if let Some(key) = key {
                args.extend(["--seqfile-key", key]);
            }
            args.extend([path(&rio), path(&out_file)]);
            ok(&rcc(&args));
            let (reader, pairs) = seq_values(&out_file);
            let h = reader.header();
            assert_eq!(h.value_class, "oracle.composite.Outer");
            assert_eq!(h.compression.name(), compression);
            assert_eq!(h.codec().unwrap(), codec);
            let values: Vec<_> = pairs.iter().map(|(_, v)| v.clone()).collect();
            assert_eq!(values, expected);
            for (n, (k, _)) in pairs.iter().enumerate() {
                match key {
                    None => assert!(k.is_empty()),
                    Some(_) => assert_eq!(k[..], (n as i64).to_be_bytes()),
                }
            }
            let key_class = if key.is_some() {
                writable::LONG_WRITABLE
            } else {
                writable::NULL_WRITABLE
            };
            assert_eq!(h.key_class, key_class);
        }
    }
}

#[test]
fn without_record_type_the_value_class_is_hadoops_record_base_class_and_a_warning_says_so() {
    let rio = tmp("one.rio");
    let mut w = MesosWriter::new(Vec::new());
    w.write_payload(b"\x01").unwrap();
    w.finish().unwrap();
    std::fs::write(&rio, w.into_inner().unwrap()).unwrap();
    let seq = tmp("one.seq");
    let out = frame("--from mesos --to seqfile", &rio, &seq);
    ok(&out);
    assert!(stderr(&out).contains("name the records' Java class with --record-type"));
    let (reader, pairs) = seq_values(&seq);
    assert_eq!(
        reader.header().value_class,
        "org.apache.hadoop.record.Record"
    );
    assert_eq!(pairs, [(Vec::new(), vec![1])]);
}

#[test]
fn seqfile_to_seqfile_keeps_keys_classes_and_metadata() {
    let from = fixtures().join("block-default.seq");
    let out_file = tmp("rewritten.seq");
    ok(&frame(
        "--from seqfile --to seqfile --seqfile-compression record --seqfile-codec snappy",
        &from,
        &out_file,
    ));
    let (reader, pairs) = seq_values(&out_file);
    let (original, original_pairs) = seq_values(&from);
    let (h, o) = (reader.header(), original.header());
    assert_eq!(
        (&h.key_class, &h.value_class),
        (&o.key_class, &o.value_class)
    );
    assert_eq!(h.metadata, o.metadata);
    assert_eq!(h.compression, Compression::Record);
    assert_eq!(pairs, original_pairs);
}

#[test]
fn frame_info_prints_header_codec_blocks_and_syncs() {
    let file = fixtures().join("block-bzip2.seq");
    let out = rcc(&["frame", "info", "--from", "seqfile", path(&file)]);
    ok(&out);
    let text = stdout(&out);
    let i = info(
        &std::fs::read(&file).unwrap()[..],
        &SeqReadOptions::default(),
    )
    .unwrap();
    for want in [
        "60 records in ".to_owned(),
        "key class: org.apache.hadoop.io.LongWritable".to_owned(),
        "value class: oracle.composite.Outer".to_owned(),
        "codec: org.apache.hadoop.io.compress.BZip2Codec".to_owned(),
        "metadata: made-by = hadooprecord.peer.SeqFiles".to_owned(),
        format!("block at {}: ", i.blocks[1].offset),
        format!("sync entries at: {}", i.syncs[0]),
    ] {
        assert!(text.contains(&want), "{want:?} not in\n{text}");
    }
}

#[test]
fn damage_is_reported_with_its_offset_and_recover_skips_it() {
    let bytes = std::fs::read(fixtures().join("block-default.seq")).unwrap();
    let i = info(&bytes[..], &SeqReadOptions::default()).unwrap();
    let victim = &i.blocks[2];
    let mut damaged = bytes.clone();
    damaged[(victim.offset + victim.stored / 2) as usize] ^= 0xff;
    let file = tmp("damaged.seq");
    std::fs::write(&file, &damaged).unwrap();

    let out = rcc(&["frame", "info", "--from", "seqfile", path(&file)]);
    assert!(!out.status.success());
    assert!(
        stdout(&out).contains(&format!("at byte {}", victim.offset)),
        "{}",
        stdout(&out)
    );

    // Into a file: none is written. On standard output: the records before the damage.
    let strict = tmp("strict.rio");
    let _ = std::fs::remove_file(&strict);
    let out = frame("--from seqfile --to mesos", &file, &strict);
    assert!(!out.status.success());
    assert_stderr_contains(&out, &format!("byte {}", victim.offset));
    assert!(!strict.exists());
    let out = frame("--from seqfile --to mesos", &file, Path::new("-"));
    assert!(!out.status.success());
    let before: u64 = i.blocks[..2].iter().map(|b| b.records).sum();
    let payloads: Vec<Vec<u8>> = MesosReader::new(&out.stdout[..])
        .map(Result::unwrap)
        .collect();
    assert_eq!(payloads, records()[..before as usize]);

    let saved = tmp("saved.rio");
    let out = frame("--from seqfile --to mesos --recover", &file, &saved);
    assert!(!out.status.success());
    assert_stderr_contains(&out, "recovery: skipped");
    assert_eq!(mesos_payloads(&saved).len() as u64, 60 - victim.records);
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let file = fixtures().join("none.seq");
    // Each command line is written as one string, split on spaces, then given the file.
    for (line, message) in [
        (
            "frame --from seqfile --to mesos --seqfile-codec lz4",
            "--seqfile-codec applies to seqfile output, not mesos",
        ),
        (
            "frame --from seqfile --to seqfile --seqfile-codec lz4",
            "--seqfile-codec needs --seqfile-compression record or block",
        ),
        (
            "frame --from seqfile --to seqfile --compression snappy",
            "--compression applies to paddle, paddle-cpp and plasma-var output, not seqfile",
        ),
        (
            "frame --from mesos --to paddle --seqfile-key long",
            "--seqfile-key applies to seqfile output, not paddle",
        ),
        (
            "frame --from seqfile --to seqfile --seqfile-codec zstd",
            "invalid value 'zstd'",
        ),
        (
            "frame --from mesos --to mesos --recover",
            "--recover applies to paddle, paddle-cpp, plasma-var and seqfile input, not mesos",
        ),
    ] {
        let mut args: Vec<&str> = line.split(' ').collect();
        args.push(path(&file));
        let out = rcc(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn convert_reads_and_writes_seqfiles_of_records() {
    let schema = schema();
    let file = fixtures().join("record-gzip.seq");
    let bin = tmp("values.bin");
    ok(&rcc(&convert_args(
        (&schema, "oracle.composite.Outer"),
        ("binary", "binary"),
        &["--in-framing", "seqfile", path(&file), path(&bin)],
    )));
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        std::fs::read(fixtures().join("values.bin")).unwrap()
    );

    let seq = tmp("from-convert.seq");
    ok(&rcc(&convert_args(
        (&schema, "oracle.composite.Outer"),
        ("binary", "binary"),
        &[
            "--out-framing",
            "seqfile",
            "--seqfile-compression",
            "block",
            "--seqfile-codec",
            "gzip",
            path(&bin),
            path(&seq),
        ],
    )));
    let (reader, pairs) = seq_values(&seq);
    assert_eq!(reader.header().value_class, "oracle.composite.Outer");
    assert_eq!(reader.header().key_class, writable::NULL_WRITABLE);
    assert_eq!(
        pairs.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
        records()
    );
}

#[test]
fn convert_reads_record_keys_with_key_type() {
    let schema = schema();
    let model = support::load_in_crate_dir(&["../tests/fixtures/hadoop-java/composite.jr"]);
    let s = model.to_schema().into_schema();
    let inner = s.find("oracle.composite.Inner").unwrap();
    let key = Value::Record(vec![Value::String("k".into()), Value::Long(7)]);
    let mut kw = RecordWriter::new(Vec::new(), Format::Binary);
    kw.write_value(&s, inner, &key).unwrap();
    let key_bytes = kw.into_inner().unwrap();
    let options =
        SeqWriteOptions::new("oracle.composite.Inner").with_key_class("oracle.composite.Inner");
    let mut w = SeqWriter::new(Vec::new(), options);
    w.append(&key_bytes, &key_bytes).unwrap();
    w.finish().unwrap();
    let file = tmp("keyed.seq");
    std::fs::write(&file, w.into_inner().unwrap()).unwrap();
    let base = [
        "convert",
        "--schema",
        &schema,
        "--type",
        "oracle.composite.Inner",
        "--from",
        "binary",
        "--in-framing",
        "seqfile",
    ];
    let mut args = base.to_vec();
    args.extend([
        "--to",
        "json",
        "--key-type",
        "oracle.composite.Inner",
        path(&file),
    ]);
    let out = rcc(&args);
    ok(&out);
    assert_eq!(
        stdout(&out),
        "{\"key\":{\"tag\": \"k\", \"n\": 7},\"value\":{\"tag\": \"k\", \"n\": 7}}\n"
    );
    let mut args = base.to_vec();
    args.extend([
        "--to",
        "csv",
        "--key-type",
        "oracle.composite.Inner",
        path(&file),
    ]);
    let out = rcc(&args);
    assert_stderr_contains(&out, "needs --to json");
}
