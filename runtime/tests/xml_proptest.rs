//! Property tests: any value of the fixture record types survives a trip through the XML
//! writer and reader, whatever its strings hold (every escape class, supplementary
//! characters, `]]>`), and whatever sizes the reader's input arrives in.

use fixture_harness::{read_back, record_id, schema, Trickle};
use hadoop_record::archive::xml::{XmlInput, XmlOutput};
use hadoop_record::schema::FieldType;
use hadoop_record::value::{read_record, write_record};
use hadoop_record::{RecordInput, Value};
use proptest::prelude::*;

/// Characters that exercise each escape class, mixed with arbitrary ones.
fn text() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '<',
        '>',
        '&',
        '%',
        ';',
        ']',
        '\'',
        '"',
        '\0',
        '\t',
        '\n',
        '\r',
        '\u{1f}',
        '\u{7f}',
        '\u{85}',
        '\u{d7ff}',
        '\u{e000}',
        '\u{fffd}',
        '\u{fffe}',
        '\u{ffff}',
        '\u{10000}',
        '\u{1F600}',
        '\u{10ffff}',
        'é',
        '～',
    ]);
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        special.prop_map(String::from),
        Just("]]>".to_owned()),
        Just("&lt;".to_owned()),
        Just("%0041".to_owned()),
        Just("\r\n".to_owned()),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

fn value_of(ty: &FieldType, depth: u32) -> BoxedStrategy<Value> {
    let small = if depth > 2 { 0..2usize } else { 0..4usize };
    match ty {
        FieldType::Byte => any::<i8>().prop_map(Value::Byte).boxed(),
        FieldType::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        FieldType::Int => any::<i32>().prop_map(Value::Int).boxed(),
        FieldType::Long => any::<i64>().prop_map(Value::Long).boxed(),
        FieldType::Float => any::<u32>()
            .prop_map(|b| Value::Float(f32::from_bits(b)))
            .boxed(),
        FieldType::Double => any::<u64>()
            .prop_map(|b| Value::Double(f64::from_bits(b)))
            .boxed(),
        FieldType::String => text().prop_map(Value::String).boxed(),
        FieldType::Buffer => prop::collection::vec(any::<u8>(), 0..16)
            .prop_map(Value::Buffer)
            .boxed(),
        FieldType::Vector(t) => prop::collection::vec(value_of(t, depth + 1), small)
            .prop_map(Value::Vector)
            .boxed(),
        FieldType::Map(k, v) => {
            prop::collection::vec((value_of(k, depth + 1), value_of(v, depth + 1)), small)
                .prop_map(Value::Map)
                .boxed()
        }
        FieldType::Record(id) => {
            let fields: Vec<_> = schema()
                .record(*id)
                .unwrap()
                .fields
                .iter()
                .map(|f| value_of(&f.ty, depth + 1))
                .collect();
            fields.prop_map(Value::Record).boxed()
        }
    }
}

fn records(ty: &'static str) -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(value_of(&FieldType::Record(record_id(ty)), 0), 1..4)
}

fn round_trip(ty: &str, values: &[Value], sizes: Vec<usize>) -> Result<(), TestCaseError> {
    let id = record_id(ty);
    let mut out = XmlOutput::new(Vec::new());
    for v in values {
        write_record(&mut out, schema(), id, v, "").unwrap();
    }
    let xml = out.into_inner().unwrap();
    let mut input = XmlInput::new(Trickle::cycling(&xml, sizes));
    for want in values {
        let got = read_record(&mut input, schema(), id, "")
            .map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&xml))))?;
        let want = read_back(want);
        prop_assert!(got.bitwise_eq(&want), "got {got:?}\nwant {want:?}");
    }
    prop_assert!(input.at_end().unwrap());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn all_prims_round_trip(values in records("oracle.prims.AllPrims"),
                            sizes in prop::collection::vec(1usize..300, 1..4)) {
        round_trip("oracle.prims.AllPrims", &values, sizes)?;
    }

    #[test]
    fn containers_round_trip(values in records("oracle.composite.Outer"),
                             sizes in prop::collection::vec(1usize..5000, 1..4)) {
        round_trip("oracle.composite.Outer", &values, sizes)?;
    }

    #[test]
    fn strings_round_trip(s in text()) {
        round_trip("oracle.prims.StringRec", &[Value::Record(vec![Value::String(s)])], vec![4096])?;
    }

    /// Arbitrary bytes never panic the reader and end in a value or an error with a position.
    #[test]
    fn arbitrary_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut input = XmlInput::new(&bytes[..]);
        let id = record_id("oracle.composite.Outer");
        loop {
            match input.at_end() {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => { prop_assert!(e.position().is_some()); break }
            }
            if let Err(e) = read_record(&mut input, schema(), id, "") {
                prop_assert!(e.position().is_some(), "{e}");
                break;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A valid document with a few bytes changed, removed or inserted: a value or an error
    /// with a position, never a panic.
    #[test]
    fn mutated_documents_never_panic(values in records("oracle.composite.Outer"),
                                     edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..6)) {
        let id = record_id("oracle.composite.Outer");
        let mut out = XmlOutput::new(Vec::new());
        for v in &values {
            write_record(&mut out, schema(), id, v, "").unwrap();
        }
        let mut xml = out.into_inner().unwrap();
        for (at, op, byte) in edits {
            let i = at.index(xml.len());
            match op {
                0 => xml[i] = byte,
                1 => { xml.remove(i); }
                _ => xml.insert(i, byte),
            }
        }
        let mut input = XmlInput::new(&xml[..]);
        loop {
            match input.at_end() {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => { prop_assert!(e.position().is_some(), "{e}"); break }
            }
            if let Err(e) = read_record(&mut input, schema(), id, "") {
                prop_assert!(e.position().is_some(), "{e}");
                break;
            }
        }
    }
}
