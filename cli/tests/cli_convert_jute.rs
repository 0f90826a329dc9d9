//! `rcc convert --from jute` / `--to jute`, run as the real binary: every binary fixture of
//! Hadoop's Java goes to jute and back unchanged (characters beyond the BMP
//! become U+FFFD, as in ZooKeeper), jute's nulls survive a trip through JSON,
//! and `--jute-maxbuffer` is ZooKeeper's `jute.maxbuffer`.

mod support;

use std::process::Output;

use fixture_harness::{hadoop_java, hadoop_java_dir, Encoding};
use support::{assert_clean_output, assert_stderr_contains, assert_success, convert_in, stderr};

fn convert(schema: &str, ty: &str, from: &str, to: &str, extra: &[&str], stdin: &[u8]) -> Output {
    convert_in(hadoop_java_dir(), (schema, ty), (from, to), extra, stdin)
}

#[test]
fn every_binary_fixture_goes_to_jute_and_back_unchanged() {
    let (mut checked, mut lossy) = (0, 0);
    for case in &hadoop_java().cases {
        if case.encoding != Encoding::Binary {
            continue;
        }
        let (schema, ty) = (case.schema.as_str(), case.record_type.as_str());
        let jute = convert(schema, ty, "binary", "jute", &[], &case.bytes());
        assert_success(&jute, &case.name);
        let back = convert(schema, ty, "jute", "binary", &[], &jute.stdout);
        let from_binary = convert(schema, ty, "binary", "json", &[], &case.bytes());
        let text = String::from_utf8(from_binary.stdout.clone()).unwrap();
        if text.chars().any(|c| u32::from(c) > 0xFFFF) {
            // ZooKeeper's writer encodes each UTF-16 surrogate on its own (3 bytes each) and
            // its reader, Java's UTF-8 decoder, turns those bytes into U+FFFD: a character
            // beyond the BMP does not survive jute, in ZooKeeper or here.
            assert_eq!(back.status.code(), Some(0), "{}", case.name);
            let json = convert(schema, ty, "binary", "json", &[], &back.stdout);
            assert!(String::from_utf8(json.stdout).unwrap().contains('\u{FFFD}'));
            lossy += 1;
        } else {
            assert_clean_output(&back, &case.bytes(), &case.name);
            // The same values: JSON of the jute equals JSON of the binary.
            let from_jute = convert(schema, ty, "jute", "json", &[], &jute.stdout);
            assert_clean_output(&from_jute, &from_binary.stdout, &case.name);
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
    assert!(lossy > 0 && lossy < 10, "{lossy}");
}

/// AllPrims (`b z i l f d s buf`) in jute: fixed-width big-endian numbers, then `s` and `buf`
/// as an int length and their bytes.
fn allprims_jute(s: Option<&[u8]>, buf: Option<&[u8]>) -> Vec<u8> {
    let mut out = vec![7u8, 1];
    out.extend(300i32.to_be_bytes());
    out.extend((-5i64).to_be_bytes());
    out.extend(1.5f32.to_be_bytes());
    out.extend(0.25f64.to_be_bytes());
    for part in [s, buf] {
        match part {
            None => out.extend((-1i32).to_be_bytes()),
            Some(bytes) => {
                out.extend((bytes.len() as i32).to_be_bytes());
                out.extend(bytes);
            }
        }
    }
    out
}

const ALLPRIMS: [&str; 2] = ["prims.jr", "oracle.prims.AllPrims"];

#[test]
fn jute_is_read_as_zookeeper_writes_it_and_nulls_survive_json() {
    let [schema, ty] = ALLPRIMS;
    let bytes = allprims_jute(Some("hé".as_bytes()), None);
    let json = convert(schema, ty, "jute", "json", &[], &bytes);
    assert_clean_output(
        &json,
        "{\"b\": 7, \"z\": true, \"i\": 300, \"l\": -5, \"f\": 1.5, \"d\": 0.25, \"s\": \"hé\", \"buf\": null}\n"
            .as_bytes(),
        "jute to json",
    );
    let back = convert(schema, ty, "json", "jute", &[], &json.stdout);
    assert_clean_output(&back, &bytes, "json to jute");
    // Hadoop's encodings have no null: writing one there is an error naming the field.
    let binary = convert(schema, ty, "jute", "binary", &[], &bytes);
    assert_eq!(binary.status.code(), Some(1));
    assert_stderr_contains(&binary, "buf");
}

#[test]
fn jute_maxbuffer_is_zookeepers_limit() {
    let [schema, ty] = ALLPRIMS;
    let big = vec![b'x'; 3000];
    let bytes = allprims_jute(Some(&big), Some(b""));
    // Default limit (1 MiB): fine.
    let ok = convert(schema, ty, "jute", "jute", &[], &bytes);
    assert_clean_output(&ok, &bytes, "default limit");
    // ZooKeeper accepts lengths up to maxbuffer + 1024 (at least 1024).
    let with_maxbuffer = |limit: &str| {
        convert(
            schema,
            ty,
            "jute",
            "jute",
            &["--jute-maxbuffer", limit],
            &bytes,
        )
    };
    let ok = with_maxbuffer("2000");
    assert_clean_output(&ok, &bytes, "maxbuffer 2000");
    let refused = with_maxbuffer("1000");
    assert_eq!(refused.status.code(), Some(1));
    let message = stderr(&refused);
    assert!(message.contains("Unreasonable length = 3000"), "{message}");
    assert!(message.contains("in AllPrims.s"), "{message}");
    assert!(message.len() < 300, "{message}");
    // The option is jute's only.
    let misused = convert(
        schema,
        ty,
        "binary",
        "jute",
        &["--jute-maxbuffer", "1000"],
        b"",
    );
    assert_eq!(misused.status.code(), Some(1), "{}", stderr(&misused));
    assert!(stderr(&misused).contains("--jute-maxbuffer applies to --from jute only"));
}
