//! No error message grows with the input that caused it (issue 15): each decoder fed one
//! huge offending token reports an error of a line, quoting at most an excerpt of the token
//! (`hadoop_record::error::excerpt`), and still naming the position and the field path.

mod support;

use fixture_harness::add_record;
use hadoop_record::error::EXCERPT_CHARS;
use hadoop_record::framing::mesos::MesosReader;
use hadoop_record::framing::paddle::PaddleReader;
use hadoop_record::framing::plasma::{TextOptions, TextReader};
use hadoop_record::framing::v1::V1Reader;
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::json::{from_json, parse};
use hadoop_record::{Error, Format, RecordReader};
use support::values::recursive_schema;

/// Size of the huge tokens.
const HUGE: usize = 100_000;
/// Longest acceptable rendered error.
const SHORT: usize = 300;

fn schema(field: FieldType) -> (Schema, hadoop_record::schema::RecordId) {
    let mut schema = Schema::new();
    let id = add_record(
        &mut schema,
        "m",
        "R",
        vec![("n", FieldType::Int), ("v", field)],
    );
    (schema, id)
}

/// Reads one record of `R { int n; <field> v; }` from `input`: the error, rendered.
fn read_error(input: &[u8], format: Format, field: FieldType) -> Error {
    let (schema, id) = schema(field);
    RecordReader::new(input, format)
        .read_value(&schema, id)
        .expect_err("the input is damaged")
}

/// The rendered error is short, has a position and the field path, and quotes `quoted`.
fn assert_short(e: &Error, at: &str, quoted: &str) {
    let text = e.to_string();
    assert!(text.len() < SHORT, "{} bytes: {text}", text.len());
    assert!(e.position().is_some(), "{text}");
    assert!(text.contains(at), "{at}: {text}");
    assert!(text.contains(quoted), "{quoted}: {text}");
}

/// What an excerpt of a huge token of `c` shows.
fn cut(c: char, len: usize) -> String {
    format!("`{}…` ({len} bytes)", c.to_string().repeat(EXCERPT_CHARS))
}

#[test]
fn csv() {
    for (field, token, at, message) in [
        (FieldType::Int, "7".repeat(HUGE), 3, "does not fit an int"),
        (
            FieldType::Int,
            "x".repeat(HUGE),
            3,
            "expected an int, found",
        ),
        (
            FieldType::Long,
            "-".repeat(HUGE),
            3,
            "expected a long, found",
        ),
        (FieldType::Bool, "T".repeat(HUGE), 3, "expected a boolean"),
        // Floats are refused at the character that is wrong.
        (
            FieldType::Double,
            "1".repeat(HUGE) + "x",
            HUGE + 3,
            "invalid floating-point number",
        ),
    ] {
        let input = format!("1,{token}\n");
        let e = read_error(input.as_bytes(), Format::Csv, field);
        let first = token.chars().next().unwrap();
        assert_short(
            &e,
            &format!("record 0, line 1:{at}, in R.v: "),
            &cut(first, token.len()),
        );
        assert!(e.to_string().contains(message), "{message}: {e}");
    }
    // A bad escape far into a huge string: the three characters of the escape, at its column.
    let input = format!("1,'{}%zz\n", "s".repeat(HUGE));
    let e = read_error(input.as_bytes(), Format::Csv, FieldType::String);
    assert_short(&e, &format!("line 1:{}, in R.v", HUGE + 4), "`%zz`");
}

#[test]
fn xml() {
    let doc = |value: &str| {
        format!(
            "<value><struct><member><name>n</name><value><i4>1</i4></value></member>\
             <member><name>v</name><value>{value}</value></member></struct></value>\n"
        )
    };
    let col = "<value><struct><member><name>n</name><value><i4>1</i4></value></member><member><name>v</name><value>".len();
    for (field, value, message, quoted) in [
        (
            FieldType::Int,
            format!("<i4>{}</i4>", "9".repeat(HUGE)),
            "does not fit in a int",
            cut('9', HUGE),
        ),
        (
            FieldType::Int,
            format!("<i4>{}</i4>", "z".repeat(HUGE)),
            "not a valid int",
            cut('z', HUGE),
        ),
        (
            FieldType::Bool,
            format!("<boolean>{}</boolean>", "1".repeat(HUGE)),
            "a boolean is 1 or 0",
            cut('1', HUGE),
        ),
        (
            FieldType::Double,
            format!("<double>{}</double>", "5e".repeat(HUGE / 2)),
            "not a valid double",
            cut('5', HUGE).replace(&"5".repeat(EXCERPT_CHARS), &"5e".repeat(EXCERPT_CHARS / 2)),
        ),
        (
            FieldType::Int,
            "t".repeat(HUGE),
            "unexpected text",
            format!(
                "`{}…` (over {} bytes)",
                "t".repeat(EXCERPT_CHARS),
                EXCERPT_CHARS * 4
            ),
        ),
    ] {
        let e = read_error(doc(&value).as_bytes(), Format::Xml, field);
        assert_short(&e, "record 0, line 1:", &quoted);
        assert!(e.to_string().contains(message), "{message}: {e}");
        assert!(e.to_string().contains("in R.v: "), "{e}");
    }
    // A huge unknown element name: refused at the tag's length limit, or quoted short.
    let e = read_error(
        doc(&format!("<{}>", "q".repeat(200))).as_bytes(),
        Format::Xml,
        FieldType::Int,
    );
    assert_short(&e, &format!("line 1:{}, in R.v", col + 1), &cut('q', 200));
}

#[test]
fn binary() {
    // A huge string that is not UTF-8 at its very end: the message names no bytes of it.
    let mut input = vec![0x02];
    let mut s = vec![b'a'; HUGE];
    s.push(0xff);
    input.extend_from_slice(&[0x8d, 0x01, 0x86, 0xa1]); // vint 100001
    input.extend_from_slice(&s);
    let e = read_error(&input, Format::Binary, FieldType::String);
    assert_short(&e, &format!("byte {}, in R.v", 5 + HUGE), "invalid UTF-8");
}

#[test]
fn json() {
    let (schema, id) = schema(FieldType::Buffer);
    let ty = FieldType::Record(id);
    let check = |text: &str, at: &str, quoted: &str| {
        let e = match parse(text, 512) {
            Ok(json) => from_json(&schema, &ty, &json).expect_err("damaged"),
            Err(e) => e,
        };
        let shown = e.to_string();
        assert!(shown.len() < SHORT, "{} bytes: {shown}", shown.len());
        assert!(shown.contains(at), "{at}: {shown}");
        assert!(shown.contains(quoted), "{quoted}: {shown}");
    };
    let not_hex = "g".repeat(HUGE);
    check(
        &format!(r#"{{"n": 1, "v": "{not_hex}"}}"#),
        "in v: ",
        &cut('g', HUGE),
    );
    let key = "k".repeat(HUGE);
    check(
        &format!(r#"{{"n": 1, "v": "", "{key}": 2}}"#),
        "R has no field ",
        &cut('k', HUGE),
    );
    // Text that is not JSON: serde_json's message, at line:col, and none of the text.
    check(
        &format!("{{\"n\": {}", "?".repeat(HUGE)),
        "line 1:7: ",
        "expected value",
    );
}

/// The first item of a framing reader: an error, short and with a position.
fn first_error<T>(mut items: impl Iterator<Item = hadoop_record::Result<T>>) {
    let Some(Err(e)) = items.next() else {
        panic!("the input is damaged")
    };
    let text = e.to_string();
    assert!(text.len() < SHORT && e.position().is_some(), "{text}");
}

#[test]
fn framings() {
    // Mesos: a length line of 100,000 digits.
    let input = format!("{}\n", "9".repeat(HUGE));
    first_error(MesosReader::new(input.as_bytes()));

    // RecordIO v1: a magic line whose version is 100,000 characters.
    let input = format!("RecordIO v{}\n\n", "1".repeat(HUGE));
    first_error(std::iter::once(V1Reader::new(input.as_bytes())));

    // Paddle: 100,000 bytes that are no chunk.
    first_error(PaddleReader::new(&vec![b'z'; HUGE][..]));

    // Plasma text: a line longer than the reader's limit.
    let input = format!("{}\n", "p".repeat(HUGE));
    let options = TextOptions::default()
        .with_max_record_size(1 << 10)
        .with_allow_unterminated(false);
    first_error(TextReader::with_options(input.as_bytes(), options));
}

/// A deep path is shown by its ends: a limit error 512 levels down stays short.
#[test]
fn deep_paths() {
    let (schema, node) = recursive_schema();
    let input = vec![0x01; HUGE];
    let e = RecordReader::new(&input[..], Format::Binary)
        .read_value(&schema, node)
        .expect_err("too deep");
    let text = e.to_string();
    assert!(text.len() < SHORT, "{} bytes: {text}", text.len());
    assert!(
        text.starts_with(
            "record 0, byte 256, in Node.kids[0].kids[0].kids[0].kids … (497 more) … "
        ),
        "{text}"
    );
    assert!(e.path().len() > 2_000, "the whole path stays available");
}
