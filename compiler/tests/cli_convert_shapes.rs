//! `rcc convert` over the `java_shapes` set (`runtime/tests/data/java_shapes`, see its README):
//! map keys of every type, deep nesting, every escape class, float text at the notation
//! boundaries. Every conversion between the encodings gives the target file's bytes, JSON
//! reads back to the manifest's values, and what Hadoop's binary writer refuses is a clean
//! error. The schema comes from `shapes.jr` through the compiler.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use fixture_harness::{java_shapes, java_shapes_dir, shapes_id, shapes_schema, Case, Encoding};
use hadoop_record::schema::FieldType;
use hadoop_record::value::json::from_json;
use hadoop_record::Value;
use hadoop_record_compiler::{load, LoadOptions};

const FORMATS: [(Encoding, &str); 3] = [
    (Encoding::Binary, "binary"),
    (Encoding::Csv, "csv"),
    (Encoding::Xml, "xml"),
];

fn convert(record_type: &str, from: &str, to: &str, stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rcc"))
        .args([
            "convert",
            "--schema",
            "shapes.jr",
            "--type",
            record_type,
            "--from",
            from,
            "--to",
            to,
        ])
        .current_dir(java_shapes_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rcc runs");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("rcc finishes");
    feeder.join().unwrap();
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn name_of(encoding: Encoding) -> &'static str {
    FORMATS.iter().find(|(e, _)| *e == encoding).unwrap().1
}

/// The cases of each stem by encoding name.
fn stems() -> BTreeMap<String, BTreeMap<&'static str, &'static Case>> {
    let mut out: BTreeMap<String, BTreeMap<&str, &Case>> = BTreeMap::new();
    for case in &java_shapes().cases {
        let (stem, _) = case.name.rsplit_once('.').unwrap();
        out.entry(stem.to_owned())
            .or_default()
            .insert(name_of(case.encoding), case);
    }
    out
}

#[test]
fn the_compiler_reads_shapes_jr_as_the_hand_built_schema() {
    let model = load(
        &[java_shapes_dir().join("shapes.jr")],
        &LoadOptions::default(),
    )
    .unwrap_or_else(|_| panic!("shapes.jr loads"));
    let schema = model.to_schema();
    let schema = schema.schema();
    for (name, signature) in &java_shapes().signatures {
        let id = schema.find(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(schema.signature(id), signature.as_str(), "{name}");
        let fields = |s: &hadoop_record::schema::Schema, id| {
            s.record(id)
                .fields
                .iter()
                .map(|f| (f.name.clone(), s.type_name(&f.ty)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            fields(schema, id),
            fields(shapes_schema(), shapes_id(name)),
            "{name}"
        );
    }
}

#[test]
fn every_conversion_reproduces_the_target_bytes() {
    let shapes = java_shapes();
    let mut checked = 0;
    for (stem, cases) in stems() {
        for (from, source) in &cases {
            let input = shapes.bytes(source);
            for (_, to) in FORMATS {
                let out = convert(&source.record_type, from, to, &input);
                let Some(target) = cases.get(to) else {
                    // Hadoop's binary writer refuses U+FFFE: so does the conversion.
                    assert_eq!(out.status.code(), Some(1), "{stem} {from} -> {to}");
                    assert!(out.stdout.is_empty(), "{stem} {from} -> {to}");
                    assert_eq!(
                        stderr(&out),
                        "error: cannot write as binary: record 0, in Texts.s: Illegal \
                         Unicode Codepoint fffe in string (Hadoop refuses U+FFFE and U+FFFF)\n"
                    );
                    continue;
                };
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{stem} {from} -> {to}: {}",
                    stderr(&out)
                );
                assert_eq!(stderr(&out), "");
                let want = shapes.bytes(target);
                assert!(
                    out.stdout == want,
                    "{stem} {from} -> {to}:\n{}\n{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&want)
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 50 * 3 - 2);
}

fn canon(v: &Value) -> Value {
    match v {
        Value::Float(f) if f.is_nan() => Value::Float(f32::NAN),
        Value::Double(d) if d.is_nan() => Value::Double(f64::NAN),
        Value::Vector(items) => Value::Vector(items.iter().map(canon).collect()),
        Value::Record(items) => Value::Record(items.iter().map(canon).collect()),
        Value::Map(entries) => {
            Value::Map(entries.iter().map(|(k, v)| (canon(k), canon(v))).collect())
        }
        v => v.clone(),
    }
}

#[test]
fn json_lines_read_back_to_the_manifest_values() {
    let shapes = java_shapes();
    for case in &shapes.cases {
        let out = convert(
            &case.record_type,
            name_of(case.encoding),
            "json",
            &shapes.bytes(case),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            case.name,
            stderr(&out)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        // One value per line, whatever the strings hold (U+2028, U+0085, raw controls).
        let lines: Vec<&str> = text.split_terminator('\n').collect();
        assert_eq!(lines.len(), case.values.len(), "{}", case.name);
        let ty = FieldType::Record(shapes_id(&case.record_type));
        let want = shapes.values(&case.record_type, &case.values);
        for (line, want) in lines.iter().zip(&want) {
            let json: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let got = from_json(shapes_schema(), &ty, &json).unwrap();
            assert!(
                got.bitwise_eq(&canon(want)),
                "{}:\n got {got:?}\nwant {want:?}",
                case.name
            );
        }
    }
}
