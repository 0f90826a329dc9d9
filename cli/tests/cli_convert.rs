//! `rcc convert`, run as the real binary over the Hadoop Java fixtures
//! (`tests/fixtures/hadoop-java`): every conversion between the encodings gives the target
//! file's bytes, JSON reads back to the manifest's values, damaged input gives the records
//! before the damage and a located error, and framings combine with conversion.

mod support;

use std::process::Output;

use fixture_harness::canon;
use fixture_harness::{hadoop_java, hadoop_java_dir, record_id, Case, Encoding};
use hadoop_record::framing::mesos::{MesosReader, MesosWriter};
use hadoop_record::framing::paddle::{Compressor, PaddleWriteOptions, PaddleWriter};
use hadoop_record::framing::v1::V1Reader;
use hadoop_record::framing::FrameWrite;
use hadoop_record::schema::FieldType;
use hadoop_record::value::json::from_json;
use hadoop_record::Value;
use support::{
    assert_clean_output, assert_stderr_contains, assert_stderr_ends_with,
    assert_stderr_starts_with, assert_success, convert_args, convert_in, float_text_runs,
    help_with, listing, name_of, rcc_in, stderr, stems, Refusals, FORMATS,
};

/// Runs `rcc args` in the fixture directory with `stdin` as standard input.
fn rcc(args: &[&str], stdin: &[u8]) -> Output {
    rcc_in(hadoop_java_dir(), args, stdin)
}

/// `rcc convert` for the case's schema and type, plus `extra`.
fn convert(case: &Case, from: &str, to: &str, extra: &[&str], stdin: &[u8]) -> Output {
    let schema = (case.schema.as_str(), case.record_type.as_str());
    convert_in(hadoop_java_dir(), schema, (from, to), extra, stdin)
}

fn case(name: &str) -> &'static Case {
    hadoop_java().cases.iter().find(|c| c.name == name).unwrap()
}

/// Every conversion gives the target file's bytes: by default and with `--float-text
/// legacy` those JDK 17 wrote (`data/`), with `--float-text shortest` a modern JDK's
/// (`data-jdk-modern/`), from either JDK's input.
#[test]
fn every_conversion_reproduces_the_target_bytes() {
    let (mut checked, mut modern) = (0, 0);
    for (stem, cases) in stems(&hadoop_java().cases) {
        for (_, from) in FORMATS {
            for (_, to) in FORMATS {
                let source = cases[from];
                let target = cases[to];
                // Readers accept what JDK 17 wrote and what a modern JDK writes.
                let mut inputs = vec![source.bytes()];
                if source.differs_on_modern_jdk() {
                    inputs.push(source.modern_bytes());
                }
                for input in &inputs {
                    for (extra, float_text) in float_text_runs(to) {
                        let out = convert(source, from, to, extra, input);
                        let what = format!("{stem} {from} -> {to} {extra:?}");
                        assert_clean_output(&out, &target.bytes_with(float_text), &what);
                        checked += 1;
                        modern += usize::from(target.differs_on_modern_jdk());
                    }
                }
            }
        }
    }
    assert!(checked >= 155 * 3 * (1 + 3 + 3), "{checked}");
    // The files whose float text differs between the JDKs were among them.
    assert!(modern >= 2 * 3 * 3, "{modern}");
}

/// `--from` is binary when it is not given, as `rcc sql`'s.
#[test]
fn from_is_binary_by_default() {
    let c = case("int_1.binary");
    let args = [
        "convert",
        "--schema",
        c.schema.as_str(),
        "--type",
        c.record_type.as_str(),
        "--to",
        "csv",
    ];
    let out = rcc(&args, &c.bytes());
    assert_clean_output(&out, &case("int_1.csv").bytes(), "no --from");
}

/// `--float-text` takes legacy or shortest, and applies to CSV and XML output only.
#[test]
fn float_text_is_legacy_or_shortest_for_csv_and_xml() {
    let c = case("float_08.xml");
    let out = convert(c, "xml", "csv", &["--float-text", "modern"], &c.bytes());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("invalid value 'modern' for '--float-text <JDK>'")
            && err.contains("[possible values: legacy, shortest]"),
        "{err}"
    );
    for to in ["binary", "json"] {
        let out = convert(c, "xml", to, &["--float-text", "shortest"], &c.bytes());
        assert_eq!(out.status.code(), Some(1), "{to}");
        assert!(out.stdout.is_empty(), "{to}");
        assert_eq!(
            stderr(&out),
            "error: --float-text applies to Hadoop CSV and XML output (--to csv or xml)\n",
            "{to}"
        );
    }
    let help = rcc(&["convert", "--help"], b"");
    let text = String::from_utf8(help.stdout).unwrap().replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "--float-text <JDK>",
        "legacy: JDK 8 to 18's text, which Hadoop clusters write (the default)",
        "shortest: JDK 19 and later's",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

/// Reads JSON lines as values of `record_type` with the harness' own schema.
fn json_values(record_type: &str, text: &[u8]) -> Vec<Value> {
    let ty = FieldType::Record(record_id(record_type));
    std::str::from_utf8(text)
        .unwrap()
        .lines()
        .map(|line| {
            let json: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            from_json(fixture_harness::schema(), &ty, &json)
                .unwrap_or_else(|e| panic!("{e}: {line}"))
        })
        .collect()
}

#[test]
fn json_output_reads_back_to_the_manifest_values() {
    let mut values = 0;
    for case in &hadoop_java().cases {
        let out = convert(case, name_of(case.encoding), "json", &[], &case.bytes());
        assert_success(&out, &case.name);
        assert!(out.stdout.ends_with(b"\n"));
        let read = json_values(&case.record_type, &out.stdout);
        let expected = case.expected_values();
        assert_eq!(read.len(), expected.len(), "{}", case.name);
        for (r, e) in read.iter().zip(&expected) {
            assert!(r.bitwise_eq(&canon(e)), "{}:\n{r:?}\n{e:?}", case.name);
        }
        values += read.len();
    }
    assert!(values > 300, "{values}");
}

#[test]
fn json_is_readable() {
    let c = case("stream_allprims_x3.binary");
    let out = convert(c, "binary", "json", &[], &c.bytes());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        concat!(
            r#"{"b": 1, "z": true, "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": "one", "buf": "01"}"#,
            "\n",
            r#"{"b": 2, "z": false, "i": -2, "l": -2, "f": -2.0, "d": -2.0, "s": "t,w\no", "buf": "0202"}"#,
            "\n",
            r#"{"b": 3, "z": true, "i": 300, "l": 3000000000, "f": 0.3, "d": 0.3, "s": "", "buf": ""}"#,
            "\n"
        )
    );
}

#[test]
fn long_streams_convert_record_by_record() {
    // Every IntRec file back to back: one stream of many records.
    let ints: Vec<&Case> = hadoop_java()
        .cases
        .iter()
        .filter(|c| c.record_type == "oracle.prims.IntRec" && c.values.len() == 1)
        .collect();
    for (from_encoding, from) in FORMATS {
        for (to_encoding, to) in FORMATS {
            let stream = |e: Encoding| -> Vec<u8> {
                ints.iter()
                    .filter(|c| c.encoding == e)
                    .flat_map(|c| c.bytes())
                    .collect()
            };
            let out = convert(ints[0], from, to, &[], &stream(from_encoding));
            assert_eq!(
                out.status.code(),
                Some(0),
                "{from} -> {to}: {}",
                stderr(&out)
            );
            assert_eq!(out.stdout, stream(to_encoding), "{from} -> {to}");
        }
    }
}

#[test]
fn truncated_input_gives_the_records_before_it_and_a_located_error() {
    let c = case("stream_allprims_x3.binary");
    let bytes = c.bytes();
    let csv = case("stream_allprims_x3.csv").bytes();
    let csv_lines: Vec<&[u8]> = csv.split_inclusive(|&b| b == b'\n').collect();
    // Record boundaries in the binary stream, from converting record by record.
    let mut ends = Vec::new();
    for n in 1..=3 {
        let prefix: Vec<u8> = csv_lines[..n].concat();
        let out = convert(c, "csv", "binary", &[], &prefix);
        ends.push(out.stdout.len());
    }
    assert_eq!(ends[2], bytes.len());
    for cut in 1..bytes.len() {
        let out = convert(c, "binary", "csv", &[], &bytes[..cut]);
        let complete = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(out.stdout, csv_lines[..complete].concat(), "cut at {cut}");
        if ends.contains(&cut) {
            assert_eq!(out.status.code(), Some(0), "cut at {cut}: {}", stderr(&out));
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "cut at {cut}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        let prefix = format!("error: record {complete}, byte ");
        assert!(err.starts_with(&prefix), "cut at {cut}: {err}");
        assert!(err.contains(", in AllPrims."), "cut at {cut}: {err}");
    }
    // CSV positions are line:col. The last record is `3,T,300,3000000000,…,0.3,',#`.
    let out = convert(c, "csv", "binary", &[], &csv[..csv.len() - 5]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, &bytes[..ends[1]]);
    assert_eq!(
        stderr(&out),
        "error: record 2, line 3:43, in AllPrims.s: input ends where `,` was expected\n"
    );
}

#[test]
fn corrupt_input_names_record_position_and_field() {
    let c = case("stream_allprims_x3.csv");
    let csv = String::from_utf8(c.bytes()).unwrap();
    // The second record's boolean is `F`; make it `X`.
    let bad = csv.replacen(",F,", ",X,", 1);
    let out = convert(c, "csv", "json", &[], bad.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 1);
    let err = stderr(&out);
    assert!(
        err.starts_with("error: record 1, line 2:3, in AllPrims.z: "),
        "{err}"
    );
    // A value the target cannot hold: Hadoop's binary writer refuses U+FFFF.
    let strings = case("string_00.csv");
    let out = convert(
        strings,
        "csv",
        "binary",
        &[],
        "'ok\n'a\u{FFFF}b\n'after\n".as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"\x02ok");
    assert_eq!(
        stderr(&out),
        "error: cannot write as binary: record 1, in StringRec.v: Illegal Unicode Codepoint ffff \
         in string (Hadoop refuses U+FFFE and U+FFFF)\n"
    );
    // A nested field: the path goes down to it.
    let outer = case("stream_outer_x2.binary");
    let mut bytes = outer.bytes();
    bytes.truncate(40);
    let out = convert(outer, "binary", "csv", &[], &bytes);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: record 0, byte "), "{err}");
    assert!(err.contains(", in Outer.c."), "{err}");
}

/// Payloads of the single-record binary files of one type.
fn binary_payloads(record_type: &str) -> Vec<(&'static Case, Vec<u8>)> {
    hadoop_java()
        .cases
        .iter()
        .filter(|c| {
            c.record_type == record_type && c.encoding == Encoding::Binary && c.values.len() == 1
        })
        .map(|c| (c, c.bytes()))
        .collect()
}

/// The CSV file of the same stem as a binary case.
fn csv_of(binary: &Case) -> Vec<u8> {
    let stem = binary.name.strip_suffix(".binary").unwrap();
    case(&format!("{stem}.csv")).bytes()
}

/// The XML file of the same stem as a binary case.
fn xml_of(binary: &Case) -> Vec<u8> {
    let stem = binary.name.strip_suffix(".binary").unwrap();
    case(&format!("{stem}.xml")).bytes()
}

#[test]
fn binary_records_inside_mesos_and_paddle_convert_to_csv() {
    let records = binary_payloads("oracle.prims.LongRec");
    let expected: Vec<u8> = records.iter().flat_map(|(c, _)| csv_of(c)).collect();

    let mesos = mesos_of(records.iter().map(|(_, p)| &p[..]));
    let out = mesos_to_csv(records[0].0, &mesos);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, expected);

    let options = PaddleWriteOptions::default()
        .with_compressor(Compressor::Snappy)
        .with_max_chunk_size(40);
    let mut paddle = PaddleWriter::with_options(Vec::new(), options);
    for (_, p) in &records {
        paddle.write_payload(p).unwrap();
    }
    paddle.finish().unwrap();
    let paddle = paddle.into_inner().unwrap();
    let out = convert(
        records[0].0,
        "binary",
        "csv",
        &["--in-framing", "paddle"],
        &paddle,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, expected);

    // Back into a framing: each record one payload, the fixture's own bytes.
    let out = convert(
        records[0].0,
        "csv",
        "binary",
        &["--out-framing", "mesos"],
        &expected,
    );
    assert_eq!(out.stdout, mesos);
    let out = convert(
        records[0].0,
        "csv",
        "binary",
        &[
            "--out-framing",
            "paddle",
            "--compression",
            "snappy",
            "--chunk-size",
            "40",
        ],
        &expected,
    );
    assert_eq!(out.stdout, paddle);
}

#[test]
fn xml_records_framed_as_v1_with_types() {
    let records = binary_payloads("oracle.prims.StringRec");
    // The XML files back to back: a stream of `<value>` documents.
    let xml: Vec<u8> = records.iter().flat_map(|(c, _)| xml_of(c)).collect();
    let out = convert(
        records[0].0,
        "xml",
        "binary",
        &[
            "--out-framing",
            "v1",
            "--record-type",
            "StringRec",
            "--header",
            "Application: rcc test",
        ],
        &xml,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reader = V1Reader::new(&out.stdout[..]).unwrap();
    assert_eq!(reader.header().get("Application"), Some("rcc test"));
    let read: Vec<_> = reader.map(Result::unwrap).collect();
    assert_eq!(read.len(), records.len());
    for (r, (_, payload)) in read.iter().zip(&records) {
        assert_eq!(r.record_type, "StringRec");
        assert_eq!(&r.payload, payload);
    }
    // v1 to v1 keeps the header and the types; the payloads change encoding.
    let again = convert(
        records[0].0,
        "binary",
        "xml",
        &["--in-framing", "v1", "--out-framing", "v1"],
        &out.stdout,
    );
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let reader = V1Reader::new(&again.stdout[..]).unwrap();
    assert_eq!(reader.header().get("Application"), Some("rcc test"));
    let payloads: Vec<Vec<u8>> = reader
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(r.record_type, "StringRec");
            r.payload
        })
        .collect();
    let each: Vec<Vec<u8>> = records.iter().map(|(c, _)| xml_of(c)).collect();
    assert_eq!(payloads, each);
}

#[test]
fn truncated_xml_names_line_column_and_field() {
    let c = case("stream_outer_x2.xml");
    let xml = c.bytes();
    let binary = case("stream_outer_x2.binary").bytes();
    // The second record is the last 127 of 356 lines: cut inside it.
    let cut = xml.len() - 200;
    let out = convert(c, "xml", "binary", &[], &xml[..cut]);
    assert_eq!(out.status.code(), Some(1));
    // The first record, converted alone through CSV.
    let csv = case("stream_outer_x2.csv").bytes();
    let first_line = &csv[..=csv.iter().position(|&b| b == b'\n').unwrap()];
    let first = convert(c, "csv", "binary", &[], first_line);
    assert!(binary.starts_with(&first.stdout) && first.stdout.len() < binary.len());
    assert_eq!(out.stdout, first.stdout);
    assert_eq!(
        stderr(&out),
        "error: record 1, line 346:38, in Outer.n.where.y: input ends where </member> was expected\n"
    );
    // An element of the wrong type.
    let int = case("int_1.xml");
    let bad = String::from_utf8(int.bytes())
        .unwrap()
        .replace("i4>", "i8>");
    let out = convert(int, "xml", "json", &[], bad.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        "error: record 0, line 4:12, in IntRec.v: unknown element `i8`\n"
    );
}

/// Issue 15: a damaged record whose field is one 100,000-character token printed the whole
/// token. The error quotes a short excerpt, and still names the record, the line:col and the
/// field.
#[test]
fn a_huge_bad_token_is_quoted_as_an_excerpt() {
    let int = case("int_1.csv");
    let mut line = "7".repeat(40);
    line.push_str(&"x".repeat(99_960));
    line.push('\n');
    let out = convert(int, "csv", "binary", &[], line.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: record 0, line 1:1, in IntRec.v: expected an int, found `{}…` (100000 bytes)\n",
            "7".repeat(40)
        )
    );
}

#[test]
fn csv_in_plasma_text_is_the_csv_stream() {
    let c = case("stream_allprims_x3.binary");
    let csv = case("stream_allprims_x3.csv").bytes();
    let out = convert(
        c,
        "binary",
        "csv",
        &["--out-framing", "plasma-text"],
        &c.bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, csv);
    let out = convert(c, "csv", "binary", &["--in-framing", "plasma-text"], &csv);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, c.bytes());
    // JSON lines as Mesos events.
    let out = convert(c, "binary", "json", &["--out-framing", "mesos"], &c.bytes());
    let events: Vec<Vec<u8>> = MesosReader::new(&out.stdout[..])
        .map(Result::unwrap)
        .collect();
    assert_eq!(events.len(), 3);
    let lines = convert(c, "binary", "json", &[], &c.bytes()).stdout;
    let joined: Vec<u8> = events
        .iter()
        .flat_map(|e| e.iter().copied().chain([b'\n']))
        .collect();
    assert_eq!(joined, lines);
}

/// The payloads framed as Mesos RecordIO.
fn mesos_of<'a>(payloads: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut mesos = MesosWriter::new(Vec::new());
    for p in payloads {
        mesos.write_payload(p).unwrap();
    }
    mesos.into_inner().unwrap()
}

/// `rcc convert` of binary records framed as Mesos RecordIO to CSV.
fn mesos_to_csv(case: &Case, framed: &[u8]) -> Output {
    convert(case, "binary", "csv", &["--in-framing", "mesos"], framed)
}

#[test]
fn damage_inside_framed_records() {
    let records = binary_payloads("oracle.prims.IntRec");
    let first = records[0].0;
    // A record cut short, then one with a byte too many.
    let out = mesos_to_csv(first, &mesos_of([&records[0].1[..], &records[1].1[..0]]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, csv_of(first));
    assert_eq!(
        stderr(&out),
        "error: record 1: the mesos payload is empty\n"
    );

    let long = records.iter().find(|(_, p)| p.len() >= 3).unwrap();
    let out = mesos_to_csv(first, &mesos_of([&records[0].1[..], &long.1[..1]]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, csv_of(first));
    assert_eq!(
        stderr(&out),
        "error: record 1, byte 0 of its mesos payload, in IntRec.v: input ends inside an int\n"
    );

    let mut extra = records[0].1.clone();
    extra.push(0);
    let out = mesos_to_csv(first, &mesos_of([&extra[..]]));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_stderr_starts_with(&out, "error: record 0, byte ");
    assert_stderr_contains(&out, "more bytes after the record");

    // A damaged framing: the records before it, then the framing's error.
    let mut damaged = mesos_of(records[..3].iter().map(|(_, p)| &p[..]));
    damaged.truncate(damaged.len() - 1);
    let out = mesos_to_csv(first, &damaged);
    assert_eq!(out.status.code(), Some(1));
    let expected: Vec<u8> = records[..2].iter().flat_map(|(c, _)| csv_of(c)).collect();
    assert_eq!(out.stdout, expected);
    assert_stderr_starts_with(&out, "error: damaged mesos input: record 2, byte ");
}

#[test]
fn errors_before_any_work() {
    let refusals = Refusals::new("never.out");
    let out_str = refusals.output();
    let input = hadoop_java_dir().join("data/int_1.bin");
    let input = input.to_str().unwrap();
    let base = |schema: &'static str, ty: &'static str| {
        vec![
            "convert", "--schema", schema, "--type", ty, "--from", "binary", "--to", "csv",
        ]
    };
    let no_framing = format!(
        "error: --recover applies to framed input, and {input} starts with none of the framings \
         found from their first bytes (seqfile, paddle, paddle-cpp, plasma-var, v1): give \
         --in-framing F (mesos, plasma-text, plasma-fixed:N are never guessed)\n"
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            base("prims.jr", "oracle.prims.IntRek"),
            "error: unknown type `oracle.prims.IntRek` in prims.jr: did you mean `oracle.prims.IntRec`?\n",
        ),
        (base("prims.jr", "Nothing.Like.It"), "error: unknown type `Nothing.Like.It` in prims.jr (it and its includes declare oracle.prims.ByteRec, oracle.prims.BoolRec, oracle.prims.IntRec, oracle.prims.LongRec, oracle.prims.FloatRec, oracle.prims.DoubleRec, oracle.prims.StringRec, oracle.prims.BufferRec, oracle.prims.AllPrims)\n"),
        (
            [base("prims.jr", "IntRec"), vec!["--in-framing", "zip"]].concat(),
            "error: --in-framing: unknown framing `zip` (expected one of auto, none, mesos, paddle, paddle-cpp, plasma-text, plasma-fixed:N, plasma-var, seqfile, v1)\n",
        ),
        (
            [base("prims.jr", "IntRec"), vec!["--lenient"]].concat(),
            "error: --lenient applies to mesos input, which is never found from its first bytes: give --in-framing mesos\n",
        ),
        (
            [base("prims.jr", "IntRec"), vec!["--in-framing", "none", "--recover"]].concat(),
            "error: --recover applies to framed data: it needs --in-framing\n",
        ),
        ([base("prims.jr", "IntRec"), vec!["--recover"]].concat(), &no_framing),
        (
            [base("prims.jr", "IntRec"), vec!["--out-framing", "v1"]].concat(),
            "error: writing v1 needs --record-type TYPE (the type every record is written as)\n",
        ),
        (
            [base("prims.jr", "IntRec"), vec!["--record-type", "X"]].concat(),
            "error: --record-type applies to framed data: it needs --out-framing\n",
        ),
        (
            [base("prims.jr", "IntRec"), vec!["--in-framing", "mesos", "--recover"]].concat(),
            "error: --recover applies to paddle, paddle-cpp, plasma-var and seqfile input, not mesos\n",
        ),
    ];
    for (mut args, expected) in cases {
        args.extend([input, out_str]);
        let out = rcc(&args, b"");
        refusals.assert_refused(&out, &args);
        assert_eq!(stderr(&out), expected, "{args:?}");
    }
    // An unreadable input.
    let mut args = base("prims.jr", "IntRec");
    args.extend(["no/such/input", out_str]);
    let out = rcc(&args, b"");
    refusals.assert_refused(&out, &args);
    assert_stderr_starts_with(&out, "error: cannot read no/such/input: ");
    assert_eq!(stderr(&out).lines().count(), 1);
    // A bad schema: rendered as `rcc check` renders it.
    let bad = refusals.dir().join("bad.jr");
    std::fs::write(&bad, "module m { class A { int } }\n").unwrap();
    let bad = bad.to_str().unwrap();
    let mut args = base("x", "m.A");
    args[2] = bad;
    args.extend([input, out_str]);
    let out = rcc(&args, b"");
    refusals.assert_refused(&out, &args);
    let check = rcc(&["check", bad], b"");
    assert_eq!(stderr(&out), stderr(&check));
    assert_stderr_ends_with(&out, "error: found 1 error\n");
    // Usage errors are clap's, exit 2.
    let out = rcc(
        &convert_args(("prims.jr", "IntRec"), ("yaml", "csv"), &[]),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_stderr_contains(&out, "possible values: binary, csv, xml");
    let out = rcc(
        &[
            "convert", "--schema", "prims.jr", "--from", "csv", "--to", "csv",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn files_and_standard_streams() {
    let dir = tempfile::tempdir().unwrap();
    let c = case("stream_intrec_x5.binary");
    let input = hadoop_java_dir().join(&c.file);
    let output = dir.path().join("out.csv");
    let out = rcc(
        &convert_args(
            ("prims.jr", "oracle.prims.IntRec"),
            ("binary", "csv"),
            &["-I", ".", input.to_str().unwrap(), output.to_str().unwrap()],
        ),
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let expected = case("stream_intrec_x5.csv").bytes();
    assert_eq!(std::fs::read(&output).unwrap(), expected);
    let dashes = convert(c, "binary", "csv", &["-", "-"], &c.bytes());
    assert_eq!(dashes.stdout, expected);
    // Types from included files, by qualified name.
    let named = rcc(
        &[
            "convert",
            "--schema",
            "composite.jr",
            "--type",
            "oracle.common.types.Point",
            "--from",
            "csv",
            "--to",
            "json",
        ],
        b"1,2\n",
    );
    assert_eq!(
        String::from_utf8(named.stdout).unwrap(),
        "{\"x\": 1, \"y\": 2}\n"
    );
}

/// A conversion that fails halfway leaves the old output as it was, and no temporary; one
/// that succeeds replaces it whole. An output that is the input or the DDL is refused.
#[test]
fn outputs_are_replaced_whole_and_never_destroy_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let c = case("stream_allprims_x3.csv");
    std::fs::copy(
        hadoop_java_dir().join(&c.schema),
        dir.path().join("prims.jr"),
    )
    .unwrap();
    let csv = String::from_utf8(c.bytes()).unwrap();
    std::fs::write(dir.path().join("good.csv"), &csv).unwrap();
    // The second record's boolean is `F`; make it `X`.
    std::fs::write(dir.path().join("bad.csv"), csv.replacen(",F,", ",X,", 1)).unwrap();
    std::fs::write(dir.path().join("out.bin"), b"the old output").unwrap();
    let names = ["bad.csv", "good.csv", "out.bin", "prims.jr"];
    let convert = |input: &str, output: &str| {
        let schema = ("prims.jr", c.record_type.as_str());
        convert_in(dir.path(), schema, ("csv", "binary"), &[input, output], b"")
    };

    let failed = convert("bad.csv", "out.bin");
    assert_eq!(failed.status.code(), Some(1));
    assert_stderr_contains(&failed, "error: record 1, line 2:3, in AllPrims.z: ");
    assert_eq!(
        std::fs::read(dir.path().join("out.bin")).unwrap(),
        b"the old output"
    );
    assert_eq!(listing(dir.path()), names);

    let done = convert("good.csv", "out.bin");
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let binary = case("stream_allprims_x3.binary").bytes();
    assert_eq!(std::fs::read(dir.path().join("out.bin")).unwrap(), binary);
    assert_eq!(listing(dir.path()), names);

    let real = dir.path().canonicalize().unwrap();
    for (output, input) in [("good.csv", "good.csv"), ("prims.jr", "prims.jr")] {
        let refused = convert("good.csv", output);
        assert_eq!(
            stderr(&refused),
            format!(
                "error: refusing to write {0}: it is the input {0}; name another file\n",
                real.join(input).display()
            )
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("good.csv")).unwrap(),
        csv
    );
    assert_eq!(
        std::fs::read(dir.path().join("prims.jr")).unwrap(),
        std::fs::read(hadoop_java_dir().join(&c.schema)).unwrap()
    );
    assert_eq!(listing(dir.path()), names);
}

#[test]
fn help_has_examples() {
    let text = help_with(
        &["convert", "--help"],
        &["Examples:\n  rcc convert --schema", "--in-framing"],
    );
    // What --in-framing finds when it is left out, and how to ask for records back to back.
    let flat = text.replace('\n', " ");
    assert!(
        flat.contains(
            "--in-framing auto (the default) finds seqfile (SEQ and a version byte), paddle and \
             paddle-cpp (the chunk magic 04 03 02 01, the layout the first header reads well \
             in), plasma-var (PMRV) and v1 (RecordIO v) from the first bytes of the input; \
             mesos, plasma-text and plasma-fixed:N are never guessed"
        ),
        "{text}"
    );
    assert!(flat.contains("--in-framing none reads any input"), "{text}");
    // --from and --to take the same formats.
    let formats = "- binary\n          - csv\n          - xml\n          - jute:    ZooKeeper's jute binary encoding\n          - json\n          - parquet: An Apache Parquet file, one column per field\n          - arrow:   An Apache Arrow IPC file, one column per field\n";
    assert_eq!(text.matches(formats).count(), 2, "{text}");
}

/// A file of Hadoop's SequenceFile fixtures: the 60 `oracle.composite.Outer` records of
/// `values.bin` as values.
fn seqfile_fixture(name: &str) -> String {
    hadoop_java_dir()
        .join("../seqfile")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `rcc convert` of `composite.jr`'s `record_type` from binary to JSON, plus `extra`.
fn outer_json(record_type: &str, extra: &[&str], stdin: &[u8]) -> Output {
    rcc(
        &convert_args(("composite.jr", record_type), ("binary", "json"), extra),
        stdin,
    )
}

/// Without --in-framing (auto, the default) SequenceFiles, Paddle files of either layout,
/// plasma-var and v1 files are found from their first bytes, in a file and from a pipe,
/// and give the records the framing named gives; records back to back are read as such;
/// --in-framing none reads any input as records back to back.
#[test]
fn input_framings_are_found_from_the_first_bytes() {
    const OUTER: &str = "oracle.composite.Outer";
    let values = seqfile_fixture("values.bin");
    let plain = outer_json(OUTER, &[&values], b"");
    assert_clean_output(&plain, &plain.stdout, "values.bin");
    assert_eq!(plain.stdout.iter().filter(|b| **b == b'\n').count(), 60);
    let dir = tempfile::tempdir().unwrap();
    let mut framed = Vec::new();
    for seq in ["none.seq", "record-default.seq", "block-bzip2.seq"] {
        framed.push((seqfile_fixture(seq), "seqfile"));
    }
    for (to, extra) in [
        ("paddle", &[][..]),
        ("paddle-cpp", &[][..]),
        ("plasma-var", &[][..]),
        ("v1", &["--record-type", "Outer"][..]),
    ] {
        let path = dir.path().join(to).to_string_lossy().into_owned();
        let mut args = vec!["frame", "--from", "seqfile", "--to", to];
        args.extend(extra);
        args.extend([framed[0].0.as_str(), &path]);
        assert_success(&rcc(&args, b""), to);
        framed.push((path, to));
    }
    for (path, framing) in &framed {
        let bytes = std::fs::read(path).unwrap();
        for (what, out) in [
            ("a file", outer_json(OUTER, &[path], b"")),
            ("a pipe", outer_json(OUTER, &[], &bytes)),
            (
                "named",
                outer_json(OUTER, &["--in-framing", framing, path], b""),
            ),
        ] {
            assert_clean_output(&out, &plain.stdout, &format!("{path} ({framing}), {what}"));
        }
    }
    // The Java fixtures' records back to back are plain records (binary, CSV and XML are
    // converted by `every_conversion_reproduces_the_target_bytes`); --in-framing none reads
    // a SequenceFile's own bytes as records, which they are not.
    let none = outer_json(OUTER, &["--in-framing", "none", &framed[0].0], b"");
    assert_eq!(none.status.code(), Some(1));
    assert_stderr_starts_with(&none, "error: record 0, ");
}

/// A framing named that the input's first bytes contradict is refused before anything is
/// written: the message says what the input is and what to give.
#[test]
fn a_named_in_framing_the_first_bytes_contradict_is_refused() {
    let refusals = Refusals::new("never.json");
    let out_str = refusals.output();
    let seq = seqfile_fixture("none.seq");
    let out = outer_json(
        "oracle.composite.Outer",
        &["--in-framing", "paddle", &seq, out_str],
        b"",
    );
    refusals.assert_refused(&out, &"--in-framing paddle");
    assert_eq!(
        stderr(&out),
        format!(
            "error: {seq}: this is a SequenceFile (SEQ, version 6), not paddle: give --in-framing \
             seqfile (or leave --in-framing out)\n"
        )
    );
    let piped = outer_json(
        "oracle.composite.Outer",
        &["--in-framing", "mesos"],
        &std::fs::read(&seq).unwrap(),
    );
    assert_eq!(
        stderr(&piped),
        "error: standard input: this is a SequenceFile (SEQ, version 6), not mesos: give \
         --in-framing seqfile (or leave --in-framing out)\n"
    );
    assert!(piped.stdout.is_empty());
    // --key-type reads a SequenceFile's keys: auto finds one, or says what the input is.
    let keys = outer_json(
        "oracle.composite.Outer",
        &[
            "--key-type",
            "oracle.composite.Inner",
            &seqfile_fixture("values.bin"),
        ],
        b"",
    );
    assert_eq!(
        stderr(&keys),
        format!(
            "error: --key-type applies to SequenceFile input (the only framing with keys), and \
             {} is records back to back\n",
            seqfile_fixture("values.bin")
        )
    );
}

/// A SequenceFile whose value class is not --type (nor --writer-type) is read, with a
/// warning naming both; Hadoop's record base class names no type and gets none.
#[test]
fn a_sequence_file_of_another_value_class_is_a_warning() {
    let seq = seqfile_fixture("none.seq");
    let out = outer_json("oracle.composite.Inner", &[&seq], b"");
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        format!(
            "warning: {seq} is a SequenceFile of oracle.composite.Outer values, read as \
             oracle.composite.Inner: its records may not be of that type (give --type \
             oracle.composite.Outer if the DDL declares it)"
        )
    );
    // The type it names, or the type the records were written as: no warning.
    let outer = outer_json("oracle.composite.Outer", &[&seq], b"");
    assert_success(&outer, "--type Outer");
    assert_eq!(stderr(&outer), "");
    let written_as = outer_json(
        "oracle.composite.Inner",
        &["--writer-type", "oracle.composite.Outer", &seq],
        b"",
    );
    assert!(
        !stderr(&written_as).contains("warning"),
        "{}",
        stderr(&written_as)
    );
    // A SequenceFile rcc frame wrote without --record-type names Hadoop's base class.
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.seq").to_string_lossy().into_owned();
    let paddle = dir
        .path()
        .join("values.paddle")
        .to_string_lossy()
        .into_owned();
    assert_success(
        &rcc(&["frame", "--to", "paddle", &seq, &paddle], b""),
        "paddle",
    );
    let made = rcc(&["frame", "--to", "seqfile", &paddle, &base], b"");
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let mut made = rcc(&["frame", "info", &base], b"").stdout;
    made.retain(|b| *b != b'\r');
    assert!(String::from_utf8(made)
        .unwrap()
        .contains("value class: org.apache.hadoop.record.Record"),);
    let read = outer_json("oracle.composite.Outer", &[&base], b"");
    assert_success(&read, "base.seq");
    assert_eq!(stderr(&read), "");
    assert_eq!(read.stdout, outer.stdout);
}

/// Records back to back that do not read say what the input looks like when it looks like
/// something else: text of another encoding, or a Mesos stream (never guessed).
#[test]
fn plain_input_that_does_not_read_says_what_it_looks_like() {
    let all = |name: &str| hadoop_java_dir().join("data").join(name);
    let allprims = |from: &str, file: &str| {
        let file = all(file);
        rcc(
            &convert_args(
                ("prims.jr", "oracle.prims.AllPrims"),
                (from, "json"),
                &[file.to_str().unwrap()],
            ),
            b"",
        )
    };
    for (from, file, hint) in [
        (
            "binary",
            "allprims_max.csv",
            "it looks like lines of text: give --from csv",
        ),
        (
            "binary",
            "allprims_max.xml",
            "it looks like XML text: give --from xml",
        ),
        (
            "csv",
            "allprims_max.xml",
            "it looks like XML text: give --from xml",
        ),
        (
            "xml",
            "allprims_max.csv",
            "it looks like lines of text: give --from csv",
        ),
    ] {
        let out = allprims(from, file);
        assert_eq!(out.status.code(), Some(1), "{file} as {from}");
        let err = stderr(&out);
        assert!(err.starts_with("error: record "), "{file} as {from}: {err}");
        assert!(
            err.ends_with(&format!(": {hint}\n")),
            "{file} as {from}: {err}"
        );
    }
    // Binary records that do not read have nothing to look like.
    let c = case("allprims_max.binary");
    let cut = &c.bytes()[..10];
    let out = convert(c, "binary", "json", &[], cut);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stderr(&out).contains("looks like"), "{}", stderr(&out));
    // Binary records inside Mesos framing, read without it.
    let records = binary_payloads("oracle.prims.AllPrims");
    let framed = mesos_of(records.iter().map(|(_, b)| b.as_slice()));
    let out = convert(records[0].0, "binary", "csv", &[], &framed);
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_ends_with(
        &out,
        ": it looks like Mesos RecordIO (a length line, then that many bytes): give \
             --in-framing mesos\n",
    );
    assert_success(&mesos_to_csv(records[0].0, &framed), "mesos");
}
