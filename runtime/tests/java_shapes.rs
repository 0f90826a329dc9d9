//! The schema-driven codec against the `java_shapes` set (`tests/data/java_shapes`): map keys
//! of every type in Java's `TreeMap` order, vectors of maps and maps of vectors of records,
//! every CSV and XML escape class, float text at the notation boundaries, long streams — in
//! all three encodings, read and written, plus truncation at every byte, the values
//! Hadoop's binary writer refuses, and `compareTo` on the new shapes. A few of the files
//! are also spelled out byte by byte below, derived by hand from the format spec. The files
//! hold the modern JDK's float text, so they are written with `FloatText::Shortest`.

mod support;

use fixture_harness::add_record;
use fixture_harness::canon;
use fixture_harness::{java_shapes, shapes_id, shapes_schema, Case, Encoding};
use hadoop_record::archive::FloatText;
use hadoop_record::{ErrorKind, Format, RecordReader, RecordWriter, Value};
use support::truncation::assert_cut_short;
use support::values::assert_compares_like_java;

fn expected(case: &Case) -> Vec<Value> {
    java_shapes().values(&case.record_type, &case.values)
}

fn read_all(bytes: &[u8], format: Format, case: &Case) -> hadoop_record::Result<Vec<Value>> {
    let mut reader = RecordReader::new(bytes, format);
    reader
        .values(shapes_schema(), shapes_id(&case.record_type))
        .collect()
}

fn write_all(
    values: &[Value],
    format: Format,
    record_type: &str,
) -> hadoop_record::Result<Vec<u8>> {
    let mut writer = RecordWriter::new(Vec::new(), format).with_float_text(FloatText::Shortest);
    for v in values {
        writer.write_value(shapes_schema(), shapes_id(record_type), v)?;
    }
    Ok(writer.into_inner()?)
}

#[test]
fn signatures_are_hadoops() {
    let schema = shapes_schema();
    assert_eq!(java_shapes().signatures.len(), schema.records().len());
    for (name, signature) in &java_shapes().signatures {
        assert_eq!(
            schema.signature(shapes_id(name)).unwrap(),
            signature.as_str(),
            "{name}"
        );
    }
}

#[test]
fn every_file_decodes_to_its_values() {
    let shapes = java_shapes();
    for case in &shapes.cases {
        let got = read_all(&shapes.bytes(case), case.encoding.format(), case)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let want = expected(case);
        assert_eq!(got.len(), want.len(), "{}", case.name);
        for (g, w) in got.iter().zip(&want) {
            assert!(
                g.bitwise_eq(&canon(w)),
                "{}:\n got {g:?}\nwant {w:?}",
                case.name
            );
        }
    }
    assert_eq!(shapes.cases.len(), 50);
}

#[test]
fn every_file_is_written_byte_for_byte() {
    let shapes = java_shapes();
    for case in &shapes.cases {
        let out = write_all(&expected(case), case.encoding.format(), &case.record_type)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let want = shapes.bytes(case);
        assert!(
            out == want,
            "{}:\n got {}\nwant {}",
            case.name,
            String::from_utf8_lossy(&out).escape_debug(),
            String::from_utf8_lossy(&want).escape_debug()
        );
    }
}

#[test]
fn map_entries_given_in_any_order_are_written_in_javas() {
    // Reversing every map's entries changes nothing: the writer sorts as TreeMap does.
    fn reversed(v: &Value) -> Value {
        match v {
            Value::Vector(items) => Value::Vector(items.iter().map(reversed).collect()),
            Value::Record(items) => Value::Record(items.iter().map(reversed).collect()),
            Value::Map(entries) => Value::Map(
                entries
                    .iter()
                    .rev()
                    .map(|(k, v)| (reversed(k), reversed(v)))
                    .collect(),
            ),
            v => v.clone(),
        }
    }
    let shapes = java_shapes();
    for case in &shapes.cases {
        let values: Vec<Value> = expected(case).iter().map(reversed).collect();
        let out = write_all(&values, case.encoding.format(), &case.record_type).unwrap();
        assert!(out == shapes.bytes(case), "{}", case.name);
    }
}

#[test]
fn values_hadoops_binary_writer_refuses_are_errors() {
    let shapes = java_shapes();
    assert_eq!(shapes.refused.len(), 1);
    for refused in &shapes.refused {
        assert_eq!(refused.encoding, Encoding::Binary);
        assert!(refused.error.contains("Illegal Unicode Codepoint fffe"));
        let values = shapes.values(&refused.record_type, &refused.values);
        let e = write_all(&values, Format::Binary, &refused.record_type).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Encoding, "{e}");
        assert_eq!(e.path(), "Texts.s", "{e}");
        assert!(
            e.to_string().contains("Illegal Unicode Codepoint fffe"),
            "{e}"
        );
    }
}

#[test]
fn compare_hadoop_reproduces_java_compare_to() {
    let shapes = java_shapes();
    for c in &shapes.comparisons {
        let ty = |json| fixture_harness::shapes_value(&c.record_type, json);
        assert_compares_like_java(c, &ty(&c.a), &ty(&c.b));
    }
    assert_eq!(shapes.comparisons.len(), 13);
}

#[test]
fn truncation_at_every_byte_is_a_clean_end_or_a_located_error() {
    let shapes = java_shapes();
    let mut checked = 0;
    for case in &shapes.cases {
        let bytes = shapes.bytes(case);
        let format = case.encoding.format();
        let type_name = case.record_type.rsplit('.').next().unwrap();
        // Where records end: the length of the first n records re-encoded (the writer
        // reproduces the file, checked above).
        let values = expected(case);
        let ends: Vec<usize> = (1..=values.len())
            .map(|n| {
                write_all(&values[..n], format, &case.record_type)
                    .unwrap()
                    .len()
            })
            .collect();
        let id = shapes_id(&case.record_type);
        assert_eq!(ends.len(), case.values.len(), "{}", case.name);
        for len in 0..bytes.len() {
            let mut reader = RecordReader::new(&bytes[..len], format);
            let mut complete = 0;
            let result = loop {
                match reader.read_value(shapes_schema(), id) {
                    Ok(Some(_)) => complete += 1,
                    Ok(None) => break None,
                    Err(e) => break Some(e),
                }
            };
            let ended = ends
                .iter()
                .filter(|&&e| e <= len || (format == Format::Xml && e == len + 1))
                .count();
            match result {
                // XML may stop short of the line feed after `</value>`: the record is whole.
                None => assert!(
                    len == 0
                        || ends.contains(&len)
                        || (format == Format::Xml && ends.contains(&(len + 1))),
                    "{}[..{len}] read cleanly mid-record",
                    case.name
                ),
                Some(e) => assert_cut_short(&e, &case.name, len, ended, type_name),
            }
            assert_eq!(complete, ended, "{}[..{len}]", case.name);
            checked += 1;
        }
    }
    assert_eq!(checked, 96_713);
}

// ---- Hand-derived bytes (spec §3–§5), independent of the Java oracle. ----

fn float_keys(mf: Vec<(f32, &str)>, md: Vec<(f64, i32)>) -> Value {
    Value::Record(vec![
        Value::Map(
            mf.into_iter()
                .map(|(k, v)| (Value::Float(k), Value::String(v.into())))
                .collect(),
        ),
        Value::Map(
            md.into_iter()
                .map(|(k, v)| (Value::Double(k), Value::Int(v)))
                .collect(),
        ),
    ])
}

fn encode(record_type: &str, value: &Value, format: Format) -> Vec<u8> {
    write_all(std::slice::from_ref(value), format, record_type).unwrap()
}

#[test]
fn float_keys_by_hand() {
    // TreeMap<Float, _> orders by Float.compare: -Infinity < -0.0 < 0.0 < 1.0E-45 < NaN.
    let v = float_keys(
        vec![
            (f32::NAN, "n"),
            (0.0, "z"),
            (-0.0, "m"),
            (1.0e-45, "s"),
            (f32::NEG_INFINITY, "i"),
        ],
        vec![(0.1, 1), (-0.0, -1)],
    );
    let t = "shapes.keys.FloatKeys";
    #[rustfmt::skip]
    let binary: Vec<u8> = vec![
        0x05,
        0xff, 0x80, 0x00, 0x00, 0x01, b'i',
        0x80, 0x00, 0x00, 0x00, 0x01, b'm',
        0x00, 0x00, 0x00, 0x00, 0x01, b'z',
        0x00, 0x00, 0x00, 0x01, 0x01, b's',
        0x7f, 0xc0, 0x00, 0x00, 0x01, b'n',
        0x02,
        0x80, 0, 0, 0, 0, 0, 0, 0, 0xff,
        0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a, 0x01,
    ];
    assert_eq!(encode(t, &v, Format::Binary), binary);
    // CSV widens floats to double: 1.0E-45f prints as 1.401298464324817E-45.
    assert_eq!(
        String::from_utf8(encode(t, &v, Format::Csv)).unwrap(),
        "m{-Infinity,'i,-0.0,'m,0.0,'z,1.401298464324817E-45,'s,NaN,'n},m{-0.0,-1,0.1,1}\n"
    );
    // XML prints floats with Float.toString: 1.4E-45.
    let xml = String::from_utf8(encode(t, &v, Format::Xml)).unwrap();
    assert!(xml.starts_with(concat!(
        "<value><struct>\n",
        "  <member>\n",
        "    <name>mf</name>\n",
        "    <value><array>\n",
        "<value><ex:float>-Infinity</ex:float></value>\n",
        "<value><string>i</string></value>\n",
        "<value><ex:float>-0.0</ex:float></value>\n",
    )));
    assert!(xml.contains(concat!(
        "<value><ex:float>1.4E-45</ex:float></value>\n",
        "<value><string>s</string></value>\n",
        "<value><ex:float>NaN</ex:float></value>\n",
        "<value><string>n</string></value>\n",
        "    </array></value>\n",
        "  </member>\n",
    )));
    // Every form reads back to the same entries, in Java's order.
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = encode(t, &v, format);
        let mut reader = RecordReader::new(&bytes[..], format);
        let back = reader
            .read_value(shapes_schema(), shapes_id(t))
            .unwrap()
            .unwrap();
        let Value::Record(fields) = &back else {
            panic!()
        };
        let Value::Map(mf) = &fields[0] else { panic!() };
        let keys: Vec<u32> = mf
            .iter()
            .map(|(k, _)| match k {
                Value::Float(f) => f.to_bits(),
                _ => panic!(),
            })
            .collect();
        assert_eq!(
            keys,
            [0xff80_0000, 0x8000_0000, 0, 1, 0x7fc0_0000],
            "{format}"
        );
    }
}

#[test]
fn record_and_buffer_keys_by_hand() {
    // OtherKeys { map<boolean,int>; map<byte,ustring>; map<buffer,long>; map<long,boolean>;
    //             map<ustring,byte>; map<K,int> } with K { int a; ustring s; }.
    let k = |a: i32, s: &str| Value::Record(vec![Value::Int(a), Value::String(s.into())]);
    let v = Value::Record(vec![
        Value::Map(vec![
            (Value::Bool(true), Value::Int(1)),
            (Value::Bool(false), Value::Int(0)),
        ]),
        Value::Map(vec![
            (Value::Byte(1), Value::String("+".into())),
            (Value::Byte(-1), Value::String("-".into())),
        ]),
        Value::Map(vec![
            (Value::Buffer(vec![0x80]), Value::Long(1)),
            (Value::Buffer(vec![0x7f, 0xff]), Value::Long(2)),
            (Value::Buffer(vec![]), Value::Long(3)),
        ]),
        Value::Map(vec![
            (Value::Long(i64::MIN), Value::Bool(true)),
            (Value::Long(-1), Value::Bool(false)),
        ]),
        // U+FF5E sorts after U+1F600 in UTF-16 (a surrogate pair starts with 0xD83D).
        Value::Map(vec![
            (Value::String("\u{FF5E}".into()), Value::Byte(1)),
            (Value::String("\u{1F600}".into()), Value::Byte(2)),
        ]),
        // Records by their compareTo: a, then s in UTF-16 order.
        Value::Map(vec![
            (k(1, "\u{FF5E}"), Value::Int(1)),
            (k(1, "\u{1F600}"), Value::Int(2)),
            (k(-1, "z"), Value::Int(3)),
        ]),
    ]);
    let t = "shapes.keys.OtherKeys";
    #[rustfmt::skip]
    let binary: Vec<u8> = vec![
        0x02, 0x00, 0x00, 0x01, 0x01,
        0x02, 0xff, 0x01, b'-', 0x01, 0x01, b'+',
        0x03, 0x00, 0x03, 0x02, 0x7f, 0xff, 0x02, 0x01, 0x80, 0x01,
        0x02, 0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xff, 0x00,
        0x02, 0x04, 0xf0, 0x9f, 0x98, 0x80, 0x02, 0x03, 0xef, 0xbd, 0x9e, 0x01,
        0x03,
        0xff, 0x01, b'z', 0x03,
        0x01, 0x04, 0xf0, 0x9f, 0x98, 0x80, 0x02,
        0x01, 0x03, 0xef, 0xbd, 0x9e, 0x01,
    ];
    assert_eq!(encode(t, &v, Format::Binary), binary);
    assert_eq!(
        String::from_utf8(encode(t, &v, Format::Csv)).unwrap(),
        "m{F,0,T,1},m{-1,'-,1,'+},m{#,3,#7fff,2,#80,1},m{-9223372036854775808,T,-1,F},\
         m{'\u{1F600},2,'\u{FF5E},1},m{s{-1,'z},3,s{1,'\u{1F600}},2,s{1,'\u{FF5E}},1}\n"
    );
    let xml = String::from_utf8(encode(t, &v, Format::Xml)).unwrap();
    // A record key inside a map: `<value><struct>` at column 0, its members one level deeper
    // than the map's elements' level.
    assert!(
        xml.contains(concat!(
            "    <name>mk</name>\n",
            "    <value><array>\n",
            "<value><struct>\n",
            "        <member>\n",
            "          <name>a</name>\n",
            "          <value><i4>-1</i4></value>\n",
            "        </member>\n",
            "        <member>\n",
            "          <name>s</name>\n",
            "          <value><string>z</string></value>\n",
            "        </member>\n",
            "      </struct></value>\n",
            "<value><i4>3</i4></value>\n",
        )),
        "{xml}"
    );
    // XML escapes each UTF-16 unit of a supplementary character.
    assert!(xml.contains("<value><string>%D83D%DE00</string></value>\n<value><ex:i1>2</ex:i1>"));
}

#[test]
fn empty_containers_at_every_level_by_hand() {
    // Nest with everything empty; Leaf { ustring s; buffer b; } empty too.
    let leaf = Value::Record(vec![Value::String(String::new()), Value::Buffer(vec![])]);
    let v = Value::Record(vec![
        Value::Vector(vec![Value::Map(vec![])]),
        Value::Map(vec![(Value::Int(0), Value::Vector(vec![]))]),
        Value::Vector(vec![Value::Vector(vec![Value::Vector(vec![])])]),
        Value::Map(vec![(Value::String(String::new()), Value::Map(vec![]))]),
        Value::Vector(vec![leaf.clone()]),
        Value::Map(vec![]),
        leaf,
    ]);
    let t = "shapes.nest.Nest";
    assert_eq!(
        encode(t, &v, Format::Binary),
        [1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        encode(t, &v, Format::Csv),
        b"v{m{}},m{0,v{}},v{v{v{}}},m{',m{}},v{s{',#}},m{},s{',#}\n"
    );
    let xml = String::from_utf8(encode(t, &v, Format::Xml)).unwrap();
    assert!(
        xml.contains(concat!(
            "    <name>vvv</name>\n",
            "    <value><array>\n",
            "<value><array>\n",
            "<value><array>\n",
            "        </array></value>\n",
            "      </array></value>\n",
            "    </array></value>\n",
        )),
        "{xml}"
    );
    assert!(
        xml.contains(concat!(
            "<value><struct>\n",
            "        <member>\n",
            "          <name>s</name>\n",
            "          <value><string></string></value>\n",
            "        </member>\n",
            "        <member>\n",
            "          <name>b</name>\n",
            "          <value><string></string></value>\n",
            "        </member>\n",
            "      </struct></value>\n",
        )),
        "{xml}"
    );
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let bytes = encode(t, &v, format);
        let back = RecordReader::new(&bytes[..], format)
            .read_value(shapes_schema(), shapes_id(t))
            .unwrap()
            .unwrap();
        assert_eq!(back, v, "{format}");
    }
}

#[test]
fn record_keys_holding_nan_are_written_without_panic() {
    // Java's compareTo is not an order once NaN is in a record key (NaN is "greater" both
    // ways, so Java's own TreeMap order then depends on insertion order); sorting such keys
    // must still not panic, and what is written reads back.
    use hadoop_record::schema::{FieldType, Schema};
    let mut s = Schema::new();
    let r = add_record(&mut s, "m", "R", vec![("f", FieldType::Float)]);
    let top = add_record(
        &mut s,
        "m",
        "T",
        vec![(
            "m",
            FieldType::Map(Box::new(FieldType::Record(r)), Box::new(FieldType::Int)),
        )],
    );
    let entries: Vec<(Value, Value)> = (0..600)
        .zip(fixture_harness::arb::lcg(1))
        .map(|(i, x)| {
            let f = match (x >> 33) % 4 {
                0 => f32::NAN,
                1 => -0.0,
                2 => 0.0,
                _ => ((x >> 40) % 5) as f32 + 1.0,
            };
            (Value::Record(vec![Value::Float(f)]), Value::Int(i))
        })
        .collect();
    for format in [Format::Binary, Format::Csv, Format::Xml] {
        let mut writer = RecordWriter::new(Vec::new(), format);
        writer
            .write_value(&s, top, &Value::Record(vec![Value::Map(entries.clone())]))
            .unwrap();
        let bytes = writer.into_inner().unwrap();
        let back = RecordReader::new(&bytes[..], format)
            .read_value(&s, top)
            .unwrap()
            .unwrap();
        let Value::Record(fields) = back else {
            panic!()
        };
        let Value::Map(read) = &fields[0] else {
            panic!()
        };
        // Some equal keys merged, every NaN key kept.
        assert!(
            read.len() > 150 && read.len() <= 600,
            "{format}: {}",
            read.len()
        );
    }
}
