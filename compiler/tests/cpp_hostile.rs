//! Bad input never crashes the C++ readers: truncated input, huge claimed lengths, deep
//! nesting, invalid UTF-8, malformed CSV and XML all give `hadoop::IOError` of the right
//! kind, under AddressSanitizer and UndefinedBehaviorSanitizer (any report fails the test;
//! allocations over 64 MiB abort, so nothing is allocated from a claimed length). Then the
//! fuzz target (tests/cpp/fuzz_readers.cc) runs, seeded with every fixture file, under the
//! same sanitizers with a small coverage-guided fuzzer (tests/cpp/hostile.cc):
//! `RCC_CPP_FUZZ_SECONDS` sets how long (default 20). The programs are those of
//! `cpp_support::programs`, which the fixture tests share.

mod cpp_support;

use fixture_harness::{hadoop_java, hadoop_java_dir, java_shapes, java_shapes_dir};
use std::fmt::Write as _;

/// The hostile-input program: `None` when the C++ tests are skipped.
fn hostile() -> Option<&'static cpp_support::Programs> {
    cpp_support::programs()
}

/// Runs the hostile-input program with `args`.
fn run_hostile(p: &cpp_support::Programs, args: &[String]) -> String {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    cpp_support::run(&p.hostile, &args, &p.dir)
}

fn type_index(p: &cpp_support::Programs, name: &str) -> usize {
    p.types.iter().position(|t| t == name).unwrap()
}

/// A binary `ext.forward.Tree` nested `depth` deep through `children`.
fn deep_tree_binary(depth: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..depth {
        out.extend_from_slice(&[0x00, 0x01]); // value 0, one child
    }
    out.extend_from_slice(&[0x00, 0x00, 0x00, 0x00]); // the innermost tree
    for _ in 0..depth {
        out.extend_from_slice(&[0x00, 0x00]); // no byName, empty first.text
    }
    out
}

fn deep_tree_csv(depth: usize) -> Vec<u8> {
    let mut out = b"0,v{".to_vec();
    for _ in 0..depth {
        out.extend_from_slice(b"s{0,v{");
    }
    out
}

fn deep_tree_xml(depth: usize) -> Vec<u8> {
    let level = "<value><struct><member><name>value</name><value><i4>0</i4></value></member>\
                 <member><name>children</name><value><array>";
    level.repeat(depth).into_bytes()
}

fn xml_int(inner: &str) -> Vec<u8> {
    format!(
        "<value><struct><member><name>v</name><value>{inner}</value></member></struct></value>\n"
    )
    .into_bytes()
}

fn xml_string(inner: &[u8]) -> Vec<u8> {
    let mut out = b"<value><struct><member><name>v</name><value><string>".to_vec();
    out.extend_from_slice(inner);
    out.extend_from_slice(b"</string></value></member></struct></value>\n");
    out
}

/// (record type, encoding, nesting limit, input, expected outcome: `ok N` or an error kind)
fn cases() -> Vec<(&'static str, &'static str, usize, Vec<u8>, &'static str)> {
    const STR: &str = "oracle.prims.StringRec";
    const BUF: &str = "oracle.prims.BufferRec";
    const INT: &str = "oracle.prims.IntRec";
    const TREE: &str = "ext.forward.Tree";
    const LONG: &str = "oracle.prims.LongRec";
    const BOOL: &str = "oracle.prims.BoolRec";
    const DOUBLE: &str = "oracle.prims.DoubleRec";
    const INT_VEC: &str = "oracle.composite.IntVec";
    const STR_VEC: &str = "oracle.composite.StrVec";
    let huge = [0x8c, 0x7f, 0xff, 0xff, 0xff];
    let with = |head: &[u8], tail: &[u8]| [head, tail].concat();
    // The malformed CSV and XML cases, at the nesting limit of 200.
    let csv = |ty, input: &[u8], want| (ty, "csv", 200, input.to_vec(), want);
    let xml = |ty, input, want| (ty, "xml", 200, input, want);
    let xml_in_string = |ty, inner: &[u8], want| xml(ty, xml_string(inner), want);
    vec![
        // Huge claimed lengths: an end-of-input error, nothing allocated for them.
        (STR, "binary", 200, with(&huge, b"abc"), "eof"),
        (BUF, "binary", 200, with(&huge, b"abc"), "eof"),
        (INT_VEC, "binary", 200, with(&huge, &[1]), "eof"),
        (STR_VEC, "binary", 200, with(&huge, &[0; 64]), "eof"),
        (
            "shapes.keys.OtherKeys",
            "binary",
            200,
            with(&huge, &[0; 16]),
            "eof",
        ),
        // Numbers and lengths out of range.
        (INT, "binary", 200, vec![0x8b, 1, 0, 0, 0, 0], "overflow"),
        (STR, "binary", 200, vec![0xff], "syntax"),
        (LONG, "binary", 200, vec![0x88, 1], "eof"),
        // Invalid UTF-8 and the code points Hadoop refuses.
        (STR, "binary", 200, vec![1, 0xff], "encoding"),
        (STR, "binary", 200, vec![2, 0xc0, 0x80], "encoding"),
        (STR, "binary", 200, vec![3, 0xed, 0xa0, 0x80], "encoding"),
        (
            STR,
            "binary",
            200,
            vec![4, 0xf4, 0x90, 0x80, 0x80],
            "encoding",
        ),
        (STR, "binary", 200, vec![3, 0xef, 0xbf, 0xbe], "encoding"),
        (STR, "binary", 200, vec![2, 0xe2, 0x82], "encoding"),
        // Nesting: the limit, configurable, instead of a stack overflow. Each level of Tree
        // is a record and a vector: 99 levels and the innermost tree's vector are 200 deep.
        (TREE, "binary", 200, deep_tree_binary(100_000), "limit"),
        (TREE, "binary", 200, deep_tree_binary(99), "ok 1"),
        (TREE, "binary", 200, deep_tree_binary(100), "limit"),
        // The default limit, kMaxDepth = 512 as in the Rust runtime: 255 levels fit.
        (TREE, "binary", 512, deep_tree_binary(255), "ok 1"),
        (TREE, "binary", 512, deep_tree_binary(256), "limit"),
        (TREE, "binary", 5, deep_tree_binary(10), "limit"),
        (TREE, "binary", 5, deep_tree_binary(1), "ok 1"),
        (TREE, "csv", 200, deep_tree_csv(100_000), "limit"),
        (TREE, "xml", 200, deep_tree_xml(100_000), "limit"),
        (TREE, "xml", 3, deep_tree_xml(10), "limit"),
        // Malformed CSV.
        csv(INT, b"2147483648\n", "overflow"),
        csv(INT, b"12a\n", "syntax"),
        csv(INT, b"1", "eof"),
        csv(INT, b"", "ok 0"),
        csv(INT, b"1\r\n2\r3\n", "ok 3"),
        csv(INT, b"1,2\n", "syntax"),
        csv(BOOL, b"X\n", "syntax"),
        csv(STR, b"'%0a\n", "encoding"),
        csv(STR, b"'%2\n", "encoding"),
        csv(STR, b"'\xff\n", "encoding"),
        csv(STR, b"abc\n", "syntax"),
        csv(BUF, b"#abc\n", "syntax"),
        csv(BUF, b"#zz\n", "syntax"),
        csv(INT_VEC, b"v{1,2\n", "syntax"),
        csv(INT_VEC, b"v{1,,2}\n", "syntax"),
        csv(INT_VEC, b"v{1,2", "eof"),
        csv(INT_VEC, b"m{}\n", "syntax"),
        csv(DOUBLE, b"1.0x\n", "syntax"),
        csv(DOUBLE, b"inf\n", "syntax"),
        csv(DOUBLE, b"1e99999999999999999999\n", "ok 1"),
        // Malformed XML.
        xml(INT, b"<value><struct>".to_vec(), "eof"),
        xml(
            INT,
            [xml_int("<i4>1</i4>"), b"<value><struct>".to_vec()].concat(),
            "eof",
        ),
        xml(INT, xml_int("<string>1</string>"), "syntax"),
        xml(INT, xml_int("<i4>1</i8>"), "syntax"),
        xml(INT, xml_int("<i4>99999999999</i4>"), "overflow"),
        xml(INT, xml_int("<i4 a=\"1\">1</i4>"), "syntax"),
        xml(
            INT,
            xml_int(&format!("<i4{}>1</i4>", " ".repeat(300))),
            "ok 1",
        ),
        xml(
            INT,
            format!(
                "<value><struct><member><name>v</name><value><i4{}",
                " ".repeat(300)
            )
            .into_bytes(),
            "limit",
        ),
        xml(INT, b"<!DOCTYPE x><value/>".to_vec(), "unsupported"),
        xml(INT, b"<!-- never closed".to_vec(), "eof"),
        xml(INT, b"<value/>".to_vec(), "syntax"),
        xml(INT, b"<value><struct></value>".to_vec(), "syntax"),
        xml(INT, b"junk".to_vec(), "syntax"),
        xml_in_string(STR, b"&foo;", "syntax"),
        xml_in_string(STR, b"&#0;", "encoding"),
        xml_in_string(STR, b"&#x110000;", "encoding"),
        xml_in_string(STR, b"&amp", "syntax"),
        xml_in_string(STR, b"%D83D", "encoding"),
        xml_in_string(STR, b"%DE00x", "encoding"),
        xml_in_string(STR, b"%00G1", "syntax"),
        xml_in_string(STR, b"%00", "syntax"),
        xml_in_string(STR, b"\xc3\x28", "encoding"),
        xml_in_string(STR, b"<![CDATA[never closed", "eof"),
        xml_in_string(STR, b"a\r\nb<![CDATA[<&]]>&lt;%0025", "ok 1"),
        xml_in_string(BUF, b"abc", "syntax"),
        xml_in_string(BUF, b"zz", "syntax"),
    ]
}

#[test]
fn hostile_inputs_are_errors_of_the_right_kind() {
    let Some(h) = hostile() else { return };
    let work = h.dir.join("cases");
    std::fs::create_dir_all(&work).unwrap();
    let cases = cases();
    let mut jobs = String::new();
    for (i, (ty, format, depth, bytes, _)) in cases.iter().enumerate() {
        let path = work.join(i.to_string());
        std::fs::write(&path, bytes).unwrap();
        writeln!(jobs, "read\t{ty}\t{format}\t{depth}\t{}", path.display()).unwrap();
    }
    let job_file = work.join("jobs");
    std::fs::write(&job_file, jobs).unwrap();
    let out = run_hostile(h, &["cases".into(), job_file.display().to_string()]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{out}");
    let mut failures = Vec::new();
    for ((ty, format, depth, bytes, want), got) in cases.iter().zip(lines) {
        let ok = if want.starts_with("ok") {
            got == *want
        } else {
            got.starts_with(&format!("error {want} "))
        };
        if !ok {
            let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
            failures.push(format!(
                "{ty} {format} (depth {depth}) {shown:?}: {got} (expected {want})"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Errors say where: a byte offset for binary, line:col for text, and the field.
    let e = lines_of(&out, &cases, |(_, f, _, b, _)| {
        *f == "binary" && b.starts_with(&[1, 0xff])
    });
    assert!(
        e.contains("record 0, byte 1, in StringRec.v: invalid UTF-8"),
        "{e}"
    );
    let e = lines_of(&out, &cases, |(_, f, _, b, _)| *f == "csv" && b == b"12a\n");
    assert!(e.contains("record 0, line 1:1, in IntRec.v: "), "{e}");
}

/// The output line of the first case `pick` selects.
fn lines_of(
    out: &str,
    cases: &[(&str, &str, usize, Vec<u8>, &str)],
    pick: impl Fn(&(&str, &str, usize, Vec<u8>, &str)) -> bool,
) -> String {
    let i = cases.iter().position(pick).unwrap();
    out.lines().nth(i).unwrap().to_owned()
}

/// Prefixes of multi-record and deeply structured fixture files (every one near the ends of
/// a file, a sample between) read to records or an error, in all three encodings.
#[test]
fn every_prefix_of_the_fixtures_reads_or_fails_cleanly() {
    let Some(h) = hostile() else { return };
    let mut jobs = String::new();
    let mut expected = Vec::new();
    let java = hadoop_java().cases.iter().map(|c| (c, hadoop_java_dir()));
    let shapes = java_shapes().cases.iter().map(|c| (c, java_shapes_dir()));
    for (case, dir) in java.chain(shapes) {
        let stem = case.name.rsplit_once('.').unwrap().0;
        let interesting = [
            "stream_",
            "outer",
            "containers",
            "nest",
            "texts",
            "other_keys",
            "float_keys",
        ];
        if !interesting.iter().any(|p| stem.starts_with(p)) {
            continue;
        }
        let encoding = match case.encoding {
            fixture_harness::Encoding::Binary => "binary",
            fixture_harness::Encoding::Csv => "csv",
            fixture_harness::Encoding::Xml => "xml",
        };
        let path = dir.join(&case.file);
        writeln!(
            jobs,
            "prefixes\t{}\t{encoding}\t{}",
            case.record_type,
            path.display()
        )
        .unwrap();
        expected.push((case.name.clone(), case.size));
    }
    assert!(expected.len() > 20);
    let job_file = h.dir.join("prefix-jobs");
    std::fs::write(&job_file, jobs).unwrap();
    let out = run_hostile(h, &["prefixes".into(), job_file.display().to_string()]);
    for ((name, size), line) in expected.iter().zip(out.lines()) {
        let words: Vec<&str> = line.split(' ').collect();
        let ok: u64 = words[1].parse().unwrap();
        let errors: u64 = words[3].parse().unwrap();
        let cuts: u64 = words[5].parse().unwrap();
        assert_eq!(ok + errors, cuts, "{name}: {line}");
        assert!(cuts == size + 1 || cuts > 300, "{name}: {line}");
        // The empty prefix and the whole file read; a cut inside the first record does not.
        assert!(ok >= 2 && errors >= 1, "{name}: {line}");
    }
    assert_eq!(out.lines().count(), expected.len());
}

/// The fuzz target under the sanitizers, seeded with every fixture file.
#[test]
fn fuzz_target_runs_clean() {
    let Some(h) = hostile() else { return };
    let seconds: f64 = std::env::var("RCC_CPP_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20.0);
    let seeds = h.dir.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    let mut args = vec!["fuzz".to_owned(), seconds.to_string(), "12345".to_owned()];
    let java = hadoop_java().cases.iter().map(|c| (c, hadoop_java_dir()));
    let shapes = java_shapes().cases.iter().map(|c| (c, java_shapes_dir()));
    for (i, (case, dir)) in java.chain(shapes).enumerate() {
        let encoding = match case.encoding {
            fixture_harness::Encoding::Binary => 0u8,
            fixture_harness::Encoding::Csv => 1,
            fixture_harness::Encoding::Xml => 2,
        };
        let mut input = vec![encoding, type_index(h, &case.record_type) as u8];
        input.extend(std::fs::read(dir.join(&case.file)).unwrap());
        let path = seeds.join(i.to_string());
        std::fs::write(&path, input).unwrap();
        args.push(path.display().to_string());
    }
    assert!(h.types.len() < 256);
    // A crashing input is saved in the program's directory as `crash-input`.
    let out = run_hostile(h, &args);
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(words[..2], ["fuzz", "runs"], "{out}");
    let runs: usize = words[2].parse().unwrap();
    let edges: usize = words[6].parse().unwrap();
    assert!(runs > args.len(), "{out}");
    // Coverage feedback works: the readers and writers have thousands of edges.
    assert!(edges > 1000, "{out}");
    eprintln!("{out}");
}
