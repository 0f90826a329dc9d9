//! `rcc type-info` and `rcc compat`: type information as Hadoop writes it, and the report of
//! what a schema change does to data written before it, with its exit statuses.

mod support;

use support::{
    assert_stderr_contains, command, convert_args, help_with, run, stderr, stdout, CRATE_DIR,
};

fn rcc(args: &[&str]) -> std::process::Output {
    let mut c = command(CRATE_DIR, args);
    c.env("NO_COLOR", "1");
    run(c, b"")
}

/// `rcc compat OLD NEW ARGS…`.
fn compat(old: &str, new: &str, args: &[&str]) -> std::process::Output {
    rcc(&[&["compat", old, new][..], args].concat())
}

/// The text report of `rcc compat OLD NEW ARGS…`, which exits with `code` and holds each of
/// `lines`.
#[track_caller]
fn compat_report(old: &str, new: &str, args: &[&str], code: i32, lines: &[&str]) -> String {
    let out = compat(old, new, args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(code), "{text}{}", stderr(&out));
    for line in lines {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    text
}

/// The report of `rcc compat OLD NEW ARGS… --format json` on a change that loses data: exit
/// status 1, and the report says it is not compatible.
fn incompatible_json(old: &str, new: &str, args: &[&str]) -> serde_json::Value {
    let out = compat(old, new, &[args, &["--format", "json"]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["compatible"], false, "{report:#}");
    report
}

/// `rcc type-info` of `V1`'s `ty`, written in the encoding `to`.
fn type_info(ty: &str, to: &str) -> std::process::Output {
    rcc(&["type-info", "--schema", V1, "--type", ty, "--to", to])
}

const V1: &str = "tests/ddl/evolution/v1.jr";

fn version(n: u8) -> String {
    format!("tests/ddl/evolution/v{n}.jr")
}

#[test]
fn type_info_is_written_as_hadoop_writes_it() {
    let out = type_info("shop.Item", "csv");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "'Item,2,'sku,9,'quantity,6\n");
    let out = type_info("Order", "binary");
    assert!(out.status.success(), "{}", stderr(&out));
    // name, 5 fields; `items` is vector (11) of struct (10) with 2 fields.
    assert!(
        out.stdout.starts_with(b"\x05Order\x05\x02id\x07"),
        "{:?}",
        out.stdout
    );
    assert!(
        out.stdout.windows(4).any(|w| w == b"\x0b\x0a\x02\x03"),
        "{:?}",
        out.stdout
    );
    let out = type_info("shop.Ordr", "xml");
    assert!(!out.status.success());
    assert_stderr_contains(&out, "did you mean `shop.Order`?");
}

#[test]
fn compat_reports_every_field_and_gates_on_losses() {
    compat_report(
        V1,
        &version(2),
        &["--type", "shop.Order"],
        1,
        &[
            "    id ",
            "    items                    vector<shop.Item>",
            "  ! total                    double -> long                   type-changed",
            "  ! note                     ustring                          dropped",
            "    express                  boolean                          defaulted",
        ],
    );
    // Adding a field loses nothing.
    compat_report(
        V1,
        &version(4),
        &["--type", "shop.Order"],
        0,
        &["compatible: nothing written is lost or misread"],
    );
    // A nested record whose fields changed, reached without a filter: misread, always fatal.
    compat_report(
        V1,
        &version(3),
        &["--type", "shop.Order", "--allow-drops"],
        1,
        &["misread"],
    );
}

#[test]
fn allow_drops_accepts_removed_fields_but_not_type_changes() {
    // v4 → v1: `express` is dropped; allowed with the flag.
    compat_report(&version(4), V1, &["--type", "shop.Order"], 1, &[]);
    compat_report(
        &version(4),
        V1,
        &["--type", "shop.Order", "--allow-drops"],
        0,
        &[],
    );
    // v1 → v2 changes a type: still failing.
    compat_report(
        V1,
        &version(2),
        &["--type", "shop.Order", "--allow-drops"],
        1,
        &[],
    );
}

#[test]
fn compat_speaks_json_and_handles_renamed_types() {
    let report = incompatible_json(
        V1,
        &version(2),
        &["--old-type", "shop.Order", "--new-type", "shop.Order"],
    );
    let fields = report["fields"].as_array().unwrap();
    let total = fields.iter().find(|f| f["path"] == "total").unwrap();
    assert_eq!(total["outcome"], "type-changed");
    assert_eq!(total["written"], "double");
    assert_eq!(total["read"], "long");
    assert_eq!(total["fails"], true);
}

#[test]
fn compat_says_what_avro_resolution_does_too() {
    // v1 → v2: Avro cannot read a double as a long either; a dropped field it skips, an
    // added one it fills with the schema's default.
    let text = compat_report(V1, &version(2), &["--type", "shop.Order"], 1, &[]);
    let avro = text
        .split_once("\n\n")
        .unwrap_or_else(|| panic!("no Avro section in\n{text}"))
        .1;
    assert_eq!(
        avro,
        "Avro (rcc -l avro's schemas): 1 field Avro cannot resolve (marked !)\n\
         \x20 ! total                    double -> long                   mismatch\n\
         \x20   note                     string                           dropped\n\
         \x20   express                  boolean                          defaulted\n"
    );
    // v1 → v3: Hadoop misreads the items; Avro defaults the field Item gained.
    compat_report(
        V1,
        &version(3),
        &["--type", "shop.Order"],
        1,
        &[
            "\nAvro (rcc -l avro's schemas): compatible\n",
            "\n    items[].price            long                             defaulted\n",
        ],
    );
    // v4 → v1 with --allow-drops: both sides accept the dropped field.
    let text = compat_report(
        &version(4),
        V1,
        &["--type", "shop.Order", "--allow-drops"],
        0,
        &[],
    );
    assert!(text.ends_with(
        "Avro (rcc -l avro's schemas): compatible\n    \
         express                  boolean                          dropped\n"
    ));
}

#[test]
fn compat_fails_when_either_hadoop_or_avro_cannot_read_old_data() {
    // Item renamed Line, the same fields: Hadoop reads the items (it matches records by
    // their fields), Avro cannot (it matches them by name).
    compat_report(
        V1,
        &version(5),
        &["--type", "shop.Order"],
        1,
        &[
            "\ncompatible: nothing written is lost or misread\n",
            "\n  ! items                    array<shop.Item> -> array<shop.Line> renamed\n",
        ],
    );
    // quantity int → long: Hadoop skips it (type-changed), Avro promotes it.
    compat_report(
        V1,
        &version(5),
        &["--type", "shop.Item"],
        1,
        &[
            "\n  ! quantity                 int -> long                      type-changed\n",
            "\nAvro (rcc -l avro's schemas): compatible\n    \
             quantity                 int -> long                      promoted\n",
        ],
    );
    // A renamed top record: Avro needs an alias; the JSON report says so for machines.
    let report = incompatible_json(
        V1,
        &version(5),
        &["--old-type", "shop.Item", "--new-type", "shop.Line"],
    );
    // Hadoop's rules: nothing fails (same fields).
    let hadoop = report["fields"].as_array().unwrap();
    assert!(hadoop.iter().all(|f| f["fails"] == false), "{report:#}");
    assert_eq!(
        report["avro"],
        serde_json::json!({"compatible": false, "fields": [
            {"path": "", "written": "shop.Item", "read": "shop.Line",
             "outcome": "renamed", "fails": true},
            {"path": "sku", "written": "string", "read": "string",
             "outcome": "kept", "fails": false},
            {"path": "quantity", "written": "int", "read": "int",
             "outcome": "kept", "fails": false},
        ]})
    );
    let out = compat(
        V1,
        &version(5),
        &["--old-type", "shop.Item", "--new-type", "shop.Line"],
    );
    assert!(
        stdout(&out).ends_with(
            "Avro (rcc -l avro's schemas): Avro cannot resolve the record (marked !)\n  ! \
             (the record)             shop.Item -> shop.Line           renamed\n"
        ),
        "{}",
        stdout(&out)
    );
    // What the exit status means is in the help.
    help_with(
        &["compat", "--help"],
        &["or when Avro cannot read the old data (mismatch, renamed,\nno-default)"],
    );
}

#[test]
fn compat_json_has_avro_s_findings() {
    let report = incompatible_json(V1, &version(2), &["--type", "shop.Order"]);
    let avro = &report["avro"];
    assert_eq!(avro["compatible"], false);
    let outcomes: Vec<(&str, &str, bool)> = avro["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap(),
                f["outcome"].as_str().unwrap(),
                f["fails"].as_bool().unwrap(),
            )
        })
        .collect();
    // Every field, kept ones too (the text lists only the others).
    assert_eq!(
        outcomes,
        [
            ("id", "kept", false),
            ("customer", "kept", false),
            ("items", "kept", false),
            ("items[].sku", "kept", false),
            ("items[].quantity", "kept", false),
            ("total", "mismatch", true),
            ("note", "dropped", false),
            ("express", "defaulted", false),
        ]
    );
    let total = &avro["fields"][5];
    assert_eq!(
        (&total["written"], &total["read"]),
        (&"double".into(), &"long".into())
    );
}

#[test]
fn compat_errors_exit_2() {
    let out = compat(
        V1,
        "tests/ddl/evolution/missing.jr",
        &["--type", "shop.Order"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = compat(V1, &version(2), &["--type", "shop.Nope"]);
    assert_eq!(out.status.code(), Some(2));
    // Neither --type nor both of --old-type and --new-type: a usage error.
    let out = compat(V1, &version(2), &["--old-type", "shop.Order"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `rcc convert` with stdin.
fn convert(
    schema: (&str, &str),
    formats: (&str, &str),
    extra: &[&str],
    stdin: &[u8],
) -> std::process::Output {
    let mut c = command(CRATE_DIR, &convert_args(schema, formats, extra));
    c.env("NO_COLOR", "1");
    run(c, stdin)
}

/// Two version-1 orders, in CSV.
const V1_ORDERS: &[u8] = b"7,'alice,v{s{'pen,3},s{'ink,1}},9.5,'gift\n8,'bob,v{},0.25,'\n";

/// The same orders as version 2 reads them: `note` dropped, `total` (double then, long now)
/// and `express` (new) empty, fields in version 2's order.
const AS_V2: &str = "'alice,7,v{s{'pen,3},s{'ink,1}},0,F\n'bob,8,v{},0,F\n";

#[test]
fn convert_reads_data_written_with_an_older_schema() {
    let v1 = version(1);
    let v2 = version(2);
    for format in ["binary", "csv", "xml", "json", "jute"] {
        // The version-1 data in `format`.
        let old = convert((&v1, "shop.Order"), ("csv", format), &[], V1_ORDERS);
        assert!(old.status.success(), "{format}: {}", stderr(&old));
        // As version 2 reads it, plain and inside a framing (one record per payload).
        let as_v2 = |input: &[u8], framing: &[&str]| {
            let extra = [&["--writer-schema", v1.as_str()], framing].concat();
            let out = convert((&v2, "shop.Order"), (format, "csv"), &extra, input);
            assert!(
                out.status.success(),
                "{format} {framing:?}: {}",
                stderr(&out)
            );
            assert_eq!(stdout(&out), AS_V2, "{format} {framing:?}");
        };
        as_v2(&old.stdout, &[]);
        let framed = convert(
            (&v1, "shop.Order"),
            (format, format),
            &["--out-framing", "mesos"],
            &old.stdout,
        );
        assert!(framed.status.success(), "{format}: {}", stderr(&framed));
        as_v2(&framed.stdout, &["--in-framing", "mesos"]);
    }
    // Without --writer-schema, version 2 cannot read version 1's bytes.
    let old = convert((&v1, "shop.Order"), ("csv", "binary"), &[], V1_ORDERS);
    let misread = convert((&v2, "shop.Order"), ("binary", "csv"), &[], &old.stdout);
    assert_ne!(stdout(&misread), AS_V2);
}

#[test]
fn convert_writer_type_names_another_class_of_the_same_schema_or_errs() {
    // --writer-type alone: a class of --schema (here the element type, read as an order:
    // nothing matches by name and type, so every order field is empty).
    let item = convert((V1, "shop.Item"), ("csv", "binary"), &[], b"'pen,3\n");
    assert!(item.status.success(), "{}", stderr(&item));
    let out = convert(
        (V1, "shop.Order"),
        ("binary", "csv"),
        &["--writer-type", "shop.Item"],
        &item.stdout,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "0,',v{},0.0,'\n");
    // An unknown writer type is an error before any work.
    let out = convert(
        (V1, "shop.Order"),
        ("binary", "csv"),
        &["--writer-schema", V1, "--writer-type", "shop.Ordr"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_stderr_contains(&out, "did you mean `shop.Order`");
}
