//! `rcc convert --from json` reads what `--to json` writes, one record per line or as a
//! JSON array: every fixture of `tests/fixtures/hadoop-java` and of
//! `runtime/tests/data/java_shapes` survives binary → JSON → binary byte for byte (CSV and
//! XML likewise, and those with no binary file), and bad JSON gives the records before it
//! and an error with record number, line:col and field path.

mod support;

use std::path::Path;
use std::process::Output;

use fixture_harness::{hadoop_java, hadoop_java_dir, java_shapes, java_shapes_dir, Case, Encoding};
use hadoop_record::framing::mesos::MesosWriter;
use hadoop_record::framing::FrameWrite;
use support::{assert_clean_output, assert_success, convert_in, help_with, name_of, stderr};

/// `rcc convert` in `dir` of `stdin` from `from` to `to`, plus `extra`.
fn convert(
    dir: &Path,
    schema: &str,
    record_type: &str,
    (from, to): (&str, &str),
    extra: &[&str],
    stdin: &[u8],
) -> Output {
    convert_in(dir, (schema, record_type), (from, to), extra, stdin)
}

/// The JSON lines `text` as one JSON array, pretty-printed over several lines.
fn as_array(text: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(text).unwrap();
    let records: Vec<&str> = text.lines().collect();
    format!("[\n  {}\n]\n", records.join(",\n  ")).into_bytes()
}

/// Converts `input` (the fixture `case`, whose schema is `schema` in `dir`) to JSON and
/// back, as lines and as an array, and checks that each run back with `extra` arguments
/// gives its bytes (`expected`). Returns how many records there were.
fn round_trip(
    dir: &Path,
    schema: &str,
    case: &Case,
    input: &[u8],
    expected: &[(&[&str], Vec<u8>)],
) -> usize {
    let name = name_of(case.encoding);
    let ty = &case.record_type;
    let json = convert(dir, schema, ty, (name, "json"), &[], input);
    let what = format!("{} {name} -> json", case.name);
    assert_eq!(json.status.code(), Some(0), "{what}: {}", stderr(&json));
    let array = as_array(&json.stdout);
    for (extra, expected) in expected {
        let what = format!("{what} -> {name} {extra:?}");
        let back = convert(dir, schema, ty, ("json", name), extra, &json.stdout);
        assert_clean_output(&back, expected, &what);
        let back = convert(dir, schema, ty, ("json", name), extra, &array);
        assert_clean_output(&back, expected, &format!("{what} (as an array)"));
    }
    json.stdout.iter().filter(|&&b| b == b'\n').count()
}

/// Whether `case` is CSV or XML, which hold float text.
fn is_text(case: &Case) -> bool {
    case.encoding != Encoding::Binary
}

#[test]
fn every_hadoop_fixture_survives_json() {
    let dir = hadoop_java_dir();
    let (mut files, mut records) = (0, 0);
    for case in &hadoop_java().cases {
        // JSON back to CSV and XML gives JDK 17's text, or with --float-text shortest a
        // modern JDK's; either reads the same.
        let mut expected: Vec<(&[&str], Vec<u8>)> = vec![(&[], case.bytes())];
        if is_text(case) {
            expected.push((&["--float-text", "shortest"], case.modern_bytes()));
        }
        records += round_trip(&dir, &case.schema, case, &case.bytes(), &expected);
        if case.differs_on_modern_jdk() {
            round_trip(&dir, &case.schema, case, &case.modern_bytes(), &expected);
        }
        files += 1;
    }
    assert!(files >= 155 * 3, "{files}");
    assert!(records > 450, "{records}");
}

#[test]
fn every_java_shapes_fixture_survives_json() {
    let shapes = java_shapes();
    let dir = java_shapes_dir();
    let mut files = 0;
    for case in &shapes.cases {
        let bytes = shapes.bytes(case);
        // The files hold a modern JDK's float text (and there is no JDK 17 version of them).
        let extra: &[&str] = if is_text(case) {
            &["--float-text", "shortest"]
        } else {
            &[]
        };
        round_trip(&dir, "shapes.jr", case, &bytes, &[(extra, bytes.clone())]);
        files += 1;
    }
    assert_eq!(files, 50);
}

fn allprims(json: &[u8], to: &str) -> Output {
    convert(
        &hadoop_java_dir(),
        "prims.jr",
        "oracle.prims.AllPrims",
        ("json", to),
        &[],
        json,
    )
}

const GOOD: &str =
    r#"{"b": 1, "z": true, "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": "one", "buf": "01"}"#;

#[test]
fn bad_json_gives_the_records_before_it_and_a_located_error() {
    let csv_of_good = "1,T,1,1,1.0,1.0,'one,#01\n";
    let cases: &[(&str, &str)] = &[
        // Wrong type, in a field: line:col is where serde_json stopped, after the value.
        (
            r#"{"b": 1, "z": "yes", "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": "", "buf": ""}"#,
            "error: record 1, line 2:19, in AllPrims.z: invalid type: string `yes`, expected boolean",
        ),
        (
            r#"{"b": 300, "z": true, "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": "", "buf": ""}"#,
            "error: record 1, line 2:10, in AllPrims.b: 300 is out of range for byte",
        ),
        (
            r#"{"b": 1, "z": true, "i": 1, "l": "12x", "f": 1.0, "d": 1.0, "s": "", "buf": ""}"#,
            "error: record 1, line 2:38, in AllPrims.l: invalid type: string `12x`, expected long",
        ),
        (
            r#"{"b": 1, "z": true, "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": "", "buf": "0g"}"#,
            "error: record 1, line 2:76, in AllPrims.buf: `0g` is not hex",
        ),
        (
            r#"{"b": 1, "z": true, "i": 1, "l": 1, "f": 1.0, "d": 1.0, "s": ""}"#,
            "error: record 1, line 2:64, in AllPrims: missing field `buf` of AllPrims",
        ),
        (
            r#"{"b": 1, "zz": true}"#,
            "error: record 1, line 2:14, in AllPrims: AllPrims has no field `zz`",
        ),
        (
            r#"{"b": 1, "b": 2}"#,
            "error: record 1, line 2:13, in AllPrims: field `b` is given twice",
        ),
        // Not JSON at all.
        (
            r#"{"b": 1 "z": true}"#,
            "error: record 1, line 2:9, in AllPrims: expected `,` or `}`",
        ),
        (
            r#"{"b": 1, "z": tru"#,
            "error: record 1, line 2:18, in AllPrims.z: expected ident",
        ),
        ("5", "error: record 1, line 2:2, in AllPrims: invalid type: integer `5`, expected oracle.prims.AllPrims"),
    ];
    for (bad, expected) in cases {
        let input = format!("{GOOD}\n{bad}\n{GOOD}\n");
        let out = allprims(input.as_bytes(), "csv");
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), csv_of_good, "{bad}");
        assert_eq!(stderr(&out), format!("{expected}\n"), "{bad}");
    }
    // Input that ends inside a record.
    let out = allprims(format!("{GOOD}\n{{\"b\": 1, \"z\": ").as_bytes(), "csv");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), csv_of_good);
    assert_eq!(
        stderr(&out),
        "error: record 1, line 2:14, in AllPrims.z: EOF while parsing a value\n"
    );
    // Inside an array, and nested: the path goes down to the value.
    let composite = convert(
        &hadoop_java_dir(),
        "composite.jr",
        "oracle.composite.Outer",
        ("json", "csv"),
        &[],
        br#"[{"c": {"vi": [1, "two"]}}]"#,
    );
    assert_eq!(composite.status.code(), Some(1));
    assert_eq!(
        stderr(&composite),
        "error: record 0, line 1:23, in Outer.c.vi[1]: invalid type: string `two`, expected int\n"
    );
}

#[test]
fn array_framing_errors() {
    for (input, expected) in [
        (
            format!("[{GOOD},]"),
            "error: record 1, line 1:83: a `,` must be followed by another record",
        ),
        (
            format!("[{GOOD} {GOOD}]"),
            "error: record 1, line 1:83: expected `,` or `]` after a record in the array",
        ),
        (
            format!("[{GOOD}"),
            "error: record 1, line 1:82: the input ends inside the array; expected `]`",
        ),
        (
            format!("[{GOOD}] {GOOD}"),
            "error: record 1, line 1:84: more input after the array of records",
        ),
    ] {
        let out = allprims(input.as_bytes(), "csv");
        assert_eq!(out.status.code(), Some(1), "{input}");
        assert_eq!(out.stdout, b"1,T,1,1,1.0,1.0,'one,#01\n", "{input}");
        assert_eq!(stderr(&out), format!("{expected}\n"), "{input}");
    }
    // Empty input, an empty array, blank lines: no records, no error.
    for input in ["", "\n \n", "[]", " [ ]\n", "\n\n"] {
        let out = allprims(input.as_bytes(), "binary");
        assert_clean_output(&out, b"", input);
    }
    // Records in any layout of whitespace, fields in any order.
    let spread = "\n\n  {\"buf\": \"01\", \"s\": \"one\",\n \"d\": 1, \"f\": 1, \"l\": \"1\", \"i\": 1,\n\"z\": true, \"b\": 1}{\"b\": 1, \"z\": true, \"i\": 1, \"l\": 1, \"f\": 1.0, \"d\": 1.0, \"s\": \"one\", \"buf\": \"01\"}";
    let out = allprims(spread.as_bytes(), "csv");
    assert_clean_output(
        &out,
        b"1,T,1,1,1.0,1.0,'one,#01\n1,T,1,1,1.0,1.0,'one,#01\n",
        "spread",
    );
}

#[test]
fn json_records_inside_a_framing() {
    let mut writer = MesosWriter::new(Vec::new());
    writer.write_payload(GOOD.as_bytes()).unwrap();
    writer.write_payload(b"{\"b\": 1}").unwrap();
    let framed = writer.into_inner().unwrap();
    let out = convert(
        &hadoop_java_dir(),
        "prims.jr",
        "oracle.prims.AllPrims",
        ("json", "csv"),
        &["--in-framing", "mesos"],
        &framed,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"1,T,1,1,1.0,1.0,'one,#01\n");
    assert_eq!(
        stderr(&out),
        "error: record 1, line 1:8 of its mesos payload, in AllPrims: missing field `z` of AllPrims\n"
    );
}

/// The maps of `json` in fields named `msi` and `mrec` (Containers' `map<ustring, …>`), from
/// `[key, value]` pairs to objects with the keys in reverse order (so that the reader has to
/// sort them back into Hadoop's order). Returns how many maps were rewritten.
fn maps_as_objects(json: &mut serde_json::Value) -> usize {
    use serde_json::Value as J;
    let mut n = 0;
    match json {
        J::Object(fields) => {
            for (name, value) in fields.iter_mut() {
                match value {
                    J::Array(pairs) if name == "msi" || name == "mrec" => {
                        let object: serde_json::Map<String, J> = pairs
                            .iter()
                            .rev()
                            .map(|p| (p[0].as_str().unwrap().to_owned(), p[1].clone()))
                            .collect();
                        n += usize::from(object.len() > 1);
                        *value = J::Object(object);
                    }
                    _ => n += maps_as_objects(value),
                }
            }
        }
        J::Array(items) => {
            for item in items {
                n += maps_as_objects(item);
            }
        }
        _ => {}
    }
    n
}

#[test]
fn maps_with_ustring_keys_may_be_json_objects() {
    // Java's binary files of the Containers record (map<ustring, int>, map<ustring, Inner>),
    // to JSON, their maps rewritten as objects in reverse key order, and back: Java's bytes.
    let dir = hadoop_java_dir();
    let mut maps = 0;
    for case in hadoop_java().cases_in(fixture_harness::Encoding::Binary) {
        if !case.record_type.ends_with(".Containers") && !case.record_type.ends_with(".Outer") {
            continue;
        }
        let ty = &case.record_type;
        let json = convert(
            &dir,
            &case.schema,
            ty,
            ("binary", "json"),
            &[],
            &case.bytes(),
        );
        assert_success(&json, &case.name);
        let mut objects = Vec::new();
        for line in std::str::from_utf8(&json.stdout).unwrap().lines() {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            maps += maps_as_objects(&mut record);
            objects.extend(serde_json::to_vec(&record).unwrap());
            objects.push(b'\n');
        }
        let back = convert(&dir, &case.schema, ty, ("json", "binary"), &[], &objects);
        assert_clean_output(&back, &case.bytes(), &case.name);
    }
    assert!(maps >= 2, "{maps}");

    // The error of a duplicate key, and of an object for a map whose keys are not strings.
    let containers = |json: &str| {
        convert(
            &dir,
            "composite.jr",
            "oracle.composite.Containers",
            ("json", "csv"),
            &[],
            json.as_bytes(),
        )
    };
    let rest = r#""vi": [], "vs": [], "vvi": [], "vrec": [], "mrec": {}, "pt": {"x": 0, "y": 0}, "inner": {"tag": "", "n": 0}, "vb": [], "mlvd": [], "vz": [], "vf": []"#;
    let out = containers(&format!(
        r#"{{"msi": {{"b": 1, "a": 2}}, "mis": [[1, "x"]], {rest}}}"#
    ));
    assert_clean_output(
        &out,
        b"v{},v{},v{},m{'a,2,'b,1},m{1,'x},v{},m{},s{0,0},s{',0},v{},m{},v{},v{}\n",
        "object",
    );
    let out = containers(&format!(r#"{{"msi": {{"b": 1, "b": 2}}, {rest}}}"#));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: record 0, line 1:21, in Containers.msi: duplicate key `b` in a map<ustring, int>\n"
    );
    let out = containers(&format!(r#"{{"mis": {{"1": "x"}}, {rest}}}"#));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: record 0, line 1:10, in Containers.mis: invalid type: map, expected \
         map<int, ustring> as an array of [key, value] pairs (an object is a map only when \
         its keys are ustring)\n"
    );
}

#[test]
fn help_describes_json_input() {
    help_with(
        &["convert", "--help"],
        &["--from json", "JSON array of records"],
    );
}
