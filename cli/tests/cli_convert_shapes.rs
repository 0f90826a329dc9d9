//! `rcc convert` over the `java_shapes` set (`runtime/tests/data/java_shapes`, see its README):
//! map keys of every type, deep nesting, every escape class, float text at the notation
//! boundaries. Every conversion between the encodings gives the target file's bytes, JSON
//! reads back to the manifest's values, and what Hadoop's binary writer refuses is a clean
//! error. The schema comes from `shapes.jr` through the compiler.

mod support;

use std::process::Output;

use fixture_harness::canon;
use fixture_harness::{java_shapes, java_shapes_dir, shapes_id, shapes_schema, Case};
use hadoop_record::archive::FloatText;
use hadoop_record::schema::FieldType;
use hadoop_record::value::json::from_json;
use hadoop_record::RecordWriter;
use hadoop_record_compiler::{load, LoadOptions};
use support::{assert_clean_output, assert_success, convert_in, name_of, stderr, stems, FORMATS};

/// `rcc convert` of `stdin` as `record_type` of `shapes.jr`, plus `extra`.
fn convert(record_type: &str, from: &str, to: &str, extra: &[&str], stdin: &[u8]) -> Output {
    convert_in(
        java_shapes_dir(),
        ("shapes.jr", record_type),
        (from, to),
        extra,
        stdin,
    )
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
        assert_eq!(schema.signature(id).unwrap(), signature.as_str(), "{name}");
        let fields = |s: &hadoop_record::schema::Schema, id| {
            s.record(id)
                .unwrap()
                .fields
                .iter()
                .map(|f| (f.name.clone(), s.type_name(&f.ty).unwrap()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            fields(schema, id),
            fields(shapes_schema(), shapes_id(name)),
            "{name}"
        );
    }
}

/// Every conversion gives the target file's bytes with `--float-text shortest`: the files
/// hold a modern JDK's float text. By default, CSV and XML are JDK 8 to 18's text, as the
/// runtime's legacy writer writes the file's values (no JDK 17 version of these files
/// exists).
#[test]
fn every_conversion_reproduces_the_target_bytes() {
    let shapes = java_shapes();
    let (mut checked, mut legacy_differs) = (0, 0);
    for (stem, cases) in stems(&java_shapes().cases) {
        for (from, source) in &cases {
            let input = shapes.bytes(source);
            for (_, to) in FORMATS {
                let Some(target) = cases.get(to) else {
                    let out = convert(&source.record_type, from, to, &[], &input);
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
                let what = format!("{stem} {from} -> {to}");
                let modern = shapes.bytes(target);
                if to == "binary" {
                    let out = convert(&source.record_type, from, to, &[], &input);
                    assert_clean_output(&out, &modern, &what);
                } else {
                    let shortest = ["--float-text", "shortest"];
                    let out = convert(&source.record_type, from, to, &shortest, &input);
                    assert_clean_output(&out, &modern, &format!("{what} {shortest:?}"));
                    let legacy = written(target, FloatText::Legacy);
                    let out = convert(&source.record_type, from, to, &[], &input);
                    assert_clean_output(&out, &legacy, &what);
                    legacy_differs += usize::from(legacy != modern);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 50 * 3 - 2);
    // The float text at the notation boundaries is among what the JDKs print differently.
    assert!(legacy_differs > 0);
}

/// The values of `case` as the runtime writes them in its encoding, floats as
/// `float_text`'s JDK prints them.
fn written(case: &Case, float_text: FloatText) -> Vec<u8> {
    let values = java_shapes().values(&case.record_type, &case.values);
    let mut writer =
        RecordWriter::new(Vec::new(), case.encoding.format()).with_float_text(float_text);
    for value in &values {
        writer
            .write_value(shapes_schema(), shapes_id(&case.record_type), value)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    writer.into_inner().unwrap()
}

#[test]
fn json_lines_read_back_to_the_manifest_values() {
    let shapes = java_shapes();
    for case in &shapes.cases {
        let out = convert(
            &case.record_type,
            name_of(case.encoding),
            "json",
            &[],
            &shapes.bytes(case),
        );
        assert_success(&out, &case.name);
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
