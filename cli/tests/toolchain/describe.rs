//! `rcc describe`: its output against its JSON Schema (`docs/describe.schema.json`), its
//! structure, and errors as `rcc check` reports them.

use std::path::Path;

use hadoop_record_compiler::describe::FORMAT_VERSION;
use serde_json::{json, Value};

use crate::support::{assert_stderr_contains, rcc_in, stderr, stdout, CRATE_DIR};

/// Includes a file, names a record of it, has every kind of type and comments.
const PEOPLE: &str = "tests/ddl/describe/people.jr";

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/describe.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `rcc describe args` in the compiler's directory, which must succeed, as JSON.
fn describe(args: &[&str]) -> Value {
    let out = rcc_in(CRATE_DIR, &[&["describe"], args].concat(), b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The schema's complaints about `instance`.
fn violations(instance: &Value) -> Vec<String> {
    let schema = schema();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn the_schema_is_draft_2020_12_and_carries_the_format_version() {
    let schema = schema();
    jsonschema::meta::validate(&schema).unwrap();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        schema["properties"]["format_version"]["const"],
        FORMAT_VERSION
    );
}

#[test]
fn describe_output_matches_its_schema() {
    for args in [
        &[PEOPLE][..],
        &["tests/ddl/hadoop/links.jr", "tests/ddl/hadoop/test.jr"],
        &[
            "tests/ddl/docs/testrec.jr",
            "tests/ddl/extensions/several.jr",
        ],
        &[
            "tests/ddl/extensions/bom_and_crlf.jr",
            "tests/ddl/extensions/forward.jr",
        ],
        &["../tests/fixtures/hadoop-java/composite.jr"],
        &["../examples/zookeeper-client/schema/zookeeper.jute"],
    ] {
        let json = describe(args);
        assert_eq!(json["format_version"], FORMAT_VERSION);
        assert_eq!(violations(&json), Vec::<String>::new(), "{args:?}");
    }
}

#[test]
fn the_schema_rejects_what_describe_never_writes() {
    let good = describe(&[PEOPLE]);
    /// What is wrong, and how to make it so.
    type Breakage = (&'static str, fn(&mut Value));
    let broken: [Breakage; 5] = [
        ("another version", |j| j["format_version"] = json!(2)),
        ("an unknown type kind", |j| {
            j["records"][0]["fields"][0]["type"] = json!({ "kind": "list", "element": {} })
        }),
        ("a record reference without its file", |j| {
            j["records"][1]["fields"][1]["type"] = json!({ "kind": "record", "name": "a.B" })
        }),
        ("a field without a location", |j| {
            j["records"][1]["fields"][0]
                .as_object_mut()
                .unwrap()
                .remove("location");
        }),
        ("a column 0", |j| {
            j["records"][0]["location"]["column"] = json!(0)
        }),
    ];
    for (what, breaks) in broken {
        let mut json = good.clone();
        breaks(&mut json);
        assert!(!violations(&json).is_empty(), "{what} passes");
    }
}

#[test]
fn describe_gives_files_modules_records_types_positions_and_comments() {
    let json = describe(&[PEOPLE]);
    let common = "tests/ddl/describe/common.jr";
    assert_eq!(
        json["files"],
        json!([
            { "path": PEOPLE, "root": true, "includes": [common] },
            { "path": common, "root": false, "includes": [] },
        ])
    );
    let names = |list: &Value, key: &str| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|v| v[key].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names(&json["modules"], "name"),
        ["describe.common", "describe.people"]
    );
    assert_eq!(
        json["modules"][1]["records"],
        json!(["describe.people.Person", "describe.people.Crowd"])
    );
    assert_eq!(json["modules"][1]["doc"], "People and\nwhere they are.");
    assert_eq!(
        names(&json["records"], "qualified_name"),
        [
            "describe.common.Point",
            "describe.people.Person",
            "describe.people.Crowd"
        ]
    );

    let point = &json["records"][0];
    assert_eq!(
        (&point["file"], &point["root"]),
        (&json!(common), &json!(false))
    );
    assert_eq!(point["signature"], "LPoint(dd)");
    assert_eq!(point["doc"], "A place on a map.");
    assert_eq!(point["fields"][0]["doc"], "east");
    assert_eq!(point["fields"][0]["comments"][0]["trailing"], true);

    let person = &json["records"][1];
    assert_eq!(
        person["doc"],
        "Someone.\n(a trailing comment belongs to the class too)"
    );
    assert_eq!(person["comments"][0]["text"], "// Someone.");
    assert_eq!(person["comments"][0]["kind"], "line");
    assert_eq!(person["comments"][0]["trailing"], false);
    assert_eq!(person["comments"][1]["trailing"], true);
    let fields = &person["fields"];
    assert_eq!(
        fields[0]["type"],
        json!({ "kind": "primitive", "name": "ustring" })
    );
    assert_eq!(fields[0]["doc"], "");
    assert_eq!(
        fields[1]["type"],
        json!({ "kind": "record", "name": "describe.common.Point", "file": common })
    );
    assert_eq!(fields[1]["doc"], "Where they live.");
    assert_eq!(
        fields[2]["type"],
        json!({
            "kind": "vector",
            "element": { "kind": "record", "name": "describe.people.Person", "file": PEOPLE },
        })
    );
    assert_eq!(
        fields[3]["type"],
        json!({
            "kind": "map",
            "key": { "kind": "primitive", "name": "ustring" },
            "value": { "kind": "vector", "element": { "kind": "primitive", "name": "buffer" } },
        })
    );
    assert_eq!(fields[3]["ddl_type"], "map<ustring, vector<buffer>>");
    assert_eq!(fields[3]["comments"][0]["kind"], "block");
    assert_eq!(fields[3]["doc"], "by service");
}

/// Every `location` in `value`, with what it locates.
fn locations<'v>(value: &'v Value, out: &mut Vec<&'v Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "location" || key == "type_location" {
                    out.push(v);
                }
                locations(v, out);
            }
        }
        Value::Array(list) => list.iter().for_each(|v| locations(v, out)),
        _ => {}
    }
}

#[test]
fn positions_point_at_the_text_in_lines_columns_and_bytes() {
    let json = describe(&[PEOPLE, "tests/ddl/extensions/bom_and_crlf.jr"]);
    // Names and types are where the positions say.
    let person = &json["records"][1];
    let text = |l: &Value| {
        let source = std::fs::read(Path::new(CRATE_DIR).join(l["file"].as_str().unwrap())).unwrap();
        let range = l["start"].as_u64().unwrap() as usize..l["end"].as_u64().unwrap() as usize;
        String::from_utf8(source[range].to_vec()).unwrap()
    };
    assert_eq!(text(&person["location"]), "Person");
    assert_eq!(text(&person["fields"][3]["location"]), "keys");
    assert_eq!(
        text(&person["fields"][3]["type_location"]),
        "map<ustring, vector<buffer>>"
    );
    assert_eq!(text(&person["comments"][0]["location"]), "// Someone.");
    // Lines and columns agree with the byte offsets, in every location (the byte order
    // mark and CRLF file included).
    let mut all = Vec::new();
    locations(&json, &mut all);
    assert!(all.len() > 30, "{}", all.len());
    for l in all {
        let source =
            std::fs::read_to_string(Path::new(CRATE_DIR).join(l["file"].as_str().unwrap()))
                .unwrap();
        for (line, column, offset) in [
            ("line", "column", "start"),
            ("end_line", "end_column", "end"),
        ] {
            let offset = l[offset].as_u64().unwrap() as usize;
            let before = &source[..offset];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            assert_eq!(l[line], before.matches('\n').count() + 1, "{l}");
            assert_eq!(l[column], before[line_start..].chars().count() + 1, "{l}");
        }
    }
}

#[test]
fn describe_reports_problems_as_check_does() {
    let bad = "tests/ddl/bad/many_errors_at_once.jr";
    let checked = rcc_in(CRATE_DIR, &["check", bad], b"");
    let out = rcc_in(CRATE_DIR, &["describe", bad], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), stderr(&checked));

    // Warnings go to standard error; the JSON is still whole.
    let out = rcc_in(CRATE_DIR, &["describe", PEOPLE], b"");
    assert_stderr_contains(&out, "warning: record `Person` names itself");
    let strict = rcc_in(CRATE_DIR, &["describe", "--hadoop-compat", PEOPLE], b"");
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(stdout(&strict), "");
}
