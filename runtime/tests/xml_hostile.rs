//! Hostile and unusual XML: each bad input is a clear error with a line:col position and
//! never a panic; what an XML parser accepts beyond Java's output is read correctly.

use fixture_harness::add_record;

use fixture_harness::{hadoop_java, record_id, schema, Encoding, Trickle};
use hadoop_record::archive::xml::XmlInput;
use hadoop_record::schema::{FieldType, Schema};
use hadoop_record::value::read_record;
use hadoop_record::{Error, ErrorKind, Position, RecordInput, Value};

fn read_all(input: &mut impl RecordInput, ty: &str) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    while !input.at_end()? {
        out.push(read_record(input, schema(), record_id(ty), "")?);
    }
    Ok(out)
}

fn read(xml: &str, ty: &str) -> Result<Vec<Value>, Error> {
    read_all(&mut XmlInput::new(xml.as_bytes()), ty)
}

fn string_rec(body: &str) -> String {
    format!("<value><struct><member><name>v</name><value><string>{body}</string></value></member></struct></value>")
}

fn one_string(body: &str) -> Result<String, Error> {
    match read(&string_rec(body), "oracle.prims.StringRec")?.as_slice() {
        [Value::Record(fields)] => match &fields[0] {
            Value::String(s) => Ok(s.clone()),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

fn int_rec(inner: &str) -> String {
    format!("<value><struct>\n  <member>\n    <name>v</name>\n    <value>{inner}</value>\n  </member>\n</struct></value>\n")
}

/// Reads the record type `ty` from one line whose one member, `v`, is `<tag>text</tag>`.
fn read_member(ty: &str, tag: &str, text: &str) -> Result<Vec<Value>, Error> {
    read(
        &format!("<value><struct><member><name>v</name><value><{tag}>{text}</{tag}></value></member></struct></value>"),
        ty,
    )
}

fn one_int(inner: &str) -> Result<i32, Error> {
    match read(&int_rec(inner), "oracle.prims.IntRec")?.as_slice() {
        [Value::Record(fields)] => match fields[0] {
            Value::Int(v) => Ok(v),
            ref other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// Asserts an error of `kind` at `line:col` whose message contains `needle`.
#[track_caller]
fn assert_err(
    result: Result<impl std::fmt::Debug, Error>,
    kind: ErrorKind,
    at: (u64, u64),
    needle: &str,
) {
    let e = result.expect_err("must fail");
    assert_eq!(e.kind(), kind, "{e}");
    assert_eq!(
        e.position(),
        Some(Position::LineCol {
            line: at.0,
            col: at.1
        }),
        "{e}"
    );
    assert!(e.to_string().contains(needle), "{e}");
}

#[test]
fn every_fixture_reads_the_same_through_a_trickling_reader() {
    for case in hadoop_java().cases_in(Encoding::Xml) {
        let bytes = case.bytes();
        for n in [1, 7] {
            let mut input = XmlInput::new(Trickle::new(&bytes, n));
            let got = read_all(&mut input, &case.record_type)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let want = case.expected_values();
            assert_eq!(got.len(), want.len());
            assert!(
                got.iter().zip(&want).all(|(g, w)| g.bitwise_eq(w)),
                "{}",
                case.name
            );
        }
    }
}

#[test]
fn unknown_and_misplaced_elements_are_errors_at_their_position() {
    assert_err(
        one_int("<i8>1</i8>"),
        ErrorKind::Syntax,
        (4, 12),
        "unknown element `i8`",
    );
    assert_err(
        one_int("<ex:i8>1</ex:i8>"),
        ErrorKind::Syntax,
        (4, 12),
        "expected <i4>, found <ex:i8>",
    );
    assert_err(
        one_int("<i4>1</ex:i8>"),
        ErrorKind::Syntax,
        (4, 17),
        "mismatched end tag </ex:i8>: expected </i4>",
    );
    assert_err(
        one_int("<i4>1<b>2</b></i4>"),
        ErrorKind::Syntax,
        (4, 17),
        "unknown element `b`",
    );
    assert_err(
        one_int("<i4>1<string/></i4>"),
        ErrorKind::Syntax,
        (4, 17),
        "unexpected <string/> inside <i4>",
    );
    assert_err(
        one_int("<i4 x=\"1\">1</i4>"),
        ErrorKind::Syntax,
        (4, 12),
        "attributes are not part",
    );
    assert_err(
        one_int("oops<i4>1</i4>"),
        ErrorKind::Syntax,
        (4, 12),
        "unexpected text `oops`",
    );
    assert_err(
        read(
            "<value><struct><name>v</name></struct></value>",
            "oracle.prims.IntRec",
        ),
        ErrorKind::Syntax,
        (1, 16),
        "expected <member>, found <name>",
    );
    assert_err(
        read("<struct></struct>", "oracle.prims.IntRec"),
        ErrorKind::Syntax,
        (1, 1),
        "expected <value>, found <struct>",
    );
    // A fourth field where the record has one.
    let two = int_rec("<i4>1</i4>").replace(
        "</struct>",
        "  <member>\n    <name>w</name>\n    <value><i4>2</i4></value>\n  </member>\n</struct>",
    );
    assert_err(
        read(&two, "oracle.prims.IntRec"),
        ErrorKind::Syntax,
        (6, 3),
        "expected </struct>, found <member>",
    );
    assert_err(
        read(
            "<value><struct></struct></value><value/>",
            "oracle.prims.IntRec",
        ),
        ErrorKind::Syntax,
        (1, 16),
        "expected <member>",
    );
}

#[test]
fn entities_are_resolved_and_unknown_ones_are_errors() {
    assert_eq!(one_string("&lt;&gt;&amp;&quot;&apos;").unwrap(), "<>&\"'");
    assert_eq!(
        one_string("&#65;&#x42;&#x1F600;&#xe9;").unwrap(),
        "AB\u{1F600}é"
    );
    // Entities are resolved before `%` escapes are decoded, as in Java.
    assert_eq!(one_string("&#37;0041").unwrap(), "A");
    let col = "<value><struct><member><name>v</name><value><string>x".len() as u64 + 1;
    assert_err(
        one_string("x&nbsp;"),
        ErrorKind::Syntax,
        (1, col),
        "unknown entity `&nbsp;`",
    );
    assert_err(
        one_string("x&amp"),
        ErrorKind::Syntax,
        (1, col),
        "unterminated entity",
    );
    assert_err(
        one_string("x&#xD800;"),
        ErrorKind::Encoding,
        (1, col),
        "not an XML character",
    );
    assert_err(
        one_string("x&#0;"),
        ErrorKind::Encoding,
        (1, col),
        "not an XML character",
    );
    assert_err(
        one_string("x&#1114112;"),
        ErrorKind::Encoding,
        (1, col),
        "not an XML character",
    );
    assert_err(
        one_string("x&#xZZ;"),
        ErrorKind::Encoding,
        (1, col),
        "not an XML character",
    );
}

#[test]
fn percent_escapes_take_four_hex_digits_and_pair_surrogates() {
    assert_eq!(
        one_string("%0009%000a%000D%0025%d83d%de00").unwrap(),
        "\t\n\r%\u{1F600}"
    );
    let col = "<value><struct><member><name>v</name><value><string>".len() as u64 + 1;
    assert_err(
        one_string("ab%D83D"),
        ErrorKind::Encoding,
        (1, col + 2),
        "unpaired surrogate %D83D",
    );
    assert_err(
        one_string("%DE00"),
        ErrorKind::Encoding,
        (1, col),
        "unpaired surrogate %DE00",
    );
    assert_err(
        one_string("%D83D%0041"),
        ErrorKind::Encoding,
        (1, col),
        "unpaired surrogate",
    );
    assert_err(
        one_string("%41"),
        ErrorKind::Syntax,
        (1, col),
        "four hex digits",
    );
    assert_err(
        one_string("%00G0"),
        ErrorKind::Syntax,
        (1, col),
        "bad escape `%00G0`",
    );
}

#[test]
fn xml_line_ends_cdata_comments_and_declarations_are_handled_as_a_parser_does() {
    assert_eq!(one_string("a\r\nb\rc\n").unwrap(), "a\nb\nc\n");
    assert_eq!(one_string("a&#13;b").unwrap(), "a\rb");
    assert_eq!(one_string("<![CDATA[<&%0041]]>x").unwrap(), "<&Ax");
    assert_eq!(one_string("<![CDATA[a\r\nb]]>").unwrap(), "a\nb");
    assert_eq!(one_string("a<!-- <i4> -->b<?pi x?>c").unwrap(), "abc");
    assert_eq!(one_string("]]>").unwrap(), "]]>");
    let doc = format!(
        "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- two records -->\r\n{}\r\n{}",
        int_rec("<int>7</int>").replace('\n', "\r\n"),
        int_rec("<i4 >-8</i4 >")
    );
    let values = read(&doc, "oracle.prims.IntRec").unwrap();
    assert_eq!(
        values,
        [
            Value::Record(vec![Value::Int(7)]),
            Value::Record(vec![Value::Int(-8)])
        ]
    );
    assert_eq!(one_string("").unwrap(), "");
    let empty = "<value><struct><member><name/><value><string/></value></member></struct></value>";
    assert_eq!(
        read(empty, "oracle.prims.StringRec").unwrap(),
        [Value::Record(vec![Value::String(String::new())])]
    );
    let vec =
        "<value><struct><member><name>v</name><value><array/></value></member></struct></value>";
    assert_eq!(
        read(vec, "oracle.composite.IntVec").unwrap(),
        [Value::Record(vec![Value::Vector(vec![])])]
    );
    assert_err(
        read(
            "<!DOCTYPE value [<!ENTITY a \"b\">]><value/>",
            "oracle.prims.IntRec",
        ),
        ErrorKind::Unsupported,
        (1, 1),
        "document type",
    );
    assert_err(
        read("<!-- never closed", "oracle.prims.IntRec"),
        ErrorKind::UnexpectedEof,
        (1, 1),
        "comment",
    );
}

#[test]
fn numbers_are_read_as_java_parses_them() {
    assert_eq!(one_int("<i4>+5</i4>").unwrap(), 5);
    assert_eq!(one_int("<i4>-2147483648</i4>").unwrap(), i32::MIN);
    for (inner, kind, at, needle) in [
        (
            "<i4>2147483648</i4>",
            ErrorKind::Overflow,
            (4, 16),
            "does not fit in a int",
        ),
        ("<i4> 5</i4>", ErrorKind::Syntax, (4, 16), "not a valid int"),
        ("<i4></i4>", ErrorKind::Syntax, (4, 16), "not a valid int"),
        ("<i4/>", ErrorKind::Syntax, (4, 17), "not a valid int"),
    ] {
        assert_err(one_int(inner), kind, at, needle);
    }
    let bool_rec = |b: &str| read_member("oracle.prims.BoolRec", "boolean", b);
    assert_eq!(
        bool_rec("1").unwrap(),
        [Value::Record(vec![Value::Bool(true)])]
    );
    assert_eq!(
        bool_rec("0").unwrap(),
        [Value::Record(vec![Value::Bool(false)])]
    );
    let byte_rec = |b: &str| read_member("oracle.prims.ByteRec", "ex:i1", b);
    assert_eq!(
        byte_rec("-128").unwrap(),
        [Value::Record(vec![Value::Byte(-128)])]
    );
    let buf_rec = |b: &str| read_member("oracle.prims.BufferRec", "string", b);
    assert_eq!(
        buf_rec("00aBfF").unwrap(),
        [Value::Record(vec![Value::Buffer(vec![0, 0xab, 0xff])])]
    );
    let double_rec = |d: &str| read_member("oracle.prims.DoubleRec", "double", d);
    // Each of (record type, element, text): the error's kind, position and message.
    for (ty, tag, text, kind, at, needle) in [
        (
            "BoolRec",
            "boolean",
            "true",
            ErrorKind::Syntax,
            (1, 54),
            "a boolean is 1 or 0",
        ),
        (
            "ByteRec",
            "ex:i1",
            "128",
            ErrorKind::Overflow,
            (1, 52),
            "does not fit in a byte",
        ),
        (
            "BufferRec",
            "string",
            "abc",
            ErrorKind::Syntax,
            (1, 55),
            "odd number of hex digits",
        ),
        (
            "BufferRec",
            "string",
            "zz",
            ErrorKind::Syntax,
            (1, 53),
            "non-hex",
        ),
        (
            "DoubleRec",
            "double",
            "1,5",
            ErrorKind::Syntax,
            (1, 54),
            "not a valid double",
        ),
    ] {
        let ty = format!("oracle.prims.{ty}");
        assert_err(read_member(&ty, tag, text), kind, at, needle);
    }
    // Java's Double.parseDouble: trims, takes a d suffix, hex floats, JDK 17's long digits.
    for (text, want) in [
        (" 1.5\t", 1.5),
        ("1e3d", 1000.0),
        ("0x1.8p1", 3.0),
        ("-Infinity", f64::NEG_INFINITY),
        ("2.82879384806159008E17", 2.82879384806159e17),
    ] {
        assert_eq!(
            double_rec(text).unwrap(),
            [Value::Record(vec![Value::Double(want)])],
            "{text:?}"
        );
    }
    assert_err(
        double_rec("inf"),
        ErrorKind::Syntax,
        (1, 53),
        "not a valid double",
    );
}

#[test]
fn invalid_utf8_is_an_encoding_error() {
    let mut doc = string_rec("ab").into_bytes();
    let at = string_rec("a").len() - "</string></value></member></struct></value>".len();
    doc[at] = 0xff;
    let e = read_all(&mut XmlInput::new(&doc[..]), "oracle.prims.StringRec").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(
        e.position(),
        Some(Position::LineCol {
            line: 1,
            col: at as u64 + 1
        })
    );
}

/// A recursive schema, so that nesting depth comes from the input alone.
fn nested_schema() -> (Schema, hadoop_record::schema::RecordId) {
    let mut s = Schema::new();
    let id = add_record(
        &mut s,
        "m",
        "Deep",
        vec![(
            "v",
            FieldType::Vector(Box::new(FieldType::Vector(Box::new(FieldType::Int)))),
        )],
    );
    (s, id)
}

#[test]
fn deep_nesting_is_a_limit_error_not_a_stack_overflow() {
    // A schema as deep as the input, so that only the reader's limit stops the descent.
    let mut ty = FieldType::Int;
    for _ in 0..600 {
        ty = FieldType::Vector(Box::new(ty));
    }
    let mut s = Schema::new();
    let id = add_record(&mut s, "m", "Deep", vec![("v", ty)]);
    let mut doc = String::from("<value><struct><member><name>v</name>");
    doc.push_str(&"<value><array>".repeat(600));
    let e = read_record(&mut XmlInput::new(doc.as_bytes()), &s, id, "").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert!(e.to_string().contains("nested more than 512"), "{e}");
    // The record is level 1, so the 512th array is the one refused.
    let col = "<value><struct><member><name>v</name>".len() + 511 * "<value><array>".len() + 1;
    assert_eq!(
        e.position(),
        Some(Position::LineCol {
            line: 1,
            col: col as u64
        })
    );

    let (s, id) = nested_schema();
    let ok = "<value><struct><member><name>v</name><value><array><value><array><value><i4>1</i4></value></array></value></array></value></member></struct></value>";
    assert_eq!(
        read_record(&mut XmlInput::new(ok.as_bytes()), &s, id, "").unwrap(),
        Value::Record(vec![Value::Vector(vec![Value::Vector(vec![Value::Int(
            1
        )])])])
    );
}

#[test]
fn long_tags_and_huge_inputs_stay_bounded() {
    let long_tags = [
        (
            format!("<value{}>", " ".repeat(100_000)),
            ErrorKind::Limit,
            "tag longer than",
        ),
        (
            format!("<{}", "a".repeat(300)),
            ErrorKind::Limit,
            "tag longer than",
        ),
        (
            format!("<{}>", "a".repeat(200)),
            ErrorKind::Syntax,
            "unknown element `aaaa",
        ),
    ];
    for (doc, kind, message) in long_tags {
        assert_err(read(&doc, "oracle.prims.IntRec"), kind, (1, 1), message);
    }
    // A large string is read whole, through any reader.
    let big = "x".repeat(1 << 20);
    let doc = string_rec(&big);
    let mut input = XmlInput::new(Trickle::new(doc.as_bytes(), 1000));
    let got = read_all(&mut input, "oracle.prims.StringRec").unwrap();
    assert_eq!(got, [Value::Record(vec![Value::String(big)])]);
    // A comment of a megabyte between records is skipped.
    let doc = format!("<!--{}-->{}", "-".repeat(1 << 20), int_rec("<i4>3</i4>"));
    assert_eq!(one_int_doc(&doc), 3);
}

fn one_int_doc(doc: &str) -> i32 {
    match read(doc, "oracle.prims.IntRec").unwrap().as_slice() {
        [Value::Record(f)] => match f[0] {
            Value::Int(v) => v,
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }
}

#[test]
fn errors_name_the_field_path() {
    let case = hadoop_java().case("outer_nested.xml");
    let text = String::from_utf8(case.bytes()).unwrap();
    // Corrupt the `n` of the second element of `c.vrec`.
    let second = text.match_indices("<ex:i8>").nth(2).unwrap().0;
    let mut bad = text.clone();
    bad.replace_range(second..second + 7, "<ex:i8>x");
    let e = read(&bad, &case.record_type).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.path(), "c.vrec[1].n", "{e}");
    assert_eq!(
        e.position(),
        Some(Position::LineCol { line: 102, col: 29 }),
        "{e}"
    );
}

#[test]
fn error_positions_do_not_depend_on_how_the_input_arrives() {
    // An error deep in a large document, past several buffer refills.
    let case = hadoop_java().case("stream_outer_x2.xml");
    let text = String::from_utf8(case.bytes()).unwrap();
    let mut doc = text.repeat(200);
    let at = doc.rfind("<string>").unwrap() + "<string>".len();
    doc.insert_str(at, "&bogus;");
    let want = read(&doc, &case.record_type).unwrap_err();
    assert!(matches!(want.position(), Some(Position::LineCol { line, .. }) if line > 10_000));
    for n in [1, 3, 4096, 70_000] {
        let mut input = XmlInput::new(Trickle::new(doc.as_bytes(), n));
        let e = read_all(&mut input, &case.record_type).unwrap_err();
        assert_eq!(e.position(), want.position(), "chunks of {n}: {e}");
        assert_eq!(e.record(), want.record());
        assert_eq!(e.to_string(), want.to_string());
    }
    // The line:col agrees with counting by hand.
    let line = doc[..at].matches('\n').count() as u64 + 1;
    let col = (at - doc[..at].rfind('\n').map_or(0, |i| i + 1)) as u64 + 1;
    let Some(Position::LineCol { line: l, col: c }) = want.position() else {
        unreachable!()
    };
    assert_eq!((l, c), (line, col));
    assert!(
        want.to_string().contains("unknown entity `&bogus;`"),
        "{want}"
    );
}
